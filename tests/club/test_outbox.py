"""The game file as the outbox (no broker): what is sent next, and the ack marks."""

from __future__ import annotations

import json
from pathlib import Path

from club.outbox import Outbox, read_acks
from referee.app import open_session
from referee.chain import body_of, link
from referee.db import entry_id
from tests.club.play import script
from tests.club.test_publish import SEED, play


def played(db: Path, commands: int) -> int:
    session = open_session(db=db, seed=bytes.fromhex(SEED), notify=lambda _: None)
    try:
        play(session, script(commands)[:commands])
        return len(session.log)
    finally:
        session.close()


def test_entries_go_out_in_order_each_with_its_own_hash(tmp_path: Path) -> None:
    db = tmp_path / "box.sqlite"
    n = played(db, 30)
    box = Outbox(db, club="club", box="box-1")
    try:
        outs, going_on = box.batch(box.first_unacked(), 100)
    finally:
        box.close()
    assert [o.seq for o in outs] == list(range(1, n + 1))
    for o in outs:
        p = o.payload
        assert link(p["prev"], body_of(p["game"], p["seq"], p["at"], p["command"],
                                       p["events"])) == p["hash"]
    assert "catalog" in outs[0].payload and "catalog" not in outs[1].payload
    assert going_on == entry_id(1, n) + 1
    # each entry's JSON (the body as stored, and the rest beside it) is one object, no key
    # twice, holding exactly club.md's fields
    for o in outs:
        pairs = json.loads(o.text, object_pairs_hook=lambda kv: kv)
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), keys
        assert set(keys) == {"at", "box", "command", "events", "file", "game", "hash", "prev",
                             "ruleset", "seq", "undone"} | (
                                 {"catalog", "ruleset_version"} if o.seq == 1 else set())
        assert (o.payload["game"], o.payload["seq"], o.payload["box"]) == (o.game, o.seq,
                                                                           "box-1")


def test_after_a_resend_the_entries_acked_meanwhile_are_skipped_not_stuck_on(
        tmp_path: Path) -> None:
    # The club asked for game 1 again from entry 1 while the broker went on acknowledging up
    # to 250: the next batch must be 251.. (it was empty: the 100 rows read were all acked)
    db = tmp_path / "box.sqlite"
    n = played(db, 300)
    box = Outbox(db, club="club", box="box-1")
    try:
        box.ack(1, 250)
        outs, _ = box.batch(entry_id(1, 1), 100)
        assert [o.seq for o in outs] == list(range(251, min(n, 350) + 1))
        box.flush()
        box.acked[1] = 10  # (lowered in memory for a resend: the file's mark never goes back)
        box.ack(1, 20)
        box.flush()
    finally:
        box.close()
    assert read_acks(db) == {("club", "box-1", 1): 250}


def test_entries_read_one_at_a_time_chain_as_one_batch_does(tmp_path: Path) -> None:
    # A table's pace: each pass reads the one new entry; its "prev" comes from the entry read
    # just before (remembered, not read again), from the file after a resend jumps back,
    # and is the same as one batch of them all says.
    db = tmp_path / "box.sqlite"
    n = played(db, 40)
    box = Outbox(db, club="club", box="box-1")
    try:
        whole, _ = box.batch(entry_id(1, 1), 100)
        cursor, single = entry_id(1, 1), []
        while True:
            outs, cursor = box.batch(cursor, 1)
            if not outs:
                break
            single += outs
        again, _ = box.batch(entry_id(1, 17), 3)  # (back: the club asked from 17)
    finally:
        box.close()
    assert [o.payload for o in single] == [o.payload for o in whole]
    assert len(single) == n
    assert [o.payload for o in again] == [o.payload for o in whole[16:19]]


def test_an_ack_is_unwritten_until_flushed(tmp_path: Path) -> None:
    db = tmp_path / "box.sqlite"
    played(db, 5)
    box = Outbox(db, club="club", box="box-1")
    try:
        assert not box.unwritten()
        box.ack(1, 3)
        assert box.unwritten() and read_acks(db) == {}
        box.flush()
        assert not box.unwritten()
        box.ack(1, 2)  # (older than the mark: nothing changes)
        assert not box.unwritten()
    finally:
        box.close()
    assert read_acks(db) == {("club", "box-1", 1): 3}
