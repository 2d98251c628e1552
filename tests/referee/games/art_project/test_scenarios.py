"""The spec's scenario tests T-ART-01..15 (the-art-project-rules.md, "Scenario tests"), on
the invented fixture boards `test-board` and `test-egypt`, and the rulebook's two worked
examples."""

from __future__ import annotations

from dataclasses import replace

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game, totals


def test_t_art_01_setup_three_players_medium() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    j = g.json
    assert [p["health"] for p in j["players"]] == [3, 3, 3]
    assert j["health_reserve"] == 16
    assert j["van"] == {"fuel": 3, "radio": 3, "weapon": 3} == j["reserve"]
    assert set(j["agents"]["cities"].values()) == {2} and len(j["agents"]["cities"]) == 7
    assert (j["agents"]["hq"], j["agents"]["reserve"], j["markers"], j["allies"]) == (0, 26, 3, 0)
    assert (j["artwork"]["track"], j["artwork"]["spaces"]) == (0, 7)
    assert j["deck"] == {"above": 60, "final": True, "below": 12, "discard": 0}
    assert (j["phase"], j["round"]) == ("A", 1)
    assert [p["draws_owed"] for p in j["players"]] == [2, 2, 2]
    assert {p["city"] for p in j["players"]} == {"Start"}
    assert "owes 2" in j["next"]
    g.no("play_card", "draws_outstanding", "ART-10", player="Ann")


def test_t_art_02_solo_setup_and_solo_battle_dice() -> None:
    g = Game(["Ann"], ally="green")
    j = g.json
    assert j["players"][0]["health"] == 6 and j["health_reserve"] == 19
    assert j["ally"] == {"color": "green", "city": "Start", "must_leave": False}
    assert j["deck"] == {"above": 45, "final": True, "below": 12, "discard": 0}
    assert j["players"][0]["draws_owed"] == 3 and g.state.plays_due() == 2
    g.phase("C")
    g.at("Ann", "Film")
    g.given(ally=replace(g.state.ally, city="Film"), allies=1)  # type: ignore[arg-type]
    need = g.need("battle", city="Film", leader="Ann")
    assert [(r.id, r.player) for r in need.requests] == [("Ann", "Ann"), ("ally1", None),
                                                         ("green", "Ann")]
    g.at("Ann", "Film")
    g.given(ally=replace(g.state.ally, city="Sculpture"))  # type: ignore[arg-type]
    g.no("battle", "ally_cannot_fight_alone", "ART-34", city="Sculpture", leader="Ann")


def test_t_art_03_golden_rule_on_a_mandatory_cost() -> None:
    g = Game()
    g.drawn()
    g.van("fuel", 1)
    events = g.ok("play_card", player="Ann", spend={"fuel": 2}, agents={}, gain={},
                  clues=["film"])
    paid = next(e for e in events if e["type"] == "paid")
    assert (paid["fuel"], paid["health"]) == (1, {"Ann": 1})
    j = g.json
    assert (j["van"]["fuel"], j["reserve"]["fuel"]) == (0, 6)
    assert j["players"][0]["health"] == 2 and j["health_reserve"] == 17
    assert j["chain"] == [{"id": "c1", "symbols": ["film"], "player": "Ann"}]


def test_t_art_04_golden_rule_on_an_optional_spend() -> None:
    g = Game()
    g.phase("B")
    g.van("fuel", 2)
    g.no("move", "golden_rule", "ART-7", player="Ann", to="Film", health=1)
    g.ok("move", player="Ann", to="Film")
    assert g.state.van["fuel"] == 1
    g.van("fuel", 0)
    g.no("move", "not_enough_fuel", "ART-16", player="Ben", to="Film")
    g.ok("move", player="Ben", to="Film", health=1)
    assert (g.state.player("Ben").health, g.state.player("Ben").city) == (2, "Film")  # type: ignore[union-attr]
    g.no("move", "no_road", "ART-16", player="Ben", to="Artifact", health=1)
    assert g.state.player("Ben").health == 2  # type: ignore[union-attr]


