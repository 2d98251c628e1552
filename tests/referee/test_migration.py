"""A game file written before several games (schema 1) is carried forward and resumes exactly.

`games/schema1.sqlite` was written by the referee as it was before issue 12
(`games/make_schema1.py`): game 1 finished (Ann won), game 2 in progress with an undone move
and an undone box draw on the table. `games/schema1.expected.json` is what that referee saw
of game 2 when it stopped.
"""

from __future__ import annotations

import itertools
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from referee import db as dbmod
from referee.app import open_session
from referee.audit import verify
from referee.db import Reader, connect, schema_version
from referee.export import from_store

GAMES = Path(__file__).parent / "games"
NEW_IN_THE_ENVELOPE = ("game", "result", "next")


def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite"
    shutil.copy(GAMES / "schema1.sqlite", path)
    return path


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_an_old_file_is_migrated_and_its_game_resumes_exactly(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    assert rows(path, "SELECT version FROM schema_version") == [(1,)]
    expected = json.loads((GAMES / "schema1.expected.json").read_text())
    said: list[str] = []
    session = open_session(db=path, notify=said.append)
    try:
        assert rows(path, "SELECT version FROM schema_version") == [(schema_version(),)]
        assert any("Resumed game 2 (Zoe, Yan)" in s for s in said), said
        state = session.ruleset.state_json(session.state)
        assert {k: v for k, v in state.items() if k not in NEW_IN_THE_ENVELOPE} \
            == expected["state"]
        assert (state["game"], state["result"]) == ("gallery-grippers", None)
        assert len(session.log) == expected["entries"]
        assert session.stream_position == expected["position"]
        kept = [k.to_json() for k in session.kept]
        assert [{k: v for k, v in d.items() if k != "id"} for d in kept] == expected["kept"]
        assert [d["id"] for d in kept] == [d["player"] for d in expected["kept"]]
        # The dice the old referee left on the table are the ones the redo gets.
        who = state["current"]
        move = session.handle({"cmd": "move", "player": who, "tile": "recruitment"})
        assert move["ok"], move
        [roll] = [e for e in move["events"] if e["type"] == "roll"]
        assert (roll["value"], roll["index"], roll["kept"], roll["id"]) == (
            expected["kept"][0]["roll"]["value"], expected["kept"][0]["roll"]["index"], True,
            who)
        draw = session.handle({"cmd": "draw", "player": who, "deck": "attribute"})
        assert draw["ok"], draw
        [drawn] = [e for e in draw["events"] if e["type"] == "drawn"]
        assert drawn["card"] == expected["kept"][1]["card"]
        assert session.stream_position == expected["position"]  # nothing fresh was rolled
    finally:
        session.close()


@pytest.mark.parametrize("start", range(1, len(dbmod.MIGRATIONS)))
def test_a_file_of_every_older_schema_is_carried_forward_verified_and_resumed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: int) -> None:
    """schema1.sqlite brought to schema `start` by the migrations of its time, then opened by
    this referee: migrated to the newest schema, proven, the same game resumed, verify and
    export read it, and a command lands."""
    path = old_file(tmp_path)
    if start > 1:
        conn = connect(path)
        try:
            monkeypatch.setattr(dbmod, "MIGRATIONS", dbmod.MIGRATIONS[:start])
            dbmod.migrate(conn, path)
        finally:
            conn.close()
            monkeypatch.undo()
    assert rows(path, "SELECT version FROM schema_version") == [(start,)]
    expected = json.loads((GAMES / "schema1.expected.json").read_text())
    told: list[str] = []
    session = open_session(db=path, notify=told.append)
    try:
        assert not any("damaged" in t for t in told), told
        assert rows(path, "SELECT version FROM schema_version") == [(schema_version(),)]
        assert len(session.log) == expected["entries"]
        assert session.stream_position == expected["position"]
        who = session.ruleset.state_json(session.state)["current"]
        assert session.handle({"cmd": "move", "player": who, "tile": "recruitment"})["ok"]
    finally:
        session.close()
    conn = connect(path, readonly=True)
    try:
        reader = Reader(conn, path)
        assert reader.problems(full=True) == []
        for g in reader.games():
            links = reader.links(g.id)
            assert [ln.seq for ln in links] == list(range(1, g.entries + 1))
            assert all(b.prev == a.hash for a, b in itertools.pairwise(links))
            later = reader.entries(g.id, after=3)
            assert [e.prev for e in later] == [ln.prev for ln in links[3:]]
    finally:
        conn.close()
    assert rows(path, "SELECT length(h) FROM entries LIMIT 1") == [(32,)]


