"""Line frames of the dice-tray protocol: ``N<seq> <TYPE> key=value ... *<CRC>``.

See docs/dice-tray-protocol.md. This module knows bytes and frames only, not what a frame
means (that is :mod:`device.tray.messages`). Everything here is pure and raises only
:class:`TrayProtocolError`.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from device.tray.errors import TrayProtocolError

MAX_LINE = 120
"""Longest line in bytes, counting the final ``\\n`` (and a ``\\r`` before it, if sent)."""

SEQ_MODULUS = 65536
"""Sequence numbers run 0..65535 and wrap to 0."""

_FRAME = re.compile(
    rb"N(0|[1-9][0-9]{0,4}) ([A-Z]{2,8})((?: [a-z][a-z0-9_]{0,11}=[A-Za-z0-9._,:+\-]{1,40})*)"
    rb" \*([0-9A-F]{4})"
)
_KEY = re.compile(r"[a-z][a-z0-9_]{0,11}")
_VALUE = re.compile(r"[A-Za-z0-9._,:+\-]{1,40}")
_TYPE = re.compile(r"[A-Z]{2,8}")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One checked line: its sequence number, type and ``key=value`` fields (in order)."""

    seq: int
    type: str
    fields: tuple[tuple[str, str], ...] = ()

    def get(self, key: str) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return None

    def as_dict(self) -> dict[str, str]:
        return dict(self.fields)

    def encode(self) -> bytes:
        """The frame as one line, with its checksum and the final ``\\n``."""
        return encode_frame(self.seq, self.type, self.fields)


def encode_frame(
    seq: int, type_: str, fields: Iterable[tuple[str, str | int]] | Mapping[str, str | int] = (),
) -> bytes:
    """Build one line (ending ``\\n``); raises TrayProtocolError if it would break the protocol."""
    if not isinstance(seq, int) or not 0 <= seq < SEQ_MODULUS:
        raise TrayProtocolError(f"sequence number must be 0..{SEQ_MODULUS - 1}, got {seq!r}")
    if not _TYPE.fullmatch(type_):
        raise TrayProtocolError(f"frame type must be 2-8 capital letters, got {type_!r}")
    items = fields.items() if isinstance(fields, Mapping) else fields
    parts = [f"N{seq}", type_]
    seen: set[str] = set()
    for key, value in items:
        text = str(value)
        if not _KEY.fullmatch(key):
            raise TrayProtocolError(f"bad field name {key!r} in {type_} frame")
        if key in seen:
            raise TrayProtocolError(f"field {key!r} twice in {type_} frame")
        if not _VALUE.fullmatch(text):
            raise TrayProtocolError(f"bad value {text!r} for field {key!r} in {type_} frame")
        seen.add(key)
        parts.append(f"{key}={text}")
    body = " ".join(parts).encode("ascii")
    line = body + b" *%04X\n" % crc16(body)
    if len(line) > MAX_LINE:
        raise TrayProtocolError(f"{type_} frame is {len(line)} bytes, over the {MAX_LINE} cap")
    return line


def parse_frame(line: bytes) -> Frame:
    """Check and split one line (with or without its ``\\r\\n``).

    Raises:
        TrayProtocolError: the line is too long, not printable ASCII, not a frame, has a bad
            checksum, an out-of-range sequence number or a repeated field.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if len(line) + 1 > MAX_LINE:
        raise TrayProtocolError(f"line of {len(line) + 1} bytes is over the {MAX_LINE}-byte cap")
    if line.endswith(b"\r"):
        line = line[:-1]
    match = _FRAME.fullmatch(line)
    if match is None:
        raise TrayProtocolError(f"not a frame: {_show(line)}")
    seq_text, type_, field_text, crc_text = match.groups()
    body = line[: match.start(4) - 2]
    if crc16(body) != int(crc_text, 16):
        raise TrayProtocolError(f"bad checksum on {_show(line)}")
    seq = int(seq_text)
    if seq >= SEQ_MODULUS:
        raise TrayProtocolError(f"sequence number {seq} is over {SEQ_MODULUS - 1}")
    fields: list[tuple[str, str]] = []
    seen: set[str] = set()
    for pair in field_text.decode("ascii").split():
        key, _, value = pair.partition("=")
        if key in seen:
            raise TrayProtocolError(f"field {key!r} twice in {_show(line)}")
        seen.add(key)
        fields.append((key, value))
    return Frame(seq, type_.decode("ascii"), tuple(fields))


def _show(line: bytes) -> str:
    text = repr(line[:60])
    return text + ("..." if len(line) > 60 else "")


class LineAssembler:
    """Turns a byte stream into lines; keeps partial lines until their ``\\n`` arrives.

    A line longer than :data:`MAX_LINE` is cut: its first ``MAX_LINE + 1`` bytes come out
    (so :func:`parse_frame` rejects it as too long) and the rest, up to the next ``\\n``, is
    dropped. Memory stays bounded whatever arrives.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overlong = False

    @property
    def pending(self) -> bytes:
        """The partial line held so far (never parsed until complete)."""
        return bytes(self._buf)

    def reset(self) -> None:
        """Forget any partial line (after a disconnect: never glue two connections' bytes)."""
        self._buf.clear()
        self._overlong = False

    def feed(self, data: bytes) -> list[bytes]:
        """Add bytes; return the complete lines (without ``\\n``) they finish."""
        lines: list[bytes] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            room = MAX_LINE + 1 - len(self._buf)
            if len(chunk) > room:
                self._buf += chunk[: max(room, 0)]
                self._overlong = True
            elif not self._overlong:
                self._buf += chunk
            if end < 0:
                break
            lines.append(bytes(self._buf))
            self._buf.clear()
            self._overlong = False
            start = end + 1
        return lines
