"""The driver's thread sleeps until it has work: on a real pty, with the time of the driver's
sleeps faked, so counts are exact and no test waits for a duration.

:class:`FakeTime` is the driver's :class:`~device.tray.wake.Waiter` with a fake clock. Frozen
(the default), time stands still: a sleep ends only for bytes from the tray or a wake from
another thread, never for a timeout, so a test that needs a wake hangs (and fails) without
one. Running (a ``horizon`` set), a sleep that finds nothing to read lets its whole timeout
pass on the fake clock at once; at the horizon time stands still again.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
import serial  # type: ignore[import-untyped]

from device.tray.driver import SerialPort, TrayDriver, _descriptor, open_serial
from device.tray.link import StatusKind, TrayStatus, TrayTimings
from device.tray.messages import HostHeartbeat, HostMessage
from device.tray.sim import TraySimulator
from device.tray.wake import Waiter
from tests.device.test_tray_driver import Recorder

TIMINGS = TrayTimings(host_heartbeat=2.0, silence_timeout=30.0, backoff_initial=0.01,
                      backoff_max=0.02)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Sleep:
    start: float  # fake time the sleep began
    asked: float | None  # the timeout the driver asked for
    port: bool  # sleeping on the port (False: a flood pause, wake pipe only)
    readable: bool  # ended because the port was readable
    woken: bool  # ended by a wake from another thread
    timed_out: bool  # ended because its time passed on the fake clock


class FakeTime(Waiter):
    """See the module docstring."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.horizon: float | None = None
        self.cond = threading.Condition()
        self.asked: list[float | None] = []  # every sleep's timeout, as it begins
        self.sleeps: list[Sleep] = []  # every sleep, as it ends
        self.at_horizon = threading.Event()

    def wait(self, fd: int | None, timeout: float | None) -> bool:
        start = self.clock.now
        with self.cond:
            self.asked.append(timeout)
            self.cond.notify_all()
        woken = self.wakeups
        readable = super().wait(fd, 0)
        timed_out = False
        if not readable and self.wakeups == woken and timeout != 0:
            horizon = self.horizon
            if horizon is not None and timeout is not None and start + timeout <= horizon:
                self.clock.now = start + timeout  # the time passes, all at once
                timed_out = True
            else:
                if horizon is not None:
                    self.at_horizon.set()
                readable = super().wait(fd, None)  # frozen: bytes or a wake, nothing else
        with self.cond:
            self.sleeps.append(Sleep(start, timeout, fd is not None, readable,
                                     self.wakeups != woken, timed_out))
            self.cond.notify_all()
        return readable

    def run_until(self, horizon: float) -> None:
        """Let fake time run to ``horizon`` and wait until the driver sleeps past it."""
        self.at_horizon.clear()
        self.horizon = horizon
        self.wake()
        assert self.at_horizon.wait(10.0), "the driver never reached the horizon"

    def asleep(self, after: int = 0) -> float | None:
        """Wait until the driver is in a sleep begun after its ``after``-th; its timeout."""
        with self.cond:
            assert self.cond.wait_for(
                lambda: len(self.asked) > after and len(self.asked) == len(self.sleeps) + 1,
                10.0), self.asked
            return self.asked[-1]

    def begun(self) -> int:
        with self.cond:
            return len(self.asked)


class CountingPort:
    """A pyserial port on a pty that counts the lines the driver writes."""

    def __init__(self, port: SerialPort) -> None:
        self._port = port
        self.lines = 0

    def write(self, data: bytes) -> int | None:
        self.lines += data.count(b"\n")
        written: int | None = self._port.write(data)
        return written

    def __getattr__(self, name: str) -> object:
        return getattr(self._port, name)


