"""The host side of the tray protocol as a state machine without I/O ("sans-IO").

:class:`TrayLink` is fed bytes and the time, and answers with lines to send and events
(status changes, roll results). It owns the protocol's promises: handshake with retries,
ARM resent until ARMED, every final roll ACKed, each roll delivered once, unarmed rolls
flagged, a tray reset detected. :class:`device.tray.driver.TrayDriver` wraps it in a thread
and a serial port; tests drive it directly with a fake clock.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass

from device.tray.errors import TrayProtocolError, TrayUsageError
from device.tray.flood import FloodGuard
from device.tray.framing import SEQ_MODULUS, parse_frame
from device.tray.messages import (
    ID_MAX,
    PERCENTILE_MODES,
    PROTOCOL_VERSION,
    Ack,
    Arm,
    Armed,
    Boot,
    Disarm,
    Hello,
    HostHeartbeat,
    HostMessage,
    Iam,
    RollReport,
    RollState,
    TrayErr,
    check_die,
    decode_tray,
    die_value,
    encode_host,
)
from device.tray.timings import TrayTimings as TrayTimings  # re-exported: its old home


class StatusKind(enum.Enum):
    """What a :class:`TrayStatus` reports."""

    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    RESET = "reset"
    GARBAGE = "garbage"
    FLOODING = "flooding"
    FLOOD_OVER = "flood_over"
    HANDSHAKE_FAILED = "handshake_failed"
    INCOMPATIBLE = "incompatible"
    ARMED = "armed"
    ROLLING = "rolling"
    CROOKED = "crooked"
    TRAY_ERROR = "tray_error"


@dataclass(frozen=True)
class TrayStatus:
    """A change on the link, with the running counters (``garbage``: rejected lines;
    ``gaps``: breaks in the tray's sequence numbers, i.e. lines lost on the way;
    ``dropped_lines``/``dropped_bytes``: discarded unread because the tray flooded)."""

    kind: StatusKind
    detail: str
    info: Iam | None
    garbage: int
    gaps: int
    dropped_lines: int = 0
    dropped_bytes: int = 0


@dataclass(frozen=True)
class TrayResult:
    """A settled physical roll. ``expected`` is True only for the roll the table armed."""

    die: str
    value: int
    faces: tuple[int, ...]
    roll_id: int
    boot: str
    arm_id: int | None
    expected: bool


LinkEvent = TrayStatus | TrayResult


class LinkState(enum.Enum):
    CLOSED = "closed"
    HANDSHAKING = "handshaking"
    READY = "ready"
    FAILED = "failed"


@dataclass
class _Arm:
    arm_id: int
    die: str
    confirmed: bool = False
    next_send: float = 0.0


class TrayLink:
    """Host protocol state. Not thread-safe: the driver serialises calls with a lock."""

    def __init__(self, *, timings: TrayTimings | None = None, percentile: str = "1-100") -> None:
        if percentile not in PERCENTILE_MODES:
            raise TrayUsageError(
                f"percentile must be one of {PERCENTILE_MODES}, got {percentile!r}")
        self.timings = timings or TrayTimings()
        self.percentile = percentile
        self.state = LinkState.CLOSED
        self.fail_reason = ""
        self.info: Iam | None = None
        self.garbage = 0
        self.gaps = 0
        t = self.timings
        self._guard = FloodGuard(t.flood_lines_per_s, t.flood_bytes_per_s, t.flood_window)
        self._flood_told = False
        self._drops_seen = 0
        self._out: list[bytes] = []
        self._events: list[LinkEvent] = []
        self._tx_seq = 0
        self._rx_seq: int | None = None
        self._boot: str | None = None
        self._arm: _Arm | None = None
        self._next_arm_id = 1
        self._seen: deque[tuple[str, int]] = deque(maxlen=256)
        self._last_rolling: tuple[str, int] | None = None
        self._hellos = 0
        self._hello_next = 0.0
        self._hb_next = 0.0
        self._last_rx = 0.0
        self._reported = (0, 0, 0)
        self._report_next = 0.0

    # --- the driver's side ------------------------------------------------------------------

    def connect(self, now: float) -> None:
        """A port was opened: forget the old connection's bytes and start the handshake."""
        self._guard.reset()
        self._tx_seq = 0
        self._rx_seq = None
        self._last_rolling = None
        self._start_handshake(now)

    def disconnect(self, reason: str) -> None:
        """The port is gone. A partial line is dropped, never completed by the next port."""
        was_ready = self.state is LinkState.READY
        self.state = LinkState.CLOSED
        self._guard.reset()
        if self._arm is not None:
            self._arm.confirmed = False
        if was_ready:
            self._status(StatusKind.DISCONNECTED, reason)

    def feed(self, data: bytes, now: float) -> None:
        """Bytes from the port (any split): complete lines are handled, partial ones kept;
        over the read budget, bytes are dropped unread and counted (see :attr:`flooding`)."""
        for line in self._guard.feed(data, now):
            self._line(line, now)
        self._flood_news(now)

    def tick(self, now: float) -> None:
        """Let time pass: resend HELLO/ARM, heartbeat, notice a silent tray."""
        t = self.timings
        if self.state is LinkState.HANDSHAKING and now >= self._hello_next:
            if self._hellos >= t.hello_attempts:
                self._fail(StatusKind.HANDSHAKE_FAILED, f"no IAM after {self._hellos} HELLOs")
            else:
                self._send(Hello())
                self._hellos += 1
                self._hello_next = now + t.hello_interval
        elif self.state is LinkState.READY:
            if now >= self._silent_at():
                self._fail(StatusKind.DISCONNECTED,
                           f"tray silent for {now - self._last_rx:.1f} s")
                return
            if now >= self._hb_next:
                self._send(HostHeartbeat())
                self._hb_next = now + t.host_heartbeat
            arm = self._arm
            if arm is not None and not arm.confirmed and now >= arm.next_send:
                self._send(Arm(arm.arm_id, arm.die))
                arm.next_send = now + t.arm_resend
        self._guard.tick(now)
        self._flood_news(now)
        self._report_garbage(now)

    def next_due(self, now: float) -> float:
        """The earliest time :meth:`tick` has something to do (``math.inf``: none): until
        then, with nothing fed or armed, ticking changes nothing the driver sees, so it may
        sleep. The timers: next HELLO (or giving up), host heartbeat, silence limit, an
        unconfirmed arm's resend, a pending report, the end of a drop or flood episode. Each
        is the very expression :meth:`tick` compares with, so ticking at it acts and moves
        it on (no spin). Earlier than ``now`` if :meth:`tick` has not run since it passed."""
        due = [self._guard.next_due()]
        if self.state is LinkState.HANDSHAKING:
            due.append(self._hello_next)
        elif self.state is LinkState.READY:
            due += [self._silent_at(), self._hb_next]
            arm = self._arm
            if arm is not None and not arm.confirmed:
                due.append(arm.next_send)
        if (self.garbage, self.gaps, self._guard.dropped_lines) != self._reported:
            due.append(self._report_next)
        return min(due)

    def take_output(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    def take_events(self) -> list[LinkEvent]:
        events, self._events = self._events, []
        return events

    @property
    def flood(self) -> FloodGuard:
        """The read budget's state (read only): ``flooding`` (a roll made now may be lost;
        the table should roll again if it does not show), ``dropped_lines``/``_bytes``."""
        return self._guard

    # --- the table's side -----------------------------------------------------------------

    @property
    def armed(self) -> tuple[int, str] | None:
        """The arm outstanding, as ``(arm_id, die)``, or None."""
        return None if self._arm is None else (self._arm.arm_id, self._arm.die)

    def arm(self, die: str, now: float) -> int:
        """Expect one physical roll of ``die``; returns its arm id. Replaces an older arm."""
        try:
            check_die(die)
        except TrayProtocolError as exc:
            raise TrayUsageError(str(exc)) from None
        if self.info is not None and die not in self.info.dice:
            raise TrayUsageError(
                f"this tray reads {', '.join(self.info.dice)}, not {die}")
        arm_id = self._next_arm_id
        self._next_arm_id = arm_id % ID_MAX + 1
        self._arm = _Arm(arm_id, die, next_send=now)
        if self.state is LinkState.READY:
            self.tick(now)
        return arm_id

    def disarm(self, arm_id: int | None = None) -> None:
        """Withdraw the arm (only if it is ``arm_id``, when given)."""
        arm = self._arm
        if arm is None or (arm_id is not None and arm_id != arm.arm_id):
            return
        self._arm = None
        if self.state is LinkState.READY:
            self._send(Disarm(arm.arm_id))

    # --- internals -------------------------------------------------------------------------

    def _start_handshake(self, now: float) -> None:
        self.state = LinkState.HANDSHAKING
        self.fail_reason = ""
        self._hellos = 0
        self._hello_next = now
        self._last_rx = now
        self.tick(now)

    def _silent_at(self) -> float:  # the tray is gone if nothing valid arrives before
        return self._last_rx + self.timings.silence_timeout

    def _fail(self, kind: StatusKind, reason: str) -> None:
        """Give the connection up; the driver closes the port and reopens with backoff."""
        self.state = LinkState.FAILED
        self.fail_reason = reason
        self._guard.reset()
        if self._arm is not None:
            self._arm.confirmed = False
        self._status(kind, reason)

    def _send(self, msg: HostMessage) -> None:
        self._out.append(encode_host(self._tx_seq, msg))
        self._tx_seq = (self._tx_seq + 1) % SEQ_MODULUS

    def _status(self, kind: StatusKind, detail: str) -> None:
        g = self._guard
        self._events.append(TrayStatus(kind, detail, self.info, self.garbage, self.gaps,
                                       g.dropped_lines, g.dropped_bytes))

    def _report_garbage(self, now: float) -> None:
        counts = (self.garbage, self.gaps, self._guard.dropped_lines)
        if counts != self._reported and now >= self._report_next:
            self._reported = counts
            self._report_next = now + self.timings.garbage_report_interval
            self._status(StatusKind.GARBAGE,
                         f"{self.garbage} bad line(s) dropped, {self.gaps} sequence gap(s),"
                         f" {self._guard.dropped_lines} line(s) dropped unread (flood)")

    def _flood_news(self, now: float) -> None:
        """Say once when a flood starts (and re-arm: an armed roll may have been dropped) and
        once when it is over."""
        g = self._guard
        if g.drops != self._drops_seen:
            self._drops_seen = g.drops
            arm = self._arm
            if arm is not None:  # the tray may have used the arm on a roll we dropped: re-arm
                arm.confirmed = False
                arm.next_send = now
        if g.flooding and not self._flood_told:
            self._flood_told = True
            self._status(StatusKind.FLOODING,
                         f"the dice tray is flooding; {g.episode_lines} line(s) dropped"
                         f" (reading at most {g.lines_per_s:g} lines/s): a roll made now may"
                         " be lost - if it does not show, roll again")
        elif self._flood_told and not g.flooding:
            self._flood_told = False
            self._status(StatusKind.FLOOD_OVER,
                         f"the dice tray stopped flooding; {g.episode_lines} line(s) dropped"
                         f" ({g.dropped_lines} in all)")

    def _line(self, line: bytes, now: float) -> None:
        if self.state not in (LinkState.HANDSHAKING, LinkState.READY):
            return
        if line in (b"", b"\r"):
            return
        try:
            frame = parse_frame(line)
            msg = decode_tray(frame)
        except TrayProtocolError:
            self.garbage += 1
            self._report_garbage(now)
            return
        self._last_rx = now
        if self._rx_seq is not None and frame.seq != self._rx_seq:
            self.gaps += 1
            self._report_garbage(now)
        self._rx_seq = (frame.seq + 1) % SEQ_MODULUS
        if self.state is LinkState.HANDSHAKING:
            if isinstance(msg, Iam):
                self._iam(msg, now)
            return
        if isinstance(msg, Boot) or msg.boot != self._boot:
            self._status(StatusKind.RESET,
                         f"tray restarted mid-game (boot {self._boot} -> {msg.boot});"
                         " shaking hands again")
            self._seen.clear()
            self._start_handshake(now)
        elif isinstance(msg, Armed):
            arm = self._arm
            if arm is not None and msg.arm == arm.arm_id and not arm.confirmed:
                arm.confirmed = True
                self._status(StatusKind.ARMED, f"tray armed for {arm.die} (arm {arm.arm_id})")
        elif isinstance(msg, RollReport):
            self._roll(msg)
        elif isinstance(msg, TrayErr):
            self._status(StatusKind.TRAY_ERROR, f"tray reports error {msg.code}")

    def _iam(self, msg: Iam, now: float) -> None:
        if msg.proto != PROTOCOL_VERSION:
            self.info = msg
            self._fail(StatusKind.INCOMPATIBLE,
                       f"tray speaks protocol {msg.proto}, this box speaks {PROTOCOL_VERSION}")
            return
        restarted = self._boot is not None and msg.boot != self._boot
        self._boot = msg.boot
        self.info = msg
        self.state = LinkState.READY
        self._hb_next = now
        detail = f"{msg.name or 'dice tray'} firmware {msg.fw}, reads {','.join(msg.dice)}"
        if restarted:
            detail += " (restarted since last seen)"
        self._status(StatusKind.CONNECTED, detail)
        arm = self._arm
        if arm is not None:
            arm.confirmed = False
            arm.next_send = now
            if arm.die not in msg.dice:
                self._status(StatusKind.TRAY_ERROR, f"this tray cannot read {arm.die}")
        self.tick(now)

    def _roll(self, msg: RollReport) -> None:
        key = (msg.boot, msg.roll_id)
        if msg.state is RollState.ROLLING:
            if key not in self._seen and key != self._last_rolling:
                self._last_rolling = key
                self._status(StatusKind.ROLLING, f"{msg.die} rolling (roll {msg.roll_id})")
            return
        self._send(Ack(msg.roll_id, msg.boot))  # every copy: our last ACK may have been lost
        if key in self._seen:
            return
        self._seen.append(key)
        if msg.state is RollState.CROOKED:
            self._status(StatusKind.CROOKED,
                         f"{msg.die} crooked or unreadable (roll {msg.roll_id}): roll again")
            return
        arm = self._arm
        expected = (arm is not None and msg.arm == arm.arm_id and msg.die == arm.die)
        if expected:
            self._arm = None
        self._events.append(TrayResult(
            die=msg.die, value=die_value(msg.die, msg.faces, self.percentile), faces=msg.faces,
            roll_id=msg.roll_id, boot=msg.boot, arm_id=msg.arm or None, expected=expected))
