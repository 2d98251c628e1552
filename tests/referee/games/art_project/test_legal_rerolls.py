"""Every reroll a clue card allows, as the ruleset lists them (issue 39; ART-23, ART-30, ART-34):
one die per clue symbol, any die of the battle (an ally die, another player's die, solo's ally
pawn's), both clues of a 2-clue card; USA only one's own dice. The front ends take this list
as it is (the box and the console search no combination themselves), so each test pins the
exact set for a crafted state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.games.art_project import RULESET
from referee.games.art_project.state import AllyPawn, Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def rerolls(g: Game) -> list[tuple[str, tuple[str, ...]]]:
    found = RULESET.legal_actions(g.state, None)
    return [(r["card"], tuple(r["dice"])) for r in found if r["cmd"] == "reroll"]


def every_listed_is_accepted(g: Game) -> None:
    for r in RULESET.legal_actions(g.state, None):
        if r["cmd"] == "reroll":
            g.need("reroll", **{k: v for k, v in r.items() if k != "cmd"})


def battle(g: Game, rolls: dict[str, int]) -> None:
    g.ok("battle", city="Film", leader="Ann", rolls=rolls)


def test_a_one_clue_card_rerolls_any_one_die_of_the_battle() -> None:
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 9)
    g.given(allies=1, chain=(Clue("c1", ("book",), "Cy"),), cards=1)
    battle(g, {"Ann": 1, "ally1": 1, "Ben": 1})
    assert rerolls(g) == [("c1", ("Ann",)), ("c1", ("ally1",)), ("c1", ("Ben",))]
    every_listed_is_accepted(g)


def test_a_two_clue_card_rerolls_one_or_two_dice_in_every_pairing() -> None:
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 9)
    g.given(allies=1, chain=(Clue("c1", ("book",), "Ann"), Clue("c2", ("film", "music"), "Ben"),
                             Clue("c3", (), "Cy")), cards=3)
    battle(g, {"Ann": 1, "ally1": 1, "Ben": 1})
    assert rerolls(g) == [
        ("c1", ("Ann",)), ("c1", ("ally1",)), ("c1", ("Ben",)),
        ("c2", ("Ann",)), ("c2", ("ally1",)), ("c2", ("Ben",)),
        ("c2", ("Ann", "ally1")), ("c2", ("Ann", "Ben")), ("c2", ("ally1", "Ben"))]
    every_listed_is_accepted(g)
    g.ok("reroll", card="c2", dice=["ally1", "Ben"], rolls={"ally1": 1, "Ben": 1})
    assert rerolls(g) == [("c1", ("Ann",)), ("c1", ("ally1",)), ("c1", ("Ben",))]


def test_solo_rerolls_the_ally_pawns_die_too() -> None:
    g = Game(["Ann"], ally="green")
    g.phase("C")
    g.at("Ann", "Film")
    g.given(ally=AllyPawn("green", "Film"))
    g.agents("Film", 9)
    g.given(chain=(Clue("c1", ("film", "book"), "Ann"),), cards=1)
    battle(g, {"Ann": 1, "green": 1})
    assert rerolls(g) == [("c1", ("Ann",)), ("c1", ("green",)), ("c1", ("Ann", "green"))]
    every_listed_is_accepted(g)


def test_on_usa_each_card_rerolls_only_its_players_dice() -> None:
    g = Game(["Ann", "Ben", "Cy"], mission="test-usa", catalog=BOARDS)
    g.phase("C")
    g.agents("Dallas", 9)
    g.given(allies=2, chain=(Clue("c1", ("film", "book"), "Ann"), Clue("c2", ("film",), "Ben"),
                             Clue("c3", ("film", "book"), "Cy")), cards=3)
    g.ok("battle", city="Dallas", leader="Ann",
         rolls={"Ann": 1, "ally1": 1, "ally2": 1, "Ben": 1, "Cy": 1})
    assert rerolls(g) == [
        ("c1", ("Ann",)), ("c1", ("ally1",)), ("c1", ("ally2",)),
        ("c1", ("Ann", "ally1")), ("c1", ("Ann", "ally2")), ("c1", ("ally1", "ally2")),
        ("c2", ("Ben",)), ("c3", ("Cy",))]
    every_listed_is_accepted(g)


def test_no_reroll_without_a_clue_on_a_chain_card_or_without_a_battle() -> None:
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.agents("Film", 9)
    g.given(chain=(Clue("c1", (), "Ann"),), cards=1)
    assert rerolls(g) == []
    battle(g, {"Ann": 1})
    assert rerolls(g) == []


def legal_rerolls_match_decide(g: Game) -> None:
    """Every (card, dice) pairing `decide` takes is listed once, and nothing else."""
    from itertools import permutations

    from referee.errors import Refusal

    assert g.state.battle is not None
    ids = [d for d, _ in g.state.battle.dice]
    taken: set[tuple[str, frozenset[str]]] = set()
    for x in g.state.chain:
        for k in (1, 2, 3):
            for dice in permutations(ids, k):
                req: dict[str, Any] = {"cmd": "reroll", "card": x.id, "dice": list(dice)}
                try:
                    RULESET.decide(g.state, RULESET.parse(req))
                except Refusal:
                    continue
                taken.add((x.id, frozenset(dice)))
    listed = rerolls(g)
    assert len(listed) == len(set(listed))
    assert {(c, frozenset(d)) for c, d in listed} == taken


def test_the_list_is_exactly_what_decide_takes_usa_and_elsewhere() -> None:
    g = Game(["Ann", "Ben", "Cy"], mission="test-usa", catalog=BOARDS)
    g.phase("C")
    g.agents("Dallas", 9)
    g.given(allies=1, chain=(Clue("c1", ("film", "book"), "Ben"), Clue("c2", ("film",), "Ann")),
            cards=2)
    g.ok("battle", city="Dallas", leader="Ann", rolls={"Ann": 1, "ally1": 1, "Ben": 1, "Cy": 1})
    legal_rerolls_match_decide(g)
    h = Game()
    h.phase("C")
    h.at("Ann", "Film")
    h.at("Cy", "Film")
    h.agents("Film", 9)
    h.given(allies=2, chain=(Clue("c1", ("film", "book"), "Ben"),), cards=1)
    battle(h, {"Ann": 1, "ally1": 1, "ally2": 1, "Cy": 1})
    legal_rerolls_match_decide(h)
