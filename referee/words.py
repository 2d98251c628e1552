"""A logged step in words, for every front end at once (issue 26: the page's log and the
console's are one describer's words).

`step_words` is what a front end calls: the game's own words for the step
(`referee.ruleset.DescribesSteps`), or the command as sent for a game without them, followed
by the words of the core's own events in the step (a seed revealed, kept dice dropped, ...).
Plain text: a front end escapes it for its own markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.dice import Roll
from referee.kept import stays
from referee.ruleset import DescribesSteps, Event, NamesDice

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


def owner_words(ruleset: Any, player: str | None, die_id: object) -> str:
    """Whose a die is, in words: its player, or for a die no player rolls the game's words
    for it (`NamesDice`: "ally die 1"), never its id as such."""
    if player:
        return player
    if die_id and isinstance(ruleset, NamesDice):
        return ruleset.die_owner(str(die_id))
    return str(die_id).replace("_", " ") if die_id else "the table"


def _die_name(event: Mapping[str, Any], ruleset: Any = None) -> str:
    who = owner_words(ruleset, event.get("player"), event.get("id"))
    return f"{who}'s {event.get('die') or 'die'}"


def core_words(events: Sequence[Event], ruleset: Any = None) -> list[str]:
    """The core's own events of a step, in words (none for most steps): a typed die given
    another value after an undo ("corrected: Ann's d6 4 → 6"), the seed revealed."""
    said = []
    fixed = [e for e in events if e.get("type") == "die_corrected"]
    if fixed:
        said.append("corrected: " + ", ".join(
            f"{_die_name(e, ruleset)} {e['was']} → {e['now']}" for e in fixed))
    for event in events:
        if event.get("type") == "seed_revealed":
            said.append("dice seed revealed: every roll can be checked")
    return said


def corrections(entries: Iterable[Any], ruleset: Any = None) -> list[str]:
    """Every die corrected after its result in the steps that stand (`entries`: log entries
    with `seq`, `events` and `undone`; a correction in an undone step was taken back with it),
    each as "Ben's d6 4 → 6 (step 14)". `referee verify`, the page and the luck report say
    them alike: a correction is legal, and public."""
    return [f"{_die_name(e, ruleset)} {e.get('was')} → {e.get('now')} (step {entry.seq})"
            for entry in entries if not entry.undone
            for e in entry.events if e.get("type") == "die_corrected"]


def corrected(found: Sequence[str]) -> str:
    """`corrections` in one phrase ("" for none): "1 die corrected after its result: …"."""
    n = len(found)
    if not n:
        return ""
    return (f"{n} {'die' if n == 1 else 'dice'} corrected after {'its' if n == 1 else 'their'}"
            f" result: {', '.join(found)}")


def _step_dice(events: Sequence[Event]) -> tuple[list[Event], list[Event]]:
    """A step's dice as undo treats them: (those that stay on the table, those typed in)."""
    staying: list[Event] = []
    typed: list[Event] = []
    for e in events:
        if e.get("type") != "roll":
            continue
        roll = Roll(str(e.get("die")), int(e.get("value", 0)), str(e.get("source")),
                    via=e.get("via"), kept=bool(e.get("kept")))
        (staying if stays(roll) else typed).append(e)
    return staying, typed


def _values(dice: Sequence[Event]) -> str:
    return ", ".join(str(e["value"]) for e in dice if e.get("die") != "pick")


def undo_dice_words(events: Sequence[Event]) -> str | None:
    """What undoing a step does to its dice, in words, for any game (None: it rolled none).
    The rule it rests on, every game's: undo corrects a mis-entry and never chooses a result
    (docs/protocol.md, "Kept dice"). The dice the box rolled or the tray read stay on the
    table for the next roll of the same die; a typed die may be typed again, and a different
    value is logged as a correction. A card the box drew stays bound to its draw: the next
    draw gives it, and one from another deck is refused (`draw_bound`)."""
    staying, typed = _step_dice(events)
    said = []
    shown = _values(staying)
    if shown:
        said.append(f"The dice the box rolled or the tray read ({shown}) stay on the table: "
                    "the next roll of the same die gives them again.")
    if any(e.get("die") == "pick" for e in staying):
        said.append("The card the box drew stays on the table, bound to its draw: the next "
                    "draw gives it again, and a draw from another deck instead is refused "
                    "(seeing a card, then choosing again, is a choice).")
    if typed:
        said.append(f"Typed dice ({_values(typed)}) are not kept: type them again; a "
                    "different value is logged as a correction (\"corrected: 4 → 6\").")
    return " ".join(said) or None


def undo_dice_lines(events: Sequence[Event]) -> tuple[str, ...]:
    """`undo_dice_words` in a few short sentences for the box, whole (the box wraps them by
    words, `device.view.rows`): what stays on the table and what may be typed again."""
    staying, typed = _step_dice(events)
    lines = []
    shown = _values(staying)
    if shown:
        one = len([e for e in staying if e.get("die") != "pick"]) == 1
        lines.append(f"The die stays ({shown}): the next roll gives it again." if one else
                     f"The dice stay ({shown}): the next roll gives them again.")
    if any(e.get("die") == "pick" for e in staying):
        lines.append("The card stays: the next draw gives it, not another deck.")
    if typed:
        lines.append(f"Typed dice ({_values(typed)}): type them again; a change is logged.")
    return tuple(lines)


def step_words(ruleset: Any, command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """One accepted step in words: the game's, then the core's."""
    own = (ruleset.step_words(command, events) if isinstance(ruleset, DescribesSteps)
           else plain(command))
    return "; ".join([own, *core_words(events, ruleset)])
