"""The clock (GAL-5..9, 14, 15): a turn's move, location and executive actions, the end of a
turn and its after-turn steps (intermediate scorings, kicked-out actions)."""

from __future__ import annotations

from dataclasses import replace

from referee.errors import BadRequest
from referee.games.gallerist.commands import Command
from referee.games.gallerist.evolve import evolve
from referee.games.gallerist.rules.common import (
    MAX_INFLUENCE,
    in_play,
    intermediate_queue,
    money_cap,
    player_named,
    refuse,
    settle,
    turn_command,
    waiting_words,
)
from referee.games.gallerist.state import GALLERY, KICKED, Pending, Player, State
from referee.ruleset import Event

EXECUTIVE = ("tickets", "contract_bonus")
EXECUTIVE_WORDS = {"tickets": "moved visitors with tickets", "contract_bonus": "used a "
                   "contract's bonus"}
KICKOUT_KINDS = ("location", "executive", "pass")


def desk_back(s: State, p: Player) -> str | None:
    """Where a kicked-out assistant goes: a free desk, else out of the game (GAL-8); None
    when the catalog does not say how many desks a board has (the table says)."""
    if s.catalog.desks is None:
        return None
    return "desk" if p.desks < s.catalog.desks else "removed"


def move(s: State, c: Command) -> list[Event]:
    name = turn_command(s, c)
    p = s.player(name)
    if s.turn.moved:
        refuse(f"{name} has moved this turn already (one move a turn).", "already_moved",
               "GAL-6")
    to = c.get("to")
    if to not in s.catalog.locations:
        refuse(f"No location {to!r}; the locations are {', '.join(s.catalog.locations)}.",
               "unknown_location", "GAL-6")
    if p.gallerist == to:
        refuse(f"{name}'s gallerist is on {to} and must move to a different location.",
               "must_move_elsewhere", "GAL-6")
    leave = c.get("leave_assistant")
    if leave not in (None, "desk", *s.catalog.locations):
        refuse(f"No location {leave!r} to leave an assistant from; say \"desk\" or one of "
               f"{', '.join(s.catalog.locations)}.", "unknown_location", "GAL-6")
    if leave is not None:
        if p.gallerist in (GALLERY, KICKED, None):
            refuse(f"{name}'s gallerist comes from the gallery, so there is no space to leave "
                   "an assistant on.", "no_assistant", "GAL-6")
        if leave == "desk" and p.desks == 0:
            refuse(f"{name} has no assistant on a desk to leave behind.", "no_assistant",
                   "GAL-6")
        if leave != "desk" and leave not in p.locations:
            refuse(f"{name} has no assistant on {leave!r} to bring; leave one from a desk or "
                   f"from {', '.join(sorted(set(p.locations))) or '(none on the board)'}.",
                   "no_assistant", "GAL-6")
    events: list[Event] = [{"type": "moved", "player": name, "from": p.gallerist, "to": to,
                            "leave_assistant": leave}]
    order = s.seats_from(name, after=True)
    after = s
    for other, piece in sorted(s.occupants(to), key=lambda o: order.index(o[0])):
        if other == name:
            continue
        kick: Event = {"type": "kicked_out", "player": other, "piece": piece, "location": to}
        if s.in_final_round:  # no kicked-out actions: the piece goes back at once (GAL-15)
            kick["returned"] = (GALLERY if piece == "gallerist"
                                else desk_back(after, after.player(other)))
            after = evolve(after, kick)  # a second assistant finds the desk the first took
        events.append(kick)
    return settle(s, events)


def location_action(s: State, c: Command) -> list[Event]:
    name = turn_command(s, c)
    if not s.turn.moved:
        refuse(f"{name} moves the gallerist first, then takes that location's action.",
               "must_move", "GAL-6")
    if s.turn.location_action:
        refuse(f"{name} has taken this turn's location action already.",
               "one_location_action", "GAL-6")
    return settle(s, [{"type": "location_action", "player": name}])


