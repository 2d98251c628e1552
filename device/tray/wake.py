"""Sleeping until the tray has something to say, or the box has something to tell it.

:class:`Waiter` blocks the driver's thread in ``poll`` on two file descriptors: the serial
port's and the read end of a self-pipe. The port's turns readable when the tray sends a byte
(or the device goes away: the read that follows raises, which the driver takes as an unplug);
the pipe's when another thread calls :meth:`Waiter.wake` (``close``, ``arm``, ``disarm``).
Otherwise the thread sleeps until the timeout the link asked for. ``poll`` rather than
``select``: no limit on the descriptor's number.

Why not pyserial's own ``read(timeout)`` with ``cancel_read``: changing a pyserial port's
``timeout`` reconfigures the port (``tcsetattr``, and ``flock`` for an exclusive one) every
time, and ``cancel_read`` exists only on some port classes; the self-pipe works for any
descriptor and outlives a port, so ``close()`` can wake a thread between ports too.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import threading


class Waiter:
    """A ``poll`` on one port's descriptor plus a self-pipe for waking it from another thread.

    :meth:`wake` may be called from any thread, any number of times, before or after
    :meth:`close` (a wake after close does nothing). :meth:`wait` and :meth:`close` belong to
    the one thread that waits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self._r: int | None = r
        self._w: int | None = w
        self.wakeups = 0
        """Times :meth:`wait` returned because of :meth:`wake` (for tests and benches)."""

    def wake(self) -> None:
        """Make the current (or the next) :meth:`wait` return at once."""
        with self._lock:  # never write to a descriptor number that close() gave back
            if self._w is None:
                return
            with contextlib.suppress(BlockingIOError):  # the pipe is full: a wake is pending
                os.write(self._w, b"\0")

    def wait(self, fd: int | None, timeout: float | None) -> bool:
        """Sleep until ``fd`` is readable, :meth:`wake` is called, or ``timeout`` seconds
        pass (``None``: no timeout). ``fd=None`` waits for a wake or the timeout only.
        Returns True if ``fd`` is readable (or reports an error or a hang-up: the read that
        follows tells which)."""
        r = self._r
        if r is None:
            return False
        poller = select.poll()
        poller.register(r, select.POLLIN)
        if fd is not None:
            poller.register(fd, select.POLLIN | select.POLLPRI)
        # poll takes whole milliseconds: round up, or a wait ending a fraction of a millisecond
        # short of a deadline would wake to find nothing due and spin until it is.
        ms = None if timeout is None else max(0, math.ceil(timeout * 1000))
        ready = poller.poll(ms)
        readable = False
        for got, _events in ready:
            if got == r:
                self._drain(r)
            elif got == fd:
                readable = True  # POLLIN, POLLERR, POLLHUP, POLLNVAL: the read will say
        return readable

    def _drain(self, r: int) -> None:
        self.wakeups += 1
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(r, 4096):
                pass

    def close(self) -> None:
        """Give the pipe back (the waiting thread, once it is done waiting)."""
        with self._lock:
            r, w = self._r, self._w
            self._r = self._w = None
        for end in (w, r):
            if end is not None:
                with contextlib.suppress(OSError):
                    os.close(end)
