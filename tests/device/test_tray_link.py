"""The host protocol state machine against the reference firmware, on a fake clock."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from device.tray.errors import TrayUsageError
from device.tray.firmware import TrayFirmware
from device.tray.framing import crc16
from device.tray.link import LinkState, StatusKind, TrayLink, TrayResult, TrayStatus, TrayTimings
from device.tray.messages import Ack, Hello, Iam, encode_host, encode_tray

Filter = Callable[[bytes], bool]  # True: let the line through


class Pair:
    """A TrayLink and a TrayFirmware wired back to back, with a fake clock and line filters."""

    def __init__(self, *, percentile: str = "1-100", dice: tuple[str, ...] = ("d6", "d10", "d100"),
                 seed: int = 7) -> None:
        self.now = 1000.0
        self.link = TrayLink(timings=TrayTimings(), percentile=percentile)
        self.fw = TrayFirmware(dice=dice, rng=random.Random(seed))
        self.to_host: Filter = lambda line: True
        self.to_tray: Filter = lambda line: True
        self.events: list[TrayStatus | TrayResult] = []
        self.host_lines: list[bytes] = []

    def plug(self) -> Pair:
        self.fw.power_on(self.now)
        self.link.connect(self.now)
        return self.pump()

    def pump(self) -> Pair:
        for _ in range(6):
            for line in self.link.take_output():
                self.host_lines.append(line)
                if self.to_tray(line):
                    self.fw.receive(line, self.now)
            for line in self.fw.take_output():
                if self.to_host(line):
                    self.link.feed(line, self.now)
            self.link.tick(self.now)
            self.fw.tick(self.now)
        self.events += self.link.take_events()
        return self

    def advance(self, seconds: float, step: float = 0.1) -> Pair:
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now += step
            self.pump()
        return self

    def statuses(self, kind: StatusKind) -> list[TrayStatus]:
        return [e for e in self.events if isinstance(e, TrayStatus) and e.kind is kind]

    def results(self) -> list[TrayResult]:
        return [e for e in self.events if isinstance(e, TrayResult)]

    def sent(self, type_: str) -> int:
        return sum(1 for line in self.host_lines if line.split(b" ")[1] == type_.encode())


def drop_first(n: int, type_: bytes) -> Filter:
    left = [n]

    def keep(line: bytes) -> bool:
        if line.split(b" ")[1] == type_ and left[0] > 0:
            left[0] -= 1
            return False
        return True
    return keep


def test_handshake_connects_and_reports_the_firmware() -> None:
    pair = Pair().plug()
    assert pair.link.state is LinkState.READY
    (status,) = pair.statuses(StatusKind.CONNECTED)
    assert "firmware 1.0.0" in status.detail and status.info is not None
    assert status.info.dice == ("d6", "d10", "d100")


def test_handshake_retries_hello_until_iam_arrives() -> None:
    pair = Pair()
    pair.to_host = drop_first(2, b"IAM")
    pair.plug()
    assert pair.link.state is LinkState.HANDSHAKING
    pair.advance(1.2)
    assert pair.link.state is LinkState.READY
    assert sum(isinstance(m, Hello) for m in pair.fw.host_messages) == 3


def test_handshake_gives_up_after_its_attempts() -> None:
    pair = Pair()
    pair.to_host = lambda line: False
    pair.plug().advance(3.0)
    assert pair.link.state is LinkState.FAILED
    assert pair.sent("HELLO") == TrayTimings().hello_attempts
    assert pair.statuses(StatusKind.HANDSHAKE_FAILED)


def test_a_tray_of_another_protocol_version_is_refused() -> None:
    link = TrayLink()
    link.connect(0.0)
    link.feed(encode_tray(0, Iam(2, "9.0", ("d6",), "0000FFFF")), 0.0)
    assert link.state is LinkState.FAILED
    assert [e.kind for e in link.take_events()] == [StatusKind.INCOMPATIBLE]  # type: ignore[union-attr]


def test_arm_is_resent_until_armed_comes_back() -> None:
    pair = Pair().plug()
    pair.to_host = drop_first(2, b"ARMED")
    arm_id = pair.link.arm("d100", pair.now)
    pair.pump().advance(1.5)
    assert pair.sent("ARM") == 3
    assert pair.fw.armed == (arm_id, "d100")
    assert len(pair.statuses(StatusKind.ARMED)) == 1


def test_armed_roll_is_delivered_once_though_acks_are_lost() -> None:
    pair = Pair().plug()
    pair.to_tray = drop_first(3, b"ACK")
    arm_id = pair.link.arm("d100", pair.now)
    pair.pump()
    roll_id = pair.fw.settle("d100", (5, 7), pair.now)
    pair.pump().advance(3.0)
    (result,) = pair.results()
    assert (result.die, result.value, result.faces, result.roll_id) == ("d100", 57, (5, 7), roll_id)
    assert result.expected and result.arm_id == arm_id
    assert pair.sent("ACK") >= 4  # every resent copy is ACKed again
    assert pair.fw.unacked == []
    assert pair.link.armed is None


def test_unarmed_roll_is_flagged_unexpected_and_acked() -> None:
    pair = Pair().plug()
    pair.fw.settle("d6", (4,), pair.now)
    pair.pump()
    (result,) = pair.results()
    assert not result.expected and result.arm_id is None and result.value == 4
    assert pair.fw.unacked == []


def test_roll_of_another_die_does_not_answer_the_arm() -> None:
    pair = Pair().plug()
    pair.link.arm("d100", pair.now)
    pair.pump()
    pair.fw.settle("d6", (2,), pair.now)
    pair.pump()
    pair.fw.settle("d100", (0, 0), pair.now)
    pair.pump()
    assert [(r.die, r.value, r.expected) for r in pair.results()] == [
        ("d6", 2, False), ("d100", 100, True)]


def test_crooked_roll_is_reported_and_the_arm_stays() -> None:
    pair = Pair().plug()
    pair.link.arm("d6", pair.now)
    pair.pump()
    pair.fw.crooked("d6", pair.now)
    pair.pump()
    assert pair.statuses(StatusKind.CROOKED) and pair.results() == []
    assert pair.link.armed is not None and pair.fw.armed is not None
    pair.fw.settle("d6", (6,), pair.now)
    pair.pump()
    assert [(r.value, r.expected) for r in pair.results()] == [(6, True)]


def test_reset_mid_game_is_detected_and_the_arm_is_restored() -> None:
    pair = Pair().plug()
    arm_id = pair.link.arm("d100", pair.now)
    pair.pump()
    old_boot = pair.fw.boot
    pair.fw.power_on(pair.now)  # the tray reboots: arm lost on its side
    pair.pump()
    (reset,) = pair.statuses(StatusKind.RESET)
    assert old_boot in reset.detail and pair.fw.boot in reset.detail
    assert len(pair.statuses(StatusKind.CONNECTED)) == 2
    assert pair.fw.armed == (arm_id, "d100")
    pair.fw.settle("d100", (1, 2), pair.now)
    pair.pump()
    assert [(r.value, r.expected, r.boot) for r in pair.results()] == [(12, True, pair.fw.boot)]


def test_reset_is_detected_by_boot_id_even_if_the_boot_line_is_lost() -> None:
    pair = Pair().plug()
    pair.to_host = drop_first(1, b"BOOT")
    pair.fw.power_on(pair.now)
    pair.advance(1.5)
    assert len(pair.statuses(StatusKind.RESET)) == 1
    assert pair.link.state is LinkState.READY


def test_silent_tray_is_given_up() -> None:
    pair = Pair().plug()
    pair.to_host = lambda line: False
    pair.advance(TrayTimings().silence_timeout + 0.5)
    assert pair.link.state is LinkState.FAILED
    assert "silent" in pair.statuses(StatusKind.DISCONNECTED)[0].detail


def test_heartbeats_keep_a_quiet_link_up() -> None:
    pair = Pair().plug().advance(20.0, step=0.25)
    assert pair.link.state is LinkState.READY
    assert pair.link.gaps == 0 and pair.link.garbage == 0
    assert 8 <= pair.sent("HB") <= 12  # every 2 s


def test_garbage_is_counted_and_reported_at_a_limited_rate() -> None:
    pair = Pair().plug()
    for i in range(50):
        pair.link.feed(b"\x00junk %d\n" % i, pair.now)
    pair.link.feed(b"N1 HB boot=0 *0000\n", pair.now)
    pair.pump()
    assert pair.link.garbage == 51
    assert len(pair.statuses(StatusKind.GARBAGE)) == 1  # rate-limited within the second
    pair.advance(1.5)
    last = pair.statuses(StatusKind.GARBAGE)[-1]
    assert last.garbage == 51 and "51 bad line" in last.detail
    assert pair.link.state is LinkState.READY


def test_a_lost_line_counts_as_a_sequence_gap() -> None:
    pair = Pair().plug()
    pair.to_host = drop_first(1, b"HB")
    pair.advance(2.5)
    assert pair.link.gaps == 1


def test_partial_line_is_never_glued_to_the_next_connection() -> None:
    pair = Pair().plug()
    arm_id = pair.link.arm("d6", pair.now)
    pair.pump()
    boot = pair.fw.boot.encode()
    body = b"N9 ROLL id=9 st=settled die=d6 faces=6 arm=%d boot=%s" % (arm_id, boot)
    line = body + b" *%04X\n" % crc16(body)
    pair.link.feed(line[:30], pair.now)
    pair.link.disconnect("unplugged")
    pair.link.connect(pair.now)
    pair.link.feed(line[30:], pair.now)
    pair.pump()
    assert pair.results() == []
    assert pair.link.garbage == 1
    assert pair.statuses(StatusKind.DISCONNECTED)


def test_resent_roll_after_a_cable_blip_is_delivered_once() -> None:
    pair = Pair().plug()
    pair.link.arm("d10", pair.now)
    pair.pump()
    pair.to_tray = lambda line: b" ACK " not in line  # the ACK never makes it
    pair.fw.settle("d10", (0,), pair.now)
    pair.pump()
    pair.link.disconnect("unplugged")  # same tray, same boot: only the cable moved
    pair.to_tray = lambda line: True
    pair.link.connect(pair.now)
    pair.advance(2.0)
    assert [(r.value, r.expected) for r in pair.results()] == [(10, True)]
    assert pair.fw.unacked == []
    assert pair.statuses(StatusKind.RESET) == []


def test_ack_carries_the_boot_so_a_stale_ack_cannot_clear_a_new_roll() -> None:
    pair = Pair().plug()
    old_boot = pair.fw.boot
    pair.fw.power_on(pair.now)
    pair.to_host = lambda line: False
    roll_id = pair.fw.settle("d6", (3,), pair.now)
    pair.fw.receive(encode_host(0, Ack(roll_id, old_boot)), pair.now)
    assert pair.fw.unacked == [roll_id]
    pair.fw.receive(encode_host(1, Ack(roll_id, pair.fw.boot)), pair.now)
    assert pair.fw.unacked == []


@pytest.mark.parametrize("die", ["d7", "", "D6"])
def test_arming_an_unknown_die_is_a_usage_error(die: str) -> None:
    with pytest.raises(TrayUsageError, match="unknown die"):
        TrayLink().arm(die, 0.0)


def test_arming_a_die_the_tray_cannot_read_is_refused() -> None:
    pair = Pair(dice=("d6",)).plug()
    with pytest.raises(TrayUsageError, match="reads d6, not d100"):
        pair.link.arm("d100", pair.now)


def test_disarm_tells_the_tray() -> None:
    pair = Pair().plug()
    arm_id = pair.link.arm("d6", pair.now)
    pair.pump()
    pair.link.disarm(arm_id + 1)  # not ours: ignored
    assert pair.link.armed is not None
    pair.link.disarm(arm_id)
    pair.pump()
    assert pair.link.armed is None and pair.fw.armed is None
    pair.fw.settle("d6", (1,), pair.now)
    pair.pump()
    assert [r.expected for r in pair.results()] == [False]


def test_arm_ids_are_new_each_time() -> None:
    link = TrayLink()
    ids = [link.arm("d6", 0.0) for _ in range(3)]
    assert len(set(ids)) == 3 and all(i >= 1 for i in ids)
    assert link.armed == (ids[-1], "d6")
    assert link.take_output() == []  # not connected: nothing sent until the handshake


@pytest.mark.parametrize(
    "kwargs", [{"read_timeout": 0}, {"backoff_max": -1}, {"hello_attempts": True},
               {"backoff_initial": 5.0, "backoff_max": 1.0}])
def test_bad_timings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(TrayUsageError):
        TrayTimings(**kwargs)


def test_bad_percentile_mode_is_refused() -> None:
    with pytest.raises(TrayUsageError, match="percentile"):
        TrayLink(percentile="1-99")


def test_zero_to_99_mode_reads_double_zero_as_zero() -> None:
    pair = Pair(percentile="0-99").plug()
    pair.link.arm("d100", pair.now)
    pair.pump()
    pair.fw.settle("d100", (0, 0), pair.now)
    pair.pump()
    assert [r.value for r in pair.results()] == [0]
