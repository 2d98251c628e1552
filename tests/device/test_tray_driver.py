"""The driver's thread: pyserial failure modes, reconnect with backoff, no busy loop, close."""

from __future__ import annotations

import errno
import faulthandler
import itertools
import random
import termios
import threading
import time
from collections.abc import Callable

import pytest
import serial

from device.tray.driver import TrayDriver
from device.tray.firmware import TrayFirmware
from device.tray.link import StatusKind, TrayResult, TrayStatus, TrayTimings

FAST = TrayTimings(read_timeout=0.02, hello_interval=0.1, host_heartbeat=0.1,
                   silence_timeout=0.5, arm_resend=0.1, backoff_initial=0.02, backoff_max=0.1)


class FirmwarePort:
    """A pyserial-like port with a TrayFirmware on the far end. It can fail like an unplug."""

    def __init__(self, fw: TrayFirmware, timeout: float = 0.02) -> None:
        self.fw = fw
        self.timeout = timeout
        self.cond = threading.Condition()
        self.buf = bytearray()
        self.faults: dict[str, BaseException] = {}
        self.mute = False
        self.closed = False

    def _check(self, method: str) -> None:
        if self.closed:
            raise serial.SerialException("port closed")
        exc = self.faults.get(method)
        if exc is not None:
            raise exc

    def _pump(self) -> None:
        self.fw.tick(time.monotonic())
        out = self.fw.take_output()
        if not self.mute:
            for line in out:
                self.buf += line

    def read(self, size: int = 1) -> bytes:
        deadline = time.monotonic() + self.timeout
        with self.cond:
            while True:
                self._check("read")
                self._pump()
                if self.buf:
                    data = bytes(self.buf[:size])
                    del self.buf[:size]
                    return data
                left = deadline - time.monotonic()
                if left <= 0:
                    return b""
                self.cond.wait(min(left, 0.01))

    @property
    def in_waiting(self) -> int:
        with self.cond:
            self._check("in_waiting")
            return len(self.buf)

    def write(self, data: bytes) -> int:
        with self.cond:
            self._check("write")
            self.fw.receive(data, time.monotonic())
            self._pump()
            self.cond.notify_all()
            return len(data)

    def reset_input_buffer(self) -> None:
        with self.cond:
            self._check("reset_input_buffer")
            self.buf.clear()

    def close(self) -> None:
        self.closed = True


class Recorder:
    """Collects the driver's callbacks and lets a test wait for a condition on them."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.statuses: list[TrayStatus] = []
        self.results: list[TrayResult] = []
        self.unexpected: list[TrayResult] = []

    def status(self, s: TrayStatus) -> None:
        with self.cond:
            self.statuses.append(s)
            self.cond.notify_all()

    def result(self, r: TrayResult) -> None:
        with self.cond:
            self.results.append(r)
            self.cond.notify_all()

    def other(self, r: TrayResult) -> None:
        with self.cond:
            self.unexpected.append(r)
            self.cond.notify_all()

    def kinds(self) -> list[StatusKind]:
        with self.cond:
            return [s.kind for s in self.statuses]

    def count(self, kind: StatusKind) -> int:
        return self.kinds().count(kind)

    def wait(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        with self.cond:
            ok = self.cond.wait_for(predicate, timeout)
        if not ok:
            faulthandler.dump_traceback(all_threads=True)  # where is everybody stuck?
        assert ok, f"timed out; saw {self.kinds()}"


def make_driver(opener: Callable[[str], object], rec: Recorder,
                timings: TrayTimings = FAST) -> TrayDriver:
    return TrayDriver("/dev/dice-tray", opener=opener,  # type: ignore[arg-type]
                      on_status=rec.status, on_result=rec.result, on_unexpected=rec.other,
                      timings=timings)


def firmware() -> TrayFirmware:
    return TrayFirmware(heartbeat=0.05, resend=0.05, rng=random.Random(3))


@pytest.mark.parametrize(
    ("method", "exc"),
    [
        ("read", serial.SerialException("device reports readiness to read but returned no data")),
        ("read", OSError(errno.EIO, "Input/output error")),
        ("in_waiting", OSError(errno.EIO, "Input/output error")),
        ("write", serial.SerialException("write failed: [Errno 5] Input/output error")),
        ("write", serial.SerialTimeoutException("Write timeout")),
    ],
)
def test_unplug_errors_are_caught_and_the_tray_is_reopened(
    method: str, exc: BaseException,
) -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    ports: list[FirmwarePort] = []

    def opener(path: str) -> FirmwarePort:
        ports.append(FirmwarePort(fw))
        return ports[-1]

    rec = Recorder()
    with make_driver(opener, rec) as driver:
        assert driver.running
        rec.wait(lambda: StatusKind.CONNECTED in rec.kinds())
        ports[0].faults[method] = exc
        rec.wait(lambda: rec.count(StatusKind.CONNECTED) == 2)
        assert rec.kinds().index(StatusKind.DISCONNECTED) > 0
        assert ports[0].closed and len(ports) >= 2
        driver.arm("d6")  # and the new connection works
        rec.wait(lambda: fw.armed is not None)
        with ports[-1].cond:
            fw.settle("d6", (5,), time.monotonic())
        rec.wait(lambda: len(rec.results) == 1)
    assert [r.value for r in rec.results] == [5]


def test_termios_error_on_flush_at_open_is_caught() -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    opened: list[FirmwarePort] = []

    def opener(path: str) -> FirmwarePort:
        port = FirmwarePort(fw)
        if len(opened) < 2:  # gone again at once, twice: termios.error is not an OSError
            port.faults["reset_input_buffer"] = termios.error(errno.EIO, "Input/output error")
        opened.append(port)
        return port

    rec = Recorder()
    with make_driver(opener, rec):
        rec.wait(lambda: StatusKind.CONNECTED in rec.kinds())
    assert len(opened) == 3 and opened[0].closed and opened[1].closed


def test_write_failure_during_arm_does_not_raise_to_the_caller() -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    ports: list[FirmwarePort] = []

    def opener(path: str) -> FirmwarePort:
        ports.append(FirmwarePort(fw))
        return ports[-1]

    rec = Recorder()
    with make_driver(opener, rec) as driver:
        rec.wait(lambda: StatusKind.CONNECTED in rec.kinds())
        ports[0].faults["write"] = serial.SerialException("write failed")
        arm_id = driver.arm("d100")  # must not raise: the driver reconnects and re-arms
        rec.wait(lambda: rec.count(StatusKind.CONNECTED) == 2)
        rec.wait(lambda: fw.armed == (arm_id, "d100"))


def test_open_failures_back_off_exponentially_to_the_cap() -> None:
    times: list[float] = []
    enough = threading.Event()

    def opener(path: str) -> FirmwarePort:
        times.append(time.monotonic())
        if len(times) >= 7:
            enough.set()
        raise serial.SerialException(f"could not open port {path}")

    rec = Recorder()
    timings = TrayTimings(backoff_initial=0.02, backoff_max=0.16, read_timeout=0.02)
    with make_driver(opener, rec, timings):
        assert enough.wait(5.0)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    for gap, wanted in zip(gaps, [0.02, 0.04, 0.08, 0.16, 0.16, 0.16], strict=False):
        assert gap >= wanted * 0.9
    assert rec.statuses == []  # never connected: nothing to report as lost


def test_unplugged_tray_costs_only_a_handful_of_open_attempts() -> None:
    """Fault test #8, no busy loop: ~2 s unplugged, default timings."""
    attempts: list[float] = []

    def opener(path: str) -> FirmwarePort:
        attempts.append(time.monotonic())
        raise serial.SerialException(f"[Errno 2] could not open port {path}")

    driver = make_driver(opener, Recorder(), TrayTimings())
    driver.start()
    threading.Event().wait(2.0)  # the observation window, not a hope that something happened
    driver.close()
    assert 2 <= len(attempts) <= 6, attempts  # 0, 0.25, 0.75, 1.75 s with the default backoff
    assert driver.open_attempts == len(attempts)


