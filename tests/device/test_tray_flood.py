"""Fault test #16: a flood of tray lines. What is parsed per (fake) second is bounded, every
line dropped is counted, no frame is made of bytes from both sides of a drop, the table is
told, and a roll after the flood is accepted. All on fake clocks: no timing is asserted."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.tray.driver import TrayDriver
from device.tray.firmware import TrayFirmware
from device.tray.flood import FloodGuard
from device.tray.link import StatusKind, TrayLink, TrayResult, TrayTimings
from device.tray.messages import Iam, RollReport, RollState, encode_tray
from device.tray.sim import TraySimulator
from tests.device.test_tray_driver import Recorder
from tests.device.test_tray_link import Pair

JUNK = b"N1 HB st=idle boot=00C0FFEE *0000\n"  # frame-shaped, bad checksum: parsed, refused
BOOT = "00C0FFEE"


def per_second_budget(t: TrayTimings) -> float:
    """Most lines a token bucket of one window's worth can hand on within any one second."""
    return t.flood_lines_per_s * t.flood_window + t.flood_lines_per_s


# --- the guard on its own -------------------------------------------------------------------

numbered = st.lists(st.integers(0, 100), min_size=1, max_size=400)  # lengths within the cap


@given(numbered, st.data())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_guard_hands_on_only_whole_lines_and_counts_every_other_newline(
    lengths: list[int], data: st.DataObject,
) -> None:
    """Any chunking, any clock: each line handed on is one whole line of the input, in
    order, and every newline is either such a line or counted as dropped."""
    lines = [b"%d:" % i + b"x" * n for i, n in enumerate(lengths)]
    stream = b"".join(line + b"\n" for line in lines)
    guard = FloodGuard(lines_per_s=data.draw(st.integers(1, 20)),
                       bytes_per_s=data.draw(st.integers(200, 3000)), window=1.0)
    now, pos, out = 0.0, 0, []
    while pos < len(stream):
        step = data.draw(st.integers(1, 700))
        out += guard.feed(stream[pos:pos + step], now)
        pos += step
        now += data.draw(st.sampled_from([0.0, 0.0, 0.01, 0.3, 1.0, 2.5]))
    it = iter(lines)
    assert all(any(got == want for want in it) for got in out), "a line was cut or glued"
    assert len(out) + guard.dropped_lines == stream.count(b"\n")
    handed = sum(len(line) + 1 for line in out)
    assert handed + guard.dropped_bytes + len(guard.pending) == len(stream)


@given(st.lists(st.tuples(st.integers(1, 5000), st.sampled_from([0.0, 0.05, 0.2, 0.7])),
                min_size=1, max_size=60))
@settings(max_examples=200)
def test_guard_hands_on_at_most_its_budget_in_any_second(
    schedule: list[tuple[int, float]],
) -> None:
    """Bursts of any size at any pace: lines handed on within each fake second stay under
    what the buckets allow (a window's worth plus a second's refill)."""
    t = TrayTimings()
    guard = FloodGuard(t.flood_lines_per_s, t.flood_bytes_per_s, t.flood_window)
    now, stamps = 0.0, []
    for count, pause in schedule:
        stamps += [now] * len(guard.feed(JUNK * count, now))
        now += pause
    for second in range(int(now) + 1):
        inside = sum(1 for s in stamps if second <= s < second + 1)
        assert inside <= per_second_budget(t)
    sent = sum(count for count, _ in schedule)
    assert len(stamps) + guard.dropped_lines == sent
    assert guard.dropped_bytes == guard.dropped_lines * len(JUNK)


def test_guard_drops_newline_free_junk_by_the_byte_budget() -> None:
    guard = FloodGuard(lines_per_s=100, bytes_per_s=1000, window=1.0)
    assert guard.feed(b"x" * 5000, 0.0) == []
    assert guard.dropping and guard.dropped_bytes == 5000 and guard.dropped_lines == 0
    # after the window: the cut line's tail is dropped (one line), the next one is whole
    assert guard.feed(b"yyy\nN1 OK\n", 1.0) == [b"N1 OK"]
    assert guard.dropped_lines == 1 and not guard.dropping