class Table:
    def __init__(self, tmp_path: Path, timings: TrayTimings = TIMINGS) -> None:
        self.path = str(tmp_path / "dice-tray")
        self.sim = TraySimulator(link=self.path, seed=5, clock=lambda: 0.0)  # no heartbeats
        self.clock = FakeClock()
        self.time = FakeTime(self.clock)
        self.rec = Recorder()
        self.status_times: list[tuple[TrayStatus, float]] = []
        self.ports: list[CountingPort] = []
        self.driver = TrayDriver(self.path, opener=self._open, clock=self.clock,
                                 on_status=self._status, on_result=self._result,
                                 on_unexpected=self.rec.other, timings=timings,
                                 waiter=lambda: self.time)
        self.result_after: list[Sleep] = []  # the sleep that ended before each result

    def _open(self, path: str) -> SerialPort:
        self.ports.append(CountingPort(open_serial(path, timings=self.driver.timings)))
        return cast(SerialPort, self.ports[-1])

    def _status(self, status: TrayStatus) -> None:
        self.status_times.append((status, self.clock.now))
        self.rec.status(status)

    def _result(self, result: object) -> None:
        with self.time.cond:
            self.result_after.append(self.time.sleeps[-1])
        self.rec.result(result)  # type: ignore[arg-type]

    def received(self, kind: type[HostMessage], count: int) -> bool:
        """Wait until the tray has received ``count`` lines of ``kind`` from the host."""
        return self.sim.wait_for(
            lambda: sum(isinstance(m, kind) for m in self.sim.firmware.host_messages)
            >= count, 5.0)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    t.sim.start()
    t.driver.start()
    try:
        t.rec.wait(lambda: t.driver.connected)
        yield t
    finally:
        t.driver.close()
        t.sim.close()


def test_a_silent_tray_costs_one_wakeup_per_timer_due(table: Table) -> None:
    """20 fake seconds of a connected tray saying nothing: the driver wakes for the host's
    heartbeat every 2 s (10 of them) and for nothing else; a 0.1 s read timeout would have
    woken it 200 times."""
    time, start = table.time, table.clock.now
    assert time.asleep() == TIMINGS.host_heartbeat
    written = table.ports[-1].lines
    time.run_until(start + 20.0)
    span = [s for s in time.sleeps if s.timed_out]
    assert len(span) == 10
    assert [s.asked for s in span] == [TIMINGS.host_heartbeat] * 10
    assert [s.start for s in span] == [start + 2 * i for i in range(10)]
    assert table.ports[-1].lines - written == 10  # one heartbeat per wakeup
    assert table.received(HostHeartbeat, 11)
    assert table.driver.connected


def test_silence_is_still_detected_and_every_wakeup_does_work(tmp_path: Path) -> None:
    """A wedged tray (its lines lost): declared gone at its silence limit, reopened, and
    the handshake retried with backoff; every sleep that ran out ended at a deadline that
    sent a line or reported something."""
    t = Table(tmp_path, TrayTimings(backoff_initial=0.01, backoff_max=0.02))
    t.sim.start()
    try:
        t.driver.start()
        t.rec.wait(lambda: t.driver.connected)
        start = t.clock.now
        t.time.asleep()
        written = t.ports[-1].lines
        t.sim.drop_next(10**9)  # nothing from the tray reaches the host any more
        t.time.run_until(start + 12.0)
        silent = [(s, at) for s, at in t.status_times if s.kind is StatusKind.DISCONNECTED]
        assert len(silent) == 1 and "silent" in silent[0][0].detail
        assert silent[0][1] == start + TrayTimings().silence_timeout
        assert len(t.ports) >= 3  # reopened after the silence and after each failed handshake
        assert t.rec.count(StatusKind.HANDSHAKE_FAILED) >= 2
        sent = sum(p.lines for p in t.ports) - written
        reported = sum(1 for _, at in t.status_times if at > start)
        timed_out = sum(1 for s in t.time.sleeps if s.timed_out)
        assert 0 < timed_out <= sent + reported
    finally:
        t.driver.close()
        t.sim.close()
    assert not t.driver.running


