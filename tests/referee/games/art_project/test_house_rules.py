"""Each of The A.R.T. Project's nineteen house rules (the-art-project-rules.md, "House-rule
settings"; referee/games/art_project/settings.py), one test each: the same table ruled with the
default and with the other value(s), so the test fails if the setting stops deciding its point."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.games.art_project.settings import SETTINGS
from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def board(mission: str, rules: dict[str, Any] | None = None) -> Game:
    return Game(["Ann", "Ben"], mission=mission, catalog=BOARDS, rules=rules or {})


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_every_setting_has_a_test_here() -> None:
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(SETTINGS) <= tested


@pytest.mark.parametrize(("value", "die", "accepted", "refused"), [
    ("d6", "d6", 4, 0), ("catalog", "face", 0, 4)])
def test_battle_die(value: str, die: str, accepted: int, refused: int) -> None:
    g = board("test-usa", {"battle_die": value})
    g.phase("C")
    g.agents("Dallas", 3)
    assert {r.die for r in g.need("battle", city="Dallas", leader="Ann").requests} == {die}
    g.no("battle", "roll_out_of_range", "ART-20", city="Dallas", leader="Ann",
         rolls={"Ann": refused, "Ben": 1})
    g.ok("battle", city="Dallas", leader="Ann", rolls={"Ann": accepted, "Ben": 1})


@pytest.mark.parametrize(("value", "ruled"), [("count", ["final_card"]),
                                              ("table", ["warning", "drawn"])])
def test_final_card_detection(value: str, ruled: list[str]) -> None:
    g = Game(["Ann", "Ben"], rules={"final_card_detection": value})
    g.given(deck=replace(g.state.deck, above=0))  # the next card is the final one
    assert types(g.ok("draw", player="Ann")) == ruled


@pytest.mark.parametrize(("value", "ruled"), [("skip", ["draw_lost"]),
                                              ("reshuffle", ["reshuffled", "drawn"])])
def test_deck_empty(value: str, ruled: list[str]) -> None:
    g = Game(["Ann", "Ben"], rules={"deck_empty": value})
    g.given(deck=replace(g.state.deck, above=0, final=False, below=0, discard=9))
    assert types(g.ok("draw", player="Ann")) == ruled


@pytest.mark.parametrize("value", ["any_resource", "per_type"])
def test_extra_draw_payment(value: str) -> None:
    g = Game(["Ann", "Ben"], rules={"extra_draw_payment": value})
    g.drawn()
    g.van("fuel", 0)  # radio and weapons left
    if value == "any_resource":
        g.no("extra_draw", "golden_rule", "ART-7", player="Ann", pay="health")
        g.no("extra_draw", "not_enough_fuel", "ART-11", player="Ann", pay="fuel")
    else:
        events = g.ok("extra_draw", player="Ann", pay="health")
        assert events[0]["health"] == {"Ann": 1}
        err = g.no("extra_draw", "not_enough_fuel", "ART-11", player="Ann", pay="fuel")
        assert "health" in err.message


@pytest.mark.parametrize(("value", "ann_may"), [("first_play", False), ("own_play", True)])
def test_extra_draw_until(value: str, ann_may: bool) -> None:
    g = Game(["Ann", "Ben"], rules={"extra_draw_until": value})
    g.drawn()
    g.ok("play_card", player="Ben")
    if ann_may:
        assert "drawn" in types(g.ok("extra_draw", player="Ann", pay="fuel"))
        g.ok("play_card", player="Ann")
    g.no("extra_draw", "extra_draw_closed", "ART-11", player="Ann", pay="fuel")


@pytest.mark.parametrize("value", ["all_bearing", "minimal_set"])
def test_clue_overflow(value: str) -> None:
    g = Game(rules={"clue_overflow": value})
    g.drawn()
    g.given(chain=(Clue("c1", ("film", "book"), "Ann"), Clue("c2", ("film", "film"), "Ann")),
            cards=2)
    events = g.ok("play_card", player="Ann", clues=["film"])  # 4 films on 3 cards
    if value == "all_bearing":
        assert {"type": "clues_discarded", "symbol": "film",
                "cards": ["c1", "c2", "c3"]} in events
        assert g.state.chain == () and g.state.pending == ()
    else:
        assert [p.decision for p in g.state.pending] == ["clue_set"]
        assert len(g.state.chain) == 3


@pytest.mark.parametrize(("value", "chain"), [("chain", ["c1"]), ("discard", [])])
def test_clueless_card(value: str, chain: list[str]) -> None:
    g = Game(rules={"clueless_card": value})
    g.drawn()
    events = g.ok("play_card", player="Ann")
    assert [x.id for x in g.state.chain] == chain
    assert (events[-1] == {"type": "card_discarded", "card": "c1"}) == (value == "discard")


@pytest.mark.parametrize(("value", "uncovered"), [("unlimited", True), (8, False)])
def test_artwork_token_limit(value: object, uncovered: bool) -> None:
    g = Game(rules={"artwork_token_limit": value})
    g.drawn()
    g.given(track=6, artwork=("Book", "Music"))  # 6 collected + 2 out: 8 used
    g.given(chain=(Clue("c1", ("film", "film"), "Ann"),), cards=1)
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert any(e["type"] == "uncovered" for e in events) == uncovered
    assert ({"type": "uncover_blocked", "symbol": "film", "reason": "no_token"}
            in events) != uncovered


@pytest.mark.parametrize(("value", "artwork"), [("stays", ("Book",)), ("removed", ())])
def test_artwork_on_lost_city(value: str, artwork: tuple[str, ...]) -> None:
    g = Game(rules={"artwork_on_lost_city": value})
    g.phase("C/D")
    g.given(artwork=("Book",))
    g.agents("Book", 5)
    events = g.ok("end_phase")
    assert g.state.lost == ("Book",) and g.state.artwork == artwork
    lost = next(e for e in events if e["type"] == "city_lost")
    assert lost["artwork_removed"] == (value == "removed")


@pytest.mark.parametrize(("value", "after_d"), [("within_round", "A"),
                                                ("every_boundary", "D/A")])
def test_ally_windows(value: str, after_d: str) -> None:
    g = Game(rules={"ally_windows": value})
    g.phase("C/D")
    g.ok("end_phase")
    assert g.state.phase == after_d
    if value == "every_boundary":
        g.ok("unlock_ally")
        assert g.state.allies == 1
    else:
        g.no("unlock_ally", "wrong_phase")


@pytest.mark.parametrize("value", ["any", "one"])
def test_unlocks_per_window(value: str) -> None:
    g = Game(rules={"unlocks_per_window": value})
    g.phase("A/B")
    g.ok("unlock_ally")
    if value == "one":
        g.no("unlock_ally", "one_unlock_per_window", "ART-18")
    else:
        g.ok("unlock_ally")
        assert g.state.allies == 2


@pytest.mark.parametrize(("value", "dice"), [("all_present", ["Ann", "Ben", "Cy"]),
                                             ("declared", ["Ann", "Cy"])])
def test_battle_participants(value: str, dice: list[str]) -> None:
    g = Game(rules={"battle_participants": value})
    g.phase("C")
    for name in ("Ann", "Ben", "Cy"):
        g.at(name, "Film")
    g.agents("Film", 3)
    need = g.need("battle", city="Film", leader="Ann", participants=["Cy"])
    assert [r.id for r in need.requests] == dice
    events = g.ok("battle", city="Film", leader="Ann", rolls=dict.fromkeys(dice, 1),
                  participants=["Cy"])
    assert next(e for e in events if e["type"] == "battle")["participants"] == dice


@pytest.mark.parametrize("value", [True, False])
def test_battle_needs_agents(value: bool) -> None:
    g = Game(rules={"battle_needs_agents": value})
    g.phase("C")
    g.at("Ann", "Film")
    g.agents("Film", 0)
    if value:
        g.no("battle", "no_agents", "ART-19", city="Film", leader="Ann")
    else:
        events = g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1})
        assert "battle" in types(events)  # fought with no agent there


@pytest.mark.parametrize(("value", "lost_at_end"), [("at_movement", False),
                                                    ("at_end_of_round", True)])
def test_surrounded_check(value: str, lost_at_end: bool) -> None:
    g = Game(rules={"surrounded_check": value})
    g.phase("C/D")
    g.given(lost=("Film", "Sculpture"), markers=1)
    g.agents("Start", 5)
    events = g.ok("end_phase")
    assert (events[-1].get("reason") == "surrounded") == lost_at_end


def test_egypt_level_road_fuel() -> None:
    fuel = {}
    for value in (1, 0):
        g = Game(mission="test-egypt", rules={"egypt_level_road_fuel": value})
        g.phase("B")
        g.van("fuel", 3)
        g.ok("move", player="Ann", to="Luxor")
        before = g.state.van["fuel"]
        g.ok("move", player="Ann", to="Abydos")  # a level road
        fuel[value] = before - g.state.van["fuel"]
    assert fuel == {1: 1, 0: 0}


@pytest.mark.parametrize(("value", "weapons"), [("each_pawn", 2), ("each_pawn_that_moved", 1),
                                                ("once", 1)])
def test_dallas_weapon(value: str, weapons: int) -> None:
    g = board("test-usa", {"dallas_weapon": value})
    g.phase("B")
    g.van("weapon", 0)
    g.at("Ben", "Boston")
    g.ok("move", player="Ben", to="Dallas")  # Ann stayed in Dallas; Ben moved there
    g.ok("end_phase")
    assert g.state.van["weapon"] == weapons


@pytest.mark.parametrize(("value", "fuel", "owed"), [
    ("per_token", 1, 1), ("per_token", 0, 2), ("one", 1, 1), ("one", 0, 1)])
def test_scandinavia_shortfall(value: str, fuel: int, owed: int) -> None:
    g = board("test-scandinavia", {"scandinavia_shortfall": value})
    g.phase("B")
    g.given(artwork=("Bergen",))  # Bergen: the team loses 2 resources
    g.at("Ann", "Bergen")
    g.agents("Bergen", 0)
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)
    g.van("fuel", fuel)
    g.ok("end_phase")
    pending = g.state.pending[0]
    assert pending.decision == "effect_health" and pending.symbol == str(owed)


@pytest.mark.parametrize(("value", "to_hq"), [("hq", 1), ("skip", 0)])
def test_effect_agents_to_lost_city(value: str, to_hq: int) -> None:
    m = board("test-scandinavia", {"effect_agents_to_lost_city": value})
    m.phase("C")
    m.given(artwork=("Malmo",), lost=("Turku",))
    m.agents("Turku", 0)
    m.at("Ann", "Malmo")
    hq = m.state.hq
    m.ok("battle", city="Malmo", leader="Ann", rolls={"Ann": 6})
    m.ok("weapon", player="Ann")  # won: Malmo's effect sends an agent to every city
    assert m.state.agents["Turku"] == 0
    assert m.state.hq == hq + to_hq


@pytest.mark.parametrize("value", ["any", "one_district"])
def test_rio_setup_agents(value: str) -> None:
    g = board("test-rio", {"rio_setup_agents": value})
    split = {"Cinema": 1, "Library": 1}
    if value == "one_district":
        g.no("place_agents", "one_district", "ART-33", player="Ann", agents=split)
        g.ok("place_agents", player="Ann", agents={"Cinema": 2})
    else:
        g.ok("place_agents", player="Ann", agents=split)
        assert (g.state.agents["Cinema"], g.state.agents["Library"]) == (1, 1)
