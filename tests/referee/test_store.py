"""The event store: durability settings, the chain, resume, several games, migrations,
catalog checks, faults on append (reliability #2) and the `reveal` command."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee import db as dbmod
from referee.app import default_db_path, open_session
from referee.chain import GENESIS, canonical, link
from referee.db import connect
from referee.errors import CatalogError, StoreError
from referee.headless import answer_line
from referee.session import Session
from referee.store import EventStore
from tests.referee.conftest import SEED, Table
from tests.referee.storehelp import (
    ROOT,
    SEED_HEX,
    Clock,
    FailingConnection,
    Faults,
    long_stream,
    referee,
)

GAME = ROOT / "tests" / "referee" / "games" / "three_players.jsonl"
GAME_SEED = bytes.fromhex("a5" * 32)


@pytest.fixture(autouse=True)
def _no_faults() -> Iterator[None]:
    Faults.failing, Faults.error, Faults.match = False, "database or disk is full", None
    yield
    Faults.failing, Faults.match = False, None


def play(session: Session, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answers = [session.handle(r) for r in requests]
    for r, a in zip(requests, answers, strict=True):
        assert a["ok"], (r, a)
    return answers


def script() -> list[dict[str, Any]]:
    """The scripted three-player game's commands (queries left out: they are not logged)."""
    requests = [json.loads(line) for line in GAME.read_text().splitlines() if line.strip()]
    return [r for r in requests if r["cmd"] not in ("state", "catalog")]


def rows(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


# ---- settings and the chain -----------------------------------------------------------

def test_every_connection_runs_wal_with_full_sync_and_a_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    store = EventStore.open(path)
    for conn in (store._conn, connect(path), connect(path, readonly=True)):
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == dbmod.BUSY_TIMEOUT_MS
        conn.close()


def test_canonical_json_sorts_keys_drops_spaces_and_keeps_unicode() -> None:
    assert canonical({"b": [1, 2], "a": "Mérida"}) == '{"a":"Mérida","b":[1,2]}'
    with pytest.raises(ValueError):
        canonical({"x": float("nan")})


def test_each_entry_is_chained_to_the_one_before_by_sha256(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=GAME_SEED, clock=Clock())
    play(session, script()[:12])
    n = len(session.log)
    session.close()
    stored = rows(path, "SELECT seq, body, h, hash FROM entries WHERE game = 1 ORDER BY seq")
    assert n >= 10 and [r[0] for r in stored] == list(range(1, n + 1))
    prev = GENESIS
    for seq, body, raw, digest in stored:  # (prev: the hash of the row before, schema 5)
        assert raw == bytes.fromhex(digest) and len(raw) == 32
        assert digest == hashlib.sha256((prev + body).encode("utf-8")).hexdigest()
        assert digest == link(prev, body)
        parsed = json.loads(body)
        assert set(parsed) == {"game", "seq", "at", "command", "events"} and parsed["seq"] == seq
        assert canonical(parsed) == body
        prev = digest
    # The row is written with a game's first entry, its snapshots and its end (not with
    # every command); the games a reader lists end where the log ends.
    assert rows(path, "SELECT head, entries FROM games") == [(stored[0][3], 1)]
    reader = dbmod.Reader(dbmod.connect(path, readonly=True), path)
    g = reader.game(1)
    reader.close()
    assert g is not None and (g.head, g.entries) == (prev, n)


def test_timestamps_come_from_the_injected_clock(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=GAME_SEED, clock=Clock())
    play(session, script())
    session.close()
    ats = [r[0] for r in rows(path, "SELECT at FROM entries ORDER BY seq")]
    assert ats[0] == "2025-05-01T19:00:01.000+00:00" and ats == sorted(ats)
    [(started, ended, status, winner)] = rows(
        path, "SELECT started_at, ended_at, status, winner FROM games")
    assert (started, status, winner) == (ats[0], "over", "Ann") and ended in ats


# ---- resume ---------------------------------------------------------------------------

def test_resume_continues_the_exact_game_kept_dice_and_stream_included(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    stream = long_stream(400)
    model = Session(seed=SEED)
    play(model, stream[:300])
    session = open_session(db=path, seed=SEED)
    play(session, stream[:300])
    session.close()
    told: list[str] = []
    again = open_session(db=path, seed=SEED, notify=told.append)
    assert told == ["Resumed game 1 (Ann, Ben, Cy, Di) after command 300."]
    assert again.state == model.state
    assert again.kept == model.kept and again.stream_position == model.stream_position
    assert [e.to_json() for e in again.log] == [e.to_json() for e in model.log]
    assert any(e.undone for e in again.log)  # undos (and their marks) came back too
    assert play(again, stream[300:]) == play(model, stream[300:])


def test_the_headless_referee_resumes_across_runs(tmp_path: Path) -> None:
    db = str(tmp_path / "g.sqlite")
    requests = [json.dumps(r) for r in script()]
    whole = referee("headless", "--seed", "a5" * 32, stdin="\n".join(requests) + "\n")
    first = referee("headless", "--db", db, "--seed", "a5" * 32,
                    stdin="\n".join(requests[:20]) + "\n")
    second = referee("headless", "--db", db, stdin="\n".join(requests[20:]) + "\n")
    assert whole.returncode == first.returncode == second.returncode == 0
    assert first.stdout.splitlines() + second.stdout.splitlines() == whole.stdout.splitlines()
    assert "Resumed game 1 (Ann, Ben, Cy) after command 20." in second.stderr


def test_a_new_store_session_starts_with_no_game(tmp_path: Path) -> None:
    told: list[str] = []
    session = open_session(db=tmp_path / "sub" / "g.sqlite", notify=told.append)
    assert session.state.phase.value == "no_game" and told == []
    assert (tmp_path / "sub" / "g.sqlite").exists()


# ---- several games, the games command ---------------------------------------------------

def test_several_games_per_file_with_ids_times_players_and_states(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=GAME_SEED, clock=Clock())
    play(session, script())
    t = Table(session)
    t.ok("new_game", players=["Zoe", "Yan"])
    t.ok("new_game", players=["Xia", "Wim", "Val"], abandon=True)
    session.close()
    assert rows(path, "SELECT id, status, winner, players FROM games ORDER BY id") == [
        (1, "over", "Ann", '["Ann","Ben","Cy"]'), (2, "abandoned", None, '["Zoe","Yan"]'),
        (3, "playing", None, '["Xia","Wim","Val"]')]
    out = referee("games", "--db", str(path))
    assert out.returncode == 0, out.stderr
    table = out.stdout.splitlines()
    assert table[0].split() == ["id", "players", "started", "(UTC)", "commands", "state"]
    assert "Ann, Ben, Cy" in table[1] and "2025-05-01 19:00" in table[1]
    assert table[1].endswith("over: Ann won")
    assert table[2].endswith("abandoned") and table[3].endswith("playing")
    resumed = open_session(db=path)
    assert [p.name for p in resumed.state.players] == ["Xia", "Wim", "Val"]


def test_games_uses_referee_db_and_says_when_there_is_no_file(tmp_path: Path) -> None:
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "none.sqlite")}
    out = referee("games", env=env)
    assert out.returncode == 2 and "no game file at" in out.stderr
    assert str(tmp_path / "none.sqlite") in out.stderr


