"""The running game's private part, as the session keeps it: which game (ruleset and catalog),
its seed, log, undo stack and the dice an undo left on the table. Knows no game.

Memory stays bounded however long the game (docs/performance.md): the undo stack keeps the
number of every step that stands, but a state only for the last few steps and every
`EVERY`-th one; a state it no longer holds is rebuilt when an undo needs it, by folding the
steps after the nearest state it has (or a snapshot the store kept). With a store, the log
keeps only its newest entries in memory and reads older ones back from the store.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload

from referee.dice import Roll
from referee.kept import (
    KeptDie,
    corrections,
    dropped_by,
    left_by,
    orphaned_by_undo,
    piles_after,
    reused_by,
    typed_left_by,
    without,
)
from referee.ruleset import Event, Rolled, Ruleset
from referee.snapshot import Codec

# The undo stack holds the state of the last WINDOW steps and of every EVERY-th step (those
# within DEEP steps of the top when older ones can be read back from the store's snapshots).
WINDOW = 24
EVERY = 64
DEEP = 1024
# With a store, the log keeps at most TAIL entries in memory (older ones are read back).
TAIL = 512
# The session offers the store a snapshot after every SNAPSHOT_EVERY-th entry that stands.
SNAPSHOT_EVERY = 256
SNAPSHOT_FORMAT = 1
_CORE = Codec([KeptDie, Roll])


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


class History(Protocol):
    """Where a running game reads back what it no longer holds (the event store)."""

    def read_entries(self, first: int, last: int) -> list[LogEntry]:
        """The game's entries `first` .. `last` (seqs, both included), in order."""

    def read_snapshots(self, upto: int) -> Iterator[tuple[int, dict[str, Any]]]:
        """The game's intact snapshots at or before entry `upto`, newest first: (seq, core)."""


class Log(Sequence[LogEntry]):
    """A game's log: every accepted entry, numbered from 1 (``log[i].seq == i + 1``).

    Without a history all entries stay in memory; with one, only the newest `TAIL` (older
    ones are read back from the store when asked for, in pages)."""

    PAGE = 256

    def __init__(self, history: History | None = None, first: int = 1) -> None:
        self._history = history
        self._first = first  # the seq of _held[0]
        self._held: list[LogEntry] = []

    def __len__(self) -> int:
        return self._first - 1 + len(self._held)

    @overload
    def __getitem__(self, index: int) -> LogEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[LogEntry]: ...

    def __getitem__(self, index: int | slice) -> LogEntry | list[LogEntry]:
        n = len(self)
        if isinstance(index, slice):
            return [self.at(i + 1) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("log index out of range")
        return self.at(index + 1)

    def at(self, seq: int) -> LogEntry:
        """The entry numbered `seq`."""
        if seq >= self._first:
            return self._held[seq - self._first]
        return self._read(seq, seq)[0]

    def _read(self, first: int, last: int) -> list[LogEntry]:
        if self._history is None:
            raise IndexError(f"entry {first} is not held")
        got = self._history.read_entries(first, last)
        if [e.seq for e in got] != list(range(first, last + 1)):
            raise LookupError(f"the store does not hold entries {first}..{last}")
        return got

    def __iter__(self) -> Iterator[LogEntry]:
        seq = 1
        while seq < self._first:
            last = min(self._first - 1, seq + self.PAGE - 1)
            yield from self._read(seq, last)
            seq = last + 1
        yield from list(self._held)

    def __reversed__(self) -> Iterator[LogEntry]:
        yield from reversed(list(self._held))
        last = self._first - 1
        while last >= 1:
            first = max(1, last - self.PAGE + 1)
            yield from reversed(self._read(first, last))
            last = first - 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log | list | tuple):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Log({len(self)} entries, {len(self._held)} held)"

    def append(self, entry: LogEntry) -> None:
        if entry.seq != len(self) + 1:
            raise ValueError(f"entry {entry.seq} does not follow entry {len(self)}")
        self._held.append(entry)
        if self._history is not None and len(self._held) > 2 * TAIL:
            drop = len(self._held) - TAIL
            del self._held[:drop]
            self._first += drop


