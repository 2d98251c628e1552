"""The page's QR code on the box (`BoxController.set_code`, `referee run --web`): shown until a
button is pressed, brought back from MENU ("Phone page") whatever the game is doing, drawn at
two pixels a module, and read back by a QR reader from the frames the simulated OLED got."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from device.box import CODE_ITEM
from device.render import render
from device.view import BoxView
from tests.device.test_box import Rig, bot_step, goto
from web.qr import oled_matrix

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
URL = "http://192.168.178.23:8080/g/ABCDEFGHIJKLMNOPQRSTUVWX/"
CODE = oled_matrix(URL.upper())
assert CODE is not None


def frames(tmp: Path) -> list[Path]:
    return sorted((tmp / "frames").glob("frame-*.png"))


def decode(image: Image.Image) -> str:
    """What a QR reader (zbarimg) reads in a 1-bit OLED frame (scaled up, as a camera
    sees a small screen from close by)."""
    big = image.convert("L").resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frame.png"
        big.save(path)
        proc = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)],
                              capture_output=True, text=True)
    return proc.stdout.strip()


@settings(max_examples=12, deadline=None)
@given(steps=st.integers(0, 60), button=st.sampled_from(["ROLL", "NEXT", "BACK", "MENU"]),
       long=st.booleans(), console=st.booleans())
@example(steps=2, button="ROLL", long=False, console=False)  # a turn-order notice under it
def test_the_code_shows_until_a_press_and_menu_brings_it_back(
    steps: int, button: str, long: bool, console: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rig = Rig(Path(tmp))
        try:
            for _ in range(steps):  # a game somewhere along (or not started)
                if rig.box.view().screen == "over":
                    break
                bot_step(rig)
            assert CODE_ITEM[0] not in rig.box.view().menu  # no page: no menu item
            under = rig.box.view()
            rig.box.set_code(CODE, URL)
            shown = rig.box.view()
            assert shown.screen == "code" and shown.code == tuple(map(tuple, CODE))
            last = Image.open(frames(Path(tmp))[-1]).convert("1")
            assert last.tobytes() == render(shown).tobytes()  # what the OLED got
            if console:  # a command from elsewhere (the console) leaves the code up
                who = rig.box.session.state.current_player
                if who is not None and rig.box.session.handle(
                        {"cmd": "roll", "player": who.name, "die": "d6"})["ok"]:
                    assert rig.box.view().screen == "code"
            entries = len(rig.box.session.log)
            rig.press(button, long)  # any button puts it away, and does nothing else
            assert len(rig.box.session.log) == entries
            back = rig.box.view()
            assert back.screen != "code"
            if not console:
                assert back.screen == under.screen
            # MENU lists it last, whatever the game's own items; choosing it shows it again
            if back.screen != "menu":
                rig.press("MENU")
            assert rig.box.view().menu[-1] == CODE_ITEM[0]
            goto(rig, CODE_ITEM[0])
            rig.press("ROLL")
            # (the same code page; a notice from before it, e.g. the turn order, is gone)
            assert replace(rig.box.view(), notice=None) == replace(shown, notice=None)
            assert len(rig.box.session.log) == entries
        finally:
            rig.close()


def test_a_qr_reader_reads_the_address_from_the_oled_frame(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    try:
        rig.box.set_code(CODE, URL)
        frame = Image.open(frames(tmp_path)[-1])
        assert decode(frame) == URL.upper()
    finally:
        rig.close()


def test_too_long_an_address_is_shown_in_words(tmp_path: Path) -> None:
    long_url = "http://[fd12:3456:789a:1::23]:8080/g/ABCDEFGHIJKLMNOPQRSTUVWX/"
    assert oled_matrix(long_url.upper()) is None  # 2 px a module would not fit 64 rows
    rig = Rig(tmp_path)
    try:
        rig.box.set_code(None, long_url)
        v = rig.box.view()
        assert v.screen == "code" and v.code is None
        assert "".join(v.lines) == long_url.removeprefix("http://")
        assert "F6" in v.hint  # where the code is instead
        assert render(v).tobytes() == Image.open(frames(tmp_path)[-1]).convert("1").tobytes()
    finally:
        rig.close()


def test_a_code_view_draws_each_module_as_two_by_two_pixels() -> None:
    v = BoxView("code", lines=("Phones:",), hint="BACK:close", code=tuple(map(tuple, CODE)))
    img = render(v)
    n = len(CODE)
    top = (64 - 2 * n) // 2
    for y, row in enumerate(CODE):
        for x, dark in enumerate(row):
            for dy in (0, 1):
                for dx in (0, 1):
                    assert bool(img.getpixel((2 * x + dx, top + 2 * y + dy))) is (not dark)