def test_guard_says_flooding_until_a_calm_window_has_passed() -> None:
    guard = FloodGuard(lines_per_s=10, bytes_per_s=10_000, window=1.0)
    guard.feed(b"a\n" * 25, 0.0)
    assert guard.flooding and guard.dropping and guard.dropped_lines == 15
    guard.tick(1.0)
    assert guard.flooding and not guard.dropping
    guard.tick(1.9)
    assert guard.flooding
    guard.tick(2.0)
    assert not guard.flooding and guard.episodes == 1 and guard.episode_lines == 15


def test_a_reconnect_does_not_end_a_flood_or_glue_two_connections() -> None:
    guard = FloodGuard(lines_per_s=10, bytes_per_s=10_000, window=1.0)
    guard.feed(b"a\n" * 10 + b"cut sho", 0.0)
    guard.feed(b"rt\n" * 3, 0.0)
    assert guard.dropping and guard.dropped_lines == 3
    guard.reset()  # the port was closed and opened again
    guard.tick(0.5)
    assert guard.dropping and guard.flooding
    assert guard.feed(b"N0 IAM\n", 1.0) == [b"N0 IAM"]  # a new connection starts whole
    guard.tick(1.99)
    assert guard.flooding
    guard.tick(2.0)
    assert not guard.flooding and guard.episodes == 1


# --- the link: notices, rolls during and after a flood ---------------------------------------

def test_a_flood_is_parsed_within_budget_and_every_dropped_line_is_counted() -> None:
    pair = Pair().plug()
    t = pair.link.timings
    pair.to_host = lambda line: False  # a wedged tray: only junk comes out of it
    garbage0 = pair.link.garbage
    parsed: list[int] = []
    sent = 0
    for _ in range(3):  # three fake seconds of 4000 junk lines each, read 40 at a time
        before = pair.link.garbage
        for _ in range(100):
            pair.link.feed(JUNK * 40, pair.now)
            sent += 40
        parsed.append(pair.link.garbage - before)
        pair.advance(1.0, step=0.5)
    assert max(parsed) <= per_second_budget(t), parsed
    assert pair.link.garbage - garbage0 + pair.link.flood.dropped_lines == sent
    assert pair.link.flood.dropped_bytes == pair.link.flood.dropped_lines * len(JUNK)
    flooding = pair.statuses(StatusKind.FLOODING)
    assert len(flooding) == 1  # one notice for the whole flood, not one per window
    assert flooding[0].detail.startswith("the dice tray is flooding; ")
    assert f"{flooding[0].dropped_lines} line(s) dropped" in flooding[0].detail
    assert flooding[0].dropped_lines > 0
    pair.to_host = lambda line: True
    pair.advance(3.0)
    over = pair.statuses(StatusKind.FLOOD_OVER)
    assert len(over) == 1 and f"{pair.link.flood.dropped_lines} in all" in over[0].detail
    assert not pair.link.flood.flooding


def test_a_roll_sent_while_dropping_is_not_taken_then_and_arrives_once_after() -> None:
    pair = Pair().plug()
    arm_id = pair.link.arm("d6", pair.now)
    pair.pump()
    assert pair.fw.armed == (arm_id, "d6")
    pair.link.feed(JUNK * 500, pair.now)
    assert pair.link.flood.dropping and pair.link.flood.flooding
    pair.fw.settle("d6", (4,), pair.now)
    pair.pump()  # the report reaches the host while it drops: not parsed, not ACKed
    assert pair.results() == [] and pair.fw.unacked == [1]
    pair.advance(3.0)  # the tray resends until ACKed
    results = pair.results()
    assert [(r.value, r.expected, r.arm_id) for r in results] == [(4, True, arm_id)]
    assert pair.fw.unacked == []


