"""The page's address as a QR code (segno): as text for the console, as a 1-bit picture for
the 128x64 OLED."""

from __future__ import annotations

from typing import Any

import segno

QUIET = 2  # modules of white border (phones read 2 fine on a lit screen)


def matrix(url: str, quiet: int = QUIET) -> list[list[bool]]:
    """The code's modules, True for dark, with a quiet zone of `quiet` modules."""
    qr = segno.make(url, error="l", micro=False)
    rows = [[bool(m) for m in row] for row in qr.matrix]
    n = len(rows) + 2 * quiet
    blank = [False] * n
    return ([blank[:] for _ in range(quiet)]
            + [[False] * quiet + r + [False] * quiet for r in rows]
            + [blank[:] for _ in range(quiet)])


OLED_SIZE = (128, 64)
OLED_SCALE = 2  # pixels a module on the OLED: at 1 a 0.96" screen's code is too small to scan


def oled_matrix(url: str, height: int = OLED_SIZE[1]) -> list[list[bool]] | None:
    """The code's modules for the OLED (a one-module quiet zone: the screen's dark edge is
    no quiet zone, lit pixels are), or None when it would not fit at `OLED_SCALE` pixels a
    module: then the OLED shows the address in words and the console the code (F6).

    An address in capitals (`WebServer.code_url`) of up to 77 characters fits (version 3,
    alphanumeric mode); in mixed case only up to 53 (byte mode)."""
    m = matrix(url, quiet=1)
    return m if len(m) * OLED_SCALE <= height else None


def text(url: str) -> str:
    """Half blocks, two modules a character cell, dark modules as spaces on light (so a
    dark terminal shows dark-on-light like paper)."""
    m = matrix(url)
    if len(m) % 2:
        m.append([False] * len(m[0]))
    glyph = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    return "\n".join("".join(glyph[(top, bottom)] for top, bottom in zip(m[y], m[y + 1],
                                                                          strict=True))
                     for y in range(0, len(m), 2))


def image(url: str, size: tuple[int, int] = (128, 64)) -> Any:
    """A 1-bit picture of `size` with the code as big as fits, centred (lit = light; a
    one-module quiet zone, the screen's dark edge is the rest)."""
    from PIL import Image

    m = matrix(url, quiet=1)
    n = len(m)
    scale = max(1, min(size) // n)
    img = Image.new("1", size, 0)
    x0, y0 = (size[0] - n * scale) // 2, (size[1] - n * scale) // 2
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            if not dark:
                left, top = x0 + x * scale, y0 + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=1)
    return img
