"""The event store: every accepted command of every game, durable in one SQLite file.

Standard-library ``sqlite3`` only. Every connection runs in WAL mode with
``synchronous=FULL`` and a ``busy_timeout``; each command is one ``BEGIN IMMEDIATE`` ...
``COMMIT``, and the session makes nothing visible before that commit returns. Entries are
hash-chained per game (``referee.chain``). Opening a file checks it (``PRAGMA quick_check``
and every chain); a damaged file is moved aside, never overwritten. See docs/store.md.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC
from pathlib import Path

from referee.catalog import Catalog
from referee.chain import GENESIS, body_of, canonical, fingerprint, link
from referee.db import (
    MIGRATIONS,
    Clock,
    GameRecord,
    Reader,
    StoredEntry,
    connect,
    file_version,
    game_problems,
    migrate,
    schema_version,
    timestamp,
    utc_now,
)
from referee.errors import StoreError
from referee.session import LogEntry

__all__ = ["Clock", "EventStore", "GameRecord", "Reader", "StoredEntry", "catalog_fingerprint",
           "game_problems", "quarantine", "schema_version", "utc_now"]

Notify = Callable[[str], None]
# Errors that say the file cannot be reached right now, not that it is damaged: PERM, BUSY,
# LOCKED, NOMEM, READONLY, IOERR, FULL, CANTOPEN, AUTH. Anything else found while checking
# a file (CORRUPT, NOTADB, a schema that no longer makes sense ...) is damage.
NOT_DAMAGE = {3, 5, 6, 7, 8, 10, 13, 14, 23}


def quarantine(path: Path, clock: Clock = utc_now) -> Path:
    """Move a damaged file (and its -wal/-shm) aside under a new name; never overwrite."""
    stamp = clock().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    n = 1
    while True:
        target = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))
        taken = [Path(str(target) + s) for s in ("", "-wal", "-shm")]
        if not any(os.path.lexists(t) for t in taken):
            break
        n += 1
    for suffix in ("", "-wal", "-shm"):
        src, dst = Path(str(path) + suffix), Path(str(target) + suffix)
        if not os.path.lexists(src):
            continue
        os.link(src, dst)  # fails rather than overwrite
        os.unlink(src)
    _sync_dir(path.parent)
    return target


def _sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def catalog_fingerprint(catalog: Catalog) -> str:
    return fingerprint(catalog.to_json())


class EventStore(Reader):
    """The session's durable log (the `referee.session.Store` protocol) over one file.

    Open it with `EventStore.open`, which checks the file and moves a damaged one aside.
    `factory` is the `sqlite3.Connection` class to use (tests inject failing ones).
    """

    def __init__(self, path: str | Path, *, catalog: Catalog, clock: Clock = utc_now,
                 factory: type[sqlite3.Connection] = sqlite3.Connection) -> None:
        self._factory = factory
        self._clock = clock
        self._catalog_json = catalog.to_json()
        self._catalog_sha = fingerprint(self._catalog_json)
        self._closed = False
        self._broken = False
        super().__init__(self._connect(path), path)

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
    def open(cls, path: str | Path, *, catalog: Catalog, clock: Clock = utc_now,
             notify: Notify | None = None,
             factory: type[sqlite3.Connection] = sqlite3.Connection) -> EventStore:
        """Open (or create) the file; a damaged one is quarantined and a clean one started."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create {path.parent}: {err.strerror or err}") from err
        problems = _damage(path, factory)
        if problems:
            moved = quarantine(path, clock)
            if notify is not None:
                notify(f"The game file {path} is damaged ({problems[0]}"
                       + (f", and {len(problems) - 1} more problem(s)" if len(problems) > 1
                          else "")
                       + f"). It was moved aside to {moved} (with its -wal/-shm files, if any) "
                       "and a new, empty game file was started.")
        return cls(path, catalog=catalog, clock=clock, factory=factory)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._conn.close()

    # ---- writing -----------------------------------------------------------------------
    def record(self, entry: LogEntry, *, seed: bytes | None, undoing: int | None) -> None:
        """Make `entry` durable (one transaction); raises `StoreError` and changes nothing."""
        if self._closed:
            raise StoreError("the event store is closed")
        at = timestamp(self._clock)
        try:
            self._write(entry, seed, undoing, at)
        except (sqlite3.Error, OSError) as err:
            self._reconnect()
            raise StoreError(f"could not save to {self.path}: {err}") from err

    def _write(self, entry: LogEntry, seed: bytes | None, undoing: int | None, at: str) -> None:
        if self._broken:
            self._conn = self._connect(self.path)
            self._broken = False
        c = self._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            if entry.seq == 1:
                gid, prev = self._start_game(entry, seed, at), GENESIS
            else:
                row = c.execute("SELECT id, head, entries FROM games "
                                "ORDER BY id DESC LIMIT 1").fetchone()
                if row is None or row[2] + 1 != entry.seq:
                    raise StoreError(f"entry {entry.seq} does not follow the stored log "
                                     f"({'no game' if row is None else f'{row[2]} entries'})")
                gid, prev = row[0], row[1]
            body = body_of(gid, entry.seq, at, entry.command, entry.events)
            digest = link(prev, body)
            c.execute("INSERT INTO entries (game, seq, at, cmd, body, prev, hash) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)",
                      (gid, entry.seq, at, entry.command["cmd"], body, prev, digest))
            if undoing is not None:
                cur = c.execute("UPDATE entries SET undone = 1 WHERE game = ? AND seq = ? "
                                "AND undone = 0", (gid, undoing))
                if cur.rowcount != 1:
                    raise StoreError(f"entry {undoing} of game {gid} cannot be marked undone")
            c.execute("UPDATE games SET head = ?, entries = ? WHERE id = ?",
                      (digest, entry.seq, gid))
            for e in entry.events:
                if e["type"] == "game_over":
                    c.execute("UPDATE games SET status = 'over', winner = ?, ended_at = ? "
                              "WHERE id = ?", (e.get("winner"), at, gid))
                elif e["type"] == "seed_revealed":
                    c.execute("UPDATE games SET revealed_at = ? WHERE id = ?", (at, gid))
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    def _start_game(self, entry: LogEntry, seed: bytes | None, at: str) -> int:
        if seed is None or entry.command.get("cmd") != "new_game":
            raise StoreError("a game's first entry must be its new_game, with its seed")
        started = next(e for e in entry.events if e["type"] == "game_started")
        c = self._conn
        c.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE status = 'playing'",
                  (at,))
        cur = c.execute(
            "INSERT INTO games (started_at, status, players, commitment, seed, catalog_sha256, "
            "catalog, head, entries) VALUES (?, 'playing', ?, ?, ?, ?, ?, ?, 0)",
            (at, canonical([p["name"] for p in started["players"]]), started["commitment"],
             seed.hex(), self._catalog_sha, canonical(self._catalog_json), GENESIS))
        if cur.lastrowid is None:
            raise StoreError("the new game got no id")
        return int(cur.lastrowid)

    def _reconnect(self) -> None:
        """After a failed write: drop the connection (and any half transaction); the next
        write opens a fresh one."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._broken = True


def _damage(path: Path, factory: type[sqlite3.Connection]) -> list[str]:
    """What is wrong with an existing file ([] when it is fine or absent)."""
    if not path.exists() or path.stat().st_size == 0:
        return []
    conn: sqlite3.Connection | None = None
    try:
        conn = connect(path, factory=factory)
        if file_version(conn) > len(MIGRATIONS):
            return []  # newer, not damaged: opening refuses it with a clear error
        if file_version(conn) == 0:
            found = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
            return [] if found == ["ok"] else [f"quick_check: {found[0]}"]
        return Reader(conn, path).problems()
    except sqlite3.DatabaseError as err:
        code = getattr(err, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in NOT_DAMAGE:
            raise StoreError(f"cannot open {path}: {err}") from err
        return [f"SQLite: {err}"]
    except (ValueError, KeyError, TypeError) as err:
        return [f"unreadable content: {err}"]
    except OSError as err:
        if err.errno in (errno.EACCES, errno.EPERM, errno.ENOENT):
            raise StoreError(f"cannot open {path}: {err}") from err
        raise
    finally:
        if conn is not None:
            conn.close()
