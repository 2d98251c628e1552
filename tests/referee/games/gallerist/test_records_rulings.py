"""The recording rulings that mutation testing checks (issue 28; docs/mutation.md): each test
fails on a mutant of referee/games/gallerist/rules/records.py that changes what the box rules
(a refusal's code and rule, where a limit falls) or what the console, the page and the log
read (every event's fields) (GAL-9..13, 17, 20, 25)."""

from __future__ import annotations

from dataclasses import replace

from referee.dice import Roll
from referee.games.gallerist import RULESET
from referee.games.gallerist.rules.common import command_words
from referee.games.gallerist.rules.records import bag_list
from referee.games.gallerist.state import ArtistState, Work, frozen
from referee.ruleset import NeedDice
from tests.referee.games.gallerist.helpers import Game


def two(**kw: object) -> Game:
    g = Game(["Ann", "Ben"], **kw)  # type: ignore[arg-type]
    g.place_all()
    return g


def drawn(g: Game, value: int, **fields: object) -> list[dict[str, object]]:
    """draw_visitor with the box's draw `value` (as the session passes it after NeedDice)."""
    cmd = RULESET.parse({"cmd": "draw_visitor", **fields})
    roll = Roll("pick", value, "electronic", index=0, sides=g.state.bag_left)
    events = RULESET.decide(g.state, replace(cmd, roll=roll))
    assert not isinstance(events, NeedDice)
    g.state = RULESET.fold(g.state, events)
    return list(events)


# ---- money and influence (GAL-9, GAL-10) ----------------------------------------------------


def test_money_s_event_in_full_and_its_floor() -> None:
    g = two()
    assert g.ok("money", player="Ann", delta=-3, reason="rent") == [
        {"type": "money", "player": "Ann", "delta": -3, "money": 7, "reason": "rent"}]
    assert g.ok("money", player="Ann", delta=2) == [
        {"type": "money", "player": "Ann", "delta": 2, "money": 9, "reason": "entered"}]
    err = g.no("money", "not_enough_money", "GAL-10", player="Ann", delta=-10)
    assert "Ann has 9 money and cannot pay 10;" in err.message
    g.ok("money", player="Ann", delta=-9)  # down to 0 exactly
    assert g.player("Ann")["money"] == 0
    g.no("money", "unknown_player", "GAL-1", player="Zed", delta=1)


def test_influence_s_limits_and_event() -> None:
    g = two()
    g.no("influence", "bad_request", "GAL-9", player="Ann", to=3, reason="luck")
    g.no("influence", "influence_not_lower", "GAL-9", player="Ann", to=10, reason="spend")
    g.no("influence", "influence_not_higher", "GAL-9", player="Ann", to=10, reason="gain")
    g.no("influence", "negative_influence", "GAL-9", player="Ann", to=-1, reason="spend")
    assert g.ok("influence", player="Ann", to=0, reason="spend") == [
        {"type": "influence", "player": "Ann", "from": 10, "to": 0, "reason": "spend"}]
    err = g.no("influence", "influence_too_high", "GAL-9", player="Ann", to=100,
               reason="gain")
    assert "99" in err.message
    assert g.ok("influence", player="Ann", to=99, reason="gain") == [
        {"type": "influence", "player": "Ann", "from": 0, "to": 99, "reason": "gain"}]
    assert g.player("Ann")["influence"] == 99
    g.ok("influence", player="Ann", to=98, reason="spend")


# ---- tickets and the bag (GAL-13) -----------------------------------------------------------


def test_a_ticket_s_event_and_an_empty_stack() -> None:
    g = two()
    g.given(tickets=frozen({"pink": 2, "brown": 0, "white": 5}))
    err = g.no("take_ticket", "unknown_colour", "GAL-13", player="Ann", colour="green")
    assert "pink, brown, white" in err.message
    g.no("take_ticket", "stack_empty", "GAL-13", player="Ann", colour="brown")
    g.no("take_ticket", "unknown_player", "GAL-1", player="Zed", colour="pink")
    assert g.ok("take_ticket", player="Ben", colour="pink") == [
        {"type": "ticket", "player": "Ben", "colour": "pink", "left": 1}]
    assert g.json["tickets"]["pink"] == 1


