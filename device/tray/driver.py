"""The dice-tray driver: one thread, one serial port, reconnecting forever.

The thread sleeps until it has work: in ``poll`` on the port's descriptor and a self-pipe
(:class:`~device.tray.wake.Waiter`) until the tray sends a byte, another thread arms, disarms
or closes, or the link's next timer is due (:meth:`~device.tray.link.TrayLink.next_due`: a
HELLO, the host heartbeat, the silence limit, an arm's resend, a report). With a tray
connected and idle that is about one wakeup per tray heartbeat plus one per host heartbeat.
It feeds bytes to a :class:`~device.tray.link.TrayLink`, writes what the link asks, and hands
results and status changes to callbacks. On unplug (``SerialException``, ``OSError``,
``termios.error``) it closes the port and reopens it by its stable path with capped
exponential backoff, waiting on an ``Event`` so :meth:`TrayDriver.close` returns at once.

Callbacks run on the driver's thread; a callback that raises is logged and the driver goes
on. Front ends post what they get onto their own event loop.
"""

from __future__ import annotations

import contextlib
import logging
import math
import termios
import threading
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

import serial  # type: ignore[import-untyped]

from device.tray.link import LinkEvent, LinkState, TrayLink, TrayResult, TrayStatus, TrayTimings
from device.tray.wake import Waiter

log = logging.getLogger(__name__)
E = TypeVar("E")

DEFAULT_PATH = "/dev/dice-tray"
"""The udev symlink of firmware_config/99-tableside-dice-tray.rules."""

READ_CHUNK = 65536
"""Most bytes taken from the port per read: one read's work is bounded whatever arrives."""

PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, termios.error)
"""What pyserial raises when the device goes away (reliability.md)."""


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the driver uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


Opener = Callable[[str], SerialPort]


def open_serial(path: str, *, timings: TrayTimings | None = None) -> SerialPort:
    """Open the tray's port with pyserial (115200 8N1; a CDC-ACM tray ignores the rate)."""
    t = timings or TrayTimings()
    port: SerialPort = serial.serial_for_url(
        path, baudrate=115200, timeout=t.read_timeout, write_timeout=t.write_timeout,
        exclusive=True if not path.startswith(("loop:", "socket:", "rfc2217:")) else None)
    return port


