"""The Gallerist on the box (issue 39): its texts are given whole and the OLED's layer wraps and
pages them (`device.view.layout`), never a text shortened first; its clock says how many
visitors are in the bag; and a QR code shown at start-up is not what the first press after
the idle screen brings back."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box import CODE_S, BoxController
from device.render import render
from device.view import BoxView, drawable
from referee.session import Session
from tests.device.test_box import Clock
from tests.device.test_box_code import CODE, URL
from tests.device.test_oled_text_whole import all_rows
from tests.referee.games.gallerist import test_session as play

LONG = ["Annabelle-Marie", "Benjamin Oswald", "Cyrille"]
WORDS = [*LONG, "International Market", "Artists Colony", "Media Centre", "Sales Office"]


def flat(text: str) -> str:
    return drawable(f"x{text}x")[1:-1].replace(" ", "")


def shown(view: BoxView) -> str:
    out = "".join(all_rows(view))
    for i in range(len(view.menu)):
        out += "".join(all_rows(replace(view, cursor=i)))
    return out.replace(" ", "")


def game() -> Session:
    s = Session(seed=play.SEED)
    play.ok(s, cmd="new_game", game="gallerist", players=LONG, start_player=LONG[0],
            bag={"pink": 4, "brown": 4, "white": 4})
    return s


def check_whole(box: BoxController) -> None:
    view = box.view()
    drawn = shown(view)
    given = "".join(flat(x) for x in (view.title, *view.lines, *view.menu))
    for text in (view.title, *view.menu, *(() if view.menu else view.lines)):
        assert flat(text) in drawn, (text, view.text())
    for word in WORDS:  # a name or a place begun is given whole (nothing shortened first)
        head = flat(word)[:6]
        if head in given:
            assert flat(word) in given, (word, view.text())
    render(view)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(presses=st.lists(st.sampled_from(["ROLL", "ROLL", "ROLL", "NEXT", "BACK", "MENU"]),
                        max_size=60))
def test_no_gallerist_text_on_the_box_is_shortened(presses: list[str]) -> None:
    box = BoxController(game(), clock=Clock(), idle_s=None)
    check_whole(box)
    for button in presses:
        box.press(button)
        check_whole(box)
    box.close()


def test_the_clock_says_how_many_visitors_are_in_the_bag() -> None:
    s = game()
    box = BoxController(s, clock=Clock(), idle_s=None)
    assert "bag: 12 visitors" in box.view().lines
    play.ok(s, cmd="draw_visitor")
    assert "bag: 11 visitors" in box.view().lines
    box.close()


def test_after_start_up_the_first_press_after_idle_is_not_the_qr_code() -> None:
    """`referee run --web` shows the page's code at start; left alone the code goes, the idle
    screen comes; the first press wakes the box to the game, never to the code."""
    clock = Clock()
    box = BoxController(game(), clock=clock, idle_s=CODE_S * 4)
    box.set_code(CODE, URL)
    assert box.view().screen == "code"
    for _ in range(5):  # the loop: each deadline as it comes
        due = box.next_change()
        if due is None:
            break
        clock.t = due
        box.tick()
    assert box.view().screen == "idle"
    box.press("NEXT")  # a wake press
    assert box.view().screen == "clock", box.view().text()
    box.close()


def test_a_long_notice_pages_and_every_word_of_it_is_shown() -> None:
    """A notice longer than its four rows turns its pages by the clock and stays until the
    last was shown ("shared notices cut after 3 lines", issue 39)."""
    from device.view import notice_pages

    clock = Clock()
    box = BoxController(game(), clock=clock, idle_s=None)
    text = ("GAL-13 bag empty\nThere is no white visitor left in the bag; the colours still "
            "in it are pink and brown, so draw again from the bag and say the colour drawn.")
    box._say(text)
    seen: list[str] = []
    images = set()
    while box.view().notice is not None:
        v = box.view()
        seen += notice_pages(v.notice or "")[v.notice_page]
        images.add(render(v).tobytes())
        due = box.next_change()
        assert due is not None
        clock.t = due
        box.tick()
    said = " ".join(seen).split()
    for word in text.split():
        assert word in said, (word, seen)
    assert len(images) > 1  # (more than one page was drawn)
    box.close()
