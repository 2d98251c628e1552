"""systemd readiness and watchdog notifications (sd_notify), with a main-loop heartbeat.

The service unit runs the box as ``Type=notify`` with ``WatchdogSec=``: systemd waits for
``READY=1`` and then expects ``WATCHDOG=1`` at least once per ``WATCHDOG_USEC``, or it kills
and restarts the box. Pinging from a timer alone would prove only that the timer runs, so the
pings are gated on a heartbeat: the main loop calls :meth:`Watchdog.beat` every iteration, and
:meth:`Watchdog.tick` (called by a separate pinger) sends ``WATCHDOG=1`` only while the last
beat is recent. When the main loop stalls, the beats stop, the pings stop, and systemd
restarts the service.

Use from a main loop that sleeps until its next deadline (``referee box``): make
:meth:`Watchdog.next_due` one of the deadlines, and beat and tick on every turn; the loop then
wakes to ping on the watchdog's schedule, and a stalled loop pings no more::

    while running:
        wd.beat()
        wd.tick()
        item = inbox.get(timeout=seconds_until(min(wd.next_due(), other_deadlines)))
        ...

Use from an asyncio main loop::

    wd = Watchdog()
    wd.ready("refereeing")                       # once the box is up
    pinger = asyncio.create_task(run_pinger(wd))
    while running:
        wd.beat()                                # every main-loop iteration
        ...
    wd.stopping()
    pinger.cancel()

Use from a Textual app (the timer runs on the app's own loop, so a stalled loop stops it;
``referee run`` instead arms a one-shot timer for the earliest deadline, ``next_due`` among
them)::

    def on_mount(self) -> None:
        self.set_interval(self.wd.tick_period, self._watchdog)
        self.wd.ready("console up")

    def _watchdog(self) -> None:
        self.wd.beat()
        self.wd.tick()

Everything is a no-op when ``NOTIFY_SOCKET`` is unset (laptops, tests, ``scripts/run``).
The protocol is a few datagrams on an ``AF_UNIX`` socket (see sd_notify(3)), so this needs no
dependency.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Awaitable, Callable, Mapping

from referee.lazylog import Logger

__all__ = ["Watchdog", "run_pinger"]

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[object]]


def _socket_address(value: str) -> str | bytes:
    """Turn ``$NOTIFY_SOCKET`` into a sendto() address ('@name' is the abstract namespace)."""
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    return value


class Watchdog:
    """Notify systemd of readiness, status and liveness; gate liveness on a heartbeat.

    Args:
        env: The environment to read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and
            ``WATCHDOG_PID`` from.
        clock: A monotonic clock in seconds (tests pass a fake one).
        stall_after: How old the last :meth:`beat` may be, in seconds, for :meth:`tick` to
            still ping. Defaults to :attr:`interval`.
        pid: This process's id, compared with ``WATCHDOG_PID`` (defaults to ``os.getpid()``).
    """

    def __init__(
        self,
        env: Mapping[str, str] = os.environ,
        clock: Clock = time.monotonic,
        *,
        stall_after: float | None = None,
        pid: int | None = None,
    ) -> None:
        self._clock = clock
        self._address: str | bytes | None = None
        self._sock: socket.socket | None = None
        notify_socket = env.get("NOTIFY_SOCKET", "")
        if notify_socket:
            self._address = _socket_address(notify_socket)
        self.interval = self._watchdog_interval(env, os.getpid() if pid is None else pid)
        self.stall_after = stall_after if stall_after is not None else self.interval
        self._last_beat: float | None = None
        self._last_ping: float | None = None
        self._failures_logged = False

    @staticmethod
    def _watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
        """Half of ``WATCHDOG_USEC`` in seconds, or None when no watchdog is expected of us."""
        usec = env.get("WATCHDOG_USEC", "")
        watchdog_pid = env.get("WATCHDOG_PID", "")
        if not usec:
            return None
        if watchdog_pid and watchdog_pid != str(pid):
            return None  # inherited from a parent the watchdog is meant for
        try:
            value = int(usec)
        except ValueError:
            log.warning("ignoring malformed WATCHDOG_USEC=%r", usec)
            return None
        return value / 2_000_000 if value > 0 else None

    @property
    def enabled(self) -> bool:
        """True when a service manager is listening (``NOTIFY_SOCKET`` is set)."""
        return self._address is not None

    @property
    def tick_period(self) -> float:
        """How often a pinger should call :meth:`tick`: a quarter of the interval, at most 1 s."""
        if self.interval is None:
            return 1.0
        return min(self.interval / 4, 1.0)

    def notify(self, message: str) -> bool:
        """Send one raw sd_notify message; True if it was sent. Never raises for socket errors."""
        if self._address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode(), self._address)
        except OSError as exc:
            if not self._failures_logged:
                log.warning("sd_notify to %r failed: %s", self._address, exc)
                self._failures_logged = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Tell systemd start-up is complete (``READY=1``), optionally with a status line."""
        message = "READY=1" if status is None else f"READY=1\nSTATUS={_one_line(status)}"
        return self.notify(message)

    def status(self, text: str) -> bool:
        """Set the line ``systemctl status`` shows for the service."""
        return self.notify(f"STATUS={_one_line(text)}")

    def stopping(self) -> bool:
        """Tell systemd a clean shutdown has begun (``STOPPING=1``); no pings follow."""
        self._last_beat = None
        return self.notify("STOPPING=1")

    def beat(self) -> None:
        """Record that the main loop is alive. Call it every main-loop iteration or tick."""
        self._last_beat = self._clock()

    def ping(self) -> bool:
        """Send ``WATCHDOG=1`` unconditionally (e.g. between slow start-up steps)."""
        if self.interval is None:
            return False
        self._last_ping = self._clock()
        return self.notify("WATCHDOG=1")

    def healthy(self) -> bool:
        """True if the main loop has beaten within ``stall_after`` seconds."""
        if self._last_beat is None or self.stall_after is None:
            return False
        return self._clock() - self._last_beat <= self.stall_after

    def next_due(self) -> float | None:
        """When the next ping is due (by the clock), for a main loop that sleeps until its
        next deadline and pings itself; None when systemd expects no pings."""
        if self.interval is None or not self.enabled:
            return None
        if self._last_ping is None:
            return self._clock()
        return self._last_ping + self.interval

    def tick(self) -> bool:
        """Ping if one is due and the main loop is healthy; True if a ping was sent.

        Safe to call as often as you like: it pings at most once per :attr:`interval`.
        """
        if self.interval is None or not self.healthy():
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.interval:
            return False
        return self.ping()

    def close(self) -> None:
        """Close the notification socket (it is reopened if used again)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    """STATUS= is one line: newlines would start new assignments."""
    return " ".join(text.split())


async def run_pinger(wd: Watchdog, *, sleep: Sleep | None = None) -> None:
    """Call ``wd.tick()`` every ``wd.tick_period`` seconds until cancelled.

    Start it as a task on the same loop as the main loop. Returns at once when systemd
    expects no watchdog pings, so it costs nothing on a laptop.
    """
    if wd.interval is None or not wd.enabled:
        return
    if sleep is None:
        import asyncio  # (here: the box without a console starts without asyncio)

        sleep = asyncio.sleep
    while True:
        wd.tick()
        await sleep(wd.tick_period)
