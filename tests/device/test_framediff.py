"""`device.framediff.raw_bits`: the packed bits of a mode "1" image, as `Image.tobytes()`
gives them, without importing PIL.ImageFile (and logging) before the box's first frame."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from device import framediff


@st.composite
def images(draw: st.DrawFn) -> Image.Image:
    width = draw(st.integers(1, 140))
    height = draw(st.integers(1, 70))
    pixels = draw(st.binary(min_size=width * height, max_size=width * height))
    mode = draw(st.sampled_from(["1", "L"]))
    image = Image.frombytes("L", (width, height), pixels)
    return image.convert("1") if mode == "1" else image.point(lambda v: 255 if v > 127 else 0
                                                                ).convert("1")


@settings(max_examples=200, deadline=None)
@given(image=images())
def test_the_bits_are_the_ones_tobytes_gives(image: Image.Image) -> None:
    assert framediff.raw_bits(image) == image.tobytes()
    rotated = image.transpose(Image.Transpose.TRANSPOSE)
    assert framediff.raw_bits(rotated) == rotated.tobytes()


def test_another_mode_is_packed_as_tobytes_packs_it() -> None:
    grey = Image.frombytes("L", (9, 5), bytes(i * 29 % 256 for i in range(45)))
    assert framediff.raw_bits(grey) == grey.tobytes()


def test_a_whole_panel_frame() -> None:
    frame = Image.new("1", (128, 64))
    frame.putpixel((0, 0), 1)
    frame.putpixel((127, 63), 1)
    frame.putpixel((5, 9), 1)
    pages = framediff.pages(frame)
    assert len(pages) == 8 and all(len(p) == 128 for p in pages)
    assert pages[0][0] == 0x01 and pages[7][127] == 0x80 and pages[1][5] == 0x02
    assert sum(bin(b).count("1") for p in pages for b in p) == 3


@pytest.mark.parametrize("broken", ["getencoder", "encode"])
def test_a_pillow_without_that_encoder_gets_tobytes(monkeypatch: pytest.MonkeyPatch,
                                                    broken: str) -> None:
    image = Image.frombytes("L", (13, 7), bytes(i * 37 % 256 for i in range(91))).convert("1")
    if broken == "getencoder":
        def refuse(*_args: object) -> None:
            raise OSError("no such encoder")
        monkeypatch.setattr(framediff, "_encoder", refuse)
    else:
        class Failing:
            def __init__(self) -> None:
                self._real = Image._getencoder("1", "raw", "1")

            def setimage(self, *args: object) -> None:
                self._real.setimage(*args)

            def encode(self, _size: int) -> tuple[int, int, bytes]:
                return 0, -2, b""  # (an encoder error)

            def cleanup(self) -> None:
                self._real.cleanup()

        monkeypatch.setattr(framediff, "_encoder", Failing)
    assert framediff.raw_bits(image) == image.tobytes()
