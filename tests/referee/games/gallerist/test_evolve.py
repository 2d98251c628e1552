"""`evolve`, event by event (issue 28; docs/mutation.md): each test fails on a mutant of
referee/games/gallerist/evolve.py that folds an event into a different state. A stored log is
folded without the rules, so what each event leaves is what a resumed game shows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.gallerist.evolve import evolve, fold
from referee.games.gallerist.state import (
    GALLERY,
    KICKED,
    ArtistState,
    Pending,
    Pick,
    Placement,
    State,
    Turn,
    Work,
    frozen,
)
from tests.referee.games.gallerist.helpers import Game


def play() -> State:
    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    return g.state


def test_an_unknown_event_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="'teleported'"):
        evolve(play(), {"type": "teleported"})


def test_events_that_change_nothing() -> None:
    s = play()
    for kind in ("roll", "kept_dropped", "die_corrected", "note"):
        assert evolve(s, {"type": kind}) is s
    assert fold(s, []) is s


def test_game_started_and_setup_steps() -> None:
    g = Game(["Ann", "Ben"], start="Ben")
    s = g.state
    assert (s.phase, s.start_player, s.first_player, s.commitment) == (
        "setup", "Ben", "Ben", "ab" * 32)
    assert [p.color for p in s.players] == [p["color"] for p in g.json["players"]]
    assert all(p.color for p in s.players)
    assert dict(s.tickets) == dict.fromkeys(s.catalog.ticket_colours, 10)
    assert s.bag == 28 and not any(a.discovered for a in s.artists.values())
    assert set(s.artists) == {a.name for a in s.catalog.artists}
    assert all(not done for _, _, done in s.checklist) and len(s.checklist) == 10
    first, second = s.checklist[0][0], s.checklist[1][0]
    s = evolve(s, {"type": "checked", "item": second})
    assert [d for _, _, d in s.checklist][:3] == [False, True, False]
    s = evolve(s, {"type": "checked", "item": first})
    assert [d for _, _, d in s.checklist][:3] == [True, True, False]
    assert s.checklist[0][1] == g.state.checklist[0][1]  # the words stay
    s = evolve(s, {"type": "placed_start", "player": "Ben", "location": "Media Centre",
                   "tile": "t1"})
    s = evolve(s, {"type": "placed_start", "player": "Ann", "location": "Artists Colony"})
    assert s.player("Ben").gallerist == "Media Centre" and s.player("Ben").tiles == ("t1",)
    assert s.player("Ann").gallerist == "Artists Colony" and s.player("Ann").tiles == ()
    s = replace(s, players=tuple(replace(p, tiles=("old",)) for p in s.players))
    s = evolve(s, {"type": "placed_start", "player": "Ann", "location": "x", "tile": "t2"})
    assert s.player("Ann").tiles == ("old", "t2")
    dicts = Game(["Ann", "Ben"], bag={"pink": 3, "white": 1}).state
    assert dict(dicts.bag) == {"pink": 3, "white": 1}  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # the state's values are frozen: nothing changes it by hand
        dicts.bag["pink"] = 0  # type: ignore[index]


def test_turn_started_counts_turns_and_keeps_the_start_player() -> None:
    s = play()
    assert (s.round, s.turn_no, s.current, s.start_player) == (1, 0, "Ann", "Ann")
    s = replace(s, turn=Turn(moved=True), queue=(Pending("kickout", "Ben"),))
    s = evolve(s, {"type": "turn_started", "player": "Ben", "round": 1, "final_round": False})
    assert (s.phase, s.round, s.turn_no, s.current, s.start_player) == (
        "play", 1, 1, "Ben", "Ann")
    assert s.turn == Turn() and s.queue == ()
    s = evolve(s, {"type": "turn_started", "player": "Ben", "round": 2, "start_player": "Ben",
                   "final_round": False})
    assert (s.round, s.turn_no, s.current, s.start_player) == (2, 0, "Ben", "Ben")


def test_moved_leaves_an_assistant_from_a_desk_or_a_location() -> None:
    s = play()
    s = evolve(s, {"type": "moved", "player": "Ann", "from": "Media Centre",
                   "to": "Fourth Location", "leave_assistant": "desk"})
    ann = s.player("Ann")
    assert (ann.gallerist, ann.desks, ann.locations) == ("Fourth Location", 1,
                                                        ("Media Centre",))
    assert s.turn.moved and s.player("Ben") == play().player("Ben")
    s = replace(s, turn=Turn())
    s = s.with_player("Ann", locations=("Media Centre", "Artists Colony", "Media Centre"))
    s = evolve(s, {"type": "moved", "player": "Ann", "from": "Fourth Location",
                   "to": "International Market", "leave_assistant": "Media Centre"})
    ann = s.player("Ann")
    assert ann.locations == ("Artists Colony", "Media Centre", "Fourth Location")
    assert ann.desks == 1 and ann.gallerist == "International Market" and s.turn.moved
    s = evolve(s, {"type": "moved", "player": "Ann", "from": "International Market",
                   "to": "Media Centre"})
    ann = s.player("Ann")
    assert ann.locations == ("Artists Colony", "Media Centre", "Fourth Location")
    assert ann.desks == 1 and ann.gallerist == "Media Centre"
    s = replace(s, turn=Turn())  # the last desk's assistant: none left at a desk
    s = evolve(s, {"type": "moved", "player": "Ann", "from": "Media Centre",
                   "to": "Fourth Location", "leave_assistant": "desk"})
    ann = s.player("Ann")
    assert ann.desks == 0 and ann.locations[-1] == "Media Centre"


def test_game_over_leaves_nobody_to_play_whatever_came_before() -> None:
    """The handler's own promise, not only what the rules' order gives it (final scoring
    has cleared `current` before its game_over): a folded log that ends leaves no turn."""
    s = replace(play(), current="Ann")
    s = evolve(s, {"type": "game_over", "outcome": "won", "winners": ["Ann"],
                   "reason": "money", "rule": "GAL-24"})
    assert (s.phase, s.current) == ("over", None)
    assert dict(s.result or {}) == {"outcome": "won", "winners": ["Ann"], "reason": "money",
                                    "rule": "GAL-24"}


def test_kicked_out_pieces_wait_or_go_back() -> None:
    s = play().with_player("Ben", locations=("Media Centre", "Fourth Location",
                                             "Media Centre"), waiting=1)
    s = evolve(s, {"type": "kicked_out", "player": "Ben", "piece": "gallerist",
                   "location": "Artists Colony"})
    assert s.player("Ben").gallerist == KICKED
    assert s.turn.kicked == (("Ben", "gallerist", "Artists Colony"),)
    s = evolve(s, {"type": "kicked_out", "player": "Ben", "piece": "assistant",
                   "location": "Media Centre"})
    ben = s.player("Ben")
    assert ben.locations == ("Fourth Location", "Media Centre")
    assert (ben.waiting, ben.desks, ben.removed) == (2, 2, 0)
    assert s.turn.kicked[-1] == ("Ben", "assistant", "Media Centre")
    t = evolve(s, {"type": "kicked_out", "player": "Ben", "piece": "assistant",
                   "location": "Media Centre", "returned": "desk"})
    ben = t.player("Ben")
    assert ben.locations == ("Fourth Location",)
    assert (ben.waiting, ben.desks, ben.removed) == (2, 3, 0) and t.turn == s.turn
    t = evolve(s, {"type": "kicked_out", "player": "Ben", "piece": "assistant",
                   "location": "Fourth Location", "returned": "removed"})
    ben = t.player("Ben")
    assert (ben.waiting, ben.desks, ben.removed) == (2, 2, 1) and t.turn == s.turn
    t = evolve(s, {"type": "kicked_out", "player": "Ben", "piece": "gallerist",
                   "location": "Artists Colony", "returned": "gallery"})
    assert t.player("Ben").gallerist == GALLERY and t.turn == s.turn


def test_turn_steps_and_the_after_turn_queue() -> None:
    s = play()
    s = evolve(s, {"type": "location_action", "player": "Ann"})
    assert s.turn == Turn(location_action=True)
    s = evolve(s, {"type": "executive", "player": "Ann", "kind": "tickets"})
    assert s.turn == Turn(location_action=True, executive="tickets")
    s = replace(s, turn=replace(s.turn, kicked=(("Ben", "gallerist", "x"),), emptied=("pink",)),
                scored_stacks=("white",))
    k = Pending("kickout", "Ben", "x", "gallerist")
    s = evolve(s, {"type": "after_turn", "player": "Ann", "queue": [k.to_json()],
                   "stacks": ["pink"]})
    assert s.queue == (k,) and s.scored_stacks == ("white", "pink")
    assert s.turn == Turn(location_action=True, executive="tickets", ended=True)
    i = Pending("intermediate", stack="brown")
    s = replace(s, turn=replace(s.turn, emptied=("brown",)))
    front = evolve(s, {"type": "queued", "queue": [i.to_json()], "stacks": ["brown"],
                       "front": True})
    assert front.queue == (i, k) and front.scored_stacks == ("white", "pink", "brown")
    assert front.turn.emptied == () and front.turn.ended
    back = evolve(s, {"type": "queued", "queue": [i.to_json()], "stacks": ["brown"],
                      "front": False})
    assert back.queue == (k, i)


def test_a_kickout_action_takes_its_own_entry_off_the_queue() -> None:
    s = play().with_player("Ben", waiting=2, desks=1, influence=7, gallerist=KICKED)
    entries = (Pending("kickout", "Ben", "x", "assistant"),
               Pending("kickout", "Ben", "y", "assistant"),
               Pending("kickout", "Ben", "y", "gallerist"),
               Pending("intermediate", stack="pink"))
    s = replace(s, queue=entries)
    t = evolve(s, {"type": "kickout_action", "player": "Ben", "piece": "assistant",
                   "location": "y", "influence": 4, "returned": "desk"})
    ben = t.player("Ben")
    assert (ben.influence, ben.desks, ben.waiting, ben.removed) == (4, 2, 1, 0)
    assert t.queue == (entries[0], entries[2], entries[3])
    t = evolve(s, {"type": "kickout_action", "player": "Ben", "piece": "assistant",
                   "location": "x", "influence": None, "returned": "removed"})
    ben = t.player("Ben")
    assert (ben.influence, ben.desks, ben.waiting, ben.removed) == (7, 1, 1, 1)
    assert t.queue == entries[1:]
    t = evolve(s, {"type": "kickout_action", "player": "Ben", "piece": "gallerist",
                   "location": "y", "returned": "gallery"})
    ben = t.player("Ben")
    assert (ben.gallerist, ben.influence, ben.desks, ben.waiting) == (GALLERY, 7, 1, 2)
    assert t.queue == (entries[0], entries[1], entries[3])
    t = evolve(s, {"type": "kickout_action", "player": "Ben", "piece": "gallerist",
                   "location": "y", "influence": 0, "returned": "gallery"})
    assert t.player("Ben").influence == 0


def test_an_intermediate_scoring_pays_and_ends() -> None:
    s = replace(play(), queue=(Pending("intermediate", stack="pink"), Pending("x")),
                goals_scored=(3,))
    t = evolve(s, {"type": "intermediate", "tile": 1, "qualifying": ["Ben"],
                   "benefit": {"money": 2, "influence": 3}, "stack": "pink", "complete": True})
    assert (t.player("Ben").money, t.player("Ben").influence) == (12, 13)
    assert t.player("Ann") == s.player("Ann")
    assert t.queue == (Pending("x"),) and t.goals_scored == (1, 3)
    t = evolve(s, {"type": "intermediate", "tile": 2, "qualifying": ["Ann", "Ben"],
                   "benefit": {"influence": 1}})  # (complete left out: a log before "all")
    assert t.queue == (Pending("x"),) and t.goals_scored == (2, 3)
    assert [(p.money, p.influence) for p in t.players] == [(10, 11), (10, 11)]
    s = replace(s, goals_this_scoring=(3,))
    t = evolve(s, {"type": "intermediate", "tile": 2, "qualifying": [], "benefit": {"money": 5},
                   "complete": False})
    assert t.queue == s.queue and t.goals_this_scoring == (3, 2) and t.goals_scored == (2, 3)
    t = evolve(t, {"type": "intermediate", "tile": 3, "qualifying": ["Ann"],
                   "benefit": {"money": 5}, "complete": True})
    assert t.goals_this_scoring == () and t.goals_scored == (2, 3)
    assert t.player("Ann").money == 15 and t.player("Ann").influence == 10


def test_counters() -> None:
    s = play()
    s = evolve(s, {"type": "money", "player": "Ann", "delta": 4, "money": 14})
    s = evolve(s, {"type": "influence", "player": "Ben", "from": 10, "to": 3})
    assert (s.player("Ann").money, s.player("Ben").influence) == (14, 3)
    assert (s.player("Ben").money, s.player("Ann").influence) == (10, 10)
    s = replace(s, tickets=frozen({"pink": 2, "brown": 1, "white": 1}), scored_stacks=("white",))
    s = evolve(s, {"type": "ticket", "player": "Ann", "colour": "pink", "left": 1})
    assert s.tickets["pink"] == 1 and s.turn.emptied == ()
    s = evolve(s, {"type": "ticket", "player": "Ann", "colour": "brown", "left": 0})
    assert dict(s.tickets) == {"pink": 1, "brown": 0, "white": 1}
    assert s.turn.emptied == ("brown",)
    s = evolve(s, {"type": "ticket", "player": "Ann", "colour": "white", "left": 0})
    assert s.turn.emptied == ("brown",)  # its scoring is queued or done already
    s = evolve(s, {"type": "ticket", "player": "Ann", "colour": "pink", "left": 0})
    assert s.turn.emptied == ("brown", "pink")
    assert evolve(replace(s, bag=5), {"type": "visitor_drawn", "colour": "pink"}).bag == 4
    s = replace(s, bag=frozen({"pink": 2, "white": 1}))
    t = evolve(s, {"type": "visitor_drawn", "player": None, "colour": "pink", "left": 1})
    assert dict(t.bag) == {"pink": 1, "white": 1}  # type: ignore[arg-type]


def test_visitors_hiring_and_the_market() -> None:
    s = play()
    s = evolve(s, {"type": "visitor", "player": "Ann", "colour": "pink", "to": "gallery"})
    s = evolve(s, {"type": "visitor", "player": "Ann", "colour": "pink", "to": "gallery"})
    s = evolve(s, {"type": "visitor", "player": "Ann", "colour": "white", "to": "gallery"})
    s = evolve(s, {"type": "visitor", "player": "Ann", "colour": "pink", "to": "out"})
    assert dict(s.player("Ann").visitors) == {"pink": 1, "white": 1}
    assert dict(s.player("Ben").visitors) == {}
    s = evolve(s, {"type": "hired", "player": "Ben"})
    assert (s.player("Ben").queue, s.player("Ben").desks) == (7, 3)
    s = evolve(s, {"type": "market", "player": "Ben", "column": 3, "row": "lower", "cost": 4})
    ben = s.player("Ben")
    assert (ben.desks, ben.money, ben.market) == (2, 6, (Placement(3, "lower", 4),))
    s = evolve(s, {"type": "market", "player": "Ben", "column": 1, "row": "upper", "cost": 0})
    assert s.player("Ben").market == (Placement(3, "lower", 4), Placement(1, "upper", 0))


def test_artists_and_works() -> None:
    s = play()
    s = evolve(s, {"type": "discovered", "artist": "RedA", "fame": 4})
    assert s.artist("RedA") == ArtistState(True, 4) and s.artist("RedB") == ArtistState()
    s = evolve(s, {"type": "commissioned", "player": "Ann", "artist": "RedA"})
    s = evolve(s, {"type": "commissioned", "player": "Ann", "artist": "RedB"})
    assert s.player("Ann").signatures == ("RedA", "RedB")
    s = evolve(s, {"type": "acquired", "player": "Ann", "artist": "RedB", "cost": 3,
                   "signature": False})
    ann = s.player("Ann")
    assert (ann.money, ann.signatures, ann.exhibited) == (7, ("RedA", "RedB"),
                                                          (Work("RedB", False),))
    s = evolve(s, {"type": "fame", "artist": "RedA", "by": "Ann", "from": 4, "fame": 19,
                   "steps": 15})
    assert s.artist("RedA") == ArtistState(True, 19, False)
    s = s.with_player("Ben", exhibited=(Work("RedA"), Work("RedB")))
    s = evolve(s, {"type": "celebrity", "artist": "RedA", "by": "Ann"})
    assert s.artist("RedA") == ArtistState(True, 19, True) and s.celebrities == 1
    assert s.player("Ben").exhibited == (Work("RedA", True), Work("RedB", False))
    assert s.player("Ann").exhibited == (Work("RedB", False),)
    s = evolve(s, {"type": "acquired", "player": "Ann", "artist": "RedA", "cost": 0,
                   "signature": True})
    ann = s.player("Ann")
    assert ann.signatures == ("RedB",) and ann.exhibited[-1] == Work("RedA", True)
    assert ann.money == 7
    s = s.with_player("Ben", exhibited=(Work("RedA", True), Work("RedB"), Work("RedA"),
                                        Work("RedB", True)))
    s = evolve(s, {"type": "sold", "player": "Ben", "artist": "RedA", "money": 6})
    ben = s.player("Ben")
    assert ben.exhibited == (Work("RedA", True), Work("RedB"), Work("RedB", True))
    assert (ben.money, ben.sold) == (16, ("RedA",))
    s = evolve(s, {"type": "sold", "player": "Ben", "artist": "RedB", "money": 1})
    assert s.player("Ben").exhibited == (Work("RedA", True), Work("RedB"))
    assert s.player("Ben").sold == ("RedA", "RedB") and s.player("Ben").money == 17


def test_the_end_and_final_scoring() -> None:
    s = replace(play(), turn=Turn(moved=True), queue=(Pending("x"),))
    s = evolve(s, {"type": "end_triggered", "round": 2, "conditions": ["bag_empty", "x"],
                   "final_round": 3})
    assert (s.end_triggered, s.end_conditions) == (2, ("bag_empty", "x"))
    s = evolve(s, {"type": "final_scoring_started", "round": 3})
    assert (s.phase, s.current, s.turn, s.queue) == ("final_scoring", None, Turn(), ())
    s = evolve(s, {"type": "scored", "player": "Ann", "category": "curator", "money": 4})
    s = evolve(s, {"type": "scored", "player": "Ben", "category": "dealer", "money": 2})
    assert s.entries == (("Ann", "curator", 4), ("Ben", "dealer", 2))
    s = evolve(s, {"type": "auction_pick", "player": "Ann", "easel": "formA",
                   "counts_as": "sold", "value": 6, "source": "table"})
    assert s.picks == (Pick("Ann", "formA", "sold", 6, "table"),)
    s = evolve(s, {"type": "game_over", "outcome": "won", "winners": ["Ann"],
                   "reason": "money", "rule": "GAL-24", "extra": 1})
    assert (s.phase, s.current, s.over) == ("over", None, True)
    assert dict(s.result or {}) == {"outcome": "won", "winners": ["Ann"], "reason": "money",
                                    "rule": "GAL-24"}
    s = evolve(s, {"type": "seed_revealed", "seed": "cd" * 32})
    assert s.seed == "cd" * 32
