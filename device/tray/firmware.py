"""The tray's side of the protocol, as a reference a firmware author can port line by line.

:class:`TrayFirmware` is what runs on the tray's microcontroller, minus the camera: it is
fed host bytes and the time, and is told what the dice did (:meth:`settle`, :meth:`crooked`);
it answers with lines to send. The simulator (:mod:`device.tray.sim`) runs it on a pty.
docs/dice-tray-protocol.md has the same logic as pseudo-code.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from device.tray.errors import TrayProtocolError, TrayUsageError
from device.tray.framing import SEQ_MODULUS, LineAssembler, parse_frame
from device.tray.messages import (
    DICE,
    ID_MAX,
    PROTOCOL_VERSION,
    Ack,
    Arm,
    Armed,
    Boot,
    Disarm,
    Heartbeat,
    Hello,
    Iam,
    RollReport,
    RollState,
    TrayErr,
    TrayMessage,
    check_faces,
    decode_host,
    encode_tray,
)

MAX_UNACKED = 8
"""Final reports kept for resending; the oldest is dropped beyond this (host long gone)."""


@dataclass
class _Unacked:
    report: RollReport
    next_send: float


class TrayFirmware:
    """A dice tray's protocol logic. Not thread-safe; the simulator holds a lock around it.

    Args:
        dice: die kinds this tray can read.
        fw: firmware version string sent in IAM.
        name: the tray's name sent in IAM (letters, digits, ``._,:+-``).
        heartbeat: seconds between HB frames.
        resend: seconds between resends of an unacknowledged final roll report.
        rng: source of boot ids (a real tray uses a hardware RNG or ADC noise).
    """

    def __init__(
        self, *, dice: tuple[str, ...] = ("d6", "d10", "d100"), fw: str = "1.0.0",
        name: str = "simtray", heartbeat: float = 1.0, resend: float = 0.5,
        rng: random.Random | None = None,
    ) -> None:
        for die in dice:
            if die not in DICE:
                raise TrayUsageError(f"unknown die {die!r} (known: {', '.join(DICE)})")
        if heartbeat <= 0 or resend <= 0:
            raise TrayUsageError("heartbeat and resend must be positive seconds")
        self.dice = tuple(dice)
        self.fw = fw
        self.name = name
        try:
            encode_tray(0, Iam(PROTOCOL_VERSION, fw, self.dice, "00000000", name))
        except TrayProtocolError as exc:
            raise TrayUsageError(f"firmware version or name unusable: {exc}") from None
        self.heartbeat = heartbeat
        self.resend = resend
        self._rng = rng or random.Random()
        self.boot = ""
        self.armed: tuple[int, str] | None = None
        self.bad_host_lines = 0
        self.host_messages: list[object] = []
        self._assembler = LineAssembler()
        self._out: list[bytes] = []
        self._seq = 0
        self._roll_id = 0
        self._rolling: RollReport | None = None
        self._unacked: list[_Unacked] = []
        self._hb_next = 0.0

    # --- power and time ---------------------------------------------------------------------

    def power_on(self, now: float) -> None:
        """Start (or restart) from scratch: new boot id, sequence 0, nothing armed or owed."""
        self.boot = f"{self._rng.getrandbits(32):08X}"
        self.armed = None
        self._assembler.reset()
        self._out.clear()
        self._seq = 0
        self._roll_id = 0
        self._rolling = None
        self._unacked.clear()
        self._send(Boot(self.boot))
        self._hb_next = now + self.heartbeat

    def tick(self, now: float) -> None:
        """Heartbeat, and resend every final report the host has not ACKed."""
        if now >= self._hb_next:
            state = "rolling" if self._rolling else "armed" if self.armed else "idle"
            self._send(Heartbeat(self.boot, state))
            self._hb_next = now + self.heartbeat
        for item in self._unacked:
            if now >= item.next_send:
                self._send(item.report)
                item.next_send = now + self.resend

    def chatter(self, count: int) -> None:
        """Send ``count`` heartbeats at once, off schedule: a firmware stuck in a loop (the
        simulator's ``flood``). Valid frames, so the host does its full work on each."""
        state = "rolling" if self._rolling else "armed" if self.armed else "idle"
        for _ in range(count):
            self._send(Heartbeat(self.boot, state))

    def take_output(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    @property
    def unacked(self) -> list[int]:
        """Roll ids still waiting for the host's ACK."""
        return [item.report.roll_id for item in self._unacked]

    # --- what the host says -----------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> None:
        for line in self._assembler.feed(data):
            if line in (b"", b"\r"):
                continue
            try:
                msg = decode_host(parse_frame(line))
            except TrayProtocolError:
                self.bad_host_lines += 1  # no answer: a noisy line must not start a chatter
                continue
            self.host_messages.append(msg)
            self._handle(msg)

    def _handle(self, msg: object) -> None:
        if isinstance(msg, Hello):
            if msg.proto != PROTOCOL_VERSION:
                self._send(TrayErr("proto_unsupported", self.boot))
            self._send(Iam(PROTOCOL_VERSION, self.fw, self.dice, self.boot, self.name))
        elif isinstance(msg, Arm):
            if msg.die not in self.dice:
                self._send(TrayErr("die_unsupported", self.boot))
                return
            self.armed = (msg.arm, msg.die)
            self._send(Armed(msg.arm, msg.die, self.boot))
        elif isinstance(msg, Disarm):
            if self.armed is not None and msg.arm in (0, self.armed[0]):
                self.armed = None
        elif isinstance(msg, Ack) and msg.boot == self.boot:
            self._unacked = [u for u in self._unacked if u.report.roll_id != msg.roll_id]

    # --- what the dice do -------------------------------------------------------------------

    def start_roll(self, die: str, now: float) -> int:
        """Dice are moving in the tray; returns the roll id the result will carry."""
        self._check_die(die)
        self._rolling = RollReport(self._next_id(), RollState.ROLLING, die, self.boot)
        self._send(self._rolling)
        return self._rolling.roll_id

    def settle(self, die: str, faces: tuple[int, ...], now: float) -> int:
        """The dice came to rest showing ``faces``; report (and keep resending) the result."""
        self._check_die(die)
        try:
            check_faces(die, faces)
        except TrayProtocolError as exc:
            raise TrayUsageError(str(exc)) from None
        arm = 0
        if self.armed is not None and self.armed[1] == die:
            arm, self.armed = self.armed[0], None
        return self._final(die, RollState.SETTLED, faces, arm, now)

    def crooked(self, die: str, now: float) -> int:
        """The dice came to rest unreadable (cocked, stacked, off the tray). Arm stays."""
        self._check_die(die)
        return self._final(die, RollState.CROOKED, (), 0, now)

    def _final(self, die: str, state: RollState, faces: tuple[int, ...], arm: int,
               now: float) -> int:
        rolling, self._rolling = self._rolling, None
        roll_id = rolling.roll_id if rolling and rolling.die == die else self._next_id()
        report = RollReport(roll_id, state, die, self.boot, faces, arm)
        self._send(report)
        self._unacked.append(_Unacked(report, now + self.resend))
        del self._unacked[:-MAX_UNACKED]
        return roll_id

    # --- internals --------------------------------------------------------------------------

    def _check_die(self, die: str) -> None:
        if die not in self.dice:
            raise TrayUsageError(f"this tray reads {', '.join(self.dice)}, not {die!r}")

    def _next_id(self) -> int:
        self._roll_id = self._roll_id % ID_MAX + 1
        return self._roll_id

    def _send(self, msg: TrayMessage) -> None:
        self._out.append(encode_tray(self._seq, msg))
        self._seq = (self._seq + 1) % SEQ_MODULUS