class TrayDriver:
    """Talks to one dice tray at ``path``; see the module docstring.

    Args:
        path: the stable device path (a udev symlink or ``/dev/serial/by-id/...``).
        opener: ``opener(path)`` returns an open pyserial-like port; default
            :func:`open_serial`. Tests pass pyserial ``loop://`` or pty openers.
        clock: monotonic seconds; default ``time.monotonic``.
        on_result: called with each settled roll that answers the current arm, exactly once.
        on_unexpected: called with each settled roll nobody armed for (not usable).
        on_status: called with each :class:`TrayStatus` (connected, disconnected, reset,
            garbage counted, ...).
        percentile: ``"1-100"`` (00+0 reads 100, GG-7) or ``"0-99"``.
        timings: intervals; default :class:`TrayTimings`.
        waiter: makes the :class:`~device.tray.wake.Waiter` the thread sleeps in (default
            ``Waiter``); tests pass one that counts the waits or fakes the passing of time.
    """

    def __init__(
        self,
        path: str = DEFAULT_PATH,
        *,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_result: Callable[[TrayResult], None] | None = None,
        on_unexpected: Callable[[TrayResult], None] | None = None,
        on_status: Callable[[TrayStatus], None] | None = None,
        percentile: str = "1-100",
        timings: TrayTimings | None = None,
        waiter: Callable[[], Waiter] = Waiter,
    ) -> None:
        self.path = path
        self.timings = timings or TrayTimings()
        self._opener: Opener = opener or (lambda p: open_serial(p, timings=self.timings))
        self._clock = clock
        self.on_result = on_result
        self.on_unexpected = on_unexpected
        self.on_status = on_status
        self._link = TrayLink(timings=self.timings, percentile=percentile)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._port: SerialPort | None = None
        self._timed_reads = True  # the port being served has no descriptor to poll
        self._thread: threading.Thread | None = None
        self._make_waiter = waiter
        self._waiter: Waiter | None = None
        self.open_attempts = 0

    # --- lifecycle --------------------------------------------------------------------------

    def start(self) -> TrayDriver:
        """Start the driver's thread (it keeps trying until :meth:`close`)."""
        if self._thread is not None:
            raise RuntimeError("TrayDriver.start() called twice")
        self._waiter = self._make_waiter()
        self._thread = threading.Thread(target=self._run, name="dice-tray", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port; returns at once (a port without a descriptor
        and without ``cancel_read``: within one read timeout)."""
        self._stop.set()
        self._wake()
        with self._lock:
            port = self._port
            timed = self._timed_reads
        cancel = getattr(port, "cancel_read", None)
        if timed and cancel is not None:  # the thread may be in port.read: cut it short
            with contextlib.suppress(*PORT_ERRORS):
                cancel()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5 * self.timings.read_timeout + 1.0)

    def __enter__(self) -> TrayDriver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- for the table ----------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """True while a tray has answered the handshake and is talking."""
        with self._lock:
            return self._link.state is LinkState.READY

    @property
    def running(self) -> bool:
        """True while the driver's thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def flooding(self) -> bool:
        """True while the tray floods the port: lines are dropped unread (a roll among them
        may be lost until the tray resends it); see :attr:`dropped_lines`."""
        with self._lock:
            return self._link.flood.flooding

    @property
    def dropped_lines(self) -> int:
        """Lines dropped unread because the tray sent more than the read budget (all time)."""
        with self._lock:
            return self._link.flood.dropped_lines

    @property
    def link(self) -> TrayLink:
        """The protocol state (read-only use: counters, ``info``, ``armed``)."""
        return self._link

    def arm(self, die: str) -> int:
        """Expect one physical roll of ``die`` (``d6``, ``d10``, ``d100``); returns the arm id.

        Raises:
            TrayUsageError: an unknown die, or one this tray says it cannot read.
        """
        with self._lock:
            arm_id = self._link.arm(die, self._clock())
            self._flush_locked()
        self._wake()  # the thread's sleep was measured without this arm's resend timer
        return arm_id

    def disarm(self, arm_id: int | None = None) -> None:
        """Withdraw the outstanding arm (only ``arm_id`` if given)."""
        with self._lock:
            self._link.disarm(arm_id)
            self._flush_locked()
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            waiter.wake()

    # --- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        waiter = self._waiter
        assert waiter is not None  # made by start()
        try:
            self._reconnect_forever(waiter)
        finally:
            with self._lock:
                self._waiter = None
            waiter.close()

    def _reconnect_forever(self, waiter: Waiter) -> None:
        delay = self.timings.backoff_initial
        while not self._stop.is_set():
            port = self._open()
            if port is not None:
                if self._serve(port, waiter):
                    delay = self.timings.backoff_initial
                self._drop(port)
                self._dispatch()
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.timings.backoff_max)

    def _open(self) -> SerialPort | None:
        self.open_attempts += 1
        try:
            port = self._opener(self.path)
        except PORT_ERRORS as exc:
            log.debug("dice tray: cannot open %s: %s", self.path, exc)
            return None
        try:
            port.reset_input_buffer()  # stale bytes from before we looked are not news
        except PORT_ERRORS as exc:
            log.debug("dice tray: %s went away at once: %s", self.path, exc)
            _close_quietly(port)
            return None
        with self._lock:
            self._port = port
            self._timed_reads = _descriptor(port) is None
            self._link.connect(self._clock())
            self._flush_locked()
        self._dispatch()
        return port

    def _serve(self, port: SerialPort, waiter: Waiter) -> bool:
        """Read until the port fails or the link gives up; True if the handshake completed.

        Each turn sleeps until the port is readable, a wake, or the link's next timer; then
        reads what is there, feeds it and ticks the link (so a roll is handled in the turn
        its bytes woke)."""
        ready = False
        fd = _descriptor(port)  # None: no descriptor to poll, fall back to timed reads
        while not self._stop.is_set():
            try:
                if fd is None:
                    data = _timed_read(port)
                else:
                    with self._lock:
                        now = self._clock()
                        due = self._link.next_due(now)
                    readable = waiter.wait(fd, None if due == math.inf else max(0.0, due - now))
                    data = _read_available(port) if readable else b""
            except PORT_ERRORS as exc:
                with self._lock:
                    self._link.disconnect(f"tray unplugged or failed: {exc}")
                return ready
            with self._lock:
                now = self._clock()
                if data:
                    self._link.feed(data, now)
                self._link.tick(now)
                self._flush_locked()
                state = self._link.state
                ready = ready or state is LinkState.READY
                dropping = self._link.flood.dropping
            self._dispatch()
            if state is LinkState.CLOSED:  # a write failed under the lock
                return ready
            if state is LinkState.FAILED:
                return ready
            if dropping:  # a flood: read a bulk now and then; the kernel buffer backs it up
                waiter.wait(None, self.timings.flood_pause)  # close() wakes it
        with self._lock:
            self._link.disconnect("driver closed")
        return ready

    def _flush_locked(self) -> None:
        """Write what the link queued; a failed write marks the link closed (lock held)."""
        port = self._port
        lines = self._link.take_output()
        if port is None or self._link.state is LinkState.CLOSED:
            return
        try:
            for line in lines:
                port.write(line)
        except (*PORT_ERRORS, serial.SerialTimeoutException) as exc:
            self._link.disconnect(f"write to tray failed: {exc}")

    def _drop(self, port: SerialPort) -> None:
        with self._lock:
            self._port = None
            if self._link.state is not LinkState.CLOSED:
                self._link.disconnect("connection given up: " + self._link.fail_reason)
        _close_quietly(port)

    def _dispatch(self) -> None:
        with self._lock:
            events = self._link.take_events()
        for event in events:
            self._call(event)

    def _call(self, event: LinkEvent) -> None:
        if isinstance(event, TrayStatus):
            _safely(self.on_status, event)
        elif event.expected:
            _safely(self.on_result, event)
        else:
            _safely(self.on_unexpected, event)


