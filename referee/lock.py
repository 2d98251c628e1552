"""One writer per game file, and the last acknowledged command kept where a lost -wal cannot
take it with it.

A session that writes a game file holds an exclusive ``flock`` on ``<file>.lock`` beside it
(the kernel releases it when the process dies, so a killed box never leaves a stale lock). The
lock file also holds the **mark**: the game, number and hash of the last command the store
acknowledged, and how many commands the file held then. It is rewritten (and synced) after
every commit, before the command is answered, so at start the store can tell whether commands
it once acknowledged are missing (a deleted, truncated or damaged ``-wal``, an emptied file).

The file has two 256-byte slots, written in turn, each a line of canonical JSON with its own
checksum; a write torn by a power cut leaves the other slot, which holds the mark before it
(and a torn write is never of an acknowledged command: the command is answered only after
the write is synced). See docs/store.md.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.chain import GENESIS, canonical
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


def _encode(n: int, pid: int, mark: Mark | None) -> bytes:
    body = {"n": n, "pid": pid, "mark": None if mark is None else mark.to_json()}
    check = hashlib.sha256(canonical(body).encode()).hexdigest()[:16]
    line = canonical({**body, "check": check}).encode()
    if len(line) >= SLOT:
        raise ValueError("a mark does not fit its slot")
    return line + b" " * (SLOT - 1 - len(line)) + b"\n"


def _decode(raw: bytes) -> tuple[int, int, Mark | None] | None:
    """(n, pid, mark) of a slot, or None when it is empty or not intact."""
    try:
        item = json.loads(raw.decode("utf-8"))
        check = item.pop("check")
        if hashlib.sha256(canonical(item).encode()).hexdigest()[:16] != check:
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

    def _write(self, mark: Mark | None) -> None:
        if self._fd is None:
            raise StoreError("the game file's lock was released")
        self._n += 1
        os.pwrite(self._fd, _encode(self._n, os.getpid(), mark), (self._n % 2) * SLOT)
        os.fdatasync(self._fd)

    def record(self, mark: Mark) -> None:
        """Keep `mark` (synced before this returns); raises OSError if it could not."""
        self._write(mark)
        self.current = mark

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the last descriptor releases the flock

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.release()