def test_t_art_05_a_last_health_token_ends_the_game() -> None:
    g = Game(difficulty="impossible")
    g.drawn()
    g.van("radio", 0)
    events = g.ok("play_card", player="Ben", spend={"radio": 1}, gain={"weapon": 1},
                  clues=["book"])
    over = events[-1]
    assert over == {"type": "game_over", "outcome": "lost", "winners": [], "reason": "health",
                    "rule": "ART-27"}
    assert not [e for e in events if e["type"] in ("gained", "clue_added")]
    assert g.state.player("Ben").health == 0 and g.state.chain == ()  # type: ignore[union-attr]
    assert g.json["result"] == {"outcome": "lost", "winners": [], "reason": "health",
                                "rule": "ART-27"}
    g.no("draw", "game_over", player="Ann")


def _chain(g: Game, *cards: tuple[str, ...]) -> None:
    g.given(chain=tuple(Clue(f"c{i}", c, "Ann") for i, c in enumerate(cards, 1)),
            cards=len(cards))


def test_t_art_06_two_sets_at_once_and_a_blocked_uncover() -> None:
    g = Game()
    g.drawn()
    _chain(g, ("film",), ("film",), ("sculpture",), ("sculpture",))
    events = g.ok("play_card", player="Cy", clues=["film", "sculpture"])
    assert events[-1]["type"] == "pending"
    assert g.json["pending"] == [{"player": None, "decision": "uncover_order",
                                  "options": ["film", "sculpture"]}]
    g.no("end_phase", "decision_pending")
    events = g.ok("choose", choice="film")
    assert {"type": "clues_discarded", "symbol": "film", "cards": ["c1", "c2", "c5"]} in events
    assert {"type": "uncovered", "symbol": "film", "city": "Film"} in events
    assert [x.id for x in g.state.chain] == ["c3", "c4"] and g.state.pending == ()
    g.given(artwork=(*g.state.artwork, "Sculpture"))
    events = g.ok("play_card", player="Ann", clues=["sculpture"])
    assert {"type": "clues_discarded", "symbol": "sculpture",
            "cards": ["c3", "c4", "c6"]} in events
    assert {"type": "uncover_blocked", "symbol": "sculpture", "reason": "occupied"} in events
    assert sorted(g.state.artwork) == ["Film", "Sculpture"]


def test_t_art_07_agents_to_hq_and_running_out() -> None:
    g = Game()
    g.drawn()
    g.given(lost=("Painting",))
    g.agents("Painting", 0)
    g.ok("play_card", player="Ann", agents={"Painting": 2})
    assert (g.state.hq, g.state.agents["Painting"]) == (2, 0)
    g.given(agent_reserve=1, hq=g.state.hq + g.state.agent_reserve - 1)
    before = g.state.agents["Film"]
    events = g.ok("play_card", player="Ben", agents={"Film": 2}, gain={"fuel": 1})
    assert g.state.agents["Film"] == before + 1
    assert events[-1]["reason"] == "agents" and g.state.over
    assert not [e for e in events if e["type"] == "gained"]


def test_t_art_08_ally_dice() -> None:
    g = Game()
    g.phase("A/B")
    g.given(track=2)
    g.van("radio", 1)
    g.no("unlock_ally", "not_enough_radio", "ART-18", health={})
    g.ok("unlock_ally", health={"Cy": 1})
    assert (g.state.van["radio"], g.state.player("Cy").health, g.state.allies) == (0, 2, 1)  # type: ignore[union-attr]
    g.ok("move", player="Ann", to="Film")
    g.no("unlock_ally", "wrong_phase", "ART-18")
    g.given(phase="B/C", allies=5)
    g.no("unlock_ally", "no_ally_dice", "ART-18")


