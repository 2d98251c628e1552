"""Folding events into the A.R.T. Project's state (the only place the state changes).

Every event moves tokens between two named places, so the totals (6 of each resource, 25
health, 40 agents) hold by construction of the events, and the tests hold them to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.games.art_project.catalog import Mission, catalog_from_json
from referee.games.art_project.settings import ArtRules
from referee.games.art_project.state import (
    RESOURCES,
    AllyPawn,
    ArtState,
    Battle,
    Clue,
    Deck,
    Pending,
    Player,
    battle_dice,
)
from referee.ruleset import Event

S = ArtState


def _players(s: S, name: str, **change: Any) -> tuple[Player, ...]:
    return tuple(replace(p, **change) if p.name == name else p for p in s.players)


def _player_fn(s: S, name: str, fn: Callable[[Player], Player]) -> tuple[Player, ...]:
    return tuple(fn(p) if p.name == name else p for p in s.players)


def _health(s: S, changes: Mapping[str, int], sign: int) -> S:
    """Players' health changes by sign * n each; the reserve the other way."""
    if not changes:
        return s
    players = s.players
    total = 0
    for name, n in changes.items():
        players = tuple(replace(p, health=p.health + sign * n) if p.name == name else p
                        for p in players)
        total += n
    return replace(s, players=players, health_reserve=s.health_reserve - sign * total)


def _started(s: S, e: Event) -> S:
    cat = catalog_from_json(e["catalog"])
    mission = Mission.from_json(e["mission"])
    ally = e.get("ally")
    return S(
        cat, phase="A", mission=mission, difficulty=e["difficulty"],
        rules=ArtRules(**e["rules"]), round=1,
        players=tuple(Player(p["name"], p["color"], p["health"], mission.start or "",
                             draws_owed=p["draws"], setup_agents=p.get("setup_agents", 0))
                      for p in e["players"]),
        ally=None if ally is None else AllyPawn(ally, mission.start or ""),
        van=dict(e["van"]), reserve=dict(e["reserve"]), health_reserve=e["health_reserve"],
        agents=dict(e["agents"]), agent_reserve=e["agent_reserve"], markers=e["markers"],
        artwork=tuple(e["artwork"]), deck=Deck(**e["deck"]), commitment=e["commitment"],
        hall=tuple(tuple(r) for r in e.get("hall", [])))


def _paid(s: S, e: Event) -> S:
    van = dict(s.van)
    reserve = dict(s.reserve)
    for r in RESOURCES:
        van[r] -= e.get(r, 0)
        reserve[r] += e.get(r, 0)
    return _health(replace(s, van=van, reserve=reserve), e.get("health", {}), -1)


def _gained(s: S, e: Event) -> S:
    van = dict(s.van)
    reserve = dict(s.reserve)
    for r in RESOURCES:
        van[r] += e.get(r, 0)
        reserve[r] -= e.get(r, 0)
    return _health(replace(s, van=van, reserve=reserve), e.get("health", {}), +1)


def _drawn(s: S, e: Event) -> S:
    deck = s.deck
    deck = (replace(deck, above=deck.above - 1) if e["from"] == "above"
            else replace(deck, below=deck.below - 1))
    owed = 0 if e.get("extra") else 1
    return replace(s, deck=deck, players=_player_fn(
        s, e["player"], lambda p: replace(p, hand=p.hand + 1, draws_owed=p.draws_owed - owed)))


def _final(s: S, e: Event) -> S:
    d = s.deck
    return replace(s, final_round=True, deck=Deck(0, False, d.above + d.below, d.discard + 1))


def _placed(s: S, e: Event) -> S:
    n = e["count"]
    s = replace(s, agent_reserve=s.agent_reserve - n)
    if e["to"] == "hq":
        return replace(s, hq=s.hq + n)
    return replace(s, agents={**s.agents, e["to"]: s.agents.get(e["to"], 0) + n})


def _chain_without(s: S, cards: Sequence[str]) -> S:
    return replace(s, chain=tuple(c for c in s.chain if c.id not in cards),
                   deck=replace(s.deck, discard=s.deck.discard + len(cards)))


def _battle(s: S, e: Event) -> S:
    fought = s.fought if e["city"] in s.fought else (*s.fought, e["city"])
    if e["won"]:
        return replace(s, battle=None, fought=fought)
    return replace(s, fought=fought, battle=Battle(
        e["city"], e["leader"], tuple(e["participants"]), tuple(battle_dice(e)),
        e["weapons"], e["city_agents"], e["threat"], e["hq"]))


def _lost(s: S, e: Event) -> S:
    city = e["city"]
    players = tuple(replace(p, must_leave=True) if p.city == city else p for p in s.players)
    ally = s.ally
    if ally is not None and ally.city == city:
        ally = replace(ally, must_leave=True)
    artwork, gone = s.artwork, s.artwork_gone
    if e.get("artwork_removed"):
        artwork, gone = tuple(c for c in artwork if c != city), gone + 1
    return replace(s, agents={**s.agents, city: 0}, agent_reserve=s.agent_reserve + e["agents"],
                   markers=s.markers - 1, lost=(*s.lost, city), players=players, ally=ally,
                   artwork=artwork, artwork_gone=gone)


