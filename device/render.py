"""Drawing a ``BoxView`` on the 128x64 one-bit OLED: a pure function, view in, image out.

It uses only Pillow's built-in bitmap font (``ImageFont.load_default_imagefont``, kept as
bytes in ``device/fontdata.py``: 6 px wide, about 10 px a line), so a render is the same on
every machine and Pillow build; the large numbers are that font's glyphs scaled up pixel for
pixel. Reference images live in
``tests/device/reference``.

That font covers Latin-1 only. Every text drawn here goes through ``device.view.drawable``
first (``fit`` calls it): a character the font lacks is spelled in Latin letters (``李明`` is
``LiMing``, ``Σοφία`` is ``Sofia``), and what has no spelling (an emoji, with its modifiers and
ZWJ sequence, as one cell) is drawn as a small hollow box. See docs/box.md.

``render`` may still fail (a bug in a screen); ``GuardedRender`` is what the box's front ends
call: a failure draws a "display error" frame instead, logged once, and the game goes on.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PIL import Image, ImageDraw, ImageFont

from device.view import (
    BODY_ROWS,
    MISSING,
    BoxView,
    drawable,
    fit,
    layout,
    notice_pages,
    rows,
    wrap,
)
from referee.lazylog import Logger

if TYPE_CHECKING:
    import logging

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

WIDTH, HEIGHT = 128, 64
CHAR_W, LINE_H = 6, 10
BODY_Y = (10, 20, 30, 40)
HINT_Y = 53
RIGHT_X = 62  # the column beside a big number
WHITE, BLACK = 1, 0


class BoxFont(ImageFont.ImageFont):
    from_pillows_png = False  # (tests/device/test_font.py: which way it was loaded)


@functools.cache
def font() -> BoxFont:
    """Pillow's built-in bitmap font (`load_default_imagefont` from Pillow 10.1; before it,
    as on Raspberry Pi OS bookworm's python3-pil 9.4, `load_default`), from the same bytes
    kept in device/fontdata.py: Pillow keeps it as a PNG, and opening that loads every
    image-file plugin Pillow has (about 6 ms of the box's start; issue 41). A Pillow whose
    loader has changed gets the font from Pillow itself, as before."""
    from device import fontdata

    f = BoxFont()
    try:
        f._load_pilfont_data(io.BytesIO(fontdata.METRICS),
                             Image.frombytes(fontdata.MODE, fontdata.SIZE, fontdata.GLYPHS))
    except Exception:  # (a Pillow without that loader: its own way, with the PNG)
        log.warning("the box's font is loaded from Pillow's PNG", exc_info=True)
        load = getattr(ImageFont, "load_default_imagefont", None)
        pillows = load() if load is not None else ImageFont.load_default()
        f.__dict__.update(cast(ImageFont.ImageFont, pillows).__dict__)
        f.from_pillows_png = True
    return f


@functools.cache
def _big_glyphs(text: str, scale: int) -> Image.Image:
    """``text`` in the bitmap font, cropped to its ink and scaled ``scale`` times."""
    text = drawable(text)
    w = max(1, CHAR_W * len(text))
    small = Image.new("1", (w, 12), BLACK)
    _write(ImageDraw.Draw(small), (0, 0), text, WHITE)
    box = small.getbbox() or (0, 0, 1, 1)
    ink = small.crop(box)
    return ink.resize((ink.width * scale, ink.height * scale), Image.Resampling.NEAREST)


def render(view: BoxView) -> Image.Image:
    """The view as a 128x64 mode "1" image (white = lit)."""
    im = Image.new("1", (WIDTH, HEIGHT), BLACK)
    d = ImageDraw.Draw(im)
    if view.screen == "idle":
        _idle(d, view)
        return im
    if view.code is not None:
        _code(d, view)
        if view.notice:
            _notice(d, view.notice, view.notice_page)
        return im
    lay = layout(view)
    if view.title:
        _title(d, view, lay.title)
    if view.big is not None:
        _big(im, d, view)
    x = RIGHT_X if view.big is not None else 0
    if view.big is not None and lay.bar is not None:
        x -= 1  # eleven cells and a thin scroll bar beside the big number
    right = WIDTH - 3 if lay.bar is not None else None  # (clear of the scroll bar)
    for y, row in zip(BODY_Y, lay.body, strict=False):  # (a verdict's: its sum, `layout`)
        _text(d, x, y, row.text, row.inverted, lay.width, right)
        if row.pips is not None:
            _pips(d, y + 2, row.pips, fill=WHITE, back=BLACK)
    if lay.bar is not None:
        total, first, shown = lay.bar
        top = BODY_Y[max(0, BODY_ROWS - shown)]
        _scrollbar(d, total, first, shown, top, thin=view.big is not None)
    bottom = view.lines[0] if view.verdict is not None and view.lines else view.hint
    if view.verdict is not None:
        _text(d, 0, HINT_Y + 1, fit(bottom), True, 21)
    else:
        _write(d, (0, HINT_Y), fit(bottom), WHITE)
    if view.notice:
        _notice(d, view.notice, view.notice_page)
    return im


def _write(d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int) -> None:
    """``text`` in the bitmap font at ``xy``, after `drawable` (a no-op on text already
    mapped); each `MISSING` cell is drawn as a small hollow box."""
    text = drawable(text)
    d.text(xy, text, font=font(), fill=fill)
    if MISSING not in text:
        return
    x, y = xy
    for i, char in enumerate(text):
        if char == MISSING:
            left = x + i * CHAR_W
            d.rectangle((left, y + 1, left + CHAR_W - 1, y + LINE_H), fill=1 - fill)
            d.rectangle((left, y + 3, left + CHAR_W - 2, y + LINE_H - 1), outline=fill)


def _text(d: ImageDraw.ImageDraw, x: int, y: int, text: str, inverted: bool,
          width: int, right: int | None = None) -> None:
    if inverted:
        end = x + width * CHAR_W + 1
        d.rectangle((x, y + 1, end if right is None else min(end, right), y + LINE_H),
                    fill=WHITE)
        _write(d, (x + 1, y), text, BLACK)
    else:
        _write(d, (x + 1, y), text, WHITE)


def _scrollbar(d: ImageDraw.ImageDraw, size: int, start: int, rows: int, top: int,
               thin: bool = False) -> None:
    """A thin bar at the right edge when a menu or a body has more rows than are shown:
    ``size`` rows, from ``start``, ``rows`` of them shown from ``top``."""
    if size <= rows or rows <= 0:
        return
    span = BODY_Y[-1] + LINE_H - top
    y0 = top + 1 + span * start // size
    y1 = max(y0, top + span * (start + rows) // size)  # (at least a pixel)
    if not thin:  # (a thin bar is its thumb alone)
        d.line((WIDTH - 1, top + 1, WIDTH - 1, top + span), fill=WHITE)
    d.rectangle((WIDTH - (1 if thin else 2), y0, WIDTH - 1, y1), fill=WHITE)


def _title(d: ImageDraw.ImageDraw, view: BoxView, text: str) -> None:
    """The title bar: its first row (`layout` puts the rest of a long title in the body)."""
    d.rectangle((0, 0, WIDTH - 1, 9), fill=WHITE)
    _write(d, (2, -1), text, BLACK)
    if view.strikes is not None:
        _pips(d, 2, view.strikes, fill=BLACK, back=WHITE)


def _pips(d: ImageDraw.ImageDraw, top: int, strikes: int, *, fill: int, back: int) -> None:
    """Three strike pips at the right edge: filled for each strike, hollow for the rest."""
    for i in range(3):
        x = 103 + i * 8
        if i < strikes:
            d.ellipse((x, top, x + 5, top + 5), fill=fill)
        else:
            d.ellipse((x, top, x + 5, top + 5), outline=fill, fill=back)


def _big(im: Image.Image, d: ImageDraw.ImageDraw, view: BoxView) -> None:
    text = view.big or ""
    scale = 4 if len(text) <= 2 else 3 if len(text) == 3 else 2
    glyphs = _big_glyphs(text, scale)
    x = max(0, (RIGHT_X - 2 - glyphs.width) // 2)
    im.paste(glyphs, (x, 13))
    if view.source:
        label = fit(view.source, 10)
        lx = max(0, (RIGHT_X - 2 - CHAR_W * len(label)) // 2)
        _write(d, (lx, 41), label, WHITE)


def _notice(d: ImageDraw.ImageDraw, text: str, page: int = 0) -> None:
    """A notice over the screen's bottom: each of its lines (a refusal's rule, then its
    message) word-wrapped as the OLED draws it, four rows a page (`notice_pages`; the box
    turns the pages by the clock): never cut (issue 39)."""
    pages = notice_pages(text)
    lines = list(pages[page % len(pages)])
    top = HINT_Y + 1 - LINE_H * len(lines) - 3
    d.rectangle((0, top, WIDTH - 1, HEIGHT - 1), fill=WHITE)
    d.line((0, top + 1, WIDTH - 1, top + 1), fill=BLACK)
    for i, line in enumerate(lines):
        _write(d, (1, top + 2 + i * LINE_H), fit(line, 21), BLACK)


def _idle(d: ImageDraw.ImageDraw, view: BoxView) -> None:
    lines = [r for line in view.lines for r in rows(line)][:6]  # whole, by words
    top = (HEIGHT - LINE_H * len(lines)) // 2 - 1
    for i, line in enumerate(lines):
        x = (WIDTH - CHAR_W * len(line)) // 2
        _write(d, (x, top + i * LINE_H), line, WHITE)


CODE_SCALE = 2  # pixels a module: at 1 a 0.96" screen's QR code is too small for a camera


def _code(d: ImageDraw.ImageDraw, view: BoxView) -> None:
    """A QR code at the left, as big as fits at `CODE_SCALE` (lit: light modules, so the
    code's own quiet zone is lit), and the view's lines and hint beside it."""
    code = view.code or ()
    n = len(code)
    size = n * CODE_SCALE
    top = max(0, (HEIGHT - size) // 2)
    for y, row in enumerate(code):
        for x, dark in enumerate(row):
            if not dark:
                left, upper = x * CODE_SCALE, top + y * CODE_SCALE
                d.rectangle((left, upper, left + CODE_SCALE - 1, upper + CODE_SCALE - 1),
                            fill=WHITE)
    x = size + 3
    width = max(1, (WIDTH - x) // CHAR_W)
    shown = [*(r for line in view.lines for r in rows(line, width)),
             *(("", view.hint) if view.hint else ())][:6]
    for i, line in enumerate(shown):
        _write(d, (x, i * LINE_H), fit(line, width), WHITE)


# ---- a render that never stops the box --------------------------------------------------------

def error_frame(what: str = "") -> Image.Image:
    """The frame shown when a screen cannot be drawn: "display error", what failed (ASCII,
    the font's own glyphs only), and that the game goes on. Drawn without `render`."""
    im = Image.new("1", (WIDTH, HEIGHT), BLACK)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, WIDTH - 1, 9), fill=WHITE)
    d.text((2, -1), "DISPLAY ERROR", font=font(), fill=BLACK)
    words = "".join(ch if " " <= ch <= "~" else "?" for ch in what)
    lines = (*wrap(words, 21, 2), "The game goes on;", "buttons still work.")[-4:]
    for i, line in enumerate(lines):
        d.text((0, 12 + i * LINE_H), line, font=font(), fill=WHITE)
    return im


