"""Folding events (evolve.py): every event moves tokens between two places, so the totals
(6 of each resource, 25 health, 40 agents) hold after every command of every stored game
script here; and the fields each fold sets. Pinned from the survivors of mutation testing
evolve.py (issue 28; docs/mutation.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from referee.games.art_project import RULESET
from referee.games.art_project.state import Clue, Deck
from tests.referee.games.art_project.helpers import COMMIT, Game, totals

HERE = Path(__file__).parent
SCRIPTS = sorted(p.name for p in HERE.glob("*.jsonl"))
FULL = ({"fuel": 6, "radio": 6, "weapon": 6}, 25, 40)


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_totals_hold_after_every_event_of_a_stored_game(script: str) -> None:
    lines = [r for r in (json.loads(x) for x in (HERE / script).read_text().splitlines()
                         if x.strip()) if r["cmd"] not in ("state", "reveal", "catalog")]
    state = RULESET.initial_state(RULESET.load_catalog(None))
    folded = 0
    for request in lines:
        request = {k: v for k, v in request.items() if k != "game"}  # the session's field
        cmd = RULESET.parse(request)
        if request["cmd"] == "new_game":
            cmd = RULESET.start(cmd, commitment=COMMIT, settings={})
        events = RULESET.decide(state, cmd)
        for e in events:  # type: ignore[union-attr]
            state = RULESET.fold(state, [e])
            assert totals(state) == FULL, (script, request, e)
            folded += 1
    assert folded > len(lines)
    assert state.over


BOARDS = str(HERE / "boards.toml")


def test_the_final_card_moves_the_deck_below_it_and_goes_to_the_discard() -> None:
    g = Game(["Ann", "Ben"])
    g.given(deck=replace(g.state.deck, above=0, below=5, discard=3))
    g.ok("draw", player="Ann")  # the final card, then the owed draw again
    assert g.state.deck == Deck(0, False, 5, 4) and g.state.final_round
    g.ok("draw", player="Ann")
    assert g.state.deck == Deck(0, False, 4, 4)


def test_a_set_uncovered_puts_its_cards_on_the_discard() -> None:
    g = Game(["Ann", "Ben"])
    g.drawn()
    g.given(chain=(Clue("x1", ("film", "film"), "Ann"),))
    discard = g.state.deck.discard
    g.ok("play_card", player="Ann", clues=["film"])
    assert g.state.deck.discard == discard + 2 and g.state.chain == ()


def test_a_city_is_fought_once_whatever_the_rerolls_and_the_verdict() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("C")
    g.at("Ann", "Film")
    g.agents("Film", 3)
    g.given(chain=(Clue("x1", ("book",), "Ann"),))
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1})  # lost: the battle stays open
    assert g.state.fought == ("Film",) and g.state.battle is not None
    g.ok("reroll", card="x1", dice=["Ann"], rolls={"Ann": 2})
    assert g.state.fought == ("Film",)
    g.at("Ben", "Book")
    g.agents("Book", 1)
    g.ok("concede")
    g.van("weapon", 3)
    g.ok("battle", city="Book", leader="Ben", rolls={"Ben": 6})  # 6 against 11
    for _ in range(3):
        g.ok("weapon", player="Ben")  # 12: won
    assert g.state.fought == ("Film", "Book") and g.state.battle is None


def test_a_lost_city_marks_its_pawns_ally_included_and_clears_its_agents() -> None:
    g = Game(["Ann"], ally="blue", rules={"artwork_on_lost_city": "removed"})
    g.phase("C/D")
    assert g.state.ally is not None
    g.given(ally=replace(g.state.ally, city="Film"), artwork=("Film",))
    g.at("Ann", "Film")
    g.agents("Film", 5)
    g.ok("end_phase")
    assert g.state.lost == ("Film",) and g.state.agents["Film"] == 0
    assert g.state.player("Ann").must_leave and g.state.ally.must_leave  # type: ignore[union-attr]
    assert g.state.artwork == () and g.state.artwork_gone == 1
    other = Game(["Ann", "Ben"])
    other.phase("C/D")
    other.at("Ann", "Film")
    other.agents("Film", 5)
    other.ok("end_phase")
    assert [p.must_leave for p in other.state.players] == [True, False]
    assert other.state.artwork_gone == 0


def test_a_move_out_of_a_lost_city_clears_must_leave_and_counts_the_pawn_once() -> None:
    g = Game(["Ann"], ally="blue")
    g.phase("B")
    assert g.state.ally is not None
    g.given(lost=("Film",), ally=replace(g.state.ally, city="Film", must_leave=True))
    g.given(players=tuple(replace(p, city="Film", must_leave=True) for p in g.state.players))
    g.ok("move", player="Ann", to="Start")
    g.ok("move", player="Ann", to="Start", ally=True)
    assert g.json["players"][0]["must_leave"] is False  # the state says false, not null
    assert g.json["ally"]["must_leave"] is False
    g.ok("move", player="Ann", to="Sculpture")
    assert g.state.moved == ("Ann", "blue")


def test_rio_setup_agents_add_to_a_district_and_are_no_longer_owed() -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    g.ok("place_agents", player="Ann", agents={"Cinema": 2})
    g.ok("place_agents", player="Ben", agents={"Cinema": 1, "Library": 1})
    assert (g.state.agents["Cinema"], g.state.agents["Library"]) == (3, 1)
    assert [p.setup_agents for p in g.state.players] == [0, 0]


def test_a_clue_given_changes_that_cards_owner_only() -> None:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    g.phase("C/D")
    g.given(chain=(Clue("c1", ("book",), "Ann"), Clue("c2", ("film",), "Ann")), cards=2)
    g.agents("Dallas", 0)
    g.ok("give_clue", **{"from": "Ann", "to": "Ben", "card": "c1"})
    assert [(x.id, x.player) for x in g.state.chain] == [("c1", "Ben"), ("c2", "Ann")]


def test_health_gained_goes_to_the_named_player_from_the_reserve() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.drawn()
    g.health("Ben", 1)
    reserve = g.state.health_reserve
    g.ok("play_card", player="Ann", gain={"health": {"Ben": 2, "Cy": 1}})
    assert g.state.player("Ben").health == 3  # type: ignore[union-attr]
    assert g.state.health_reserve == reserve - 3


@pytest.mark.parametrize(("won", "row"), [(False, ("test-board", "medium", 2, 4)),
                                          (True, ("test-board", "medium", 3, 3))])
def test_the_hall_counts_each_mission_and_difficulty_on_its_own_row(
        won: bool, row: tuple[str, str, int, int]) -> None:
    g = Game(["Ann", "Ben"])
    other = ("test-egypt", "medium", 1, 1)
    g.given(hall=(other, ("test-board", "easy", 5, 0), ("test-board", "medium", 2, 3)))
    g.given(track=6 if won else 0)
    g.phase("B")
    if won:
        g.given(artwork=("Film",))
        g.at("Ann", "Film")
        g.agents("Film", 0)
    else:
        g.health("Ann", 1)
        g.van("fuel", 0)
    events = g.ok("end_phase") if won else g.ok("move", player="Ann", to="Film", health=1)
    assert events[-1]["type"] == "game_over"
    assert g.state.hall == (("test-board", "easy", 5, 0), row, other)


def test_the_start_keeps_the_dice_commitment_and_an_unknown_event_is_refused() -> None:
    from referee.games.art_project.evolve import evolve

    g = Game(["Ann", "Ben"])
    assert g.state.commitment == COMMIT and g.json["commitment"] == COMMIT
    with pytest.raises(ValueError, match="unknown event type 'nope'"):
        evolve(g.state, {"type": "nope"})


def test_a_game_lost_during_a_battle_leaves_no_battle_open() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("C")
    g.at("Ann", "Film")
    g.agents("Film", 3)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1})
    g.van("weapon", 0)
    g.health("Ann", 1)
    events = g.ok("weapon", player="Ann", health=1)  # the last health pays the weapon
    assert events[-1]["reason"] == "health" and g.state.over
    assert g.state.battle is None


def test_a_battle_won_on_its_roll_counts_the_city_as_fought() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("C")
    g.at("Ann", "Book")
    g.at("Ben", "Book")
    g.agents("Book", 1)
    events = g.ok("battle", city="Book", leader="Ann", rolls={"Ann": 6, "Ben": 6})
    assert [e["won"] for e in events if e["type"] == "battle"] == [True]  # 12 against 11
    assert g.state.fought == ("Book",) and g.state.battle is None
    g.no("battle", "already_fought", "ART-19", city="Book", leader="Ben",
              rolls={"Ann": 6, "Ben": 6})
