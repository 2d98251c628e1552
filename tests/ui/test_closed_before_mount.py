"""A screen opened and closed in one turn of the app is never set up (issue 22, item 5).

The app opens a dialog for each decision the rules hold open and closes it when the decision
is gone. When the decision goes before the dialog has been mounted (the box undid the move
roll while the console was opening its tile dialog: two outcomes in one turn), Textual still
delivered the dialog's Mount after it was taken off the stack, with none of its children:
`NoMatches: No nodes match '#tiles' on TileDialog()`, shown as a screen that failed."""

from __future__ import annotations

from referee.ruleset import Undo
from tests.ui.conftest import keys, played
from ui.app import make_app
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import TileDialog

SMALL = (80, 24)


async def test_a_tile_dialog_closed_before_it_was_mounted_fails_nothing() -> None:
    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 3})["ok"]
        await pilot.pause()
        assert isinstance(app.screen, TileDialog)
        await keys(pilot, "escape")  # (it cannot be dismissed: still there)
        # as the app does with two outcomes in one turn: the dialog opened, then gone
        app.pop_screen()
        app.open(TileDialog("Ann"))
        s.apply(Undo())
        app.sync()
        for _ in range(3):
            await pilot.pause()
        assert not app.trouble.found, app.trouble.found
        assert isinstance(app.screen, TableScreen) and len(app.screen_stack) == 1
        assert app.is_running and app.return_code is None
