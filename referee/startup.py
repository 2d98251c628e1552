"""What the store checks when a session opens a game file for writing (docs/store.md).

Run only while holding the file's writer lock (`referee.lock`), before any connection that
can write is opened: the file is read through a read-only connection (which never
checkpoints or deletes a ``-wal``, so the evidence stays as it was found), in one snapshot.

- **Damage** (``quick_check``, a broken chain, a games row that disagrees with its log): the
  file is moved aside and a clean one started.
- **Lost commands**: the lock file's mark says what the store last acknowledged. If the file
  no longer holds it (a deleted, truncated or damaged ``-wal``; an emptied or deleted file),
  the file is copied aside as found, and the table is told how many acknowledged commands
  are missing and what the file still holds, before play goes on.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.db import MIGRATIONS, Clock, Reader, connect, file_version, schema_version
from referee.errors import StoreError
from referee.evidence import preserve, quarantine
from referee.lock import EMPTY, Mark, WriterLock

Notify = Callable[[str], None]
log = logging.getLogger(__name__)
# Errors that say the file cannot be reached right now, not that it is damaged: PERM, BUSY,
# LOCKED, NOMEM, READONLY, IOERR, FULL, CANTOPEN, AUTH. Anything else found while checking
# a file (CORRUPT, NOTADB, a schema that no longer makes sense ...) is damage.
NOT_DAMAGE = {3, 5, 6, 7, 8, 10, 13, 14, 23}
SQLITE_READONLY = 8


@dataclass
class Found:
    """The file as one read-only snapshot saw it."""

    problems: list[str] = field(default_factory=list)
    newer: bool = False  # written by a newer referee: not checked, opening refuses it
    total: int = 0
    latest: Mark = EMPTY  # the newest game's last entry, as a mark
    players: dict[int, list[str]] = field(default_factory=dict)
    entries: int | None = None  # of the mark's game (None: the file has no such game)
    at_mark: str | None = None  # the hash of the mark's entry, if the file has it


def check(path: Path, lock: WriterLock, *, clock: Clock, notify: Notify | None,
          factory: type[sqlite3.Connection], background: bool = False) -> Proof | None:
    """Check the file before a session writes it; say what was found; keep the mark.

    With `background`, a file of this schema is checked here only in what takes constant
    time (that it opens, its schema, the mark against the entry it names: lost commands are
    said now); the proof of every entry is returned, not run: a `Proof` to run beside the
    session, which must finish before anything is written (`EventStore.settle`). None: the
    file was proven here (or moved aside, or is new)."""
    tell = notify or (lambda _: None)
    mark = lock.found
    if lock.unreadable:
        tell(f"The record of the last saved command ({lock.path}) could not be read, so this "
             f"start cannot tell whether saved commands are missing from {path}. It is "
             "written afresh from what the file holds now.")
    size = path.stat().st_size if path.exists() else None
    wal = Path(f"{path}-wal")
    stray_wal = wal.exists() and wal.stat().st_size > 0
    if not size:  # no file, or 0 bytes
        acknowledged = mark is not None and mark.total > 0
        if acknowledged or stray_wal:
            text = _gone_message(path, size, mark)
            moved = quarantine(path, clock, label="lost", note=_note(text, mark))
            tell(f"{text} What was there was moved aside to {moved} (with its -wal/-shm "
                 "files, if any) and a new, empty game file was started.")
        elif size == 0 and mark is None:
            tell(f"The game file {path} is empty (0 bytes) and there is no record of what it "
                 "held: if it held games, they are lost. It is started as a new game file.")
        lock.record(EMPTY)
        return None
    quick = background and _current(path, factory)
    found = _inspect(path, mark, factory, quick=quick)
    if found.newer:
        return None
    if found.problems:
        tell(moved_aside(path, lock, clock, found.problems))
        return None
    if mark is not None and mark.game is not None and (
            found.total < mark.total or found.at_mark != mark.head):
        text = _loss_message(path, mark, found)
        kept = preserve(path, clock, note=_note(text, mark))
        tell(f"{text} The file as it was found is kept as {kept} (with its -wal/-shm files, "
             "if any). Play goes on from what the file still holds: check the board "
             "against the box before you carry on.")
    if lock.current != found.latest:
        lock.record(found.latest)
    return Proof(path, factory) if quick else None


def moved_aside(path: Path, lock: WriterLock, clock: Clock, problems: list[str]) -> str:
    """Move a damaged file aside (with its -wal/-shm), start the mark afresh, and say so."""
    mark = lock.current
    held = (f" It held {mark.total} saved command(s), the last one command {mark.seq} "
            f"of game {mark.game}; they stay in the moved file."
            if mark is not None and mark.total else "")
    moved = quarantine(path, clock)
    lock.record(EMPTY)
    return (f"The game file {path} is damaged ({problems[0]}"
            + (f", and {len(problems) - 1} more problem(s)" if len(problems) > 1 else "")
            + f"). It was moved aside to {moved} (with its -wal/-shm files, if any) "
            f"and a new, empty game file was started.{held}")


def _current(path: Path, factory: type[sqlite3.Connection]) -> bool:
    """Whether the file is of this program's schema (then it is read as it is; an older one
    is migrated when opened, so it is proven first, as it was found)."""
    try:
        conn = connect(path, readonly=True, factory=factory)
    except sqlite3.Error:
        return False
    try:
        return file_version(conn) == schema_version()
    except sqlite3.Error:
        return False
    finally:
        conn.close()


class Proof:
    """The proof of every entry of a file (``quick_check``, every game's chain, its row, every
    snapshot: `Reader.problems`) on its own read-only connection, in one read snapshot, in a
    thread beside the session (docs/store.md). `result` waits for it."""

    def __init__(self, path: Path, factory: type[sqlite3.Connection]) -> None:
        self.path = path
        self._factory = factory
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._cancelled = False
        self._problems: list[str] | None = None
        self._error: BaseException | None = None
        self.elapsed: float | None = None  # seconds the proof took, once it has run
        self._finished = threading.Event()  # its thread has run to the end (any outcome)
        self._when_done: list[Callable[[], None]] = []

    def start(self) -> None:
        """Run the proof in a thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="referee-proof",
                                            daemon=True)
            self._thread.start()

    @property
    def done(self) -> bool:
        return self._problems is not None

    def when_done(self, callback: Callable[[], None]) -> None:
        """Call `callback()` once the proof's thread has finished (found damage or not, or
        could not run), on that thread; at once, here, if it has already finished. It only
        says "ask now": `result` (or the store's `settle`) acts on what was found."""
        with self._guard:
            if not self._finished.is_set():
                self._when_done.append(callback)
                return
        callback()

    def _finish(self) -> None:
        with self._guard:
            self._finished.set()
            callbacks, self._when_done = self._when_done, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # (a watcher's bug never stops the proof's outcome)
                log.exception("a watcher of the proof failed")

    def _run(self) -> None:
        try:
            self._prove()
        finally:
            self._finish()

    def _prove(self) -> None:
        t0 = time.perf_counter()
        try:
            with self._guard:
                if self._cancelled:
                    return
                self._conn = connect(self.path, readonly=True, factory=self._factory)
            found = Reader(self._conn, self.path).problems()
        except sqlite3.DatabaseError as err:
            code = getattr(err, "sqlite_errorcode", None)
            if self._cancelled or (code is not None and code & 0xFF in NOT_DAMAGE):
                self._error = err  # stopped, or the file cannot be reached for now
                return
            found = [f"SQLite: {err}"]
        except (ValueError, KeyError, TypeError) as err:
            found = [f"unreadable content: {err}"]
        except BaseException as err:  # (reported to whoever waits for the proof)
            self._error = err
            return
        finally:
            with self._guard:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
        self.elapsed = time.perf_counter() - t0
        self._problems = found

    def result(self) -> list[str]:
        """Wait for the proof: what is wrong with the file ([]: nothing). A proof that could
        not run (the file unreachable for now, not damaged) runs again here, and raises
        `StoreError` if it still cannot."""
        self.start()
        assert self._thread is not None
        self._thread.join()
        if self._problems is None:
            if self._cancelled:
                raise StoreError(f"the check of {self.path} was stopped")
            err, self._error = self._error, None
            self._prove()
            if self._problems is None:
                err = self._error or err
                raise StoreError(f"cannot check {self.path}: {err}") from err
        return self._problems

    def cancel(self) -> None:
        """Stop the proof (the session closes) and wait for its thread: it touches nothing
        afterwards."""
        with self._guard:
            self._cancelled = True
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.interrupt()
        if self._thread is not None:
            self._thread.join()


