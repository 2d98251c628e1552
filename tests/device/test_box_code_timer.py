"""The page's QR code (`referee run --web`) leaves the OLED by itself after a short time, a
deadline of the box's loop (`next_change`), never a sleep; and every die corrected at another
front end reaches the OLED, one notice each, the QR code up or not (issue 42)."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.box import CODE_S, BoxController
from device.render import render
from tests.device.test_box import Clock
from tests.device.test_box_code import CODE, URL
from tests.device.test_box_tray import playing

# luma.oled 3.16's own display() (its set-up clear) uses Image.getdata, deprecated in Pillow 13.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def box_with_code() -> tuple[BoxController, Clock, list]:
    clock = Clock()
    box = BoxController(playing(), clock=clock, idle_s=None)
    seen: list = []
    box.subscribe(seen.append)
    box.set_code(CODE, URL)
    assert box.view().screen == "code"
    return box, clock, seen


def test_the_code_leaves_by_itself_at_a_deadline_of_the_loop() -> None:
    box, clock, seen = box_with_code()
    assert box.next_change() == 1000.0 + CODE_S  # the loop's timer is armed for it
    clock.t += CODE_S - 0.1
    box.tick()
    assert box.view().screen == "code"
    clock.t = box.next_change()
    box.tick()
    assert box.view().screen == "turn" and seen[-1].screen == "turn"
    assert box.next_change() is None  # nothing more is due: the loop sleeps
    box.close()


def test_the_code_from_menu_leaves_by_itself_too() -> None:
    box, clock, _ = box_with_code()
    box.press("NEXT")  # put away
    box.press("MENU")
    while box.view().menu[box.view().cursor] != "Phone page":
        box.press("NEXT")
    box.press("ROLL")
    assert box.view().screen == "code"
    clock.t += CODE_S
    box.tick()
    assert box.view().screen == "turn"
    box.close()


def correct(box: BoxController, was: int, now: int) -> None:
    s = box.session
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": was})["ok"]
    assert s.handle({"cmd": "undo"})["ok"]
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": now})["ok"]


def notices(box: BoxController, clock: Clock, seen: list) -> list[str]:
    """The notices the OLED shows until none is left (each shown until it expires)."""
    for _ in range(10):
        due = box.next_change()
        if due is None:
            break
        clock.t = due
        box.tick()
    said: list[str] = []
    for v in seen:
        text = (v.notice or "").replace("\n", " ")
        if text and text not in said:
            said.append(text)
    return said


def test_a_correction_made_while_the_code_is_up_reaches_the_oled() -> None:
    box, _clock, seen = box_with_code()
    correct(box, 4, 6)
    v = box.view()
    assert v.screen == "tiles"
    assert "corrected: Ann's d6 4 -> 6" in (v.notice or "").replace("\n", " ")
    assert seen[-1] == v  # what the display was given
    render(v)
    box.close()


def test_every_correction_is_shown_one_after_the_other() -> None:
    box, clock, seen = box_with_code()
    correct(box, 4, 6)
    s = box.session
    assert s.handle({"cmd": "undo"})["ok"]
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 2})["ok"]  # a second one
    # the first stays its few seconds (not replaced at once by the second) ...
    assert "4 -> 6" in (box.view().notice or "").replace("\n", " ")
    said = notices(box, clock, seen)  # ... then the second has its own
    assert "corrected: Ann's d6 4 -> 6" in said
    assert "corrected: Ann's d6 6 -> 2" in said
    assert said.index("corrected: Ann's d6 4 -> 6") < said.index("corrected: Ann's d6 6 -> 2")
    box.close()


def test_a_press_shows_the_next_waiting_correction() -> None:
    box, _clock, _seen = box_with_code()
    correct(box, 4, 6)
    s = box.session
    assert s.handle({"cmd": "undo"})["ok"]
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 2})["ok"]
    box.press("MENU")  # seen: the next one comes
    assert "6 -> 2" in (box.view().notice or "").replace("\n", " ")
    box.close()


def test_the_oled_itself_goes_back_to_the_game_when_the_code_leaves(tmp_path: Path) -> None:
    """Through `referee box --hardware sim`'s rig: the loop's deadline (`BoxRig.next_due`)
    is the code's, and at it the panel gets the game's screen back, no press."""
    from PIL import Image

    from tests.device.test_box import Rig, start
    from tests.device.test_box_code import frames

    rig = Rig(tmp_path)
    try:
        start(rig)
        under = rig.box.view()
        rig.box.set_code(CODE, URL)
        rig.step()
        assert rig.box.view().screen == "code"
        start_t = rig.clock.t
        while rig.box.view().screen == "code":  # the loop's deadlines, one after the other
            due = rig.rig.next_due()
            assert due is not None and due <= start_t + CODE_S + 0.01
            rig.clock.t = max(rig.clock.t, due)
            rig.step()
        shown = rig.box.view()
        assert shown.screen == under.screen == "turn"
        last = Image.open(frames(tmp_path)[-1]).convert("1")
        assert last.tobytes() == render(shown).tobytes()  # what the panel shows
    finally:
        rig.close()