def test_a_counted_bag_s_draw() -> None:
    g = Game(["Ann", "Ben"], bag=2)
    assert g.ok("draw_visitor", colour="pink") == [  # in setup too, by nobody
        {"type": "visitor_drawn", "player": None, "colour": "pink", "left": 1,
         "source": "table"}]
    g.place_all()
    err = g.no("draw_visitor", "unknown_colour", "GAL-13", colour="green")
    assert f"the colours are {', '.join(g.state.catalog.colours)}." in err.message
    g.no("draw_visitor", "unknown_player", "GAL-1", player="Zed", colour="pink")
    events = g.ok("draw_visitor", player="Ann", colour="white")
    assert events[0] == {"type": "visitor_drawn", "player": "Ann", "colour": "white",
                         "left": 0, "source": "table"}
    assert g.json["bag"] == 0
    g.no("draw_visitor", "bag_empty", "GAL-13", colour="pink")


def test_a_box_draw_asks_for_a_pick_and_reads_the_sorted_bag() -> None:
    g = Game(["Ann", "Ben"], bag={"white": 1, "pink": 2, "brown": 0})
    assert bag_list(g.state) == ["pink", "pink", "white"]
    need = g.need("draw_visitor")
    [req] = need.requests
    assert (req.id, req.die, req.purpose, req.sides, req.player, req.deck) == (
        "bag", "pick", "visitor", 3, None, "bag")
    g.place_all()
    [req] = g.need("draw_visitor", player="Ben").requests
    # the bag is nobody's: the die names no player (a kept visitor is the next out of the
    # bag whoever draws, issue 42); the events still say whom the draw is recorded for
    assert req.player is None and req.sides == 3
    events = drawn(g, 2, player="Ben")
    assert events[0] == {"type": "roll", "player": "Ben", "id": "bag", "purpose": "visitor",
                         **Roll("pick", 2, "electronic", index=0, sides=3).to_json()}
    assert events[1] == {"type": "visitor_drawn", "player": "Ben", "colour": "white",
                         "left": 0, "source": "box"}
    assert g.json["bag"] == {"white": 0, "pink": 2, "brown": 0}
    events = drawn(g, 0)
    assert events[1]["colour"] == "pink" and events[1]["left"] == 1
    assert events[0]["player"] is None
    assert bag_list(g.state) == ["pink"]


def test_a_kept_draw_brings_its_colour_and_an_emptied_colour_is_refused() -> None:
    g = two(bag={"white": 1, "pink": 2, "brown": 0})
    cmd = RULESET.parse({"cmd": "draw_visitor"})
    roll = Roll("pick", 0, "electronic", index=0, sides=3, kept=True)
    events = RULESET.decide(g.state, replace(cmd, roll=roll, data={"card": "white"}))
    assert not isinstance(events, NeedDice)
    assert events[1]["colour"] == "white" and events[1]["source"] == "box"
    g.state = RULESET.fold(g.state, events)
    err = g.no("draw_visitor", "bag_empty", "GAL-13", colour="white")
    assert "white" in err.message
    g.no("draw_visitor", "bag_empty", "GAL-13", colour="brown")


def test_the_box_draws_from_at_most_256_visitors() -> None:
    g = two(bag={"pink": 200, "white": 56})
    [req] = g.need("draw_visitor").requests
    assert req.sides == 256
    g.ok("money", player="Ann", delta=1)  # (a step between: nothing else changes)
    g2 = two(bag={"pink": 200, "white": 57})
    err = g2.no("draw_visitor", "draw_by_hand", "GAL-13")
    assert "256" in err.message


def test_bag_list_of_a_counted_or_unknown_bag_is_empty() -> None:
    assert bag_list(Game(["Ann", "Ben"], bag=5).state) == []
    fresh = RULESET.initial_state(RULESET.load_catalog(None))
    assert bag_list(fresh) == []


# ---- visitors, hiring, the market (GAL-3, 8, 12, 17, 20) -------------------------------------


def test_the_collector_limit_counts_works_sold() -> None:
    g = two()
    assert g.ok("visitor", player="Ann", colour="white", to="gallery") == [
        {"type": "visitor", "player": "Ann", "colour": "white", "to": "gallery"}]
    err = g.no("visitor", "collector_limit", "GAL-12", player="Ann", colour="white",
               to="gallery")
    assert "1 collector," in err.message and "(1 + 0 works sold)" in err.message
    g.ok("visitor", player="Ann", colour="pink", to="gallery")  # other colours: no limit
    g.ok("visitor", player="Ann", colour="pink", to="gallery")
    g.given_player("Ann", sold=("RedA",))
    g.ok("visitor", player="Ann", colour="white", to="gallery")
    err = g.no("visitor", "collector_limit", "GAL-12", player="Ann", colour="white",
               to="gallery")
    assert "2 collectors," in err.message and "(1 + 1 works sold)" in err.message
    assert g.player("Ann")["visitors"]["white"] == 2
    assert g.ok("visitor", player="Ann", colour="white", to="out") == [
        {"type": "visitor", "player": "Ann", "colour": "white", "to": "out"}]
    err = g.no("visitor", "no_visitor", "GAL-12", player="Ben", colour="pink", to="out")
    assert "Ben" in err.message
    err = g.no("visitor", "unknown_colour", "GAL-12", player="Ann", colour="green",
               to="gallery")
    assert ", ".join(g.state.catalog.colours) in err.message
    g.no("visitor", "bad_request", "GAL-12", player="Ann", colour="pink", to="roof")
    g.no("visitor", "unknown_player", "GAL-1", player="Zed", colour="pink", to="out")