def test_after_a_flood_the_tray_is_armed_again_so_a_reroll_counts() -> None:
    """The tray used the arm on a roll the host never read (here: every copy is lost). The
    table rolls again; that roll must still be the one the table is waiting for."""
    pair = Pair().plug()
    arm_id = pair.link.arm("d100", pair.now)
    pair.pump()
    pair.link.feed(JUNK * 500, pair.now)
    lost = pair.fw.settle("d100", (3, 1), pair.now)
    pair.to_host = lambda line: b" id=%d " % lost not in line or b" ROLL " not in line
    pair.advance(3.0)
    assert pair.results() == []
    assert pair.fw.armed == (arm_id, "d100")  # the host re-armed after the flood
    pair.fw.settle("d100", (5, 7), pair.now)
    pair.advance(1.0)
    assert [(r.value, r.expected) for r in pair.results()] == [(57, True)]


tray_frames = st.tuples(st.integers(1, 9), st.integers(1, 6), st.integers(0, 2)).map(
    lambda t: encode_tray(t[0], RollReport(t[0], RollState.SETTLED, "d6", BOOT, (t[1],), t[2])))


@given(st.lists(tray_frames | st.just(JUNK) | st.binary(max_size=40), max_size=80),
       st.lists(st.integers(1, 60), min_size=1, max_size=20),
       st.lists(st.sampled_from([0.0, 0.0, 0.1, 0.6, 1.5]), min_size=1, max_size=20))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_dropping_never_turns_bytes_into_a_roll_that_was_not_sent_whole(
    items: list[bytes], cuts: list[int], steps: list[float],
) -> None:
    link = TrayLink(timings=TrayTimings(flood_lines_per_s=4, flood_bytes_per_s=400))
    link.connect(0.0)
    link.feed(encode_tray(0, Iam(1, "1.0", ("d6",), BOOT)), 0.0)
    link.arm("d6", 0.0)
    whole = {line for line in items if line.endswith(b"\n")}
    stream = b"".join(items)
    now, pos, i = 0.0, 0, 0
    while pos < len(stream):
        size = cuts[i % len(cuts)]
        link.feed(stream[pos:pos + size], now)
        link.tick(now)
        pos, now, i = pos + size, now + steps[i % len(steps)], i + 1
    for result in (e for e in link.take_events() if isinstance(e, TrayResult)):
        line = encode_tray(result.roll_id, RollReport(
            result.roll_id, RollState.SETTLED, "d6", BOOT, result.faces, result.arm_id or 0))
        assert line in whole


# --- the driver, on a fake clock -----------------------------------------------------------

