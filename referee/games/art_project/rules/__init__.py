"""The A.R.T. Project's rules as pure functions: (state, command) -> events, NeedDice or a
refusal naming its rule (ART-n). No clock, no randomness: dice arrive inside commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.games.art_project import commands as c
from referee.games.art_project.rules import battle, choices, mission, movement, phases, setup
from referee.games.art_project.rules.common import require_game
from referee.games.art_project.state import ArtState
from referee.ruleset import Event, NeedDice

Decider = Callable[[ArtState, Any], "list[Event] | NeedDice"]

DECIDERS: dict[type, Decider] = {
    c.NewGame: setup.new_game, c.Draw: mission.draw, c.ExtraDraw: mission.extra_draw,
    c.PlayCard: mission.play_card, c.Choose: choices.choose, c.Move: movement.move,
    c.UnlockAlly: movement.unlock_ally, c.GiveClue: movement.give_clue,
    c.Battle: battle.battle, c.Reroll: battle.reroll, c.Weapon: battle.weapon,
    c.Concede: battle.concede, c.EndPhase: phases.end_phase,
    c.PlaceAgents: setup.place_agents,
}


def decide(state: ArtState, command: Any) -> list[Event] | NeedDice:
    """The events `command` makes in `state`, or `NeedDice`; raises `Refusal` if refused."""
    if not isinstance(command, c.NewGame):
        require_game(state)
    return DECIDERS[type(command)](state, command)
