"""Keys that do nothing say why (issue 15): a step the rules no longer allow, a key a dialog
does not use, a roll from an earlier turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import keys, played, typed
from tests.ui.test_duplicate_cards import SMALL
from ui.app import make_app
from ui.base import AFTER_THE_END, KeyBar
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import MoveDialog

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


def error(app: object) -> str:
    return str(app.screen.query_one("#error").render())  # type: ignore[attr-defined]


async def test_gg4_roll_after_moving_is_refused_with_the_reason_no_dialog() -> None:
    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        await keys(pilot, "r", "2", "enter")  # Ann rolls 2, lands on the first tile listed
        while not isinstance(app.screen, TableScreen):
            await keys(pilot, "enter")
        assert s.state.turn.moved
        await keys(pilot, "r")
        assert isinstance(app.screen, TableScreen)  # no roll prompt offered
        assert "GG-4" in error(app) and "already" in error(app)


async def test_a_key_the_move_dialog_does_not_use_gets_a_reason() -> None:
    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")  # resume; open the roll
        assert isinstance(app.screen, MoveDialog)
        before = len(s.log)
        await keys(pilot, *typed("7"))
        assert len(s.log) == before
        assert "'7' does nothing here" in error(app) and "1-6" in error(app)


async def test_the_last_roll_is_marked_as_an_earlier_turns_at_the_start_of_a_turn() -> None:
    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: Ann's turn 3, Ben rolled 2 in turn 2
        title = str(app.screen.query_one("#dice .panel-title").render())
        assert title == "Last roll (before turn 3)"
        await keys(pilot, "r", "5")  # Ann rolls 5
        await keys(pilot, "escape")  # (the tile decision stays open; look under it)
        table = app.screen_stack[0]
        assert str(table.query_one("#dice .panel-title").render()) == "Last roll"


WIN = ({"cmd": "move", "player": "Ann", "tile": "exit", "roll": 5},
       {"cmd": "end_turn", "player": "Ann"},
       {"cmd": "move", "player": "Ben", "tile": "plain", "roll": 1},
       {"cmd": "end_turn", "player": "Ben"},
       {"cmd": "move", "player": "Ann", "tile": "black_market", "roll": 2},
       {"cmd": "sell", "player": "Ann"},
       {"cmd": "end_turn", "player": "Ann"},
       {"cmd": "move", "player": "Ben", "tile": "security", "museum": "The Uffizi Gallery",
        "roll": 1},
       {"cmd": "bypass", "player": "Ben", "roll": 1},
       {"cmd": "end_turn", "player": "Ben"},
       {"cmd": "move", "player": "Ann", "tile": "art", "museum": "The Rijksmuseum", "roll": 4},
       {"cmd": "steal", "player": "Ann", "art": "The Milkmaid"},
       {"cmd": "end_turn", "player": "Ann"},
       {"cmd": "move", "player": "Ben", "tile": "exit", "roll": 1},
       {"cmd": "end_turn", "player": "Ben"},
       {"cmd": "move", "player": "Ann", "tile": "exit", "roll": 2},
       {"cmd": "end_turn", "player": "Ann"},
       {"cmd": "move", "player": "Ben", "tile": "plain", "roll": 3},
       {"cmd": "end_turn", "player": "Ben"},
       {"cmd": "move", "player": "Ann", "tile": "black_market", "roll": 6})


def undo_offered(app: Any) -> bool:
    return any(k.action == "undo" for k in app.screen.query_one(KeyBar).shown_keys())


async def test_undo_is_not_offered_once_the_game_is_over_and_ctrl_z_says_why() -> None:
    s = played()
    for request in WIN:
        assert s.handle(request)["ok"], request
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, TableScreen) and undo_offered(app)  # mid-game
        await keys(pilot, "l", "s")  # Ann sells for the win
        assert s.state.over and s.undo_target() is None
        await keys(pilot, "escape")  # from the result to the table
        assert isinstance(app.screen, TableScreen)
        assert not undo_offered(app)
        await keys(pilot, "ctrl+z")
        assert isinstance(app.screen, TableScreen)  # no undo question that would be refused
        assert any(str(n.message) == AFTER_THE_END
                   for n in app._notifications)


def said(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_ctrl_c_in_any_dialog_says_how_to_quit() -> None:
    from referee.session import Session
    from tests.ui.conftest import SEED
    from tests.ui.test_duplicate_cards import to_the_obstacle
    from ui.games.gallery_grippers.pending import ObstacleDialog

    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: the obstacle (a pending decision)
        assert isinstance(app.screen, ObstacleDialog)
        await keys(pilot, "ctrl+c")
        assert any("Ctrl+Q" in line for line in said(app))
        app._notifications.clear()
        await keys(pilot, "tab", "tab", "ctrl+c")  # in the d100 field, nothing selected
        assert any("Ctrl+Q" in line for line in said(app))
        assert isinstance(app.screen, ObstacleDialog) and app.is_running
    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")  # resume; the roll to move (a dialog the player opened)
        assert isinstance(app.screen, MoveDialog)
        await keys(pilot, "ctrl+c")
        assert any("Ctrl+Q" in line for line in said(app))


async def test_a_key_no_dialog_uses_gets_a_reason_in_any_dialog() -> None:
    from ui.games.gallery_grippers.info import UndoConfirm
    from ui.games.gallery_grippers.setup import StartScreen

    s = played()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)  # (no error line: said as a notice)
        await keys(pilot, "x")
        assert any("'x' does nothing here" in line for line in said(app))
        await keys(pilot, "r", "ctrl+z")
        assert isinstance(app.screen, UndoConfirm)
        before = len(s.log)
        await keys(pilot, "q")
        assert isinstance(app.screen, UndoConfirm) and len(s.log) == before
        assert "'q' does nothing here" in error(app)  # (on its error line)
        await keys(pilot, "n")  # a key it uses: no word
        assert isinstance(app.screen, TableScreen)
