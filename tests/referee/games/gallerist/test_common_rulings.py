"""What every step shares, as mutation testing checks it (issue 28; docs/mutation.md): each
test fails on a mutant of referee/games/gallerist/rules/common.py that changes a ruling (the
end trigger, GAL-15; the scorings queued, GAL-14; the next turn, GAL-5; the caps, GAL-9, 10)
or what the console, the page and the log read (those events' fields)."""

from __future__ import annotations

from dataclasses import replace

from referee.games.gallerist.rules.common import (
    end_conditions,
    intermediate_queue,
    next_turn,
    waiting_words,
)
from referee.games.gallerist.state import ArtistState, Pending, frozen
from tests.referee.games.gallerist.helpers import Game


def two(**kw: object) -> Game:
    g = Game(["Ann", "Ben"], **kw)  # type: ignore[arg-type]
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    return g


def celebrities(g: Game, n: int) -> None:
    names = list(g.state.artists)[:n]
    g.given(artists=frozen({**g.state.artists,
                            **{a: ArtistState(True, 19, True) for a in names}}))


def test_the_end_conditions_one_by_one() -> None:
    g = two()
    assert end_conditions(g.state) == []
    g.given(tickets=frozen({"pink": 0, "brown": 0, "white": 1}))
    assert end_conditions(g.state) == []
    g.given(tickets=frozen({"pink": 0, "brown": 0, "white": 0}))
    assert end_conditions(g.state) == ["box_office_empty"]
    celebrities(g, 1)
    assert end_conditions(g.state) == ["box_office_empty"]
    celebrities(g, 2)
    assert end_conditions(g.state) == ["box_office_empty", "celebrities"]
    g.given(bag=1)
    assert end_conditions(g.state) == ["box_office_empty", "celebrities"]
    g.given(bag=0)
    assert end_conditions(g.state) == ["box_office_empty", "celebrities", "bag_empty"]


def test_the_end_trigger_s_event_needs_two_conditions_and_comes_once() -> None:
    g = two()
    g.given(tickets=frozen({"pink": 0, "brown": 0, "white": 1}), scored_stacks=(
        "pink", "brown", "white"), bag=1, round=3)
    g.ok("move", player="Ann", to="Fourth Location")
    assert g.ok("take_ticket", player="Ann", colour="white") == [
        {"type": "ticket", "player": "Ann", "colour": "white", "left": 0}]  # one condition
    events = g.ok("draw_visitor", player="Ann", colour="pink")
    assert events[1:] == [{"type": "end_triggered", "round": 3,
                           "conditions": ["box_office_empty", "bag_empty"], "final_round": 4}]
    assert g.json["final_round"] == 4
    celebrities(g, 2)
    assert len(g.ok("money", player="Ann", delta=1)) == 1  # not triggered again


def test_the_end_is_not_triggered_in_setup() -> None:
    g = Game(["Ann", "Ben"], bag=1)
    g.given(tickets=frozen({"pink": 0, "brown": 0, "white": 0}))
    assert len(g.ok("draw_visitor", colour="pink")) == 1
    assert g.state.end_triggered is None


def test_the_next_turn_s_events() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ben")
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    assert next_turn(g.state) == [{"type": "turn_started", "player": "Cy", "round": 1,
                                   "final_round": False}]
    g.turn("Ben", "International Market")
    assert g.state.current == "Cy"
    g.ok("move", player="Cy", to="Artists Colony")
    g.ok("location_action", player="Cy")
    assert g.ok("end_turn", player="Cy")[-1] == {
        "type": "turn_started", "player": "Ann", "round": 1, "final_round": False}
    g.given(end_triggered=1)  # round 2 is the last
    assert next_turn(g.state) == [{"type": "turn_started", "player": "Ben", "round": 2,
                                   "start_player": "Ben", "final_round": True}]
    g.given(end_triggered=None)
    assert next_turn(g.state)[0]["final_round"] is False
    g.given(end_triggered=0, round=1)  # round 1 was the last
    assert next_turn(g.state) == [{"type": "final_scoring_started", "round": 1}]
    r = Game(["Ann", "Ben", "Cy"], start="Cy", rules={"start_player": "rotating"})
    r.given(phase="play", round=2, turn_no=2, current="Ben")
    assert next_turn(r.state) == [{"type": "turn_started", "player": "Ann", "round": 3,
                                   "start_player": "Ann", "final_round": False}]


