"""The mark is written on the command's path and synced off it (issue 16: one sync per
command): a killed process keeps it (page cache), the syncer syncs what is newest, and
closing joins it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee import lock as lockmod
from referee.lock import Mark, WriterLock


def test_marks_are_written_at_once_synced_by_the_syncer_and_joined_on_release(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.sqlite"
    lock = WriterLock.acquire(db)
    synced: list[int] = []
    real = os.fdatasync

    def counted(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(lockmod.os, "fdatasync", counted)
    marks = [Mark(1, i, f"{i:064x}", i) for i in range(1, 51)]
    for m in marks:
        lock.record(m)
        syncer = lock._syncer
        # written before record returns: another reader of the file sees it already
        fd = os.open(lockmod.lock_path(db), os.O_RDONLY)
        try:
            found, _ = lockmod._read(fd)
        finally:
            os.close(fd)
        assert found is not None and found[2] == m
    lock.release()
    assert 1 <= len(synced) <= len(marks)  # a burst costs at most one sync each, often fewer
    assert lock.syncs == len(synced)
    assert syncer is not None and not syncer.is_alive()
    again = WriterLock.acquire(db)
    assert again.found == marks[-1]
    again.release()


def test_a_failed_sync_is_told_at_the_next_mark(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    lock = WriterLock.acquire(tmp_path / "g.sqlite")

    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(lockmod.os, "fdatasync", broken)
    lock.record(Mark(1, 1, "0" * 64, 1))
    lock._stop_syncer()  # (joined: its sync has failed)
    with pytest.raises(OSError, match="Input/output"):
        lock.record(Mark(1, 2, "0" * 64, 2))
    lock.release()


def test_a_lock_nobody_released_is_released_when_it_is_dropped(tmp_path: Path) -> None:
    import gc

    db = tmp_path / "g.sqlite"
    lock = WriterLock.acquire(db)
    lock.record(Mark(1, 1, "0" * 64, 1))
    syncer = lock._syncer
    del lock
    gc.collect()
    assert syncer is not None
    syncer.join(timeout=30)
    assert not syncer.is_alive()
    again = WriterLock.acquire(db)  # the flock went with it
    assert again.found == Mark(1, 1, "0" * 64, 1)
    again.release()
