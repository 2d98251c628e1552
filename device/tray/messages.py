"""What the frames mean: typed messages both ways, dice kinds and face values.

Decoding is strict about the fields a message needs and tolerant of extra ones (a newer
firmware of the same protocol major version may add fields). Only
:class:`TrayProtocolError` escapes.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from device.tray.errors import TrayProtocolError
from device.tray.framing import Frame, encode_frame

PROTOCOL_VERSION = 1

DICE: dict[str, tuple[int, int, int]] = {
    "d6": (1, 1, 6),  # one face, 1..6
    "d10": (1, 0, 9),  # one face, 0..9 (0 reads 10)
    "d100": (2, 0, 9),  # tens d10 then units d10, each 0..9
}
"""Die kinds the protocol knows: kind -> (faces reported, lowest face, highest face)."""

PERCENTILE_MODES = ("1-100", "0-99")
_BOOT = re.compile(r"[0-9A-F]{8}")
_WORD = re.compile(r"[a-z][a-z0-9_]{0,23}")
_NUMBER = re.compile(r"[0-9]{1,5}")
ID_MAX = 65535


class RollState(enum.Enum):
    """Where a physical roll stands on the tray."""

    ROLLING = "rolling"
    SETTLED = "settled"
    CROOKED = "crooked"

    @property
    def final(self) -> bool:
        """Settled and crooked reports are resent until the host acknowledges them."""
        return self is not RollState.ROLLING


def check_die(die: str) -> str:
    if die not in DICE:
        raise TrayProtocolError(f"unknown die {die!r} (known: {', '.join(DICE)})")
    return die


def check_faces(die: str, faces: tuple[int, ...]) -> tuple[int, ...]:
    count, low, high = DICE[check_die(die)]
    if len(faces) != count or any(not low <= f <= high for f in faces):
        raise TrayProtocolError(
            f"{die} needs {count} face(s) in {low}..{high}, got {','.join(map(str, faces))}")
    return faces


def die_value(die: str, faces: tuple[int, ...], percentile: str = "1-100") -> int:
    """The value a die's faces read: d100 is tens*10+units, and ``00``+``0`` is 100 in
    ``1-100`` mode (GG-7) or 0 in ``0-99`` mode; a d10's 0 reads 10."""
    if percentile not in PERCENTILE_MODES:
        raise TrayProtocolError(f"percentile mode must be one of {PERCENTILE_MODES}")
    check_faces(die, faces)
    if die == "d100":
        value = faces[0] * 10 + faces[1]
        return 100 if value == 0 and percentile == "1-100" else value
    if die == "d10":
        return faces[0] or 10
    return faces[0]


# --- field helpers -----------------------------------------------------------------------

def _need(frame: Frame, key: str) -> str:
    value = frame.get(key)
    if value is None:
        raise TrayProtocolError(f"{frame.type} frame N{frame.seq} lacks field {key!r}")
    return value


def _int(frame: Frame, key: str, low: int, high: int = ID_MAX) -> int:
    text = _need(frame, key)
    if not _NUMBER.fullmatch(text) or not low <= int(text) <= high:
        raise TrayProtocolError(f"{frame.type} {key}={text!r} is not a number in {low}..{high}")
    return int(text)


def _boot(frame: Frame) -> str:
    text = _need(frame, "boot")
    if not _BOOT.fullmatch(text):
        raise TrayProtocolError(f"{frame.type} boot={text!r} is not 8 capital hex digits")
    return text


def _word(frame: Frame, key: str) -> str:
    text = _need(frame, key)
    if not _WORD.fullmatch(text):
        raise TrayProtocolError(f"{frame.type} {key}={text!r} is not a lower-case word")
    return text


def _faces(frame: Frame, die: str) -> tuple[int, ...]:
    text = _need(frame, "faces")
    parts = text.split(",")
    if not all(_NUMBER.fullmatch(p) and len(p) <= 2 for p in parts):
        raise TrayProtocolError(f"ROLL faces={text!r} is not a list of digits")
    return check_faces(die, tuple(int(p) for p in parts))


# --- tray -> host --------------------------------------------------------------------------

@dataclass(frozen=True)
class Boot:
    """Sent once when the tray powers up or resets."""

    boot: str


@dataclass(frozen=True)
class Iam:
    """The answer to HELLO: protocol major version, firmware version, dice it reads."""

    proto: int
    fw: str
    dice: tuple[str, ...]
    boot: str
    name: str | None = None


@dataclass(frozen=True)
class Heartbeat:
    """Sent every second; ``state`` is ``idle``, ``armed`` or ``rolling``."""

    boot: str
    state: str = "idle"


@dataclass(frozen=True)
class Armed:
    """The tray confirms an ARM: its next settled roll of ``die`` answers arm ``arm``."""

    arm: int
    die: str
    boot: str


@dataclass(frozen=True)
class RollReport:
    """A roll on the tray; final states are resent until ACKed. ``arm`` 0 means unasked."""

    roll_id: int
    state: RollState
    die: str
    boot: str
    faces: tuple[int, ...] = ()
    arm: int = 0


