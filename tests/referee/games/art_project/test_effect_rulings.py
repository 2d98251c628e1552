"""Scandinavia's effects and the team's choices: rulings that mutation testing of
rules/effects.py and rules/choices.py found unpinned (issue 28; docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def scandinavia_collects(city: str) -> Game:
    g = Game(["Ann", "Ben"], mission="test-scandinavia", catalog=BOARDS)
    g.phase("B")
    g.given(artwork=(city,))
    g.at("Ann", city)
    g.agents(city, 0)
    return g


def test_choose_with_nothing_waiting_is_refused() -> None:
    g = Game()
    g.drawn()
    g.no("choose", "nothing_to_choose", "ART-9", choice="c1")


def test_a_lone_clue_card_is_lost_without_asking() -> None:
    g = scandinavia_collects("Turku")
    g.given(chain=(Clue("c7", ("film",), "Ann"),), cards=1)
    events = g.ok("end_phase")
    assert {"type": "clue_lost", "card": "c7"} in events
    assert g.state.chain == () and g.state.pending == ()


def test_exactly_two_resources_in_the_van_are_lost_without_asking() -> None:
    g = scandinavia_collects("Bergen")
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)
    g.van("fuel", 2)
    events = g.ok("end_phase")
    paid = next(e for e in events if e["type"] == "paid")
    assert paid == {"type": "paid", "player": None, "fuel": 2, "radio": 0, "weapon": 0,
                    "health": {}, "cause": "effect"}
    assert g.state.van["fuel"] == 0 and g.state.pending == ()


def test_two_kinds_of_resources_make_the_team_choose() -> None:
    g = scandinavia_collects("Bergen")
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)
    g.van("fuel", 1)
    g.van("radio", 2)
    events = g.ok("end_phase")
    asked = next(e for e in events if e["type"] == "pending")
    assert asked["decisions"] == [{"decision": "lose_resources",
                                   "options": ["fuel+radio", "radio+radio"], "player": None,
                                   "then": asked["decisions"][0]["then"], "symbol": None}]
    [pending] = g.state.pending
    assert pending.decision == "lose_resources"
    assert pending.options == ("fuel+radio", "radio+radio")
    g.no("choose", "bad_choice", "ART-31", choice="fuel+fuel")


def test_a_shortfall_in_health_is_paid_by_the_named_player() -> None:
    g = scandinavia_collects("Bergen")
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)
    g.ok("end_phase")
    health = g.state.player("Ben").health  # type: ignore[union-attr]
    events = g.ok("choose", choice="Ben")
    lost = next(e for e in events if e["type"] == "health_lost")
    assert (lost["player"], lost["count"], lost["cause"]) == ("Ben", 2, "effect")
    assert g.state.player("Ben").health == health - 2  # type: ignore[union-attr]


def _minimal_set_asked() -> Game:
    g = Game(rules={"clue_overflow": "minimal_set"})
    g.drawn()
    g.given(chain=(Clue("c1", ("film", "book"), "Ann"), Clue("c2", ("film", "film"), "Ann")),
            cards=2)
    g.ok("play_card", player="Ann", clues=["film"])  # c3: one more film
    return g


def test_a_wrong_clue_set_is_refused_saying_what_the_cards_bear() -> None:
    g = _minimal_set_asked()
    head = "Name clue cards bearing film exactly 3 times (cards 1 and 2 or cards 2 and 3): "
    for choice, why in (("c1+c3", "those cards bear film 2 times."),
                        ("c3", "those cards bear film 1 time."),
                        ("c1+c9", "card 9 is not in the chain."),
                        ("c8+c9", "cards 8, 9 are not in the chain.")):
        err = g.no("choose", "bad_choice", "ART-15", choice=choice)
        assert err.message == head + why


def test_a_clue_set_is_named_in_any_order_and_spacing() -> None:
    g = _minimal_set_asked()
    events = g.ok("choose", choice="c3 + c2")
    assert {"type": "clues_discarded", "symbol": "film", "cards": ["c2", "c3"]} in events


def test_the_agents_effect_places_one_agent_in_each_other_city_naming_its_cause() -> None:
    g = scandinavia_collects("Malmo")
    events = g.ok("end_phase")
    placed = [e for e in events if e["type"] == "agents_placed"]
    others = [c.name for c in g.state.mission.cities if c.name != "Malmo"]  # type: ignore[union-attr]
    assert placed == [{"type": "agents_placed", "city": c, "to": c, "count": 1,
                       "cause": "effect of Malmo"} for c in others]


def test_the_artwork_that_wins_the_game_sets_off_no_effect() -> None:
    """ART-26: the game is won the moment the last track space fills; Bergen's effect
    (ART-31) would come after it."""
    g = scandinavia_collects("Bergen")
    g.given(track=len(g.state.mission.track) - 1)  # type: ignore[union-attr]
    events = g.ok("end_phase")
    assert [e["type"] for e in events if e["type"] in ("collected", "effect", "paid")] == [
        "collected"]
    assert g.state.pending == ()


def test_a_city_without_an_effect_and_an_effect_off_scandinavia_do_nothing() -> None:
    """ART-31: only Scandinavia's cities have effects; a catalog naming one elsewhere, or a
    Scandinavian city naming none, sets nothing off."""
    g = scandinavia_collects("Narvik")
    m = g.state.mission
    assert m is not None
    g.given(mission=replace(m, cities=tuple(replace(c, effect=None) if c.name == "Narvik" else c
                                            for c in m.cities)))
    radio = g.state.van["radio"]
    events = g.ok("end_phase")
    assert "collected" in [e["type"] for e in events]
    assert "effect" not in [e["type"] for e in events] and g.state.van["radio"] == radio
    elsewhere = Game(["Ann", "Ben"])
    elsewhere.phase("B")
    elsewhere.given(artwork=("Film",))
    elsewhere.agents("Film", 0)
    elsewhere.at("Ann", "Film")
    m = elsewhere.state.mission
    assert m is not None
    elsewhere.given(mission=replace(m, cities=tuple(
        replace(c, effect="gain_radio") if c.name == "Film" else c for c in m.cities)))
    radio = elsewhere.state.van["radio"]
    events = elsewhere.ok("end_phase")
    assert "collected" in [e["type"] for e in events]
    assert "effect" not in [e["type"] for e in events] and elsewhere.state.van["radio"] == radio
