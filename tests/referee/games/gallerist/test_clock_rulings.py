"""The clock's rulings that mutation testing found unpinned (issue 28; docs/mutation.md): each
test fails on a mutant of referee/games/gallerist/rules/clock.py that changes what the box
rules or what the console, the box, the page and the log read (GAL-5..9, 14, 15)."""

from __future__ import annotations

from referee.games.gallerist.state import frozen
from tests.referee.games.gallerist.helpers import Game


def two() -> Game:
    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    return g


def kicked_ben(g: Game) -> None:
    """Ann moves onto Ben's gallerist and ends her turn: Ben's kicked-out action is due."""
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")


def test_a_turn_s_events_name_the_player() -> None:
    g = two()
    g.ok("move", player="Ann", to="Fourth Location")
    assert g.ok("executive", player="Ann", kind="tickets") == [
        {"type": "executive", "player": "Ann", "kind": "tickets"}]
    g.no("executive", "one_executive_action", "GAL-7", player="Ann", kind="contract_bonus")
    assert g.ok("location_action", player="Ann") == [
        {"type": "location_action", "player": "Ann"}]
    events = g.ok("end_turn", player="Ann")
    assert events[0] == {"type": "after_turn", "player": "Ann", "queue": [], "stacks": []}
    assert g.json["current"] == "Ben"


def test_a_bad_executive_kind_lists_the_kinds() -> None:
    g = two()
    err = g.no("move", "unknown_location", "GAL-6", player="Ann", to="Moon")
    assert ", ".join(g.state.catalog.locations) in err.message
    err = g.no("executive", "bad_request", "GAL-7", player="Ann", kind="bribe")
    assert "tickets, contract_bonus" in err.message


def test_end_turn_before_the_location_action_says_whether_the_move_is_owed_too() -> None:
    g = two()
    err = g.no("end_turn", "location_action_owed", "GAL-6", player="Ann")
    assert "(and has not moved yet)" in err.message
    g.ok("move", player="Ann", to="Fourth Location")
    err = g.no("end_turn", "location_action_owed", "GAL-6", player="Ann")
    assert "not moved" not in err.message



def test_the_kickout_order_by_setting() -> None:
    for rule, order in (("seat_after_mover", ["Cy", "Ann"]),
                        ("seat_from_start_player", ["Ann", "Cy"])):
        g = Game(["Ann", "Ben", "Cy"], start="Ann", rules={"kickout_order": rule})
        g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
        g.turn("Ann", "International Market")
        g.given_player("Ann", locations=("Fourth Location",))
        g.ok("move", player="Ben", to="Fourth Location")
        g.ok("location_action", player="Ben")
        g.ok("end_turn", player="Ben")
        assert [p["player"] for p in g.json["pending"]] == order, rule


def test_a_kickout_action_s_event_in_full() -> None:
    g = two()
    kicked_ben(g)
    err = g.no("kickout_action", "bad_request", "GAL-8", player="Ben", kind="bribe")
    assert "location, executive, pass" in err.message
    err = g.no("kickout_action", "bad_request", "GAL-9", player="Ben", kind="pass",
               influence=3)
    assert "influence" in err.message
    events = g.ok("kickout_action", player="Ben", kind="location")
    before = 10
    new = events[0]["influence"]
    assert isinstance(new, int) and new < before
    assert events[0] == {"type": "kickout_action", "player": "Ben", "kind": "location",
                         "piece": "gallerist", "location": "Artists Colony",
                         "influence": new, "influence_from": before, "source": "computed",
                         "returned": "gallery"}
    g2 = two()
    kicked_ben(g2)
    events = g2.ok("kickout_action", player="Ben", kind="executive")
    assert events[0] == {"type": "kickout_action", "player": "Ben", "kind": "executive",
                         "piece": "gallerist", "location": "Artists Colony",
                         "influence": None, "influence_from": None, "source": None,
                         "returned": "gallery"}


