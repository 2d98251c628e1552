"""The OLED as terminal text: every pixel kept, and the whole picture fits the terminal."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from device.textart import BRAILLE_BITS, HALVES, QUADRANTS, STYLES, art_style, framed, text_art

LEGEND = "keys: r ROLL  n NEXT  b BACK  m MENU  (capital: hold)  q quit"


def pixels_back(art: str, style: str, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Decode the art again, cell by cell (an independent reading of each character)."""
    st_ = STYLES[style]
    im = Image.new("1", size)
    for cy, line in enumerate(art.split("\n")):
        for cx, ch in enumerate(line):
            if style == "half":
                bits = [(0, 0, 1), (0, 1, 2)]
                code = HALVES.index(ch)
            elif style == "quadrant":
                bits = [(0, 0, 1), (1, 0, 2), (0, 1, 4), (1, 1, 8)]
                code = QUADRANTS.index(ch)
            else:
                bits = list(BRAILLE_BITS)
                code = ord(ch) - 0x2800
                assert 0 <= code <= 0xFF, ch
            for dx, dy, bit in bits:
                x, y = cx * st_.cell_w + dx, cy * st_.cell_h + dy
                if code & bit:
                    assert x < size[0] and y < size[1], "ink outside the image"
                    im.putpixel((x, y), 1)
    return im


images = st.binary(min_size=1024, max_size=1024).map(
    lambda raw: Image.frombytes("1", (128, 64), raw))


@settings(max_examples=40, deadline=None)
@given(images, st.sampled_from(sorted(STYLES)))
def test_every_style_keeps_every_pixel(image: Image.Image, style: str) -> None:
    art = text_art(image, style)
    lines = art.split("\n")
    assert (len(lines[0]), len(lines)) == STYLES[style].size()
    assert all(len(line) == len(lines[0]) for line in lines)
    assert pixels_back(art, style).tobytes() == image.tobytes()


@given(st.integers(1, 300), st.integers(1, 120))
def test_the_style_chosen_fits_the_terminal_whenever_the_smallest_does(cols: int,
                                                                        rows: int) -> None:
    style = art_style(cols, rows)
    block = framed(Image.new("1", (128, 64)), style, LEGEND).split("\n")
    width = max(len(line) for line in block)
    smallest = framed(Image.new("1", (128, 64)), "braille", LEGEND).split("\n")
    if max(len(line) for line in smallest) <= cols and len(smallest) <= rows:
        assert width <= cols and len(block) <= rows, (style, cols, rows)
    # a bigger style is never chosen when it does not fit; the largest that fits is
    for name in ("half", "quadrant"):
        w, h = STYLES[name].size()
        if w + 2 <= cols and h + 5 <= rows:
            assert STYLES[style].cell_w * STYLES[style].cell_h <= (
                STYLES[name].cell_w * STYLES[name].cell_h)
            break


def test_an_80x24_terminal_gets_the_whole_display_with_its_border_and_keys() -> None:
    assert art_style(80, 24) == "braille"
    im = Image.new("1", (128, 64))
    im.putpixel((127, 63), 1)
    block = framed(im, "braille", LEGEND).split("\n")
    assert len(block) <= 23 and max(len(line) for line in block) <= 80
    assert block[0].startswith("┌") and block[-1] == LEGEND
    assert block[16][-2] == chr(0x2800 + 0x80)  # the bottom-right pixel, inside the border
