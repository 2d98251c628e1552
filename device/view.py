"""What the box's screen shows, as plain data: ``BoxView``.

The controller (``device.box``) builds a view from the session's state and its small UI cursor;
``device.render`` draws it on a 128x64 image; the console can draw the same view its own way.
Text is plain ASCII so the OLED's bitmap font has every glyph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
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

    def reset_turn(self) -> None:
        self.step, self.index, self.tile = None, 0, None
        self.stage, self.picks = 0, {"specialist": 0, "attribute": 0}


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
    """``text`` cut to ``width`` characters, a cut marked with a final '.'."""
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
    for word in text.split():
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


# ---- each game's screens ----------------------------------------------------------------------

OLED_GROUP = "tableside_referee.oled_screens"
DEFAULT_GAME = "gallery-grippers"


@dataclass(frozen=True)
class OledScreens:
    """What the box shows of one game and what its buttons do there (`device.box` knows no
    game). ``cursor(players=n)``: the game's cursor; ``mode(ctrl)``: the screen the state
    calls for; ``menu(ctrl)``: the MENU overlay's items; ``items(mode, state, cursor, menu)``:
    a screen's choices; ``view(ctrl, mode)``: the screen; ``idle(state)``: the idle screen;
    ``handle(ctrl, mode, action)``: what an action does on a screen."""

    cursor: Callable[..., Any]
    mode: Callable[[Any], str]
    menu: Callable[[Any], list[Any]]
    items: Callable[..., list[Any]]
    view: Callable[[Any, str], BoxView]
    idle: Callable[[Any], BoxView]
    handle: Callable[[Any, str, str], None]


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
