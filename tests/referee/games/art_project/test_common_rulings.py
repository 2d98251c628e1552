"""The shared checks and steps of The A.R.T. Project's rules (rules/common.py): rulings that
mutation testing found unpinned (issue 28; docs/mutation.md). Each test fails on a mutant that
changes a refusal's code, rule or words, or an event the box, console, page or log reads."""

from __future__ import annotations

from typing import Any

from referee.games.art_project import RULESET
from referee.games.art_project.state import Pending
from tests.referee.games.art_project.helpers import Game


def no_game() -> Game:
    g = Game.__new__(Game)
    g.state = RULESET.initial_state(RULESET.load_catalog(None))
    return g


def won() -> Game:
    g = Game(["Ann", "Ben"])
    g.given(track=len(g.state.mission.track) - 1)  # type: ignore[union-attr]
    g.phase("B")
    g.given(artwork=("Film",))
    g.at("Ann", "Film")
    g.agents("Film", 0)
    events = g.ok("end_phase")
    assert events[-1] == {
        "type": "game_over",
        "outcome": "won",
        "winners": ["Ann", "Ben"],
        "reason": "track_full",
        "rule": "ART-26",
    }
    return g


def battling() -> Game:
    """Phase C, Ann and Ben in Film against 4 agents, Ann leading a battle both rolled 1 in."""
    g = Game()
    g.phase("C")
    g.at("Ann", "Film")
    g.at("Ben", "Film")
    g.agents("Film", 4)
    g.ok("battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1})
    return g


def moved_paying_health(health: int) -> tuple[Game, list[dict[str, Any]]]:
    """Phase B, no fuel in the van: Ann, holding `health`, moves to Film paying 1 health."""
    g = Game(["Ann", "Ben"])
    g.phase("B")
    g.health("Ann", health)
    g.van("fuel", 0)
    return g, g.ok("move", player="Ann", to="Film", health=1)


def test_before_a_game_every_command_is_refused_no_game_with_no_rule() -> None:
    g = no_game()
    for cmd, fields in (
        ("draw", {"player": "Ann"}),
        ("end_phase", {}),
        ("choose", {"choice": "Film"}),
    ):
        err = g.no(cmd, "no_game", **fields)
        assert err.rule is None
        assert err.message == "No game is running: start one with new_game."


def test_a_won_game_refuses_everything_naming_the_win_and_its_rule() -> None:
    g = won()
    for cmd, fields in (("draw", {"player": "Ann"}), ("end_phase", {})):
        err = g.no(cmd, "game_over", "ART-26", **fields)
        assert err.message == (
            "The game is over: the team won. Nothing can change it now; start a new game."
        )


def test_a_lost_game_refuses_everything_naming_the_loss_its_reason_and_rule() -> None:
    g, events = moved_paying_health(1)
    assert events[-1] == {
        "type": "game_over",
        "outcome": "lost",
        "winners": [],
        "reason": "health",
        "rule": "ART-27",
    }
    err = g.no("end_phase", "game_over", "ART-27")
    assert err.message == (
        "The game is over: the team lost (a player lost their last health token). Nothing can "
        "change it now; start a new game."
    )


def test_a_waiting_decision_is_named_in_words_with_its_options_and_rule() -> None:
    g = Game()
    g.given(pending=(Pending("uncover_island", ("Film A", "Film B", "Film C"), symbol="film"),))
    err = g.no("draw", "decision_pending", "ART-32", player="Ann")
    assert err.message == (
        "First the team must answer: uncover island (Film A, Film B, Film C), with choose."
    )
    g.given(pending=(Pending("collect_order", ("Film", "Book")),))
    err = g.no("end_phase", "decision_pending", "ART-17")
    assert err.message == ("First the team must answer: collect order (Film, Book), with choose.")


def test_an_open_battle_is_named_in_words() -> None:
    g = battling()
    err = g.no("end_phase", "battle_open", "ART-19")
    assert err.message == ("The battle in Film is open: reroll, add a weapon or concede first.")


def test_an_unknown_player_is_refused_with_the_players_listed() -> None:
    g = Game()
    g.drawn()
    err = g.no("play_card", "unknown_player", player="Zed")
    assert err.rule is None
    assert err.message == "There is no player called 'Zed' (Ann, Ben, Cy)."


def test_health_named_while_the_van_holds_the_token_breaks_the_golden_rule() -> None:
    g = battling()
    g.van("weapon", 2)
    err = g.no("weapon", "golden_rule", "ART-7", player="Ann", health=1)
    assert err.message == (
        "The GOLDEN RULE: health only replaces a weapon token the van "
        "lacks; the van holds 2, so 0 health is needed, not 1."
    )


def test_a_shortfall_not_covered_by_health_says_what_the_van_holds() -> None:
    g = Game()
    g.phase("A/B")
    g.given(track=2)  # an ally costs 2 radio here
    g.van("radio", 1)
    err = g.no("unlock_ally", "not_enough_radio", "ART-18")
    assert err.message == (
        "The van holds 1 radio; name 1 health (one per missing token) to pay the rest."
    )
    g.ok("unlock_ally", health={"Ben": 1})


def test_health_named_beyond_what_a_player_holds_is_refused() -> None:
    g = Game()
    g.phase("A/B")
    g.given(track=4)  # an ally costs 3 radio here
    g.van("radio", 0)
    g.health("Ben", 2)
    err = g.no("unlock_ally", "not_enough_health", "ART-7", health={"Ben": 3})
    assert err.message == "Ben holds 2 health, not 3."
    events = g.ok("unlock_ally", health={"Ann": 1, "Ben": 2})
    assert events[0] == {
        "type": "paid",
        "player": None,
        "fuel": 0,
        "radio": 0,
        "weapon": 0,
        "health": {"Ann": 1, "Ben": 2},
    }
    assert events[-1]["type"] == "game_over"  # Ben's last health (ART-27)


def test_a_payment_leaving_one_health_goes_on() -> None:
    g, events = moved_paying_health(2)
    assert "game_over" not in [e["type"] for e in events]
    assert g.state.player("Ann").health == 1  # type: ignore[union-attr]
    assert not g.state.over


def test_a_card_s_cost_paid_from_the_van_names_the_player_and_no_health() -> None:
    g = Game()
    g.drawn()
    events = g.ok("play_card", player="Ann", spend={"radio": 1})
    paid = next(e for e in events if e["type"] == "paid")
    assert paid == {
        "type": "paid",
        "player": "Ann",
        "fuel": 0,
        "radio": 1,
        "weapon": 0,
        "health": {},
    }


def test_health_gained_in_full_leaves_no_shortfall() -> None:
    g = Game()
    g.drawn()
    g.health("Ben", 1)
    events = g.ok("play_card", player="Ann", gain={"health": {"Ben": 2}})
    gained = next(e for e in events if e["type"] == "gained")
    assert gained == {
        "type": "gained",
        "fuel": 0,
        "radio": 0,
        "weapon": 0,
        "health": {"Ben": 2},
        "short": {},
    }


def test_health_gained_beyond_the_reserve_goes_in_order_and_counts_every_shortfall() -> None:
    g = Game()
    g.drawn()
    g.health("Ben", g.state.player("Ben").health + g.state.health_reserve - 3)  # type: ignore[union-attr]
    assert g.state.health_reserve == 3
    events = g.ok("play_card", player="Ann", gain={"health": {"Ben": 2, "Cy": 2}})
    gained = next(e for e in events if e["type"] == "gained")
    assert gained == {
        "type": "gained",
        "fuel": 0,
        "radio": 0,
        "weapon": 0,
        "health": {"Ben": 2, "Cy": 1},
        "short": {"health": 1},
    }
    assert g.state.health_reserve == 0
    g2 = Game()
    g2.drawn()
    g2.health("Ben", g2.state.player("Ben").health + g2.state.health_reserve - 1)  # type: ignore[union-attr]
    events = g2.ok("play_card", player="Ann", gain={"health": {"Ben": 2, "Cy": 2}})
    gained = next(e for e in events if e["type"] == "gained")
    assert gained["health"] == {"Ben": 1} and gained["short"] == {"health": 3}


def test_agents_running_out_lose_the_game_once_and_place_no_more() -> None:
    g = Game()
    g.drawn()
    g.given(agent_reserve=2, hq=g.state.hq + g.state.agent_reserve - 2)
    events = g.ok("play_card", player="Ann", agents={"Film": 3, "Book": 1})
    assert [e for e in events if e["type"] in ("agents_placed", "game_over")] == [
        {"type": "agents_placed", "city": "Film", "to": "Film", "count": 2, "cause": "c1"},
        {
            "type": "game_over",
            "outcome": "lost",
            "winners": [],
            "reason": "agents",
            "rule": "ART-27",
        },
    ]
