"""The project's readings where the-gallerist-scoring.md leaves a ruling open (issue 39: an
independent model of the rules found them). Each test pins one reading written in
docs/gallerist.md, "Readings where the rules are open" (G1..G8): it fails if the behaviour
changes."""

from __future__ import annotations

from tests.referee.games.gallerist.helpers import PLACES, Game
from tests.referee.games.gallerist.test_scoring_rulings import entered, final


def test_g1_a_kicked_out_gallerist_waits_off_the_board_then_goes_to_its_gallery() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    events = g.ok("move", player="Ann", to=PLACES[1])  # Ben's gallerist stands there
    assert [e["type"] for e in events] == ["moved", "kicked_out"]
    assert g.player("Ben")["gallerist"] == "kicked out"  # not on the location, not home yet
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert g.player("Ben")["gallerist"] == "kicked out"  # through the after-turn steps
    done = g.ok("kickout_action", player="Ben", kind="pass")
    assert done[0]["returned"] == "gallery" and g.player("Ben")["gallerist"] == "gallery"


def test_g2_during_setup_only_the_setups_own_records_are_taken() -> None:
    g = Game(["Ann", "Ben"])
    assert g.state.phase == "setup"
    g.ok("discover", artist="BlueA", fame=3)  # the first blue artist face up (GAL-2)
    g.ok("draw_visitor")  # visitors on works, from the bag (GAL-2)
    g.no("money", "setup_not_finished", "GAL-4", player="Ann", delta=1, reason="bonus")
    g.no("take_ticket", "setup_not_finished", "GAL-4", player="Ann", colour="pink")
    g.no("influence", "setup_not_finished", "GAL-4", player="Ann", to=9, reason="spend")


def test_g3_a_category_is_scored_once_a_computed_one_only_at_its_value() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("market", player="Ben", column=3, row="upper")
    final(g)
    g.ok("score", player="Ann", category="reputation", money=3)
    g.no("score", "already_scored", "GAL-16", player="Ann", category="reputation", money=4)
    g.no("score", "already_scored", "GAL-16", player="Ann", category="reputation", money=3)
    g.ok("score", player="Ben", category="market", money=15)
    g.ok("score", player="Ben", category="market", money=15)  # the box's own figure again
    g.no("score", "contradicts_catalog", "GAL-25", player="Ben", category="market", money=16)
    assert [e for e in g.state.entries if e[0] == "Ann" and e[1] == "reputation"] == [
        ("Ann", "reputation", 3)]


def test_g4_a_movers_own_assistant_is_not_kicked_out() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("move", player="Ann", to=PLACES[3], leave_assistant="desk")  # on Media Centre
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.turn("Ben", PLACES[2])
    events = g.ok("move", player="Ann", to=PLACES[0])  # back where her assistant stands
    assert [e["type"] for e in events] == ["moved"]


def test_g5_after_final_scoring_the_phase_is_over_and_no_record_is_taken() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    final(g)
    entered(g, "Ann", "Ben")
    g.ok("final_scoring")
    assert g.json["phase"] == "over" and g.json["over"]
    g.no("money", "game_over", "GAL-24", player="Ann", delta=1, reason="late")
    g.no("score", "game_over", "GAL-24", player="Ann", category="reputation", money=1)


def test_g6_a_stack_emptied_in_the_final_round_is_still_scored() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given(tickets={**g.state.tickets, "pink": 1}, end_triggered=g.state.round - 1)
    assert g.state.in_final_round
    g.ok("move", player="Ann", to=PLACES[3])
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate"]


def test_g7_an_intermediate_scoring_nobody_qualifies_for_scores_its_tile() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given(tickets={**g.state.tickets, "pink": 1})
    g.ok("move", player="Ann", to=PLACES[3])
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    money = {p["name"]: p["money"] for p in g.json["players"]}
    events = g.ok("intermediate", tile=1, qualifying=[], benefit={"money": 3})
    assert events[0]["qualifying"] == [] and events[0]["complete"]
    assert {p["name"]: p["money"] for p in g.json["players"]} == money
    g.no("intermediate", "no_scoring_due", "GAL-14", tile=1, qualifying=[],
         benefit={"money": 3})


def test_g8_influence_may_be_spent_down_to_0_never_below() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.no("influence", "negative_influence", "GAL-9", player="Ann", to=-1, reason="spend")
    g.ok("influence", player="Ann", to=0, reason="spend")
    assert g.player("Ann")["influence"] == 0
