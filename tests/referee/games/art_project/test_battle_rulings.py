"""Battle rulings that mutation testing found unpinned (issue 28; docs/mutation.md): each test
fails on a mutant of referee/games/art_project/rules/battle.py that changes a ruling or what the
front ends and the log read (ART-19..23, ART-30)."""

from __future__ import annotations

from pathlib import Path

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game, totals

BOARDS = str(Path(__file__).with_name("boards.toml"))


def battle_game(**extra: object) -> Game:
    g = Game(**extra)  # type: ignore[arg-type]
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 4)
    return g


def test_a_weapon_takes_the_vans_token_or_the_named_health() -> None:
    g = battle_game()
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    g.van("weapon", 2)
    events = g.ok("weapon", player="Ben")
    assert events[0]["type"] == "paid" and events[0]["weapon"] == 1
    assert events[0]["player"] == "Ben" and events[0]["health"] == {}
    assert g.state.van["weapon"] == 1 and g.state.reserve["weapon"] == 5
    assert g.state.battle is not None and g.state.battle.weapons == 1
    assert events[-1]["type"] == "battle" and events[-1]["weapons"] == 1
    g.van("weapon", 0)
    before = g.state.player("Ann").health  # type: ignore[union-attr]
    events = g.ok("weapon", player="Ann", health=1)
    assert events[0]["health"] == {"Ann": 1} and events[0]["weapon"] == 0
    assert g.state.player("Ann").health == before - 1  # type: ignore[union-attr]
    assert g.state.battle.weapons == 2
    assert totals(g.state)[1] == 25


def test_the_die_is_named_in_requests_and_roll_events() -> None:
    g = battle_game()
    need = g.need("battle", city="Film", leader="Ann")
    assert [(r.id, r.die, r.purpose, r.sides, r.player) for r in need.requests] == [
        ("Ann", "d6", "battle", 6, "Ann"), ("Ben", "d6", "battle", 6, "Ben")]
    events = g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 2, "Ben": 1})
    rolls = [e for e in events if e["type"] == "roll"]
    assert [(e["id"], e["player"], e["die"], e["value"], e["purpose"]) for e in rolls] == [
        ("Ann", "Ann", "d6", 2, "battle"), ("Ben", "Ben", "d6", 1, "battle")]
    g.given(chain=(Clue("c1", ("book",), "Ann"),), cards=1)
    need = g.need("reroll", card="c1", dice=["Ben"])
    assert [(r.id, r.die, r.purpose, r.player) for r in need.requests] == [
        ("Ben", "d6", "reroll", "Ben")]
    events = g.ok("reroll", card="c1", dice=["Ben"], rolls={"Ben": 2})
    assert events[0] == {"type": "clue_spent", "card": "c1", "symbols": ["book"], "used": 1}
    roll = next(e for e in events if e["type"] == "roll")
    assert (roll["id"], roll["die"], roll["purpose"], roll["value"]) == ("Ben", "d6", "reroll", 2)
    assert dict(g.state.battle.dice) == {"Ann": 2, "Ben": 2}  # type: ignore[union-attr]


def test_catalog_faces_name_the_die_face_in_roll_events() -> None:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS, rules={"battle_die": "catalog"})
    g.phase("C")
    g.agents("Dallas", 3)
    events = g.ok("battle", city="Dallas", leader="Ann", rolls={"Ann": 0, "Ben": 3})
    assert {e["die"] for e in events if e["type"] == "roll"} == {"face"}


def test_ally_dice_are_the_teams_and_the_leaders_to_roll() -> None:
    g = battle_game()
    g.given(allies=2)
    need = g.need("battle", city="Film", leader="Ben")
    assert [(r.id, r.player) for r in need.requests] == [
        ("Ben", "Ben"), ("ally1", None), ("ally2", None), ("Ann", "Ann")]


