"""What the rules share: refusals, whose turn, and what follows every accepted step (the end
trigger, GAL-15; the after-turn queue and the next turn, GAL-5)."""

from __future__ import annotations

from typing import NoReturn

from referee.errors import GameOver, RuleViolation
from referee.games.gallerist.commands import Command
from referee.games.gallerist.evolve import evolve, fold
from referee.games.gallerist.state import Pending, State
from referee.ruleset import Event

MAX_MONEY = 999  # a player's money, a sale, a cost or a score: far beyond any real game
MARKET_REPUTATION_TILES = 12  # on the international market's upper rows (GAL-2: "12 in all")
MAX_INFLUENCE = 99  # the influence track (its length is MISSING: far beyond any edition)


def refuse(message: str, code: str, rule: str | None) -> NoReturn:
    raise RuleViolation(message, code=code, rule=rule)


def money_cap(name: str, have: int, new: int) -> None:
    """Money never goes above `MAX_MONEY` (a figure the table can reach; a typing slip like
    9007199254740991 is refused, saying the most it can be)."""
    if new > MAX_MONEY:
        refuse(f"Money goes up to {MAX_MONEY} at most: {name} has {have}, so at most "
               f"{MAX_MONEY - have} more, not {new - have}.", "money_too_high", "GAL-10")


def figure_cap(value: int, what: str) -> None:
    """An entered amount (a score, a value, a cost) is at most `MAX_MONEY`."""
    if value > MAX_MONEY:
        refuse(f"{what} is at most {MAX_MONEY}, not {value}.", "money_too_high", "GAL-10")


def player_named(s: State, name: object, field: str = "player") -> str:
    if not s.has(name):
        refuse(f"No player called {name!r} ({field}); the players are "
               f"{', '.join(s.names)}.", "unknown_player", "GAL-1")
    assert isinstance(name, str)
    return name


def in_game(s: State, c: Command) -> None:
    """Refuse anything before a game or after it (every command but new_game)."""
    if s.over:
        raise GameOver("The game is over; its result stands.", rule="GAL-24")
    if s.phase == "no_game":
        refuse("No game is running: start one with new_game.", "no_game", None)


# what each command records, for refusals that name one (never its protocol name)
COMMAND_WORDS = {
    "check": "a setup tick", "place_start": "a starting place", "move": "a move",
    "location_action": "a location action", "end_turn": "the end of a turn",
    "executive": "an executive action", "kickout_action": "a kicked-out action",
    "intermediate": "an intermediate scoring", "take_ticket": "a ticket",
    "draw_visitor": "a visitor drawn from the bag", "visitor": "a visitor moved",
    "hire": "an assistant hired", "market": "a market placement",
    "discover": "an artist discovered", "commission": "a commission",
    "fame": "an artist's fame", "acquire": "a work acquired", "sell": "a work sold",
    "money": "a money change", "influence": "an influence change", "score": "a score",
    "reputation_tile": "a reputation tile taken",
    "auction_pick": "an auction pick", "final_scoring": "the final scoring"}


def command_words(name: str) -> str:
    return COMMAND_WORDS.get(name, name.replace("_", " "))


def in_play(s: State, c: Command, *, setup_too: bool = False) -> None:
    """A recording command: only while the game is played (GAL-15)."""
    in_game(s, c)
    if s.phase == "final_scoring":
        refuse(f"Final scoring has begun: only scores, auction picks and the final scoring "
               f"are taken now, not {command_words(c.name)}. Undo first if play was not "
               "over.", "final_scoring", "GAL-15")
    if s.phase == "setup" and not setup_too:
        refuse(f"Setup is not finished: {command_words(c.name)} comes once every starting "
               "place is taken.", "setup_not_finished", "GAL-4")


def waiting_words(p: Pending) -> str:
    if p.decision == "kickout":
        pieces = " and ".join(p.pieces) if p.pieces else p.piece
        return f"{p.player}'s kicked-out action ({pieces} kicked out of {p.location})"
    if p.decision == "intermediate":
        return f"the intermediate scoring for the {p.stack} tickets"
    return f"{p.decision} for {p.player or 'the table'}"


def turn_command(s: State, c: Command) -> str:
    """`move`, `location_action`, `executive`, `end_turn`: the current player's, in play."""
    in_play(s, c)
    name = player_named(s, c.get("player"))
    if name != s.current:
        refuse(f"It is {s.current}'s turn, not {name}'s.", "not_your_turn", "GAL-5")
    if s.turn.ended:
        refuse(f"{name}'s turn is over; first {waiting_words(s.queue[0])}.",
               "decision_pending", "GAL-5")
    return name


def end_conditions(s: State) -> list[str]:
    out = []
    if all(n == 0 for n in s.tickets.values()):
        out.append("box_office_empty")
    if s.celebrities >= 2:
        out.append("celebrities")
    if s.bag_left == 0:
        out.append("bag_empty")
    return out


def intermediate_queue(s: State, stacks: tuple[str, ...]) -> list[Pending]:
    """The scorings due for stacks that ran out (GAL-14): one per stack, or one for all."""
    if not stacks:
        return []
    queued = sum(q.decision == "intermediate" for q in s.queue)
    if s.rules.intermediate_tiles == "one_named":  # each goal tile is scored once at most
        room = 3 - len(s.goals_scored) - queued
        stacks = stacks[:max(room, 0)]
    if s.rules.intermediate_per_stack:
        return [Pending("intermediate", stack=st) for st in stacks]
    return [Pending("intermediate", stack=stacks[0])] if stacks else []


def next_turn(s: State) -> list[Event]:
    """The turn after the current one, or final scoring after the final round (GAL-5, 15)."""
    if s.turn_no + 1 < len(s.players):
        nxt = s.seats_from(s.current or s.names[0], after=True)[0]
        return [{"type": "turn_started", "player": nxt, "round": s.round,
                 "final_round": s.in_final_round}]
    if s.in_final_round:
        return [{"type": "final_scoring_started", "round": s.round}]
    start = s.start_player or s.names[0]
    if s.rules.start_player == "rotating":
        start = s.seats_from(start, after=True)[0]
    new = s.round + 1
    return [{"type": "turn_started", "player": start, "round": new, "start_player": start,
             "final_round": new == s.final_round}]


def settle(before: State, events: list[Event], *, resolved: bool = False) -> list[Event]:
    """The step's events and whatever follows them: the end trigger (checked after every
    change, GAL-15), stacks emptied during after-turn steps (queued when a step there is
    resolved, GAL-14), and the next turn once the after-turn queue is empty (GAL-5)."""
    out = list(events)
    s = fold(before, events)

    def add(e: Event) -> None:
        nonlocal s
        out.append(e)
        s = evolve(s, e)

    if s.phase != "play":
        return out
    if s.end_triggered is None:
        met = end_conditions(s)
        if len(met) >= 2:
            add({"type": "end_triggered", "round": s.round, "conditions": met,
                 "final_round": s.round + 1})
    if s.turn.ended and resolved and s.turn.emptied:
        stacks = tuple(st for st in s.turn.emptied if st not in s.scored_stacks)
        queue = intermediate_queue(s, stacks)
        add({"type": "queued", "queue": [q.to_json() for q in queue], "stacks": list(stacks),
             "front": s.rules.intermediate_timing == "before_kickout"})
    if s.turn.ended and not s.queue:
        for e in next_turn(s):
            add(e)
    return out
