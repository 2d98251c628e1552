"""What the table does now (the `next` line, GAL-5), what may be sent (asked of `decide`), the
state as the protocol shows it, and what undo would take back, in words."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from referee.errors import Refusal
from referee.games.gallerist.commands import parse_command
from referee.games.gallerist.rules import decide
from referee.games.gallerist.rules.clock import EXECUTIVE, KICKOUT_KINDS
from referee.games.gallerist.rules.scoring import (
    CATEGORY_WORDS,
    figures,
    next_pick,
    owed,
    renowned_fame,
    scoring_json,
)
from referee.games.gallerist.rules.setup import placement_order
from referee.games.gallerist.state import GALLERY, KICKED, Pending, State
from referee.ruleset import Event

Request = dict[str, Any]
_REASONS = {"money": "the most money", "works_acquired": "a tie on money, broken by works of "
            "art acquired", "visitors": "ties on money and works, broken by visitors in the "
            "gallery", "assistants": "ties on money, works and visitors, broken by assistants "
            "in play", "shared": "a tie that no tiebreaker breaks: the victory is shared"}


def _names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def unscored_tiles(s: State) -> list[int]:
    done = s.goals_this_scoring if s.rules.intermediate_tiles == "all" else s.goals_scored
    return [t for t in (1, 2, 3) if t not in done]


def _pending_words(s: State, p: Pending) -> str:
    if p.decision == "intermediate":
        tiles = ", ".join(map(str, unscored_tiles(s)))
        how = ("score the next goal tile" if s.rules.intermediate_tiles == "all"
               else "name one goal tile")
        return (f"The {p.stack} tickets ran out: intermediate scoring, {how} ({tiles}), who "
                "qualifies and the benefit (intermediate).")
    if p.decision == "kickout":
        if s.in_final_round:
            return (f"{p.player}'s {p.piece} was kicked out of {p.location}; no kicked-out "
                    "actions in the final round: say whether a desk is free (kickout_action "
                    "pass with desk).")
        return (f"{p.player} was kicked out of {p.location} ({p.piece}): a kicked-out action "
                "(location, paid in influence, or executive), or pass (kickout_action).")
    return f"{p.player or 'The table'}: {p.decision}."


def next_step(s: State) -> str:
    """One line: what the table does now, naming whom it waits on (GAL-5)."""
    if s.phase == "no_game":
        return "Start a game: new_game with game \"gallerist\" and 1 to 4 players."
    if s.over:
        r = s.result or {}
        return (f"The game is over: {_names(r.get('winners') or [])} "
                f"{'win' if len(r.get('winners') or []) != 1 else 'wins'} with "
                f"{_REASONS.get(str(r.get('reason')), r.get('reason'))}.")
    if s.phase == "setup":
        due = next((n for n in placement_order(s) if s.player(n).gallerist is None), None)
        todo = [i for i, _, d in s.checklist if not d]
        check = f" (setup steps still open: {', '.join(todo)})" if todo else ""
        free = [x for x in s.catalog.start_locations if all(p.gallerist != x for p in s.players)]
        return (f"{due}: place your gallerist on a starting location ({', '.join(free)}) and "
                f"take its reputation tile (place_start); reverse turn order{check}.")
    if s.phase == "final_scoring":
        left = owed(s)
        if not left:
            return "Every figure is in: final_scoring totals the money and names the winner."
        pick = next_pick(s)
        if pick is not None:
            return (f"Final scoring, the auction: {pick} chooses a renowned work "
                    f"(auction_pick); {len(left) - 1} more entries owed after it.")
        return (f"Final scoring: enter {left[0]} with score; {len(left)} "
                f"entr{'y' if len(left) == 1 else 'ies'} owed.")
    if s.queue:
        return _pending_words(s, s.queue[0])
    p = s.player(s.current or s.names[0])
    head = f"Round {s.round}" + (" (the final round)" if s.in_final_round else "")
    if s.end_triggered is not None and not s.in_final_round:
        head += f"; the end is triggered: round {s.final_round} is the last"
    if not s.turn.moved:
        if p.gallerist in (GALLERY, KICKED, None):
            where = "to any location (your gallerist is in your gallery)"
        else:
            where = f"to a location other than {p.gallerist}"
        return f"{head}. {p.name}: move your gallerist {where} (move)."
    if not s.turn.location_action:
        extra = "" if s.turn.executive else "; one executive action too, if wanted (executive)"
        return (f"{head}. {p.name}: the location action at {p.gallerist} "
                f"(location_action){extra}.")
    extra = "" if s.turn.executive else "an executive action if wanted (executive), then "
    return f"{head}. {p.name}: {extra}end the turn (end_turn)."


def _pending_json(s: State) -> list[dict[str, Any]]:
    if s.phase == "setup":
        due = next((n for n in placement_order(s) if s.player(n).gallerist is None), None)
        free = [x for x in s.catalog.start_locations if all(p.gallerist != x for p in s.players)]
        return [{"player": due, "decision": "start_place", "options": free}]
    if s.phase == "play":
        out = []
        for q in s.queue:
            item = q.to_json()
            item["options"] = (unscored_tiles(s) if q.decision == "intermediate"
                               else ["pass"] if s.in_final_round else list(KICKOUT_KINDS))
            out.append(item)
        return out
    if s.phase == "final_scoring":
        out = []
        pick = next_pick(s)
        if pick is not None:
            taken = {pk.easel for pk in s.picks}
            out.append({"player": pick, "decision": "auction_pick",
                        "options": [f for f in s.catalog.forms if f not in taken]})
        for p in s.players:
            cats = [c for c, (v, _, _) in figures(s, p).items() if v is None and c != "auction"]
            if cats:
                out.append({"player": p.name, "decision": "score", "options": cats})
        return out
    return []


def state_json(s: State) -> dict[str, Any]:
    """The protocol's state (headless-protocol-games.md, "The Gallerist")."""
    if s.phase == "no_game":
        return {"phase": "no_game", "pending": [], "over": False, "commitment": None,
                "seed": None}
    setup = s.setup
    return {
        "phase": "over" if s.over else s.phase, "pending": _pending_json(s), "over": s.over,
        "commitment": s.commitment, "seed": s.seed, "catalog": s.catalog.name,
        "round": s.round, "current": s.current, "start_player": s.start_player,
        "end_triggered": (None if s.end_triggered is None else
                          {"round": s.end_triggered, "conditions": list(s.end_conditions)}),
        "final_round": s.final_round, "in_final_round": s.in_final_round,
        "setup": None if setup is None else {
            "visitors_removed_per_type": setup.visitors_removed_per_type,
            "tickets_per_colour": setup.tickets_per_colour, "easels": setup.easels,
            "middle_column": setup.middle_column,
            "checklist": [{"item": i, "words": w, "done": d} for i, w, d in s.checklist]},
        "turn": {"moved": s.turn.moved, "location_action": s.turn.location_action,
                 "executive": s.turn.executive, "ended": s.turn.ended},
        "players": [{
            "name": p.name, "money": p.money, "influence": p.influence,
            "gallerist": p.gallerist,
            "assistants": {"queue": p.queue, "desks": p.desks,
                           "locations": {x: p.locations.count(x)
                                         for x in dict.fromkeys(p.locations)},
                           "market": [{"column": m.column, "row": m.row, "cost": m.cost}
                                      for m in p.market],
                           "removed": p.removed, "in_play": p.in_play},
            "exhibited": [{"artist": w.artist, "masterpiece": w.masterpiece}
                          for w in p.exhibited],
            "sold": list(p.sold), "visitors": {k: v for k, v in p.visitors.items() if v},
            "reputation_tiles": list(p.tiles), "signatures": list(p.signatures),
            "auction_spent": p.spent} for p in s.players],
        "artists": {a.name: {"form": a.form, "colour": a.colour,
                             "discovered": s.artist(a.name).discovered,
                             "fame": s.artist(a.name).fame,
                             "celebrity": s.artist(a.name).celebrity}
                    for a in s.catalog.artists},
        "celebrities": s.celebrities, "tickets": dict(s.tickets),
        "bag": dict(s.bag) if isinstance(s.bag, Mapping) else s.bag,
        "goals_scored": list(s.goals_scored), "scoring": scoring_json(s),
        "rules": s.rules.to_json(),
    }


