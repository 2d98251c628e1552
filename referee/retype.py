"""What a typed die given another value after an undo changes, said before it is recorded
(issue 39: corrections are public).

A die typed in by hand may be undone and typed again with another value (a mistyped number
is fixed that way, `referee.kept`): the step that gives it is a correction (``die_corrected``).
Once the undone step's result has been shown, the table is asked first, naming what the new
value changes: "This changes Ben's d6 from 4 to 6. Battle in Film, led by Ann: the verdict
goes from not yet won to won. Record it?". What it changes is the ruleset's, never a front
end's: the undone step's events against the events the rules decide for the new value, both
described by the ruleset (`DescribesTable`: the step's verdict, each seat's figures) and its
`result`; where neither says anything, whether the choices open next differ
(`legal_actions`). Nothing here rolls, draws or records: `referee.session.Session.retype`
gathers the pieces and asks `preview`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.ruleset import DescribesTable, Event, Figure, Result, Ruleset

MOST = 4  # changes named; more are counted ("and 2 more")
NO_CHANGE = "the outcome does not change"
UNKNOWN = ("the box rolls the step's other dice, so what it changes is known only once "
           "they are rolled")


@dataclass(frozen=True, slots=True)
class Retype:
    """A correction about to be recorded: each die it changes ("Ben's d6 from 4 to 6") and
    what that changes, in the ruleset's words (none: the outcome does not change); `known`
    is False when the step leaves other dice to the box (not rolled before it is recorded)."""

    dice: tuple[str, ...]
    changes: tuple[str, ...] = ()
    known: bool = True

    @property
    def what(self) -> str:
        """What the correction changes, in one phrase."""
        if not self.known:
            return UNKNOWN
        return "; ".join(self.changes) if self.changes else NO_CHANGE

    def words(self) -> str:
        """The question, whole: "This changes Ben's d6 from 4 to 6: the outcome does not
        change. Record it?", or with what it changes: "This changes Ben's d6 from 4 to 6.
        Battle in Film, led by Ann: the verdict goes from not yet won to won. Record it?"."""
        dice = _listed(self.dice)
        if self.known and self.changes:
            what = self.what
            return f"This changes {dice}. {what[:1].upper()}{what[1:]}. Record it?"
        return f"This changes {dice}: {self.what}. Record it?"


def _listed(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def die_words(event: Mapping[str, Any]) -> str:
    """A ``die_corrected`` event as "Ben's d6 from 4 to 6"."""
    who = event.get("player") or event.get("id") or "the table"
    return f"{who}'s {event.get('die') or 'die'} from {event.get('was')} to {event.get('now')}"


def _title(title: str) -> str:
    """A verdict's title without its rule id ("Battle in Film, led by Ann (ART-22)")."""
    head, sep, tail = title.rpartition(" (")
    return head if sep and tail.endswith(")") and "-" in tail else title


def _verdict(ruleset: Ruleset, was: Sequence[Event], now: Sequence[Event]) -> list[str]:
    if not isinstance(ruleset, DescribesTable):
        return []
    before, after = ruleset.verdict(was), ruleset.verdict(now)
    if before is None or after is None or not before[1] or not after[1]:
        return []
    old, new = before[1][-1], after[1][-1]
    if old.value == new.value:
        return []
    return [f"{_title(after[0])}: the {new.label} goes from {old.value} to {new.value}"]


def _ending(r: Result) -> str:
    winners = list(r.get("winners") or [])
    who = f", {_listed(winners)} {'wins' if len(winners) == 1 else 'win'}" if winners else ""
    return f"{r.get('outcome')}{who}"


def _result(ruleset: Ruleset, was: Any, now: Any) -> list[str]:
    before, after = ruleset.result(was), ruleset.result(now)
    if before == after:
        return []
    if before is None:
        return [f"the game now ends there ({_ending(after)})"] if after is not None else []
    if after is None:
        return ["the game no longer ends there: it goes on"]
    return [f"the game's end goes from {_ending(before)} to {_ending(after)}"]


def _figures(figures: Sequence[Figure]) -> dict[str, str]:
    return {f.label: f.value for f in figures}


def _seats(ruleset: Ruleset, was: Any, now: Any) -> list[str]:
    if not isinstance(ruleset, DescribesTable):
        return []
    before = {s.name: s for s in ruleset.table(was)}
    said = []
    for seat in ruleset.table(now):
        old = before.get(seat.name)
        if old is None:
            continue
        if old.status != seat.status:
            said.append(f"{seat.name}: {seat.status}" if seat.status
                        else f"{seat.name} no longer {old.status}")
        figures = _figures(old.figures)
        for label, value in _figures(seat.figures).items():
            if label in figures and figures[label] != value:
                said.append(f"{seat.name}'s {label} from {figures[label]} to {value}")
    return said


def _next(ruleset: Ruleset, was: Any, now: Any) -> list[str]:
    """Where neither the verdict, the result nor a figure changes (a movement roll whose
    pawn the table moves next): the next step as the ruleset words it, or the choices it
    opens."""
    before, after = ruleset.state_json(was).get("next"), ruleset.state_json(now).get("next")
    if isinstance(after, str) and after and before != after:
        return [f"next: {after.rstrip('.')}"]
    players: list[str | None] = [None, *(s.name for s in ruleset.table(now))] \
        if isinstance(ruleset, DescribesTable) else [None]
    if any(ruleset.legal_actions(was, p) != ruleset.legal_actions(now, p) for p in players):
        return ["what can be done next changes"]
    return []


def preview(ruleset: Ruleset, fixed: Sequence[Event], *, was: Sequence[Event],
            now: Sequence[Event] | None, before: Any | None) -> Retype:
    """What recording the step `now` instead of the undone step `was` changes.

    Args:
        fixed: the ``die_corrected`` events the step would hold (`referee.kept.corrections`).
        was: the undone step's events (its result, as shown).
        now: the events the rules decide for the new value (None: the step leaves dice to
            the box, so they are not known before it is recorded).
        before: the state both steps apply to, when it is the same (the undone step was
            taken back and nothing else stands since); None: only the verdicts are compared.
    """
    dice = tuple(die_words(e) for e in fixed)
    if now is None:
        return Retype(dice, known=False)
    said = _verdict(ruleset, was, now)
    if before is not None:
        old, new = ruleset.fold(before, was), ruleset.fold(before, now)
        said += _result(ruleset, old, new)
        said += _seats(ruleset, old, new)
        if not said:
            said += _next(ruleset, old, new)
    if len(said) > MOST:
        said = [*said[:MOST], f"and {len(said) - MOST} more"]
    return Retype(dice, tuple(said))
