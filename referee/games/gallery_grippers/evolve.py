"""Applying an event to the state: a pure function, one small handler per event type."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from referee.games.gallery_grippers.catalog import Art
from referee.games.gallery_grippers.settings import HouseRules
from referee.games.gallery_grippers.state import (
    ACTIVE,
    OUT,
    TRANSITIONS,
    WINNER,
    Counts,
    GameState,
    Pending,
    Phase,
    PlayerState,
    TurnInfo,
)

Event = dict[str, Any]
Handler = Callable[[GameState, Event], GameState]


def _phase(s: GameState, to: Phase) -> Phase:
    if to not in TRANSITIONS[s.phase]:
        raise ValueError(f"no transition from {s.phase.value} to {to.value}")
    return to


def _player(s: GameState, name: str, **changes: Any) -> GameState:
    i = s.index_of(name)
    if i is None:
        raise ValueError(f"event names unknown player {name!r}")
    players = list(s.players)
    players[i] = replace(players[i], **changes)
    return replace(s, players=tuple(players))


def _add(counts: Counts, names: Iterable[str], sign: int = 1) -> dict[str, int]:
    out = dict(counts)
    for n in names:
        left = out.get(n, 0) + sign
        if left < 0:
            raise ValueError(f"no copy of {n!r} left to take")
        if left:
            out[n] = left
        else:
            out.pop(n, None)
    return out


def _deck_of(s: GameState, card: str) -> str:
    c = s.catalog.card(card)
    if c is None:
        raise ValueError(f"unknown card {card!r}")
    return c.kind


def _discard(s: GameState, cards: Iterable[str]) -> GameState:
    discards = {k: dict(v) for k, v in s.discards.items()}
    for card in cards:
        deck = _deck_of(s, card)
        discards[deck] = _add(discards[deck], [card])  # both decks from game_started on
    return replace(s, discards=discards)


def _without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def _return_art(s: GameState, pieces: Iterable[Mapping[str, Any]]) -> GameState:
    museums = {m: list(names) for m, names in s.museums.items()}
    for piece in pieces:
        museums[piece["museum"]].append(piece["name"])
    order = {a.name: i for arts in s.catalog.museums.values() for i, a in enumerate(arts)}
    return replace(s, museums={m: tuple(sorted(n, key=order.__getitem__))
                               for m, n in museums.items()})


def game_started(s: GameState, e: Event) -> GameState:
    cat = s.catalog
    return replace(
        s.__class__(catalog=cat), phase=_phase(s, Phase.SETUP),
        rules=HouseRules.from_overrides(e["rules"]),
        players=tuple(PlayerState(name=p["name"], color=p["color"]) for p in e["players"]),
        museums={m: tuple(a.name for a in arts) for m, arts in cat.museums.items()},
        piles={"specialist": {c.name: c.copies for c in cat.specialists.values()},
               "attribute": {c.name: c.copies for c in cat.attributes.values()}},
        discards={"specialist": {}, "attribute": {}},
        commitment=e["commitment"],
    )


def hand_dealt(s: GameState, e: Event) -> GameState:
    piles = dict(s.piles)
    piles["specialist"] = _add(piles["specialist"], e["specialists"], -1)
    piles["attribute"] = _add(piles["attribute"], e["attributes"], -1)
    s = replace(s, piles=piles)
    return _player(s, e["player"], specialists=tuple(e["specialists"]),
                   attributes=tuple(e["attributes"]), dealt=True)


def pending(s: GameState, e: Event) -> GameState:
    info = {k: v for k, v in e.items() if k not in ("type", "player", "decision", "options")}
    p = Pending(player=e["player"], decision=e["decision"], options=tuple(e["options"]), info=info)
    return replace(s, pending=(*s.pending, p))


def _drop_pending(s: GameState, player: str | None, decision: str) -> GameState:
    for i, p in enumerate(s.pending):
        if p.player == player and p.decision == decision:
            return replace(s, pending=s.pending[:i] + s.pending[i + 1:])
    raise ValueError(f"no pending {decision} for {player}")


def resolved(s: GameState, e: Event) -> GameState:
    return _drop_pending(s, e["player"], e["decision"])


def first_player(s: GameState, e: Event) -> GameState:
    return replace(s, phase=_phase(s, Phase.PLAYING), first_player=e["player"])


def turn(s: GameState, e: Event) -> GameState:
    seat = s.index_of(e["player"])
    if seat is None:
        raise ValueError(f"event names unknown player {e['player']!r}")
    return replace(s, current=seat, turn_number=e["number"], turn=TurnInfo(),
                   round=_round(s, seat))


def _round(s: GameState, seat: int) -> int:
    """The round a turn at `seat` is in: a new round begins each time play comes round past
    the first player's seat again (players who are out are skipped, so a round may be short)."""
    first = s.index_of(s.first_player) if s.first_player is not None else None
    if s.current is None or first is None or s.round == 0:
        return 1
    n = len(s.players)
    return s.round + ((seat - first) % n <= (s.current - first) % n)


def strikes_reset(s: GameState, e: Event) -> GameState:
    return _player(s, e["player"], strikes=0, reset_on_roll=False)


def move_rolled(s: GameState, e: Event) -> GameState:
    return replace(s, turn=replace(s.turn, rolled=e["roll"]))


def moved(s: GameState, e: Event) -> GameState:
    return replace(s, turn=TurnInfo(moved=True, rolled=e["roll"], tile=e["tile"],
                                    museum=e.get("museum")))


def entered(s: GameState, e: Event) -> GameState:
    return _player(s, e["player"], where=e["museum"])


