"""A box whose game file is found damaged and moved aside keeps publishing, with a real
mosquitto: the new file (at the same path, numbering its games from 1 again) has an identity
of its own, so the club keeps both files' games, each once and in order, none taken for a
rewrite of the other, each checked GOOD by the core's verify; its page and standings show
both. The damage is found at start-up (a file that does not open) or while the box runs (the
proof of every entry, beside the session)."""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from club.outbox import read_file_id
from club.page import body
from club.receiver import Receiver
from club.standings import standings
from club.store import ClubStore
from referee.audit import verify
from referee.session import Session
from tests.club.broker import Broker, wait_for
from tests.club.play import script
from tests.club.test_faults import box_rows, in_order
from tests.club.test_publish import SEED, box_session, play


@functools.cache
def finished(win_money: int) -> tuple[dict[str, Any], ...]:
    """The scripted game with a reachable goal, up to the command that ends it."""
    steps = list(script(600))
    steps[0] = {**steps[0], "rules": {**steps[0]["rules"], "win_money": win_money}}
    s = Session(seed=bytes.fromhex(SEED))
    out = []
    for req in steps:
        if s.handle(req)["ok"]:
            out.append(req)
        if s.state.phase.value == "over":
            return tuple(out)
    raise AssertionError("the scripted game did not end")


def club_games(tmp_path: Path) -> list[Any]:
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        return [g for g in reader.games() if g.box == "box-1"]
    finally:
        reader.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def flip_an_old_entry(db: Path) -> None:
    """One byte of entry 3's time flipped: valid text, a valid page; only the proof of
    every entry (the chain) finds it."""
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT body FROM entries WHERE id = (1 << 32) + 3").fetchone()
    conn.close()
    data = bytearray(db.read_bytes())
    at = data.index(text.encode()) + text.index('"at":"') + 8
    data[at] ^= 0x5A
    db.write_bytes(bytes(data))


def flip_the_header(db: Path) -> None:
    """A byte of "SQLite format 3" flipped: the file does not open (found at start-up)."""
    data = bytearray(db.read_bytes())
    data[3] ^= 0x5A
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["while running", "at start-up"])
def test_a_box_whose_file_is_moved_aside_keeps_publishing_both_files(
        damage: str, broker: Broker, club: Receiver, tmp_path: Path) -> None:
    db = tmp_path / "box.sqlite"
    first, second = finished(2), finished(3)
    # The evening's first part: a game played to its end, the club holds it all.
    session = box_session(db, broker)
    try:
        play(session, first)
        old = box_rows(db)
        wait_for(lambda: [g.entries for g in club_games(tmp_path)] == [len(old)], 30,
                 "the club holding the first game")
    finally:
        session.close()
    old_id = read_file_id(db)
    assert old_id is not None
    (flip_an_old_entry if damage == "while running" else flip_the_header)(db)
    damaged = digest(db)
    # The box starts again: its file is found damaged, moved aside, a new one started.
    said: list[str] = []
    session = box_session(db, broker, said=said)
    try:
        if damage == "while running":
            proven = threading.Event()
            session.when_proven(proven.set)
            assert proven.wait(30)
            assert not [m for m in said if "damaged" in m]  # not known at start
            answer = session.handle(dict(second[0]))  # the first write: damage acted on
            assert not answer["ok"] and "damaged" in answer["error"]["message"]
        (moved,) = (p for p in tmp_path.glob("box.sqlite.damaged-*")
                    if not p.name.endswith(("-wal", "-shm")))
        assert [m for m in said if "damaged" in m and str(moved) in m]
        play(session, second)
        new = box_rows(db)
        wait_for(lambda: [g.entries for g in club_games(tmp_path)] == [len(old), len(new)],
                 30, "the club holding the new file's game")
        new_id = read_file_id(db)  # (made when the publisher opens the new file: by now)
    finally:
        session.close()
    assert digest(moved) == damaged  # the publisher wrote nothing into the damaged file
    assert new_id not in (None, old_id)
    if damage == "while running":  # (the other one does not open)
        assert box_rows(moved) == old and read_file_id(moved) == old_id
    # Each file's game once, in order, as its own file has it; neither taken for the other.
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        assert reader.refused() == []
        games = club_games(tmp_path)
        assert [(g.game, g.file, g.box_game) for g in games] == [(1, old_id, 1),
                                                                 (2, new_id, 1)]
        assert [(g.check, g.status, g.problems) for g in games] == [("good", "over", [])] * 2
        rows = [tuple(r) for r in reader.rows("box-1")]
        assert rows == [(1, s, h) for _, s, h in old] + [(2, s, h) for _, s, h in new]
        stored = [(b, g, s) for b, g, s in club.order]  # type: ignore[attr-defined]
        assert len(stored) == len(rows) and in_order(stored[:len(old)], "box-1")
        assert in_order(stored[len(old):], "box-1")
        for g in games:  # the core's verify, on the log as the club holds it
            verdict = verify(reader.game_log("box-1", g.game))
            assert verdict.good and verdict.revealed, verdict.problems
            assert verdict.game == 1  # the file's own number: what its hashes hold
        # The standings count both games; the page names both without confusion.
        (table,) = standings(reader.games())
        assert sorted(s.plays for s in table.rows) == [2, 2, 2, 2]
        page = body(reader)
    finally:
        reader.close()
    assert "Gallery Grippers #1</td>" in page
    assert f"Gallery Grippers #2 (game 1 of file {new_id[:8]})</td>" in page


