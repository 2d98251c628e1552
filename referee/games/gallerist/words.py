"""One logged step of The Gallerist in words (`referee.ruleset.DescribesSteps`): what the
console's event log and the page's log say for it, in plain text.

The words come from the command as logged and its events (which carry the outcome: the colour
a box drew, the new money, who was kicked out, the next turn), never from the state: a log is
worded the same however far back it is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.gallerist.rules.scoring import CATEGORY_WORDS
from referee.ruleset import Event

_END = {"box_office_empty": "the box office is empty", "celebrities": "two celebrities",
        "bag_empty": "the bag is empty"}
_BACK = {"gallery": "back to the gallery", "desk": "back to a desk",
         "removed": "out of the game"}


def _kind(kind: object) -> str:
    return {"tickets": "moving visitors with tickets", "contract_bonus": "a contract's bonus",
            "location": "a location action paid in influence", "executive":
            "an executive action", "pass": "a pass"}.get(str(kind), str(kind).replace("_", " "))


def _command_words(c: Mapping[str, Any], events: Sequence[Event]) -> str:
    cmd, who = c.get("cmd"), c.get("player")
    first = {e["type"]: e for e in reversed(events)}
    if cmd == "new_game":
        started = first.get("game_started", {})
        names = [p["name"] for p in started.get("players", [])]
        how = "drawn by the box" if started.get("start_drawn") else "named"
        return (f"New game: {', '.join(names)}; {started.get('start_player')} starts "
                f"({how})")
    if cmd == "check":
        return f"Setup step done: {c.get('item')}"
    if cmd == "place_start":
        tile = f", reputation tile {c['tile']}" if c.get("tile") else ""
        return f"{who} starts on {c.get('location')}{tile}"
    if cmd == "move":
        left = c.get("leave_assistant")
        moved = first.get("moved", {})
        leave = ("" if left is None else f", leaving an assistant from a desk on "
                 f"{moved.get('from')}" if left == "desk" else
                 f", bringing the assistant from {left} to {moved.get('from')}")
        return f"{who} moves to {c.get('to')}{leave}"
    if cmd == "location_action":
        return f"{who} takes the location action"
    if cmd == "executive":
        return f"{who}: executive action, {_kind(c.get('kind'))}"
    if cmd == "end_turn":
        return f"{who} ends the turn"
    if cmd == "kickout_action":
        e = first.get("kickout_action", {})
        infl = (f" (influence {e['influence_from']} → {e['influence']})"
                if e.get("influence") is not None else "")
        backs = e.get("pieces") or [{"piece": e.get("piece"), "returned": e.get("returned")}]
        goes = " and ".join(f"the {b['piece']} goes {_BACK.get(str(b['returned']), '')}"
                            for b in backs)
        return f"{who}, kicked out of {e.get('location')}: {_kind(c.get('kind'))}{infl}; {goes}"
    if cmd == "intermediate":
        e = first.get("intermediate", {})
        ben = e.get("benefit") or {}
        gets = " and ".join(f"{v} {k}" for k, v in ben.items() if v) or "nothing"
        who_q = ", ".join(e.get("qualifying") or []) or "nobody"
        return f"Intermediate scoring, goal tile {c.get('tile')}: {who_q} qualif" + (
            "ies" if len(e.get("qualifying") or []) == 1 else "y") + f" ({gets} each)"
    if cmd == "take_ticket":
        e = first.get("ticket", {})
        return f"{who} takes a {c.get('colour')} ticket ({e.get('left')} left)"
    if cmd == "draw_visitor":
        e = first.get("visitor_drawn", {})
        by = "the box draws" if e.get("source") == "box" else "drawn by hand:"
        colour = e.get("colour")
        what = f"a {colour} visitor" if colour else "a visitor"
        head = f"{who}: " if who else ""
        # (`left` counts the drawn colour in a bag known by colour, else the whole bag)
        left = (f" ({e.get('left')} {colour} left)" if e.get("source") == "box"
                else "" if colour else f" ({e.get('left')} left)")
        return f"{head}{by} {what} from the bag{left}"
    if cmd == "visitor":
        where = "into" if c.get("to") == "gallery" else "out of"
        return f"{who}: a {c.get('colour')} visitor {where} the gallery"
    if cmd == "hire":
        return f"{who} hires an assistant (to a desk)"
    if cmd == "market":
        paid = f", paid {c['cost']}" if c.get("cost") else ""
        return (f"{who}: an assistant to the market, column {c.get('column')}, "
                f"{c.get('row')} row{paid}")
    if cmd == "discover":
        e = first.get("discovered", {})
        by = f"{who} discovers" if who else "Face up:"
        return f"{by} {c.get('artist')} (fame {e.get('fame')})"
    if cmd == "commission":
        return f"{who} commissions a work by {c.get('artist')}"
    if cmd == "fame":
        e = first.get("fame", {})
        star = f"; {c.get('artist')} is a celebrity, {c.get('by')} gets 5 money" if (
            "celebrity" in first) else ""
        return (f"{c.get('by')}: {c.get('artist')}'s fame {e.get('from')} → "
                f"{e.get('fame')}{star}")
    if cmd == "acquire":
        return f"{who} acquires a work by {c.get('artist')} for {c.get('cost') or 0}"
    if cmd == "sell":
        e = first.get("sold", {})
        return f"{who} sells the work by {c.get('artist')} for {e.get('money')}"
    if cmd == "money":
        e = first.get("money", {})
        delta = int(c.get("delta") or 0)
        how = f"receives {delta}" if delta >= 0 else f"pays {-delta}"
        why = c.get("reason")  # (the table's words; none: a change entered before reasons)
        return f"{who} {how} money (now {e.get('money')})" + (f": {why}" if why else "")
    if cmd == "reputation_tile":
        label = c.get("tile")
        return f"{who} takes " + (f"reputation tile {label}" if label else "a reputation tile")
    if cmd == "influence":
        e = first.get("influence", {})
        how = "spends" if c.get("reason") == "spend" else "gains"
        return f"{who} {how} influence: {e.get('from')} → {e.get('to')}"
    if cmd == "score":
        words = CATEGORY_WORDS.get(str(c.get("category")), str(c.get("category")))
        return f"{who}: {words}, {c.get('money')} money entered"
    if cmd == "auction_pick":
        e = first.get("auction_pick", {})
        return (f"{who} picks the renowned {c.get('easel')} work, worth {e.get('value')}, "
                f"counted as {c.get('counts_as')}")
    if cmd == "final_scoring":
        e = first.get("game_over", {})
        totals = ", ".join(f"{n} {t}" for n, t in (e.get("totals") or {}).items())
        won = list(e.get("winners") or [])
        verb = "wins" if len(won) == 1 else "share the win"
        return f"Final scoring: {' and '.join(won)} {verb} ({totals})"
    if cmd == "undo":
        undone = next((e for e in events if e.get("type") == "undone"), {})
        what = _UNDONE.get(str(undone.get("cmd")), "a step")
        # (as The A.R.T. Project says it: the step, and what it was)
        return (f"Undone: step {c['undoes']} ({what})" if c.get("undoes")
                else f"Undone: {what}")
    return str(cmd).replace("_", " ")


# what an undo took back, by the command it undid (the `undone` event names only that)
_UNDONE = {
    "new_game": "the new game", "check": "a setup check", "place_start": "a starting place",
    "move": "a move", "location_action": "a location action", "end_turn": "the end of a turn",
    "executive": "an executive action", "kickout_action": "a kicked-out action",
    "intermediate": "an intermediate scoring", "take_ticket": "a ticket taken",
    "draw_visitor": "a visitor drawn from the bag", "visitor": "a visitor moved",
    "hire": "an assistant hired", "market": "an assistant sent to the market",
    "discover": "an artist discovered", "commission": "a commission", "fame": "a fame change",
    "acquire": "a work acquired", "sell": "a work sold", "money": "a money change",
    "influence": "an influence change", "score": "a score entered",
    "auction_pick": "an auction pick", "final_scoring": "the final scoring",
    "reveal": "the seed revealed",
}


def _follow_words(c: Mapping[str, Any], events: Sequence[Event]) -> list[str]:
    """What followed the step: pieces kicked out, the end triggered, the next turn."""
    out = []
    for e in events:
        kind = e["type"]
        if kind == "kicked_out":
            back = e.get("returned")
            out.append(f"{e['player']}'s {e['piece']} is kicked out of {e['location']}"
                       + (f", {_BACK.get(str(back), back)}" if back else ""))
        elif kind == "celebrity" and c.get("cmd") != "fame":
            out.append(f"{e['artist']} is a celebrity")
        elif kind == "end_triggered":
            why = " and ".join(_END.get(x, x) for x in e["conditions"])
            out.append(f"the end is triggered ({why}): round {e['final_round']} is the last")
        elif kind == "turn_started":
            out.append(f"round {e['round']}, {e['player']}'s turn"
                       + (" (the final round)" if e.get("final_round") else ""))
        elif kind == "final_scoring_started":
            out.append("play is over: final scoring")
        elif kind == "after_turn" and e.get("queue"):
            out.append(f"{len(e['queue'])} after-turn step"
                       + ("s" if len(e["queue"]) != 1 else "") + " to settle")
    return out


def step_words(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """One accepted step, as the table would say it (plain text)."""
    return "; ".join([_command_words(command, events), *_follow_words(command, events)])
