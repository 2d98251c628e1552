"""The proof of every entry runs beside the session (issue 16: resume in constant time).

At open, only what takes constant time is checked (the writer lock, the mark against the
entry it names, the schema), the game is restored from its newest snapshot, and the proof
(quick_check, every entry's hash, the rows, the snapshots) runs in a thread. Nothing is
written to the file before it finishes: the first command that would write waits for it,
and if it found damage the file is moved aside as start-up would have, the command is
refused naming the damage, and the session starts afresh on a new file."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import startup
from referee.app import open_session
from referee.db import Reader
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import Clock, lines, long_stream, referee

STAMP = "20250501T190001Z"  # the first reading of storehelp.Clock
COMMANDS = 600  # snapshots after entries 256 and 512


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "g.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in long_stream(COMMANDS):
        assert session.handle(request)["ok"]
    session.close()
    assert not Path(f"{path}-wal").exists()
    with sqlite3.connect(path) as conn:
        assert [s for (s,) in conn.execute("SELECT seq FROM snapshots")] == [256, 512]
    return path


def damaged_copy(pristine: Path, tmp_path: Path, seq: int = 3) -> Path:
    """A copy with one byte flipped in entry `seq`'s time (before every snapshot: the
    resume never reads it; only the proof does)."""
    path = tmp_path / "g.sqlite"
    shutil.copy(pristine, path)
    with sqlite3.connect(path) as conn:
        (body,) = conn.execute("SELECT body FROM entries WHERE seq = ?", (seq,)).fetchone()
    data = bytearray(path.read_bytes())
    at = data.index(body.encode()) + body.index('"at":"') + 8
    data[at] ^= 0x5A  # a digit becomes a letter: valid text, a valid page
    path.write_bytes(bytes(data))
    return path


def made_file(tmp_path: Path, commands: int = 300) -> Path:
    """A game file of `commands` commands (300: a snapshot after entry 256, so a resume
    starts from it and never reads the early entries), closed, in `tmp_path`/made."""
    path = tmp_path / "made" / "g.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in long_stream(commands):
        assert session.handle(request)["ok"]
    session.close()
    return path


def damaged_game(tmp_path: Path) -> Path:
    """`made_file`'s game, copied to `tmp_path`/play with entry 3 damaged (`damaged_copy`)."""
    made = made_file(tmp_path)
    (tmp_path / "play").mkdir()
    return damaged_copy(made, tmp_path / "play")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Gate:
    """Holds the proof back until `release` (and says when a command waits for it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = threading.Event()
        self.started = threading.Event()
        self.waiting = threading.Event()
        problems, result = Reader.problems, startup.Proof.result

        def held(reader: Reader, **kwargs: Any) -> list[str]:
            self.started.set()
            self.open.wait()
            return problems(reader, **kwargs)

        def waited(proof: startup.Proof) -> list[str]:
            self.waiting.set()
            return result(proof)

        monkeypatch.setattr(Reader, "problems", held)
        monkeypatch.setattr(startup.Proof, "result", waited)

    def release(self) -> None:
        self.open.set()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    g = Gate(monkeypatch)
    yield g
    g.release()  # (never leave a proof thread waiting)


def send_in_thread(session: Session, request: dict[str, Any]) -> tuple[threading.Thread,
                                                                        list[Any]]:
    answers: list[Any] = []
    t = threading.Thread(target=lambda: answers.append(session.handle(request)))
    t.start()
    return t, answers


def test_a_damaged_old_entry_is_found_beside_the_game_and_nothing_is_written_to_it(
        pristine: Path, tmp_path: Path, gate: Gate) -> None:
    path = damaged_copy(pristine, tmp_path)
    damaged = digest(path)
    told: list[str] = []
    session = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
    restarted: list[str] = []
    session.on_restart(restarted.append)
    # Playable at once, from the newest snapshot; the damage is not known yet.
    assert len(session.log) == COMMANDS and told == [
        f"Resumed game 1 (Ann, Ben, Cy, Di) after command {COMMANDS}."]
    assert session.handle({"cmd": "state"})["ok"]  # a query does not wait
    gate.started.wait()
    thread, answers = send_in_thread(session, {"cmd": "undo"})
    gate.waiting.wait()  # the command waits for the proof ...
    assert digest(path) == damaged and thread.is_alive()  # ... and has written nothing
    gate.release()
    thread.join()
    (answer,) = answers
    assert not answer["ok"] and answer["error"]["code"] == "store_error"
    assert "damaged" in answer["error"]["message"]
    assert "game 1 entry 3: content does not match its hash" in answer["error"]["message"]
    moved = path.with_name(f"g.sqlite.damaged-{STAMP}")
    assert digest(moved) == damaged  # moved as it was found: the undo is not in it
    assert len(told) == 2 and "damaged" in told[1] and str(moved) in told[1]
    assert restarted == [told[1]]
    # The state a start with that file gives: no game, a new file, which takes commands.
    assert session.state.phase.value == "no_game" and session.log == []
    assert session.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})["ok"]
    session.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM entries").fetchone() == (1,)


def test_a_healthy_file_is_proven_beside_the_game_and_commands_land(
        pristine: Path, tmp_path: Path, gate: Gate) -> None:
    path = tmp_path / "g.sqlite"
    shutil.copy(pristine, path)
    told: list[str] = []
    session = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
    gate.started.wait()
    thread, answers = send_in_thread(session, {"cmd": "undo"})
    gate.waiting.wait()
    gate.release()
    thread.join()
    assert answers[0]["ok"], answers
    assert len(told) == 1 and not list(tmp_path.glob("*.damaged-*"))
    store = session.store
    assert store is not None and store.proof is None  # type: ignore[attr-defined]
    session.close()
    again = open_session(db=path, seed=SEED, notify=told.append)
    assert again.log[-1].command["cmd"] == "undo" and len(again.log) == COMMANDS + 1
    again.close()


def test_lost_commands_are_said_at_open_before_the_proof(
        pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    shutil.copy(pristine, path)
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    for _ in range(3):
        assert session.handle({"cmd": "undo"})["ok"]
    session.close()  # (the mark now says 603 commands)
    shutil.copy(pristine, path)  # the file as it was before them: 3 acknowledged are lost
    gate = Gate(monkeypatch)
    try:
        told: list[str] = []
        again = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
        assert not gate.open.is_set()  # the proof has not run ...
        assert "Saved commands are missing" in told[0]  # ... and the loss is said already
        assert "3 acknowledged command(s) are missing" in told[0]
    finally:
        gate.release()
    again.settle()
    again.close()


def test_a_closed_session_never_moves_its_file_afterwards(
        pristine: Path, tmp_path: Path, gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    path = damaged_copy(pristine, tmp_path)
    damaged = digest(path)
    told: list[str] = []
    session = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
    gate.started.wait()
    cancel = startup.Proof.cancel

    def release_then_cancel(proof: startup.Proof) -> None:
        gate.release()  # the proof runs on (it finds the damage) while the session closes
        cancel(proof)

    monkeypatch.setattr(startup.Proof, "cancel", release_then_cancel)
    session.close()
    assert not any(t.name == "referee-proof" for t in threading.enumerate())
    assert digest(path) == damaged and not list(tmp_path.glob("*.damaged-*"))
    assert len(told) == 1  # (the next start finds it, and moves it aside then)
    again = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
    with pytest.raises(Exception, match="damaged"):
        again.settle()
    again.close()
    assert digest(path.with_name(f"g.sqlite.damaged-{STAMP}")) == damaged


def test_headless_says_the_damage_on_stderr_and_refuses_the_command(
        pristine: Path, tmp_path: Path) -> None:
    path = damaged_copy(pristine, tmp_path)
    damaged = digest(path)
    done = referee("headless", "--db", str(path), stdin="\n".join(json.dumps(r) for r in (
        {"cmd": "state"}, {"cmd": "undo"}, {"cmd": "new_game", "players": ["Ann", "Ben"]},
    )) + "\n")
    state, undo, new = lines(done.stdout)
    assert state["ok"] and undo["ok"] is False and new["ok"]
    assert undo["error"]["code"] == "store_error" and "damaged" in undo["error"]["message"]
    said = [line for line in done.stderr.splitlines() if "damaged" in line]
    assert len(said) == 1 and "moved aside" in said[0]
    (moved,) = tmp_path.glob("g.sqlite.damaged-*[0-9TZ]")
    assert digest(moved) == damaged


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seq=st.integers(1, COMMANDS), where=st.floats(0, 1, exclude_max=True))
def test_a_flip_in_any_entry_is_found_before_anything_is_written(
        pristine: Path, tmp_path_factory: pytest.TempPathFactory, seq: int,
        where: float) -> None:
    """Wherever an entry's body changes (before or after the newest snapshot), the game is
    playable at once, the first command waits, is refused naming that entry, and the file is
    moved aside exactly as it was."""
    tmp = tmp_path_factory.mktemp("flip")
    path = tmp / "g.sqlite"
    shutil.copy(pristine, path)
    with sqlite3.connect(path) as conn:
        (body,) = conn.execute("SELECT body FROM entries WHERE seq = ?", (seq,)).fetchone()
    data = bytearray(path.read_bytes())
    assume(body.encode() in data)  # (a long body spills onto overflow pages: not in one piece)
    start = data.index(body.encode())
    offset = start + int(where * len(body.encode()))
    data[offset] ^= 0x01  # (ASCII stays ASCII: still text, still a valid page)
    path.write_bytes(bytes(data))
    damaged = digest(path)
    told: list[str] = []
    session = open_session(db=path, seed=SEED, notify=told.append, clock=Clock())
    try:
        if told[-1].startswith("Resumed"):  # found by the proof, beside the game
            assert len(session.log) == COMMANDS
            answer = session.handle({"cmd": "undo"})
            assert not answer["ok"] and answer["error"]["code"] == "store_error", answer
            assert "damaged" in answer["error"]["message"]
        else:  # (an entry the resume read, after the newest snapshot, did not parse: the
            # proof ran at open, before the game was shown)
            assert seq > 512 and "damaged" in told[-1]
        (moved,) = tmp.glob("g.sqlite.damaged-*[0-9TZ]")
        assert digest(moved) == damaged
        assert session.log == [] and any("damaged" in t for t in told)
    finally:
        session.close()
