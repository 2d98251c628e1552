"""A new-game form's start that runs after its screen is gone does nothing and raises nothing
(issue 39, item 7: `NoMatches '#error'` on NewGameScreen, from `_start` via `say_error`).

Ctrl+S is a priority key: its start waits for every field to take the keys typed before it
(`after_typing`), so an Escape right behind it can close the form first."""

from __future__ import annotations

import pytest

from tests.ui.conftest import SIZE, keys, played
from ui.app import make_app
from ui.games.gallery_grippers.setup import NewGameScreen
from ui.games.gallery_grippers.table import TableScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


async def test_a_start_due_after_the_form_closed_is_dropped_without_an_error() -> None:
    s = played()
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r", "ctrl+n")  # resume, then the new-game form
        form = app.screen
        assert isinstance(form, NewGameScreen)
        await keys(pilot, "ctrl+n")  # a seat with no name: the start would say so
        await keys(pilot, "escape")  # back to the game: the form is gone
        assert isinstance(app.screen, TableScreen)
        log = len(s.log)
        form.action_start()  # its start, due only now
        await pilot.pause()
        form.say_error("✗ nothing to show it on")  # and its error line, gone with it
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and len(s.log) == log
        assert app.return_code is None
