"""Rounds (a turn for everyone still in, from the first player's seat) and end-of-game places,
as the BG Stats export shows them (issue 15: `rounds` held turns; an out player at $0 ranked
above an active one)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.gallery_grippers.records import ranks
from referee.games.gallery_grippers.state import ACTIVE, OUT, WINNER, PlayerState
from tests.referee.conftest import Table, start


def turn(t: Table, player: str) -> None:
    t.ok("move", player=player, roll=1, tile="plain")
    t.ok("end_turn", player=player)


def test_a_round_is_everyone_once_from_the_first_seat() -> None:
    t = start(("Ann", "Ben", "Cy"), rolls={"Ann": 2, "Ben": 6, "Cy": 3})  # Ben goes first
    assert (t.state["current"], t.state["round"], t.state["turn_number"]) == ("Ben", 1, 1)
    seen = []
    for _ in range(7):
        who = t.state["current"]
        turn(t, who)
        seen.append((t.state["current"], t.state["round"]))
    assert seen == [("Cy", 1), ("Ann", 1), ("Ben", 2), ("Cy", 2), ("Ann", 2), ("Ben", 3),
                    ("Cy", 3)]
    assert t.state["turn_number"] == 8


def test_undo_takes_the_round_back_with_the_turn() -> None:
    t = start(("Ann", "Ben"))
    turn(t, "Ann")
    turn(t, "Ben")
    assert t.state["round"] == 2
    t.ok("undo")
    assert (t.state["current"], t.state["round"]) == ("Ben", 1)


def test_solo_every_turn_is_a_round() -> None:
    t = start(("Ann",))
    for expected in (2, 3, 4):
        turn(t, "Ann")
        assert t.state["round"] == expected


def _p(name: str, status: str = ACTIVE, money: int = 0) -> PlayerState:
    return PlayerState(name=name, color="red", status=status, money=money)


@pytest.mark.parametrize(("players", "winner", "expected"), [
    # an out player at $0 is behind an active one at $0
    ([_p("Ann", OUT), _p("Ben")], None, {"Ben": 1, "Ann": 2}),
    # the winner first, then those still in by money, then those out by money
    ([_p("Ann", OUT, 900), _p("Ben", WINNER, 10), _p("Cy", money=5), _p("Di", money=7)],
     "Ben", {"Ben": 1, "Di": 2, "Cy": 3, "Ann": 4}),
    # equal money and status share a place, and the next place is skipped
    ([_p("Ann", money=5), _p("Ben", money=5), _p("Cy", money=1)], None,
     {"Ann": 1, "Ben": 1, "Cy": 3}),
])
def test_places_at_the_end(players: list[PlayerState], winner: str | None,
                           expected: dict[str, int]) -> None:
    state = replace(start(("X",)).session.state, players=tuple(players), winner=winner)
    assert ranks(state) == expected