class OnceLog:
    """Logs each distinct failure once (its type, message and where it was raised), not once
    a frame: a screen that cannot be drawn fails on every redraw."""

    LIMIT = 64  # distinct failures remembered (then any further one is logged again)

    def __init__(self, logger: Logger | logging.Logger, what: str) -> None:
        self._log, self._what = logger, what
        self._seen: set[tuple[str, str, str]] = set()

    def failed(self, err: BaseException) -> bool:
        """Log ``err`` (with its traceback) unless the same failure was logged before; True
        if it was logged now."""
        tb = err.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else ""
        key = (type(err).__name__, str(err), where)
        if key in self._seen:
            return False
        if len(self._seen) >= self.LIMIT:
            self._seen.clear()
        self._seen.add(key)
        self._log.error("%s failed (%s: %s); showing a placeholder, the game goes on",
                        self._what, type(err).__name__, err, exc_info=err)
        return True


def failure_words(err: BaseException) -> str:
    """A failure in a few words for a small screen: ``UnicodeEncodeError: 'latin-1' ...``."""
    return f"{type(err).__name__}: {err}"


class GuardedRender:
    """``render(view)`` that never raises: what cannot be drawn becomes `error_frame`, the
    failure logged once (`OnceLog`) and kept in ``last_error`` (None after a frame drawn).
    The box's front ends (``referee box``, ``referee run``'s display and its console panel)
    draw through one of these, so no screen can stop a game from starting or resuming.

    ``draw``: the renderer (default: this module's `render`, looked up at each call)."""

    def __init__(self, draw: Callable[[BoxView], Image.Image] | None = None,
                 logger: Logger | logging.Logger = log) -> None:
        self._draw = draw
        self._once = OnceLog(logger, "drawing the box's screen")
        self.last_error: str | None = None
        self.failures = 0

    def __call__(self, view: BoxView) -> Image.Image:
        try:
            image = (self._draw or render)(view)
        except Exception as err:
            self.failures += 1
            self.last_error = failure_words(err)
            self._once.failed(err)
            return error_frame(self.last_error)
        self.last_error = None
        return image
