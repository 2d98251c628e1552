"""Damaged game files (reliability #3): detected at start, moved aside (never overwritten),
reported through `notify`, and a clean store started."""

from __future__ import annotations

import contextlib
import hashlib
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from referee.app import open_session
from referee.errors import NotRecorded
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import Clock, long_stream

STAMP = "20250501T190001Z"  # the first reading of storehelp.Clock


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed game file (WAL checkpointed away) with 200 commands of one game."""
    path = tmp_path_factory.mktemp("pristine") / "g.sqlite"
    session = open_session(db=path, seed=SEED)
    for request in long_stream(200):
        assert session.handle(request)["ok"]
    session.close()
    assert not Path(f"{path}-wal").exists()
    return path


def copy(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "g.sqlite"
    shutil.copy(pristine, path)
    return path


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def open_and_listen(path: Path) -> tuple[Session, list[str]]:
    told: list[str] = []
    return open_session(db=path, seed=SEED, notify=told.append, clock=Clock()), told


def damage_said(told: list[str]) -> list[str]:
    return [m for m in told if "damaged" in m]


def assert_quarantined(path: Path, damaged: str, told: list[str], session: Session) -> Path:
    """The damage is said and the file moved aside: at open (a file that does not open), or
    when the proof of every entry, running beside the session, finds it: then the first
    command that would write is refused, naming the damage, and not written anywhere."""
    if not damage_said(told):
        answer = session.handle({"cmd": "undo"})  # would write the resumed game's log
        assert not answer["ok"] and answer["error"]["code"] == "store_error"
        assert "damaged" in answer["error"]["message"]
    said = damage_said(told)
    moved = path.with_name(f"g.sqlite.damaged-{STAMP}")
    assert moved.exists() and digest(moved) == damaged  # moved as it was, not rewritten
    assert len(said) == 1 and str(moved) in said[0]
    assert str(path) in said[0] and "new, empty game file" in said[0]
    assert session.state.phase.value == "no_game" and session.log == []
    assert session.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})["ok"]
    return moved


def test_a_flipped_byte_in_a_logged_command_is_found_by_the_chain(
        pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    offset = path.read_bytes().index(b'"tile":"black_market"')
    flip(path, offset + 9)  # still valid UTF-8 text, still a valid SQLite file
    assert sqlite3.connect(path).execute("PRAGMA quick_check").fetchone() == ("ok",)
    damaged = digest(path)
    session, told = open_and_listen(path)
    assert not damage_said(told) and len(session.log) == 200  # playable at once; then
    assert_quarantined(path, damaged, told, session)
    assert "does not match its hash" in damage_said(told)[0]


def test_a_flipped_header_byte_makes_the_file_not_a_database(
        pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    flip(path, 3)  # inside "SQLite format 3"
    damaged = digest(path)
    session, told = open_and_listen(path)
    assert_quarantined(path, damaged, told, session)
    assert "not a database" in told[0]


def test_a_damaged_btree_page_is_found_by_quick_check(pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    page = 4096
    data = bytearray(path.read_bytes())
    for p in range(1, len(data) // page):  # the first interior/leaf page header we find
        if data[p * page] in (0x02, 0x05, 0x0A, 0x0D):
            data[p * page] = 0x77  # not a page type
            break
    path.write_bytes(bytes(data))
    damaged = digest(path)
    session, told = open_and_listen(path)
    assert_quarantined(path, damaged, told, session)


def test_the_wal_and_shm_files_go_with_it_and_nothing_is_overwritten(
        pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").write_bytes(b"")
    taken = path.with_name(f"g.sqlite.damaged-{STAMP}")
    taken.write_bytes(b"an earlier quarantined file")
    flip(path, 3)
    damaged = digest(path)
    session, told = open_and_listen(path)
    moved = path.with_name(f"g.sqlite.damaged-{STAMP}-2")
    assert taken.read_bytes() == b"an earlier quarantined file"
    assert digest(moved) == damaged and str(moved) in told[0]
    assert Path(f"{moved}-wal").exists() and Path(f"{moved}-shm").exists()
    assert session.log == []


def test_random_flips_are_either_caught_or_harmless(pristine: Path, tmp_path: Path) -> None:
    """Wherever a byte flips, the box never resumes a changed game without saying so."""
    reference = open_session(db=copy(pristine, tmp_path / "ref"), seed=SEED)
    want = [e.to_json() for e in reference.log]
    reference.close()
    size = pristine.stat().st_size
    rng = random.Random(1234)
    caught = 0
    for i in range(40):
        path = copy(pristine, tmp_path / f"f{i}")
        flip(path, rng.randrange(100, size))
        session, told = open_and_listen(path)
        with contextlib.suppress(NotRecorded):
            session.settle()  # (the proof of every entry ran beside it: wait for it)
        if damage_said(told):
            caught += 1
            assert session.log == []
        else:  # a flip in free space or slack: the game must be exactly as it was
            assert [e.to_json() for e in session.log] == want
        session.close()
    assert caught > 0


@pytest.fixture(autouse=True)
def _tmp_dirs(tmp_path: Path) -> None:
    (tmp_path / "ref").mkdir()
    for i in range(40):
        (tmp_path / f"f{i}").mkdir()
