"""An unfinished game is left only after the table says so, in every game (issue 22, item 3).

A new-game form's Ctrl+S while a game (of any game) is unfinished asks first, naming the game
being left and what becomes of it; N keeps it as it was, Y leaves it (the session's
``abandon``, the same for every game). It used to crash on The Gallerist's command (no
``abandon`` field: TypeError) and to leave an A.R.T. game without asking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.app import open_session
from referee.session import Session
from tests.referee.test_abandon import START
from tests.ui.conftest import SEED, keys, typed
from tests.ui.test_art_console import pick_mission
from ui.app import make_app
from ui.games.art_project.setup import ArtNewGameScreen
from ui.games.gallerist.setup import GalleristNewGameScreen
from ui.screens.common import LeaveGameConfirm

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_BOARDS", str(tmp_path / "boards"))


def asked(app: Any) -> str:
    assert isinstance(app.screen, LeaveGameConfirm)
    return " ".join(str(w.render()) for w in app.screen.query("Static"))


async def test_the_eleven_keys_that_crashed_now_ask_and_keep_the_game(tmp_path: Path) -> None:
    """`Ann Enter Ben Ctrl+S Ctrl+N F2 Down Down Enter Ann Ctrl+S` on a fresh file."""
    s = open_session(db=tmp_path / "g.sqlite", seed=SEED, notify=lambda _: None)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "ctrl+s", "ctrl+n", "f2",
                   "down", "down", "enter", *typed("Ann"))
        assert isinstance(app.screen, GalleristNewGameScreen)
        app.screen.query_one("#bag").value = "20"  # (the form's own check comes first)
        await keys(pilot, "ctrl+s")
        assert app.is_running and app.return_code is None
        said = asked(app)
        assert "Gallery Grippers" in said and "Ann, Ben" in said and "abandoned" in said
        await keys(pilot, "n")
        assert not isinstance(app.screen, LeaveGameConfirm)
        assert s.ruleset.id == "gallery-grippers" and len(s.log) == 1 and s.unfinished
        await keys(pilot, "ctrl+s")
        asked(app)
        await keys(pilot, "y")
        assert app.is_running and app.return_code is None
    s.close()


async def test_an_art_game_is_left_only_after_yes() -> None:
    s = Session(seed=SEED)
    assert s.handle({**START["art-project"], "game": "art-project"})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+n")
        assert isinstance(app.screen, ArtNewGameScreen)
        await pick_mission(pilot, app, "test-board")
        await keys(pilot, *typed("Cy"), "enter", *typed("Di"), "ctrl+s")
        said = asked(app)
        assert "The A.R.T. Project" in said and "Ann, Ben" in said
        await keys(pilot, "escape")
        assert len(s.log) == 1 and s.ruleset.id == "art-project"
        assert [p.name for p in s.state.players] == ["Ann", "Ben"]
        await keys(pilot, "ctrl+s", "y")
        assert [p.name for p in s.state.players][:2] == ["Cy", "Di"]
        assert len(s.log) == 1 and s.log[0].command["players"][0]["name"] == "Cy"


async def test_a_form_the_rules_refuse_is_said_before_the_game_is_put_in_question() -> None:
    """The Gallerist's form without a bag the catalog lacks: the form says why at once (the
    rules' check), without asking to leave the game in progress, which goes on as it was;
    with the bag typed, the table is asked (issue 25: the form first, then the question)."""
    s = Session(seed=SEED)
    assert s.handle({**START["gallerist"], "game": "gallerist"})["ok"]
    before = s.ruleset.state_json(s.state)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+n")
        assert isinstance(app.screen, GalleristNewGameScreen)
        await keys(pilot, *typed("Cy"), "enter", *typed("Di"), "ctrl+s")
        assert isinstance(app.screen, GalleristNewGameScreen)  # not asked
        assert "bag" in str(app.screen.query_one("#error").render())
        assert s.ruleset.state_json(s.state) == before and s.unfinished
        app.screen.query_one("#bag").value = "20"
        await keys(pilot, "ctrl+s")
        assert "The Gallerist" in asked(app)
        await keys(pilot, "n")
        assert s.ruleset.state_json(s.state) == before and s.unfinished


@pytest.mark.parametrize("left", ["art-project", "gallerist"])
async def test_a_gallery_grippers_game_over_another_games_checks_its_own_catalog(
        left: str) -> None:
    """`Ctrl+N F2 Home Enter Ann Enter Ben Ctrl+S` over an A.R.T. game: the form's check of
    its house rules read the session's catalog, the A.R.T. one (AttributeError: no
    'specialists'); it reads the catalog its own new game will have."""
    s = Session(seed=SEED)
    assert s.handle({**START[left], "game": left})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+n", "f2", "home", "enter", *typed("Ann"), "enter",
                   *typed("Ben"), "ctrl+s")
        assert app.is_running and app.return_code is None and not app.trouble.found
        asked(app)
        await keys(pilot, "y")
        assert s.ruleset.id == "gallery-grippers"
        assert [p.name for p in s.state.players] == ["Ann", "Ben"]


async def test_a_new_games_form_that_fails_says_what_is_true(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The form's Ctrl+S raising (as the abandon TypeError did): the plain log in its place is
    titled with the running game's name (it said Gallery Grippers in every game), and says
    that the new game did not start and the game before is as it was."""
    from tests.ui.test_drawing_failure import boom
    from ui.trouble import PlainLogScreen, TroubleScreen

    monkeypatch.setattr(ArtNewGameScreen, "start_new_game", boom)
    s = Session(seed=SEED)
    assert s.handle({**START["art-project"], "game": "art-project"})["ok"]
    before = s.ruleset.state_json(s.state)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+n")
        await pick_mission(pilot, app, "test-board")
        await keys(pilot, *typed("Cy"), "ctrl+s")
        assert isinstance(app.screen, TroubleScreen)
        said = str(app.screen.query_one("#trouble-what").render())
        assert "did not start" in said and "as it was" in said and "nothing lost" not in said
        await keys(pilot, "escape")
        base = app.screen_stack[0]
        assert isinstance(base, PlainLogScreen)
        assert "The A.R.T. Project" in str(base.query_one(".title-bar").render())
        assert "Gallery Grippers" not in str(base.query_one(".title-bar").render())
        assert "no new game started" in str(base.query_one("#plain-log-head").render())
        assert s.ruleset.state_json(s.state) == before
