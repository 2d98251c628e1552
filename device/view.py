"""What the box's screen shows, as plain data: ``BoxView``.

The controller (``device.box``) builds a view from the session's state and its small UI cursor;
``device.render`` draws it on a 128x64 image; the console can draw the same view its own way.
The OLED's bitmap font draws Latin-1 only: `drawable` maps any text (a player's name in any
script) to what it can draw, and `fit` and `wrap` count widths after that mapping.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib.metadata import entry_points
from typing import Any

LINE_CHARS = 21  # 128 px / 6 px per character of the bitmap font


@dataclass
class Cursor:
    """The box's own small UI state: where the cursor is, never anything about the game."""

    overlay: str | None = None  # new, menu, status, confirm, confirm_new
    oindex: int = 0  # the overlay's cursor / page
    step: str | None = None  # tiles, museums, steal, sell: a step inside the turn
    index: int = 0  # the cursor of the screen under the overlay
    tile: str | None = None  # a museum tile waiting for its museum
    stage: int = 0  # obstacle: 0 choosing the specialist, 1 the attribute
    picks: dict[str, int] = field(default_factory=lambda: {"specialist": 0, "attribute": 0})
    players: int = 2  # the new-game player count
    ack: int | None = None  # log seq of a result (verdict, drawn card) waiting for a press
    # a game's own entry in progress (The A.R.T. Project: the fields chosen so far, a card's
    # sections, the new game's choices); cleared with the turn
    form: dict[str, Any] = field(default_factory=dict)

    def reset_turn(self) -> None:
        self.step, self.index, self.tile = None, 0, None
        self.stage, self.picks = 0, {"specialist": 0, "attribute": 0}
        self.form = {}


Item = tuple[str, Any]  # (label, what choosing it means)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A bypass total, term by term (GG-8): roll + specialist + attribute - art = total."""

    roll: int
    specialist: int
    attribute: int
    art: int
    total: int
    target: int
    success: bool
    source: str  # electronic, kept, typed, tray

    def terms(self) -> str:
        return f"{self.roll}+{self.specialist}+{self.attribute}-{self.art}"


@dataclass(frozen=True, slots=True)
class BoxView:
    """One screen of the box.

    Attributes:
        screen: which screen (new, hands, order, tiebreak, turn, tiles, museums, obstacle,
            verdict, drawn, choice, draw, reup, steal, sell, menu, status, confirm, over, idle).
        title: the top line (usually the player and the turn).
        lines: small text lines for the body.
        big: a large number (the last roll, a player count), or None.
        source: what ``big`` is: ``electronic``, ``kept``, ``typed``, ``tray``, ``players`` ...
        menu: the items of an open choice; ``cursor`` is the highlighted one.
        strikes: the player's strikes (0-3), drawn as pips; None for no pips.
        pips: strikes per body line (the players page), drawn as pips at the line's end;
            None (or no entry) for a line without.
        money: the player's money in dollars, or None.
        verdict: a bypass result with its sum, term by term.
        hint: the bottom line: what the buttons do now.
        notice: a refusal or a message, shown over the screen for a few seconds.
        static: nothing on it moves by itself (the OLED may shift it against burn-in).
        code: a QR code's modules (True: dark), drawn at the left at two pixels a module
            with ``lines`` beside it; None for no code.
    """

    screen: str
    title: str = ""
    lines: tuple[str, ...] = ()
    big: str | None = None
    source: str | None = None
    menu: tuple[str, ...] = ()
    cursor: int = 0
    strikes: int | None = None
    pips: tuple[int | None, ...] = ()
    money: int | None = None
    verdict: Verdict | None = None
    hint: str = ""
    notice: str | None = None
    static: bool = True
    code: tuple[tuple[bool, ...], ...] | None = None

    def text(self) -> str:
        """The view as plain text lines (logs, tests, a terminal without graphics)."""
        out = [self.title]
        if self.code is not None:
            out.append(f"[QR code, {len(self.code)}x{len(self.code)} modules]")
        if self.big is not None:
            out.append(f"[{self.big}] {self.source or ''}".rstrip())
        out += [line + (f" [{'*' * n}{'-' * (3 - n)}]" if n is not None else "")
                for line, n in zip(self.lines, (*self.pips, *[None] * len(self.lines)),
                                   strict=False)]
        out += [("> " if i == self.cursor else "  ") + item for i, item in enumerate(self.menu)]
        if self.verdict is not None:
            v = self.verdict
            out.append(f"{v.terms()} = {v.total} vs {v.target}")
        if self.notice:
            out.append(f"!! {self.notice}")
        out.append(self.hint)
        return "\n".join(out)


def fit(text: str, width: int = LINE_CHARS) -> str:
    """``text`` as the OLED draws it (`drawable`) cut to ``width`` cells, a cut marked with a
    final '.'."""
    text = drawable(text)
    return text if len(text) <= width else text[: width - 1].rstrip() + "."


def short_museum(name: str) -> str:
    """"The Metropolitan Museum of Art" -> "Metropolitan": the one word that names it."""
    words = [w for w in name.split() if w.lower() not in ("the", "of", "art", "museum",
                                                             "gallery")]
    return words[0] if words else name


def money(amount: int) -> str:
    """Dollars the short way: $0, $750K, $300M, $1.2B."""
    for size, suffix in ((10**9, "B"), (10**6, "M"), (10**3, "K")):
        if amount >= size:
            value = amount / size
            text = f"{value:.1f}".rstrip("0").rstrip(".") if value < 10 else f"{value:.0f}"
            return f"${text}{suffix}"
    return f"${amount}"


def short_hex(hexdigits: str | None, each: int = 6) -> str:
    """A commitment or seed shortened for the screen: 3fa1c9..e07b12."""
    if not hexdigits:
        return "-"
    return f"{hexdigits[:each]}..{hexdigits[-each:]}"