def test_close_is_prompt_in_the_middle_of_a_long_backoff() -> None:
    tried = threading.Event()

    def opener(path: str) -> FirmwarePort:
        tried.set()
        raise OSError(errno.ENOENT, "No such file or directory")

    driver = make_driver(opener, Recorder(), TrayTimings(backoff_initial=30, backoff_max=60))
    driver.start()
    assert tried.wait(5.0)
    started = time.monotonic()
    driver.close()
    assert time.monotonic() - started < 1.0
    assert not driver.running


def test_close_is_prompt_while_connected_and_reports_disconnected() -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    rec = Recorder()
    driver = make_driver(lambda path: FirmwarePort(fw), rec).start()
    rec.wait(lambda: driver.connected)
    started = time.monotonic()
    driver.close()
    assert time.monotonic() - started < 1.0
    assert not driver.connected
    assert rec.kinds()[-1] is StatusKind.DISCONNECTED


def test_a_silent_tray_is_closed_and_reopened() -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    ports: list[FirmwarePort] = []

    def opener(path: str) -> FirmwarePort:
        ports.append(FirmwarePort(fw))
        return ports[-1]

    rec = Recorder()
    with make_driver(opener, rec):
        rec.wait(lambda: StatusKind.CONNECTED in rec.kinds())
        ports[0].mute = True  # a wedged board: the port is open but nothing comes
        rec.wait(lambda: rec.count(StatusKind.CONNECTED) == 2)
    silent = next(s for s in rec.statuses if s.kind is StatusKind.DISCONNECTED)
    assert "silent" in silent.detail and ports[0].closed


def test_a_raising_callback_does_not_stop_the_driver() -> None:
    fw = firmware()
    fw.power_on(time.monotonic())
    port = FirmwarePort(fw)
    got = threading.Event()
    results: list[TrayResult] = []

    def bad_status(status: TrayStatus) -> None:
        raise RuntimeError("front end bug")

    def on_result(result: TrayResult) -> None:
        results.append(result)
        got.set()

    driver = TrayDriver("/dev/dice-tray", opener=lambda p: port,  # type: ignore[arg-type,return-value]
                        on_status=bad_status, on_result=on_result, timings=FAST)
    with driver:
        deadline = time.monotonic() + 5
        while not driver.connected:
            assert time.monotonic() < deadline
            with port.cond:
                port.cond.wait(0.01)
        driver.arm("d6")
        with port.cond:
            assert port.cond.wait_for(lambda: fw.armed is not None, 5.0)
            fw.settle("d6", (2,), time.monotonic())
        assert got.wait(5.0)
    assert [r.value for r in results] == [2]


def test_start_twice_is_an_error() -> None:
    driver = make_driver(lambda p: FirmwarePort(firmware()), Recorder())
    driver.start()
    try:
        with pytest.raises(RuntimeError, match="twice"):
            driver.start()
    finally:
        driver.close()
