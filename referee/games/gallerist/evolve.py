"""`evolve`: one event applied to the state, nothing decided. Events carry their results
(new money, fame, pieces' destinations), so folding a stored log never needs the rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from referee.games.gallerist.catalog import catalog_from_json
from referee.games.gallerist.settings import GalleristRules
from referee.games.gallerist.state import (
    GALLERY,
    KICKED,
    ArtistState,
    Pending,
    Pick,
    Placement,
    Player,
    Setup,
    State,
    Turn,
    Work,
    frozen,
)
from referee.ruleset import Event

Handler = Callable[[State, Event], State]
UNLABELLED = "a tile without a label"  # a reputation tile the table gave no label
_HANDLERS: dict[str, Handler] = {}  # (filled at the end: an event type -> its handler)


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(event["type"])
    if handler is None:
        raise ValueError(f"unknown event type {event['type']!r}")
    return handler(state, event)


def fold(state: State, events: Sequence[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def _bag(value: Any) -> Any:
    return frozen(value) if isinstance(value, dict) else value


def _started(s: State, e: Event) -> State:
    catalog = catalog_from_json(e["catalog"])
    setup = Setup(**e["setup"])
    return State(
        catalog=catalog, rules=GalleristRules(**e["rules"]), phase="setup",
        players=tuple(Player(p["name"], color=p.get("color")) for p in e["players"]),
        start_player=e["start_player"], first_player=e["start_player"], setup=setup,
        checklist=tuple((i["item"], i["words"], False) for i in e["checklist"]),
        tickets=frozen(dict.fromkeys(catalog.ticket_colours, setup.tickets_per_colour)),
        bag=_bag(e["bag"]), artists=frozen({a.name: ArtistState() for a in catalog.artists}),
        commitment=e["commitment"])


def _checked(s: State, e: Event) -> State:
    return replace(s, checklist=tuple((i, w, d or i == e["item"]) for i, w, d in s.checklist))


def _placed(s: State, e: Event) -> State:
    p = s.player(e["player"])
    tile = e.get("tile") or (UNLABELLED if e.get("tile_taken") else None)
    return s.with_player(p.name, gallerist=e["location"],
                         tiles=(*p.tiles, tile) if tile else p.tiles)


def _turn(s: State, e: Event) -> State:
    new_round = e["round"] != s.round
    return replace(s, phase="play", round=e["round"], current=e["player"], turn=Turn(),
                   queue=(), start_player=e.get("start_player", s.start_player),
                   turn_no=0 if new_round else s.turn_no + 1)


def _moved(s: State, e: Event) -> State:
    p = s.player(e["player"])
    locations, desks = list(p.locations), p.desks
    left = e.get("leave_assistant")
    if left == "desk":
        desks -= 1
        locations.append(e["from"])
    elif left is not None:
        locations.remove(left)
        locations.append(e["from"])
    s = s.with_player(p.name, gallerist=e["to"], locations=tuple(locations), desks=desks)
    return replace(s, turn=replace(s.turn, moved=True))


def _kicked(s: State, e: Event) -> State:
    p = s.player(e["player"])
    back = e.get("returned")
    if e["piece"] == "gallerist":
        s = s.with_player(p.name, gallerist=GALLERY if back else KICKED)
    else:
        locations = list(p.locations)
        locations.remove(e["location"])
        s = s.with_player(p.name, locations=tuple(locations), waiting=p.waiting + (not back),
                          desks=p.desks + (back == "desk"), removed=p.removed + (back == "removed"))
    if back:
        return s
    kicked = (*s.turn.kicked, (p.name, e["piece"], e["location"]))
    return replace(s, turn=replace(s.turn, kicked=kicked))


def _location_action(s: State, e: Event) -> State:
    return replace(s, turn=replace(s.turn, location_action=True))


def _executive(s: State, e: Event) -> State:
    return replace(s, turn=replace(s.turn, executive=e["kind"]))


def _after_turn(s: State, e: Event) -> State:
    queue = tuple(Pending.from_json(q) for q in e["queue"])
    return replace(s, queue=queue, scored_stacks=(*s.scored_stacks, *e["stacks"]),
                   turn=replace(s.turn, ended=True, kicked=(), emptied=()))


def _queued(s: State, e: Event) -> State:
    """Stacks emptied during a kicked-out action: scored when that action ends (GAL-14)."""
    queue = tuple(Pending.from_json(q) for q in e["queue"])
    return replace(s, queue=(*queue, *s.queue) if e["front"] else (*s.queue, *queue),
                   scored_stacks=(*s.scored_stacks, *e["stacks"]),
                   turn=replace(s.turn, emptied=()))


def _kickout_action(s: State, e: Event) -> State:
    p = s.player(e["player"])
    changes: dict[str, Any] = {}
    if e.get("influence") is not None:
        changes["influence"] = e["influence"]
    desks, removed, waiting = p.desks, p.removed, p.waiting
    # one action returns every piece the move kicked out (GAL-8); older events name one
    for back in e.get("pieces") or [{"piece": e["piece"], "returned": e["returned"]}]:
        if back["piece"] == "gallerist":
            changes["gallerist"] = GALLERY
        else:
            waiting -= 1
            desks += back["returned"] == "desk"
            removed += back["returned"] != "desk"
    s = s.with_player(p.name, **changes, desks=desks, removed=removed, waiting=waiting)
    i = next(i for i, q in enumerate(s.queue) if q.decision == "kickout"
             and q.player == p.name and q.piece == e["piece"] and q.location == e["location"])
    return replace(s, queue=s.queue[:i] + s.queue[i + 1:])


def _intermediate(s: State, e: Event) -> State:
    for name in e["qualifying"]:
        p = s.player(name)
        s = s.with_player(name, money=p.money + e["benefit"].get("money", 0),
                          influence=p.influence + e["benefit"].get("influence", 0))
    if e.get("complete", True):
        s = replace(s, queue=s.queue[1:], goals_this_scoring=())
    else:
        s = replace(s, goals_this_scoring=(*s.goals_this_scoring, e["tile"]))
    return replace(s, goals_scored=tuple(sorted({*s.goals_scored, e["tile"]})))


def _money(s: State, e: Event) -> State:
    return s.with_player(e["player"], money=e["money"])


def _reputation_tile(s: State, e: Event) -> State:
    p = s.player(e["player"])
    s = replace(s, market_tiles_taken=s.market_tiles_taken + 1)
    return s.with_player(p.name, tiles=(*p.tiles, e.get("tile") or UNLABELLED))


def _influence(s: State, e: Event) -> State:
    return s.with_player(e["player"], influence=e["to"])


def _ticket(s: State, e: Event) -> State:
    s = replace(s, tickets=frozen({**s.tickets, e["colour"]: e["left"]}))
    if e["left"] == 0 and e["colour"] not in s.scored_stacks:
        s = replace(s, turn=replace(s.turn, emptied=(*s.turn.emptied, e["colour"])))
    return s


def _drawn(s: State, e: Event) -> State:
    bag = s.bag
    if isinstance(bag, int):
        return replace(s, bag=bag - 1)
    assert bag is not None
    return replace(s, bag=frozen({**bag, e["colour"]: bag[e["colour"]] - 1}))


def _visitor(s: State, e: Event) -> State:
    p = s.player(e["player"])
    step = 1 if e["to"] == "gallery" else -1
    return s.with_player(p.name, visitors=frozen(
        {**p.visitors, e["colour"]: p.visitors.get(e["colour"], 0) + step}))


def _hired(s: State, e: Event) -> State:
    p = s.player(e["player"])
    return s.with_player(p.name, queue=p.queue - 1, desks=p.desks + 1)


def _market(s: State, e: Event) -> State:
    p = s.player(e["player"])
    return s.with_player(p.name, desks=p.desks - 1, money=p.money - e["cost"],
                         market=(*p.market, Placement(e["column"], e["row"], e["cost"])))


def _discovered(s: State, e: Event) -> State:
    return replace(s, artists=frozen({**s.artists, e["artist"]: ArtistState(True, e["fame"])}))


def _commissioned(s: State, e: Event) -> State:
    p = s.player(e["player"])
    return s.with_player(p.name, signatures=(*p.signatures, e["artist"]))


def _fame(s: State, e: Event) -> State:
    a = s.artist(e["artist"])
    return replace(s, artists=frozen({**s.artists, e["artist"]: replace(a, fame=e["fame"])}))


def _celebrity(s: State, e: Event) -> State:
    a = s.artist(e["artist"])
    s = replace(s, artists=frozen({**s.artists, e["artist"]: replace(a, celebrity=True)}))
    return replace(s, players=tuple(replace(p, exhibited=tuple(
        Work(w.artist, w.masterpiece or w.artist == e["artist"]) for w in p.exhibited))
        for p in s.players))


def _acquired(s: State, e: Event) -> State:
    p = s.player(e["player"])
    signatures = list(p.signatures)
    if e.get("signature"):
        signatures.remove(e["artist"])
    a = s.artist(e["artist"])
    return s.with_player(p.name, money=p.money - e["cost"], signatures=tuple(signatures),
                         exhibited=(*p.exhibited, Work(e["artist"], a.celebrity)))


def _sold(s: State, e: Event) -> State:
    p = s.player(e["player"])
    works = list(p.exhibited)
    works.remove(next(w for w in reversed(works) if w.artist == e["artist"]))
    return s.with_player(p.name, money=p.money + e["money"], exhibited=tuple(works),
                         sold=(*p.sold, e["artist"]))


def _end(s: State, e: Event) -> State:
    return replace(s, end_triggered=e["round"], end_conditions=tuple(e["conditions"]))


def _final(s: State, e: Event) -> State:
    return replace(s, phase="final_scoring", current=None, turn=Turn(), queue=())


def _scored(s: State, e: Event) -> State:
    return replace(s, entries=(*s.entries, (e["player"], e["category"], e["money"])))


def _pick(s: State, e: Event) -> State:
    return replace(s, picks=(*s.picks, Pick(e["player"], e["easel"], e["counts_as"],
                                            e["value"], e["source"])))


def _over(s: State, e: Event) -> State:
    keys = ("outcome", "winners", "reason", "rule")
    return replace(s, phase="over", current=None, result=frozen({k: e[k] for k in keys}))


def _seed(s: State, e: Event) -> State:
    return replace(s, seed=e["seed"])


# The handlers by event type, in a plain table rather than by a decorator: mutmut (docs/
# mutation.md) does not mutate a decorated function, so a decorator hid every handler from it.
_HANDLERS.update({
    "game_started": _started,
    "checked": _checked,
    "placed_start": _placed,
    "turn_started": _turn,
    "moved": _moved,
    "kicked_out": _kicked,
    "location_action": _location_action,
    "executive": _executive,
    "after_turn": _after_turn,
    "queued": _queued,
    "kickout_action": _kickout_action,
    "intermediate": _intermediate,
    "money": _money,
    "influence": _influence,
    "reputation_tile": _reputation_tile,
    "ticket": _ticket,
    "visitor_drawn": _drawn,
    "visitor": _visitor,
    "hired": _hired,
    "market": _market,
    "discovered": _discovered,
    "commissioned": _commissioned,
    "fame": _fame,
    "celebrity": _celebrity,
    "acquired": _acquired,
    "sold": _sold,
    "end_triggered": _end,
    "final_scoring_started": _final,
    "scored": _scored,
    "auction_pick": _pick,
    "game_over": _over,
    "seed_revealed": _seed,
})
for _kind in ("roll", "kept_dropped", "die_corrected", "note"):
    _HANDLERS[_kind] = lambda s, e: s