def test_default_db_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "x.sqlite"))
    assert default_db_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("REFEREE_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local/share/tableside-referee/games.sqlite"


# ---- the catalog ------------------------------------------------------------------------

def other_catalog(tmp_path: Path, change: bool) -> str:
    text = (ROOT / "referee" / "games" / "gallery_grippers" / "data" / "catalog.toml").read_text()
    if change:
        head, sep, tail = text.partition("bonus = ")
        number = tail.split("\n", 1)[0]
        text = head + sep + str(int(number) + 1) + tail[len(number):]
    path = tmp_path / ("changed.toml" if change else "same.toml")
    path.write_text(text)
    return str(path)


def test_a_game_in_progress_refuses_another_catalog_clearly(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=GAME_SEED)
    play(session, script()[:5])
    session.close()
    changed = other_catalog(tmp_path, change=True)
    with pytest.raises(CatalogError, match=r"game 1 \(Ann, Ben, Cy\).*another catalog"):
        open_session(db=path, catalog=changed)
    out = referee("headless", "--db", str(path), "--catalog", changed, stdin="")
    assert out.returncode == 2 and "another catalog" in out.stderr
    same = open_session(db=path, catalog=other_catalog(tmp_path, change=False))
    assert len(same.log) == 5  # the same cards from another file: fine
    same.close()
    # once the game is over, new games may use another catalog
    finished = open_session(db=path)
    play(finished, script()[5:])
    finished.close()
    told: list[str] = []
    fresh = open_session(db=path, catalog=changed, notify=told.append)
    assert fresh.state.phase.value == "no_game" and "another catalog" in told[0]


# ---- migrations -------------------------------------------------------------------------

def test_migrations_go_forward_and_a_newer_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=GAME_SEED)
    play(session, script()[:4])
    session.close()
    now = dbmod.schema_version()
    assert now == 5 and rows(path, "SELECT version FROM schema_version") == [(now,)]
    monkeypatch.setattr(dbmod, "MIGRATIONS", [*dbmod.MIGRATIONS,
                                              ("ALTER TABLE games ADD COLUMN note TEXT",)])
    again = open_session(db=path)
    assert len(again.log) == 4
    again.close()
    assert rows(path, "SELECT version FROM schema_version") == [(now + 1,)]
    assert rows(path, "SELECT note FROM games") == [(None,)]
    monkeypatch.undo()
    with pytest.raises(StoreError, match="newer referee"):
        open_session(db=path)
    assert path.exists() and not list(tmp_path.glob("*.damaged-*"))  # refused, not moved