def _battle_example() -> Game:
    g = Game(["Ann", "Ben", "Cy"])
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 3)
    g.agents("hq", 1)
    g.given(artwork=("Film",), allies=2)
    g.van("weapon", 1)
    return g


def test_t_art_09_the_rulebooks_battle_example() -> None:
    """"4 + 5 + (1+3) = 13" against "3 agents in the city + 1 in ... headquarters + 10 on
    the artwork track = agent strength 14"."""
    g = _battle_example()
    events = g.ok("battle", city="Film", leader="Ann",
                  rolls={"Ann": 4, "Ben": 5, "ally1": 1, "ally2": 3})
    verdict = events[-1]
    assert verdict["type"] == "battle"
    assert (verdict["dice_sum"], verdict["strength"]) == (13, 13)
    assert (verdict["city_agents"], verdict["hq"], verdict["threat"]) == (3, 1, 10)
    assert verdict["agents_strength"] == 14 and verdict["won"] is False
    assert g.json["pending"][0]["decision"] == "battle"
    events = g.ok("weapon", player="Ben")
    verdict = next(e for e in events if e["type"] == "battle")
    assert (verdict["weapon_bonus"], verdict["strength"], verdict["won"]) == (2, 15, True)
    assert g.state.agents["Film"] == 0 and g.state.battle is None
    assert {"type": "agents_cleared", "city": "Film", "count": 3} in events
    assert g.json["artwork"]["track"] == 1 and g.json["artwork"]["threat"] == 11
    g.agents("Film", 1)
    g.no("battle", "already_fought", "ART-19", city="Film", leader="Ann")


def test_t_art_10_rerolls() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 4)
    g.given(allies=1)
    _chain(g, ("book",), ("film", "music"))
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 2, "Ben": 3, "ally1": 4})
    assert (g.state.battle.strength, g.state.battle.agents_strength) == (9, 14)  # type: ignore[union-attr]
    g.no("reroll", "too_many_dice", "ART-23", card="c1", dice=["Ann", "Ben"])
    g.no("reroll", "duplicate_die", "ART-23", card="c2", dice=["Ann", "Ann"])
    events = g.ok("reroll", card="c2", dice=["ally1"], rolls={"ally1": 1})
    assert {"type": "clue_spent", "card": "c2", "symbols": ["film", "music"],
            "used": 1} in events
    assert g.state.battle.strength == 6 and dict(g.state.battle.dice)["ally1"] == 1  # type: ignore[union-attr]
    assert [x.id for x in g.state.chain] == ["c1"]
    assert g.json["pending"][0]["decision"] == "battle"


def test_t_art_11_concession_and_a_lost_city() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.phase("C")
    g.at("Cy", "Music")
    g.health("Cy", 2)
    g.agents("Music", 5)
    g.ok("battle", city="Music", leader="Cy", rolls={"Cy": 2})
    g.ok("concede")
    assert g.state.player("Cy").health == 1 and g.state.agents["Music"] == 5  # type: ignore[union-attr]
    reserve = g.state.agent_reserve
    g.ok("end_phase")
    assert g.state.phase == "C/D"
    events = g.ok("end_phase")
    assert {"type": "city_lost", "city": "Music", "agents": 5,
            "artwork_removed": False} in events
    assert g.state.agent_reserve == reserve + 5 and g.state.markers == 2
    assert g.state.player("Cy").must_leave and (g.state.round, g.state.phase) == (2, "A")  # type: ignore[union-attr]
    g.phase("B")
    g.no("end_phase", "must_leave", "ART-24")
    g.ok("move", player="Cy", to="Painting")
    g.ok("end_phase")
    assert g.state.phase == "B/C"


def test_t_art_12a_out_of_markers() -> None:
    g = Game()
    g.phase("C/D")
    g.given(lost=("Film", "Sculpture", "Painting"), markers=0)
    g.agents("Book", 5)
    events = g.ok("end_phase")
    assert events[-1]["reason"] == "lost_markers" and g.state.over


