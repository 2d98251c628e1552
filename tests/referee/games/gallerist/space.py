"""The requests a table might send in a state, for every player (issue 25): the candidate
space the entries tests hold the console's list and dialogs to, written apart from the
ruleset's own (`actions._candidates`) so that a request the ruleset forgot to offer is found.

Every command, with each player (not only the one acting now), each location, colour, artist,
column, tile and easel the catalog names, and figures at and just beyond their edges (a
player's money, the money room left, the influence marker). Fields are sent as the console
sends them:

- a figure the catalog computes (an artist's printed fame, a priced sale, an influence marker
  the fame icons move, an auction value the box prices) is sent only where it is needed: the
  same request without it is the one the table sends; a final-scoring category is entered
  only while it is owed (one the box computes is refused unless it agrees);
- whether a desk is free, for a kicked-out assistant, likewise only where the catalog does not
  know;
- a cost (a work, a lower-row placement) is always said;
- an artist's fame goes up by 1 to 19 steps (more stop at the celebrity space all the same);
- in setup the visitors drawn and the artist turned face up are nobody's (no "player"); in
  play each is someone's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.errors import Refusal
from referee.games.gallerist.catalog import CELEBRITY_FAME
from referee.games.gallerist.commands import parse_command
from referee.games.gallerist.rules import decide
from referee.games.gallerist.rules.clock import EXECUTIVE, KICKOUT_KINDS
from referee.games.gallerist.rules.common import MAX_INFLUENCE, MAX_MONEY
from referee.games.gallerist.rules.scoring import figures
from referee.games.gallerist.state import CATEGORIES, State

Request = dict[str, Any]


def accepts(s: State, req: Request) -> bool:
    try:
        decide(s, parse_command(req))
    except Refusal:
        return False
    return True


def edges(*values: int, low: int = 0, high: int = MAX_MONEY + 1) -> list[int]:
    """Each value and its neighbours, within low..high."""
    return sorted({v + d for v in values for d in (-1, 0, 1) if low <= v + d <= high})


def _needed(s: State, req: Request, key: str, values: list[int]) -> Iterator[Request]:
    """`req` as it is, and with `key` only where the catalog cannot work it out."""
    yield req
    if not accepts(s, req):
        for v in values:
            yield {**req, key: v}


def space(s: State) -> Iterator[Request]:
    names = list(s.names)
    cat = s.catalog
    artists = [a.name for a in cat.artists]
    if s.phase == "setup":
        for n in names:
            for x in cat.start_locations:
                yield {"cmd": "place_start", "player": n, "location": x}
                yield {"cmd": "place_start", "player": n, "location": x, "tile": "rep 1"}
        for item, _, _ in s.checklist:
            yield {"cmd": "check", "item": item}
        yield {"cmd": "draw_visitor"}
        for c in cat.colours:
            yield {"cmd": "draw_visitor", "colour": c}
        for a in artists:
            yield from _needed(s, {"cmd": "discover", "artist": a}, "fame", [0, 9, 18, 19])
        return
    if s.phase == "final_scoring":
        for n in names:
            owed = figures(s, s.player(n))
            for cat_ in CATEGORIES:
                if owed[cat_][0] is not None:  # (computed, or entered: sent only to agree)
                    continue
                for money in (0, 7, MAX_MONEY, MAX_MONEY + 1):
                    yield {"cmd": "score", "player": n, "category": cat_, "money": money}
            for form in cat.forms:
                for counts_as in ("exhibited", "sold"):
                    yield from _needed(s, {"cmd": "auction_pick", "player": n, "easel": form,
                                           "counts_as": counts_as}, "value",
                                       [0, 7, MAX_MONEY, MAX_MONEY + 1])
        yield {"cmd": "final_scoring"}
        return
    if s.phase != "play":
        return
    for tile in (1, 2, 3):
        for qualifying in ([], names[:1], names):
            for benefit in (None, {"money": 2}, {"influence": 1}, {"money": 1, "influence": 2}):
                req: Request = {"cmd": "intermediate", "tile": tile, "qualifying": qualifying}
                if benefit is not None:
                    req["benefit"] = benefit
                yield req
    for n in names:
        p = s.player(n)
        room = MAX_MONEY - p.money
        for x in cat.locations:
            yield {"cmd": "move", "player": n, "to": x}
            for leave in ("desk", *dict.fromkeys(p.locations), *cat.locations[:1]):
                yield {"cmd": "move", "player": n, "to": x, "leave_assistant": leave}
        yield {"cmd": "location_action", "player": n}
        for kind in EXECUTIVE:
            yield {"cmd": "executive", "player": n, "kind": kind}
        yield {"cmd": "end_turn", "player": n}
        for kind in KICKOUT_KINDS:
            req = {"cmd": "kickout_action", "player": n, "kind": kind}
            paid = (_needed(s, req, "influence", edges(0, p.influence, high=MAX_INFLUENCE))
                    if kind == "location" else iter([req]))
            for said in paid:
                yield from _needed(s, said, "desk", [True, False])
        for c in s.tickets:
            yield {"cmd": "take_ticket", "player": n, "colour": c}
        yield {"cmd": "draw_visitor", "player": n}
        for c in cat.colours:
            yield {"cmd": "draw_visitor", "player": n, "colour": c}
            for to in ("gallery", "out"):
                yield {"cmd": "visitor", "player": n, "colour": c, "to": to}
        yield {"cmd": "hire", "player": n}
        for column in (1, 2, 3):
            yield {"cmd": "market", "player": n, "column": column, "row": "upper"}
            for cost in edges(0, p.money):
                yield {"cmd": "market", "player": n, "column": column, "row": "lower",
                       "cost": cost}
        for a in artists:
            yield from _needed(s, {"cmd": "discover", "artist": a, "player": n}, "fame",
                               [0, 9, 18, 19])
            yield {"cmd": "commission", "player": n, "artist": a}
            for steps in (1, 3, CELEBRITY_FAME):  # (more go no further than 19)
                yield {"cmd": "fame", "artist": a, "by": n, "steps": steps}
            for cost in edges(0, p.money):
                yield {"cmd": "acquire", "player": n, "artist": a, "cost": cost}
            yield from _needed(s, {"cmd": "sell", "player": n, "artist": a}, "money",
                               edges(0, room))
        for delta in edges(-p.money, 0, room, low=-MAX_MONEY - 1):
            yield {"cmd": "money", "player": n, "delta": delta}
        yield {"cmd": "reputation_tile", "player": n}
        yield {"cmd": "reputation_tile", "player": n, "tile": "rep 1"}
        for to in edges(0, p.influence, MAX_INFLUENCE, high=MAX_INFLUENCE + 1):
            for reason in ("spend", "gain"):
                yield {"cmd": "influence", "player": n, "to": to, "reason": reason}


def accepted_space(s: State) -> list[Request]:
    """The requests of `space(s)` that `decide` accepts, each once."""
    out: list[Request] = []
    for req in space(s):
        if req not in out and accepts(s, req):
            out.append(req)
    return out


# ---- what the console offers: the ruleset's legal actions and entries (as JSON) -----------

def _value(req: Request, key: str) -> tuple[bool, Any]:
    top, dot, sub = key.partition(".")
    if top not in req:
        return False, None
    if dot:
        inner = req[top]
        return (sub in inner, inner.get(sub)) if isinstance(inner, dict) else (False, None)
    return True, req[top]


def entry_makes(entry: dict[str, Any], req: Request) -> bool:
    """Whether the entry's dialog can send exactly `req`: its request is part of `req`, and
    every other field is one of its asks, given a value its choices offer (those that follow
    another field: for the value chosen there) or a number within its bounds."""
    base = entry["request"]
    if any(req.get(k, object()) != v for k, v in base.items()):
        return False
    asked = {a["key"].partition(".")[0] for a in entry["asks"]}
    if set(req) - set(base) - asked:
        return False
    for ask in entry["asks"]:
        given, value = _value(req, ask["key"])
        if not given:
            if ask["kind"] in ("choice", "players") or (
                    ask["kind"] == "number" and not ask["optional"]):
                return False
            continue
        if ask["kind"] == "choice":
            options = ask["options"]
            if "options_by" in ask:
                options = ask["options_by"].get(str(req.get(ask["by"])), [])
            if value not in [v for _, v in options]:
                return False
        elif ask["kind"] == "number":
            low, high = ask["low"], ask["high"]
            if "bounds" in ask:
                if str(req.get(ask["by"])) not in ask["bounds"]:
                    return False
                low, high = ask["bounds"][str(req.get(ask["by"]))]
            if not (isinstance(value, int) and low <= value <= high):
                return False
        elif ask["kind"] == "players" and (not set(value) <= {v for _, v in ask["options"]}
                                           or len(set(value)) != len(value)):
            return False
    return True


def offered(legal: list[Request], found: list[dict[str, Any]], req: Request) -> bool:
    return req in legal or any(entry_makes(e, req) for e in found)
