"""The club keeps the messages that arrive together in one transaction (club.receiver): for any
mix of entries (in or out of order, twice, forged, rewritten, of another box), tables and
presence, split into batches anyhow, the club's file ends exactly as if each message had been
kept on its own. And a batch whose commit fails is acknowledged to nobody: the broker sends it
again (a real mosquitto)."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.receiver import Message, Receiver
from club.store import ClubStore
from referee.chain import body_of, link
from referee.db import Reader, connect
from tests.club.broker import CLUB, READER, Broker, Listener, wait_for
from tests.club.play import finished_script, script
from tests.club.test_faults import box_rows
from tests.club.test_publish import box_session, file_entries, play


@functools.cache
def games() -> dict[str, list[dict[str, Any]]]:
    """Two boxes' entry payloads as their publishers send them: box-1 a game played to its
    end (its seed revealed: the dice check runs), box-2 the start of a longer one."""
    out = {}
    with tempfile.TemporaryDirectory() as name:
        for box, steps in (("box-1", finished_script()), ("box-2", script(25))):
            db = Path(name) / f"{box}.sqlite"
            session = box_session(db, None)
            try:
                play(session, steps)
            finally:
                session.close()
            reader = Reader(connect(db, readonly=True), db)
            (game,) = reader.games()
            reader.close()
            payloads = [{**e, "undone": False, "box": box, "ruleset": game.game}
                        for e in file_entries(db)]
            payloads[0].update(catalog=game.catalog, ruleset_version=game.ruleset_version)
            out[box] = payloads
    return out


def forged(p: dict[str, Any]) -> dict[str, Any]:
    """The entry with its content changed and its hash left (refused: does not match)."""
    q = copy.deepcopy(p)
    q["at"] = "2020-01-01T00:00:00.000+00:00"
    return q


def rewritten(p: dict[str, Any]) -> dict[str, Any]:
    """The entry with its content changed and its hash made again (a rewritten entry)."""
    q = forged(p)
    q["hash"] = link(q["prev"], body_of(q["game"], q["seq"], q["at"], q["command"],
                                        q["events"]))
    return q


@st.composite
def deliveries(draw: st.DrawFn) -> tuple[list[Message], list[int]]:
    """A run of messages as a broker might deliver them, and where the batches split."""
    everything = games()
    messages: list[Message] = []
    for box, payloads in everything.items():
        take = draw(st.integers(1, len(payloads)))
        for p in payloads[:take]:
            messages.append(Message(box, "entries", json.dumps(p).encode()))
    extra = draw(st.lists(st.tuples(
        st.sampled_from(["again", "forged", "rewritten", "other box", "table", "online",
                         "junk"]),
        st.sampled_from(sorted(everything)), st.integers(0, 10**6)), max_size=12))
    for kind, box, n in extra:
        p = everything[box][n % len(everything[box])]
        payload: Any = {"again": p, "forged": forged(p) if kind == "forged" else p,
                        "rewritten": rewritten(p) if kind == "rewritten" else p}.get(kind)
        if kind == "other box":
            messages.append(Message("box-2" if box == "box-1" else "box-1", "entries",
                                    json.dumps(p).encode()))
        elif kind == "table":
            messages.append(Message(box, "table", json.dumps(
                {"game": p["game"], "commands": p["seq"], "name": f"t{n}"}).encode()))
        elif kind == "online":
            messages.append(Message(box, "online", json.dumps(
                {"online": n % 2 == 0, "at": f"t{n}"}).encode()))
        elif kind == "junk":
            messages.append(Message(box, "entries", b"\xff not json"))
        else:
            messages.append(Message(box, "entries", json.dumps(payload).encode()))
    order = draw(st.permutations(range(len(messages))))
    shuffled = [messages[i] for i in order]
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(shuffled) - 1)),
                                    max_size=6))))
    return shuffled, cuts


def contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Everything in a club's file but the clock's readings."""
    conn = sqlite3.connect(path)
    try:
        return {
            "entries": conn.execute("SELECT box, game, seq, at, command, events, prev, hash "
                                    "FROM entries ORDER BY box, game, seq").fetchall(),
            "games": conn.execute("SELECT * FROM games ORDER BY box, game").fetchall(),
            "refused": conn.execute("SELECT box, game, seq, reason, payload FROM refused "
                                    "ORDER BY id").fetchall(),
            "boxes": conn.execute("SELECT box, online, online_at, table_json FROM boxes "
                                  "ORDER BY box").fetchall()}
    finally:
        conn.close()


@contextlib.contextmanager
def receiver(path: Path) -> Iterator[Receiver]:
    store = ClubStore(path)
    try:
        yield Receiver(store, club=CLUB, url="mqtt://127.0.0.1:9")  # (never connected)
    finally:
        store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deliveries())
def test_batches_keep_exactly_what_one_message_at_a_time_keeps(
        run: tuple[list[Message], list[int]]) -> None:
    messages, cuts = run
    with tempfile.TemporaryDirectory() as name:
        one, batched = Path(name) / "one.sqlite", Path(name) / "batched.sqlite"
        with receiver(one) as r:
            for m in messages:
                r.keep([m])
        with receiver(batched) as r:
            for start, end in zip([0, *cuts], [*cuts, len(messages)], strict=True):
                r.keep(messages[start:end])
        assert contents(batched) == contents(one)


class FailingOnce:
    """A club's file whose first batch with an entry in it fails at its commit (a disk that
    refused once)."""

    def __init__(self, store: ClubStore) -> None:
        self.store, self.failed, self.entries = store, 0, 0
        self.lost: list[int] = []  # the seqs of the entries in the batch that failed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def receive(self, box: str, payload: Any) -> Any:
        self.entries += 1
        if not self.failed:  # (the first batch with an entry is the one that fails)
            self.lost.append(payload["seq"])
        return self.store.receive(box, payload)

    def batch(self) -> Any:
        @contextlib.contextmanager
        def failing() -> Iterator[None]:
            with self.store.batch():
                yield
                if self.entries and not self.failed:
                    self.failed += 1
                    raise sqlite3.OperationalError("disk I/O error (the test's)")

        return failing()


def test_a_batch_whose_commit_fails_is_acknowledged_to_nobody_and_comes_again(
        broker: Broker, tmp_path: Path) -> None:
    store = ClubStore(tmp_path / "club.sqlite")
    failing = FailingOnce(store)
    club = Receiver(failing, club=CLUB, url=broker.url,  # type: ignore[arg-type]
                    secret=(READER, broker.passwords[READER]))
    resends = Listener(broker, topic=f"tableside/{CLUB}/box/+/resend")
    club.start()
    wait_for(club.connected.is_set, 10, "the club connected")
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    try:
        play(session, script(40))
        want = box_rows(db)
        wait_for(lambda: list(store.rows("box-1")) == want, 30, "every entry in the club",
                 lambda: (failing.failed, store.count()))
    finally:
        session.close()
        club.stop()
        resends.close()
        store.close()
    assert failing.failed == 1 and failing.lost
    # They came again from the broker (never acknowledged), not because the club asked. (It
    # may ask for later ones: the box's retained table comes with the new subscription and
    # can be ahead of what the broker still had to deliver; it was asserted that the club
    # asked for nothing at all, and 1 run in 10 to 15 failed on that, before this work too.)
    asked = [m["seq"] for _, m, _ in resends.messages]
    assert not asked or min(asked) > max(failing.lost), (asked, failing.lost)