def _inspect(path: Path, mark: Mark | None, factory: type[sqlite3.Connection],
             *, quick: bool = False) -> Found:
    try:
        return _read(path, mark, factory, quick=quick)
    except sqlite3.OperationalError as err:
        if (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF != SQLITE_READONLY:
            return _damage_or_raise(path, err)
    # A read-only connection cannot roll back a hot journal (a kill while the file was being
    # created): let a writing connection recover it (there is no -wal to lose), then read.
    try:
        connect(path, factory=factory).close()
        return _read(path, mark, factory)
    except sqlite3.DatabaseError as err:
        return _damage_or_raise(path, err)


def _read(path: Path, mark: Mark | None, factory: type[sqlite3.Connection],
          *, quick: bool = False) -> Found:
    conn: sqlite3.Connection | None = None
    try:
        conn = connect(path, readonly=True, factory=factory)
        reader = Reader(conn, path)
        with reader.snapshot():
            version = file_version(conn)
            if version > len(MIGRATIONS):
                return Found(newer=True)
            if version == 0:
                ok = reader.sqlite_check()
                return Found(problems=[] if ok == ["ok"] else [f"quick_check: {ok[0]}"])
            found = Found(problems=[] if quick else reader.problems())
            games = reader.games()
            if quick:  # (numbered from 1 without gaps: the proof checks that, later)
                reader.counted = {g.id: g.entries for g in games}
            # (the check counted every game's entries; the file holds no others)
            counted = reader.counted
            found.total = (sum(counted.values()) if set(counted) == {g.id for g in games}
                           else reader.total())
            if games:
                g = games[-1]
                found.latest = Mark(g.id, g.entries, g.head, found.total)
            found.players = {g.id: g.players for g in games}
            if mark is not None and mark.game is not None:
                row = reader.game(mark.game)
                found.entries = row.entries if row else None
                found.at_mark = reader.hash_at(mark.game, mark.seq)
            return found
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as err:
        return _damage_or_raise(path, err)
    except (ValueError, KeyError, TypeError) as err:
        return Found(problems=[f"unreadable content: {err}"])
    except OSError as err:
        if err.errno in (errno.EACCES, errno.EPERM, errno.ENOENT):
            raise StoreError(f"cannot open {path}: {err}") from err
        raise
    finally:
        if conn is not None:
            conn.close()


def _damage_or_raise(path: Path, err: sqlite3.DatabaseError) -> Found:
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in NOT_DAMAGE:
        raise StoreError(f"cannot open {path}: {err}") from err
    return Found(problems=[f"SQLite: {err}"])


def _gone_message(path: Path, size: int | None, mark: Mark | None) -> str:
    what = "is gone" if size is None else "is empty (0 bytes)"
    if mark is None or not mark.total:
        return (f"The game file {path} {what}, but its -wal file is still there: what it "
                "held cannot be read.")
    return (f"The game file {path} {what}, but the box had saved {mark.total} command(s) in "
            f"it, the last one command {mark.seq} of game {mark.game}: all {mark.total} "
            "acknowledged command(s) are missing.")


def _loss_message(path: Path, mark: Mark, found: Found) -> str:
    missing = max(mark.total - found.total, 0)
    game = mark.game if mark.game is not None else 0
    names = found.players.get(game)
    who = f"game {game} ({', '.join(names)})" if names else f"game {game}"
    if found.entries is None:
        holds = f"the file holds no game {game} at all"
    elif found.entries < mark.seq:
        holds = f"the file holds {who} only up to command {found.entries}"
    elif found.at_mark != mark.head:
        holds = f"the file's command {mark.seq} of {who} is not the one the box saved"
    else:
        holds = f"{who} is all there, but commands of earlier games are not"
    count = (f"{missing} acknowledged command(s) are missing" if missing else
             "acknowledged commands were replaced")
    return (f"Saved commands are missing from the game file {path}: {count}. The box had "
            f"saved {who} up to command {mark.seq} ({mark.total} command(s) in the file); "
            f"{holds} ({found.total} command(s) in the file). Its -wal file was probably "
            "deleted, cut short or damaged.")


def _note(text: str, mark: Mark | None) -> str:
    return (f"{text}\n\nThe last command the box acknowledged (from the lock file):\n"
            f"{json.dumps(None if mark is None else mark.to_json())}\n")