def test_hiring_s_event_and_the_desk_limit() -> None:
    g = two()
    assert g.ok("hire", player="Ann") == [{"type": "hired", "player": "Ann"}]
    assert g.player("Ann")["assistants"]["desks"] == 3
    g.ok("hire", player="Ann")  # the 4th desk
    err = g.no("hire", "no_desk", "GAL-8", player="Ann")
    assert "4" in err.message
    g.no("hire", "unknown_player", "GAL-1", player="Zed")
    g.given_player("Ben", queue=0)
    g.no("hire", "queue_empty", "GAL-3", player="Ben")
    h = two(catalog=None, bag=30)  # no desk count in the catalog: the table's word
    h.given_player("Ann", desks=9)
    h.ok("hire", player="Ann")


def test_a_market_placement_s_event_and_refusals() -> None:
    g = two()
    err = g.no("market", "bad_request", "GAL-17", player="Ann", column=0, row="upper")
    assert "1, 2 or 3" in err.message
    g.no("market", "bad_request", "GAL-17", player="Ann", column=1, row="middle")
    err = g.no("market", "column_unused", "GAL-17", player="Ann", column=2, row="upper")
    assert "1 or 2 players" in err.message
    g.no("market", "unknown_player", "GAL-1", player="Zed", column=1, row="upper")
    assert g.ok("market", player="Ann", column=1, row="upper") == [
        {"type": "market", "player": "Ann", "column": 1, "row": "upper", "cost": 0}]
    assert g.ok("market", player="Ann", column=3, row="lower", cost=10) == [
        {"type": "market", "player": "Ann", "column": 3, "row": "lower", "cost": 10}]
    assert g.player("Ann")["money"] == 0 and g.player("Ann")["assistants"]["desks"] == 0
    g.no("market", "no_assistant", "GAL-17", player="Ann", column=1, row="upper")
    err = g.no("market", "not_enough_money", "GAL-10", player="Ben", column=1, row="lower",
               cost=11)
    assert "Ben has 10 money, not the 11 placement costs" in err.message
    err = g.no("market", "money_too_high", "GAL-10", player="Ben", column=1, row="lower",
               cost=1000)
    assert err.message == "A placement's cost is at most 999, not 1000."
    g.no("market", "value_needed", "GAL-20", player="Ben", column=1, row="lower")
    g.given_player("Ben", money=0)  # an upper-row placement is free
    assert g.ok("market", player="Ben", column=1, row="upper")[0]["cost"] == 0
    assert g.player("Ben")["money"] == 0
    three = Game(["Ann", "Ben", "Cy"])
    three.place_all()
    assert three.ok("market", player="Cy", column=2, row="upper")[0]["column"] == 2


# ---- artists (GAL-11, GAL-25) ---------------------------------------------------------------


def test_discover_s_event_by_whom_and_in_setup() -> None:
    g = Game(["Ann", "Ben"])
    assert g.ok("discover", artist="BlueA", fame=3) == [  # a setup step (the face-up one)
        {"type": "discovered", "artist": "BlueA", "fame": 3, "by": None, "source": "table"}]
    g.place_all()
    g.no("discover", "unknown_player", "GAL-1", player="Zed", artist="RedA", fame=2)
    assert g.ok("discover", player="Ben", artist="RedA", fame=18) == [
        {"type": "discovered", "artist": "RedA", "fame": 18, "by": "Ben", "source": "table"}]
    err = g.no("discover", "bad_fame", "GAL-11", artist="RedB", fame=19)
    assert "19" in err.message
    err = g.no("discover", "already_discovered", "GAL-11", artist="RedA", fame=2)
    assert "RedA" in err.message
    err = g.no("discover", "unknown_artist", "GAL-11", artist="Nobody", fame=2)
    assert ", ".join(g.state.artists) in err.message
    err = g.no("discover", "value_needed", "GAL-25", artist="RedB")
    assert "RedB" in err.message
    assert g.json["artists"]["RedA"]["fame"] == 18