def _candidates(s: State) -> Iterator[Request]:
    names = list(s.names)
    if s.phase == "setup":
        for n in names:
            for x in s.catalog.start_locations:
                yield {"cmd": "place_start", "player": n, "location": x}
        for item, _, _ in s.checklist:
            yield {"cmd": "check", "item": item}
        yield {"cmd": "draw_visitor"}  # a box draw from the bag (when it is known by colour)
        return
    if s.phase == "play":
        if s.queue:
            q = s.queue[0]
            if q.decision == "kickout" and q.player is not None:
                for kind in KICKOUT_KINDS:
                    yield {"cmd": "kickout_action", "player": q.player, "kind": kind}
                    for desk in (True, False):
                        yield {"cmd": "kickout_action", "player": q.player, "kind": kind,
                               "desk": desk}
            elif q.decision == "intermediate":
                for tile in unscored_tiles(s):
                    yield {"cmd": "intermediate", "tile": tile, "qualifying": []}
        cur = s.current
        if cur is not None:
            for x in s.catalog.locations:
                yield {"cmd": "move", "player": cur, "to": x}
            yield {"cmd": "location_action", "player": cur}
            for kind in EXECUTIVE:
                yield {"cmd": "executive", "player": cur, "kind": kind}
            yield {"cmd": "end_turn", "player": cur}
            for colour in s.tickets:
                yield {"cmd": "take_ticket", "player": cur, "colour": colour}
            yield {"cmd": "draw_visitor", "player": cur}
        for n in names:
            yield {"cmd": "hire", "player": n}
        return
    if s.phase == "final_scoring":
        pick = next_pick(s)
        if pick is not None:
            for form in s.catalog.forms:
                known = renowned_fame(s, form) is not None and bool(s.catalog.sale_value)
                for counts_as in ("exhibited", "sold"):
                    req: Request = {"cmd": "auction_pick", "player": pick, "easel": form,
                                    "counts_as": counts_as}
                    if known:
                        yield req
        yield {"cmd": "final_scoring"}


