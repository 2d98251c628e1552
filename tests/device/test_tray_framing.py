"""Framing of the dice-tray protocol: CRC, line cap, parse/encode, and bytes over loop://."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import serial

from device.tray.errors import TrayProtocolError
from device.tray.framing import MAX_LINE, Frame, LineAssembler, crc16, encode_frame, parse_frame
from device.tray.messages import (
    Ack,
    Arm,
    Armed,
    Boot,
    Disarm,
    Heartbeat,
    Hello,
    HostHeartbeat,
    Iam,
    RollReport,
    RollState,
    TrayErr,
    decode_host,
    decode_tray,
    die_value,
    encode_host,
    encode_tray,
)
from referee.errors import DeviceError


def test_crc_is_ccitt_false_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_frame_layout_is_as_documented() -> None:
    line = encode_frame(7, "ROLL", [("id", 3), ("st", "settled"), ("die", "d6"), ("faces", "4")])
    body = b"N7 ROLL id=3 st=settled die=d6 faces=4"
    assert line == body + b" *%04X\n" % crc16(body)


def test_round_trip_keeps_order_and_fields() -> None:
    frame = parse_frame(encode_frame(65535, "IAM", {"proto": 1, "fw": "1.2.0", "dice": "d6,d100"}))
    assert frame == Frame(65535, "IAM", (("proto", "1"), ("fw", "1.2.0"), ("dice", "d6,d100")))
    assert frame.get("fw") == "1.2.0" and frame.get("nope") is None


def test_crlf_line_end_is_accepted() -> None:
    line = encode_frame(1, "HB", [("boot", "0000ABCD")])
    assert parse_frame(line[:-1] + b"\r\n") == parse_frame(line)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"", "not a frame"),
        (b"hello world", "not a frame"),
        (b"N1 HB *0000", "bad checksum"),
        (b"N01 HB *0000", "not a frame"),  # leading zero: one spelling per number
        (b"N99999 HB *%04X" % crc16(b"N99999 HB"), "sequence number"),
        (b"N1 hb *%04X" % crc16(b"N1 hb"), "not a frame"),
        (b"N1 HB a=1 a=2 *%04X" % crc16(b"N1 HB a=1 a=2"), "twice"),
        (b"N1 HB a=\xff *0000", "not a frame"),
        (b"N1 HB  a=1 *%04X" % crc16(b"N1 HB  a=1"), "not a frame"),
        (b"N1 HB *%04x" % 0xABCD, "not a frame"),  # lower-case hex
        (b"N1 HB " + b"x=" + b"y" * 41 + b" *0000", "not a frame"),
        (b"N1 HB " + b"a=b " * 40 + b"*0000", "cap"),
    ],
)
def test_bad_lines_are_refused_with_a_reason(line: bytes, why: str) -> None:
    with pytest.raises(TrayProtocolError, match=why) as info:
        parse_frame(line)
    assert isinstance(info.value, DeviceError) and isinstance(info.value, ValueError)


def _line_of(total: int) -> bytes:
    """A valid frame whose length with its newline is ``total`` bytes (not capped)."""
    body = b"N1 HB"
    remaining, key = total - 7 - len(body), 0  # 7: " *XXXX\n"
    while remaining > 0:
        size = min(remaining, 44)
        body += b" k%d=" % key + b"v" * (size - 4)
        remaining -= size
        key += 1
    return body + b" *%04X\n" % crc16(body)


def test_line_cap_counts_the_newline() -> None:
    exact, over = _line_of(MAX_LINE), _line_of(MAX_LINE + 1)
    assert (len(exact), len(over)) == (MAX_LINE, MAX_LINE + 1)
    assert parse_frame(exact).type == "HB"
    assert parse_frame(exact[:-1]).type == "HB"
    with pytest.raises(TrayProtocolError, match="cap"):
        parse_frame(over)
    with pytest.raises(TrayProtocolError, match="cap"):
        parse_frame(exact[:-1] + b"\r\n")  # the CR counts too
    frame = parse_frame(exact)
    assert encode_frame(frame.seq, frame.type, frame.fields) == exact


@pytest.mark.parametrize(
    ("seq", "type_", "fields", "why"),
    [
        (-1, "HB", [], "sequence"),
        (65536, "HB", [], "sequence"),
        (0, "hb", [], "type"),
        (0, "HB", [("Bad", "1")], "field name"),
        (0, "HB", [("a", "has space")], "bad value"),
        (0, "HB", [("a", "1"), ("a", "2")], "twice"),
        (0, "HB", [(f"k{i}", "v" * 30) for i in range(5)], "cap"),
    ],
)
def test_encode_refuses_what_would_break_the_protocol(
    seq: int, type_: str, fields: list[tuple[str, str]], why: str,
) -> None:
    with pytest.raises(TrayProtocolError, match=why):
        encode_frame(seq, type_, fields)


def test_assembler_keeps_partial_lines_until_their_newline() -> None:
    asm = LineAssembler()
    assert asm.feed(b"N1 HB bo") == []
    assert asm.pending == b"N1 HB bo"
    assert asm.feed(b"ot=1\nN2") == [b"N1 HB boot=1"]
    assert asm.pending == b"N2"
    asm.reset()
    assert asm.feed(b" HB\n") == [b" HB"]


def test_assembler_cuts_overlong_lines_and_recovers() -> None:
    asm = LineAssembler()
    lines = asm.feed(b"x" * 1000) + asm.feed(b"y" * 1000 + b"\nok\n")
    assert len(lines) == 2
    assert len(lines[0]) == MAX_LINE + 1 and lines[1] == b"ok"
    with pytest.raises(TrayProtocolError, match="cap"):
        parse_frame(lines[0])


TRAY_MESSAGES = [
    Boot("0A1B2C3D"),
    Iam(1, "2.0.1", ("d6", "d100"), "0A1B2C3D", "maker-tray"),
    Iam(1, "2.0.1", ("d6",), "0A1B2C3D", None),
    Heartbeat("0A1B2C3D", "armed"),
    Armed(12, "d100", "0A1B2C3D"),
    RollReport(5, RollState.ROLLING, "d6", "0A1B2C3D"),
    RollReport(5, RollState.SETTLED, "d100", "0A1B2C3D", (5, 7), 12),
    RollReport(65535, RollState.SETTLED, "d6", "0A1B2C3D", (6,), 0),
    RollReport(6, RollState.CROOKED, "d10", "0A1B2C3D"),
    TrayErr("die_unsupported", "0A1B2C3D"),
]
HOST_MESSAGES = [Hello(), Arm(3, "d6"), Disarm(0), Disarm(3), Ack(5, "0A1B2C3D"), HostHeartbeat()]


@pytest.mark.parametrize("msg", TRAY_MESSAGES, ids=repr)
def test_tray_messages_cross_a_loop_port(msg: object) -> None:
    port = serial.serial_for_url("loop://", timeout=0.5)
    port.write(encode_tray(42, msg))  # type: ignore[arg-type]
    line = port.readline()
    assert line.endswith(b"\n") and len(line) <= MAX_LINE
    assert decode_tray(parse_frame(line)) == msg
    port.close()


@pytest.mark.parametrize("msg", HOST_MESSAGES, ids=repr)
def test_host_messages_cross_a_loop_port(msg: object) -> None:
    port = serial.serial_for_url("loop://", timeout=0.5)
    port.write(encode_host(9, msg))  # type: ignore[arg-type]
    assert decode_host(parse_frame(port.readline())) == msg
    port.close()


def test_split_writes_over_loop_reassemble_to_frames() -> None:
    port = serial.serial_for_url("loop://", timeout=0.2)
    stream = b"".join(encode_tray(i, m) for i, m in enumerate(TRAY_MESSAGES))
    asm = LineAssembler()
    got: list[bytes] = []
    for start in range(0, len(stream), 7):
        port.write(stream[start:start + 7])
        got += asm.feed(port.read(port.in_waiting or 1))
    assert [decode_tray(parse_frame(line)) for line in got] == TRAY_MESSAGES
    port.close()


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"N1 ROLL id=1 st=settled die=d6 boot=0A1B2C3D", "faces"),
        (b"N1 ROLL id=1 st=settled die=d6 faces=7 boot=0A1B2C3D", "1..6"),
        (b"N1 ROLL id=1 st=settled die=d100 faces=5 boot=0A1B2C3D", "2 face"),
        (b"N1 ROLL id=0 st=settled die=d6 faces=1 boot=0A1B2C3D", "id="),
        (b"N1 ROLL id=1 st=bouncing die=d6 boot=0A1B2C3D", "roll state"),
        (b"N1 ROLL id=1 st=rolling die=d20 boot=0A1B2C3D", "unknown die"),
        (b"N1 HB boot=abc", "boot="),
        (b"N1 IAM proto=1 fw=1 dice=d6,d8 boot=0A1B2C3D", "unknown die"),
        (b"N1 ARMED arm=70000 die=d6 boot=0A1B2C3D", "arm="),
        (b"N1 WHAT boot=0A1B2C3D", "unknown tray frame"),
    ],
)
def test_bad_tray_messages_are_refused(line: bytes, why: str) -> None:
    frame = parse_frame(line + b" *%04X" % crc16(line))
    with pytest.raises(TrayProtocolError, match=why):
        decode_tray(frame)


def test_unknown_extra_fields_are_tolerated() -> None:
    body = b"N1 HB st=idle temp=31 boot=0A1B2C3D"
    assert decode_tray(parse_frame(body + b" *%04X" % crc16(body))) == Heartbeat("0A1B2C3D")


@pytest.mark.parametrize(
    ("die", "faces", "mode", "value"),
    [
        ("d100", (0, 0), "1-100", 100),  # GG-7: "00" + "0" reads 100
        ("d100", (0, 0), "0-99", 0),
        ("d100", (5, 7), "1-100", 57),
        ("d100", (0, 7), "1-100", 7),
        ("d100", (9, 9), "0-99", 99),
        ("d10", (0,), "1-100", 10),
        ("d6", (4,), "1-100", 4),
    ],
)
def test_gg7_percentile_values(die: str, faces: tuple[int, ...], mode: str, value: int) -> None:
    assert die_value(die, faces, mode) == value


def test_die_value_refuses_bad_mode_and_faces() -> None:
    with pytest.raises(TrayProtocolError, match="percentile"):
        die_value("d100", (1, 2), "1-99")
    with pytest.raises(TrayProtocolError, match="face"):
        die_value("d6", (0,))


def test_frames_quoted_in_the_protocol_doc_are_valid() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "dice-tray-protocol.md"
    quoted = re.findall(r"^(N\d+ [A-Z]+ .*\*[0-9A-F]{4})$", doc.read_text(), re.MULTILINE)
    assert quoted
    for line in quoted:
        assert decode_tray(parse_frame(line.encode())) is not None
