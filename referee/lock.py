"""One writer per game file, and the last acknowledged command kept where a lost -wal cannot
take it with it.

A session that writes a game file holds an exclusive ``flock`` on ``<file>.lock`` beside it
(the kernel releases it when the process dies, so a killed box never leaves a stale lock). The
lock file also holds the **mark**: the game, number and hash of the last command the store
acknowledged, and how many commands the file held then. It is rewritten after every commit,
before the command is answered (a write to the page cache: a killed process keeps it), so at
start the store can tell whether commands it once acknowledged are missing (a deleted,
truncated or damaged ``-wal``, an emptied file). It is synced by a thread of its own, off the
command's path (the -wal's sync is the command's one sync): a burst of commands costs one
sync of the mark, and an idle box none. A power cut can leave the mark a command or so
behind the file (harmless: the -wal was synced, nothing is lost, and a mark behind the file
is never reported as a loss); only a power cut *and* a lost -wal together could miss those.

The file has two 256-byte slots, written in turn, each a line of canonical JSON with its own
checksum; a write torn by a power cut leaves the other slot, which holds an earlier mark (if
both were torn, the next start says it could not read the mark). See docs/store.md.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.chain import GENESIS, canonical, sha256_hex
from referee.errors import StoreError
from referee.evidence import sync_dir

SLOT = 256
SUFFIX = ".lock"


@dataclass(frozen=True, slots=True)
class Mark:
    """What the store last acknowledged: game `game`'s command `seq` with hash `head`, when
    the file held `total` commands (of all its games). `game` None: nothing yet."""

    game: int | None
    seq: int
    head: str
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seq": self.seq, "head": self.head, "total": self.total}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Mark:
        game, seq, head, total = d["game"], d["seq"], d["head"], d["total"]
        if not (game is None or type(game) is int) or type(seq) is not int \
                or type(total) is not int or not isinstance(head, str):
            raise ValueError(f"not a mark: {d}")
        return cls(game, seq, head, total)


EMPTY = Mark(None, 0, GENESIS, 0)


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + SUFFIX)


def _encode(n: int, pid: int, mark: Mark | None, *, pad: bool = True) -> bytes:
    """A slot's line. `pad`: the whole slot (spaces to its end); otherwise only the line and
    its newline (a mark after every command writes ~170 bytes, not 256: the slot is read up to
    its first newline, so what an earlier, longer line left after it is never read)."""
    body = {"n": n, "pid": pid, "mark": None if mark is None else mark.to_json()}
    check = sha256_hex(canonical(body).encode())[:16]
    line = canonical({**body, "check": check}).encode()
    if len(line) >= SLOT:
        raise ValueError("a mark does not fit its slot")
    return line + (b" " * (SLOT - 1 - len(line)) if pad else b"") + b"\n"


def _decode(raw: bytes) -> tuple[int, int, Mark | None] | None:
    """(n, pid, mark) of a slot (its first line), or None when it is empty or not intact."""
    try:
        item = json.loads(raw.split(b"\n", 1)[0].decode("utf-8"))
        check = item.pop("check")
        if sha256_hex(canonical(item).encode())[:16] != check:
            return None
        n, pid, mark = item["n"], item["pid"], item["mark"]
        if type(n) is not int or type(pid) is not int:
            return None
        return n, pid, None if mark is None else Mark.from_json(mark)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _read(fd: int) -> tuple[tuple[int, int, Mark | None] | None, bool]:
    """The newest intact slot, and whether the file held anything at all."""
    raw = os.pread(fd, 2 * SLOT, 0)
    slots = [s for s in (_decode(raw[:SLOT]), _decode(raw[SLOT:2 * SLOT])) if s is not None]
    return (max(slots, key=lambda s: s[0]) if slots else None), bool(raw.strip(b"\0 \n"))


class WriterLock:
    """The exclusive lock on a game file and its mark. Get one with `WriterLock.acquire`."""

    def __init__(self, path: Path, fd: int, found: Mark | None, unreadable: bool,
                 n: int) -> None:
        self.path = path
        self.found = found  # the mark as the last writer left it (None: no record)
        self.unreadable = unreadable  # the lock file held something, but no intact mark
        self.current = found
        self._fd: int | None = fd
        self._n = n
        self._wake = threading.Condition()
        self._dirty = False
        self._stopping = False
        self._syncer: threading.Thread | None = None
        self._sync_error: OSError | None = None
        self.syncs = 0  # syncs of the mark the syncer made (a burst of marks: one)

    @classmethod
    def acquire(cls, db: Path) -> WriterLock:
        """Lock `db` for writing, or raise `StoreError` naming the process that has it."""
        path = lock_path(db)
        try:
            existed = path.exists()
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as err:
            raise StoreError(f"cannot create the lock file {path}: "
                             f"{err.strerror or err}") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            found, _ = _read(fd)
            os.close(fd)
            who = f"process {found[1]}" if found else "another process"
            raise StoreError(
                f"the game file {db} is already in use by another referee ({who}). A game "
                "file has one writer at a time: stop that one first, or give this one "
                "another file with --db. (Reading it is fine: `referee games`, `verify` and "
                "`export` work beside a running box.)") from None
        except OSError as err:
            os.close(fd)
            raise StoreError(f"cannot lock {path}: {err.strerror or err}") from err
        try:
            found, anything = _read(fd)
            lock = cls(path, fd, found[2] if found else None, anything and found is None,
                       found[0] if found else 0)
            lock._write_both(lock.found)  # this process's pid, the mark as it was
            if not existed:
                sync_dir(path.parent)
        except OSError as err:
            os.close(fd)
            raise StoreError(f"cannot write the lock file {path}: "
                             f"{err.strerror or err}") from err
        return lock

    def _write_both(self, mark: Mark | None) -> None:
        for _ in range(2):
            self._write(mark)

    def _write(self, mark: Mark | None, *, sync: bool = True) -> None:
        if self._fd is None:
            raise StoreError("the game file's lock was released")
        self._n += 1
        os.pwrite(self._fd, _encode(self._n, os.getpid(), mark, pad=sync),
                  (self._n % 2) * SLOT)
        if sync:
            os.fdatasync(self._fd)

    def record(self, mark: Mark) -> None:
        """Keep `mark`: written before this returns (in the page cache, so a killed process
        keeps it), synced soon after by the syncer thread, off the command's path (a power
        cut may leave the mark a command or so behind the file: never ahead of it, so never a
        false loss). Raises OSError if it could not be written, or if an earlier sync failed."""
        failed, self._sync_error = self._sync_error, None
        if failed is not None:
            raise failed
        self._write(mark, sync=False)
        self.current = mark
        with self._wake:
            self._dirty = True
            if self._syncer is None:
                self._syncer = threading.Thread(target=self._sync_loop,
                                                args=(weakref.ref(self), self._wake),
                                                daemon=True, name="referee-mark-sync")
                self._syncer.start()
            self._wake.notify()

    @staticmethod
    def _sync_loop(ref: weakref.ref[WriterLock], wake: threading.Condition) -> None:
        """Sync the lock file whenever a mark was written since the last sync (a burst of
        marks costs one sync); sleeps on `wake` while there is nothing to do. It holds the
        lock only weakly while it sleeps, so a lock nobody closed is still released (__del__)."""
        while True:
            with wake:
                while True:
                    lock = ref()
                    if lock is None:
                        return
                    if lock._dirty or lock._stopping:
                        break
                    del lock
                    wake.wait()
                if not lock._dirty:
                    return
                lock._dirty = False
                fd = lock._fd
            if fd is None:
                return
            try:
                os.fdatasync(fd)
                lock.syncs += 1
            except OSError as err:
                lock._sync_error = err
            del lock

    def _stop_syncer(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()
            syncer, self._syncer = self._syncer, None
        if syncer is not None and syncer is not threading.current_thread():
            syncer.join()  # (it syncs what is left before it stops)

    def release(self) -> None:
        self._stop_syncer()
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the last descriptor releases the flock

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.release()
