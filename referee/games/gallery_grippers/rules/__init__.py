"""The rules of Gallery Grippers as pure functions: (state, command) -> events or a refusal.

`decide` never reads a clock or randomness: dice arrive inside the command. When a command
needs electronic dice that it does not carry, `decide` answers `NeedDice`; the session rolls
them and decides again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.rules import cards, obstacle, play, setup
from referee.games.gallery_grippers.rules.common import DieRequest, NeedDice
from referee.games.gallery_grippers.state import GameState

Decider = Callable[[GameState, Any], "list[Event] | NeedDice"]

DECIDERS: dict[type, Decider] = {
    c.NewGame: setup.new_game, c.Deal: setup.deal, c.TurnOrder: setup.turn_order,
    c.Tiebreak: setup.tiebreak, c.FreeRoll: play.free_roll, c.MoveRoll: play.move_roll,
    c.Move: play.move,
    c.Bypass: obstacle.bypass, c.Choose: obstacle.choose, c.Steal: play.steal,
    c.Sell: play.sell, c.Draw: cards.draw, c.Reup: cards.reup, c.Trade: play.trade,
    c.EndTurn: play.end_turn,
}


def decide(state: GameState, command: c.Command) -> list[Event] | NeedDice:
    """The events `command` produces in `state`, or `NeedDice`; raises `Refusal` if refused."""
    return DECIDERS[type(command)](state, command)


__all__ = ["DECIDERS", "DieRequest", "NeedDice", "decide"]
