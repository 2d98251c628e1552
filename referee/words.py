"""A logged step in words, for every front end at once (issue 26: the page's log and the
console's are one describer's words).

`step_words` is what a front end calls: the game's own words for the step
(`referee.ruleset.DescribesSteps`), or the command as sent for a game without them, followed
by the words of the core's own events in the step (a seed revealed, kept dice dropped, ...).
Plain text: a front end escapes it for its own markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.ruleset import DescribesSteps, Event

_SKIPPED = ("cmd", "player", "roll", "commitment", "rolls", "catalog", "rules")


def plain(command: Mapping[str, Any]) -> str:
    """A logged command in a line, for a game that does not word its steps: who, what,
    and the die it carried."""
    cmd = str(command.get("cmd", "?")).replace("_", " ")
    who = command.get("player")
    parts = []
    for key, value in command.items():
        if key in _SKIPPED:
            continue
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            parts.append(f"{key.replace('_', ' ')} {value}")
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            parts.append(f"{key.replace('_', ' ')} {', '.join(value)}")
    roll = command.get("roll")
    if isinstance(roll, Mapping) and "value" in roll:
        parts.append(f"{roll.get('die')} {roll['value']} ({roll.get('source')})")
    head = f"{who}: {cmd}" if who else cmd
    return head + (f" — {'; '.join(parts)}" if parts else "")


def core_words(events: Sequence[Event]) -> list[str]:
    """The core's own events of a step, in words (none for most steps)."""
    said = []
    for event in events:
        if event.get("type") == "seed_revealed":
            said.append("dice seed revealed: every roll can be checked")
    return said


def step_words(ruleset: Any, command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """One accepted step in words: the game's, then the core's."""
    own = (ruleset.step_words(command, events) if isinstance(ruleset, DescribesSteps)
           else plain(command))
    return "; ".join([own, *core_words(events)])
