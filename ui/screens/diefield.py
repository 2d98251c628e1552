"""A field for the value of a real die, and the line under it that says, before Enter, what
Enter will do: record the typed value, let the box roll (the field is empty), or nothing yet
(what is typed is not a face of the die, and the line says what is wanted).

Nothing typed is thrown away: a letter stays in the field, where it can be seen and fixed,
rather than vanish and leave an empty field whose Enter would roll electronically.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.widgets import Input, Static

from referee.dice import Roll


@dataclass(frozen=True)
class Reading:
    """What a die field holds: a real roll, nothing (the box rolls), or a problem."""

    roll: Roll | None = None
    problem: str = ""

    @property
    def box_rolls(self) -> bool:
        return self.roll is None and not self.problem


def read_die(text: str, die: str, low: int, high: int, *, empty_rolls: bool = True) -> Reading:
    """Read a typed die value. `low`..`high` are the faces the die shows."""
    text = text.strip()
    wanted = f"type {low}–{high}" + (", or leave empty for the box to roll" if empty_rolls
                                      else "")
    if not text:
        return Reading() if empty_rolls else Reading(problem=wanted)
    if not text.isdigit():
        return Reading(problem=f"{text!r} is not a number: {wanted}")
    value = int(text)
    if not low <= value <= high:
        return Reading(problem=f"a {die} shows {low}–{high}, not {value}: {wanted}")
    return Reading(roll=Roll.physical(die, value))


def reading_hint(reading: Reading, die: str) -> str:
    """The line under a die field: what Enter does now."""
    if reading.problem:
        return f"✗ {reading.problem}"
    if reading.roll is None:
        return f"Empty: Enter here lets the box roll the {die} (or type the real roll)"
    return f"Enter here records the real {die} roll {reading.roll.value}"


class DieField(Input):
    """A real die's value; `#<id>-hint` (a `DieHint` placed by the screen) says what Enter
    will do with it."""

    def __init__(self, die: str, low: int, high: int, *, id: str,
                 empty_rolls: bool = True, placeholder: str = "") -> None:
        super().__init__(placeholder=placeholder or f"real {die} roll ({low}-{high})", id=id,
                         max_length=len(str(high)) + 2, compact=True, select_on_focus=False)
        self.die, self.low, self.high, self.empty_rolls = die, low, high, empty_rolls

    @property
    def reading(self) -> Reading:
        return read_die(self.value, self.die, self.low, self.high, empty_rolls=self.empty_rolls)

    def hint(self) -> str:
        return reading_hint(self.reading, self.die)


class DieHint(Static):
    """The line that says what Enter will do with a `DieField`."""

    def __init__(self, field: DieField, *, id: str) -> None:
        super().__init__(field.hint(), id=id, markup=False, classes="die-hint")
