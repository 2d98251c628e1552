"""A budget on what the host reads from the tray: a flood costs a bounded amount of CPU.

:class:`FloodGuard` sits in front of the :class:`~device.tray.framing.LineAssembler`. Two
token buckets, one for lines and one for bytes, each holding ``window`` seconds' worth of
its rate, pay for every line (and every byte) handed on to be parsed. When either runs dry
the guard *drops*: for the rest of the window (until the buckets are full again) every byte
is discarded in bulk, unparsed, and only counted (``bytes.count(b"\\n")`` runs in C). The
driver, seeing :attr:`FloodGuard.dropping`, also stops reading for a moment at a time, so the
kernel's buffer fills and the flood backs up into the tray (a USB tray then drops its own
output, as the protocol asks).

No frame is ever made of bytes from both sides of a drop: the partial line held when dropping
starts is discarded, and after dropping ends, the bytes up to the next ``\\n`` are discarded
too (the line that was cut). Every ``\\n`` read is either the end of a line handed on, or
counted in :attr:`FloodGuard.dropped_lines`.

Pure: it is told the time; it raises nothing.
"""

from __future__ import annotations

import math

from device.tray.framing import LineAssembler


class FloodGuard:
    """Budgeted line assembly. See the module docstring.

    Args:
        lines_per_s: lines handed on per second, on average.
        bytes_per_s: bytes handed on per second, on average.
        window: seconds; each bucket holds ``window`` seconds' worth of its rate (the burst
            allowed), and dropping, once started, lasts ``window`` seconds. A flood episode
            ends after a whole ``window`` of reading with no drop.
    """

    def __init__(self, lines_per_s: float, bytes_per_s: float, window: float) -> None:
        self.lines_per_s = lines_per_s
        self.bytes_per_s = bytes_per_s
        self.window = window
        self.dropped_lines = 0
        """Lines discarded unparsed (each ``\\n`` dropped; a line cut by a drop counts once)."""
        self.dropped_bytes = 0
        """Bytes discarded unparsed (including the cut line's bytes already held)."""
        self.episodes = 0
        """Flood episodes begun (dropping started while not already flooding)."""
        self.episode_lines = 0
        """Lines dropped in the current (or last) episode."""
        self.drops = 0
        """Times dropping started (each lasts ``window`` seconds)."""
        self._assembler = LineAssembler()
        self._line_tokens = lines_per_s * window
        self._byte_tokens = bytes_per_s * window
        self._last: float | None = None
        self._pending = 0  # bytes of the partial line held by the assembler
        self._dropping = False
        self._resume_at = 0.0
        self._mid_line = False  # the last byte dropped was not a "\n"
        self._resync = False  # discard up to the next "\n" before handing on again
        self._flooding = False
        self._calm_since = 0.0

    @property
    def dropping(self) -> bool:
        """True while every byte read is discarded (the budget ran out in this window)."""
        return self._dropping

    @property
    def flooding(self) -> bool:
        """True from the first drop until a whole window passes without one: lines may have
        been lost, a roll among them (it is resent until ACKed, but the table is told)."""
        return self._flooding

    @property
    def pending(self) -> bytes:
        """The partial line held (never parsed until complete)."""
        return self._assembler.pending

    def reset(self) -> None:
        """A new connection: forget the partial line and any resync. The counters, the
        buckets and a drop under way stay: they follow the clock, not the port (a tray that
        floods, is dropped for silence and reopened is still flooding)."""
        self._assembler.reset()
        self._pending = 0
        self._mid_line = self._resync = False

    def feed(self, data: bytes, now: float) -> list[bytes]:
        """Add bytes read at ``now``; return the complete lines (without ``\\n``) within the
        budget. The rest is dropped and counted."""
        self.tick(now)
        lines: list[bytes] = []
        pos, size = 0, len(data)
        while pos < size:
            if self._dropping:
                self._drop(data, pos, size)
                break
            end = data.find(b"\n", pos)
            stop = size if end < 0 else end + 1
            if self._resync:  # the rest of a line that a drop cut: never glued, never parsed
                self._drop(data, pos, stop)
                self._resync = end < 0
                pos = stop
                continue
            if self._byte_tokens < stop - pos or (end >= 0 and self._line_tokens < 1):
                self._start_dropping(now)
                continue
            self._byte_tokens -= stop - pos
            if end >= 0:
                self._line_tokens -= 1
                self._pending = 0
            else:
                self._pending += stop - pos
            lines += self._assembler.feed(data[pos:stop])
            pos = stop
        return lines

    def tick(self, now: float) -> None:
        """Let time pass: refill the buckets, end dropping after its window, end an episode
        after a calm window."""
        if self._last is not None and now > self._last:
            elapsed = now - self._last
            self._line_tokens = min(self.lines_per_s * self.window,
                                    self._line_tokens + elapsed * self.lines_per_s)
            self._byte_tokens = min(self.bytes_per_s * self.window,
                                    self._byte_tokens + elapsed * self.bytes_per_s)
        if self._last is None or now > self._last:
            self._last = now
        if self._dropping and now >= self._resume_at:
            self._dropping = False
            self._resync = self._mid_line
            self._calm_since = now
        if self._flooding and not self._dropping and now >= self._calm_since + self.window:
            self._flooding = False

    def next_due(self) -> float:
        """When :meth:`tick` next changes :attr:`dropping` or :attr:`flooding` by itself
        (``math.inf``: never, until bytes are fed). Refilling the buckets needs no timer."""
        if self._dropping:
            return self._resume_at
        if self._flooding:
            return self._calm_since + self.window
        return math.inf

    def _start_dropping(self, now: float) -> None:
        self._dropping = True
        self.drops += 1
        self._resume_at = now + self.window
        if not self._flooding:
            self._flooding = True
            self.episodes += 1
            self.episode_lines = 0
        self._mid_line = self._pending > 0
        if self._pending:  # the partial line held is cut: its bytes are dropped too
            self.dropped_bytes += self._pending
            self._pending = 0
        self._assembler.reset()

    def _drop(self, data: bytes, start: int, stop: int) -> None:
        if stop <= start:
            return
        lines = data.count(b"\n", start, stop)
        self.dropped_lines += lines
        self.episode_lines += lines
        self.dropped_bytes += stop - start
        self._mid_line = data[stop - 1] != 0x0A