def test_commission_s_event_and_the_two_tokens() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    assert g.ok("commission", player="Ann", artist="RedA") == [
        {"type": "commissioned", "player": "Ann", "artist": "RedA"}]
    g.no("commission", "already_commissioned", "GAL-11", player="Ann", artist="RedA")
    g.ok("commission", player="Ben", artist="RedA")  # the 2nd token
    g.no("commission", "no_signature_left", "GAL-11", player="Cy", artist="RedA")
    g.ok("commission", player="Cy", artist="RedB")
    g.no("commission", "unknown_artist", "GAL-11", player="Cy", artist="Nobody")
    g.no("commission", "unknown_player", "GAL-1", player="Zed", artist="RedC")


def test_fame_s_events_up_to_a_celebrity() -> None:
    g = two()
    g.no("fame", "bad_request", "GAL-11", artist="RedA", by="Ann", steps=0)
    g.no("fame", "not_discovered", "GAL-11", artist="RedA", by="Ann", steps=1)
    g.ok("discover", artist="RedA", fame=16)
    g.no("fame", "unknown_player", "GAL-1", artist="RedA", by="Zed", steps=1)
    err = g.no("fame", "unknown_player", "GAL-1", artist="RedA", by="Zed", steps=1)
    assert "(by)" in err.message
    g.no("fame", "unknown_artist", "GAL-11", artist="Nobody", by="Ann", steps=1)
    assert g.ok("fame", artist="RedA", by="Ann", steps=2) == [
        {"type": "fame", "artist": "RedA", "by": "Ann", "from": 16, "fame": 18, "steps": 2}]
    assert g.json["artists"]["RedA"]["celebrity"] is False
    events = g.ok("fame", artist="RedA", by="Ben", steps=3)
    assert events[:3] == [
        {"type": "fame", "artist": "RedA", "by": "Ben", "from": 18, "fame": 19, "steps": 3},
        {"type": "celebrity", "artist": "RedA", "by": "Ben"},
        {"type": "money", "player": "Ben", "delta": 5, "money": 15,
         "reason": "RedA became a celebrity"}]
    assert g.player("Ben")["money"] == 15 and g.player("Ann")["money"] == 10
    err = g.no("fame", "celebrity_retired", "GAL-11", artist="RedA", by="Ann", steps=1)
    assert "19" in err.message


# ---- works (GAL-11, 12, 19, 25) -------------------------------------------------------------


def test_acquire_s_event_slots_and_cost() -> None:
    g = two()
    g.no("acquire", "unknown_player", "GAL-1", player="Zed", artist="RedA")
    g.no("acquire", "unknown_artist", "GAL-11", player="Ann", artist="Nobody")
    g.ok("discover", artist="RedA", fame=4)
    assert g.ok("acquire", player="Ann", artist="RedA", cost=10) == [
        {"type": "acquired", "player": "Ann", "artist": "RedA", "cost": 10,
         "signature": False}]
    assert g.player("Ann")["money"] == 0
    err = g.no("acquire", "not_enough_money", "GAL-10", player="Ann", artist="RedA", cost=1)
    assert "Ann has 0 money, not the 1 work costs" in err.message
    assert g.ok("acquire", player="Ann", artist="RedA")[0]["cost"] == 0
    g.no("acquire", "money_too_high", "GAL-10", player="Ben", artist="RedA", cost=1000)
    g.ok("acquire", player="Ann", artist="RedA")
    err = g.no("acquire", "gallery_full", "GAL-12", player="Ann", artist="RedA")
    assert "3 works, all its slots (a masterpiece opens the 4th)." in err.message
    g.given_player("Ann", exhibited=(Work("RedA", True), Work("RedA"), Work("RedA")))
    g.ok("acquire", player="Ann", artist="RedA")  # a masterpiece: the 4th slot
    err = g.no("acquire", "gallery_full", "GAL-12", player="Ann", artist="RedA")
    assert "4 works, all its slots." in err.message and "masterpiece" not in err.message
    g.given_player("Ann", exhibited=(Work("RedA"),) * 4)  # its masterpiece sold since
    err = g.no("acquire", "gallery_full", "GAL-12", player="Ann", artist="RedA")
    assert "4 works, all its slots." in err.message