def wait_until(predicate: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll (the driver's counters change without callbacks); the timeout only stops a hang."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        threading.Event().wait(0.005)


class BufferPort:
    """A pyserial-like port with a tray firmware on the far end and an unbounded input
    buffer, so a test can pour a flood in at once (pyserial's ``loop://`` holds 4 KiB and
    would block the firmware's answers). The firmware runs on the test's fake clock."""

    def __init__(self, fw: TrayFirmware, clock: Callable[[], float]) -> None:
        self.fw = fw
        self.clock = clock
        self.cond = threading.Condition()
        self.buf = bytearray()
        self.lines = 0  # lines the firmware put into the port

    def pour(self, data: bytes) -> None:
        with self.cond:
            self.buf += data
            self.cond.notify_all()

    def pump(self) -> None:
        """Let the firmware act at the fake clock's time (heartbeats, resends)."""
        with self.cond:
            self.fw.tick(self.clock())
            self._out()

    def _out(self) -> None:
        for line in self.fw.take_output():
            self.buf += line
            self.lines += 1
        self.cond.notify_all()

    def read(self, size: int = 1) -> bytes:
        with self.cond:
            self.cond.wait_for(lambda: bool(self.buf), 0.02)
            data = bytes(self.buf[:size])
            del self.buf[:size]
            return data

    @property
    def in_waiting(self) -> int:
        with self.cond:
            return len(self.buf)

    def write(self, data: bytes) -> int:
        with self.cond:
            self.fw.receive(data, self.clock())
            self._out()
        return len(data)

    def reset_input_buffer(self) -> None:
        with self.cond:
            self.buf.clear()

    def close(self) -> None:
        pass


def test_driver_under_a_flood_counts_every_drop_and_takes_the_next_roll() -> None:
    now = [100.0]
    fw = TrayFirmware(rng=random.Random(5))
    fw.power_on(now[0])
    port = BufferPort(fw, lambda: now[0])
    rec = Recorder()
    t = TrayTimings(read_timeout=0.02, flood_pause=0.01)
    driver = TrayDriver("fake", opener=lambda path: port, clock=lambda: now[0],
                        on_status=rec.status, on_result=rec.result, on_unexpected=rec.other,
                        timings=t)
    with driver:
        wait_until(lambda: driver.connected, "the handshake")
        arm_id = driver.arm("d10")
        wait_until(lambda: fw.armed == (arm_id, "d10"), "ARM")
        link = driver.link
        garbage0, lines0 = link.garbage, port.lines
        flood = 20_000
        port.pour(JUNK * flood)  # all of it at one fake instant

        def counted() -> int:
            return link.garbage - garbage0 + driver.dropped_lines

        def sent() -> int:  # the flood, and the tray's answers to the host meanwhile (ARMED)
            return flood + port.lines - lines0

        wait_until(lambda: port.in_waiting == 0 and counted() >= flood, "the flood to be read")
        wait_until(lambda: counted() == sent(), "every line to be counted")
        assert link.garbage - garbage0 <= t.flood_lines_per_s * t.flood_window
        assert driver.flooding and rec.count(StatusKind.FLOODING) == 1
        frozen = sent()
        now[0] += 2 * t.flood_window  # the flood is over; the table rolls
        with port.cond:
            fw.settle("d10", (7,), now[0])
        port.pump()
        wait_until(lambda: len(rec.results) == 1, "the roll")
        assert [(r.value, r.arm_id) for r in rec.results] == [(7, arm_id)]
        assert counted() == frozen  # the lines after the flood were read, not dropped
        assert rec.unexpected == []


def test_a_simulated_tray_flooding_a_pty_is_read_within_budget(tmp_path: Path) -> None:
    """End to end: the simulator floods a real pty with junk as fast as it can; the driver's
    clock stands still, so it may parse one window's worth and no more, however long the
    flood goes on; the tray's own lines are not lost for good."""
    now = [50.0]
    link_path = str(tmp_path / "dice-tray")
    rec = Recorder()
    t = TrayTimings(read_timeout=0.02, flood_pause=0.02)
    with TraySimulator(link=link_path, seed=3, clock=lambda: now[0]) as sim, \
            TrayDriver(link_path, clock=lambda: now[0], on_status=rec.status,
                       on_result=rec.result, on_unexpected=rec.other, timings=t) as driver:
        wait_until(lambda: driver.connected, "the handshake")
        garbage0 = driver.link.garbage
        sim.flood(1_000_000, junk=True)
        wait_until(lambda: driver.dropped_lines >= 5000, "lines to be dropped")
        sim.flood(0)
        assert driver.link.garbage - garbage0 <= t.flood_lines_per_s * t.flood_window
        assert driver.flooding and rec.count(StatusKind.FLOODING) == 1
        arm_id = driver.arm("d6")
        assert sim.wait_for(lambda: sim.firmware.armed == (arm_id, "d6"), 10.0)
        sim.roll("d6", (6,))  # into what is left of the flood in the pty: dropped, resent

        def time_passes() -> bool:  # a quarter of a fake second per poll
            threading.Event().wait(0.05)
            now[0] += 0.25
            return len(rec.results) == 1

        wait_until(time_passes, "the roll")
        assert [(r.value, r.arm_id) for r in rec.results] == [(6, arm_id)]
