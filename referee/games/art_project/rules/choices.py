"""Answering the team's pending decisions (`choose`): which set to uncover first and, by
house rule, which cards make it (ART-15),
which island (ART-32), which artwork to collect first (ART-17) and Scandinavia's effects
(ART-31); then whatever the decision held up carries on."""

from __future__ import annotations

from referee.games.art_project import commands as c
from referee.games.art_project.rules import effects
from referee.games.art_project.rules.common import DECISION_RULE, Steps, refuse
from referee.games.art_project.rules.mission import place, settle_clues, uncover
from referee.games.art_project.rules.phases import collect, finish_movement
from referee.games.art_project.state import ArtState
from referee.games.art_project.words import card_no, set_said
from referee.ruleset import Event


def choose(s: ArtState, cmd: c.Choose) -> list[Event]:
    if not s.pending:
        raise refuse("nothing_to_choose", "ART-9", "No decision is waiting for the team.")
    p = s.pending[0]
    choice = cmd.choice
    if p.decision == "clue_set":
        choice = _clue_set(s, p.options, p.symbol or "", choice)
    if choice not in p.options:
        raise refuse("bad_choice", DECISION_RULE.get(p.decision, "ART-9"),
                     f"Choose one of {', '.join(p.options)}, not {cmd.choice!r}.")
    steps = Steps(s)
    steps.add({"type": "pending", "decisions": []})
    if p.decision == "clue_set":
        if not place(steps, p.symbol or "", p.chain or "", choice.split("+")):
            settle_clues(steps, p.chain or "")
    elif p.decision == "uncover_island":
        steps.add({"type": "uncovered", "symbol": p.symbol, "city": cmd.choice})
        settle_clues(steps, p.chain or "")
    elif p.decision == "uncover_order":
        if not uncover(steps, cmd.choice, p.chain or ""):
            settle_clues(steps, p.chain or "")
    elif p.decision == "collect_order":
        collect(steps, cmd.choice, p.then)
    elif p.decision in effects.DECISIONS:
        effects.resolve(steps, p, cmd.choice)
    if not steps.over and not steps.state.pending and p.then == "end_of_movement":
        finish_movement(steps)
    return steps.events


def _clue_set(s: ArtState, options: tuple[str, ...], symbol: str, choice: str) -> str:
    """The cards named for a set, in any order, as the option that names them (ART-15)."""
    named = sorted(x for x in choice.replace(" ", "").split("+") if x)
    for option in options:
        if sorted(option.split("+")) == named:
            return option
    ids = {x.id: x for x in s.chain}
    n = sum(ids[x].symbols.count(symbol) for x in named if x in ids)
    unknown = [x for x in named if x not in ids]
    why = (f"{'card' if len(unknown) == 1 else 'cards'} {', '.join(map(card_no, unknown))} "
           f"{'is' if len(unknown) == 1 else 'are'} not in the chain"
           if unknown else f"those cards bear {symbol} {n} time{'s' if n != 1 else ''}")
    raise refuse("bad_choice", "ART-15", f"Name clue cards bearing {symbol} exactly 3 times "
                 f"({' or '.join(set_said(o) for o in options)}): {why}.")
