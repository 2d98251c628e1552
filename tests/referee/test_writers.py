"""Reliability #4 and fault test 13: one writer per game file; readers see one moment.

The writers are real `referee headless --db` processes. A reader is made to run beside a
writer deterministically: its reads are hooked so that, at a chosen read, the writer commits
more commands (the hook waits for their answers) before the read goes on. Every position of
that write among the reader's reads is tried.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee import records
from referee.app import open_session
from referee.audit import verify
from referee.db import Reader
from referee.errors import StoreError
from referee.export import read_jsonl
from tests.referee.conftest import SEED
from tests.referee.storehelp import Headless, long_stream, referee

STREAM = long_stream(700)
READS = ("games", "game", "links", "entries", "sqlite_check", "total", "hash_at")


# How many entries a game's log holds (the games row's own count is written now and then).
LOGGED = "(SELECT coalesce(max(seq), 0) FROM entries AS e WHERE e.game = games.id)"

def rows(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def quarantined(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.*-*"))


# ---- two writers ------------------------------------------------------------------------

def test_a_second_referee_is_refused_naming_the_first_and_the_first_game_is_untouched(
        tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as first:
        first.play(STREAM[:30])
        second = referee("headless", "--db", str(path), stdin=json.dumps(
            {"cmd": "new_game", "players": ["Eve", "Mal"], "abandon": True}) + "\n")
        assert second.returncode == 2 and second.stdout == ""
        assert "already in use by another referee" in second.stderr
        assert f"process {first.pid}" in second.stderr
        reader = referee("games", "--db", str(path))  # reading beside it is fine
        assert reader.returncode == 0 and "Ann, Ben, Cy, Di" in reader.stdout
        first.play([*STREAM[30:60], {"cmd": "reveal"}])
        assert first.close() == 0
    assert rows(path, f"SELECT id, status, {LOGGED} FROM games") == [(1, "playing", 61)]
    out = referee("verify", "--db", str(path))
    assert out.returncode == 0 and "VERDICT: GOOD" in out.stdout, out.stdout
    assert not quarantined(path)


def test_a_second_session_in_the_same_process_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    first = open_session(db=path, seed=SEED)
    with pytest.raises(StoreError, match=f"in use by another referee \\(process {os.getpid()}\\)"):
        open_session(db=path, seed=SEED)
    first.close()
    again = open_session(db=path, seed=SEED)  # released on close
    again.close()


def test_a_lock_left_by_a_killed_referee_does_not_block_the_next(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as first:
        first.play(STREAM[:20])
        first.kill()
    assert Path(f"{path}.lock").exists()  # the file stays; the kernel dropped the lock
    out = referee("headless", "--db", str(path), stdin=json.dumps(STREAM[20]) + "\n")
    assert out.returncode == 0 and json.loads(out.stdout)["ok"], out.stderr
    assert "Resumed game 1 (Ann, Ben, Cy, Di) after command 20." in out.stderr


# ---- every write names its own game ---------------------------------------------------------

def foreign_game(path: Path) -> None:
    """Another program (not a referee: it takes no lock) adds a game being played."""
    conn = sqlite3.connect(path)
    row = conn.execute("SELECT players, commitment, seed, catalog_sha256, catalog FROM games "
                       "WHERE id = 1").fetchone()
    conn.execute("INSERT INTO games (started_at, status, players, commitment, seed, "
                 "catalog_sha256, catalog, head, entries) "
                 "VALUES ('2025-05-01T20:00:00.000+00:00', 'playing', ?, ?, ?, ?, ?, ?, 0)",
                 (*row, "0" * 64))
    conn.commit()
    conn.close()


def test_commands_go_to_the_sessions_own_game_not_the_newest_in_the_file(
        tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=SEED)
    for r in STREAM[:30]:
        assert session.handle(r)["ok"]
    foreign_game(path)
    for r in STREAM[30:40]:
        answer = session.handle(r)
        assert answer["ok"], answer
    assert rows(path, "SELECT game, count(*) FROM entries GROUP BY game") == [(1, 40)]
    restart = STREAM[0] | {"abandon": True}
    assert session.handle(restart)["ok"]  # leaves (abandons) its own game, and only that
    session.close()
    # (41: the game left ends with its seed revealed, issue 26)
    assert rows(path, f"SELECT id, status, {LOGGED} FROM games ORDER BY id") == [
        (1, "abandoned", 41), (2, "playing", 0), (3, "playing", 1)]


def test_a_game_changed_behind_the_sessions_back_is_refused_not_mixed(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=SEED)
    for r in STREAM[:30]:
        assert session.handle(r)["ok"]
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET entries = 31, head = ? WHERE id = 1", ("f" * 64,))
    conn.commit()
    conn.close()
    answer = session.handle(STREAM[30])
    assert answer["error"]["code"] == "store_error"
    assert "changed by another program" in answer["error"]["message"]
    assert rows(path, "SELECT count(*) FROM entries") == [(30,)]
    session.close()


# ---- readers beside a writer ------------------------------------------------------------------

@contextlib.contextmanager
def writes_during_read(monkeypatch: pytest.MonkeyPatch, writer: Headless, at: int,
                       count: int, sent: list[int]) -> Iterator[list[str]]:
    """Hook every read of `Reader`: just before the `at`-th one, the writer commits `count`
    more commands. Yields the names of the reads made, in order."""
    made: list[str] = []

    def hook(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def read(self: Reader, *args: Any, **kwargs: Any) -> Any:
            made.append(name)
            if len(made) == at:
                writer.play(STREAM[sent[0]:sent[0] + count])
                sent[0] += count
            return original(self, *args, **kwargs)
        return read

    with monkeypatch.context() as m:
        for name in READS:
            if hasattr(Reader, name):
                m.setattr(Reader, name, hook(name, getattr(Reader, name)))
        yield made


def trials(reads: int) -> list[tuple[int, int]]:
    """(at, count): a write before each read in turn, of one or several commands."""
    return [(at, 1 + at % 3) for at in range(1, reads + 1)]


def test_verify_beside_a_writer_never_says_bad(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as writer:
        writer.play(STREAM[:40])
        sent = [40]

        def run(at: int, count: int) -> list[str]:
            before = sent[0]
            out = io.StringIO()
            with writes_during_read(monkeypatch, writer, at, count, sent) as made, \
                    contextlib.redirect_stdout(out):
                reader = records.open_reader(str(path))
                try:
                    code = records._verify_file(reader, None)
                finally:
                    reader.close()
            assert sent[0] == before + count  # the write did happen during the reads
            assert "BAD" not in out.getvalue() and code == records.EXIT_UNCHECKED, out.getvalue()
            return made

        reads = run(0, 0)
        assert len(reads) >= 4, reads
        for at, count in trials(len(reads)):  # a write before each of its reads in turn
            run(at, count)


def test_export_beside_a_writer_is_one_moment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as writer:
        writer.play(STREAM[:40])
        sent = [40]
        for at, count in trials(3):  # game, entries, links
            exported = tmp_path / f"e{at}.jsonl"
            with writes_during_read(monkeypatch, writer, at, count, sent):
                assert records.run_export(argparse.Namespace(
                    game=1, db=str(path), format="jsonl", output=str(exported))) == 0
            v = verify(read_jsonl(exported))
            assert v.problems == [], v.problems


def test_a_second_opener_beside_a_writer_is_refused_and_quarantines_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.sqlite"
    with Headless(path) as writer:
        writer.play(STREAM[:40])
        sent = [40]
        for at, count in trials(5):
            told: list[str] = []
            refused = ""
            with writes_during_read(monkeypatch, writer, at, count, sent):
                try:
                    open_session(db=path, seed=SEED, notify=told.append).close()
                except StoreError as err:
                    refused = str(err)
            assert not quarantined(path) and told == [], told  # a healthy file stays put
            assert f"in use by another referee (process {writer.pid})" in refused
        writer.play(STREAM[sent[0]:sent[0] + 5])  # the writer never noticed
        assert writer.close() == 0
    assert rows(path, "SELECT max(seq) FROM entries") == [(sent[0] + 5,)]