def executive(s: State, c: Command) -> list[Event]:
    name = turn_command(s, c)
    kind = c.get("kind")
    if kind not in EXECUTIVE:
        raise BadRequest(f"'kind' must be one of {', '.join(EXECUTIVE)}, not {kind!r}",
                         rule="GAL-7")
    if s.turn.executive is not None:
        done = EXECUTIVE_WORDS.get(s.turn.executive, "one")
        refuse(f"{name} has taken this turn's executive action already ({done}).",
               "one_executive_action", "GAL-7")
    return settle(s, [{"type": "executive", "player": name, "kind": kind}])


def kickout_queue(s: State, mover: str) -> list[Pending]:
    start = mover if s.rules.kickout_order == "seat_after_mover" else (
        s.start_player or mover)
    order = s.seats_from(start, after=s.rules.kickout_order == "seat_after_mover")
    kicked = sorted(s.turn.kicked, key=lambda k: order.index(k[0]))
    if s.in_final_round:  # no actions, only where an assistant goes: one question a piece
        return [Pending("kickout", player=who, piece=piece, location=where)
                for who, piece, where in kicked]
    # one kicked-out action per kicked-out player per move; all its pieces go back after it
    pieces: dict[str, list[str]] = {}
    where_from: dict[str, str] = {}
    for who, piece, where in kicked:
        pieces.setdefault(who, []).append(piece)
        where_from.setdefault(who, where)
    return [Pending("kickout", player=who, piece=mine[0], location=where_from[who],
                    pieces=tuple(mine)) for who, mine in pieces.items()]


def end_turn(s: State, c: Command) -> list[Event]:
    name = turn_command(s, c)
    if not s.turn.location_action:
        refuse(f"{name} owes this turn's location action"
               + ("" if s.turn.moved else " (and has not moved yet)") + ".",
               "location_action_owed", "GAL-6")
    stacks = tuple(st for st in s.turn.emptied if st not in s.scored_stacks)
    scorings, kickouts = intermediate_queue(s, stacks), kickout_queue(s, name)
    queue = (scorings + kickouts if s.rules.intermediate_timing == "before_kickout"
             else kickouts + scorings)
    return settle(s, [{"type": "after_turn", "player": name,
                       "queue": [q.to_json() for q in queue], "stacks": list(stacks)}])


def _previous_icon(s: State, p: Player) -> int:
    icons = s.catalog.fame_icons
    below = [i for i in icons if i < p.influence or (
        s.rules.previous_icon == "at_or_below" and i == p.influence)]
    if not below:
        refuse(f"{p.name}'s influence marker ({p.influence}) has no fame icon below it, so the "
               "kicked-out location action cannot be paid for.", "no_fame_icon_below", "GAL-9")
    return max(below)


