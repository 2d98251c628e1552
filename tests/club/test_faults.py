"""Faults with a real mosquitto: the broker killed mid-game, a box offline for 500 commands,
a box SIGKILLed between a command and its acknowledgement. The club ends with every entry of
every game once, in order, as the box's own file has them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from club.outbox import read_acks
from club.receiver import Receiver
from club.store import ClubStore
from tests.club.broker import CLUB, Broker, wait_for
from tests.club.play import script
from tests.club.test_publish import SEED, box_session, file_entries, play


def club_rows(tmp_path: Path, box: str) -> list[tuple[int, int, str]]:
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        return [tuple(r) for r in reader.rows(box)]  # type: ignore[misc]
    finally:
        reader.close()


def box_rows(db: Path) -> list[tuple[int, int, str]]:
    return [(e["game"], e["seq"], e["hash"]) for e in file_entries(db)]


def in_order(order: list[tuple[str, int, int]], box: str) -> bool:
    seqs = [(g, s) for b, g, s in order if b == box]
    return seqs == sorted(seqs)


def test_broker_killed_and_restarted_mid_game_loses_and_doubles_nothing(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    steps = script(240)
    try:
        for chunk in range(4):
            play(session, steps[chunk * 60:(chunk + 1) * 60])
            broker.restart()  # SIGKILL: whatever it held is gone
        play(session, ({"cmd": "new_game", "players": ["Eve", "Fay"], "abandon": True},))
        want = box_rows(db)
        wait_for(lambda: club_rows(tmp_path, "box-1") == want, 60,
                 "the club holding every entry of the box's file")
    finally:
        session.close()
    # every step, the abandoned game's seed revealed as its last entry, the new game's first
    assert len(want) == len(steps) + 2
    assert want[-2][1] == len(steps) + 1
    assert read_acks(db)[(CLUB, "box-1", want[-1][0])] == 1


class BlackHole:
    """A broker that is down in the worst way: it takes the connection and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


def test_a_box_offline_for_500_commands_catches_up_in_order(
        broker: Broker, club: Receiver, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import club.publisher as publisher

    kicks: list[str] = []
    kick = publisher.Publisher._kick

    def counted(self: publisher.Publisher) -> None:
        kicks.append(threading.current_thread().name)
        kick(self)

    monkeypatch.setattr(publisher.Publisher, "_kick", counted)
    db = tmp_path / "box.sqlite"
    hole = BlackHole()
    said: list[str] = []
    session = box_session(db, broker, said=said, url=f"mqtt://127.0.0.1:{hole.port}")
    try:
        play(session, script(500))  # the table plays on; nothing is acknowledged
        assert len(session.log) == len(script(500))
        # (the publisher waits for the broker's answer: an entry does not wake it)
        assert len(kicks) <= 2, f"{len(kicks)} wake-ups for 500 commands while offline"
        wait_for(lambda: any(s.startswith("Club offline") for s in said), 30,
                 "the box saying the club is offline")
        assert read_acks(db) == {}
    finally:
        session.close()
        hole.close()
    assert any(s.startswith("Club offline") for s in said), said
    session = box_session(db, broker, said=said)  # the broker is back: the same box restarts
    try:
        want = box_rows(db)
        wait_for(lambda: club_rows(tmp_path, "box-1") == want, 60, "the catch-up",
                 lambda: (len(club_rows(tmp_path, "box-1")), read_acks(db), said[-3:]))
    finally:
        session.close()
    assert in_order(club.order, "box-1")  # type: ignore[attr-defined]
    assert len(want) == len(script(500))


def headless(db: Path, broker: Broker) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "referee", "headless", "--db", str(db), "--seed", SEED,
         "--club", broker.url, "--club-box", "box-1", "--club-secret",
         str(broker.secret("box-1"))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_a_box_killed_between_a_command_and_its_ack_loses_and_doubles_nothing(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    import json

    db = tmp_path / "box.sqlite"
    steps = script(300)
    proc = headless(db, broker)
    assert proc.stdin is not None and proc.stdout is not None

    def send(requests: tuple[dict[str, Any], ...]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        for req in requests:
            proc.stdin.write(json.dumps(req).encode() + b"\n")
            proc.stdin.flush()
            assert b'"ok"' in proc.stdout.readline()

    send(steps[:150])
    wait_for(lambda: sum(read_acks(db).values()) == 150, 30, "the first 150 acknowledged")
    assert broker.proc is not None
    broker.proc.send_signal(signal.SIGSTOP)  # it takes what comes and acknowledges nothing
    try:
        send(steps[150:])  # durable on the box; sent, perhaps, but never acknowledged
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        broker.proc.send_signal(signal.SIGCONT)
    want = box_rows(db)
    assert sum(read_acks(db).values()) == 150 < len(want)
    proc = headless(db, broker)  # restarted: it sends the rest
    try:
        wait_for(lambda: club_rows(tmp_path, "box-1") == want, 60, "the rest after restart")
        wait_for(lambda: sum(read_acks(db).values()) == len(want), 30, "every ack mark")
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(20)
    assert in_order(club.order, "box-1")  # type: ignore[attr-defined]
