"""The box's font (device/fontdata.py) is Pillow's built-in bitmap font, glyph for glyph.

The box draws every text in Pillow's own courB08 bitmap font. Pillow keeps it as a PNG
inside ImageFont.py, and opening that PNG loads Pillow's image-file plugins (PNG with
`fractions` and `decimal`, JPEG with `subprocess`, BMP, GIF, PPM): about 6 ms of the box's
start here, for one font (issue 41). device/fontdata.py holds the same font as raw bytes, so
the box's first frame decodes no image file. This test checks it against the Pillow that is
installed; `python -m tests.device.test_font` writes it again from that Pillow."""

from __future__ import annotations

import string
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageFont

from device import fontdata
from device.render import font

FONTDATA = Path(__file__).resolve().parents[2] / "device" / "fontdata.py"


def pillows_font() -> tuple[bytes, Any]:
    """The metrics and the glyph sheet Pillow's own loader is given (`load_default_imagefont`
    from Pillow 10.1, `load_default` before it)."""
    got: dict[str, Any] = {}
    load_data = ImageFont.ImageFont._load_pilfont_data

    def spy(self: Any, file: Any, image: Any) -> Any:
        got["metrics"] = file.getvalue()
        image.load()
        got["sheet"] = image.copy()
        return load_data(self, file, image)

    ImageFont.ImageFont._load_pilfont_data = spy  # type: ignore[method-assign]
    try:
        load = getattr(ImageFont, "load_default_imagefont", None)
        load() if load is not None else ImageFont.load_default()
    finally:
        ImageFont.ImageFont._load_pilfont_data = load_data  # type: ignore[method-assign]
    return got["metrics"], got["sheet"]


def test_the_shipped_font_is_pillows_bitmap_font() -> None:
    metrics, sheet = pillows_font()
    assert metrics == fontdata.METRICS
    assert (sheet.mode, sheet.size, sheet.tobytes()) == (fontdata.MODE, fontdata.SIZE,
                                                         fontdata.GLYPHS)
    assert not font.__wrapped__().from_pillows_png  # the box's loader took the shipped data


latin1 = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=30)


@settings(max_examples=200, deadline=None)
@given(text=latin1)
def test_any_text_is_drawn_as_pillows_own_font_draws_it(text: str) -> None:
    theirs = ImageFont.load_default_imagefont() if hasattr(
        ImageFont, "load_default_imagefont") else ImageFont.load_default()
    ours = font()
    assert ours.getbbox(text) == theirs.getbbox(text)
    a, b = ours.getmask(text), theirs.getmask(text)
    assert a.size == b.size and bytes(a) == bytes(b)


def test_every_printable_character_has_its_glyph() -> None:
    ours = font()
    for ch in string.printable.strip():
        assert ours.getbbox(ch)[2] > 0 or ch == " ", ch


def write() -> None:
    metrics, sheet = pillows_font()

    def literal(data: bytes) -> str:
        text = data.hex()
        lines = [f'"{text[i:i + 88]}"' for i in range(0, len(text), 88)]
        return "bytes.fromhex(\n    " + "\n    ".join(lines) + "\n)"

    FONTDATA.write_text(
        '"""Pillow\'s built-in bitmap font (courB08, from the X11 fonts; as Pillow\'s\n'
        "ImageFont.load_default_imagefont has it), as raw bytes: the box draws in it without\n"
        "decoding a PNG (tests/device/test_font.py; written by `python -m "
        'tests.device.test_font`)."""\n\n'
        f"MODE = {sheet.mode!r}\nSIZE = {sheet.size!r}\n"
        f"METRICS = {literal(metrics)}\nGLYPHS = {literal(sheet.tobytes())}\n",
        encoding="utf-8")
    print(f"wrote {FONTDATA}", file=sys.stderr)


if __name__ == "__main__":
    write()