def wrap(text: str, width: int = LINE_CHARS, lines: int = 3) -> tuple[str, ...]:
    """Word-wrap ``text`` into at most ``lines`` lines of ``width``."""
    out: list[str] = []
    current = ""
    for word in drawable(text).split():
        candidate = f"{current} {word}".strip()
        if len(candidate) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        current = word if len(word) <= width else fit(word, width)
    if current:
        out.append(current)
    if len(out) > lines:
        out = [*out[: lines - 1], fit(" ".join(out[lines - 1:]), width)]
    return tuple(out)


# ---- what the OLED's font can draw ------------------------------------------------------------

# Pillow's built-in bitmap font (``device.render.font``) has a glyph for printable ASCII and for
# Latin-1's U+00A1-U+00FF; nothing else (U+0080-U+00A0 draw blank).
FONT_CHARS = frozenset(chr(c) for c in (*range(0x20, 0x7F), *range(0xA1, 0x100)))
MISSING = "\u00a4"  # ¤ stands for a cell the font cannot draw; device.render draws it as a box

_JOINERS = ("\u200c", "\u200d")  # ZWNJ, ZWJ: part of the cluster they follow


def _extends(char: str) -> bool:
    """``char`` belongs to the grapheme cluster before it: a combining mark, a joiner, a
    variation selector, an emoji skin-tone modifier or a tag character (UAX #29's Extend and
    SpacingMark, as far as they matter for a name)."""
    if char in _JOINERS:
        return True
    code = ord(char)
    if 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True
    return unicodedata.category(char) in ("Mn", "Me", "Mc")


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def graphemes(text: str) -> list[str]:
    """``text`` cut into user-perceived characters (a simplified UAX #29): a letter with its
    combining marks, an emoji with its modifiers, an emoji ZWJ sequence, a flag (two regional
    indicators) are each one."""
    out: list[str] = []
    for char in text:
        if out:
            last = out[-1]
            if _extends(char):
                out[-1] += char
                continue
            if last[-1] == "\u200d" and len(last) > 1 and _pictographic(char):
                out[-1] += char  # the next emoji of a ZWJ sequence
                continue
            if (_regional(char) and _regional(last[-1]) and len(last) == 1):
                out[-1] += char  # the second half of a flag
                continue
        out.append(char)
    return out


def _pictographic(char: str) -> bool:
    """An emoji-like symbol (anyascii names it ``:shortcode:``)."""
    return unicodedata.category(char) == "So" or _regional(char)


@lru_cache(maxsize=4096)
def _cell(cluster: str) -> str:
    """One grapheme cluster as the font can draw it: itself if the font has it (after NFC:
    ``e`` + U+0301 is ``é``), a space for any space, else its Latin transliteration
    (``anyascii``: ``李`` -> ``Li``, ``Σ`` -> ``S``), else `MISSING` (an emoji, a symbol
    nobody can spell in letters, a control character)."""
    composed = unicodedata.normalize("NFC", cluster)
    if composed in FONT_CHARS:
        return composed
    if cluster.isspace():
        return " "
    from anyascii import anyascii

    head = anyascii(cluster[0])
    if head.startswith(":") and len(head) > 1:  # an emoji's shortcode: one box, not ":art:"
        return MISSING
    letters = "".join(ch for ch in anyascii(composed) if ch in FONT_CHARS).strip()
    if letters or unicodedata.category(cluster[0])[0] in "LM":
        return letters  # a letter with no Latin spelling (Arabic's alef) is left out
    return MISSING


def drawable(text: str) -> str:
    """``text`` as the OLED can draw it: every character in `FONT_CHARS`. The one mapping
    the box uses for everything it draws (``fit``, ``wrap`` and ``device.render`` call it;
    widths are counted after it). Never raises; a string already drawable comes back as it
    is."""
    if all(ch in FONT_CHARS for ch in text):
        return text
    return "".join(_cell(cluster) for cluster in graphemes(text)) or MISSING


# ---- each game's screens ----------------------------------------------------------------------

OLED_GROUP = "tableside_referee.oled_screens"
DEFAULT_GAME = "gallery-grippers"


@dataclass(frozen=True)
class OledScreens:
    """What the box shows of one game and what its buttons do there (`device.box` knows no
    game). ``cursor(players=n)``: the game's cursor; ``mode(ctrl)``: the screen the state
    calls for; ``menu(ctrl)``: the MENU overlay's items; ``items(mode, state, cursor, menu)``:
    a screen's choices; ``view(ctrl, mode)``: the screen; ``idle(state)``: the idle screen;
    ``handle(ctrl, mode, action)``: what an action does on a screen. ``starts``: a new game
    of it can be started from the box's buttons (its screens handle the ``new`` overlay);
    the box's game chooser lists it."""

    cursor: Callable[..., Any]
    mode: Callable[[Any], str]
    menu: Callable[[Any], list[Any]]
    items: Callable[..., list[Any]]
    view: Callable[[Any, str], BoxView]
    idle: Callable[[Any], BoxView]
    handle: Callable[[Any, str, str], None]
    starts: bool = False


@cache
def oled_screens(game: str = DEFAULT_GAME) -> OledScreens:
    """The installed box screens of `game` (entry-point group ``OLED_GROUP``)."""
    for ep in entry_points(group=OLED_GROUP, name=game):
        found = ep.load()
        if not isinstance(found, OledScreens):
            raise TypeError(f"entry point {game} in {OLED_GROUP} is not an OledScreens")
        return found
    raise LookupError(f"No box screens are installed for the game {game!r} "
                      f"(entry-point group {OLED_GROUP}); reinstall the referee.")
