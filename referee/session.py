"""The session: the one place that applies commands.

It owns the game's log (every accepted command with its events, undone ones marked), the
stack of states for undo, the dice stream and the dice an undo left on the table (the rules
they follow are in `referee.kept`). Front ends call `apply` (typed commands) or `handle`
(protocol dicts) and subscribe to outcomes.

It knows no game: the game is a `referee.ruleset.Ruleset` (Gallery Grippers unless told
otherwise), found by id through `referee.games`; ``new_game`` may name another (``game``).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from referee import games, running
from referee.dice import SEED_BYTES, Roll, commitment, stream_draw
from referee.errors import (
    BadRequest,
    FileDamaged,
    GameOver,
    NotRecorded,
    Refusal,
    RuleViolation,
    StoreError,
)
from referee.inputs import RequestProblem, check_request, show
from referee.kept import (
    KeptDie,
    corrections,
    dropped_by,
    dropped_events,
    refuse_bound_draw,
    refuse_physical_while_kept,
    typed_left_by,
    waiting_for,
    without,
)
from referee.lazylog import Logger
from referee.retype import Retype, preview
from referee.ruleset import (
    DieRequest,
    Event,
    GameInfo,
    NeedDice,
    Reveal,
    Ruleset,
    Settings,
    StoredGame,
    Undo,
)
from referee.running import History, LogEntry, RunningGame, fresh

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

QUERIES = ("state", "catalog")
CONTROL: dict[str, type[Undo] | type[Reveal]] = {"undo": Undo, "reveal": Reveal}

__all__ = ["LogEntry", "Outcome", "Session", "Store"]


@dataclass(frozen=True)
class Outcome:
    """What an accepted command did: the log entry and the state after it."""

    entry: LogEntry
    state: Any
    ruleset: Ruleset | None = None  # the game's (None: the default game)

    @property
    def events(self) -> list[Event]:
        return self.entry.events

    def answer(self) -> dict[str, Any]:
        ruleset = self.ruleset or games.default()
        return {"ok": True, "events": self.events, "state": ruleset.state_json(self.state)}


class Store(Protocol):
    """Where a session makes its log durable (see referee.store).

    `record` returns only once `entry` is durable; `seed` and `game` (the ruleset's id and
    version) come with a game's first entry, `undoing` names the entry an undo entry undoes
    (to be marked in the same transaction). It raises `StoreError` when it could not, having
    kept nothing of the entry.
    """

    def record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None,
               game: GameInfo | None = None) -> None: ...


def _history(store: Store | None) -> History | None:
    """The store, if it can read a game back (then the session keeps only what it needs in
    memory, and offers it snapshots)."""
    return cast(History, store) if callable(getattr(store, "read_entries", None)) else None


def parse_control(request: Any) -> Undo | Reveal | None:
    """``undo`` and ``reveal``, which every game takes (no fields); None for anything else."""
    if not isinstance(request, dict) or not isinstance(request.get("cmd"), str) \
            or request["cmd"] not in CONTROL:
        return None
    try:
        check_request(request)
    except RequestProblem as err:
        raise BadRequest(str(err)) from err
    name = request["cmd"]
    unknown = sorted(set(request) - {"cmd"})
    if unknown:
        raise BadRequest(f"{name} does not take field(s): {show(', '.join(unknown), 80)}")
    return CONTROL[name]()


class Session:
    """Applies commands to one game at a time; see docs/architecture.md."""

    def __init__(
        self, catalog: Any = None, *, ruleset: Ruleset | None = None,
        seed: bytes | None = None, entropy: Callable[[int], bytes] = os.urandom,
        store: Store | None = None, house_rules: Settings | None = None,
    ) -> None:
        if seed is not None and len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._ruleset = ruleset or games.default()
        self._catalog = catalog if catalog is not None else self._ruleset.load_catalog(None)
        self._fixed_seed = seed
        self._entropy = entropy
        self._store = store
        self._house_rules = house_rules  # the table's settings file: new_game overrides win
        self._game = self._fresh(self._ruleset, self._catalog)
        self._subscribers: list[Callable[[Outcome], None]] = []
        self._on_restart: list[Callable[[str], None]] = []
        self._on_close: list[Callable[[], None]] = []

    def _fresh(self, ruleset: Ruleset, catalog: Any, seed: bytes | None = None) -> RunningGame:
        return fresh(ruleset, catalog, seed, _history(self._store))

    # ---- reading -------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._game.state

    @property
    def ruleset(self) -> Ruleset:
        """The game being played (before any game: the session's own)."""
        return self._game.ruleset

    @property
    def catalog(self) -> Any:
        """The catalog of the game being played."""
        return self._game.catalog

    def catalog_for(self, ruleset: Ruleset) -> Any:
        """The catalog a new game of `ruleset` starts with: the session's own (--catalog) for
        its own game, the running game's for another of the same, else that game's default.
        A new-game form checks what it is given against this one, not the game being left's."""
        if ruleset is self._ruleset:
            return self._catalog
        if ruleset is self._game.ruleset:
            return self._game.catalog
        return ruleset.load_catalog(None)

    @property
    def house_rules(self) -> Settings | None:
        """The table's settings (from --rules) that new games of the session's own ruleset
        start with; a new_game's own rules win over them."""
        return self._house_rules

    @property
    def log(self) -> Sequence[LogEntry]:
        """Every entry of the game, numbered from 1 (``log[i].seq == i + 1``); with a store,
        older entries are read back from it when asked for."""
        return self._game.log

    @property
    def kept(self) -> tuple[KeptDie, ...]:
        return tuple(self._game.kept)

    def refusal(self, command: Any) -> Refusal | None:
        """Why `command` would be refused now, or None, changing nothing: the rules' answer,
        and the dice an undo left on the table (a typed value or a card named by hand for a
        die the box must roll again, `die_kept`/`card_kept`; a draw from another pile than
        the one a kept card of that player's binds, `draw_bound`). A front end asks before it
        offers a choice the rules list (`legal_actions` knows the state, not the table's kept
        dice), so that nothing is offered that would be refused. A command whose dice the box
        would roll is not refused for them: it reuses the kept ones."""
        game = self._game
        try:
            result = game.ruleset.decide(self.state, command)
            if not game.kept:
                return None
            if isinstance(result, NeedDice):
                used: list[KeptDie] = []
                for req in result.requests:
                    left = without(game.kept, used)
                    k = waiting_for(left, req, self.state, game.current_piles, game.ruleset)
                    if k is not None:
                        used.append(k)
                    elif req.deck is not None:
                        refuse_bound_draw(left, req.player, req.purpose, req.deck, self.state,
                                          game.current_piles, game.ruleset)
                return None
            events = list(result)
            rolled = game.ruleset.rolled(game.ruleset.command_json(command), events)
            refuse_physical_while_kept(list(game.kept), rolled, self.state,
                                       game.current_piles, game.ruleset)
        except Refusal as refusal:
            return refusal
        return None

    def kept_for(self, command: Any) -> tuple[KeptDie, ...]:
        """The kept dice the box would reuse if `command`'s dice were rolled now (empty when
        it would roll fresh ones or needs none). A front end asks before waiting for a
        physical die: while one waits, a typed or tray value would be refused (`die_kept`)."""
        game = self._game
        try:
            need = game.ruleset.decide(self.state, command)
        except Refusal:
            return ()
        if not isinstance(need, NeedDice):
            return ()
        found = list[KeptDie]()
        for req in need.requests:
            k = waiting_for(without(game.kept, found), req, self.state,
                            game.current_piles, game.ruleset)
            if k is not None:
                found.append(k)
        return tuple(found)

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

    def close(self) -> None:
        """Close the store, if it has a `close` (the session is not used after this); first
        whatever was attached to the session (`on_close`, newest first) is stopped."""
        while self._on_close:
            try:
                self._on_close.pop()()
            except Exception:  # the store is closed all the same
                log.exception("a close watcher failed")
        close = getattr(self._store, "close", None)
        if callable(close):
            close()

    def settle(self) -> None:
        """Wait until the game file may be written: a file opened with its proof of every
        entry running beside the session (`referee.store.EventStore.settle`). If the proof
        found the file damaged, it was moved aside and a new one started: the session starts
        afresh too (no game, as a start with that file would have), whoever watches
        (`on_restart`) is told, and `NotRecorded` is raised, naming the damage."""
        settle = getattr(self._store, "settle", None)
        if not callable(settle):
            return
        try:
            settle()
        except FileDamaged as err:
            self._game = self._fresh(self._ruleset, self._catalog)
            for callback in list(self._on_restart):
                try:
                    callback(str(err))
                except Exception:  # the file was moved aside all the same
                    log.exception("a restart watcher failed")
            raise NotRecorded(f"Not done: {err}") from err
        except StoreError as err:
            raise NotRecorded(f"Not saved, so not done (nothing changed): {err}. "
                              "Check the storage and send the command again.") from err

    def when_proven(self, callback: Callable[[], None]) -> None:
        """Call `callback()` once the game file's proof of every entry has finished, on the
        proof's thread (at once if nothing is being proven). A front end posts `settle` onto
        its own loop from it: damage found is then acted on (`on_restart`) and shown at once,
        not at the next command."""
        when = getattr(self._store, "when_proven", None)
        if callable(when):
            when(callback)
        else:
            callback()

    def on_restart(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call `callback(message)` when the session starts afresh because its game file was
        found damaged after it opened (see `settle`); returns an unsubscribe."""
        self._on_restart.append(callback)
        return lambda: self._on_restart.remove(callback)

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call `callback()` when the session closes, before its store (what a front end's
        add-on runs beside the session: the club's publisher, `referee.app.SessionAddon`)."""
        self._on_close.append(callback)

    def subscribe(self, callback: Callable[[Outcome], None]) -> Callable[[], None]:
        """Call `callback(outcome)` after every accepted command; returns an unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    # ---- applying ------------------------------------------------------------------------
    def handle(self, request: Any) -> dict[str, Any]:
        """A protocol request in, a protocol answer out; a refusal changes nothing."""
        try:
            if isinstance(request, dict) and request.get("cmd") in QUERIES:
                extra = sorted(set(request) - {"cmd"})
                if extra:
                    raise BadRequest(f"{request['cmd']} takes no fields ({', '.join(extra)})")
                if request["cmd"] == "state":
                    return {"ok": True, "state": self.ruleset.state_json(self.state)}
                return {"ok": True, "catalog": self.ruleset.catalog_json(self.catalog)}
            owner = self._query_owner(request)
            if owner is not None:
                return self._query(owner, request)
            control = parse_control(request)
            if control is not None:
                return self.apply(control).answer()
            if isinstance(request, dict) and request.get("cmd") == "new_game":
                return self._new_game(request).answer()
            return self.apply(self.ruleset.parse(request)).answer()
        except Refusal as refusal:
            return {"ok": False, "error": refusal.as_dict()}

    # ---- a game's own queries (referee.ruleset.Queries) ----------------------------------
    def _query_owner(self, request: Any) -> Any:
        """The ruleset that answers `request` as one of its extra queries: the game being
        played, else the session's own game, else any installed game naming it; None when
        `request` is no game's query."""
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            return None
        name = request["cmd"]
        for ruleset in (self.ruleset, self._ruleset):
            if name in getattr(ruleset, "queries", ()):
                return ruleset
        if name in CONTROL or name == "new_game":
            return None
        for game in games.available():
            ruleset = games.find(game)
            if name in getattr(ruleset, "queries", ()):
                return ruleset
        return None

    def _query(self, ruleset: Any, request: dict[str, Any]) -> dict[str, Any]:
        """Answer a ruleset's extra query; nothing is logged or changed."""
        state = self.state if ruleset is self.ruleset else None
        answer = ruleset.query(request["cmd"], request, state, self._stored_games(ruleset.id))
        return {"ok": True, **answer}

    def _stored_games(self, game: str) -> list[StoredGame] | None:
        """`game`'s games in the session's game file, oldest first (None: no file)."""
        reader = self._store
        if reader is None or not callable(getattr(reader, "games", None)):
            return None
        out = []
        with reader.snapshot():  # type: ignore[attr-defined]  # one moment of the file
            for g in reader.games():  # type: ignore[attr-defined]
                if g.game != game:
                    continue
                first = reader.entries(g.id)[:1]  # type: ignore[attr-defined]
                out.append(StoredGame(g.id, g.game, g.status, g.result,
                                      first[0].events if first else []))
        return out

    def _new_game(self, request: dict[str, Any]) -> Outcome:
        """``new_game``, of the game it names (``game``; default: the session's own)."""
        game = request.get("game")
        ruleset = self._ruleset if game is None else games.find(game)
        command = ruleset.parse({k: v for k, v in request.items() if k != "game"})
        return self.apply(command, ruleset=ruleset, abandon=request.get("abandon") is True)

    @property
    def unfinished(self) -> bool:
        """Whether a game (of any game) is started and not over: a new game leaves it, and
        only when asked to (`apply`'s ``abandon``, the protocol's ``"abandon": true``). The
        one answer every front end asks before it offers to leave a game."""
        return bool(self._game.depth) and not self.state.over

    def _check_leaving(self, ruleset: Ruleset, command: Any, abandon: bool) -> None:
        """A command that starts a game while one is `unfinished` is refused
        (`game_in_progress`) unless the table asked to leave it, by `abandon` or the command's
        own ``abandon`` field: every game's new game, whichever game is being left (the
        rules of each game no longer say it, each in its own words)."""
        if self.unfinished and not (abandon
                                    or ruleset.command_json(command).get("abandon") is True):
            raise RuleViolation("A game is in progress; send new_game with \"abandon\": true "
                                "to leave it.", code="game_in_progress")

    def apply(self, command: Any, *, ruleset: Ruleset | None = None,
              abandon: bool = False) -> Outcome:
        """Decide, record durably, then fold and tell subscribers. Raises `Refusal`.

        `ruleset` names the game of a new_game (default: the session's own game's, or the
        game being played). A new game while another is `unfinished` is refused
        (`game_in_progress`) unless `abandon` (or the command's own ``abandon`` field) says
        the table chose to leave it: the store then keeps the game left as abandoned."""
        self.settle()  # (a file still being proven: wait; nothing before it changes)
        if isinstance(command, Undo):
            return self._undo()
        if isinstance(command, Reveal):
            return self._reveal()
        game = self._game
        base = self.state
        if ruleset is None:
            ruleset = self._ruleset if self._ruleset.starts_game(command) else game.ruleset
        if ruleset.starts_game(command):
            catalog = self.catalog_for(ruleset)
            self._check_leaving(ruleset, command, abandon)
            if ruleset is not game.ruleset:
                base = ruleset.initial_state(catalog)
            game = self._fresh(ruleset, catalog, self._fixed_seed or self._entropy(SEED_BYTES))
            if len(game.seed or b"") != SEED_BYTES:
                raise RuntimeError("the entropy source gave a short seed")
            own = self._house_rules if ruleset is self._ruleset else None
            command = ruleset.start(command, commitment=commitment(game.seed or b""),
                                    settings=own.to_json() if own else {})
        result = ruleset.decide(base, command)
        fresh: list[int] = []
        used: list[KeptDie] = []
        if isinstance(result, NeedDice):
            command = self._fill(game, base, command, result, fresh, used)
            result = ruleset.decide(base, command)
            if isinstance(result, NeedDice):
                raise RuntimeError(f"{ruleset.command_json(command)['cmd']} still needs dice "
                                   "after rolling")
        events = list(result)
        logged = ruleset.command_json(command)
        kept = without(game.kept, used)
        if kept:  # (nothing kept: nothing to refuse or drop)
            refuse_physical_while_kept(kept, ruleset.rolled(logged, events), base,
                                       game.current_piles, ruleset)
            events += dropped_events(dropped_by(kept, ruleset.renewed(events)),
                                     ruleset.renew_rule())
        if game.typed:  # a die typed in before an undo, given again: a change is said
            events += corrections(game.typed, ruleset.rolled(logged, events))[0]
        state = ruleset.fold(base, events)
        if state.over and not base.over and game.seed is not None:
            reveal: Event = {"type": "seed_revealed", "seed": game.seed.hex()}
            events.append(reveal)
            state = ruleset.fold(state, [reveal])
        seq = len(game.log) + 1
        entry = LogEntry(seq=seq, command=logged, events=events)
        snapshot = None
        if seq % running.SNAPSHOT_EVERY == 0 and _history(self._store) is not None:
            after = replace(game, seqs=array("q", game.seqs), piles=[*game.piles],
                            kept=list(game.kept), dropped=dict(game.dropped),
                            typed=list(game.typed), states={})
            after.settle(entry, used)
            after.position += len(fresh)
            after.push(entry, state)
            snapshot = after.snapshot()
        if seq == 1:
            self._reveal_left()
        self._record(entry, seed=game.seed if seq == 1 else None, undoing=None,
                     game=GameInfo(ruleset.id, ruleset.version,
                                   ruleset.catalog_json(game.catalog)) if seq == 1 else None,
                     snapshot=snapshot)
        # Durable: now the change becomes visible.
        game.settle(entry, used)
        game.position += len(fresh)
        game.log.append(entry)
        game.push(entry, state)
        self._game = game
        return self._publish(Outcome(entry, state, ruleset))

    def _record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None,
                game: GameInfo | None = None, snapshot: dict[str, Any] | None = None) -> None:
        """Make `entry` durable before anything changes; a store failure is a refusal."""
        if self._store is None:
            return
        try:
            if snapshot is None:
                self._store.record(entry, seed=seed, undoing=undoing, game=game)
            else:  # (only a store that reads games back takes snapshots)
                self._store.record(entry, seed=seed, undoing=undoing, game=game,
                                   snapshot=snapshot)  # type: ignore[call-arg]
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
    def _fill(self, game: RunningGame, base: Any, command: Any, need: NeedDice,
              fresh: list[int], used: list[KeptDie]) -> Any:
        """Put electronic dice into `command`, any number at once, keyed by die id: kept
        dice first, then the stream (in the order asked)."""
        dice = {req.id: self._one(game, base, req, fresh, used) for req in need.requests}
        if len(dice) != len(need.requests):
            raise RuntimeError("the rules asked for two dice with one id")
        return game.ruleset.with_dice(command, dice)

    def _one(self, game: RunningGame, base: Any, req: DieRequest, fresh: list[int],
             used: list[KeptDie]) -> tuple[Roll, str | None]:
        """One electronic roll (and, for a box draw, the card it picks): the die an undo
        left on the table for this die id, player, die and purpose, else the stream's next
        (a box draw that a kept card of another pile binds is refused first, `draw_bound`:
        nothing is drawn)."""
        k = waiting_for(without(game.kept, used), req, base, game.current_piles,
                        game.ruleset)
        if k is not None:
            used.append(k)
            return replace(k.roll, kept=True), k.card
        if req.deck is not None:  # a fresh draw: not where a kept card binds it elsewhere
            refuse_bound_draw(without(game.kept, used), req.player, req.purpose, req.deck,
                              base, game.current_piles, game.ruleset)
        if game.seed is None:
            raise RuleViolation("No game is running: start one with new_game.", code="no_game")
        # (a new game's `game` is fresh, with its own seed: the state it starts over may be
        # a finished game's, whose seed is revealed; that seed is not this game's)
        if base.seed is not None and game.depth:
            what = "draw a card" if req.die == "pick" else f"roll the {req.die}"
            raise RuleViolation(
                f"The dice seed of this game is revealed, so the box no longer rolls: "
                f"{what} yourself and enter it.", code="seed_revealed")
        index = game.position + len(fresh)
        draw = stream_draw(game.seed, index, req.sides)
        fresh.append(index)
        value, card = game.ruleset.read_die(base, req, draw)
        return Roll(die=req.die, value=value, source="electronic", index=index,
                    sides=req.sides), card

    # ---- a correction, before it is recorded (issue 39) ---------------------------------
    def retype(self, command: Any) -> Retype | None:
        """What `command` would change by giving a die typed before an undo another value
        (a correction, `referee.kept.corrections`), changing nothing; None when it corrects
        no die (or would be refused: `apply` says why). Only the values the table gives (typed
        or read by the tray) are asked about: a die the box rolls is not known before it is
        rolled, and a roll once made stands. A front end asks the table first with
        `Retype.words` (the console's dialog, the box's screen), then applies the command."""
        game = self._game
        if not game.typed or isinstance(command, Undo | Reveal):
            return None
        base = self.state
        ruleset = game.ruleset
        known = True
        try:
            if ruleset.starts_game(command):
                return None
            result = ruleset.decide(base, command)
            if isinstance(result, NeedDice):
                # The kept dice are known (the box reuses them); a fresh one is not: a stand-in
                # face (never shown, nothing drawn from the stream) lets the rules say which
                # dice the table gave.
                dice: dict[str, tuple[Roll, str | None]] = {}
                used: list[KeptDie] = []
                for req in result.requests:
                    k = waiting_for(without(game.kept, used), req, base, game.current_piles,
                                    ruleset)
                    if k is not None:
                        used.append(k)
                        dice[req.id] = (replace(k.roll, kept=True), k.card)
                        continue
                    known = False
                    value, card = ruleset.read_die(base, req, 0)
                    dice[req.id] = (Roll(req.die, value, "electronic", sides=req.sides), card)
                command = ruleset.with_dice(command, dice)
                result = ruleset.decide(base, command)
                if isinstance(result, NeedDice):
                    return None
        except Refusal:
            return None
        events = list(result)
        fixed = [e for e in corrections(game.typed, ruleset.rolled(ruleset.command_json(command),
                                                                    events))[0]
                 if e.get("source") == "physical"]
        if not fixed:
            return None
        was, same = self._retyped_step(fixed)
        return preview(ruleset, fixed, was=was, now=events if known else None,
                              before=base if same else None)

    def _retyped_step(self, fixed: Sequence[Event]) -> tuple[list[Event], bool]:
        """The undone step whose typed die `fixed` gives again (the latest): its events, and
        whether the state it applied to is the state now (it was taken back, and every step
        since has been taken back too)."""
        game = self._game
        log = game.log
        wanted = {(e.get("id"), e.get("player"), e.get("die"), e.get("purpose"), e.get("was"))
                  for e in fixed}
        for seq in range(len(log), 0, -1):
            entry = log.at(seq)
            if not entry.undone:
                continue
            if any((k.id, k.player, k.roll.die, k.purpose, k.roll.value) in wanted
                   for k in typed_left_by(game.rolled(entry))):
                return list(entry.events), _below(log, seq) == (game.seqs[-1] if game.seqs
                                                                else 0)
        return [], False

    # ---- undo ----------------------------------------------------------------------------
    def _undo(self) -> Outcome:
        game = self._game
        state = self.state
        if state.over:
            raise GameOver("The game is over; its result stands.", rule=game.ruleset.final_rule)
        if game.depth <= 1:
            raise RuleViolation("Nothing to undo.", code="nothing_to_undo")
        target, back, gone = game.undo_plan()
        seq = target.seq
        entry = LogEntry(seq=len(game.log) + 1, command={"cmd": "undo", "undoes": seq},
                         events=[{"type": "undone", "seq": seq, "cmd": target.command["cmd"],
                                  "kept": [k.to_json() for k in back],
                                  "dropped": [k.to_json() for k in gone],
                                  "typed": [k.to_json()
                                            for k in typed_left_by(game.rolled(target))]}])
        if target.command["cmd"] == "reveal":
            raise RuleViolation("A revealed seed cannot be hidden again.", code="reveal_is_final")
        self._record(entry, seed=None, undoing=seq)
        target.undone = True
        game.take_back(back, gone)
        game.log.append(entry)
        return self._publish(Outcome(entry, self.state, game.ruleset))

    def undo_target(self) -> LogEntry | None:
        """The step `undo` would take back now (None: nothing to undo, or the game is over and
        its result stands). The one answer every front end shows."""
        game = self._game
        if game.depth <= 1 or self.state.over:
            return None
        target, _, _ = game.undo_plan()
        return target

    def undo_words(self) -> str | None:
        """What `undo` would take back now, in words (None: nothing to undo)."""
        target = self.undo_target()
        if target is None:
            return None
        return self._game.ruleset.undo_words(target.command, target.events)

    # ---- reveal --------------------------------------------------------------------------
    def _reveal(self) -> Outcome:
        game = self._game
        state = self.state
        if game.seed is None or not game.depth:
            raise RuleViolation("No game is running: start one with new_game.", code="no_game")
        if state.seed is not None:
            raise RuleViolation("The dice seed of this game is already revealed.",
                                code="already_revealed")
        events: list[Event] = [{"type": "seed_revealed", "seed": game.seed.hex()}]
        entry = LogEntry(seq=len(game.log) + 1, command={"cmd": "reveal"}, events=events)
        self._record(entry, seed=None, undoing=None)
        after = game.ruleset.fold(state, events)
        game.log.append(entry)
        game.push(entry, after)
        return self._publish(Outcome(entry, after, game.ruleset))

    def _reveal_left(self) -> None:
        """A new game is about to be recorded (its rules have accepted it): the game it
        leaves unfinished reveals its seed like a finished one, as its last entry, so its
        rolls can be checked too (issue 26). Nothing is published: the new game is what the
        table sees next."""
        left = self._game
        if not self.unfinished or left.seed is None or self.state.seed is not None:
            return
        events: list[Event] = [{"type": "seed_revealed", "seed": left.seed.hex()}]
        entry = LogEntry(seq=len(left.log) + 1, command={"cmd": "reveal"}, events=events)
        self._record(entry, seed=None, undoing=None)
        after = left.ruleset.fold(self.state, events)
        left.log.append(entry)
        left.push(entry, after)

    # ---- rebuilding ----------------------------------------------------------------------
    @classmethod
    def resume(cls, entries: list[LogEntry], *, seed: bytes | None, catalog: Any = None,
               store: Store | None = None, fixed_seed: bytes | None = None,
               house_rules: Settings | None = None, ruleset: Ruleset | None = None,
               game: tuple[Ruleset, Any] | None = None,
               snapshot: dict[str, Any] | None = None) -> Session:
        """A session continuing a game from its log (no rule is decided again): a game of
        `ruleset` (the session's own) with `catalog`, or of another game, `game` being its
        (ruleset, catalog).

        With `snapshot` (a store's, of the game after entry ``snapshot["seq"]``), `entries`
        are the entries after it; the older ones are read back from `store` when needed. A
        snapshot that does not fit (another version of the rules, say) raises ValueError:
        resume from the whole log then.

        The kept dice are worked out from the log with the same rules `apply` and `undo`
        follow (`referee.kept`), so a game stored before kept dice had a purpose or an id
        resumes with each taken from the command that rolled it.
        """
        session = cls(catalog, ruleset=ruleset, seed=fixed_seed, store=store,
                      house_rules=house_rules)
        played, cat = game or (session._ruleset, session._catalog)
        game_ = session._fresh(played, cat, seed)
        if snapshot is not None:
            game_.restore(snapshot, int(snapshot["seq"]))
        for entry in entries:
            game_.replay(entry)
        session._game = game_
        return session


def _below(log: running.Log, seq: int) -> int:
    """The step that stood below step `seq` when it was applied (0: none): the latest step
    before it not taken back before it was."""
    undone: set[int] = set()
    for s in range(seq - 1, 0, -1):
        command = log.at(s).command
        if command.get("cmd") == "undo":
            undone.add(int(command.get("undoes", 0)))
        elif s not in undone:
            return s
    return 0