def legal_actions(s: State, player: str | None) -> list[Request]:
    """Requests `decide` accepts now (fields the table must supply, like an entered amount,
    are not guessed: those commands are not offered)."""
    out = []
    for req in _candidates(s):
        if player is not None and req.get("player") not in (player, None):
            continue
        try:
            decide(s, parse_command(req))
        except Refusal:
            continue
        out.append(req)
    return out


def undo_words(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    cmd = str(command.get("cmd"))
    who = command.get("player")
    what = {"new_game": "the new game", "check": f"the tick on {command.get('item')}",
            "place_start": f"the starting place on {command.get('location')}",
            "move": f"the move to {command.get('to')}",
            "location_action": "the location action", "executive": "the executive action",
            "end_turn": "the end of the turn", "kickout_action": "the kicked-out action",
            "intermediate": f"the scoring of goal tile {command.get('tile')}",
            "take_ticket": f"the {command.get('colour')} ticket taken",
            "draw_visitor": "the visitor drawn (a box draw stays on the table)",
            "visitor": f"the {command.get('colour')} visitor moved",
            "hire": "the assistant hired", "market": "the market placement",
            "discover": f"the discovery of {command.get('artist')}",
            "commission": f"the commission of {command.get('artist')}",
            "fame": f"{command.get('artist')}'s fame", "acquire": "the work acquired",
            "sell": "the work sold", "money": "the money change",
            "influence": "the influence change",
            "score": f"the {CATEGORY_WORDS.get(str(command.get('category')), 'score')} "
                     "entry", "auction_pick": "the auction pick",
            "final_scoring": "the final scoring"}.get(cmd, cmd)
    return f"Undo {what}" + (f" ({who})" if who else "") + "."