def test_t_art_12b_surrounded() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("C/D")
    g.given(lost=("Film", "Sculpture"), markers=1)
    g.agents("Film", 0)
    g.agents("Sculpture", 0)
    g.agents("Start", 6)
    g.at("Ben", "Book")
    g.ok("end_phase")
    assert "Start" in g.state.lost and g.state.markers == 0
    assert g.state.player("Ann").must_leave and not g.state.over  # type: ignore[union-attr]
    g.drawn()
    g.ok("play_card", player="Ann")
    g.ok("play_card", player="Ben")
    g.ok("end_phase")
    events = g.ok("end_phase")  # A/B -> B opens movement: Ann cannot leave
    assert events[-1]["reason"] == "surrounded" and g.state.over


def test_t_art_13_the_final_card() -> None:
    g = Game(["Ann", "Ben", "Cy", "Dan"])
    g.phase("A")
    g.given(round=8, deck=replace(g.state.deck, above=4, discard=56),
            players=tuple(replace(p, draws_owed=2, played=0) for p in g.state.players))
    for name in ("Ann", "Ann", "Ben", "Ben"):
        g.ok("draw", player=name)
    events = g.ok("draw", player="Cy")
    assert [e["type"] for e in events] == ["final_card"]
    assert g.state.final_round and g.state.player("Cy").draws_owed == 2  # type: ignore[union-attr]
    for name in ("Cy", "Cy", "Dan", "Dan"):
        g.ok("draw", player=name)
    assert g.state.deck.below == 8 and not g.state.deck.final
    g.ok("extra_draw", player="Ann", pay="fuel")
    for name in ("Ann", "Ben", "Cy", "Dan"):
        g.ok("play_card", player=name)
    for _ in range(6):  # A -> A/B -> B -> B/C -> C -> C/D -> D
        events = g.ok("end_phase")
    assert events[-1]["reason"] == "final_card" and g.json["result"]["outcome"] == "lost"


def test_t_art_14_winning() -> None:
    g = Game()
    g.phase("B")
    g.given(track=6, artwork=("Book",))
    g.at("Ann", "Book")
    g.agents("Book", 0)
    events = g.ok("end_phase")
    assert [e["type"] for e in events][-2:] == ["collected", "game_over"]
    assert events[-1]["outcome"] == "won" and events[-1]["winners"] == ["Ann", "Ben", "Cy"]
    assert g.json["artwork"]["track"] == 7 and g.json["artwork"]["threat"] is None
    g.no("move", "game_over", player="Ann", to="Film")
    assert g.json["hall_of_fame"] == [{"mission": "test-board", "difficulty": "medium",
                                       "won": 1, "lost": 0}]


def test_t_art_15_egypt() -> None:
    g = Game(mission="test-egypt")
    j = g.json
    assert (j["van"]["fuel"], j["reserve"]["fuel"]) == (0, 6)
    cities = j["agents"]["cities"]
    assert [cities[c] for c in ("Aswan", "Luxor", "Abydos")] == [2, 2, 2]
    assert [cities[c] for c in ("Amarna", "Memphis", "Giza", "Alexandria")] == [3, 3, 3, 3]
    assert j["agents"]["reserve"] == 22 and j["artwork"]["cities"] == ["Alexandria"]
    g.phase("B")
    g.ok("move", player="Ann", to="Luxor")  # northward: free
    assert g.state.van["fuel"] == 0
    g.no("move", "not_enough_fuel", "ART-16", player="Ann", to="Aswan")  # southward
    g.ok("move", player="Ann", to="Aswan", health=1)
    g.van("fuel", 2)
    g.ok("move", player="Ben", to="Luxor")
    g.ok("move", player="Ben", to="Abydos")  # level: 1 fuel
    assert g.state.van["fuel"] == 1
    assert totals(g.state) == ({"fuel": 6, "radio": 6, "weapon": 6}, 25, 40)