def kickout_action(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    name = player_named(s, c.get("player"))
    kind = c.get("kind")
    if kind not in KICKOUT_KINDS:
        raise BadRequest(f"'kind' must be one of {', '.join(KICKOUT_KINDS)}, not {kind!r}",
                         rule="GAL-8")
    mine = [q for q in s.queue if q.decision == "kickout" and q.player == name]
    if s.in_final_round and (kind != "pass" or not mine):
        # (a pass is taken only to say where a piece goes when the catalog cannot)
        refuse("In the final round players cannot take kicked-out actions; a kicked-out "
               "piece goes back at once.", "no_kickout_final_round", "GAL-15")
    if not mine:
        refuse(f"{name} has no kicked-out action due.", "not_kicked_out", "GAL-8")
    if s.queue[0] is not mine[0]:
        refuse(f"First {waiting_words(s.queue[0])}.", "decision_pending", "GAL-5")
    due, p = mine[0], s.player(name)
    influence = c.get("influence")
    if kind != "location" and influence is not None:
        raise BadRequest("'influence' goes only with kind \"location\"", rule="GAL-9")
    new = None
    if kind == "location":
        if s.catalog.fame_icons:
            new = _previous_icon(s, p)
            if influence is not None and influence != new:
                refuse(f"The catalog's fame icons put {name}'s marker on {new}, not "
                       f"{influence}.", "contradicts_catalog", "GAL-25")
        elif influence is None:
            refuse(f"The catalog has no fame icons: say where {name}'s influence marker goes "
                   f"(\"influence\", below {p.influence}).", "value_needed", "GAL-25")
        else:
            lowest_ok = (influence < p.influence or (
                s.rules.previous_icon == "at_or_below" and influence == p.influence))
            if not lowest_ok:
                refuse(f"A kicked-out location action moves {name}'s influence down from "
                       f"{p.influence}, not to {influence}.", "influence_not_lower", "GAL-9")
            new = influence
    backs = _pieces_back(s, p, due.pieces or (due.piece or "gallerist",), c.get("desk"))
    event: Event = {"type": "kickout_action", "player": name, "kind": kind,
                    "piece": due.piece, "location": due.location, "influence": new,
                    "influence_from": p.influence if new is not None else None,
                    "source": None if new is None else (
                        "computed" if s.catalog.fame_icons else "table"),
                    "returned": backs[0]["returned"]}
    if len(backs) > 1:
        event["pieces"] = backs
    return settle(s, [event], resolved=True)


def _pieces_back(s: State, p: Player, pieces: tuple[str, ...],
                 said: bool | None) -> list[dict[str, str]]:
    """Where each kicked-out piece goes after the action (GAL-8): a gallerist to its gallery,
    an assistant to a free desk (a second finds the desk the first took) or out of the game.
    Without desks in the catalog the table's `desk` answer holds for each assistant."""
    backs: list[dict[str, str]] = []
    desks = p.desks
    for piece in pieces:
        returned = GALLERY
        if piece == "assistant":
            known = desk_back(s, replace(p, desks=desks))
            if known is None and said is None:
                refuse(f"Is a desk free on {p.name}'s board? Send \"desk\": true or false "
                       "(the catalog does not say how many desks a board has).",
                       "value_needed", "GAL-8")
            asked = not any(b["piece"] == "assistant" for b in backs)  # `desk` names the first
            if asked and known is not None and said is not None and (known == "desk") != said:
                if said:
                    refuse(f"{p.name} has no empty desk (all {s.catalog.desks} are taken): "
                           "the assistant leaves the game.", "no_desk", "GAL-8")
                refuse(f"{p.name} has an empty desk, so the assistant goes back to it.",
                       "contradicts_catalog", "GAL-25")
            returned = known or ("desk" if said else "removed")
            desks += returned == "desk"
        backs.append({"piece": piece, "returned": returned})
    return backs


def intermediate(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    due = [q for q in s.queue if q.decision == "intermediate"]
    if not due:
        refuse("No intermediate scoring is due (one comes at the end of the turn in which a "
               "ticket stack runs out).", "no_scoring_due", "GAL-14")
    if s.queue[0] is not due[0]:
        refuse(f"First {waiting_words(s.queue[0])}.", "decision_pending", "GAL-14")
    tile = c.get("tile")
    if tile not in (1, 2, 3):
        refuse(f"The goal tiles are 1, 2 and 3, not {tile!r}.", "unknown_tile", "GAL-14")
    every = s.rules.intermediate_tiles == "all"
    if tile in (s.goals_this_scoring if every else s.goals_scored):
        refuse(f"Goal tile {tile} has been scored already"
               + (" in this scoring." if every else "; name one not yet scored."),
               "tile_scored", "GAL-14")
    qualifying = [player_named(s, n, "qualifying") for n in c.get("qualifying")]
    if len(set(qualifying)) != len(qualifying):
        raise BadRequest("'qualifying' names a player twice", rule="GAL-14")
    benefit = dict(c.get("benefit") or {})
    for name in qualifying:
        p = s.player(name)
        money_cap(name, p.money, p.money + benefit.get("money", 0))
        if p.influence + benefit.get("influence", 0) > MAX_INFLUENCE:
            refuse(f"The influence track goes up to {MAX_INFLUENCE} at most: {name}'s marker "
                   f"is on {p.influence}.", "influence_too_high", "GAL-9")
    complete = not every or len(s.goals_this_scoring) == 2
    return settle(s, [{"type": "intermediate", "tile": tile, "qualifying": qualifying,
                       "benefit": benefit, "stack": due[0].stack, "complete": complete}],
                  resolved=complete)