def test_a_roll_is_read_in_the_turn_its_bytes_wake_the_driver(table: Table) -> None:
    arm_id = table.driver.arm("d6")
    assert table.sim.wait_for(lambda: table.sim.firmware.armed == (arm_id, "d6"), 5.0)
    table.rec.wait(lambda: StatusKind.ARMED in table.rec.kinds())
    table.sim.roll("d6", (4,), rolling_first=False)
    table.rec.wait(lambda: len(table.rec.results) == 1)
    woke = table.result_after[0]
    assert woke.readable and not woke.timed_out and woke.port
    assert [(r.value, r.expected) for r in table.rec.results] == [(4, True)]


def test_arm_and_disarm_from_another_thread_wake_the_sleep_to_time_the_resend(
    table: Table,
) -> None:
    """The thread sleeps until the host heartbeat; an arm the tray has not confirmed must be
    resent in 0.5 s, so arming wakes the thread to sleep for that instead."""
    time = table.time
    assert time.asleep() == TIMINGS.host_heartbeat
    table.sim.drop_next(10**9)  # the tray's ARMED will not arrive
    begun = time.begun()
    table.driver.arm("d10")
    assert time.asleep(begun) == TIMINGS.arm_resend
    assert time.sleeps[begun - 1].woken and time.begun() == begun + 1
    table.driver.disarm()
    assert time.asleep(begun + 1) == TIMINGS.host_heartbeat
    assert time.sleeps[begun].woken


def test_close_from_another_thread_wakes_the_sleep(table: Table) -> None:
    table.time.asleep()  # frozen: only bytes or a wake can end it
    table.driver.close()
    assert not table.driver.running
    assert table.time.sleeps[-1].woken
    assert table.rec.kinds()[-1] is StatusKind.DISCONNECTED


def test_an_unplug_during_the_sleep_wakes_it_and_a_replug_reconnects(table: Table) -> None:
    table.time.asleep()
    table.sim.unplug()  # the hang-up ends the sleep; the read that follows fails
    table.rec.wait(lambda: StatusKind.DISCONNECTED in table.rec.kinds())
    down = next(s for s in table.rec.statuses if s.kind is StatusKind.DISCONNECTED)
    assert "unplugged or failed" in down.detail
    table.sim.replug(power_cycle=False)
    table.rec.wait(lambda: table.rec.count(StatusKind.CONNECTED) == 2)
    assert not any(s.timed_out for s in table.time.sleeps)  # no time passed at all


def test_a_port_without_a_descriptor_falls_back_to_timed_reads() -> None:
    """pyserial's loop:// has no file descriptor: the driver reads it with the port's timeout
    (its own HELLO comes back to it: garbage), never sleeps on it, and still closes."""
    loop = serial.serial_for_url("loop://", timeout=0.02)
    assert _descriptor(loop) is None
    clock = FakeClock()
    time = FakeTime(clock)
    driver = TrayDriver("loop://", opener=lambda path: loop, clock=clock,
                        timings=TrayTimings(read_timeout=0.02), waiter=lambda: time)
    with driver:
        pause = threading.Event()
        for _ in range(500):
            if driver.link.garbage:
                break
            pause.wait(0.01)
        assert driver.link.garbage > 0 and driver.running
    assert not driver.running
    assert not any(s.port for s in time.sleeps)


def test_a_pty_has_a_descriptor(tmp_path: Path) -> None:
    master, slave = os.openpty()
    try:
        port = cast(serial.Serial, open_serial(os.ttyname(slave)))
        try:
            assert _descriptor(port) == port.fileno()
        finally:
            port.close()
        with pytest.raises(serial.SerialException):  # a closed port: no descriptor to poll
            port.fileno()
        assert _descriptor(port) is None
    finally:
        os.close(master)
        os.close(slave)


def test_a_wake_before_the_sleep_is_not_lost_and_a_wake_after_close_is_harmless() -> None:
    waiter = Waiter()
    waiter.wake()
    waiter.wake()
    assert waiter.wait(None, None) is False  # returns at once: the wake was kept
    assert waiter.wakeups == 1
    waiter.close()
    waiter.wake()
    assert waiter.wait(None, None) is False
