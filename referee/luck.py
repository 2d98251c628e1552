"""The luck report: how each player's dice fell, against a fair die (docs/web.md).

For every player and die, and physical and electronic rolls apart, the rolls of the game as it
stands (undone steps left out; a kept die, reused after an undo, counts once), their counts
per face against the counts a fair die would give, and a chi-square goodness-of-fit p-value.
A d100 is counted by its tens die (00-09, 10-19, ... 90-99, with 100 read as 00 in the 1-100
mode), so its ten bins are equally likely in both percentile modes and fill ten times faster.
Card draws (``pick``) are not dice and are left out.

Which rolls a step made is asked of the game's ruleset (`Ruleset.rolled`), never worked out
here. Pure: standard library only, no clock, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.ruleset import Ruleset

TABLE = "table"  # whose die it is when no player rolled it
SOURCES = ("electronic", "physical")
FEW = 5  # below this many expected rolls a face, the chi-square p-value means little


class Entry(Protocol):
    """A log entry as the session or the store has it."""

    @property
    def command(self) -> dict[str, Any]: ...

    @property
    def events(self) -> list[dict[str, Any]]: ...

    @property
    def undone(self) -> bool: ...


def faces(die: str) -> list[str]:
    """The bins a die's rolls are counted in, as labels."""
    if die == "d100":
        return [f"{t:02d}-{t + 9:02d}" for t in range(0, 100, 10)]
    sides = {"d6": 6, "d10": 10}[die]
    return [str(v) for v in range(1, sides + 1)]


def bin_of(die: str, value: int) -> int:
    """The bin (index into `faces`) a die's value is counted in."""
    if die == "d100":
        return (value % 100) // 10
    return value - 1


@dataclass
class Tally:
    """One player's rolls of one die from one source."""

    player: str
    die: str
    source: str  # electronic | physical
    counts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * len(faces(self.die))

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        """How many times each face shows, on average, on a fair die after `rolls` rolls."""
        return self.rolls / len(self.counts)

    @property
    def chi_square(self) -> float:
        e = self.expected
        return 0.0 if e == 0 else sum((c - e) ** 2 / e for c in self.counts)

    @property
    def p_value(self) -> float | None:
        """The chance a fair die strays this far or further; None with no rolls."""
        if self.rolls == 0:
            return None
        return chi_square_sf(self.chi_square, len(self.counts) - 1)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "die": self.die, "source": self.source,
                "faces": faces(self.die), "counts": list(self.counts), "rolls": self.rolls,
                "expected": round(self.expected, 3), "chi_square": round(self.chi_square, 3),
                "p_value": None if self.p_value is None else round(self.p_value, 4)}


@dataclass
class LuckReport:
    """Every tally of a game (or of several games), by player, die and source."""

    tallies: list[Tally] = field(default_factory=list)
    games: int = 0

    def tally(self, player: str, die: str, source: str) -> Tally:
        for t in self.tallies:
            if (t.player, t.die, t.source) == (player, die, source):
                return t
        t = Tally(player, die, source)
        self.tallies.append(t)
        return t

    def add(self, other: LuckReport) -> None:
        for t in other.tallies:
            mine = self.tally(t.player, t.die, t.source)
            mine.counts = [a + b for a, b in zip(mine.counts, t.counts, strict=True)]
        self.games += other.games

    def sort(self) -> None:
        """By player, die, then electronic before physical."""
        self.tallies.sort(key=lambda t: (t.player.casefold(), t.die, t.source))

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "tallies": [t.to_json() for t in self.tallies]}


def luck(entries: Iterable[Entry], ruleset: Ruleset) -> LuckReport:
    """One game's luck report, from its log."""
    report = LuckReport(games=1)
    for entry in entries:
        if entry.undone:
            continue
        for rolled in ruleset.rolled(entry.command, entry.events):
            roll = rolled.roll
            if roll is None or roll.die not in ("d6", "d10", "d100"):
                continue
            source = "physical" if roll.source == "physical" else "electronic"
            report.tally(rolled.player or TABLE, roll.die, source).counts[
                bin_of(roll.die, roll.value)] += 1
    report.sort()
    return report


class LuckFold:
    """`luck` kept up to date a step at a time, for a front end that shows it after every
    command (the page for phones): each entry's rolls are asked of the ruleset once, when it
    is new, and an ``undo`` takes its target's rolls back out; so a step costs the same late in
    a 10,000-step game as early on (`luck` reads the whole log, from the store for old entries).

    `update(log)` gives what `luck(log, ruleset)` gives, for a log that only grew (and had
    earlier steps undone) since the last call; a shorter log is taken as a new game."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.seen = 0  # entries folded in
        self._counted: set[int] = set()  # seqs whose rolls are in the counts
        self._report = LuckReport(games=1)

    def reset(self) -> None:
        self.seen = 0
        self._counted.clear()
        self._report = LuckReport(games=1)

    def _fold(self, entry: Entry, sign: int) -> None:
        for rolled in self.ruleset.rolled(entry.command, entry.events):
            roll = rolled.roll
            if roll is None or roll.die not in ("d6", "d10", "d100"):
                continue
            source = "physical" if roll.source == "physical" else "electronic"
            self._report.tally(rolled.player or TABLE, roll.die, source).counts[
                bin_of(roll.die, roll.value)] += sign

    def update(self, log: Sequence[Entry]) -> LuckReport:
        if len(log) < self.seen:
            self.reset()
        for index in range(self.seen, len(log)):
            entry = log[index]
            undoes = entry.command.get("undoes") if entry.command.get("cmd") == "undo" else None
            if isinstance(undoes, int) and undoes in self._counted:
                self._counted.discard(undoes)
                self._fold(log[undoes - 1], -1)
            if not entry.undone:
                self._counted.add(index + 1)
                self._fold(entry, +1)
        self.seen = len(log)
        report = LuckReport([Tally(t.player, t.die, t.source, list(t.counts))
                             for t in self._report.tallies if t.rolls], games=1)
        report.sort()
        return report


def across(reports: Sequence[LuckReport]) -> LuckReport:
    """Several games' reports as one (a player's name is the same player)."""
    total = LuckReport()
    for r in reports:
        total.add(r)
    total.sort()
    return total


def describe(t: Tally | Mapping[str, Any]) -> str:
    """A tally's verdict in words."""
    p = t.p_value if isinstance(t, Tally) else t["p_value"]
    expected = t.expected if isinstance(t, Tally) else t["expected"]
    if p is None:
        return "no rolls"
    if expected < FEW:
        return f"too few rolls to judge yet (p = {p:.2f})"
    if p < 0.01:
        return f"p = {p:.3f}: very unlike a fair die"
    if p < 0.05:
        return f"p = {p:.3f}: unusual for a fair die"
    return f"p = {p:.2f}: as a fair die falls"


# ---- the chi-square distribution ---------------------------------------------------------

def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with `dof` degrees of freedom."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x / 2.0 <= 0:  # (a subnormal x halves to 0)
        return 1.0
    return _gamma_q(dof / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (series or continued
    fraction, whichever converges fast; Numerical Recipes' gammq)."""
    if x < a + 1.0:
        total = term = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1.0
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        p = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
        return max(0.0, min(1.0, 1.0 - p))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return max(0.0, min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h))
