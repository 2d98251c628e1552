"""`decide(state, command) -> events | NeedDice`: every Gallerist rule, pure (no clock, no
randomness); a refusal raises `Refusal` naming the GAL rule and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from referee.games.gallerist.commands import Command
from referee.games.gallerist.rules import clock, records, scoring, setup
from referee.games.gallerist.state import State
from referee.ruleset import Event, NeedDice

Rule = Callable[[State, Command], "list[Event] | NeedDice"]

RULES: dict[str, Rule] = {
    "new_game": setup.new_game, "check": setup.check,
    "place_start": setup.place_start,
    "move": clock.move, "location_action": clock.location_action,
    "executive": clock.executive, "end_turn": clock.end_turn,
    "kickout_action": clock.kickout_action, "intermediate": clock.intermediate,
    "take_ticket": records.take_ticket, "draw_visitor": records.draw_visitor,
    "visitor": records.visitor, "hire": records.hire, "market": records.market,
    "discover": records.discover, "commission": records.commission, "fame": records.fame,
    "acquire": records.acquire, "sell": records.sell, "money": records.money,
    "influence": records.influence, "reputation_tile": records.reputation_tile,
    "score": scoring.score, "auction_pick": scoring.auction_pick,
    "final_scoring": scoring.final_scoring,
}


def decide(state: State, command: Command) -> list[Event] | NeedDice:
    return RULES[command.name](state, command)
