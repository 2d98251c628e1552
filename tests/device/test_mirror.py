"""--oled-png: numbered PNGs that never overwrite a frame already on disk."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from device.run import PngMirror


def frame(n: int) -> Image.Image:
    im = Image.new("1", (128, 64))
    for i in range(n % 64 + 1):
        im.putpixel((i, i), 1)
    return im


def test_a_second_run_continues_after_the_first_and_overwrites_nothing(tmp_path: Path) -> None:
    first = PngMirror(tmp_path)
    for n in range(3):
        first(frame(n))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(before) == ["frame-00001.png", "frame-00002.png", "frame-00003.png"]
    second = PngMirror(tmp_path)
    assert second.first == 4
    second(frame(10))
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert {n: after[n] for n in before} == before
    assert Image.open(tmp_path / "frame-00004.png").convert("1").tobytes() == (
        frame(10).tobytes())


def test_two_runs_racing_for_the_same_numbers_each_keep_their_frames(tmp_path: Path) -> None:
    a, b = PngMirror(tmp_path), PngMirror(tmp_path)  # both looked before either wrote
    assert a.next == b.next == 1
    written = [a(frame(1)), b(frame(2)), a(frame(3)), b(frame(4))]
    assert len(set(written)) == 4  # each frame its own file
    for path, n in zip(written, (1, 2, 3, 4), strict=True):
        assert Image.open(path).convert("1").tobytes() == frame(n).tobytes()


@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(1, 120_000), max_size=6),
       st.lists(st.sampled_from(["frame-7.png", "frame-00002.jpg", "notes.txt",
                                 "frame-.png", "xframe-00009.png"]), max_size=3))
def test_numbering_starts_after_the_highest_frame_whatever_else_is_there(
        numbers: set[int], others: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for n in numbers:
            (d / f"frame-{n:05d}.png").write_bytes(b"old")
        for name in others:
            (d / name).write_bytes(b"other")
        existing = {p.name: p.read_bytes() for p in d.iterdir()}
        mirror = PngMirror(d)
        highest = max([*numbers, 7 if "frame-7.png" in others else 0], default=0)
        path = mirror(frame(0))
        assert path.name == f"frame-{highest + 1:05d}.png"
        assert {p.name: p.read_bytes() for p in d.iterdir() if p.name in existing} == existing


def test_a_directory_that_cannot_be_used_is_a_clear_error(tmp_path: Path) -> None:
    from device.mirror import MirrorError

    blocker = tmp_path / "frames"
    blocker.write_text("a file, not a directory")
    with pytest.raises(MirrorError, match=r"--oled-png .*frames: cannot write frames there"):
        PngMirror(blocker)