def test_a_table_entered_kickout_influence_and_an_equal_one_under_at_or_below() -> None:
    for rule, equal_ok in (("strictly_below", False), ("at_or_below", True)):
        g = Game(["Ann", "Ben"], catalog=None, bag=30, rules={"previous_icon": rule})
        g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
        g.given_player("Ben", locations=("International Market",))
        g.ok("move", player="Ann", to="International Market")
        g.ok("location_action", player="Ann")
        g.ok("end_turn", player="Ann")
        if equal_ok:
            events = g.ok("kickout_action", player="Ben", kind="location", influence=10,
                          desk=True)
            assert events[0]["influence"] == 10 and events[0]["source"] == "table"
            assert events[0]["influence_from"] == 10 and events[0]["returned"] == "desk"
        else:
            g.no("kickout_action", "influence_not_lower", "GAL-9", player="Ben",
                 kind="location", influence=10, desk=True)
            events = g.ok("kickout_action", player="Ben", kind="location", influence=9,
                          desk=False)
            assert events[0]["returned"] == "removed" and events[0]["piece"] == "assistant"


def test_a_desk_said_against_the_catalog() -> None:
    g = two()
    g.given_player("Ben", locations=("Fourth Location",))
    g.ok("move", player="Ann", to="Fourth Location")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.no("kickout_action", "contradicts_catalog", "GAL-25", player="Ben", kind="pass",
         desk=False)
    full = g.state.catalog.desks
    g.given_player("Ben", desks=full)
    err = g.no("kickout_action", "no_desk", "GAL-8", player="Ben", kind="pass", desk=True)
    assert str(full) in err.message
    events = g.ok("kickout_action", player="Ben", kind="pass")
    assert events[0]["returned"] == "removed"


def test_a_kickout_waits_for_the_scoring_before_it() -> None:
    g = two()
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    events = g.ok("end_turn", player="Ann")
    assert events[0]["stacks"] == ["pink"]
    assert [q["decision"] for q in events[0]["queue"]] == ["intermediate", "kickout"]
    err = g.no("kickout_action", "decision_pending", "GAL-5", player="Ben", kind="pass")
    assert "pink" in err.message


def test_an_intermediate_scoring_s_refusals_and_event() -> None:
    g = two()
    g.no("intermediate", "no_scoring_due", "GAL-14", tile=1, qualifying=[])
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.no("intermediate", "bad_request", "GAL-14", tile=1, qualifying=["Ben", "Ben"])
    err = g.no("intermediate", "unknown_player", "GAL-1", tile=1, qualifying=["Zed"])
    assert "(qualifying)" in err.message
    g.given_player("Ben", influence=98)
    g.no("intermediate", "influence_too_high", "GAL-9", tile=1, qualifying=["Ben"],
         benefit={"influence": 2})
    g.given_player("Ben", influence=97, money=998)
    g.no("intermediate", "money_too_high", "GAL-10", tile=1, qualifying=["Ben"],
         benefit={"money": 2})
    events = g.ok("intermediate", tile=1, qualifying=["Ben"],
                  benefit={"money": 1, "influence": 2})
    assert events[0] == {"type": "intermediate", "tile": 1, "qualifying": ["Ben"],
                         "benefit": {"money": 1, "influence": 2}, "stack": "pink",
                         "complete": True}
    assert g.player("Ben")["money"] == 999 and g.player("Ben")["influence"] == 99


def test_an_intermediate_waits_for_a_kickout_before_it() -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_timing": "after_kickout"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    err = g.no("intermediate", "decision_pending", "GAL-14", tile=1, qualifying=[])
    assert "Ben's kicked-out action" in err.message


