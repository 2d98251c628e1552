"""The A.R.T. console's move list keeps its order (issue 39: it reordered after each move, and
a player was moved back by mistake): every pawn, every city in the board's order, each row in
its place move after move; the cursor opens where the pawn moved last now stands."""

from __future__ import annotations

from typing import Any

import pytest

from referee.session import Session
from tests.ui.conftest import keys
from ui.app import make_app
from ui.base import Choices
from ui.games.art_project.dialogs import ActionsDialog
from ui.games.art_project.table import ArtTableScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
SMALL = (80, 24)
START = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
         "difficulty": "easy", "players": [{"name": "Ann"}, {"name": "Ben"}]}


def in_movement() -> Session:
    s = Session(seed=SEED)
    for request in (START, *({"cmd": "draw", "player": n} for n in ("Ann", "Ann", "Ben", "Ben")),
                    {"cmd": "play_card", "player": "Ann"}, {"cmd": "play_card", "player": "Ben"},
                    {"cmd": "end_phase"}, {"cmd": "end_phase"}):
        assert s.handle(request)["ok"], request
    assert s.state.phase == "B"
    return s


def slots(app: Any) -> list[tuple[str, str]]:
    """Each row's (pawn, city): a move's or a greyed row's."""
    choices = app.screen.query_one("#actions", Choices)
    out = []
    for i, value in enumerate(choices.values):
        if value is not None:
            out.append((value["player"], value["to"]))
        else:
            text = str(choices.get_option_at_index(i).prompt)
            who, _, rest = text.partition(": ")
            out.append((who, rest.rsplit(" (", 1)[0].removeprefix("stays in ")))
    return out


async def test_the_move_list_keeps_its_rows_and_enter_never_moves_back() -> None:
    s = in_movement()
    cities = [c.name for c in s.state.mission.cities]  # type: ignore[union-attr]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "m")
        assert isinstance(app.screen, ActionsDialog)
        first = slots(app)
        assert first == [(n, c) for n in ("Ann", "Ben") for c in cities]  # the board's order
        await keys(pilot, "enter")  # the first move: Ann to Film
        assert isinstance(app.screen, ArtTableScreen)
        assert s.state.player("Ann").city == "Film"  # type: ignore[union-attr]
        before = len(s.log)
        await keys(pilot, "m")
        assert slots(app) == first  # every row in its place
        choices = app.screen.query_one("#actions", Choices)
        assert choices.highlighted == first.index(("Ann", "Film"))  # where Ann stands
        assert "Ann: stays in Film (here)" in str(choices.get_option_at_index(
            choices.highlighted).prompt)
        await keys(pilot, "enter")  # where she stands: the list closes, nothing is sent
        assert isinstance(app.screen, ArtTableScreen)
        assert len(s.log) == before and s.state.player("Ann").city == "Film"  # type: ignore[union-attr]
        await keys(pilot, "m", "down", "enter")  # the next row down: on to Sculpture
        assert s.state.player("Ann").city == "Sculpture"  # type: ignore[union-attr]
        await keys(pilot, "m")
        assert slots(app) == first