def left(s: GameState, e: Event) -> GameState:
    return _player(s, e["player"], where=None)


def left_premises(s: GameState, e: Event) -> GameState:
    return _player(s, e["player"], where=None, reset_on_roll=True)


def bypass(s: GameState, e: Event) -> GameState:
    p = s.player(e["player"])
    played = [c for c in (e["specialist"], e["attribute"]) if c]
    s = _player(s, p.name,
                specialists=_without(p.specialists, [c for c in played if c in p.specialists]),
                attributes=_without(p.attributes, [c for c in played if c in p.attributes]))
    return _discard(s, played)


def strike(s: GameState, e: Event) -> GameState:
    return _player(s, e["player"], strikes=e["strikes"])


def art_returned(s: GameState, e: Event) -> GameState:
    p = s.player(e["player"])
    names = {a["name"] for a in e["pieces"]}
    s = _player(s, p.name, art=tuple(a for a in p.art if a.name not in names))
    return _return_art(s, e["pieces"])


def hand_discarded(s: GameState, e: Event) -> GameState:
    p = s.player(e["player"])
    s = _player(s, p.name, specialists=(), attributes=())
    return _discard(s, [*p.specialists, *p.attributes])


def out(s: GameState, e: Event) -> GameState:
    s = _player(s, e["player"], status=OUT, where=None)
    return replace(s, pending=tuple(p for p in s.pending if p.player != e["player"]))


def stolen(s: GameState, e: Event) -> GameState:
    a = e["art"]
    art = Art(name=a["name"], museum=a["museum"], value=a["value"], deduction=a["deduction"])
    museums = dict(s.museums)
    museums[art.museum] = tuple(n for n in museums[art.museum] if n != art.name)
    p = s.player(e["player"])
    s = replace(s, museums=museums, turn=replace(s.turn, stolen=True))
    return _player(s, p.name, art=(*p.art, art))


def sold(s: GameState, e: Event) -> GameState:
    p = s.player(e["player"])
    names = set(e["pieces"])
    return _player(s, p.name, art=tuple(a for a in p.art if a.name not in names),
                   money=e["money"])


def deck_reshuffled(s: GameState, e: Event) -> GameState:
    deck = e["deck"]
    return replace(s, piles={**s.piles, deck: dict(s.discards[deck])},
                   discards={**s.discards, deck: {}})


def drawn(s: GameState, e: Event) -> GameState:
    deck, card = e["deck"], e["card"]
    s = replace(s, piles={**s.piles, deck: _add(s.piles[deck], [card], -1)})
    p = s.player(e["player"])
    hand = {"specialist": {"specialists": (*p.specialists, card)},
            "attribute": {"attributes": (*p.attributes, card)}}[deck]
    s = _player(s, p.name, **hand)
    for i, pend in enumerate(s.pending):
        if pend.player == p.name and pend.decision == "draw":
            count = int(pend.info["count"]) - 1
            rest = s.pending[:i] + s.pending[i + 1:]
            if count > 0:
                rest = (*s.pending[:i], replace(pend, info={**pend.info, "count": count}),
                        *s.pending[i + 1:])
            return replace(s, pending=rest)
    raise ValueError(f"{p.name} drew with no draw due")


def draws_forfeited(s: GameState, e: Event) -> GameState:
    return _drop_pending(s, e["player"], "draw")


def traded(s: GameState, e: Event) -> GameState:
    giver, taker = s.player(e["from"]), s.player(e["to"])
    s = _player(s, giver.name, attributes=(*_without(giver.attributes, e["give"]), *e["get"]))
    return _player(s, taker.name, attributes=(*_without(taker.attributes, e["get"]), *e["give"]))


def game_over(s: GameState, e: Event) -> GameState:
    s = replace(s, phase=_phase(s, Phase.OVER), winner=e["winner"], over_reason=e["reason"],
                over_rule=e.get("rule"), pending=())
    if e["winner"] is not None:
        s = _player(s, e["winner"], status=WINNER)
    return s


def seed_revealed(s: GameState, e: Event) -> GameState:
    return replace(s, seed=e["seed"])


def _no_change(s: GameState, e: Event) -> GameState:
    return s


HANDLERS: dict[str, Handler] = {
    "game_started": game_started, "hand_dealt": hand_dealt, "pending": pending,
    "resolved": resolved, "first_player": first_player, "turn": turn,
    "strikes_reset": strikes_reset, "move_rolled": move_rolled, "moved": moved,
    "entered": entered, "left": left,
    "left_premises": left_premises, "bypass": bypass, "strike": strike,
    "art_returned": art_returned, "hand_discarded": hand_discarded, "out": out,
    "stolen": stolen, "sold": sold, "deck_reshuffled": deck_reshuffled, "drawn": drawn,
    "draws_forfeited": draws_forfeited, "traded": traded, "game_over": game_over,
    "seed_revealed": seed_revealed,
    # events that record what happened without changing the state
    "roll": _no_change, "turn_order_rolled": _no_change, "caught": _no_change,
    "reentered": _no_change, "no_cards_to_draw": _no_change, "kept_dropped": _no_change,
    "die_corrected": _no_change,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after one event. Raises ValueError for an event that cannot apply."""
    handler = HANDLERS.get(event["type"])
    if handler is None:
        raise ValueError(f"unknown event type {event['type']!r}")
    return handler(state, event)


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    for e in events:
        state = evolve(state, e)
    return state


__all__ = ["ACTIVE", "HANDLERS", "Event", "evolve", "fold"]
