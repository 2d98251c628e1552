"""The running game's private part, as the session keeps it: which game (ruleset and catalog),
its seed, log, undo stack and the dice an undo left on the table. Knows no game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.kept import (
    KeptDie,
    dropped_by,
    left_by,
    orphaned_by_undo,
    piles_after,
    reused_by,
)
from referee.ruleset import Event, Rolled, Ruleset


@dataclass
class LogEntry:
    """One accepted command: its number in the game, the command as logged, its events."""

    seq: int
    command: dict[str, Any]
    events: list[Event]
    undone: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "command": self.command, "events": self.events,
                "undone": self.undone}


@dataclass
class RunningGame:
    """One game of one ruleset, as the session runs it."""

    ruleset: Ruleset
    catalog: Any
    initial: Any  # the ruleset's state before any game
    seed: bytes | None = None
    log: list[LogEntry] = field(default_factory=list)
    stack: list[tuple[int, Any]] = field(default_factory=list)  # (seq, state after)
    kept: list[KeptDie] = field(default_factory=list)
    dropped: dict[int, list[KeptDie]] = field(default_factory=dict)  # seq -> kept it dropped
    piles: list[dict[str, int]] = field(default_factory=list)  # beside `stack`: see kept.Piles
    position: int = 0  # the next fresh index of the dice stream

    @property
    def state(self) -> Any:
        return self.stack[-1][1] if self.stack else self.initial

    @property
    def current_piles(self) -> dict[str, int]:
        return self.piles[-1] if self.piles else {}

    def rolled(self, entry: LogEntry) -> list[Rolled]:
        return self.ruleset.rolled(entry.command, entry.events)

    def push(self, entry: LogEntry, state: Any) -> None:
        """`entry` stands, leaving `state`."""
        renewed = self.ruleset.renewed(entry.events)
        self.piles.append(piles_after(self.current_piles, entry.seq, renewed))
        self.stack.append((entry.seq, state))

    def undo_plan(self) -> tuple[LogEntry, list[KeptDie], list[KeptDie]]:
        """What taking the top step back does, changing nothing: (the step, the dice it puts
        back on the table, the kept cards left with no pile to come from)."""
        seq, _ = self.stack[-1]
        target = next(e for e in reversed(self.log) if e.seq == seq)
        before = self.piles[-2] if len(self.piles) > 1 else {}
        back = left_by(self.rolled(target), before, self.dropped.get(seq, []))
        gone = orphaned_by_undo([*back, *self.kept], seq)
        return target, [k for k in back if k not in gone], gone

    def take_back(self, back: list[KeptDie], gone: list[KeptDie]) -> None:
        """Carry out `undo_plan`: the top step no longer stands."""
        seq, _ = self.stack.pop()
        self.piles.pop()
        self.dropped.pop(seq, None)
        self.kept = [*back, *(k for k in self.kept if k not in gone)]

    def settle(self, entry: LogEntry, used: list[KeptDie]) -> None:
        """The kept dice once `entry` stands: those it reused are gone, and so are the kept
        cards its reshuffle dropped (kept to put back if it is undone)."""
        kept = [k for k in self.kept if k not in used]
        if not kept:
            self.kept = kept
            return
        dropped = dropped_by(kept, self.ruleset.renewed(entry.events))
        self.kept = [k for k in kept if k not in dropped]
        if dropped:
            self.dropped[entry.seq] = dropped

    def replay(self, entry: LogEntry) -> None:
        """Rebuild: `entry`, read from a stored log, stands (no rule is decided again)."""
        if entry.command["cmd"] == "undo":
            _, back, gone = self.undo_plan()
            self.take_back(back, gone)
            self.log.append(entry)
            return
        self.log.append(entry)
        self.settle(entry, reused_by(self.kept, self.rolled(entry)) if self.kept else [])
        for e in entry.events:  # every game's roll events (the common envelope)
            if e["type"] == "roll" and e["source"] == "electronic" and not e["kept"]:
                self.position = max(self.position, e["index"] + 1)
        self.push(entry, self.ruleset.fold(self.state, entry.events))
