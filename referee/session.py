"""The session: the one place that applies commands.

It owns the game's log (every accepted command with its events, undone ones marked), the
stack of states for undo, the dice stream and the dice an undo left on the table (the rules
they follow are in `referee.kept`). Front ends call `apply` (typed commands) or `handle`
(protocol dicts) and subscribe to outcomes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from referee import commands as cmds
from referee.catalog import Catalog, default_catalog
from referee.commands import Command, Roll, command_name, command_to_json, parse_command
from referee.dice import SEED_BYTES, commitment, die_value, stream_draw
from referee.errors import BadRequest, GameOver, NotRecorded, Refusal, RuleViolation, StoreError
from referee.evolve import Event, fold
from referee.kept import (
    KeptDie,
    die_key,
    dropped_by,
    dropped_events,
    left_by,
    orphaned_by_undo,
    piles_after,
    refuse_physical_while_kept,
    reused_by,
    waiting,
)
from referee.rules import DieRequest, NeedDice, decide
from referee.rules.cards import draw_pile
from referee.settings import HouseRules
from referee.state import GameState, initial_state, state_to_json

log = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class Outcome:
    """What an accepted command did: the log entry and the state after it."""

    entry: LogEntry
    state: GameState

    @property
    def events(self) -> list[Event]:
        return self.entry.events

    def answer(self) -> dict[str, Any]:
        return {"ok": True, "events": self.events, "state": state_to_json(self.state)}


class Store(Protocol):
    """Where a session makes its log durable (see referee.store).

    `record` returns only once `entry` is durable; `seed` comes with a game's first entry,
    `undoing` names the entry an undo entry undoes (to be marked in the same transaction).
    It raises `StoreError` when it could not, having kept nothing of the entry.
    """

    def record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None) -> None: ...


@dataclass
class _Game:
    """The running game's private part: its seed, log, undo stack and dice bookkeeping."""

    seed: bytes | None = None
    log: list[LogEntry] = field(default_factory=list)
    stack: list[tuple[int, GameState]] = field(default_factory=list)  # (seq, state after)
    kept: list[KeptDie] = field(default_factory=list)
    dropped: dict[int, list[KeptDie]] = field(default_factory=dict)  # seq -> kept it dropped
    piles: list[dict[str, int]] = field(default_factory=list)  # beside `stack`: see kept.Piles
    position: int = 0  # the next fresh index of the dice stream

    @property
    def current_piles(self) -> dict[str, int]:
        return self.piles[-1] if self.piles else {}

    def push(self, entry: LogEntry, state: GameState) -> None:
        """`entry` stands, leaving `state`."""
        self.piles.append(piles_after(self.current_piles, entry.seq, entry.events))
        self.stack.append((entry.seq, state))

    def undo_plan(self) -> tuple[LogEntry, list[KeptDie], list[KeptDie]]:
        """What taking the top step back does, changing nothing: (the step, the dice it puts
        back on the table, the kept cards left with no pile to come from)."""
        seq, _ = self.stack[-1]
        target = next(e for e in reversed(self.log) if e.seq == seq)
        before = self.piles[-2] if len(self.piles) > 1 else {}
        back = left_by(target.command["cmd"], target.events, before, self.dropped.get(seq, []))
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
        dropped = dropped_by(kept, entry.events)
        self.kept = [k for k in kept if k not in dropped]
        if dropped:
            self.dropped[entry.seq] = dropped