@dataclass
class RunningGame:
    """One game of one ruleset, as the session runs it."""

    ruleset: Ruleset
    catalog: Any
    initial: Any  # the ruleset's state before any game
    seed: bytes | None = None
    log: Log = field(default_factory=Log)
    # the steps that stand (the undo stack), 8 bytes each
    seqs: array[int] = field(default_factory=lambda: array("q"))
    states: dict[int, Any] = field(default_factory=dict)  # stack index -> state after it
    kept: list[KeptDie] = field(default_factory=list)
    dropped: dict[int, list[KeptDie]] = field(default_factory=dict)  # seq -> kept it dropped
    # the typed dice undone steps took back, not yet rolled again (kept.corrections)
    typed: list[KeptDie] = field(default_factory=list)
    piles: list[dict[str, int]] = field(default_factory=list)  # beside `seqs`: see kept.Piles
    position: int = 0  # the next fresh index of the dice stream
    history: History | None = None

    @property
    def depth(self) -> int:
        """How many steps stand (undo can take back all but the first)."""
        return len(self.seqs)

    @property
    def state(self) -> Any:
        return self.state_at(len(self.seqs) - 1)

    @property
    def current_piles(self) -> dict[str, int]:
        return self.piles[-1] if self.piles else {}

    def rolled(self, entry: LogEntry) -> list[Rolled]:
        return self.ruleset.rolled(entry.command, entry.events)

    # ---- the sparse undo stack -----------------------------------------------------------
    def state_at(self, index: int) -> Any:
        """The state after the stack's step `index` (-1: before any), rebuilt if not held."""
        if index < 0:
            return self.initial
        got = self.states.get(index)
        if got is not None:
            return got
        base, state = -1, self.initial
        for i in self.states:
            if base < i < index:
                base = i
        if base >= 0:
            state = self.states[base]
        stored = self._stored_before(index)
        if stored is not None and stored[0] > base:
            base, state = stored
        for i in range(base + 1, index + 1):
            state = self.ruleset.fold(state, self.log.at(self.seqs[i]).events)
            if i >= index - WINDOW:
                self.states[i] = state
        self.states[index] = state
        return state

    def _stored_before(self, index: int) -> tuple[int, Any] | None:
        """The newest snapshot the store kept of a step that still stands, at or below
        stack step `index`: (its stack index, its state)."""
        if self.history is None:
            return None
        for seq, core in self.history.read_snapshots(self.seqs[index]):
            at = bisect_left(self.seqs, seq)
            if at < len(self.seqs) and self.seqs[at] == seq and at <= index:
                try:
                    return at, self.ruleset.state_from_snapshot(core["state"], self.catalog)
                except (ValueError, KeyError, TypeError):
                    continue
        return None

    def _trim(self) -> None:
        """Forget the states the stack no longer needs to hold."""
        top = len(self.seqs) - 1
        deep = top - DEEP if self.history is not None else -1
        for i in [i for i in self.states
                  if i < top - WINDOW and (i % EVERY or i < deep)]:
            del self.states[i]

    def push(self, entry: LogEntry, state: Any) -> None:
        """`entry` stands, leaving `state`."""
        renewed = self.ruleset.renewed(entry.events)
        current = self.current_piles
        self.piles.append(piles_after(current, entry.seq, renewed) if renewed else current)
        self.seqs.append(entry.seq)
        self.states[len(self.seqs) - 1] = state
        if len(self.seqs) % 16 == 0:
            self._trim()

    def undo_plan(self) -> tuple[LogEntry, list[KeptDie], list[KeptDie]]:
        """What taking the top step back does, changing nothing: (the step, the dice it puts
        back on the table, the kept cards left with no pile to come from)."""
        seq = self.seqs[-1]
        target = self.log.at(seq)
        before = self.piles[-2] if len(self.piles) > 1 else {}
        back = left_by(self.rolled(target), before, self.dropped.get(seq, []))
        gone = orphaned_by_undo([*back, *self.kept], seq)
        return target, without(back, gone), gone

    def take_back(self, back: list[KeptDie], gone: list[KeptDie]) -> None:
        """Carry out `undo_plan`: the top step no longer stands."""
        seq = self.seqs.pop()
        self.states.pop(len(self.seqs), None)
        self.piles.pop()
        self.dropped.pop(seq, None)
        self.kept = [*back, *without(self.kept, gone)]
        self.typed = [*typed_left_by(self.rolled(self.log.at(seq))), *self.typed]

    def settle(self, entry: LogEntry, used: list[KeptDie]) -> None:
        """The kept dice once `entry` stands: those it reused are gone, and so are the kept
        cards its reshuffle dropped (kept to put back if it is undone); the typed dice it
        rolled again are forgotten (their correction, if any, is in its events)."""
        if self.typed:
            _, answered = corrections(self.typed, self.rolled(entry))
            self.typed = without(self.typed, answered)
        kept = without(self.kept, used)
        if not kept:
            self.kept = kept
            return
        dropped = dropped_by(kept, self.ruleset.renewed(entry.events))
        self.kept = without(kept, dropped)
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

    # ---- snapshots -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything a resume needs of the game as it stands after its top step, as JSON
        (the store keeps it every so many steps, chained to that step's hash)."""
        runs: list[list[int]] = []
        for s in self.seqs:
            if runs and runs[-1][1] == s - 1:
                runs[-1][1] = s
            else:
                runs.append([s, s])
        changes: list[list[Any]] = []
        last: dict[str, int] | None = None
        for s, p in zip(self.seqs, self.piles, strict=True):
            if p is not last and p != last:
                changes.append([s, dict(p)])
            last = p
        return {"format": SNAPSHOT_FORMAT, "ruleset": self.ruleset.id,
                "version": self.ruleset.version, "seq": self.seqs[-1],
                "state": self.ruleset.snapshot_json(self.state), "stack": runs,
                "piles": changes, "position": self.position,
                "kept": [_CORE.encode(k) for k in self.kept],
                "dropped": [[s, [_CORE.encode(k) for k in ks]]
                            for s, ks in sorted(self.dropped.items())],
                "typed": [_CORE.encode(k) for k in self.typed]}

    def restore(self, core: dict[str, Any], upto: int) -> None:
        """Take up the game as snapshot `core` left it; the log holds entries 1 .. `upto`
        (read back through the history). Raises ValueError if `core` does not fit."""
        if (core.get("format") != SNAPSHOT_FORMAT or core.get("ruleset") != self.ruleset.id
                or core.get("version") != self.ruleset.version):
            raise ValueError("the snapshot is of another format or game version")
        try:
            seqs = array("q")
            for a, b in core["stack"]:
                seqs.extend(range(int(a), int(b) + 1))
            if not seqs or seqs[-1] != core["seq"] or seqs[-1] != upto:
                raise ValueError("the snapshot's stack does not end at its step")
            piles: list[dict[str, int]] = []
            current: dict[str, int] = {}
            for s, p in core["piles"]:  # (where the piles changed, in stack order)
                at = bisect_left(seqs, int(s))
                piles.extend([current] * (at - len(piles)))
                current = {str(k): int(v) for k, v in p.items()}
            piles.extend([current] * (len(seqs) - len(piles)))
            state = self.ruleset.state_from_snapshot(core["state"], self.catalog)
            kept = [_CORE.decode(k) for k in core["kept"]]
            dropped = {int(s): [_CORE.decode(k) for k in ks] for s, ks in core["dropped"]}
            typed = [_CORE.decode(k) for k in core.get("typed", [])]  # (older snapshots: none)
            position = int(core["position"])
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"the snapshot does not fit: {err}") from err
        if not all(isinstance(k, KeptDie) for k in [*kept, *typed, *(k for v in dropped.values()
                                                                     for k in v)]):
            raise ValueError("the snapshot's kept dice are not kept dice")
        self.seqs, self.piles, self.kept, self.dropped = seqs, piles, kept, dropped
        self.typed = typed
        self.position = position
        self.states = {len(seqs) - 1: state}
        self.log = Log(self.history, first=upto + 1)


def fresh(ruleset: Ruleset, catalog: Any, seed: bytes | None = None,
          history: History | None = None) -> RunningGame:
    return RunningGame(ruleset, catalog, ruleset.initial_state(catalog), seed=seed,
                       log=Log(history), history=history)