@dataclass(frozen=True)
class TrayErr:
    """The tray refused something the host sent (``code`` is a lower-case word)."""

    code: str
    boot: str


TrayMessage = Boot | Iam | Heartbeat | Armed | RollReport | TrayErr


def decode_tray(frame: Frame) -> TrayMessage:
    """The message a tray frame carries; raises TrayProtocolError if it is not one."""
    kind = frame.type
    if kind == "BOOT":
        return Boot(_boot(frame))
    if kind == "IAM":
        dice = tuple(_need(frame, "dice").split(","))
        for die in dice:
            check_die(die)
        return Iam(_int(frame, "proto", 1, 999), _need(frame, "fw"), dice, _boot(frame),
                   frame.get("name"))
    if kind == "HB":
        return Heartbeat(_boot(frame), frame.get("st") or "idle")
    if kind == "ARMED":
        return Armed(_int(frame, "arm", 1), check_die(_need(frame, "die")), _boot(frame))
    if kind == "ROLL":
        try:
            state = RollState(_need(frame, "st"))
        except ValueError:
            raise TrayProtocolError(f"ROLL st={frame.get('st')!r} is not a roll state") from None
        die = check_die(_need(frame, "die"))
        faces = _faces(frame, die) if state is RollState.SETTLED else ()
        arm = _int(frame, "arm", 0) if frame.get("arm") is not None else 0
        return RollReport(_int(frame, "id", 1), state, die, _boot(frame), faces, arm)
    if kind == "ERR":
        return TrayErr(_word(frame, "code"), _boot(frame))
    raise TrayProtocolError(f"unknown tray frame type {kind!r}")


def encode_tray(seq: int, msg: TrayMessage) -> bytes:
    """One tray line for ``msg`` (used by the simulator and by tests)."""
    fields: list[tuple[str, str | int]]
    if isinstance(msg, Boot):
        return encode_frame(seq, "BOOT", [("boot", msg.boot)])
    if isinstance(msg, Iam):
        fields = [("proto", msg.proto), ("fw", msg.fw), ("dice", ",".join(msg.dice)),
                  ("boot", msg.boot)]
        if msg.name:
            fields.append(("name", msg.name))
        return encode_frame(seq, "IAM", fields)
    if isinstance(msg, Heartbeat):
        return encode_frame(seq, "HB", [("st", msg.state), ("boot", msg.boot)])
    if isinstance(msg, Armed):
        return encode_frame(seq, "ARMED", [("arm", msg.arm), ("die", msg.die), ("boot", msg.boot)])
    if isinstance(msg, RollReport):
        fields = [("id", msg.roll_id), ("st", msg.state.value), ("die", msg.die)]
        if msg.faces:
            fields.append(("faces", ",".join(map(str, msg.faces))))
        fields += [("arm", msg.arm), ("boot", msg.boot)]
        return encode_frame(seq, "ROLL", fields)
    return encode_frame(seq, "ERR", [("code", msg.code), ("boot", msg.boot)])


# --- host -> tray --------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """The host opens a conversation; the tray answers IAM."""

    proto: int = PROTOCOL_VERSION


@dataclass(frozen=True)
class Arm:
    """The table is about to roll ``die``; the next settled roll of it answers ``arm``."""

    arm: int
    die: str


@dataclass(frozen=True)
class Disarm:
    """Withdraw arm ``arm`` (0: whatever is armed)."""

    arm: int = 0


@dataclass(frozen=True)
class Ack:
    """The host has the final report of roll ``roll_id`` of boot ``boot``: stop resending."""

    roll_id: int
    boot: str


@dataclass(frozen=True)
class HostHeartbeat:
    """The host is alive (a tray may light an LED with it; it need not answer)."""


HostMessage = Hello | Arm | Disarm | Ack | HostHeartbeat


def decode_host(frame: Frame) -> HostMessage:
    """The message a host frame carries (the tray side: the simulator and firmware)."""
    kind = frame.type
    if kind == "HELLO":
        return Hello(_int(frame, "proto", 1, 999))
    if kind == "ARM":
        return Arm(_int(frame, "arm", 1), check_die(_need(frame, "die")))
    if kind == "DISARM":
        return Disarm(_int(frame, "arm", 0))
    if kind == "ACK":
        return Ack(_int(frame, "id", 1), _boot(frame))
    if kind == "HB":
        return HostHeartbeat()
    raise TrayProtocolError(f"unknown host frame type {kind!r}")


def encode_host(seq: int, msg: HostMessage) -> bytes:
    """One host line for ``msg``."""
    if isinstance(msg, Hello):
        return encode_frame(seq, "HELLO", [("proto", msg.proto)])
    if isinstance(msg, Arm):
        return encode_frame(seq, "ARM", [("arm", msg.arm), ("die", check_die(msg.die))])
    if isinstance(msg, Disarm):
        return encode_frame(seq, "DISARM", [("arm", msg.arm)])
    if isinstance(msg, Ack):
        return encode_frame(seq, "ACK", [("id", msg.roll_id), ("boot", msg.boot)])
    return encode_frame(seq, "HB", [])
