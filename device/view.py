"""What the box's screen shows, as plain data: ``BoxView``.

The controller (``device.box``) builds a view from the session's state and its small UI cursor;
``device.render`` draws it on a 128x64 image; the console can draw the same view its own way.
The OLED's bitmap font draws Latin-1 only: `drawable` maps any text (a player's name in any
script) to what it can draw, and `fit` and `wrap` count widths after that mapping.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib.metadata import entry_points
from typing import Any

LINE_CHARS = 21  # 128 px / 6 px per character of the bitmap font
BODY_ROWS = 4  # text rows between the title bar and the hint line
BESIDE_BIG = 11  # characters a row beside a big number
TITLE_CHARS, TITLE_BESIDE_PIPS = 21, 16  # the title bar, without / with strike pips
ROW_PIPS_CHARS = 16  # a body row that ends in strike pips (the players page)
SCROLL_S = 2.5  # a body longer than the screen shows its next rows after this long


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
        scroll: which page of the body's rows is shown when they do not all fit (`layout`;
            the controller moves it on by the clock, `SCROLL_S`).

    Text is given whole: `layout` wraps every title, line and menu item by words (`rows`),
    never cutting one, and a body longer than the screen scrolls page by page.
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
    scroll: int = 0
    words: tuple[str, ...] | None = None
    """The body as `text` says it when the OLED's rows are not the console's words view
    (the players page: one line a player, with the strikes in words); None: ``lines``."""

    def text(self) -> str:
        """The view as plain text lines (logs, tests, the console's box panel in words): the
        names as typed (the OLED's picture transliterates them when it draws, `drawable`)."""
        out = [self.title]
        if self.code is not None:
            out.append(f"[QR code, {len(self.code)}x{len(self.code)} modules]")
        if self.big is not None:
            out.append(f"[{self.big}] {self.source or ''}".rstrip())
        if self.words is not None:
            out += self.words
        else:
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


def rows(text: str, width: int = LINE_CHARS) -> tuple[str, ...]:
    """``text`` as the OLED draws it (`drawable`), word-wrapped into rows of at most
    ``width`` cells, nothing left out: a row breaks between words, and only a word longer
    than a whole row is broken (into rows of ``width``). The rows joined by spaces are the
    text with its runs of spaces made one (a text that fits is one row, as it is: its
    spaces, leading ones too, kept). ``""``: one empty row."""
    text = drawable(text)
    if len(text) <= width:
        return (text,)
    out: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        while len(word) > width:
            out.append(word[:width])
            word = word[width:]
        current = word
    if current or not out:
        out.append(current)
    return tuple(out)


def wrap(text: str, width: int = LINE_CHARS, lines: int = 3) -> tuple[str, ...]:
    """Word-wrap ``text`` into at most ``lines`` lines of ``width`` (`rows`); past them the
    last line ends at a word with ``..`` (never in a word). For a notice; a screen's text
    goes whole through `layout` instead."""
    out = [r for r in rows(text, width) if r]
    if len(out) <= lines:
        return tuple(out)
    last = ""
    for word in out[lines - 1].split():
        if len(f"{last} {word}".strip()) + 2 > width:
            break
        last = f"{last} {word}".strip()
    return (*out[: lines - 1], f"{last}..")


@dataclass(frozen=True, slots=True)
class Row:
    """One body row as drawn: its text (at most the layout's width), inverted (a menu's
    highlighted item), and strike pips at its end (None: none)."""

    text: str
    inverted: bool = False
    pips: int | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a view's text goes on the 128x64 screen (`layout`): the title bar's row, the
    body rows shown, their width in cells, and the scroll bar's (total, first shown, shown)
    in rows when not everything fits (None: it all fits)."""

    title: str
    body: tuple[Row, ...]
    width: int
    bar: tuple[int, int, int] | None
    pages: int = 1


def _menu_window(sizes: Sequence[int], cursor: int, room: int) -> tuple[int, int]:
    """The menu items shown in ``room`` rows (each item ``sizes[i]`` rows) around the
    cursor's, the cursor's whole: (first, end)."""
    cursor = min(max(cursor, 0), len(sizes) - 1)
    first, used = cursor, sizes[cursor]
    while first > 0 and used + sizes[first - 1] <= room:  # the cursor's at the bottom
        first -= 1
        used += sizes[first]
    end = cursor + 1
    while end < len(sizes) and used + sizes[end] <= room:  # (room left: the items after)
        used += sizes[end]
        end += 1
    return first, end


def _title_rest(title: str, room: int, width: int) -> tuple[str, ...]:
    """What of ``title`` does not fit the bar (``room`` cells), in rows of the body's
    ``width``."""
    text = drawable(title)
    if len(text) <= room:
        return ()
    text = " ".join(text.split())
    return rows(text[len(rows(text, room)[0]):].strip(), width)


def _body_text(view: BoxView, width: int, room: int) -> tuple[list[Row], list[Row]]:
    """The title's rows past the bar, and the lines' rows, at ``width``."""
    heads = [Row(r) for r in _title_rest(view.title, room, width)]
    if view.verdict is not None:  # its sum, term by term (the lines go at the bottom)
        v = view.verdict
        sign = ">=" if v.success else "<"
        return heads, [Row(f"+{v.specialist:>3} card"), Row(f"+{v.attribute:>3} card"),
                       Row(f"-{v.art:>3} art"), Row(f"={v.total:>3} {sign}{v.target}", True)]
    text: list[Row] = []
    pips = (*view.pips, *[None] * len(view.lines))
    for line, n in zip(view.lines, pips, strict=False):
        found = rows(line, min(width, ROW_PIPS_CHARS) if n is not None else width)
        text += [Row(r, False, n if i == 0 else None) for i, r in enumerate(found)]
    return heads, text


def layout(view: BoxView) -> Layout:
    """The text of ``view`` laid out in rows, nothing cut: the title wrapped by words (what
    does not fit the bar opens the body), every line and menu item wrapped (`rows`); a menu
    shows its items around the cursor, whole (its lines give way to it, the title never);
    what still does not fit is shown a page (``view.scroll``) at a time."""
    room = TITLE_BESIDE_PIPS if view.strikes is not None else TITLE_CHARS
    bar_row = rows(view.title, room)[0] if view.title else ""
    width = BESIDE_BIG if view.big is not None else LINE_CHARS
    heads, text = _body_text(view, width, room)
    if view.menu:
        sizes = [len(rows(item, width)) for item in view.menu]
        if sum(sizes) + len(heads) > BODY_ROWS and view.big is None:
            width -= 1  # the scroll bar's column
            sizes = [len(rows(item, width)) for item in view.menu]
        pages = 1
        most = BODY_ROWS - 1  # a title's rows leave the menu a row at least
        if len(heads) > most:  # a title of more rows than that: a page of it at a time
            pages = -(-len(heads) // most)
            page = view.scroll % pages
            heads = heads[page * most:(page + 1) * most]
            heads += [Row("")] * (most - len(heads))  # the menu's room the same each page
        left = BODY_ROWS - len(heads)
        text = heads + text[:max(0, left - min(left, sum(sizes)))]  # lines give way
        room_m = BODY_ROWS - len(text)
        cursor = min(max(view.cursor, 0), len(sizes) - 1)
        if sizes[cursor] > room_m:  # one item taller than the room: it alone, paged
            item = rows(view.menu[cursor], width)
            pages = max(pages, -(-len(item) // room_m))
            page = view.scroll % -(-len(item) // room_m)
            shown = tuple(Row(r, True) for r in item[page * room_m:(page + 1) * room_m])
            bar = (sum(sizes), sum(sizes[:cursor]) + page * room_m, room_m)
            return Layout(bar_row, (*text, *shown), width, bar, pages)
        first, end = _menu_window(sizes, cursor, room_m)
        items = [Row(r, i == cursor) for i in range(first, end)
                 for r in rows(view.menu[i], width)]
        total = sum(sizes)
        bar = (total, sum(sizes[:first]), room_m) if total > room_m else None
        return Layout(bar_row, (*text, *items), width, bar, pages)
    text = heads + text
    if len(text) <= BODY_ROWS:
        return Layout(bar_row, tuple(text), width, None)
    if view.big is None:
        width -= 1  # again, one cell narrower: the scroll bar's column
        heads, text = _body_text(view, width, room)
        text = heads + text
    pages = -(-len(text) // BODY_ROWS)
    page = view.scroll % pages
    shown = tuple(text[page * BODY_ROWS: (page + 1) * BODY_ROWS])
    return Layout(bar_row, shown, width, (len(text), page * BODY_ROWS, BODY_ROWS), pages)


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
