"""The club's file keeps a box's games per game file (docs/club.md, "Which file a game is in"):
each file's games under numbers of their own whatever order their entries come in, a box
without file ids as one file, an upgraded box's games adopted by its file, and a club file
from before file ids opened as it is."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.store import ClubStore
from referee.chain import GENESIS, body_of, link


def chained(file: str, game: int, count: int, tag: str) -> list[dict[str, Any]]:
    """`count` entries of game `game` of a file, as a box publishes them (`file` '': none)."""
    out, prev = [], GENESIS
    for seq in range(1, count + 1):
        at = f"2026-12-0{1 + game % 9}T19:00:{seq % 60:02d}.000+00:00"
        command = {"cmd": "note", "text": f"{tag} {seq}"}
        digest = link(prev, body_of(game, seq, at, command, []))
        p = {"game": game, "seq": seq, "at": at, "command": command, "events": [],
             "undone": False, "prev": prev, "hash": digest, "box": "box-1",
             "ruleset": "gallery-grippers"}
        if file:
            p["file"] = file
        out.append(p)
        prev = digest
    return out


# files: each a list of game sizes; the first may be a box without ids ('')
FRESH = itertools.count()
FILES = st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=3), min_size=1, max_size=3)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=FILES, legacy=st.booleans(), data=st.data())
def test_each_files_games_are_kept_apart_whatever_the_order(
        tmp_path: Path, files: list[list[int]], legacy: bool, data: st.DataObject) -> None:
    names = [("" if legacy and i == 0 else f"{i:016x}") for i in range(len(files))]
    want = {(name, g + 1): chained(name, g + 1, n, f"file {i} game {g + 1}")
            for i, (name, sizes) in enumerate(zip(names, files, strict=True))
            for g, n in enumerate(sizes)}
    sent = [p for entries in want.values() for p in entries]
    sent += data.draw(st.lists(st.sampled_from(sent), max_size=5))  # (at least once)
    order = data.draw(st.permutations(sent))
    path = tmp_path / f"club-{next(FRESH)}.sqlite"  # (a new club file per example)
    store = ClubStore(path)
    try:
        for p in order:
            # (an entry before its game's first is held: no game, no number, until it comes)
            assert store.receive("box-1", p).outcome in ("stored", "duplicate", "held")
        games = store.games()
        assert store.refused() == []
        assert sorted((g.file, g.box_game) for g in games) == sorted(want)
        assert len({g.game for g in games}) == len(games)  # one club number each
        for g in games:
            entries = want[(g.file, g.box_game)]
            assert g.check != "tampered" and g.entries == len(entries), g.problems
            kept = store.entries("box-1", g.game)
            assert [(e.game, e.seq, e.hash) for e in kept] == [
                (p["game"], p["seq"], p["hash"]) for p in entries]
            assert store.game_log("box-1", g.game).game == g.box_game
            assert store.head("box-1", g.box_game, g.file) == len(entries)
    finally:
        store.close()


def test_a_box_without_file_ids_keeps_its_numbers_and_an_upgraded_box_is_adopted(
        tmp_path: Path) -> None:
    store = ClubStore(tmp_path / "club.sqlite")
    try:
        old = chained("", 1, 8, "before the upgrade")
        for p in old[:5]:
            assert store.receive("box-1", p).outcome == "stored"
        (g,) = store.games()
        assert (g.game, g.file, g.box_game, g.entries) == (1, "", 1, 5)
        # upgraded: the rest of the same game, now naming its file (entry 5 again first)
        for p in old[4:]:
            assert store.receive("box-1", {**p, "file": "00aa"}).outcome in ("stored",
                                                                            "duplicate")
        (g,) = store.games()
        assert (g.game, g.file, g.box_game, g.entries, g.check) == (1, "00aa", 1, 8, "pending")
        # that file moved aside; the new one's game 1 is the box's game 2
        for p in chained("00bb", 1, 3, "the new file"):
            assert store.receive("box-1", p).outcome == "stored"
        assert [(g.game, g.file, g.box_game, g.entries) for g in store.games()] == [
            (1, "00aa", 1, 8), (2, "00bb", 1, 3)]
    finally:
        store.close()


def test_a_file_whose_game_does_not_follow_the_one_without_a_file_is_another_file(
        tmp_path: Path) -> None:
    store = ClubStore(tmp_path / "club.sqlite")
    try:
        for p in chained("", 1, 3, "an old box's game"):
            assert store.receive("box-1", p).outcome == "stored"
        for p in chained("00cc", 1, 4, "a new file's game"):  # (same numbers, not the same)
            assert store.receive("box-1", p).outcome == "stored"
        assert [(g.game, g.file, g.box_game, g.entries, g.check) for g in store.games()] == [
            (1, "", 1, 3, "pending"), (2, "00cc", 1, 4, "pending")]
        assert store.refused() == []
    finally:
        store.close()


OLD_GAMES = """CREATE TABLE games (
    box TEXT NOT NULL, game INTEGER NOT NULL, ruleset TEXT, ruleset_version TEXT,
    catalog TEXT, players TEXT NOT NULL DEFAULT '[]', commitment TEXT, started_at TEXT,
    ended_at TEXT, status TEXT NOT NULL DEFAULT 'playing', result TEXT,
    head_seq INTEGER NOT NULL DEFAULT 0, head_hash TEXT NOT NULL DEFAULT '', check_state
    TEXT NOT NULL DEFAULT 'pending', problems TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (box, game))"""


def test_a_club_file_from_before_file_ids_is_read_and_then_brought_forward(
        tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    old = ClubStore(path)
    try:
        for p in chained("", 2, 3, "old"):
            old.receive("box-1", p)
    finally:
        old.close()
    with sqlite3.connect(path) as conn:  # as if written before the columns came
        conn.execute("CREATE TABLE g2 AS SELECT box, game, ruleset, ruleset_version, catalog, "
                     "players, commitment, started_at, ended_at, status, result, head_seq, "
                     "head_hash, check_state, problems FROM games")
        conn.execute("DROP TABLE games")
        conn.execute(OLD_GAMES)
        conn.execute("INSERT INTO games SELECT * FROM g2")
        conn.execute("DROP TABLE g2")
    conn.close()
    reader = ClubStore(path, readonly=True)  # `referee club games` before the club ran
    try:
        assert [(g.game, g.file, g.box_game, g.entries) for g in reader.games()] == [
            (2, "", 2, 3)]
        assert reader.game_log("box-1", 2).game == 2
    finally:
        reader.close()
    store = ClubStore(path)  # the club process brings it forward
    try:
        for p in chained("00ee", 1, 2, "new file"):
            assert store.receive("box-1", p).outcome == "stored"
        assert sorted((g.game, g.file, g.box_game) for g in store.games()) == [
            (1, "00ee", 1), (2, "", 2)]  # (its number 1 was free)
    finally:
        store.close()
