"""The event store: every accepted command of every game, durable in one SQLite file.

Standard-library ``sqlite3`` only. Every connection runs in WAL mode with
``synchronous=FULL`` and a ``busy_timeout``; each command is one ``BEGIN IMMEDIATE`` ...
``COMMIT``, and the session makes nothing visible before that commit returns. Entries are
hash-chained per game (``referee.chain``). A session that writes holds the file's writer lock
(``referee.lock``): a second writer is refused. Opening a file checks it
(``referee.startup``): a damaged file is moved aside, never overwritten, and acknowledged
commands that are missing are reported. Every write names the game it belongs to. See
docs/store.md.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from referee.chain import GENESIS, body_of, canonical, fingerprint, link
from referee.db import (
    Clock,
    GameRecord,
    Reader,
    StoredEntry,
    connect,
    entry_id,
    game_problems,
    migrate,
    schema_version,
    timestamp,
    utc_now,
)
from referee.errors import FileDamaged, StoreError
from referee.evidence import quarantine
from referee.lock import Mark, WriterLock
from referee.ruleset import GameInfo, result_of
from referee.running import LogEntry
from referee.startup import NOT_DAMAGE, Proof, check, moved_aside

__all__ = ["NOT_DAMAGE", "Clock", "EventStore", "GameRecord", "Reader", "StoredEntry",
           "catalog_fingerprint", "game_problems", "quarantine", "schema_version", "utc_now"]

log = logging.getLogger(__name__)
Notify = Callable[[str], None]


class Jsonable(Protocol):
    """A catalog, as the store keeps it: its JSON."""

    def to_json(self) -> dict[str, Any]: ...


def catalog_fingerprint(catalog: Jsonable) -> str:
    return fingerprint(catalog.to_json())


@dataclass(frozen=True, slots=True)
class _Head:
    """The game this store writes: its id, and its last entry as this store wrote it."""

    game: int
    seq: int
    hash: str
    row: tuple[str, int] = ("", 0)  # what the games row says (head, entries), as left


class EventStore(Reader):
    """The session's durable log (the `referee.session.Store` protocol) over one file.

    Open it with `EventStore.open`, which takes the file's writer lock, checks the file (a
    damaged one is moved aside, lost commands are reported) and opens it for writing.
    `factory` is the `sqlite3.Connection` class to use (tests inject failing ones). The store
    writes one game at a time: the one it started (`record` of a first entry) or the one
    the caller resumed (`resume`); never "the newest game in the file".
    """

    def __init__(self, path: str | Path, *, lock: WriterLock,
                 clock: Clock = utc_now, notify: Notify | None = None,
                 factory: type[sqlite3.Connection] = sqlite3.Connection,
                 proof: Proof | None = None) -> None:
        self._factory = factory
        self._clock = clock
        self._notify = notify
        self._lock = lock
        self._closed = False
        self._broken = False
        self._head: _Head | None = None
        # Until the proof of every entry has finished, the file is read through a read-only
        # connection and nothing is written to it (`settle`).
        self._proof = proof
        self._settling = threading.Lock()
        if proof is None:
            conn = self._connect(path)
        else:
            try:
                conn = connect(path, readonly=True, factory=factory)
            except sqlite3.Error as err:
                raise StoreError(f"cannot open {path}: {err}") from err
        super().__init__(conn, path)
        current = lock.current
        self._total = current.total if current is not None else self.total()

    def _connect(self, path: str | Path) -> sqlite3.Connection:
        try:
            conn = connect(path, factory=self._factory)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open {path}: {err}") from err
        try:
            migrate(conn, path)
        except sqlite3.Error as err:
            conn.close()
            raise StoreError(f"cannot prepare {path}: {err}") from err
        except BaseException:
            conn.close()
            raise
        return conn

    @classmethod
    def open(cls, path: str | Path, *, clock: Clock = utc_now,
             notify: Notify | None = None,
             factory: type[sqlite3.Connection] = sqlite3.Connection,
             background: bool = False) -> EventStore:
        """Lock the file for writing (or raise `StoreError` naming the process that has it),
        check it, and open (or create) it. What the check finds is said through `notify`.

        With `background`, the proof of every entry is left to `prove` (in a thread) and
        `settle` (which waits for it before the first write); what takes constant time (the
        mark: lost commands) is checked and said here all the same."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create {path.parent}: {err.strerror or err}") from err
        lock = WriterLock.acquire(path)
        try:
            proof = check(path, lock, clock=clock, notify=notify, factory=factory,
                          background=background)
            return cls(path, lock=lock, clock=clock, notify=notify, factory=factory,
                       proof=proof)
        except OSError as err:
            lock.release()
            if isinstance(err, StoreError):
                raise
            raise StoreError(f"cannot check {path}: {err.strerror or err}") from err
        except BaseException:
            lock.release()
            raise

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                if self._proof is not None:  # stopped and joined: it moves nothing now
                    self._proof.cancel()
                self._conn.close()
            finally:
                self._lock.release()

    # ---- the proof of every entry, beside the session --------------------------------------
    @property
    def proof(self) -> Proof | None:
        """The proof still to finish (None: the file is proven, or was new)."""
        return self._proof

    def prove(self) -> None:
        """Start the proof of every entry in a thread (`EventStore.open(background=True)`)."""
        if self._proof is not None and not self._closed:
            self._proof.start()

    def when_proven(self, callback: Callable[[], None]) -> None:
        """Call `callback()` once the proof beside the session has finished (on the proof's
        thread), or at once if there is none to wait for: a front end then calls `settle` on
        its own loop, so that damage is acted on and said before anyone presses anything."""
        proof = self._proof
        if proof is None or self._closed:
            callback()
        else:
            proof.when_done(callback)

    def settle(self) -> None:
        """Wait for the proof of every entry; then the file may be written. If it found
        damage, the file is moved aside exactly as start-up does (and said through `notify`),
        a new, empty file is started and `FileDamaged` is raised: whatever was about to be
        written was meant for the damaged file's game and must not be."""
        if self._proof is None:
            return
        with self._settling:
            proof = self._proof
            if proof is None:
                return
            if self._closed:
                raise StoreError("the event store is closed")
            problems = proof.result()  # (StoreError: it could not run; tried again next time)
            self._proof = None
            self._conn.close()  # read-only: it changes nothing as it closes
            if not problems:
                self._conn = self._connect(self.path)
                return
            self._head = None
            self._total = 0
            try:
                text = moved_aside(self.path, self._lock, self._clock, problems)
            except OSError as err:
                self._broken = True
                raise StoreError(f"{self.path} is damaged ({problems[0]}) and could not be "
                                 f"moved aside: {err.strerror or err}") from err
            finally:
                self.__dict__.pop("_keyed", None)
            if self._notify is not None:
                self._notify(text)
            self._conn = self._connect(self.path)
            raise FileDamaged(text)

    def resume(self, game_id: int) -> list[StoredEntry]:
        """Continue game `game_id`: its entries, and from now on the game this store writes."""
        with self.snapshot():
            g = self.game(game_id)
            if g is None:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            entries = self.entries(game_id)
        self._head = _Head(g.id, g.entries, g.head, (g.saved_head, g.saved_entries))
        return entries

    def resume_from_snapshot(self, game_id: int) -> tuple[dict[str, Any] | None,
                                                          list[StoredEntry]]:
        """Continue game `game_id` from its newest intact snapshot: (the snapshot, the
        entries after it); (None, every entry) when it has none."""
        with self.snapshot():
            g = self.game(game_id)
            if g is None:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            self._head = _Head(g.id, g.entries, g.head, (g.saved_head, g.saved_entries))
            core = next(self.read_snapshots(g.entries), None)
            after = 0 if core is None else core[0]
            entries = self.entries(game_id, after=after)
        return (None if core is None else core[1]), entries

    # ---- reading the game back (referee.running.History) ----------------------------------
    def read_entries(self, first: int, last: int) -> list[LogEntry]:
        """Entries `first` .. `last` of the game this store writes (parsed once each)."""
        if self._head is None:
            return []
        g = self._head.game
        rows = self._conn.execute(
            "SELECT seq, body, undone FROM entries WHERE id BETWEEN ? AND ? ORDER BY id",
            (entry_id(g, first), entry_id(g, last))).fetchall()
        out = []
        for seq, body, undone in rows:
            b = json.loads(body)
            out.append(LogEntry(seq, b["command"], b["events"], bool(undone)))
        return out

    def read_snapshots(self, upto: int) -> Iterator[tuple[int, dict[str, Any]]]:
        """The snapshots of the game this store writes at or before entry `upto`, newest
        first, each only if it is intact and follows its entry's hash (a snapshot is never
        trusted more than the chain it hangs on)."""
        if self._head is None:
            return
        rows = self._conn.execute(
            "SELECT s.seq, s.body, s.hash, s.digest, e.hash FROM snapshots AS s "
            "JOIN entries AS e ON e.id = s.game * 4294967296 + s.seq "
            "WHERE s.game = ? AND s.seq <= ? ORDER BY s.seq DESC",
            (self._head.game, upto)).fetchall()
        for seq, body, after, digest, entry_hash in rows:
            if after != entry_hash or link(after, body) != digest:
                log.warning("snapshot %s of game %s does not match its entry: ignored", seq,
                            self._head.game)
                continue
            try:
                core = json.loads(body)
            except ValueError:
                continue
            if isinstance(core, dict) and core.get("seq") == seq:
                yield seq, core

    # ---- writing -----------------------------------------------------------------------
    def record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None,
               game: GameInfo | None = None, snapshot: dict[str, Any] | None = None) -> None:
        """Make `entry` durable (one transaction); raises `StoreError` and changes nothing.
        A game's first entry comes with its seed and `game`: the ruleset's id and version.
        `snapshot`: the game as it stands after `entry` (`RunningGame.snapshot`), kept in
        the same transaction."""
        if self._closed:
            raise StoreError("the event store is closed")
        self.settle()
        at = timestamp(self._clock)
        try:
            head = self._write(entry, seed, undoing, at, game, snapshot)
        except (sqlite3.Error, OSError) as err:
            self._reconnect()
            raise StoreError(f"could not save to {self.path}: {err}") from err
        self._head = head
        self._total += 1
        try:  # committed: now keep the mark where a lost -wal cannot take it with it
            self._lock.record(Mark(head.game, head.seq, head.hash, self._total))
        except OSError as err:
            self._mark_failed(head, err)
        if any(e["type"] == "game_over" for e in entry.events):
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the -wal into the file (a game just ended: keep it out of the -wal). The
        command is already durable; a checkpoint that cannot run now runs later."""
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as err:
            log.warning("checkpoint of %s failed: %s", self.path, err)

    def _mark_failed(self, head: _Head, err: OSError) -> None:
        log.error("could not update %s: %s", self._lock.path, err)
        if self._notify is not None:
            self._notify(
                f"Command {head.seq} of game {head.game} is saved, but the record of the "
                f"last saved command ({self._lock.path}) could not be updated "
                f"({err.strerror or err}): if the game file's -wal were lost now, the box "
                "could not tell how many commands went with it. Check the storage.")

    def _write(self, entry: LogEntry, seed: bytes | None, undoing: int | None,
               at: str, game: GameInfo | None, snapshot: dict[str, Any] | None) -> _Head:
        if self._broken:
            self._conn = self._connect(self.path)
            self._broken = False
        c = self._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            if entry.seq == 1:
                gid, prev = self._start_game(entry, seed, at, game), GENESIS
            else:
                gid, prev = self._follows(entry.seq)
            body = body_of(gid, entry.seq, at, entry.command, entry.events)
            digest = link(prev, body)
            # (schema 5: game, seq, at, cmd and prev are the id's, the body's and the row
            # before's; the hash is kept as its 32 bytes)
            c.execute("INSERT INTO entries (id, body, h) VALUES (?, ?, ?)",
                      (entry_id(gid, entry.seq), body, bytes.fromhex(digest)))
            if undoing is not None:
                cur = c.execute("UPDATE entries SET undone = 1 WHERE id = ? AND undone = 0",
                                (entry_id(gid, undoing),))
                if cur.rowcount != 1:
                    raise StoreError(f"entry {undoing} of game {gid} cannot be marked undone")
            if snapshot is not None:
                kept = canonical(snapshot)
                c.execute("INSERT OR REPLACE INTO snapshots (game, seq, hash, body, digest) "
                          "VALUES (?, ?, ?, ?, ?)", (gid, entry.seq, digest, kept,
                                                     link(digest, kept)))
            row = self._head.row if entry.seq > 1 and self._head is not None else ("", 0)
            if entry.seq == 1 or snapshot is not None or any(
                    e["type"] == "game_over" for e in entry.events):
                row = (digest, entry.seq)
                # Now and then, not every command (one page less written per command): the
                # log's last entry is the game's end; the mark covers what came after this.
                c.execute("UPDATE games SET head = ?, entries = ? WHERE id = ?",
                          (digest, entry.seq, gid))
            for e in entry.events:
                if e["type"] == "game_over":
                    result = result_of(e)
                    sole = result["winners"][0] if len(result["winners"]) == 1 else None
                    c.execute("UPDATE games SET status = 'over', winner = ?, result = ?, "
                              "ended_at = ? WHERE id = ?", (sole, canonical(result), at, gid))
                elif e["type"] == "seed_revealed":
                    c.execute("UPDATE games SET revealed_at = ? WHERE id = ?", (at, gid))
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return _Head(gid, entry.seq, digest, row)

    def _follows(self, seq: int) -> tuple[int, str]:
        """The game and hash entry `seq` follows: this store's game, as this store left it."""
        h = self._head
        if h is None or h.seq + 1 != seq:
            have = "none started or resumed" if h is None else f"game {h.game} has {h.seq}"
            raise StoreError(f"entry {seq} does not follow this referee's game ({have})")
        seq, last = self.last_entry(h.game)
        saved = self._conn.execute("SELECT head, entries FROM games WHERE id = ?",
                                   (h.game,)).fetchone()
        if (seq, last) != (h.seq, h.hash) or saved is None or tuple(saved) != h.row:
            raise StoreError(f"game {h.game} was changed by another program (the file has "
                             f"{seq} entries, this referee wrote {h.seq}); nothing was "
                             "written")
        return h.game, h.hash

    def _start_game(self, entry: LogEntry, seed: bytes | None, at: str,
                    game: GameInfo | None) -> int:
        if seed is None or game is None or entry.command.get("cmd") != "new_game":
            raise StoreError("a game's first entry must be its new_game, with its seed and "
                             "which game it is")
        started = next(e for e in entry.events if e["type"] == "game_started")
        c = self._conn
        if self._head is not None:  # the game this session leaves (and no other)
            c.execute("UPDATE games SET status = 'abandoned', ended_at = ?, head = ?, "
                      "entries = ? WHERE id = ? AND status = 'playing'",
                      (at, self._head.hash, self._head.seq, self._head.game))
        cur = c.execute(
            "INSERT INTO games (started_at, status, players, commitment, seed, catalog_sha256, "
            "catalog, head, entries, game, ruleset_version) "
            "VALUES (?, 'playing', ?, ?, ?, ?, ?, ?, 0, ?, ?)",
            (at, canonical([p["name"] for p in started["players"]]), started["commitment"],
             seed.hex(), fingerprint(game.catalog), canonical(game.catalog), GENESIS, game.id,
             game.version))
        if cur.lastrowid is None:
            raise StoreError("the new game got no id")
        return int(cur.lastrowid)

    def _reconnect(self) -> None:
        """After a failed write: drop the connection (and any half transaction); the next
        write opens a fresh one."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._broken = True