# ---- faults on append (reliability #2) -------------------------------------------------

def faulty_session(path: Path) -> Session:
    return Session(seed=SEED, store=EventStore.open(path,
                                                    factory=FailingConnection))


@pytest.mark.parametrize("error", ["database or disk is full", "disk I/O error"])
def test_a_failed_append_is_refused_changes_nothing_and_the_next_one_works(
        tmp_path: Path, error: str) -> None:
    stream = long_stream(120)
    session = faulty_session(tmp_path / "g.sqlite")
    play(session, stream[:100])
    before = (session.state, session.kept, session.stream_position, len(session.log))
    seen: list[Any] = []
    session.subscribe(seen.append)
    Faults.failing, Faults.error = True, error
    for _ in range(5):
        answer = answer_line(session, json.dumps(stream[100]))
        assert answer["ok"] is False and answer["error"]["code"] == "store_error"
        message = answer["error"]["message"]
        assert error in message and "nothing changed" in message
        assert (session.state, session.kept, session.stream_position, len(session.log)) == before
    assert seen == [] and Faults.writes_refused > 0
    Faults.failing = False
    model = Session(seed=SEED)
    play(model, stream[:100])
    assert play(session, stream[100:]) == play(model, stream[100:])
    session.close()
    reopened = open_session(db=tmp_path / "g.sqlite", seed=SEED)
    assert [e.to_json() for e in reopened.log] == [e.to_json() for e in model.log]


def test_an_undo_and_its_mark_are_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = faulty_session(path)
    stream = long_stream(60)
    play(session, stream[:40])
    last = session.log[-1].seq
    Faults.failing, Faults.match = True, "UPDATE entries SET undone"
    answer = session.handle({"cmd": "undo"})
    assert answer["ok"] is False and answer["error"]["code"] == "store_error"
    assert not session.log[-1].undone and session.log[-1].seq == last
    assert rows(path, "SELECT max(seq), sum(undone) FROM entries WHERE game = 1")[0][0] == last
    Faults.failing = False
    assert session.handle({"cmd": "undo"})["ok"]
    assert rows(path, "SELECT undone FROM entries WHERE seq = ?", last) == [(1,)]
    assert json.loads(rows(path, "SELECT body FROM entries WHERE seq = ?", last + 1)[0][0])[
        "command"] == {"cmd": "undo", "undoes": last}


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_really_full_disk_is_refused_and_the_game_goes_on_once_there_is_room(
        tmp_path: Path) -> None:
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        session = open_session(db=mnt / "g.sqlite", seed=SEED)
        stream = long_stream(100)
        play(session, stream[:50])
        ballast = mnt / "ballast"
        with open(ballast, "wb", buffering=0) as f:  # fill the disk
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass
        done = 50  # (a command or two may still fit in the slack of blocks the -wal has)
        while session.handle(stream[done])["ok"]:
            done += 1
            assert done < 56, "a full disk took commands"
        for _ in range(3):
            answer = session.handle(stream[done])
            assert answer["ok"] is False and answer["error"]["code"] == "store_error"
            assert "full" in answer["error"]["message"]
            assert len(session.log) == done
        ballast.unlink()
        play(session, stream[done:])
        session.close()
        assert len(open_session(db=mnt / "g.sqlite", seed=SEED).log) == len(stream)
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


# ---- reveal ---------------------------------------------------------------------------

def test_reveal_shows_the_seed_then_the_box_stops_rolling(tmp_path: Path) -> None:
    session = open_session(db=tmp_path / "g.sqlite", seed=SEED)
    t = Table(session)
    t.no("reveal", "no_game")
    play(session, long_stream(30))
    answer = t.ok("reveal")
    assert answer["events"] == [{"type": "seed_revealed", "seed": SEED_HEX}]
    assert answer["state"]["seed"] == SEED_HEX
    assert hashlib.sha256(SEED).hexdigest() == answer["state"]["commitment"]
    t.no("reveal", "already_revealed")
    t.no("undo", "reveal_is_final")
    t.no("roll", "seed_revealed", die="d6")
    assert t.ok("roll", die="d6", value=4)["events"][0]["source"] == "physical"
    t.ok("undo")  # a later command can still be undone, the reveal cannot
    t.no("undo", "reveal_is_final")
    session.close()
    again = Table(open_session(db=tmp_path / "g.sqlite"))
    assert again.state["seed"] == SEED_HEX
    again.no("roll", "seed_revealed", die="d100")