class Session:
    """Applies commands to one game at a time; see docs/architecture.md."""

    def __init__(
        self, catalog: Catalog | None = None, *, seed: bytes | None = None,
        entropy: Callable[[int], bytes] = os.urandom, store: Store | None = None,
        house_rules: HouseRules | None = None,
    ) -> None:
        if seed is not None and len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self.catalog = catalog or default_catalog()
        self._fixed_seed = seed
        self._entropy = entropy
        self._store = store
        self._house_rules = house_rules  # the table's settings file: new_game overrides win
        self._game = _Game()
        self._initial = initial_state(self.catalog)
        self._subscribers: list[Callable[[Outcome], None]] = []

    # ---- reading -------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self._game.stack[-1][1] if self._game.stack else self._initial

    @property
    def log(self) -> list[LogEntry]:
        return self._game.log

    @property
    def kept(self) -> tuple[KeptDie, ...]:
        return tuple(self._game.kept)

    @property
    def stream_position(self) -> int:
        return self._game.position

    @property
    def seed(self) -> bytes | None:
        """The game's secret seed (kept from the players until the game is over)."""
        return self._game.seed

    @property
    def store(self) -> Store | None:
        return self._store

    @property
    def house_rules(self) -> HouseRules | None:
        """The table's settings (its settings file), which a new game starts from and its
        own ``rules`` override; None: the defaults."""
        return self._house_rules

    def close(self) -> None:
        """Close the store, if it has a `close` (the session is not used after this)."""
        close = getattr(self._store, "close", None)
        if callable(close):
            close()

    def subscribe(self, callback: Callable[[Outcome], None]) -> Callable[[], None]:
        """Call `callback(outcome)` after every accepted command; returns an unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    # ---- applying ------------------------------------------------------------------------
    def handle(self, request: Any) -> dict[str, Any]:
        """A protocol request in, a protocol answer out; a refusal changes nothing."""
        try:
            if isinstance(request, dict) and request.get("cmd") in cmds.QUERIES:
                extra = sorted(set(request) - {"cmd"})
                if extra:
                    raise BadRequest(f"{request['cmd']} takes no fields ({', '.join(extra)})")
                if request["cmd"] == "state":
                    return {"ok": True, "state": state_to_json(self.state)}
                return {"ok": True, "catalog": self.catalog.to_json()}
            return self.apply(parse_command(request)).answer()
        except Refusal as refusal:
            return {"ok": False, "error": refusal.as_dict()}

    def apply(self, command: Command) -> Outcome:
        """Decide, record durably, then fold and tell subscribers. Raises `Refusal`."""
        if isinstance(command, cmds.Undo):
            return self._undo()
        if isinstance(command, cmds.Reveal):
            return self._reveal()
        game = self._game
        base = self.state
        if isinstance(command, cmds.NewGame):
            game = _Game(seed=self._fixed_seed or self._entropy(SEED_BYTES))
            if len(game.seed or b"") != SEED_BYTES:
                raise RuntimeError("the entropy source gave a short seed")
            rules = {**(self._house_rules.to_json() if self._house_rules else {}), **command.rules}
            command = replace(command, commitment=commitment(game.seed or b""), rules=rules)
        result = decide(base, command)
        fresh: list[int] = []
        used: list[KeptDie] = []
        if isinstance(result, NeedDice):
            command = self._fill(game, base, command, result, fresh, used)
            result = decide(base, command)
            if isinstance(result, NeedDice):
                raise RuntimeError(f"{command_name(command)} still needs dice after rolling")
        events = list(result)
        kept = [k for k in game.kept if k not in used]
        refuse_physical_while_kept(kept, events, base, game.current_piles)
        events += dropped_events(dropped_by(kept, events))
        state = fold(base, events)
        if state.over and not base.over and game.seed is not None:
            reveal: Event = {"type": "seed_revealed", "seed": game.seed.hex()}
            events.append(reveal)
            state = fold(state, [reveal])
        seq = game.log[-1].seq + 1 if game.log else 1
        entry = LogEntry(seq=seq, command=command_to_json(command), events=events)
        self._record(entry, seed=game.seed if seq == 1 else None, undoing=None)
        # Durable: now the change becomes visible.
        game.settle(entry, used)
        game.position += len(fresh)
        game.log.append(entry)
        game.push(entry, state)
        self._game = game
        return self._publish(Outcome(entry, state))

    def _record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None) -> None:
        """Make `entry` durable before anything changes; a store failure is a refusal."""
        if self._store is None:
            return
        try:
            self._store.record(entry, seed=seed, undoing=undoing)
        except StoreError as err:
            raise NotRecorded(f"Not saved, so not done (nothing changed): {err}. "
                              "Check the storage and send the command again.") from err

    def _publish(self, outcome: Outcome) -> Outcome:
        """Tell every subscriber. The command is already durable: a subscriber that fails
        (a display gone, a bug in a widget) is logged and never undoes or hides it."""
        for callback in list(self._subscribers):
            try:
                callback(outcome)
            except Exception:
                log.exception("subscriber %r failed on %s", callback,
                              outcome.entry.command.get("cmd"))
        return outcome

    # ---- dice ----------------------------------------------------------------------------
    def _fill(self, game: _Game, base: GameState, command: Command, need: NeedDice,
              fresh: list[int], used: list[KeptDie]) -> Command:
        """Put electronic dice into `command`: kept dice first, then the stream (in order)."""
        rolls: dict[str | None, tuple[Roll, str | None]] = {}
        for req in need.requests:
            rolls[req.player] = self._one(game, base, req, fresh, used)
        if isinstance(command, cmds.TurnOrder):
            merged = {**command.rolls, **{str(k): v for k, (v, _) in rolls.items()}}
            return replace(command, rolls=merged)
        ((roll, card),) = rolls.values()
        if isinstance(command, cmds.Draw):
            return replace(command, pick=roll, card=card)
        if isinstance(command, cmds.Move | cmds.MoveRoll | cmds.Bypass | cmds.Reup
                      | cmds.FreeRoll):
            return replace(command, roll=roll)
        raise TypeError(f"{command_name(command)} takes no dice")

    def _one(self, game: _Game, base: GameState, req: DieRequest, fresh: list[int],
             used: list[KeptDie]) -> tuple[Roll, str | None]:
        """One electronic roll (and, for a box draw, the card it picks): the die an undo
        left on the table for this player, die and purpose, else the stream's next."""
        pile = draw_pile(base, req.deck) if req.deck else []
        k = waiting([k for k in game.kept if k not in used], req.player,
                    die_key(req.die, req.deck), req.purpose, base, game.current_piles)
        if k is not None:
            used.append(k)
            return replace(k.roll, kept=True), k.card
        if game.seed is None:
            raise RuleViolation("No game is running: start one with new_game.", code="no_game")
        if base.seed is not None:
            what = "draw a card" if req.die == "pick" else f"roll the {req.die}"
            raise RuleViolation(
                f"The dice seed of this game is revealed, so the box no longer rolls: "
                f"{what} yourself and enter it.", code="seed_revealed")
        index = game.position + len(fresh)
        draw = stream_draw(game.seed, index, req.sides)
        fresh.append(index)
        if req.die == "pick":
            roll = Roll(die="pick", value=draw, source="electronic", index=index, sides=req.sides)
            return roll, pile[draw]
        value = die_value(req.die, draw, base.rules.percentile)
        return Roll(die=req.die, value=value, source="electronic", index=index,
                    sides=req.sides), None

    # ---- undo ----------------------------------------------------------------------------
    def _undo(self) -> Outcome:
        game = self._game
        state = self.state
        if state.over:
            raise GameOver("The game is over; its result stands.", rule="GG-14")
        if len(game.stack) <= 1:
            raise RuleViolation("Nothing to undo.", code="nothing_to_undo")
        target, back, gone = game.undo_plan()
        seq = target.seq
        entry = LogEntry(seq=game.log[-1].seq + 1, command={"cmd": "undo", "undoes": seq},
                         events=[{"type": "undone", "seq": seq, "cmd": target.command["cmd"],
                                  "kept": [k.to_json() for k in back],
                                  "dropped": [k.to_json() for k in gone]}])
        if target.command["cmd"] == "reveal":
            raise RuleViolation("A revealed seed cannot be hidden again.", code="reveal_is_final")
        self._record(entry, seed=None, undoing=seq)
        target.undone = True
        game.take_back(back, gone)
        game.log.append(entry)
        return self._publish(Outcome(entry, self.state))

    # ---- reveal --------------------------------------------------------------------------
    def _reveal(self) -> Outcome:
        game = self._game
        state = self.state
        if game.seed is None or not game.stack:
            raise RuleViolation("No game is running: start one with new_game.", code="no_game")
        if state.seed is not None:
            raise RuleViolation("The dice seed of this game is already revealed.",
                                code="already_revealed")
        events: list[Event] = [{"type": "seed_revealed", "seed": game.seed.hex()}]
        entry = LogEntry(seq=game.log[-1].seq + 1, command={"cmd": "reveal"}, events=events)
        self._record(entry, seed=None, undoing=None)
        after = fold(state, events)
        game.log.append(entry)
        game.push(entry, after)
        return self._publish(Outcome(entry, after))

    # ---- rebuilding ----------------------------------------------------------------------
    @classmethod
    def resume(cls, entries: list[LogEntry], *, seed: bytes | None,
               catalog: Catalog | None = None, store: Store | None = None,
               fixed_seed: bytes | None = None,
               house_rules: HouseRules | None = None) -> Session:
        """A session continuing a game from its log (no rule is decided again).

        The kept dice are worked out from the log with the same rules `apply` and `undo`
        follow (`referee.kept`), so a game stored before kept dice had a purpose resumes with
        each purpose taken from the command that rolled it.
        """
        session = cls(catalog, seed=fixed_seed, store=store, house_rules=house_rules)
        game = _Game(seed=seed)
        state = session._initial
        for entry in entries:
            if entry.command["cmd"] == "undo":
                _, back, gone = game.undo_plan()
                game.take_back(back, gone)
                game.log.append(entry)
                state = game.stack[-1][1]
                continue
            game.log.append(entry)
            game.settle(entry, reused_by(game.kept, entry.events))
            for e in entry.events:
                if e["type"] == "roll" and e["source"] == "electronic" and not e["kept"]:
                    game.position = max(game.position, e["index"] + 1)
            state = fold(state, entry.events)
            game.push(entry, state)
        session._game = game
        return session