def test_a_publisher_sending_a_file_follows_the_new_one_and_leaves_the_old_untouched(
        broker: Broker, tmp_path: Path) -> None:
    """The publisher is on a sound file, connected and caught up, when the session restarts
    on a new file at the same path: it follows without writing to the old one, sends the new
    one from its first entry under its own id, and ignores a resend asked of the old file."""
    from club.publisher import Publisher
    from club.settings import ClubSettings, parse_url
    from referee.app import open_session
    from tests.club.broker import CLUB, Listener

    db = tmp_path / "box.sqlite"

    def a_file(steps: tuple[dict[str, Any], ...]) -> None:
        session = open_session(db=db, seed=bytes.fromhex(SEED), notify=lambda _: None)
        try:
            play(session, steps)
        finally:
            session.close()

    a_file(script(30))
    old = box_rows(db)
    listener = Listener(broker)
    said: list[str] = []
    publisher = Publisher(ClubSettings(parse_url(broker.url), "box-1", CLUB, "box-1",
                                       broker.passwords["box-1"]), db, status=said.append)
    publisher.start()
    try:
        wait_for(lambda: len(listener.entries("box-1")) == len(old), 20, "the first file")
        old_id = read_file_id(db)
        moved = tmp_path / "box.sqlite.moved"
        for suffix in ("", "-wal", "-shm"):  # (what the store's quarantine does)
            if Path(f"{db}{suffix}").exists():
                Path(f"{db}{suffix}").rename(f"{moved}{suffix}")
        before = digest(moved)
        a_file(script(12))  # the new file at the same path
        new = box_rows(db)
        publisher.restart()
        wait_for(lambda: len(listener.entries("box-1")) >= len(old) + len(new), 20,
                 "the new file")
        new_id = read_file_id(db)
        got = listener.entries("box-1")
        assert [(m["game"], m["seq"], m["hash"], m["file"]) for m in got] == [
            (g, s, h, old_id) for g, s, h in old] + [(g, s, h, new_id) for g, s, h in new]
        assert new_id not in (None, old_id)
        listener.client.publish(f"tableside/{CLUB}/box/box-1/resend",  # (the club's account)
                                b'{"game":1,"seq":1,"file":"%s"}' % old_id.encode(), qos=1)
        listener.client.publish(f"tableside/{CLUB}/box/box-1/resend",
                                b'{"game":1,"seq":12,"file":"%s"}' % new_id.encode(), qos=1)
        wait_for(lambda: len(listener.entries("box-1")) > len(got), 20, "the resend")
        again = listener.entries("box-1")[len(got):]
        assert {(m["seq"], m["file"]) for m in again} == {(12, new_id)}
    finally:
        publisher.stop()
        listener.close()
    assert digest(moved) == before  # nothing written into the file it left


def test_nothing_of_a_damaged_file_is_sent_nor_written_before_it_is_moved_aside(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    """A file played without the club (nothing of it acknowledged), then damaged: the proof
    beside the session finds it; the publisher has waited for the proof, so the club never
    gets the damaged game (which would be a forgery to it) and the moved file is as found."""
    db = tmp_path / "box.sqlite"
    session = box_session(db, None)
    try:
        play(session, finished(2))
    finally:
        session.close()
    flip_an_old_entry(db)
    damaged = digest(db)
    session = box_session(db, broker)
    try:
        proven = threading.Event()
        session.when_proven(proven.set)
        assert proven.wait(30)
        assert not session.handle(dict(finished(3)[0]))["ok"]  # the damage acted on
        play(session, finished(3))
        new = box_rows(db)
        wait_for(lambda: [g.entries for g in club_games(tmp_path)] == [len(new)], 30,
                 "the club holding the new file's game")
    finally:
        session.close()
    (moved,) = (p for p in tmp_path.glob("box.sqlite.damaged-*")
                if not p.name.endswith(("-wal", "-shm")))
    assert digest(moved) == damaged and read_file_id(moved) is None
    (game,) = club_games(tmp_path)
    assert (game.file, game.box_game, game.check) == (read_file_id(db), 1, "good")
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        assert reader.refused() == []
        assert [tuple(r) for r in reader.rows("box-1")] == new
    finally:
        reader.close()
