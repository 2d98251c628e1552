"""The console's undo prompt says what is true of the step's dice (issue 24): the dice the box
rolled or the tray read stay, typed ones may be typed again and a change is logged as a
correction; the old "dice stay on the table: undo never rerolls" claim is gone."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from referee.session import Session
from tests.referee.games.art_project.test_session import SEED, to_battle
from tests.referee.test_undo_dice import gg_playing
from tests.ui.conftest import keys
from ui.app import make_app
from ui.games.art_project.dialogs import ArtUndoConfirm
from ui.games.gallery_grippers.info import UndoConfirm

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


async def test_the_art_prompt_after_a_typed_battle_says_a_change_is_a_correction() -> None:
    s = Session(seed=SEED)
    to_battle(s)
    assert s.handle({"cmd": "battle", "city": "Film", "leader": "Ann",
                     "rolls": {"Ann": 4, "ally1": 3}})["ok"]  # Ben's die: the box's
    ben = next(e["value"] for e in s.log[-1].events if e.get("id") == "Ben")
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")  # resume
        await keys(pilot, "ctrl+z")
        assert isinstance(app.screen, ArtUndoConfirm)
        said = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "undo never rerolls" not in said
        dice = str(app.screen.query_one("#undo-dice", Static).render())
        assert f"({ben}) stay on the table" in dice
        assert "Typed dice (4, 3) are not kept" in dice and "correction" in dice


async def test_the_gallery_grippers_prompt_says_a_tray_die_stays() -> None:
    s = gg_playing(Session(seed=SEED))
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 5, "via": "tray"})["ok"]
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")
        await keys(pilot, "ctrl+z")
        assert isinstance(app.screen, UndoConfirm)
        dice = str(app.screen.query_one("#undo-dice", Static).render())
        assert "the tray read (5) stay on the table" in dice


async def test_the_gallery_grippers_log_shows_a_typed_die_s_correction() -> None:
    s = gg_playing(Session(seed=SEED))
    for request in ({"cmd": "move_roll", "player": "Ann", "roll": 4}, {"cmd": "undo"},
                    {"cmd": "move_roll", "player": "Ann", "roll": 6}):
        assert s.handle(request)["ok"]
    app = make_app(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")
        [table] = [x for x in app.screen_stack if x.query("#log")]  # (under the tile dialog)
        log = str(table.query_one("#log").render())
        assert "corrected: Ann's d6 4 → 6" in log
