"""device.watchdog against a real AF_UNIX datagram socket standing in for systemd (fault #11)."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.watchdog import Watchdog, run_pinger


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeSystemd:
    """The receiving end of NOTIFY_SOCKET."""

    def __init__(self, sock: socket.socket, env_value: str) -> None:
        self.sock = sock
        self.env_value = env_value

    def env(self, watchdog_usec: int | None = 20_000_000, **extra: str) -> dict[str, str]:
        env = {"NOTIFY_SOCKET": self.env_value, **extra}
        if watchdog_usec is not None:
            env["WATCHDOG_USEC"] = str(watchdog_usec)
        return env

    def messages(self) -> list[str]:
        """Every datagram received so far (sendto on AF_UNIX delivers before it returns)."""
        received = []
        while True:
            try:
                received.append(self.sock.recv(4096).decode())
            except BlockingIOError:
                return received


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.setblocking(False)
    yield FakeSystemd(sock, str(path))
    sock.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_ready_status_stopping_are_sent(systemd: FakeSystemd, clock: FakeClock) -> None:
    wd = Watchdog(env=systemd.env(), clock=clock)
    assert wd.enabled
    assert wd.ready("refereeing")
    assert wd.status("round 2\nplayer 3")
    assert wd.stopping()
    assert systemd.messages() == [
        "READY=1\nSTATUS=refereeing",
        "STATUS=round 2 player 3",
        "STOPPING=1",
    ]
    wd.close()


def test_abstract_namespace_address(clock: FakeClock) -> None:
    name = f"tableside-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.setblocking(False)
    try:
        wd = Watchdog(env={"NOTIFY_SOCKET": "@" + name}, clock=clock)
        assert wd.ready()
        assert FakeSystemd(sock, "@" + name).messages() == ["READY=1"]
        wd.close()
    finally:
        sock.close()


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        ({"WATCHDOG_USEC": "20000000"}, 10.0),
        ({"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid())}, 1.5),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_interval_is_half_of_watchdog_usec(env: dict[str, str], interval: float | None) -> None:
    assert Watchdog(env={"NOTIFY_SOCKET": "/nonexistent", **env}).interval == interval


def test_no_op_without_notify_socket(clock: FakeClock) -> None:
    wd = Watchdog(env={"WATCHDOG_USEC": "20000000"}, clock=clock)
    wd.beat()
    assert not wd.enabled
    assert not wd.ready()
    assert not wd.tick()
    assert not wd.stopping()
    assert asyncio.run(run_pinger(wd)) is None  # returns at once instead of looping


def test_send_failure_is_reported_not_raised(tmp_path: Path, clock: FakeClock) -> None:
    wd = Watchdog(env={"NOTIFY_SOCKET": str(tmp_path / "gone")}, clock=clock)
    assert not wd.ready()  # ENOENT: logged once, never raised into the main loop


def test_pings_at_the_interval_while_the_loop_beats(
    systemd: FakeSystemd, clock: FakeClock
) -> None:
    wd = Watchdog(env=systemd.env(watchdog_usec=20_000_000), clock=clock)
    assert wd.interval == 10.0 and wd.tick_period == 1.0
    wd.ready()
    ping_times = []
    for _ in range(60):  # 30 s of a main loop ticking every 0.5 s, the pinger every 0.5 s
        wd.beat()
        if wd.tick():
            ping_times.append(clock.now - 1000.0)
        clock.advance(0.5)
    assert systemd.messages() == ["READY=1"] + ["WATCHDOG=1"] * len(ping_times)
    assert ping_times == [0.0, 10.0, 20.0]


def test_no_ping_before_the_first_beat(systemd: FakeSystemd, clock: FakeClock) -> None:
    wd = Watchdog(env=systemd.env(), clock=clock)
    assert not wd.tick()
    assert systemd.messages() == []


def test_pings_stop_when_the_main_loop_stalls(systemd: FakeSystemd, clock: FakeClock) -> None:
    """Fault #11: the main loop stalls, the pinger keeps running, no WATCHDOG=1 goes out."""
    wd = Watchdog(env=systemd.env(watchdog_usec=4_000_000), clock=clock)  # WatchdogSec=4s
    assert wd.interval == 2.0 and wd.stall_after == 2.0
    pings: list[float] = []

    def pinger_tick() -> None:
        if wd.tick():
            pings.append(clock.now - 1000.0)

    for _ in range(20):  # 5 s healthy: beat and tick every 0.25 s
        wd.beat()
        pinger_tick()
        clock.advance(0.25)
    last_beat = clock.now - 1000.0 - 0.25
    assert pings == [0.0, 2.0, 4.0]
    # The main loop stops beating; the pinger still ticks every 0.25 s for 10 s.
    for _ in range(40):
        pinger_tick()
        clock.advance(0.25)
    # At most one more ping, while the last beat was still fresh; then silence.
    assert pings == [0.0, 2.0, 4.0, 6.0]
    assert pings[-1] <= last_beat + wd.stall_after
    assert systemd.messages() == ["WATCHDOG=1"] * 4
    # systemd's deadline (last ping + WATCHDOG_USEC) has passed: it restarts the service.
    assert clock.now - 1000.0 > pings[-1] + 4.0
    assert not wd.healthy()
    # A loop that recovers (before systemd acts) resumes pinging on the next tick.
    wd.beat()
    assert wd.tick()
    assert systemd.messages() == ["WATCHDOG=1"]


def test_stall_threshold_is_configurable(systemd: FakeSystemd, clock: FakeClock) -> None:
    wd = Watchdog(env=systemd.env(watchdog_usec=20_000_000), clock=clock, stall_after=2.0)
    wd.beat()
    clock.advance(2.0)
    assert wd.healthy()
    clock.advance(0.01)
    assert not wd.healthy()
    assert not wd.tick()


def test_stopping_ends_pings(systemd: FakeSystemd, clock: FakeClock) -> None:
    wd = Watchdog(env=systemd.env(), clock=clock)
    wd.beat()
    assert wd.tick()
    wd.stopping()
    clock.advance(30)
    assert not wd.tick()
    assert systemd.messages() == ["WATCHDOG=1", "STOPPING=1"]


def test_run_pinger_drives_tick_on_an_event_loop(systemd: FakeSystemd, clock: FakeClock) -> None:
    """The asyncio pinger, with a sleep that advances the fake clock and a main loop that
    beats for 12 s and then stalls."""
    wd = Watchdog(env=systemd.env(watchdog_usec=10_000_000), clock=clock)  # interval 5 s
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds)
        if clock.now - 1000.0 <= 12.0:
            wd.beat()  # the main loop is still alive
        if len(sleeps) >= 40:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(run_pinger(wd, sleep=fake_sleep))
    assert set(sleeps) == {1.0}
    # First beat at 1 s, last at 12 s, interval and stall_after 5 s: pings at 1, 6, 11 and
    # 16 s (the 12 s beat is still fresh), then none for the remaining 24 s.
    assert systemd.messages() == ["WATCHDOG=1"] * 4
