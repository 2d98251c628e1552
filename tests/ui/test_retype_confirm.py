"""At the console, a die typed before an undo and typed again with another value asks first,
naming what it changes in the ruleset's words (issue 39: corrections are public); N records
nothing and leaves the typed value in its field; Y records it, and the log names it."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.referee.test_retype import at_the_alarm
from tests.ui.conftest import keys, typed
from ui.app import make_app
from ui.base import RetypeConfirm
from ui.games.gallery_grippers.pending import ObstacleDialog

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


async def test_a_retyped_bypass_asks_first_and_no_keeps_the_typed_value() -> None:
    s = at_the_alarm()  # Ann's typed bypass of 3 failed, and was taken back
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, ObstacleDialog)
        await keys(pilot, "down", "enter", "down", "enter", "9", "5", "enter")
        assert isinstance(app.screen, RetypeConfirm)
        said = str(app.screen.query_one("#retype-what", Static).render())
        assert "This changes Ann's d100 from 3 to 95" in said
        assert "the verdict goes from failed to bypassed" in said and "Record it?" in said
        logged = len(s.log)
        await keys(pilot, "n")
        assert isinstance(app.screen, ObstacleDialog) and len(s.log) == logged
        assert app.screen.query_one("#d100", Input).value == "95"  # nothing lost
        await keys(pilot, "enter")
        assert isinstance(app.screen, RetypeConfirm)
        await keys(pilot, "y")
        assert not isinstance(app.screen, RetypeConfirm | ObstacleDialog)
        fixed = [(e["was"], e["now"]) for e in s.log[-1].events
                 if e["type"] == "die_corrected"]
        assert fixed == [(3, 95)]


async def test_a_die_typed_the_same_again_asks_nothing() -> None:
    s = at_the_alarm()
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")
        await keys(pilot, "down", "enter", "down", "enter", "3", "enter")
        assert not isinstance(app.screen, RetypeConfirm)
        assert s.log[-1].command["cmd"] == "bypass"


async def test_an_art_battle_retyped_to_a_win_asks_first_naming_the_verdict() -> None:
    """The A.R.T. Project: a battle typed 1 1 1 (not won) and taken back, typed again 6 6 6
    in the battle's form: asked first; N leaves the form with what was typed; Y records it."""
    from referee.session import Session
    from tests.referee.games.art_project.test_session import SEED, to_battle
    from ui.games.art_project.dialogs import RequestForm

    s = Session(seed=SEED)
    to_battle(s)
    lost = {"Ann": 1, "ally1": 1, "Ben": 1}
    assert s.handle({"cmd": "battle", "city": "Film", "leader": "Ann", "rolls": lost})["ok"]
    assert s.handle({"cmd": "undo"})["ok"]
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r", "b")
        battles = list(app.screen.query_one("#actions").values)
        i = next(n for n, r in enumerate(battles)
                 if r["city"] == "Film" and r.get("leader") == "Ann")
        await keys(pilot, *["down"] * i, "enter")
        assert isinstance(app.screen, RequestForm)
        await keys(pilot, *typed("Ann=6 ally1=6 Ben=6"), "ctrl+s")
        assert isinstance(app.screen, RetypeConfirm)
        said = str(app.screen.query_one("#retype-what", Static).render())
        assert "the verdict goes from not yet won to won" in said
        await keys(pilot, "n")
        assert isinstance(app.screen, RequestForm) and s.log[-1].command["cmd"] == "undo"
        assert app.screen.query_one("#field-rolls", Input).value == "Ann=6 ally1=6 Ben=6"
        await keys(pilot, "ctrl+s", "y")
        assert not isinstance(app.screen, RetypeConfirm | RequestForm)
        assert "Film" in s.state.fought  # won
        assert len([e for e in s.log[-1].events if e["type"] == "die_corrected"]) == 3


async def test_undo_again_while_a_typed_die_waits_is_not_asked_about() -> None:
    """Every command a screen sends is asked about first, undo too: after a typed step was
    taken back, undoing the step before it simply undoes it."""
    from ui.games.gallery_grippers.info import UndoConfirm

    s = at_the_alarm()
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r", "ctrl+z")
        assert isinstance(app.screen, UndoConfirm)
        await keys(pilot, "y")
        assert s.log[-1].command == {"cmd": "undo", "undoes": len(s.log) - 3}  # the move
        assert not isinstance(app.screen, RetypeConfirm)
