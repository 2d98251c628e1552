"""The Gallerist at the console after play on the box (issue 39, checked for every game): the
console's own announcement (the start player the box drew) goes when a step from the box
moves the game past it, also from under the box's panel."""

from __future__ import annotations

import pytest

from referee.session import Session
from tests.referee.games.gallerist import test_session as play
from tests.ui.conftest import keys, typed
from tests.ui.test_box_panel import FakeBox
from ui.app import make_app
from ui.games.gallerist.screens import StartDrawnDialog
from ui.screens.common import BoxScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


@pytest.mark.parametrize("panel", [False, True], ids=["the table", "under the panel"])
async def test_the_start_drawn_notice_goes_when_the_box_places_a_start(panel: bool) -> None:
    s = Session(seed=play.SEED)
    app = make_app(s, game="gallerist", box=FakeBox())
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"))
        app.screen.query_one("#bag").value = "9"
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, StartDrawnDialog)  # the console's own step
        if panel:
            app.action_box()
            await pilot.pause()
            assert isinstance(app.screen, BoxScreen)
        due = s.ruleset.state_json(s.state)["pending"][0]["player"]
        assert s.handle({"cmd": "place_start", "player": due, "location": "Media Centre",
                         "tile": "a tile"})["ok"]  # from the box
        await pilot.pause()
        if panel:
            await keys(pilot, "escape")
            await pilot.pause()
        assert not any(isinstance(x, StartDrawnDialog) for x in app.screen_stack), \
            app.screen_stack