def _moved(s: S, e: Event) -> S:
    if e.get("carry"):  # Rio: one artwork goes along with the pawn (ART-33)
        art = list(s.artwork)
        art.remove(e["from"])
        s = replace(s, artwork=(*art, e["to"]))
    s = replace(s, moved=s.moved if e["pawn"] in s.moved else (*s.moved, e["pawn"]))
    if s.ally is not None and e["pawn"] == s.ally.color:
        return replace(s, ally=replace(s.ally, city=e["to"], must_leave=False))
    return replace(s, players=_players(s, e["pawn"], city=e["to"], must_leave=False))


def _collected(s: S, e: Event) -> S:
    art = list(s.artwork)
    art.remove(e["city"])  # one token (on Rio a district may briefly hold two)
    return replace(s, track=s.track + 1, artwork=tuple(art))


def _placed_at_setup(s: S, e: Event) -> S:
    s = _player_fn_apply(s, e["player"], lambda p: replace(
        p, setup_agents=p.setup_agents - sum(e["agents"].values())))
    for city, n in e["agents"].items():
        s = replace(s, agents={**s.agents, city: s.agents.get(city, 0) + n},
                    agent_reserve=s.agent_reserve - n)
    return s


def _player_fn_apply(s: S, name: str, fn: Callable[[Player], Player]) -> S:
    return replace(s, players=_player_fn(s, name, fn))


def _over(s: S, e: Event) -> S:
    assert s.mission is not None
    key = (s.mission.id, s.difficulty)
    won = e["outcome"] == "won"
    rows = [r for r in s.hall if (r[0], r[1]) != key]
    old = next((r for r in s.hall if (r[0], r[1]) == key), (*key, 0, 0))
    rows.append((*key, old[2] + won, old[3] + (not won)))
    return replace(s, outcome=e["outcome"], reason=e["reason"], over_rule=e["rule"],
                   battle=None, pending=(), hall=tuple(sorted(rows)))


def _given(s: S, e: Event) -> S:
    return replace(s, chain=tuple(replace(c, player=e["to"]) if c.id == e["card"] else c
                                  for c in s.chain))


_EVOLVE: dict[str, Callable[[S, Event], S]] = {
    "game_started": _started,
    "round_started": lambda s, e: replace(
        s, phase="A", round=e["round"], fought=(), moved=(), unlocked_here=0,
        players=tuple(replace(p, draws_owed=e["draws"], played=0) for p in s.players)),
    "phase": lambda s, e: replace(s, phase=e["phase"], unlocked_here=0),
    "drawn": _drawn,
    "final_card": _final,
    "draw_lost": lambda s, e: replace(s, players=_player_fn(
        s, e["player"], lambda p: replace(p, draws_owed=p.draws_owed - 1))),
    "reshuffled": lambda s, e: replace(s, deck=replace(
        s.deck, below=s.deck.below + e["cards"], discard=s.deck.discard - e["cards"])),
    "paid": _paid,
    "gained": _gained,
    "health_lost": lambda s, e: _health(s, {e["player"]: e["count"]}, -1),
    "card_played": lambda s, e: replace(s, cards=s.cards + 1, players=_player_fn(
        s, e["player"], lambda p: replace(p, hand=p.hand - 1, played=p.played + 1))),
    "agents_placed": _placed,
    "clue_added": lambda s, e: replace(
        s, chain=(*s.chain, Clue(e["card"], tuple(e["symbols"]), e["player"]))),
    "card_discarded": lambda s, e: replace(s, deck=replace(s.deck,
                                                           discard=s.deck.discard + 1)),
    "clues_discarded": lambda s, e: _chain_without(s, e["cards"]),
    "clue_spent": lambda s, e: _chain_without(s, [e["card"]]),
    "clue_lost": lambda s, e: _chain_without(s, [e["card"]]),
    "setup_agents_placed": _placed_at_setup,
    "clue_given": _given,
    "uncovered": lambda s, e: replace(s, artwork=(*s.artwork, e["city"])),
    "pending": lambda s, e: replace(s, pending=tuple(Pending(
        d["decision"], tuple(d["options"]), d.get("player"), d.get("symbol"), d.get("chain"),
        d.get("then"))
        for d in e["decisions"])),
    "hands_discarded": lambda s, e: replace(
        s, players=tuple(replace(p, hand=0) for p in s.players),
        deck=replace(s.deck, discard=s.deck.discard + e["cards"])),
    "moved": _moved,
    "collected": _collected,
    "ally_unlocked": lambda s, e: replace(s, allies=e["allies"],
                                          unlocked_here=s.unlocked_here + 1),
    "battle": _battle,
    "agents_cleared": lambda s, e: replace(s, agents={**s.agents, e["city"]: 0},
                                           agent_reserve=s.agent_reserve + e["count"]),
    "battle_conceded": lambda s, e: replace(s, battle=None),
    "city_lost": _lost,
    "game_over": _over,
    "seed_revealed": lambda s, e: replace(s, seed=e["seed"]),
}
_NO_CHANGE = frozenset({"roll", "kept_dropped", "die_corrected", "uncover_blocked", "warning",
                        "effect"})


def evolve(state: ArtState, event: Event) -> ArtState:
    kind = event["type"]
    if kind in _NO_CHANGE:
        return state
    fn = _EVOLVE.get(kind)
    if fn is None:
        raise ValueError(f"unknown event type {kind!r}")
    return fn(state, event)


def fold(state: ArtState, events: Sequence[Event]) -> ArtState:
    for e in events:
        state = evolve(state, e)
    return state