def test_a_tile_scored_again_is_refused_by_setting() -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_tiles": "all"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Fourth Location")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    first = g.ok("intermediate", tile=2, qualifying=[])
    assert first[0]["complete"] is False
    err = g.no("intermediate", "tile_scored", "GAL-14", tile=2, qualifying=[])
    assert "in this scoring" in err.message
    g2 = two()
    g2.given(tickets=frozen({"pink": 1, "brown": 1, "white": 5}))
    g2.ok("move", player="Ann", to="Fourth Location")
    g2.ok("take_ticket", player="Ann", colour="pink")
    g2.ok("take_ticket", player="Ann", colour="brown")
    g2.ok("location_action", player="Ann")
    g2.ok("end_turn", player="Ann")
    g2.ok("intermediate", tile=2, qualifying=[])
    err = g2.no("intermediate", "tile_scored", "GAL-14", tile=2, qualifying=[])
    assert "name one not yet scored" in err.message


def test_a_gallerist_back_from_the_gallery_leaves_no_assistant() -> None:
    g = two()
    kicked_ben(g)
    g.ok("kickout_action", player="Ben", kind="pass")
    g.no("move", "no_assistant", "GAL-6", player="Ben", to="Media Centre",
         leave_assistant="desk")


def test_kickouts_after_the_mover_not_after_the_start_player() -> None:
    """Cy moves last in the round onto Ann and Ben: Ann then Ben (after Cy), not Ben first."""
    g = Game(["Ann", "Ben", "Cy"], start="Ann")
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    g.turn("Ann", "International Market")
    g.turn("Ben", "Media Centre")
    g.given_player("Ann", locations=("Media Centre",))
    g.ok("move", player="Cy", to="Media Centre")
    g.ok("location_action", player="Cy")
    g.ok("end_turn", player="Cy")
    assert [(p["player"], p["piece"]) for p in g.json["pending"]] == [
        ("Ann", "assistant"), ("Ben", "gallerist")]


def test_after_turn_steps_are_refused_once_final_scoring_began() -> None:
    g = two()
    g.given(phase="final_scoring", current=None, queue=())
    g.no("kickout_action", "final_scoring", "GAL-15", player="Ben", kind="pass")
    g.no("intermediate", "final_scoring", "GAL-15", tile=1, qualifying=[])


def emptied_pink(g: Game) -> None:
    g.given(tickets=frozen({"pink": 1, "brown": 1, "white": 5}))
    g.ok("move", player="Ann", to="Fourth Location")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")


def test_a_benefit_checks_only_what_it_gives() -> None:
    g = two()
    emptied_pink(g)
    g.given_player("Ben", money=999, influence=99)
    err = g.no("intermediate", "money_too_high", "GAL-10", tile=1, qualifying=["Ben"],
               benefit={"money": 1})
    assert "Ben" in err.message
    g.no("intermediate", "influence_too_high", "GAL-9", tile=1, qualifying=["Ben"],
         benefit={"influence": 1})
    g.ok("intermediate", tile=1, qualifying=["Ben"], benefit={})
    assert g.player("Ben")["money"] == 999 and g.player("Ben")["influence"] == 99


def test_under_all_tiles_a_tile_scored_before_is_scored_again() -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_tiles": "all"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    emptied_pink(g)
    g.given(goals_scored=(1, 2, 3))
    assert g.ok("intermediate", tile=1, qualifying=[])[0]["tile"] == 1


def test_a_stack_emptied_during_a_scoring_is_queued_when_it_ends() -> None:
    g = two()
    emptied_pink(g)
    g.ok("take_ticket", player="Ben", colour="brown")  # during the scoring
    events = g.ok("intermediate", tile=1, qualifying=[])
    queued = [e for e in events if e["type"] == "queued"]
    assert queued and queued[0]["stacks"] == ["brown"]
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate"]


