"""Each ART rule's checks and refusals beyond the spec's scenarios: every refusal names its
rule and changes nothing (`Game.no` holds it to that)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def board(mission: str, players: list[str] | None = None, **extra: object) -> Game:
    return Game(players or ["Ann", "Ben"], mission=mission, catalog=BOARDS, **extra)


@pytest.mark.parametrize(("extra", "code", "rule"), [
    ({"players": []}, "bad_players", "ART-1"),
    ({"players": [{"name": n} for n in "ABCDEFG"]}, "bad_players", "ART-1"),
    ({"players": [{"name": "Ann"}, {"name": "ann"}]}, "bad_players", "ART-1"),
    ({"players": [{"name": "ally1"}, {"name": "Ben"}]}, "bad_players", "ART-1"),
    ({"players": [{"name": "Ann", "color": "pink"}, {"name": "Ben"}]}, "unknown_colour",
     "ART-1"),
    ({"players": [{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "red"}]},
     "bad_players", "ART-1"),
    ({"players": [{"name": "Ann"}]}, "bad_ally", "ART-34"),
    ({"players": [{"name": "Ann", "color": "red"}], "ally": "red"}, "bad_ally", "ART-34"),
    ({"ally": "green"}, "bad_ally", "ART-34"),
    ({"mission": "mars"}, "unknown_mission", "ART-1"),
    ({"difficulty": "brutal"}, "bad_difficulty", "ART-1"),
    ({"mission": "japan"}, "catalog_incomplete", "ART-36"),
    ({"rules": {"battle_die": "catalog"}}, "catalog_incomplete", "ART-20"),
    ({"rules": {"deck_empty": "burn"}}, "bad_rules", None),
])
def test_art_1_setup_refusals(extra: dict[str, object], code: str, rule: str | None) -> None:
    from referee.errors import Refusal
    from referee.games.art_project import RULESET

    req = {"cmd": "new_game", "players": [{"name": "Ann"}, {"name": "Ben"}],
           "mission": "test-board", "difficulty": "easy", **extra}
    state = RULESET.initial_state(RULESET.load_catalog(None))
    with pytest.raises(Refusal) as err:
        RULESET.decide(state, RULESET.start(RULESET.parse(req), commitment="00",
                                            settings={}))
    assert (err.value.code, err.value.rule) == (code, rule)
    if code == "catalog_incomplete" and rule == "ART-36":
        assert "japan" in err.value.message and "cities" in err.value.message


def test_art_2_six_players_on_easy_leave_one_health_token() -> None:
    g = Game([f"P{i}" for i in range(6)], difficulty="easy")
    assert [p.health for p in g.state.players] == [4] * 6 and g.state.health_reserve == 1
    assert [p.color for p in g.state.players] == ["red", "blue", "green", "yellow", "purple",
                                                  "orange"]


def test_art_9_wrong_phase_cites_the_phase_rule_and_a_window_closes_itself() -> None:
    g = Game()
    g.no("move", "wrong_phase", "ART-16", player="Ann", to="Film")
    g.no("battle", "wrong_phase", "ART-19", city="Start", leader="Ann")
    g.phase("A/B")
    g.no("draw", "wrong_phase", "ART-10", player="Ann")
    events = g.ok("move", player="Ann", to="Film")
    assert events[0] == {"type": "phase", "phase": "B"} and g.state.phase == "B"
    g.ok("end_phase")
    events = g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 6})
    assert events[0] == {"type": "phase", "phase": "C"}
    g.no("end_phase", "battle_open", "ART-19")


def test_art_9_every_phase_in_order_and_the_next_line_always_says_something() -> None:
    g = Game(["Ann"], ally="blue", rules={"ally_windows": "every_boundary"})
    seen = [g.state.phase]
    assert g.json["next"].startswith("Draw")
    g.drawn()
    g.ok("play_card", player="Ann")
    assert "Ann still owes" in g.json["next"]
    g.ok("play_card", player="Ann")
    while g.state.round == 1:
        assert g.json["next"]
        g.ok("end_phase")
        seen.append(g.state.phase)
    assert seen == ["A", "A/B", "B", "B/C", "C", "C/D", "D/A", "A"]


def test_art_10_no_draw_due_and_art_13_plays() -> None:
    g = Game(["Ann", "Ben"])
    g.drawn()
    g.no("draw", "no_draw_due", "ART-10", player="Ann")
    g.no("end_phase", "cards_unplayed", "ART-13")
    g.ok("play_card", player="Ann")
    g.no("play_card", "already_played", "ART-13", player="Ann")
    g.ok("play_card", player="Ben")
    events = g.ok("end_phase")
    assert events[0] == {"type": "hands_discarded", "cards": 2}
    assert [p.hand for p in g.state.players] == [0, 0] and g.state.deck.discard == 2


def test_art_11_extra_draws() -> None:
    g = Game(["Ann", "Ben"])
    g.drawn()
    g.no("extra_draw", "golden_rule", "ART-7", player="Ann", pay="health")
    g.van("radio", 0)
    g.no("extra_draw", "not_enough_radio", "ART-11", player="Ann", pay="radio")
    for kind in ("fuel", "weapon"):
        g.van(kind, 0)
    g.ok("extra_draw", player="Ann", pay="health")
    assert (g.state.player("Ann").health, g.state.player("Ann").hand) == (2, 3)  # type: ignore[union-attr]
    g.ok("play_card", player="Ben")
    g.no("extra_draw", "extra_draw_closed", "ART-11", player="Ann", pay="health")


def test_art_12_an_empty_deck_skips_or_reshuffles() -> None:
    g = Game(["Ann", "Ben"])
    g.given(deck=replace(g.state.deck, above=0, final=False, below=0, discard=9))
    assert g.ok("draw", player="Ann") == [{"type": "draw_lost", "player": "Ann"}]
    g.no("extra_draw", "deck_empty", "ART-12", player="Ann", pay="fuel")
    g2 = Game(["Ann", "Ben"], rules={"deck_empty": "reshuffle"})
    g2.given(deck=replace(g2.state.deck, above=0, final=False, below=0, discard=9))
    events = g2.ok("draw", player="Ann")
    assert [e["type"] for e in events] == ["reshuffled", "drawn"]
    assert g2.state.deck.below == 8 and g2.state.deck.discard == 0


def test_art_12_a_paid_extra_draw_on_the_final_card_draws_again_and_table_detection() -> None:
    g = Game(["Ann", "Ben"])
    g.drawn()
    g.given(deck=replace(g.state.deck, above=0))
    events = g.ok("extra_draw", player="Ann", pay="fuel")
    assert [e["type"] for e in events] == ["paid", "final_card", "drawn"]
    assert g.state.van["fuel"] == 2 and g.state.final_round
    t = Game(["Ann", "Ben"], rules={"final_card_detection": "table"})
    events = t.ok("draw", player="Ann", final=True)
    assert events[0]["type"] == "final_card" and events[1]["type"] == "warning"
    assert t.state.deck.below == 72 and t.state.player("Ann").draws_owed == 2  # type: ignore[union-attr]
    t.no("draw", "final_card_gone", "ART-12", player="Ann", final=True)
    w = Game(["Ann", "Ben"], rules={"final_card_detection": "table"})
    w.given(deck=replace(w.state.deck, above=0))
    events = w.ok("draw", player="Ann")  # the table did not say final: drawn, with a warning
    assert [e["type"] for e in events] == ["warning", "drawn"] and w.state.deck.final


def test_art_14_card_sections_checked_before_anything_changes() -> None:
    g = Game()
    g.drawn()
    g.no("play_card", "unknown_city", "ART-14", player="Ann", agents={"Atlantis": 1})
    g.no("play_card", "unknown_symbol", "ART-14", player="Ann", clues=["dance"])
    g.no("play_card", "unknown_player", None, player="Ann", gain={"health": {"Zed": 1}})
    g.van("fuel", 5)
    g.given(health_reserve=1, players=tuple(replace(p, health=p.health + 8 if p.name == "Ben"
                                                    else p.health)
                                            for p in g.state.players))
    events = g.ok("play_card", player="Ann", gain={"fuel": 3, "health": {"Cy": 2}})
    gained = next(e for e in events if e["type"] == "gained")
    assert gained == {"type": "gained", "fuel": 1, "radio": 0, "weapon": 0,
                      "health": {"Cy": 1}, "short": {"fuel": 2, "health": 1}}


def test_art_14_a_clueless_card_may_be_discarded() -> None:
    g = Game(rules={"clueless_card": "discard"})
    g.drawn()
    events = g.ok("play_card", player="Ann")
    assert events[-1] == {"type": "card_discarded", "card": "c1"} and g.state.chain == ()


@pytest.mark.parametrize(("setup", "reason"), [("lost", "lost"), ("limit", "no_token")])
def test_art_15_blocked_uncovers(setup: str, reason: str) -> None:
    g = Game(rules={"artwork_token_limit": 8} if setup == "limit" else {})
    g.drawn()
    if setup == "lost":
        g.given(lost=("Film",))
        g.agents("Film", 0)
    else:
        g.given(track=7 - 1, artwork=("Book", "Music"))
    g.given(chain=(Clue("c1", ("film", "film"), "Ann"),), cards=1)
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert {"type": "uncover_blocked", "symbol": "film", "reason": reason} in events


def test_art_15_minimal_set_the_team_names_the_cards_bearing_exactly_3() -> None:
    g = Game(rules={"clue_overflow": "minimal_set"})
    g.drawn()
    # (c1 also bears a book: keeping it or c3 keeps different clues, so the team is asked)
    g.given(chain=(Clue("c1", ("film", "book"), "Ann"), Clue("c2", ("film", "film"), "Ann")),
            cards=2)
    g.ok("play_card", player="Ann", clues=["film"])
    assert g.json["pending"] == [{"player": None, "decision": "clue_set",
                                  "options": ["c1+c2", "c2+c3"]}]
    assert "which clue cards make the film set" in g.json["next"]
    g.no("choose", "bad_choice", "ART-15", choice="c1+c3")  # bears only 2
    events = g.ok("choose", choice="c2+c3")
    assert {"type": "clues_discarded", "symbol": "film", "cards": ["c2", "c3"]} in events
    assert [x.id for x in g.state.chain] == ["c1"] and g.state.pending == ()
    assert any(e["type"] == "uncovered" for e in events)


def test_art_15_minimal_set_with_one_way_to_make_3_asks_nothing() -> None:
    g = Game(rules={"clue_overflow": "minimal_set"})
    g.drawn()
    g.given(chain=(Clue("c1", ("film", "book"), "Ann"), Clue("c2", ("film",), "Ann")),
            cards=2)
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert {"type": "clues_discarded", "symbol": "film", "cards": ["c1", "c2", "c3"]} in events
    assert g.state.pending == ()


def test_art_15_minimal_sets_are_the_smallest_when_none_bears_exactly_3() -> None:
    from referee.games.art_project.rules.mission import clue_sets, set_name

    two = Clue("c1", ("film", "film"), "Ann")
    also = Clue("c2", ("film", "film"), "Ann")
    assert [set_name(x) for x in clue_sets([two, also], "film")] == ["c1+c2"]
    one = Clue("c3", ("film",), "Ann")
    other = Clue("c4", ("film", "book"), "Ann")  # (keeping c3 or c4 keeps different clues)
    assert [set_name(x) for x in clue_sets([two, one, other], "film")] == ["c1+c3", "c1+c4"]


def test_art_16_moves() -> None:
    g = Game()
    g.phase("B")
    g.no("move", "same_city", "ART-16", player="Ann", to="Start")
    g.no("move", "unknown_city", "ART-16", player="Ann", to="Moon")
    g.given(lost=("Film",))
    g.no("move", "city_lost", "ART-16", player="Ann", to="Film")
    g.no("move", "no_ally_pawn", "ART-34", player="Ann", to="Sculpture", ally=True)
    t = board("test-trusted")
    t.phase("B")
    assert t.json["map"] == "trusted"
    events = t.ok("move", player="Ann", to="Far")
    assert events[-1]["map"] == "trusted"


def test_art_17_collection_by_either_solo_pawn() -> None:
    g = Game(["Ann"], ally="blue")
    g.phase("B")
    g.given(artwork=("Film",), ally=replace(g.state.ally, city="Film"))  # type: ignore[arg-type]
    g.agents("Film", 0)
    events = g.ok("end_phase")
    assert {"type": "collected", "city": "Film", "space": 1, "threat": 10,
            "ally_cost": 1} in events
    assert g.state.track == 1


def test_art_18_unlocks() -> None:
    g = Game(rules={"unlocks_per_window": "one"})
    g.phase("A/B")
    g.no("unlock_ally", "golden_rule", "ART-7", health={"Ann": 1})
    g.no("unlock_ally", "unknown_player", None, health={"Zed": 1})
    paid = g.ok("unlock_ally")[0]  # the team's radio: no player is named as paying
    assert (paid["type"], paid["player"], paid["radio"], paid["health"]) == ("paid", None, 1, {})
    g.no("unlock_ally", "one_unlock_per_window", "ART-18")
    g.ok("end_phase")
    g.ok("end_phase")
    g.ok("unlock_ally")
    assert g.state.allies == 2 and g.state.van["radio"] == 1


def test_art_19_20_battle_refusals() -> None:
    g = _battle_game()
    g.no("battle", "leader_not_here", "ART-19", city="Film", leader="Cy")
    g.no("battle", "unknown_city", "ART-19", city="Mars", leader="Ann")
    g.no("battle", "roll_out_of_range", "ART-20", city="Film", leader="Ann", rolls={"Ann": 7})
    g.no("battle", "not_in_battle", "ART-20", city="Film", leader="Ann", rolls={"Cy": 3})
    g.no("battle", "not_in_battle", "ART-20", city="Film", leader="Ann", rolls={"ally1": 3})
    g.agents("Film", 0)
    g.no("battle", "no_agents", "ART-19", city="Film", leader="Ann")
    for action, fields in (("weapon", {"player": "Ann"}), ("concede", {}),
                           ("reroll", {"card": "c1", "dice": ["Ann"]})):
        g.no(action, "no_battle", "ART-23", **fields)


def _battle_game() -> Game:
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 4)
    return g


def test_art_22_won_at_once_and_art_23_weapons_and_rerolls() -> None:
    g = _battle_game()
    g.given(chain=(Clue("c1", (), "Ann"), Clue("c2", ("book",), "Ann")), cards=2)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    g.no("reroll", "not_in_chain", "ART-23", card="c9", dice=["Ann"])
    g.no("reroll", "no_clues_on_card", "ART-23", card="c1", dice=["Ann"])
    g.no("reroll", "not_in_battle", "ART-23", card="c2", dice=["Cy"])
    g.no("weapon", "not_in_battle", "ART-23", player="Cy")
    g.no("weapon", "golden_rule", "ART-7", player="Ann", health=1)
    g.no("move", "battle_open", "ART-19", player="Cy", to="Film")
    g.van("weapon", 0)
    g.no("weapon", "not_enough_weapon", "ART-23", player="Ann")
    g.ok("weapon", player="Ann", health=1)
    assert g.state.battle.strength == 4  # type: ignore[union-attr]
    g.van("weapon", 6)
    for _ in range(4):
        g.ok("weapon", player="Ben")
    assert g.state.battle.strength == 12  # type: ignore[union-attr]
    events = g.ok("weapon", player="Ben")  # 1 + 1 + 2 * 6 = 14 >= 4 + 10: won at once
    assert events[-2]["won"] is True and events[-1]["type"] == "agents_cleared"
    assert g.state.battle is None and g.state.agents["Film"] == 0


def test_art_23_conceding_the_last_health_loses() -> None:
    g = _battle_game()
    g.health("Ann", 1)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    events = g.ok("concede")
    assert events[-1]["reason"] == "health" and g.state.player("Ann").health == 0  # type: ignore[union-attr]


def test_art_24_removed_artwork_and_surrounded_at_the_end_of_the_round() -> None:
    g = Game(rules={"artwork_on_lost_city": "removed",
                    "surrounded_check": "at_end_of_round"})
    g.phase("C/D")
    g.given(artwork=("Book",))
    g.agents("Book", 5)
    g.ok("end_phase")
    assert g.state.lost == ("Book",) and g.state.artwork == ()
    g.phase("C/D")
    g.given(lost=(*g.state.lost, "Film", "Sculpture"), markers=1)
    g.agents("Start", 5)
    events = g.ok("end_phase")
    assert events[-1]["reason"] == "surrounded"


def test_art_29_egypt_level_road_setting() -> None:
    g = Game(mission="test-egypt", rules={"egypt_level_road_fuel": 0})
    g.phase("B")
    g.ok("move", player="Ann", to="Luxor")
    g.ok("move", player="Ann", to="Abydos")
    assert g.state.van["fuel"] == 0 and g.state.player("Ann").health == 3  # type: ignore[union-attr]


def test_art_30_usa_own_chains_dallas_weapons_and_exchanges() -> None:
    g = board("test-usa")
    assert g.state.agents["Dallas"] == 0 and g.state.agents["Boston"] == 2
    g.drawn()
    g.given(chain=(Clue("c1", ("film", "film"), "Ann"),), cards=1)
    g.ok("play_card", player="Ben", clues=["film"])  # Ben's chain: one film, no set
    assert g.state.artwork == ()
    g.ok("play_card", player="Ann", clues=["book"])
    g.van("weapon", 3)
    g.ok("end_phase")
    g.ok("end_phase")
    events = g.ok("end_phase")  # end of B: both pawns in Dallas
    assert next(e for e in events if e["type"] == "gained")["weapon"] == 2
    g.given(phase="C/D")
    g.no("give_clue", "not_in_chain", "ART-30", **{"from": "Ann", "to": "Ben", "card": "c2"})
    events = g.ok("give_clue", **{"from": "Ben", "to": "Ann", "card": "c2"})
    assert {"type": "uncovered", "symbol": "film", "city": "Boston"} in events


def test_art_30_usa_rerolls_only_own_dice() -> None:
    g = board("test-usa")
    g.phase("C")
    g.agents("Dallas", 3)
    g.given(chain=(Clue("c1", ("film",), "Ben"),), cards=1)
    g.ok("battle", city="Dallas", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    g.no("reroll", "not_your_die", "ART-30", card="c1", dice=["Ann"])
    g.ok("reroll", card="c1", dice=["Ben"], rolls={"Ben": 3})


def test_art_20_catalog_faces() -> None:
    g = board("test-usa", rules={"battle_die": "catalog"})
    g.phase("C")
    g.agents("Dallas", 3)
    g.no("battle", "roll_out_of_range", "ART-20", city="Dallas", leader="Ann",
         rolls={"Ann": 4})
    need = g.need("battle", city="Dallas", leader="Ann")
    assert {r.sides for r in need.requests} == {6} and {r.die for r in need.requests} == {"face"}


def test_art_31_scandinavia_red_thread_costs_two() -> None:
    g = board("test-scandinavia")
    g.phase("B")
    g.ok("move", player="Ann", to="Bergen")
    assert g.state.van["fuel"] == 1
    g.ok("move", player="Ben", to="Malmo")
    assert g.state.van["fuel"] == 0


def test_art_32_polynesia() -> None:
    g = board("test-polynesia")
    assert set(g.state.agents.values()) == {0} and g.state.markers == 6
    g.drawn()
    g.ok("play_card", player="Ann", agents={"film": 2})
    assert (g.state.agents["Film A"], g.state.agents["Film B"]) == (2, 2)
    g.given(chain=(Clue("c1", ("book", "book"), "Ann"),), cards=1)
    g.ok("play_card", player="Ben", clues=["book"])
    assert g.state.pending[0].decision == "uncover_island"
    g.no("choose", "bad_choice", "ART-32", choice="Film A")
    g.ok("choose", choice="Book B")
    assert g.state.artwork == ("Book B",)
    g.phase("B")
    g.ok("move", player="Ann", to="Book B")  # anywhere, 1 fuel
    assert g.state.van["fuel"] == 2


def test_art_33_rio_free_roads_collection_order_and_a_lost_district() -> None:
    g = board("test-rio")
    g.phase("B")
    g.ok("move", player="Ann", to="Cinema")
    assert g.state.van["fuel"] == 3
    g.given(artwork=("Cinema",))
    g.ok("end_phase")  # the first space wants the book district: the film stays
    assert g.state.artwork == ("Cinema",) and g.state.track == 0
    g.phase("B")
    g.at("Ben", "Library")
    g.given(artwork=("Cinema", "Library"))
    events = g.ok("end_phase")
    assert [e["city"] for e in events if e["type"] == "collected"] == ["Library", "Cinema"]
    assert events[-1]["outcome"] == "won"
    r = board("test-rio")
    r.phase("C/D")
    r.agents("Cinema", 5)
    assert r.ok("end_phase")[-1]["reason"] == "rio_district"


def test_art_31_scandinavia_effects_and_the_collection_order() -> None:
    g = board("test-scandinavia")
    g.phase("B")
    g.at("Ann", "Narvik")
    g.at("Ben", "Bergen")
    for city in ("Narvik", "Bergen"):
        g.agents(city, 0)
    g.given(artwork=("Bergen", "Narvik"), chain=(Clue("c1", ("film",), "Ann"),
                                                  Clue("c2", ("book",), "Ann")), cards=2)
    g.van("radio", 1)
    g.ok("end_phase")
    assert g.state.pending[0].decision == "collect_order" and g.state.phase == "B"
    g.no("move", "decision_pending", "ART-17", player="Ann", to="Oslo")
    events = g.ok("choose", choice="Narvik")  # gain 2 radio, then Bergen: lose 2 resources
    assert {"type": "effect", "city": "Narvik", "effect": "gain_radio"} in events
    assert g.state.van["radio"] == 3 and g.state.track == 2
    assert g.state.pending[0].decision == "lose_resources" and g.state.phase == "B"
    g.no("choose", "bad_choice", "ART-31", choice="fuel+fuel+fuel")
    g.ok("choose", choice="radio+weapon")
    assert (g.state.van["radio"], g.state.van["weapon"]) == (2, 2)
    assert g.state.phase == "B/C" and g.state.pending == ()


def test_art_31_a_shortfall_is_paid_in_health_and_agents_go_everywhere() -> None:
    g = board("test-scandinavia", rules={"effect_agents_to_lost_city": "skip"})
    g.phase("B")
    g.given(artwork=("Bergen",))
    g.at("Ann", "Bergen")
    g.agents("Bergen", 0)
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)
    g.van("fuel", 1)
    g.ok("end_phase")
    assert g.state.van["fuel"] == 0 and g.state.pending[0].decision == "effect_health"
    g.ok("choose", choice="Ben")
    assert g.state.player("Ben").health == 2 and g.state.phase == "B/C"  # type: ignore[union-attr]
    m = board("test-scandinavia", rules={"effect_agents_to_lost_city": "skip"})
    m.phase("C")
    m.given(artwork=("Malmo",), lost=("Turku",))
    m.agents("Turku", 0)
    m.at("Ann", "Malmo")
    m.ok("battle", city="Malmo", leader="Ann", rolls={"Ann": 6})
    m.ok("weapon", player="Ann")
    assert [m.state.agents[x] for x in ("Oslo", "Bergen", "Turku", "Narvik")] == [3, 3, 0, 3]
    t = board("test-scandinavia")
    t.phase("B")
    t.given(artwork=("Turku",), chain=(Clue("c1", ("film",), "Ann"),
                                       Clue("c2", ("music",), "Ann")), cards=2)
    t.at("Ann", "Turku")
    t.agents("Turku", 0)
    t.ok("end_phase")
    t.ok("choose", choice="c2")
    assert [x.id for x in t.state.chain] == ["c1"] and t.state.phase == "B/C"


def test_art_33_rio_setup_agents_and_carrying_artwork() -> None:
    g = board("test-rio", rules={"rio_setup_agents": "one_district"})
    assert set(g.state.agents.values()) == {0}
    g.no("draw", "setup_agents_owed", "ART-33", player="Ann")
    g.no("place_agents", "one_district", "ART-33", player="Ann",
         agents={"Cinema": 1, "Library": 1})
    g.no("place_agents", "wrong_count", "ART-33", player="Ann", agents={"Cinema": 3})
    g.ok("place_agents", player="Ann", agents={"Cinema": 2})
    g.no("place_agents", "no_setup_agents", "ART-33", player="Ann", agents={"Cinema": 2})
    g.ok("place_agents", player="Ben", agents={"Central": 2})
    assert (g.state.agents["Cinema"], g.state.agent_reserve) == (2, 36)
    g.ok("draw", player="Ann")
    g.phase("B")
    g.given(artwork=("Central", "Library"))
    g.ok("move", player="Ann", to="Cinema", carry=True)  # along a free road, agents there
    assert sorted(g.state.artwork) == ["Cinema", "Library"] and g.state.van["fuel"] == 3
    g.no("move", "no_artwork", "ART-33", player="Ben", to="Library", carry=True)
    g.ok("move", player="Ann", to="Central", carry=True)
    g.ok("move", player="Ann", to="Library", carry=True)
    g.no("end_phase", "two_artworks", "ART-33")
    t = Game()
    t.phase("B")
    t.given(artwork=("Start",))
    t.no("move", "not_rio", "ART-33", player="Ann", to="Film", carry=True)


def test_art_19_declared_participants_and_a_battle_without_agents_by_house_rule() -> None:
    g = Game(rules={"battle_participants": "declared", "battle_needs_agents": False})
    g.phase("C")
    for name in ("Ann", "Ben", "Cy"):
        g.at(name, "Film")
    need = g.need("battle", city="Film", leader="Ann", participants=["Cy"])
    assert [r.id for r in need.requests] == ["Ann", "Cy"]
    g.at("Ben", "Start")
    g.no("battle", "not_in_battle", "ART-19", city="Film", leader="Ann", participants=["Ben"])
    g.agents("Film", 0)
    events = g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 6, "Cy": 6},
                  participants=["Cy"])
    verdict = next(e for e in events if e["type"] == "battle")
    assert verdict["participants"] == ["Ann", "Cy"] and verdict["agents_strength"] == 10
    assert verdict["won"] is True