def _descriptor(port: SerialPort) -> int | None:
    """The port's file descriptor to ``poll``, or None: pyserial's ``loop://`` and other URL
    ports, and test doubles, have none (``fileno`` missing or raising)."""
    fileno = getattr(port, "fileno", None)
    if fileno is None:
        return None
    try:
        fd = fileno()
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None


def _timed_read(port: SerialPort) -> bytes:
    """For a port without a descriptor: block in ``read`` up to its own timeout
    (``TrayTimings.read_timeout``), so such a port is polled every read timeout. Only
    ``loop://`` ports in tests and exotic URL handlers get here, never a real tray."""
    data = port.read(1)
    if data:
        waiting = min(port.in_waiting, READ_CHUNK)
        if waiting:
            data += port.read(waiting)
    return data


def _read_available(port: SerialPort) -> bytes:
    """The port was readable: take what is there, at most ``READ_CHUNK`` bytes. With nothing
    waiting (a hang-up also wakes ``poll``) read one byte: on an unplugged device pyserial's
    read raises, which is how the driver learns of it. Were the descriptor ever reported
    readable with nothing to read and no error, that read blocks for the port's timeout
    (``read_timeout``) and returns nothing: the old 0.1 s polling at worst, never a spin."""
    waiting = min(port.in_waiting, READ_CHUNK)
    return port.read(max(1, waiting))


def _safely(callback: Callable[[E], None] | None, event: E) -> None:
    """Call a front end's callback; one that raises is logged and never kills the thread."""
    if callback is None:
        return
    try:
        callback(event)
    except Exception:
        log.exception("dice tray: a callback raised on %r; the driver goes on", event)


def _close_quietly(port: SerialPort) -> None:
    with contextlib.suppress(*PORT_ERRORS):
        port.close()