def test_the_scorings_queued_for_stacks_that_ran_out() -> None:
    g = two()
    s = g.state
    assert intermediate_queue(s, ()) == []
    assert intermediate_queue(s, ("pink", "brown")) == [
        Pending("intermediate", stack="pink"), Pending("intermediate", stack="brown")]
    one = Game(["Ann", "Ben"], rules={"intermediate_per_stack": False}).state
    assert intermediate_queue(one, ("pink", "brown")) == [Pending("intermediate", stack="pink")]
    late = replace(g.state, goals_scored=(1, 2))
    assert intermediate_queue(late, ("pink", "brown")) == [
        Pending("intermediate", stack="pink")]  # one goal tile left to score
    g.given(goals_scored=(1,), queue=(Pending("intermediate", stack="white"),))
    assert intermediate_queue(g.state, ("pink", "brown")) == [
        Pending("intermediate", stack="pink")]
    g.given(goals_scored=(1, 2, 3), queue=())
    assert intermediate_queue(g.state, ("pink",)) == []
    g.given(goals_scored=(1, 2), queue=(Pending("intermediate", stack="white"),))
    assert intermediate_queue(g.state, ("pink",)) == []
    every = Game(["Ann", "Ben"], rules={"intermediate_tiles": "all"})
    every.given(goals_scored=(1, 2, 3))
    assert len(intermediate_queue(every.state, ("pink", "brown"))) == 2


def test_what_waits_is_said_by_its_kind() -> None:
    assert waiting_words(Pending("kickout", "Ben", "Media Centre", "gallerist")) == (
        "Ben's kicked-out action (gallerist kicked out of Media Centre)")
    assert waiting_words(Pending("intermediate", stack="pink")) == (
        "the intermediate scoring for the pink tickets")
    assert waiting_words(Pending("auction_pick", "Ann")) == "auction_pick for Ann"
    assert waiting_words(Pending("start_place")) == "start_place for the table"


def test_the_caps_say_the_most_a_figure_can_be() -> None:
    g = two()
    g.ok("discover", artist="RedA", fame=4)
    g.given_player("Ann", money=999)
    err = g.no("acquire", "money_too_high", "GAL-10", player="Ann", artist="RedA", cost=1000)
    assert err.message == "A work's cost is at most 999, not 1000."
    g.ok("acquire", player="Ann", artist="RedA", cost=999)
    assert g.player("Ann")["money"] == 0
    g.given_player("Ben", money=990)
    err = g.no("money", "money_too_high", "GAL-10", player="Ben", delta=10)
    assert "Ben has 990, so at most 9 more, not 10." in err.message


def test_no_goal_tile_left_queues_no_scoring_even_one_for_all() -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_per_stack": False})
    g.given(goals_scored=(1, 2, 3))
    assert intermediate_queue(g.state, ("pink",)) == []


def test_a_stack_emptied_in_a_kickout_is_scored_before_the_next_kickout() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "International Market"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.given_player("Ben", locations=("Fourth Location",))
    g.given_player("Cy", locations=("Fourth Location",))
    g.ok("move", player="Ann", to="Fourth Location")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.ok("take_ticket", player="Ben", colour="pink")  # during Ben's first kicked-out action
    events = g.ok("kickout_action", player="Ben", kind="pass")
    assert next(e for e in events if e["type"] == "queued")["front"] is True
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate", "kickout"]