def test_the_migration_names_each_old_game_and_its_result(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    open_session(db=path, notify=lambda _: None).close()
    got = rows(path, "SELECT id, game, ruleset_version, status, winner, result FROM games "
                     "ORDER BY id")
    assert [(g, game, v, st, w) for g, game, v, st, w, _ in got] == [
        (1, "gallery-grippers", "1", "over", "Ann"),
        (2, "gallery-grippers", "1", "playing", None)]
    result = json.loads(got[0][5])
    over = [e for (body,) in rows(path, "SELECT body FROM entries WHERE game = 1")
            for e in json.loads(body)["events"] if e["type"] == "game_over"]
    assert len(over) == 1
    assert result == {"outcome": "won", "winners": ["Ann"], "reason": over[0]["reason"],
                      "rule": over[0]["rule"]}
    assert got[1][5] is None


def test_migrated_games_verify_and_a_new_one_records_its_game(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    session = open_session(db=path, notify=lambda _: None, seed=bytes(32))
    assert session.handle({"cmd": "new_game", "players": ["Ann"], "abandon": True})["ok"]
    session.close()
    reader = Reader(connect(path, readonly=True), path)
    try:
        with reader.snapshot():
            games = reader.games()
            verdicts = [verify(from_store(reader, g)) for g in games]
    finally:
        reader.close()
    assert [v.problems for v in verdicts] == [[], [], []]
    assert verdicts[0].good and verdicts[1].abandoned
    assert (games[2].game, games[2].ruleset_version) == ("gallery-grippers", "1")


class _Commits(sqlite3.Connection):
    """A connection that counts the transactions it commits."""

    commits = 0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.strip().upper() == "COMMIT":
            type(self).commits += 1
        return super().execute(sql, *args)


@pytest.mark.parametrize("start", range(len(dbmod.MIGRATIONS) + 1))
def test_a_file_is_brought_forward_in_one_transaction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: int) -> None:
    """A new file (every first start) or an older one takes one commit, so one sync, whatever
    number of steps it needs (issue 41: a new file waited for five); and a step that fails
    leaves the file at the version it had."""
    path = tmp_path / "g.sqlite"
    if start:
        conn = connect(path)
        with monkeypatch.context() as m:
            m.setattr(dbmod, "MIGRATIONS", dbmod.MIGRATIONS[:start])
            dbmod.migrate(conn, path)
        conn.close()
    _Commits.commits = 0
    conn = connect(path, factory=_Commits)
    try:
        dbmod.migrate(conn, path)
    finally:
        conn.close()
    assert _Commits.commits == (start < len(dbmod.MIGRATIONS))
    assert rows(path, "SELECT version FROM schema_version") == [(schema_version(),)]


def test_a_failed_step_leaves_the_file_as_it_was(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    conn = connect(path)
    try:
        with monkeypatch.context() as m:
            m.setattr(dbmod, "MIGRATIONS", dbmod.MIGRATIONS[:1])
            dbmod.migrate(conn, path)
        broken = [*dbmod.MIGRATIONS[:-1], (*dbmod.MIGRATIONS[-1], "SELECT no_such_function()")]
        monkeypatch.setattr(dbmod, "MIGRATIONS", broken)
        with pytest.raises(sqlite3.OperationalError):
            dbmod.migrate(conn, path)
    finally:
        conn.close()
    assert rows(path, "SELECT version FROM schema_version") == [(1,)]
