"""Answering the team's pending decisions (`choose`): which set to uncover first (ART-15),
which island (ART-32), which artwork to collect first (ART-17) and Scandinavia's effects
(ART-31); then whatever the decision held up carries on."""

from __future__ import annotations

from referee.games.art_project import commands as c
from referee.games.art_project.rules import effects
from referee.games.art_project.rules.common import DECISION_RULE, Steps, refuse
from referee.games.art_project.rules.mission import place_set, settle_clues, uncover
from referee.games.art_project.rules.phases import collect, finish_movement
from referee.games.art_project.state import ArtState
from referee.ruleset import Event


def choose(s: ArtState, cmd: c.Choose) -> list[Event]:
    if not s.pending:
        raise refuse("nothing_to_choose", "ART-9", "No decision is waiting for the team.")
    p = s.pending[0]
    if cmd.choice not in p.options:
        raise refuse("bad_choice", DECISION_RULE.get(p.decision, "ART-9"),
                     f"Choose one of {', '.join(p.options)}, not {cmd.choice!r}.")
    steps = Steps(s)
    steps.add({"type": "pending", "decisions": []})
    if p.decision == "uncover_island":
        steps.add({"type": "uncovered", "symbol": p.symbol, "city": cmd.choice})
        settle_clues(steps, p.chain or "")
    elif p.decision == "uncover_order":
        if not uncover(steps, cmd.choice, p.chain or ""):
            settle_clues(steps, p.chain or "")
    elif p.decision == "clue_set":  # minimal_set: the cards the team named (ART-15)
        if not place_set(steps, p.symbol or "", p.chain or "", cmd.choice.split("+")):
            settle_clues(steps, p.chain or "")
    elif p.decision == "collect_order":
        collect(steps, cmd.choice, p.then)
    elif p.decision in effects.DECISIONS:
        effects.resolve(steps, p, cmd.choice)
    if not steps.over and not steps.state.pending and p.then == "end_of_movement":
        finish_movement(steps)
    return steps.events
