"""The project's readings where the-art-project-rules.md leaves a ruling open (issue 39: an
independent model of the rules found them). Each test pins one reading written in
docs/art-project.md, "Readings where the rules are open" (R1..R13): it fails if the behaviour
changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.games.art_project import RULESET
from referee.games.art_project.state import Clue
from referee.session import Session
from tests.referee.games.art_project.helpers import Game, totals
from tests.referee.games.art_project.test_session import NAMES, SEED

BOARDS = str(Path(__file__).with_name("boards.toml"))


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def handled(s: Session, **request: Any) -> dict[str, Any]:
    answer = s.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def test_r1_after_the_end_the_phase_is_over_and_nothing_changes_the_game_not_even_undo() -> None:
    s = Session(seed=SEED)
    handled(s, cmd="new_game", game="art-project", mission="test-board",
            difficulty="impossible", players=[{"name": n} for n in NAMES])
    for n in NAMES:
        handled(s, cmd="draw", player=n)
        handled(s, cmd="draw", player=n)
    for n in NAMES:
        handled(s, cmd="play_card", player=n)
    handled(s, cmd="end_phase")
    handled(s, cmd="move", player="Ann", to="Film")
    handled(s, cmd="end_phase")
    handled(s, cmd="end_phase")
    handled(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1})
    handled(s, cmd="concede")  # Ann's last health token: lost
    shown = s.ruleset.state_json(s.state)
    assert shown["over"] and shown["phase"] == "over"
    assert s.state.phase == "C"  # (the phase the game ended in stays in the state)
    for request in ({"cmd": "undo"}, {"cmd": "end_phase"}, {"cmd": "draw", "player": "Ben"}):
        answer = s.handle(request)
        assert answer["error"]["code"] == "game_over" and answer["error"]["rule"] == "ART-27"


def test_r2_a_shared_ally_payment_with_someones_last_token_is_paid_whole_then_lost() -> None:
    g = Game()
    g.given(track=2)  # the first free space costs 2 radio
    g.phase("A/B")
    g.van("radio", 0)
    g.health("Ann", 1)
    events = g.ok("unlock_ally", health={"Ben": 1, "Ann": 1})
    assert types(events) == ["paid", "game_over"]
    assert events[0]["health"] == {"Ben": 1, "Ann": 1}
    assert events[1]["reason"] == "health"
    assert [(p.name, p.health) for p in g.state.players] == [("Ann", 0), ("Ben", 2), ("Cy", 3)]
    assert g.state.allies == 0  # the die is not unlocked
    assert totals(g.state)[1] == 25


def test_r3_a_cards_cost_beyond_its_players_health_is_paid_to_the_last_token() -> None:
    g = Game(difficulty="impossible")
    g.drawn()
    g.van("radio", 0)
    events = g.ok("play_card", player="Ann", spend={"radio": 2}, gain={"weapon": 1},
                  clues=["book"])
    assert types(events) == ["card_played", "paid", "game_over"]
    assert events[1]["health"] == {"Ann": 1}  # the one token she had, not 2
    assert g.state.player("Ann").health == 0  # type: ignore[union-attr]
    assert g.state.van["weapon"] == 3 and g.state.chain == ()  # nothing after the end


def test_r4_a_weapon_paid_with_the_last_health_token_loses_before_it_could_win() -> None:
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 1)
    g.van("weapon", 0)
    g.health("Ben", 1)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 6, "Ben": 3})
    assert g.state.battle is not None and g.state.battle.agents_strength - 9 == 2
    events = g.ok("weapon", player="Ben", health=1)
    assert types(events) == ["paid", "game_over"]
    assert g.state.outcome == "lost" and g.state.reason == "health"


def test_r5_a_card_with_one_symbol_twice_counts_twice_toward_a_set() -> None:
    g = Game()
    g.drawn()
    g.given(chain=(Clue("c1", ("film",), "Ben"),), cards=1)
    events = g.ok("play_card", player="Ann", clues=["film", "film"])
    assert types(events)[-2:] == ["clues_discarded", "uncovered"]
    assert g.state.artwork == ("Film",) and g.state.chain == ()


def test_r6_a_set_for_a_lost_city_holding_an_artwork_is_blocked_as_lost() -> None:
    g = Game()
    g.drawn()
    g.given(lost=("Film",), artwork=("Film",), markers=2,
            chain=(Clue("c1", ("film",), "Ann"), Clue("c2", ("film",), "Ben")), cards=2)
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert [e["reason"] for e in events if e["type"] == "uncover_blocked"] == ["lost"]
    assert g.state.chain == ()


def test_r7_two_undone_values_of_one_die_come_back_in_the_order_first_rolled() -> None:
    s = Session(seed=SEED)
    handled(s, cmd="new_game", game="art-project", mission="test-board", difficulty="hard",
            players=[{"name": n} for n in NAMES])
    for n in NAMES:
        handled(s, cmd="draw", player=n)
        handled(s, cmd="draw", player=n)
    for n, clue in zip(NAMES, ("book", "music", "film"), strict=True):
        handled(s, cmd="play_card", player=n, clues=[clue])
    handled(s, cmd="end_phase")
    handled(s, cmd="move", player="Ann", to="Film")
    handled(s, cmd="end_phase")
    handled(s, cmd="end_phase")

    def ann(answer: dict[str, Any]) -> tuple[int, bool]:
        [e] = [e for e in answer["events"] if e["type"] == "roll"]
        return e["value"], e["kept"]

    first = ann(handled(s, cmd="battle", city="Film", leader="Ann"))[0]
    second = ann(handled(s, cmd="reroll", card="c1", dice=["Ann"]))[0]
    assert first != second
    handled(s, cmd="undo")  # the reroll's value is taken back first ...
    handled(s, cmd="undo")  # ... then the battle's
    assert ann(handled(s, cmd="battle", city="Film", leader="Ann")) == (first, True)
    assert ann(handled(s, cmd="reroll", card="c1", dice=["Ann"])) == (second, True)
    assert ann(handled(s, cmd="reroll", card="c2", dice=["Ann"]))[1] is False


def test_r8_the_final_round_and_the_last_marker_end_as_lost_markers() -> None:
    g = Game()
    g.phase("C/D")
    g.given(final_round=True, markers=0)
    g.agents("Book", 5)
    events = g.ok("end_phase")
    assert types(events) == ["game_over"] and g.state.reason == "lost_markers"


def test_r9_a_pawn_surrounded_in_the_final_round_ends_as_final_card() -> None:
    g = Game()
    g.phase("C/D")
    g.given(final_round=True, markers=1, lost=("Film", "Sculpture"))
    g.agents("Start", 6)
    events = g.ok("end_phase")
    assert types(events) == ["city_lost", "game_over"] and g.state.reason == "final_card"


def test_r10_when_the_first_collection_fills_the_track_the_next_artwork_stays() -> None:
    g = Game()
    g.phase("B")
    g.given(track=6, artwork=("Film", "Book"))
    g.at("Ann", "Film")
    g.at("Ben", "Book")
    g.agents("Film", 0)
    g.agents("Book", 0)
    events = g.ok("end_phase")
    assert [(e["type"], e.get("city")) for e in events] == [("collected", "Film"),
                                                           ("game_over", None)]
    assert g.state.outcome == "won" and g.state.artwork == ("Book",)


def test_r11_an_extra_draw_is_taken_while_owed_draws_remain() -> None:
    g = Game()
    assert g.state.player("Ann").draws_owed == 2  # type: ignore[union-attr]
    assert types(g.ok("extra_draw", player="Ann", pay="fuel")) == ["paid", "drawn"]
    assert g.state.player("Ann").draws_owed == 2  # type: ignore[union-attr]
    assert g.state.player("Ann").hand == 1  # type: ignore[union-attr]


def test_r12_rio_takes_nothing_but_setup_agents_while_they_are_owed() -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    assert [p.setup_agents for p in g.state.players] == [2, 2]
    g.no("draw", "setup_agents_owed", "ART-33", player="Ann")
    g.no("end_phase", "setup_agents_owed", "ART-33")
    assert {r["cmd"] for r in RULESET.legal_actions(g.state, None)} == {"place_agents"}


def test_r13_a_step_must_change_city() -> None:
    g = Game()
    g.phase("B")
    g.no("move", "same_city", "ART-16", player="Ann", to="Start")