def test_a_celebrity_s_work_only_with_its_signature() -> None:
    g = two()
    g.ok("discover", artist="RedA", fame=4)
    g.ok("commission", player="Ann", artist="RedA")
    g.given(artists=frozen({**g.state.artists, "RedA": ArtistState(True, 19, True)}))
    err = g.no("acquire", "celebrity_retired", "GAL-11", player="Ben", artist="RedA")
    assert "RedA" in err.message
    assert g.ok("acquire", player="Ann", artist="RedA") == [
        {"type": "acquired", "player": "Ann", "artist": "RedA", "cost": 0, "signature": True}]
    assert g.player("Ann")["signatures"] == []
    g.no("acquire", "celebrity_retired", "GAL-11", player="Ann", artist="RedA")
    h = two()
    h.ok("discover", artist="RedA", fame=4)
    h.ok("commission", player="Ann", artist="RedA")
    assert h.ok("acquire", player="Ann", artist="RedA")[0]["signature"] is False
    assert h.player("Ann")["signatures"] == ["RedA"]


def test_sell_s_event_at_the_catalog_s_value_or_the_table_s() -> None:
    g = two()
    g.ok("discover", artist="RedA", fame=5)
    g.no("sell", "not_exhibited", "GAL-12", player="Ann", artist="RedA")
    g.no("sell", "unknown_player", "GAL-1", player="Zed", artist="RedA")
    g.no("sell", "unknown_artist", "GAL-11", player="Ann", artist="Nobody")
    g.ok("acquire", player="Ann", artist="RedA")
    err = g.no("sell", "contradicts_catalog", "GAL-25", player="Ann", artist="RedA", money=7)
    assert "6" in err.message and "7" in err.message
    assert g.ok("sell", player="Ann", artist="RedA", money=6) == [
        {"type": "sold", "player": "Ann", "artist": "RedA", "money": 6, "source": "computed"}]
    assert g.player("Ann")["money"] == 16
    h = two(catalog=None, bag=30)
    name = next(iter(h.state.artists))
    h.ok("discover", artist=name, fame=5)
    h.ok("acquire", player="Ann", artist=name)
    err = h.no("sell", "value_needed", "GAL-25", player="Ann", artist=name)
    assert name in err.message
    h.given_player("Ann", money=990)
    err = h.no("sell", "money_too_high", "GAL-10", player="Ann", artist=name, money=10)
    assert "Ann has 990, so at most 9 more" in err.message
    assert h.ok("sell", player="Ann", artist=name, money=9) == [
        {"type": "sold", "player": "Ann", "artist": name, "money": 9, "source": "table"}]
    assert h.player("Ann")["money"] == 999


def test_a_sale_of_another_artist_s_work_is_not_exhibited() -> None:
    g = two()
    g.ok("discover", artist="RedA", fame=5)
    g.ok("discover", artist="BlueA", fame=5)
    g.ok("acquire", player="Ann", artist="RedA")
    err = g.no("sell", "not_exhibited", "GAL-12", player="Ann", artist="BlueA")
    assert "Ann" in err.message and "BlueA" in err.message
    g.ok("acquire", player="Ann", artist="BlueA")
    g.ok("sell", player="Ann", artist="BlueA")
    assert [w["artist"] for w in g.player("Ann")["exhibited"]] == ["RedA"]


RECORDS = (("money", {"player": "Ann", "delta": 1}),
           ("influence", {"player": "Ann", "to": 11, "reason": "gain"}),
           ("take_ticket", {"player": "Ann", "colour": "pink"}),
           ("visitor", {"player": "Ann", "colour": "pink", "to": "gallery"}),
           ("hire", {"player": "Ann"}),
           ("market", {"player": "Ann", "column": 1, "row": "upper"}),
           ("commission", {"player": "Ann", "artist": "RedA"}),
           ("fame", {"artist": "RedA", "by": "Ann", "steps": 1}),
           ("acquire", {"player": "Ann", "artist": "RedA"}),
           ("sell", {"player": "Ann", "artist": "RedA"}))
SETUP_TOO = (("draw_visitor", {"colour": "pink"}), ("discover", {"artist": "RedA", "fame": 2}))


def test_recording_waits_for_setup_and_stops_at_final_scoring() -> None:
    g = Game(["Ann", "Ben"])
    for cmd, fields in RECORDS:
        err = g.no(cmd, "setup_not_finished", "GAL-4", **fields)
        assert command_words(cmd) in err.message  # in words (issue 39)
    g.place_all()
    g.given(phase="final_scoring", current=None, queue=())
    for cmd, fields in RECORDS + SETUP_TOO:
        err = g.no(cmd, "final_scoring", "GAL-15", **fields)
        assert command_words(cmd) in err.message
