"""The OLED as terminal text: every pixel kept, in as few character cells as the terminal needs.

Three ways to pack pixels into one character cell:

- ``half``: ▀ ▄ █ (1x2 pixels a cell): 128x32 cells, for a terminal of 130+ columns.
- ``quadrant``: ▘▝▖▗▌▐▚▞▛▜▙▟▀▄█ (2x2 pixels a cell): 64x32 cells.
- ``braille``: the Unicode braille patterns (2x4 pixels a cell): 64x16 cells, so the whole
  display fits an 80x24 terminal with room for a border and the key legend.

``art_style`` picks the largest that fits the terminal; every style keeps every pixel (no
scaling), so a 6-pixel letter stays a letter.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

# quadrant cells indexed by top-left 1, top-right 2, bottom-left 4, bottom-right 8
QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
HALVES = " ▀▄█"  # top 1, bottom 2
# braille dot bits: (column, row) of the 2x4 cell -> bit of U+2800 + bits
BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    cell_w: int  # pixels across one character cell
    cell_h: int  # pixels down one character cell

    def size(self, width: int = 128, height: int = 64) -> tuple[int, int]:
        """(columns, lines) the art of a ``width`` x ``height`` image takes."""
        return -(-width // self.cell_w), -(-height // self.cell_h)


STYLES = {s.name: s for s in (Style("half", 1, 2), Style("quadrant", 2, 2),
                               Style("braille", 2, 4))}


def _cell(px: object, image: Image.Image, x0: int, y0: int, style: Style) -> str:
    def lit(x: int, y: int) -> bool:
        return x < image.width and y < image.height and px[x, y] != 0  # type: ignore[index]

    if style.name == "half":
        return HALVES[lit(x0, y0) | lit(x0, y0 + 1) << 1]
    if style.name == "quadrant":
        return QUADRANTS[lit(x0, y0) | lit(x0 + 1, y0) << 1 | lit(x0, y0 + 1) << 2
                         | lit(x0 + 1, y0 + 1) << 3]
    return chr(0x2800 + sum(bit for dx, dy, bit in BRAILLE_BITS if lit(x0 + dx, y0 + dy)))


def text_art(image: Image.Image, style: str = "braille") -> str:
    """The image as lines of text, every pixel kept (see the module docstring)."""
    st = STYLES[style]
    bw = image.convert("1")
    px = bw.load()
    columns, lines = st.size(bw.width, bw.height)
    return "\n".join("".join(_cell(px, bw, cx * st.cell_w, cy * st.cell_h, st)
                             for cx in range(columns)) for cy in range(lines))


def art_style(columns: int, rows: int, extra_lines: int = 5) -> str:
    """The largest style whose art (plus ``extra_lines`` of border and legend) fits a
    terminal of ``columns`` x ``rows``; braille when nothing bigger fits."""
    for name in ("half", "quadrant"):
        w, h = STYLES[name].size()
        if w + 2 <= columns and h + extra_lines <= rows:
            return name
    return "braille"


def framed(image: Image.Image, style: str, legend: str = "") -> str:
    """The art inside a thin border (the OLED's edges: its black is the terminal's blank),
    with ``legend`` under it."""
    art = text_art(image, style).split("\n")
    width = len(art[0])
    out = ["┌" + "─" * width + "┐", *(f"│{line}│" for line in art), "└" + "─" * width + "┘"]
    if legend:
        out.append(legend)
    return "\n".join(out)
