"""Keeping a game file as it was found: moved aside (damaged) or copied aside (commands lost).

Nothing here ever overwrites a file: a new name is chosen until none of its files exists, a
move is ``link`` + ``unlink`` (``link`` fails rather than replace) and a copy is written to a
file created with ``O_EXCL``. Only the session holding the file's writer lock calls these
(`referee.store`); the readers (`games`, `verify`, `export`) never move anything.
"""

from __future__ import annotations

import io
import os
import shutil
from datetime import UTC
from pathlib import Path
from typing import BinaryIO

from referee.db import Clock, utc_now

PARTS = ("", "-wal", "-shm")
NOTE = ".txt"


def _free_name(path: Path, label: str, clock: Clock) -> Path:
    stamp = clock().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    n = 1
    while True:
        target = path.with_name(f"{path.name}.{label}-{stamp}" + (f"-{n}" if n > 1 else ""))
        if not any(os.path.lexists(str(target) + s) for s in (*PARTS, NOTE)):
            return target
        n += 1


def quarantine(path: Path, clock: Clock = utc_now, *, label: str = "damaged",
               note: str | None = None) -> Path:
    """Move the file (and its -wal/-shm) aside under a new name; never overwrite."""
    target = _free_name(path, label, clock)
    if note is not None:
        _write_new(Path(str(target) + NOTE), io.BytesIO(note.encode("utf-8")))
    for suffix in PARTS:
        src, dst = Path(str(path) + suffix), Path(str(target) + suffix)
        if not os.path.lexists(src):
            continue
        os.link(src, dst)  # fails rather than overwrite
        os.unlink(src)
    sync_dir(path.parent)
    return target


def preserve(path: Path, clock: Clock = utc_now, *, label: str = "lost",
             note: str | None = None) -> Path:
    """Copy the file (and its -wal/-shm) aside, byte for byte, under a new name."""
    target = _free_name(path, label, clock)
    if note is not None:
        _write_new(Path(str(target) + NOTE), io.BytesIO(note.encode("utf-8")))
    for suffix in PARTS:
        src = Path(str(path) + suffix)
        if os.path.lexists(src):
            with open(src, "rb") as f:
                _write_new(Path(str(target) + suffix), f)
    sync_dir(path.parent)
    return target


def _write_new(path: Path, source: BinaryIO) -> None:
    """Write a new file (never one that exists) from `source`, synced."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(source, out)
        out.flush()
        os.fsync(out.fileno())


def sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
