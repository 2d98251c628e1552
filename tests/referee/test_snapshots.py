"""Snapshots and the sparse undo stack (issue 16): a game resumed from the store's newest
snapshot, undone past it, restarted again and again, stays the game an in-memory session fed
the same commands plays; every state of both games survives its snapshot exactly; a damaged
snapshot is found at start like a damaged entry, and one that no longer fits is not used."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant

from referee import running
from referee.app import open_session
from referee.chain import canonical
from referee.errors import NotRecorded
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import ROOT, long_stream
from tests.referee.test_session import bot_request
from tests.referee.test_store_stateful import StoreMachine

SMALL = {"SNAPSHOT_EVERY": 5, "WINDOW": 2, "EVERY": 3, "DEEP": 7, "TAIL": 3}


class SparseStoreMachine(StoreMachine):
    """The store's stateful test with everything small: snapshots every 5 entries, the undo
    stack holding a state for the last 2 steps and every 3rd (within 7 of the top), the log
    holding 3 to 6 entries; so resumes start from snapshots, undos rebuild states and read
    entries and snapshots back from the file."""

    def __init__(self) -> None:
        self.saved = {k: getattr(running, k) for k in SMALL}
        for k, v in SMALL.items():
            setattr(running, k, v)
        super().__init__()

    def teardown(self) -> None:
        try:
            super().teardown()
        finally:
            for k, v in self.saved.items():
                setattr(running, k, v)

    @invariant()
    def same_undo(self) -> None:
        assert self.real.undo_words() == self.model.undo_words()


SparseStoreMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
TestSparseStoreMachine = SparseStoreMachine.TestCase


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in SMALL.items():
        monkeypatch.setattr(running, k, v)


def snapshots(path: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT game, seq FROM snapshots ORDER BY game, seq").fetchall()


def test_a_resume_starts_from_the_newest_snapshot_and_undoes_past_it(
        tmp_path: Path, small: None) -> None:
    path = tmp_path / "g.sqlite"
    stream = long_stream(60)
    model = Session(seed=SEED)
    real = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in stream:
        assert real.handle(request) == model.handle(request)
    real.close()
    kept = snapshots(path)
    assert kept and kept[-1][1] >= 55 and all(seq % 5 == 0 for _, seq in kept)
    read: list[tuple[int, int]] = []
    real = open_session(db=path, seed=SEED, notify=lambda _: None)
    store: Any = real.store
    original = store.read_entries

    def counting(first: int, last: int) -> list[Any]:
        read.append((first, last))
        return original(first, last)

    store.read_entries = counting
    assert real.state == model.state and real.kept == model.kept
    assert not read  # the state came from the snapshot and the entries after it
    for _ in range(40):  # undo far below the snapshot: states rebuilt from older ones
        assert real.handle({"cmd": "undo"}) == model.handle({"cmd": "undo"})
        assert real.state == model.state and real.kept == model.kept
    assert read  # ... reading entries back from the file
    assert [e.to_json() for e in real.log] == [e.to_json() for e in model.log]
    real.close()


def test_a_damaged_snapshot_is_found_at_start(tmp_path: Path, small: None) -> None:
    path = tmp_path / "g.sqlite"
    real = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in long_stream(20):
        real.handle(request)
    real.close()
    with sqlite3.connect(path) as conn:
        (seq, body), *_ = conn.execute("SELECT seq, body FROM snapshots").fetchall()
        conn.execute("UPDATE snapshots SET body = ? WHERE seq = ?",
                     (body.replace('"position":', '"position": '), seq))
    told: list[str] = []
    again = open_session(db=path, seed=SEED, notify=told.append)
    # (the newest intact snapshot is used; the proof of every entry, beside the session,
    # finds the damaged one, and the first command that would write waits for it)
    with pytest.raises(NotRecorded, match=f"snapshot {seq}"):
        again.settle()
    assert len(told) == 2 and f"snapshot {seq}" in told[1] and "damaged" in told[1]
    assert len(again.log) == 0
    again.close()


def test_a_snapshot_of_other_rules_is_not_used(tmp_path: Path, small: None) -> None:
    path = tmp_path / "g.sqlite"
    stream = long_stream(23)
    model = Session(seed=SEED)
    real = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in stream:
        real.handle(request)
        model.handle(request)
    real.close()
    from referee.chain import link
    with sqlite3.connect(path) as conn:  # as if written by another version of the rules
        for seq, h, body in conn.execute("SELECT seq, hash, body FROM snapshots").fetchall():
            other = canonical({**json.loads(body), "version": "0"})
            conn.execute("UPDATE snapshots SET body = ?, digest = ? WHERE seq = ?",
                         (other, link(h, other), seq))
    again = open_session(db=path, seed=SEED, notify=lambda _: None)
    assert again.state == model.state and again.kept == model.kept
    assert again.stream_position == model.stream_position
    again.close()


def _art_game(commands: int) -> Session:
    spec = importlib.util.spec_from_file_location("bench_art", ROOT / "scripts" / "bench_art.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    session: Session = module.long_art_game(commands)
    return session


def round_trips(session: Session) -> int:
    ruleset, n = session.ruleset, 0
    game = session._game
    for i in range(game.depth):
        state = game.state_at(i)
        back = ruleset.state_from_snapshot(json.loads(canonical(ruleset.snapshot_json(state))),
                                           game.catalog)
        assert back == state and ruleset.state_json(back) == ruleset.state_json(state)
        n += 1
    return n


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=80))
def test_every_gallery_grippers_state_survives_its_snapshot(picks: list[int]) -> None:
    s = Session(seed=SEED)
    for request in long_stream(6):
        s.handle(request)
    for pick in picks:
        if s.state.over:
            break
        s.handle(bot_request(s.handle({"cmd": "state"})["state"], pick))
    assert round_trips(s) == s._game.depth


def test_every_art_project_state_survives_its_snapshot() -> None:
    s = _art_game(400)
    assert round_trips(s) > 50


def test_the_undo_stack_holds_few_states(small: None) -> None:
    s = Session(seed=SEED)
    for request in long_stream(200):
        s.handle(request)
    game = s._game
    assert game.depth > 150
    # in memory (no store): the last WINDOW + 1 and every EVERY-th
    assert len(game.states) <= SMALL["WINDOW"] + 2 + game.depth // SMALL["EVERY"] + 16
    model = Session(seed=SEED)
    for request in long_stream(200):
        model.handle(request)
    for _ in range(30):
        assert s.handle({"cmd": "undo"}) == model.handle({"cmd": "undo"})
    assert s.state == model.state


GALLERIST = ROOT / "tests" / "referee" / "games" / "gallerist" / "game.jsonl"


def test_a_gallerist_game_survives_its_snapshots_and_resumes_from_them(
        tmp_path: Path, small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Gallerist's whole scripted game (tests/referee/games/gallerist): every state
    survives its snapshot, and the file, with a snapshot every 5 entries, resumes to it."""
    monkeypatch.chdir(ROOT)  # (the script names its catalog by a path from the top)
    seed = bytes.fromhex("5a" * 32)
    lines = [json.loads(x) for x in GALLERIST.read_text(encoding="utf-8").splitlines()]
    model = Session(seed=seed)
    real = open_session(db=tmp_path / "g.sqlite", seed=seed, notify=lambda _: None)
    for request in lines:
        assert model.handle(request)["ok"] and real.handle(request)["ok"], request
    real.close()
    assert model.ruleset.id == "gallerist" and round_trips(model) > 20
    with sqlite3.connect(tmp_path / "g.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] > 3
    again = open_session(db=tmp_path / "g.sqlite", seed=seed, notify=lambda _: None)
    assert again.state == model.state and again.kept == model.kept
    again.close()


def test_verify_compares_every_snapshot_with_the_game_its_entries_give(
        tmp_path: Path, small: None) -> None:
    from referee.chain import link
    from tests.referee.storehelp import referee

    path = tmp_path / "g.sqlite"
    real = open_session(db=path, seed=SEED, notify=lambda _: None)
    for request in long_stream(30):
        real.handle(request)
    assert real.handle({"cmd": "reveal"})["ok"]  # so verify can check every roll
    real.close()
    good = referee("verify", "--db", str(path))
    assert good.returncode == 0 and "VERDICT: GOOD" in good.stdout, good.stdout
    with sqlite3.connect(path) as conn:  # a snapshot that is intact but says another game
        seq, h, body = conn.execute("SELECT seq, hash, body FROM snapshots").fetchone()
        core = json.loads(body)
        other = canonical({**core, "position": core["position"] + 1})
        conn.execute("UPDATE snapshots SET body = ?, digest = ? WHERE seq = ?",
                     (other, link(h, other), seq))
    bad = referee("verify", "--db", str(path))
    assert bad.returncode != 0 and f"snapshot {seq}: differs" in bad.stdout, bad.stdout