def test_under_the_default_rule_everyone_present_fights_whatever_is_named() -> None:
    g = battle_game()
    g.at("Cy", "Film")
    need = g.need("battle", city="Film", leader="Ann", participants=["Cy"])
    assert [r.id for r in need.requests] == ["Ann", "Ben", "Cy"]
    events = g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1, "Cy": 1},
                  participants=["Cy"])
    assert next(e for e in events if e["type"] == "battle")["participants"] == [
        "Ann", "Ben", "Cy"]


def test_off_usa_a_clue_card_rerolls_anyones_die() -> None:
    g = battle_game()
    g.given(chain=(Clue("c1", ("book",), "Ben"),), cards=1)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    events = g.ok("reroll", card="c1", dice=["Ann"], rolls={"Ann": 3})
    assert next(e for e in events if e["type"] == "roll")["player"] == "Ann"


def test_on_usa_the_ally_dice_are_the_leaders_to_reroll() -> None:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    g.phase("C")
    g.agents("Dallas", 3)
    g.given(allies=1, chain=(Clue("c1", ("film",), "Ann"), Clue("c2", ("film",), "Ben")),
            cards=2)
    g.ok("battle", city="Dallas", leader="Ann", rolls={"Ann": 1, "ally1": 1, "Ben": 1})
    g.no("reroll", "not_your_die", "ART-30", card="c2", dice=["ally1"])
    g.ok("reroll", card="c1", dice=["ally1"], rolls={"ally1": 2})


def test_conceding_costs_the_leader_a_health_and_says_where() -> None:
    g = battle_game()
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    events = g.ok("concede")
    assert events[:2] == [{"type": "battle_conceded", "city": "Film", "leader": "Ann"},
                          {"type": "health_lost", "player": "Ann", "count": 1,
                           "cause": "concede"}]
    assert g.state.battle is None


def test_reroll_refusals_list_what_there_is() -> None:
    g = battle_game()
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    err = g.no("reroll", "not_in_chain", "ART-23", card="c9", dice=["Ann"])
    assert err.message == "Card 9 is not in the clue chain (it is empty)."
    g.given(chain=(Clue("c1", ("book",), "Ann"), Clue("c2", ("book", "film"), "Ben")), cards=2)
    assert "(cards 1, 2)" in g.no("reroll", "not_in_chain", "ART-23", card="c9",
                              dice=["Ann"]).message
    assert "shows 1 clue:" in g.no("reroll", "too_many_dice", "ART-23", card="c1",
                                   dice=["Ann", "Ben"]).message
    assert "shows 2 clues:" in g.no("reroll", "too_many_dice", "ART-23", card="c2",
                                    dice=[]).message
    err = g.no("reroll", "not_in_battle", "ART-23", card="c1", dice=["Cy"])
    assert "(Ann, Ben)" in err.message
    err = g.no("reroll", "not_in_battle", "ART-20", card="c1", dice=["Ann"], rolls={"Ben": 2})
    assert "is not a die being rerolled (Ann)" in err.message


def test_battle_refusals_say_what_is_allowed() -> None:
    g = battle_game()
    err = g.no("battle", "not_in_battle", "ART-20", city="Film", leader="Ann", rolls={"Cy": 3})
    assert "is not a die of this battle (Ann, Ben)" in err.message
    err = g.no("battle", "roll_out_of_range", "ART-20", city="Film", leader="Ann",
               rolls={"Ann": 7})
    assert "1, 2, 3, 4, 5, 6, not 7" in err.message
    g.phase("B")
    err = g.no("battle", "wrong_phase", city="Film", leader="Ann")
    assert err.message.startswith("A battle")


def test_a_players_die_is_theirs_whatever_their_name_ends_with() -> None:
    g = Game(["Lara2", "Ben"])
    g.phase("C")
    g.at("Lara2", "Film")
    g.agents("Film", 2)
    need = g.need("battle", city="Film", leader="Lara2")
    assert [(r.id, r.player) for r in need.requests] == [("Lara2", "Lara2")]
