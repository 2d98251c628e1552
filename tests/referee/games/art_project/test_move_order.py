"""Moves are listed in one fixed order, the one every surface shows (issue 39: the console's
move list reordered after each move): each player in seat order, their own pawn then solo's
ally pawn, every city in the board's order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.games.art_project import RULESET
from referee.games.art_project.state import AllyPawn
from tests.referee.games.art_project.helpers import Game


def moves(g: Game) -> list[tuple[str, bool, str]]:
    return [(r["player"], bool(r.get("ally")), r["to"])
            for r in RULESET.legal_actions(g.state, None) if r["cmd"] == "move"]


def fixed_order(g: Game) -> list[tuple[str, bool, str]]:
    cities = [c.name for c in g.state.mission.cities]  # type: ignore[union-attr]
    pawns = [(p.name, False) for p in g.state.players]
    if g.state.ally is not None:
        pawns.append((g.state.players[0].name, True))
    return [(who, ally, city) for who, ally in pawns for city in cities]


def test_solo_lists_the_players_pawn_then_the_ally_pawn_each_in_the_boards_order() -> None:
    g = Game(["Ann"], ally="green")
    g.phase("B")
    g.given(ally=AllyPawn("green", "Film"))
    assert moves(g) == [("Ann", False, "Film"), ("Ann", False, "Sculpture"),
                        ("Ann", True, "Start"), ("Ann", True, "Sculpture"),
                        ("Ann", True, "Book")]


@given(st.lists(st.sampled_from(["Film", "Sculpture", "Book", "Painting", "Artifact", "Music",
                                 "Start"]), max_size=6), st.booleans())
def test_after_any_moves_the_list_keeps_the_fixed_order(path: list[str], solo: bool) -> None:
    g = Game(["Ann"], ally="green") if solo else Game(["Ann", "Ben"])
    g.phase("B")
    for city in path:
        for r in RULESET.legal_actions(g.state, None):
            if r["cmd"] == "move" and r["to"] == city and r["player"] == "Ann":
                g.ok("move", **{k: v for k, v in r.items() if k != "cmd"})
                break
        listed = moves(g)
        order = fixed_order(g)
        assert listed == sorted(listed, key=order.index)
