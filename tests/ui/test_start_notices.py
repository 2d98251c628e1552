"""Start-up notices do not cover the "resume or new?" question (issue 22, item 6): at 80x24
their toasts covered most of it for seconds. They wait until it is answered."""

from __future__ import annotations

from typing import Any

import pytest

from referee.session import Session
from tests.referee.test_abandon import START
from tests.ui.conftest import SEED, keys
from ui.app import make_app

SMALL = (80, 24)
SAID = "Resumed game 3 from the file (12 steps); its proof runs in the background."


def said(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.mark.parametrize("game", list(START))
@pytest.mark.parametrize("answer", ["r", "n"])
async def test_start_notices_wait_for_the_resume_question(game: str, answer: str) -> None:
    s = Session(seed=SEED)
    assert s.handle({**START[game], "game": game})["ok"]
    app = make_app(s)
    app.say_later([SAID])
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert len(app.screen_stack) == 2  # the question is up, uncovered
        assert SAID not in said(app)
        await keys(pilot, answer)
        assert len(app.screen_stack) == 1
        assert SAID in said(app)


async def test_with_no_question_they_are_shown_at_once() -> None:
    app = make_app(Session(seed=SEED))
    app.say_later([SAID])
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert SAID in said(app)


async def test_what_was_said_before_the_console_was_up_is_one_toast() -> None:
    """At 80x24 four toasts (hardware, buttons, pins file, tray) covered half the form for ten
    seconds: the lines said before the console is up share one toast, each line kept."""
    lines = ["hardware: simulated buttons and OLED (no Raspberry Pi found)",
             "buttons: gpiozero's mock pins, pressed by the keys",
             "no dice tray (--tray): electronic dice"]
    app = make_app(Session(seed=SEED))
    app.say_later(lines)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert said(app) == ["\n".join(lines)]
