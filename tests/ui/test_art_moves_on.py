"""The A.R.T. console after play elsewhere (issue 39: a battle played from the box left its
verdict dialog open on the console after the round moved on). A step played elsewhere is not
announced; a verdict the console announced closes when a step from elsewhere moves the game
past it, wherever it stands in the screens (under the box's panel too); a battle dialog
closes when the box ends its battle."""

from __future__ import annotations

from typing import Any

import pytest

from referee.session import Session
from tests.ui.conftest import keys
from tests.ui.test_art_table_words import drawn
from tests.ui.test_box_panel import FakeBox
from ui.app import make_app
from ui.games.art_project.dialogs import BattleDialog, VerdictScreen
from ui.games.art_project.table import ArtTableScreen
from ui.screens.common import BoxScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


def one_weapon_short() -> Session:
    """Phase C, Ann alone in Film: 6 and two weapons (10) against 2 agents + threat 10."""
    s = drawn()
    for request in ({"cmd": "play_card", "player": "Ann"}, {"cmd": "play_card", "player": "Ben"},
                    {"cmd": "end_phase"}, {"cmd": "end_phase"},
                    {"cmd": "move", "player": "Ann", "to": "Film"},
                    {"cmd": "end_phase"}, {"cmd": "end_phase"},
                    {"cmd": "battle", "city": "Film", "leader": "Ann", "rolls": {"Ann": 6}},
                    {"cmd": "weapon", "player": "Ann"}, {"cmd": "weapon", "player": "Ann"}):
        assert s.handle(request)["ok"], request
    b = s.state.battle
    assert b is not None and b.agents_strength - b.strength == 2
    return s


def verdicts(app: Any) -> list[Any]:
    return [x for x in app.screen_stack if isinstance(x, VerdictScreen)]


async def test_the_consoles_verdict_goes_when_the_box_ends_the_phase() -> None:
    s = one_weapon_short()
    app = make_app(s, box=FakeBox())
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: the open battle
        assert isinstance(app.screen, BattleDialog)
        assert app.send_request({"cmd": "weapon", "player": "Ann"}) is None  # as W sends it
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)  # the console's own step: announced
        assert s.handle({"cmd": "end_phase"})["ok"]  # from the box: C -> C/D
        await pilot.pause()
        assert not verdicts(app) and isinstance(app.screen, ArtTableScreen), app.screen_stack


async def test_a_verdict_under_the_box_panel_goes_when_the_box_moves_on() -> None:
    s = one_weapon_short()
    app = make_app(s, box=FakeBox())
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        assert app.send_request({"cmd": "weapon", "player": "Ann"}) is None
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        app.action_box()  # the box's panel over the verdict
        await pilot.pause()
        assert isinstance(app.screen, BoxScreen)
        assert s.handle({"cmd": "end_phase"})["ok"]  # pressed on the box
        assert s.handle({"cmd": "end_phase"})["ok"]  # the round moves on
        await pilot.pause()
        await keys(pilot, "escape")  # the panel closed: the table as it is now
        await pilot.pause()
        assert not verdicts(app) and isinstance(app.screen, ArtTableScreen), app.screen_stack


async def test_a_battle_the_box_wins_closes_the_console_battle_and_announces_nothing() -> None:
    s = one_weapon_short()
    app = make_app(s, box=FakeBox())
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        assert isinstance(app.screen, BattleDialog)
        assert s.handle({"cmd": "weapon", "player": "Ann"})["ok"]  # the box's weapon wins
        await pilot.pause()
        assert s.state.battle is None
        assert not verdicts(app) and isinstance(app.screen, ArtTableScreen), app.screen_stack
        assert s.handle({"cmd": "end_phase"})["ok"]
        await pilot.pause()
        assert isinstance(app.screen, ArtTableScreen), app.screen_stack
