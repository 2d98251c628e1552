"""A list dialog takes one choice once, however fast keys come (issue 22, item 5).

Two Enters in one burst (a key held down, a bouncing key, a paste) reach the list before the
dialog has closed: each posts an "option selected", and Textual's `dismiss` pops whatever
screen is on top, so the second popped the screen under the dialog (the table, or the last
one: ScreenStackError, and the app ended)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import keys, session
from tests.ui.test_key_order import burst
from ui.app import make_app
from ui.games.art_project.dialogs import ActionsDialog, RequestForm
from ui.games.art_project.table import ArtTableScreen
from ui.screens.common import GameChooser

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
START = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
         "difficulty": "hard", "players": [{"name": "Ann"}, {"name": "Ben"}]}


async def test_two_enters_on_the_game_chooser_choose_once() -> None:
    app = make_app(session())
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        form = app.screen_stack[0]
        await keys(pilot, "f2")
        assert isinstance(app.screen, GameChooser)
        await burst(pilot, "enter", "enter")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert len(app.screen_stack) == 1  # the chooser closed, the form stayed
        assert type(app.screen_stack[0]) is type(form)


async def test_two_enters_on_the_art_actions_list_choose_once(monkeypatch: Any) -> None:
    s = session()
    assert s.handle(START)["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, ArtTableScreen)
        await keys(pilot, "a")
        assert isinstance(app.screen, ActionsDialog)
        await burst(pilot, "enter", "enter")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert isinstance(app.screen_stack[0], ArtTableScreen)
        # one choice taken: its form (or its step, if it needed nothing more) and no more
        assert not any(isinstance(sc, ActionsDialog) for sc in app.screen_stack)
        assert len(app.screen_stack) <= 2
        if len(app.screen_stack) == 2:
            assert isinstance(app.screen, RequestForm)
