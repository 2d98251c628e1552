"""Reliability #5 and fault test 14: a loss is never silent.

Acknowledged commands can live only in the `-wal` until a checkpoint copies them into the
file. Deleting, cutting short or damaging the `-wal` (or emptying the file) after they were
acknowledged must be reported when the box starts, before play goes on: how many are
missing and what the file still holds; the file as found is kept; the game goes on from what
is left, and the next start says nothing more.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.app import open_session
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import ROOT, SEED_HEX, Clock, Headless, long_stream

STREAM = long_stream(400)
BEFORE_CHECKPOINT, ACKED = 200, 350
PARTS = ("", "-wal", "-shm", ".lock")


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files of a box that was cut off after acknowledging ACKED commands: the first
    BEFORE_CHECKPOINT are in the file itself (checkpointed), the rest only in the -wal."""
    live = tmp_path_factory.mktemp("live") / "g.sqlite"
    session = open_session(db=live, seed=SEED, notify=lambda _: None)
    for r in STREAM[:BEFORE_CHECKPOINT]:
        assert session.handle(r)["ok"]
    other = sqlite3.connect(live)
    assert other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[0] == 0
    other.close()
    for r in STREAM[BEFORE_CHECKPOINT:ACKED]:
        assert session.handle(r)["ok"]
    saved = tmp_path_factory.mktemp("image")
    for part in PARTS:  # as a power cut would leave them: nothing is written meanwhile
        if os.path.exists(f"{live}{part}"):
            shutil.copy(f"{live}{part}", saved / f"g.sqlite{part}")
    session.close()
    return saved / "g.sqlite"


def fresh(image: Path) -> Path:
    where = Path(tempfile.mkdtemp(prefix="referee-lost-"))
    for part in PARTS:
        if os.path.exists(f"{image}{part}"):
            shutil.copy(f"{image}{part}", where / f"g.sqlite{part}")
    return where / "g.sqlite"


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset % len(data)] ^= 0x5A
    path.write_bytes(bytes(data))


def cut(path: Path, at: float) -> None:
    os.truncate(path, int(path.stat().st_size * at))


Fault = Callable[[Path, float], None]
FAULTS: dict[str, Fault] = {
    "wal deleted": lambda p, _: os.unlink(f"{p}-wal"),
    "wal cut short": lambda p, at: cut(Path(f"{p}-wal"), at),
    "wal byte flipped": lambda p, at: flip(Path(f"{p}-wal"), int(at * 10**9)),
    "wal zeroed from a point": lambda p, at: zero_from(Path(f"{p}-wal"), at),
    "file emptied, wal deleted": lambda p, _: (os.truncate(p, 0), os.unlink(f"{p}-wal")),
    "file emptied": lambda p, _: os.truncate(p, 0),
    "file deleted": lambda p, _: os.unlink(p),
}


def zero_from(path: Path, at: float) -> None:
    size = path.stat().st_size
    start = int(size * at)
    with open(path, "r+b") as f:
        f.seek(start)
        f.write(b"\0" * (size - start))


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fault=st.sampled_from(sorted(FAULTS)), at=st.floats(0, 1, exclude_max=True))
def test_acknowledged_commands_found_missing_are_reported_before_play(
        image: Path, fault: str, at: float) -> None:
    path = fresh(image)
    try:
        FAULTS[fault](path, at)
        found = {part: Path(f"{path}{part}").read_bytes() for part in ("", "-wal")
                 if Path(f"{path}{part}").exists()}  # (-shm is an index SQLite rebuilds)
        told: list[str] = []
        session = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
        held = len(session.log)
        event(f"{fault}: {'commands lost' if held < ACKED else 'nothing lost'}")
        model = Session(seed=SEED)
        for r in STREAM[:held]:
            assert model.handle(r)["ok"]
        assert [e.to_json() for e in session.log] == [e.to_json() for e in model.log]
        if held < ACKED:
            assert told, f"{fault}: {ACKED - held} acknowledged commands vanished silently"
            first = told[0]  # the first thing the table hears
            missing = ACKED - held
            assert (f"{missing} acknowledged command(s) are missing" in first
                    or f"all {missing} acknowledged command(s) are missing" in first), first
            kept = Path(first.split(" kept as ")[-1].split(" moved aside to ")[-1]
                        .split(" (with")[0])
            for part, data in found.items():  # the evidence, byte for byte
                assert Path(f"{kept}{part}").read_bytes() == data, (fault, part)
            assert Path(f"{kept}.txt").read_text().startswith(first.split(" The file as")[0]
                                                             .split(" What was there")[0])
        else:
            assert not any("missing" in t for t in told), told
        assert session.handle(STREAM[held])["ok"]  # play goes on from what is left
        session.close()
        again: list[str] = []
        open_session(db=path, seed=SEED, notify=again.append).close()
        assert not any("missing" in t for t in again), again  # said once, not at every start
    finally:
        shutil.rmtree(path.parent, ignore_errors=True)


def test_the_wal_of_a_killed_referee_deleted_is_reported_first(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as box:
        box.play(STREAM[:60])
        box.kill()
    os.unlink(f"{path}-wal")
    out = subprocess.run(
        [sys.executable, "-m", "referee", "headless", "--db", str(path), "--seed", SEED_HEX],
        input=json.dumps({"cmd": "state"}) + "\n", stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=60, cwd=ROOT)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("referee: Saved commands are missing from the game file")
    assert "60 acknowledged command(s) are missing" in lines[0]
    assert "the file holds no game 1 at all" in lines[0]
    assert json.loads(lines[-1])["ok"]  # then it answers, with what is left
    assert list(tmp_path.glob("g.sqlite.lost-*"))


def test_a_file_from_before_the_lock_opens_quietly_and_is_marked(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=SEED)
    for r in STREAM[:30]:
        assert session.handle(r)["ok"]
    session.close()
    os.unlink(f"{path}.lock")  # as the referee before this change left its files
    told: list[str] = []
    again = open_session(db=path, seed=SEED, notify=told.append)
    assert told == ["Resumed game 1 (Ann, Ben, Cy, Di) after command 30."]
    again.close()
    assert Path(f"{path}.lock").exists()


def test_an_unreadable_mark_is_said_and_written_afresh(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=SEED)
    for r in STREAM[:10]:
        assert session.handle(r)["ok"]
    session.close()
    Path(f"{path}.lock").write_bytes(b"\x00garbage" * 100)
    told: list[str] = []
    open_session(db=path, seed=SEED, notify=told.append).close()
    assert "could not be read" in told[0] and "Resumed game 1" in told[1]
    told.clear()
    open_session(db=path, seed=SEED, notify=told.append).close()
    assert told == ["Resumed game 1 (Ann, Ben, Cy, Di) after command 10."]


def test_a_finished_game_is_in_the_file_itself_not_only_in_the_wal(tmp_path: Path) -> None:
    """The end of a game checkpoints: losing the -wal afterwards cannot touch its result."""
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=bytes.fromhex("a5" * 32))
    script = ROOT / "tests" / "referee" / "games" / "three_players.jsonl"
    requests = [json.loads(line) for line in script.read_text().splitlines()]
    for r in requests:
        if r["cmd"] not in ("state", "catalog"):
            assert session.handle(r)["ok"], r
    assert session.state.winner == "Ann"
    n = len(session.log)
    alone = tmp_path / "alone.sqlite"
    shutil.copy(path, alone)  # the file without its -wal, while the box still runs
    conn = sqlite3.connect(alone)
    assert conn.execute("SELECT status, winner, entries FROM games").fetchall() == [
        ("over", "Ann", n)]
    conn.close()
    session.close()
