"""Two copies of one card in a hand (issue 11, item 1): the obstacle opens, both copies can be
picked, picking one plays exactly one copy; and a game stored in that state resumes into it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.app import open_session
from referee.session import Session
from tests.ui.conftest import SEED, keys, typed
from ui.app import make_app
from ui.base import Choices
from ui.games.gallery_grippers.pending import ObstacleDialog, VerdictScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
ANN = {"specialists": ["Lookout", "Lookout", "Hacker"],
       "attributes": ["Lock Picks", "Lock Picks", "Steroids"]}
BEN = {"specialists": ["Lookout", "Safecracker", "Hacker"],
       "attributes": ["Smoke Bomb", "Lock Picks", "Steroids"]}


def to_the_obstacle(s: Session) -> Session:
    """Ann holds two Lookouts and two Lock Picks and faces a security tile in the Louvre."""
    for request in ({"cmd": "new_game", "players": ["Ann", "Ben"]},
                    {"cmd": "deal", "player": "Ann", **ANN},
                    {"cmd": "deal", "player": "Ben", **BEN},
                    {"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}},
                    {"cmd": "move", "player": "Ann", "tile": "security",
                     "museum": "The Louvre", "roll": 2}):
        answer = s.handle(request)
        assert answer["ok"], answer
    return s


def shown(s: Session, card: str) -> str:
    """A card as the obstacle lists it: its name and its bonus from the catalog."""
    found = s.catalog.card(card)
    assert found is not None
    return f"{card} +{found.bonus}"


def labels(dialog: ObstacleDialog, wid: str) -> list[str]:
    lst = dialog.query_one(wid, Choices)
    return [str(lst.get_option_at_index(i).prompt) for i in range(lst.option_count)]


async def test_gg6_an_obstacle_with_two_copies_of_a_card_plays_exactly_one() -> None:
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        dialog = app.screen
        assert isinstance(dialog, ObstacleDialog)
        assert labels(dialog, "#specialist") == ["(none)", *[shown(s, c) for c in ANN[
            "specialists"]]]
        assert labels(dialog, "#attribute") == ["(none)", *[shown(s, c) for c in ANN[
            "attributes"]]]
        # the second copy of each: one down past the first copy
        await keys(pilot, "down", "down", "tab", "down", "down", "tab", *typed("50"), "enter")
        played = next(e for e in s.log[-1].events if e["type"] == "bypass")
        assert (played["specialist"], played["attribute"]) == ("Lookout", "Lock Picks")
        ann = s.state.player("Ann")
        assert ann.specialists.count("Lookout") == 1 and "Hacker" in ann.specialists
        assert ann.attributes.count("Lock Picks") == 1 and "Steroids" in ann.attributes
        assert isinstance(app.screen, VerdictScreen)
    assert app.return_code in (0, None)


async def test_a_stored_game_resumes_into_the_obstacle_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    said: list[str] = []
    first = open_session(db=db, seed=SEED, notify=said.append)
    to_the_obstacle(first)
    first.close()

    again = open_session(db=db, notify=said.append)  # the box restarted
    try:
        assert any("Resumed game" in line for line in said)
        app = make_app(again)
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r")
            dialog: Any = app.screen
            assert isinstance(dialog, ObstacleDialog)
            assert labels(dialog, "#specialist").count(shown(again, "Lookout")) == 2
            await keys(pilot, "down", "ctrl+r")  # the first Lookout; the box rolls
            assert again.state.player("Ann").specialists.count("Lookout") == 1
    finally:
        again.close()