def test_a_move_s_events_in_full() -> None:
    g = two()
    g.given_player("Ben", locations=("Fourth Location", "Media Centre"))
    g.given_player("Ann", locations=("Fourth Location",))
    events = g.ok("move", player="Ann", to="Fourth Location", leave_assistant="desk")
    assert events == [
        {"type": "moved", "player": "Ann", "from": "Media Centre", "to": "Fourth Location",
         "leave_assistant": "desk"},
        {"type": "kicked_out", "player": "Ben", "piece": "assistant",
         "location": "Fourth Location"}]
    ann = g.player("Ann")
    assert ann["gallerist"] == "Fourth Location" and ann["assistants"]["desks"] == 1
    assert ann["assistants"]["locations"] == {"Fourth Location": 1, "Media Centre": 1}
    err = g.no("move", "already_moved", "GAL-6", player="Ann", to="International Market")
    assert "Ann" in err.message
    h = two()
    assert h.ok("move", player="Ann", to="International Market") == [
        {"type": "moved", "player": "Ann", "from": "Media Centre",
         "to": "International Market", "leave_assistant": None}]


def test_a_move_s_refusals() -> None:
    g = two()
    err = g.no("move", "must_move_elsewhere", "GAL-6", player="Ann", to="Media Centre")
    assert "Media Centre" in err.message
    g.no("move", "not_your_turn", "GAL-5", player="Ben", to="Fourth Location")
    g.given_player("Ann", desks=0, locations=("Fourth Location", "Artists Colony",
                                              "Fourth Location"))
    err = g.no("move", "no_assistant", "GAL-6", player="Ann", to="International Market",
               leave_assistant="Media Centre")
    assert "'Media Centre'" in err.message
    assert "from Artists Colony, Fourth Location." in err.message
    g.no("move", "unknown_location", "GAL-6", player="Ann", to="International Market",
         leave_assistant="Moon")  # (issue 39: a place that is no location)
    err = g.no("move", "no_assistant", "GAL-6", player="Ann", to="International Market",
               leave_assistant="desk")
    assert "desk" in err.message
    g.given_player("Ann", locations=())
    err = g.no("move", "no_assistant", "GAL-6", player="Ann", to="International Market",
               leave_assistant="Artists Colony")
    assert err.message.endswith("from (none on the board).")
    g.given_player("Ann", desks=1)
    assert g.ok("move", player="Ann", to="International Market",
                leave_assistant="desk")[0]["leave_assistant"] == "desk"
    for where in ("gallery", "kicked out"):
        k = two()
        k.given_player("Ann", gallerist=where)
        err = k.no("move", "no_assistant", "GAL-6", player="Ann", to="Fourth Location",
                   leave_assistant="desk")
        assert "from the gallery" in err.message
        assert k.ok("move", player="Ann", to="Fourth Location")[0]["from"] == where


def test_a_move_in_the_final_round_sends_pieces_back_at_once() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ann")
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    g.given(end_triggered=0)  # round 1 is the final round
    g.given_player("Ben", desks=3, locations=("International Market", "International Market"))
    g.given_player("Cy", gallerist="International Market", desks=4,
                   locations=("International Market",))
    g.given_player("Ann", locations=("International Market",))
    events = g.ok("move", player="Ann", to="International Market")
    assert events[1:] == [
        {"type": "kicked_out", "player": "Ben", "piece": "assistant",
         "location": "International Market", "returned": "desk"},
        {"type": "kicked_out", "player": "Ben", "piece": "assistant",
         "location": "International Market", "returned": "removed"},
        {"type": "kicked_out", "player": "Cy", "piece": "gallerist",
         "location": "International Market", "returned": "gallery"},
        {"type": "kicked_out", "player": "Cy", "piece": "assistant",
         "location": "International Market", "returned": "removed"}]
    ben, cy = g.player("Ben")["assistants"], g.player("Cy")["assistants"]
    assert (ben["desks"], ben["removed"], cy["desks"], cy["removed"]) == (4, 1, 4, 1)
    assert g.player("Cy")["gallerist"] == "gallery"
    assert g.player("Ann")["assistants"]["locations"] == {"International Market": 1}
