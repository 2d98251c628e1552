"""What the table does now (the `next` line, GAL-5), what may be sent (asked of `decide`), the
state as the protocol shows it, and what undo would take back, in words."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from referee.errors import Refusal
from referee.games.gallerist.catalog import CELEBRITY_FAME
from referee.games.gallerist.commands import parse_command
from referee.games.gallerist.rules import decide
from referee.games.gallerist.rules.clock import EXECUTIVE, KICKOUT_KINDS
from referee.games.gallerist.rules.common import (
    MAX_INFLUENCE,
    MAX_MONEY,
    end_conditions,
    intermediate_queue,
)
from referee.games.gallerist.rules.scoring import (
    CATEGORY_WORDS,
    figures,
    next_pick,
    owed,
    renowned_artists,
    renowned_fame,
    scoring_json,
)
from referee.games.gallerist.rules.setup import placement_order
from referee.games.gallerist.state import GALLERY, KICKED, Pending, State
from referee.ruleset import Event

Request = dict[str, Any]
# which visitors count as drawn from the bag (GAL-13; docs/gallerist.md, "The bag")
BAG_DRAWS = ("Every visitor that leaves the bag is a draw: in setup the ones put on the works "
             "(one per ticket shown), the 4 in the plaza and 1 in each lobby; in play each one "
             "taken out of the bag. A visitor moved on the board is none.")
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
                "qualifies and the benefit.")
    if p.decision == "kickout":
        same = sum(q.decision == "kickout" and q.player == p.player and q.piece == p.piece
                   and q.location == p.location for q in s.queue)
        piece = (f"{p.piece}, 1 of {same} still to go" if same > 1
                 else " and ".join(p.pieces) if p.pieces else f"{p.piece}")
        if s.in_final_round:
            return (f"{p.player}'s {piece} was kicked out of {p.location}; no kicked-out "
                    "actions in the final round: say whether a desk is free for it.")
        return (f"{p.player} was kicked out of {p.location} ({piece}): a kicked-out action "
                "(location, paid in influence, or executive), or pass.")
    return f"{p.player or 'The table'}: {p.decision}."


def _coming(s: State) -> str:
    """The intermediate scorings a stack that ran out has made due, said before they come
    (GAL-14: at the end of the turn; a stack emptied during the after-turn steps, once the
    step owed then is settled)."""
    stacks = tuple(st for st in s.turn.emptied if st not in s.scored_stacks)
    due = intermediate_queue(s, stacks)
    if not due:
        return ""
    said = _names([f"{q.stack}" for q in due])
    when = ("once the step owed now is settled" if s.turn.ended
            else "at the end of this turn")
    scorings = "an intermediate scoring" if len(due) == 1 else f"{len(due)} intermediate scorings"
    return (f" The {said} tickets ran out: {scorings} {when}.")


def next_step(s: State) -> str:
    """One line: what the table does now, naming whom it waits on (GAL-5)."""
    if s.phase == "no_game":
        return "Start a game of The Gallerist, for 1 to 4 players."
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
                f"take its reputation tile; reverse turn order{check}.")
    if s.phase == "final_scoring":
        left = owed(s)
        if not left:
            return "Every figure is in: the final scoring totals the money and names the winner."
        pick = next_pick(s)
        if pick is not None:
            return (f"Final scoring, the auction: {pick} chooses a renowned work"
                    f"; {len(left) - 1} more entries owed after it.")
        said = re.sub(r" \([a-z_]+\)$", "", left[0])  # ("Ann's influence (influence)": the words)
        return (f"Final scoring: enter {said}; {len(left)} "
                f"entr{'y' if len(left) == 1 else 'ies'} owed.")
    if s.queue:
        return _pending_words(s, s.queue[0]) + _coming(s)
    p = s.player(s.current or s.names[0])
    head = f"Round {s.round}" + (" (the final round)" if s.in_final_round else "")
    if s.end_triggered is not None and not s.in_final_round:
        head += f"; the end is triggered: round {s.final_round} is the last"
    if not s.turn.moved:
        if p.gallerist in (GALLERY, KICKED, None):
            where = "to any location (your gallerist is in your gallery)"
        else:
            where = f"to a location other than {p.gallerist}"
        return f"{head}. {p.name}: move your gallerist {where}.{_coming(s)}"
    if not s.turn.location_action:
        extra = "" if s.turn.executive else "; one executive action too, if wanted"
        return f"{head}. {p.name}: the location action at {p.gallerist}{extra}.{_coming(s)}"
    extra = "" if s.turn.executive else "an executive action if wanted, then "
    return f"{head}. {p.name}: {extra}end the turn.{_coming(s)}"


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
            # (a card's money waits for the player's own auction pick: it may count there)
            cats = [c for c, (v, _, _) in figures(s, p).items() if v is None and c != "auction"
                    and not (c in ("curator", "dealer") and pick == p.name)]
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
            "name": p.name, "color": p.color, "money": p.money, "influence": p.influence,
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
        "end_conditions": end_conditions(s),  # which of GAL-15's three hold now
        "bag": dict(s.bag) if isinstance(s.bag, Mapping) else s.bag,
        "goals_scored": list(s.goals_scored), "scoring": scoring_json(s),
        "rules": s.rules.to_json(),
    }


def _accepts(s: State, req: Request) -> bool:
    try:
        decide(s, parse_command(req))
    except Refusal:
        return False
    return True


def actor(s: State) -> str | None:
    """Who the table records things for now: the kicked-out player whose action is due, else
    the player whose turn it is (None while an intermediate scoring waits, or in setup)."""
    if s.phase != "play":
        return None
    if s.queue:
        q = s.queue[0]
        return q.player if q.decision == "kickout" else None
    return s.current


def _listed(s: State) -> str | None:
    """Whose tickets and box draws are whole legal actions: the one acting now (a kicked-out
    player's during their action), else the turn's player."""
    return actor(s) or s.current if s.phase == "play" else None


def _candidates(s: State) -> Iterator[Request]:
    names = list(s.names)
    if s.phase == "setup":
        for n in names:
            for x in s.catalog.start_locations:
                yield {"cmd": "place_start", "player": n, "location": x}
        for item, _, _ in s.checklist:
            yield {"cmd": "check", "item": item}
        yield {"cmd": "draw_visitor"}  # a box draw from the bag (when it is known by colour)
        for a in s.catalog.artists:  # an artist whose tile prints its fame
            yield {"cmd": "discover", "artist": a.name}
        return
    if s.phase == "play":
        if s.queue:
            q = s.queue[0]
            if q.decision == "kickout" and q.player is not None:
                for kind in KICKOUT_KINDS:
                    yield {"cmd": "kickout_action", "player": q.player, "kind": kind}
                    if "assistant" in (q.pieces or (q.piece,)):  # (a gallerist: no desk)
                        for desk in (True, False):
                            yield {"cmd": "kickout_action", "player": q.player, "kind": kind,
                                   "desk": desk}
        cur = s.current
        if cur is not None:
            for x in s.catalog.locations:
                yield {"cmd": "move", "player": cur, "to": x}
            yield {"cmd": "location_action", "player": cur}
            for kind in EXECUTIVE:
                yield {"cmd": "executive", "player": cur, "kind": kind}
            yield {"cmd": "end_turn", "player": cur}
        listed = _listed(s)  # (the others' tickets and draws: entries with a Player choice)
        if listed is not None:
            for colour in s.tickets:
                yield {"cmd": "take_ticket", "player": listed, "colour": colour}
            yield {"cmd": "draw_visitor", "player": listed}
        who = actor(s)
        for a in s.catalog.artists:  # an artist whose tile prints its fame
            yield {"cmd": "discover", "artist": a.name,
                   **({} if who is None else {"player": who})}
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
    """Requests `decide` accepts now, whole. A step that needs a figure only the table knows
    (an amount of money, a score) or a choice among many (which artist, which colour) is
    not guessed here: `entries` describes it, with the choices and bounds it accepts."""
    out = []
    for req in _candidates(s):
        if player is not None and req.get("player") not in (player, None):
            continue
        if _accepts(s, req):
            out.append(req)
    return out


# ---- entries: the steps that need the table's figures or choices ------------------------
Entry = dict[str, Any]  # {"label", "request", "asks": [ask, ...]}
Ask = dict[str, Any]
YES_NO: list[tuple[str, Any]] = [("yes", True), ("no", False)]


def _choice(key: str, label: str, options: Sequence[tuple[str, Any]]) -> Ask:
    return {"key": key, "label": label, "kind": "choice",
            "options": [[w, v] for w, v in options]}


def _number(key: str, label: str, low: int, high: int, *, optional: bool = False,
            by: str | None = None, bounds: Mapping[str, tuple[int, int]] | None = None) -> Ask:
    """A whole number from `low` to `high`; with `by`, the bounds depend on the value chosen
    in that field (`bounds`: value -> (low, high))."""
    ask: Ask = {"key": key, "label": label, "kind": "number", "low": low, "high": high,
                "optional": optional}
    if by is not None and bounds is not None:
        ask["by"] = by
        ask["bounds"] = {k: [lo, hi] for k, (lo, hi) in bounds.items()}
    return ask


def _text(key: str, label: str, *, optional: bool = True) -> Ask:
    """A short text the table types (a tile's label, a reason); `optional`: blank leaves it
    out."""
    return {"key": key, "label": label, "kind": "text", "optional": optional}


def _entry(label: str, request: Request, *asks: Ask, about: str = "",
           waits: bool = False) -> Entry:
    """`about`: what the table needs to see beside it; `waits`: a decision the clock waits
    on (listed first)."""
    return {"label": label, "request": request, "asks": list(asks), "about": about,
            "waits": waits}


def _renowned_words(s: State, form: str) -> str:
    fame = renowned_fame(s, form)
    if fame is None:
        return f"No {form} artist's fame is known: the table prices the work."
    return (f"The most famous {form} artist: {_names(renowned_artists(s, form)) or '?'}, "
            f"fame {fame}" + ("" if s.catalog.sale_value else
                              " (the catalog has no sale values)") + ".")


def _with(req: Request, who: str | None) -> Request:
    return req if who is None else {**req, "player": who}


def _money_room(s: State, name: str) -> int:
    return MAX_MONEY - s.player(name).money


def _order(s: State) -> list[str]:
    """The players as a record's "Player" choice lists them: the one acting now first (the
    choice starts there), then the others in seat order."""
    who = actor(s)
    return list(dict.fromkeys([*([who] if who else []), *s.names]))


Options = list[tuple[str, Any]]


def _per_player(s: State, find: Callable[[str], Options]) -> dict[str, Options]:
    """Each player's options (`find`, asked of `decide`), for the players who have some."""
    return {n: found for n in _order(s) if (found := find(n))}


def _player(names: Sequence[str], key: str = "player", label: str = "Player") -> Ask:
    return _choice(key, label, [(n, n) for n in names])


def _choice_by(key: str, label: str, per: Mapping[str, Options], by: str = "player") -> Ask:
    """A choice whose options follow the player chosen in field `by` (`per`: player ->
    options); the options shown first are the first player's."""
    ask = _choice(key, label, next(iter(per.values())))
    ask["by"] = by
    ask["options_by"] = {n: [[w, v] for w, v in opts] for n, opts in per.items()}
    return ask


def _move_entries(s: State) -> Iterator[Entry]:
    """The turn's move leaving an assistant behind (the current player's alone, GAL-6)."""
    who = s.current
    if who is None or s.phase != "play" or s.turn.ended or s.turn.moved:
        return
    p = s.player(who)
    if p.gallerist in (GALLERY, KICKED, None):
        return
    tos = [x for x in s.catalog.locations
           if _accepts(s, {"cmd": "move", "player": who, "to": x})]
    leaves = ([("an assistant from a desk", "desk")] if p.desks else []) + [
        (f"the assistant from {x}", x) for x in dict.fromkeys(p.locations)]
    leaves = [o for o in leaves if tos and _accepts(
        s, {"cmd": "move", "player": who, "to": tos[0], "leave_assistant": o[1]})]
    if tos and leaves:
        yield _entry(f"{who}: move, leaving an assistant on {p.gallerist}…",
                     {"cmd": "move", "player": who},
                     _choice("to", "Move to", [(x, x) for x in tos]),
                     _choice("leave_assistant", f"Left on {p.gallerist}", leaves))


def _record_entries(s: State) -> Iterator[Entry]:
    """What the table records for a player: the market, artists and works, visitors. Each
    asks which player first (the one acting now, then the others: a kicked-out player's
    location action is recorded out of turn); the choices after it are that player's."""
    cat = s.catalog
    play = s.phase == "play"
    unprinted = [a.name for a in cat.artists if a.fame is None]
    if not play:
        found = [(n, n) for n in unprinted
                 if _accepts(s, {"cmd": "discover", "artist": n, "fame": 0})]
        if found:
            yield _entry("Discover an artist (turn the tile)…", {"cmd": "discover"},
                         _choice("artist", "Artist", found),
                         _number("fame", "Fame on the tile", 0, CELEBRITY_FAME - 1))
        return

    def market(row: str) -> dict[str, Options]:
        return _per_player(s, lambda n: [(f"column {c}", c) for c in (1, 2, 3) if _accepts(
            s, {"cmd": "market", "player": n, "column": c, "row": row,
                **({"cost": 0} if row == "lower" else {})})])

    def cost(per: Mapping[str, Options]) -> Ask:
        return _number("cost", "It cost (money)", 0, MAX_MONEY, by="player", bounds={
            n: (0, min(s.player(n).money, MAX_MONEY)) for n in per})

    per = market("upper")
    if per:
        yield _entry("An assistant to the market's upper rows…",
                     {"cmd": "market", "row": "upper"}, _player(list(per)),
                     _choice_by("column", "Column", per))
    per = market("lower")
    if per:
        yield _entry("A paid assistant to the market's lower rows…",
                     {"cmd": "market", "row": "lower"}, _player(list(per)),
                     _choice_by("column", "Column", per), cost(per))
    per = _per_player(s, lambda n: [(a, a) for a in unprinted if _accepts(
        s, {"cmd": "discover", "artist": a, "fame": 0, "player": n})])
    if per:
        yield _entry("Discover an artist (turn the tile)…", {"cmd": "discover"},
                     _player(list(per)), _choice_by("artist", "Artist", per),
                     _number("fame", "Fame on the tile", 0, CELEBRITY_FAME - 1))
    per = _per_player(s, lambda n: [(a.name, a.name) for a in cat.artists if _accepts(
        s, {"cmd": "commission", "player": n, "artist": a.name})])
    if per:
        yield _entry("Commission a work (a signature token)…", {"cmd": "commission"},
                     _player(list(per)), _choice_by("artist", "Artist", per))
    yield from _fame_entries(s)
    per = _per_player(s, lambda n: [(a.name, a.name) for a in cat.artists if _accepts(
        s, {"cmd": "acquire", "player": n, "artist": a.name})])
    if per:
        yield _entry("Acquire a work…", {"cmd": "acquire"}, _player(list(per)),
                     _choice_by("artist", "Artist", per), cost(per))

    def works(n: str) -> list[str]:
        return list(dict.fromkeys(w.artist for w in s.player(n).exhibited))

    per = _per_player(s, lambda n: [
        (f"{a} (sells for {v})", a) for a in works(n) if (v := _sale_value(s, a)) is not None
        and _accepts(s, {"cmd": "sell", "player": n, "artist": a})])
    if per:
        yield _entry("Sell a work…", {"cmd": "sell"}, _player(list(per)),
                     _choice_by("artist", "Artist", per))
    per = _per_player(s, lambda n: [(a, a) for a in works(n) if _sale_value(s, a) is None
                                    and _accepts(s, {"cmd": "sell", "player": n,
                                                     "artist": a, "money": 0})])
    if per:
        yield _entry("Sell a work (say what it brought)…", {"cmd": "sell"},
                     _player(list(per)), _choice_by("artist", "Artist", per),
                     _number("money", "It brought (money)", 0, MAX_MONEY, by="player",
                             bounds={n: (0, _money_room(s, n)) for n in per}))
    def visitors(to: str) -> dict[str, Options]:
        return _per_player(s, lambda n: [(c, c) for c in cat.colours if _accepts(
            s, {"cmd": "visitor", "player": n, "colour": c, "to": to})])

    for to, label in (("gallery", "A visitor into a gallery…"),
                      ("out", "A visitor out of a gallery…")):
        per = visitors(to)
        if per:
            yield _entry(label, {"cmd": "visitor", "to": to}, _player(list(per)),
                         _choice_by("colour", "Colour", per))


def _fame_entries(s: State) -> Iterator[Entry]:
    """An artist's fame goes up, by whose action. Steps past the celebrity space stop there:
    any number of them up to 19 is taken — unless the celebrity's 5 money would take that
    player past the most money can be; such a player (rare: 995 money or more) has an entry
    of their own, its steps bounded by the artist chosen."""
    def fame(n: str, a: str, steps: int) -> Request:
        return {"cmd": "fame", "artist": a, "by": n, "steps": steps}

    def most(n: str, a: str) -> int:
        return next((k for k in range(CELEBRITY_FAME, 0, -1)
                     if _accepts(s, fame(n, a, k))), 0)

    per = _per_player(s, lambda n: [(f"{a.name} (fame {s.artist(a.name).fame})", a.name)
                                    for a in s.catalog.artists
                                    if _accepts(s, fame(n, a.name, 1))])
    full = {n: opts for n, opts in per.items()
            if all(_accepts(s, fame(n, a, CELEBRITY_FAME)) for _, a in opts)}
    if full:
        yield _entry("An artist's fame goes up…", {"cmd": "fame"},
                     _player(list(full), "by", "Whose action"),
                     _choice_by("artist", "Artist", full, by="by"),
                     _number("steps", "Steps up", 1, CELEBRITY_FAME))
    for n, opts in per.items():
        if n in full:
            continue
        yield _entry(f"{n}: an artist's fame goes up (short of a celebrity's money)…",
                     {"cmd": "fame", "by": n}, _choice("artist", "Artist", opts),
                     _number("steps", "Steps up", 1, CELEBRITY_FAME, by="artist",
                             bounds={a: (1, most(n, a)) for _, a in opts}),
                     about=f"{n} has {s.player(n).money} money: a celebrity's 5 would go "
                           f"past {MAX_MONEY}.")


def _sale_value(s: State, artist: str) -> int | None:
    fame = s.artist(artist).fame
    return None if fame is None else s.catalog.value_at(fame)


def _others_entries(s: State) -> Iterator[Entry]:
    """A whole record (no figure to enter) that the list offers one player as a legal
    action (tickets and box draws: `_listed`; an artist whose tile prints its fame: the one
    acting now), for the other players, chosen in the dialog."""
    if s.phase != "play":
        return

    def others(label: str, listed: str | None) -> str:
        return label.replace(", for another player", "") if listed is None else label

    cur, who = _listed(s), actor(s)
    per = _per_player(s, lambda n: [] if n == cur else [
        (c, c) for c in s.tickets
        if _accepts(s, {"cmd": "take_ticket", "player": n, "colour": c})])
    if per:
        yield _entry(others("A ticket taken, for another player…", cur),
                     {"cmd": "take_ticket"}, _player(list(per)),
                     _choice_by("colour", "Colour", per))
    names = [n for n in _order(s) if n != cur
             and _accepts(s, {"cmd": "draw_visitor", "player": n})]
    if names:
        by_box = isinstance(s.bag, Mapping)
        yield _entry(others("The box draws a visitor, for another player…" if by_box
                            else "A visitor from the bag, for another player…", cur),
                     {"cmd": "draw_visitor"}, _player(names))
    printed = [a.name for a in s.catalog.artists if a.fame is not None]
    per = _per_player(s, lambda n: [] if n == who else [
        (a, a) for a in printed if _accepts(s, {"cmd": "discover", "artist": a,
                                                "player": n})])
    if per:
        yield _entry(others("Discover an artist, for another player…", who),
                     {"cmd": "discover"}, _player(list(per)),
                     _choice_by("artist", "Artist", per))


def _any_player_entries(s: State) -> Iterator[Entry]:
    """Money and influence, for any player; a visitor the table drew by hand."""
    if s.phase != "play":
        colours = [(c, c) for c in s.catalog.colours
                   if _accepts(s, {"cmd": "draw_visitor", "colour": c})]
        if colours:  # (a bag known by colour: the colours still in it)
            yield _entry("A visitor drawn from the bag by hand…", {"cmd": "draw_visitor"},
                         _choice("colour", "Colour", colours), about=BAG_DRAWS)
        return
    per = _per_player(s, lambda n: [(c, c) for c in s.catalog.colours if _accepts(
        s, {"cmd": "draw_visitor", "player": n, "colour": c})])
    if per:
        yield _entry("A visitor drawn from the bag by hand…", {"cmd": "draw_visitor"},
                     _player(list(per)), _choice_by("colour", "Colour", per), about=BAG_DRAWS)
    order = _order(s)  # the acting player first: the choice starts there
    room = {n: (-s.player(n).money, _money_room(s, n)) for n in order}
    if any(_accepts(s, {"cmd": "money", "player": n, "delta": 0}) for n in order):
        yield _entry("Money paid or received…", {"cmd": "money"},
                     _choice("player", "Player", [(n, n) for n in order]),
                     _number("delta", "Money (+ received, − paid)", -MAX_MONEY, MAX_MONEY,
                             by="player", bounds=room),
                     _text("reason", "What for", optional=False),
                     about="Every change of money carries its reason (GAL-10): say what "
                           "it paid for or what brought it.")
    if any(_accepts(s, {"cmd": "reputation_tile", "player": n}) for n in order):
        yield _entry("A reputation tile taken…", {"cmd": "reputation_tile"},
                     _choice("player", "Player", [(n, n) for n in order]),
                     _text("tile", "The tile (its label)"),
                     about="A tile taken to the player's board in play; final scoring "
                           "counts every tile there, the table enters their money (GAL-18).")
    spend = [n for n in order if s.player(n).influence > 0 and _accepts(
        s, {"cmd": "influence", "player": n, "reason": "spend",
            "to": s.player(n).influence - 1})]
    if spend:
        yield _entry("Influence spent (the marker goes down)…",
                     {"cmd": "influence", "reason": "spend"},
                     _choice("player", "Player", [(f"{n} (on {s.player(n).influence})", n)
                                                  for n in spend]),
                     _number("to", "Marker moves to", 0, MAX_INFLUENCE, by="player",
                             bounds={n: (0, s.player(n).influence - 1) for n in spend}))
    gain = [n for n in order if s.player(n).influence < MAX_INFLUENCE and _accepts(
        s, {"cmd": "influence", "player": n, "reason": "gain",
            "to": s.player(n).influence + 1})]
    if gain:
        yield _entry("Influence gained (the marker goes up)…",
                     {"cmd": "influence", "reason": "gain"},
                     _choice("player", "Player", [(f"{n} (on {s.player(n).influence})", n)
                                                  for n in gain]),
                     _number("to", "Marker moves to", 0, MAX_INFLUENCE, by="player",
                             bounds={n: (s.player(n).influence + 1, MAX_INFLUENCE)
                                     for n in gain}))


def _decision_entries(s: State) -> Iterator[Entry]:
    """The decisions the clock waits on that need the table's figures."""
    if s.phase == "play" and s.queue:
        q = s.queue[0]
        if q.decision == "intermediate":
            most = max(p.money for p in s.players)
            top = max(p.influence for p in s.players)
            for tile in unscored_tiles(s):
                if not _accepts(s, {"cmd": "intermediate", "tile": tile, "qualifying": []}):
                    continue
                yield _entry(f"Intermediate scoring: goal tile {tile}…",
                             {"cmd": "intermediate", "tile": tile},
                             {"key": "qualifying", "label": "Who qualifies",
                              "kind": "players", "options": [[n, n] for n in s.names]},
                             _number("benefit.money", "Money to each", 0, MAX_MONEY - most,
                                     optional=True),
                             _number("benefit.influence", "Influence to each", 0,
                                     MAX_INFLUENCE - top, optional=True),
                             about=(f"The {q.stack} tickets ran out. Ties all get the "
                                    "benefit in full (GAL-14)."), waits=True)
        elif q.decision == "kickout" and q.player is not None and not s.catalog.fame_icons:
            p = s.player(q.player)
            high = p.influence if s.rules.previous_icon == "at_or_below" else p.influence - 1
            req: Request = {"cmd": "kickout_action", "player": p.name, "kind": "location"}
            desk = "assistant" in (q.pieces or (q.piece,)) and s.catalog.desks is None
            trial = {**req, "influence": max(high, 0), **({"desk": True} if desk else {})}
            if high >= 0 and _accepts(s, trial):
                yield _entry(f"{p.name} (kicked out): a location action, paid in influence…",
                             req, _number("influence", f"Influence marker moves to (it is on "
                                          f"{p.influence})", 0, high),
                             *([_choice("desk", "A free desk for the assistant", YES_NO)]
                               if desk else []),
                             about=(f"{p.name}'s {' and '.join(q.pieces or (str(q.piece),))}"
                                    f" {'were' if len(q.pieces) > 1 else 'was'} kicked out "
                                    f"of {q.location}; "
                                    "the catalog has no fame icons, so the table says where "
                                    "the marker goes."), waits=True)
    if s.phase != "final_scoring":
        return
    pick = next_pick(s)
    if pick is not None:
        for form in s.catalog.forms:
            trial = {"cmd": "auction_pick", "player": pick, "easel": form,
                     "counts_as": "exhibited", "value": 0}
            if _accepts(s, {k: v for k, v in trial.items() if k != "value"}):
                continue  # priced by the box: a whole legal action
            if _accepts(s, trial):
                yield _entry(f"{pick}: auction, the renowned {form} work…",
                             {"cmd": "auction_pick", "player": pick, "easel": form},
                             _number("value", "Its value (money)", 0, MAX_MONEY),
                             _choice("counts_as", "Counts as", [("exhibited", "exhibited"),
                                                                ("sold", "sold")]),
                             about=_renowned_words(s, form), waits=True)
    for item in _pending_json(s):
        if item["decision"] != "score":
            continue
        who = item["player"]
        terms = figures(s, s.player(who))
        for cat in item["options"]:
            req = {"cmd": "score", "player": who, "category": cat}
            if _accepts(s, {**req, "money": 0}):
                yield _entry(f"{who}: enter the {CATEGORY_WORDS.get(cat, cat)} money…", req,
                             _number("money", "Money", 0, MAX_MONEY),
                             about=_score_about(cat, terms[cat][2]), waits=True)


def _score_about(category: str, terms: Any) -> str:
    """What an entered category rests on: the works that count for a card, the tiles."""
    if category in ("curator", "dealer"):
        kind = "exhibited" if category == "curator" else "sold"
        works = ", ".join(map(str, terms)) or "none"
        return f"The works that count ({kind}): {works}."
    if category == "reputation":
        return f"Reputation tiles: {', '.join(map(str, terms)) or 'none recorded'}."
    if category == "exhibited":
        return "Exhibited: " + (", ".join(
            f"{w['artist']} (fame {w['fame']})" for w in terms) or "none") + "."
    if category == "influence" and isinstance(terms, Mapping):
        return f"The influence marker is on {terms.get('position')}."
    return ""


def _setup_entries(s: State) -> Iterator[Entry]:
    """A starting place with the reputation tile taken from it (its label, as the table
    calls it: the catalog names no tiles)."""
    if s.phase != "setup":
        return
    due = next((n for n in placement_order(s) if s.player(n).gallerist is None), None)
    if due is None:
        return
    free = [(x, x) for x in s.catalog.start_locations
            if _accepts(s, {"cmd": "place_start", "player": due, "location": x})]
    if free:
        yield _entry(f"{due}: start on a location, naming the reputation tile taken…",
                     {"cmd": "place_start", "player": due},
                     _choice("location", "Starting location", free),
                     _text("tile", "Reputation tile (its label)"))


def entries(s: State) -> list[Entry]:
    """The steps that need the table's figures or choices, each with what it asks: every
    choice offered and every number within its bounds is accepted by `decide` (a property
    test holds this over reachable states). The decisions waited on come first."""
    if s.phase in ("no_game", "over"):
        return []
    return [_says_who_not(s, e) for e in (
        *_decision_entries(s), *_setup_entries(s), *_move_entries(s), *_record_entries(s),
        *_others_entries(s), *_any_player_entries(s))]


def _says_who_not(s: State, entry: Entry) -> Entry:
    """A record whose player choice leaves out the one acting now says so, and why (the
    rules' own refusal): its dialog then starts on another player, and the table sees it
    (issue 39: a dialog opened in Ben's turn came up as Ann's, silently — Ben had no free
    desk). An entry "for another player" leaves them out on purpose: the list has theirs."""
    who = actor(s)
    asks = entry["asks"]
    if (who is None or not asks or asks[0]["kind"] != "choice"
            or asks[0]["key"] not in ("player", "by") or "player" in entry["request"]
            or who in [v for _, v in asks[0]["options"]]
            or entry["label"].endswith("for another player…")):
        return entry
    trial: Request = {**entry["request"], asks[0]["key"]: who}
    values: list[Any] = []
    for ask in asks[1:]:
        if ask["kind"] == "number":
            trial.setdefault(ask["key"], ask["low"] if ask["low"] >= 0 else 0)
        elif ask["kind"] == "choice" and not values:
            opts = [o for options in (ask.get("options_by") or {}).values() for o in options]
            values = [(ask["key"], v) for _, v in (opts or ask["options"])]
    why = ""
    for key, value in values or [("", None)]:
        req = {**trial, key: value} if key else trial
        try:
            decide(s, parse_command(req))
        except Refusal as refusal:
            why = refusal.message
            break
    said = f"Not for {who} (acting now)" + (f": {why}" if why else ".")
    return {**entry, "about": f"{said} {entry['about']}".strip(), "not_for": who}


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
            "reputation_tile": "the reputation tile taken",
            "influence": "the influence change",
            "score": f"the {CATEGORY_WORDS.get(str(command.get('category')), 'score')} "
                     "entry", "auction_pick": "the auction pick",
            "final_scoring": "the final scoring"}.get(cmd, cmd)
    return f"Undo {what}" + (f" ({who})" if who else "") + "."
