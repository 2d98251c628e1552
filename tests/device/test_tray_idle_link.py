"""TrayLink.next_due: the driver sleeps until then, so it must never be late (a timer that
would have acted earlier), never spin (a deadline that ticking leaves in place), and never
wake for nothing (every deadline it names does something). Checked over random runs of a
link against the reference firmware, with a fake clock."""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from device.tray.firmware import TrayFirmware
from device.tray.flood import FloodGuard
from device.tray.link import LinkState, TrayLink, TrayTimings
from device.tray.messages import HostHeartbeat

TIMINGS = TrayTimings(flood_lines_per_s=40.0, flood_window=1.0)

DICE = ("d6", "d10", "d100")
FACES = {"d6": (3,), "d10": (7,), "d100": (4, 2)}


@dataclass
class Run:
    """A link and a firmware back to back; the driver's part is played by ``step``."""

    now: float = 500.0
    link: TrayLink = field(default_factory=lambda: TrayLink(timings=TIMINGS))
    fw: TrayFirmware = field(
        default_factory=lambda: TrayFirmware(rng=random.Random(1), heartbeat=1.0))
    muted: bool = False  # the tray's output is lost on the way (a wedged board, a bad cable)
    deaf: bool = False  # the host's output is lost on the way

    def __post_init__(self) -> None:
        self.fw.power_on(self.now)
        self.fw.take_output()
        self.link.connect(self.now)
        self.exchange()

    def exchange(self) -> None:
        """What the driver does in one turn: write, read, feed, tick (and reopen a link that
        gave up, as the driver does after its backoff)."""
        for _ in range(4):
            if self.link.state is LinkState.FAILED:
                self.link.disconnect("given up")
                self.link.connect(self.now)
            for line in self.link.take_output():
                if not self.deaf:
                    self.fw.receive(line, self.now)
            data = b"".join(self.fw.take_output())
            if data and not self.muted:
                self.link.feed(data, self.now)
            self.link.tick(self.now)
        for line in self.link.take_output():  # written; the answer is read next turn
            if not self.deaf:
                self.fw.receive(line, self.now)
        self.link.take_events()

    def act(self, action: tuple[str, int]) -> None:
        kind, n = action
        if kind == "wait":
            self.now += n / 100
            self.fw.tick(self.now)
        elif kind == "arm":
            self.link.arm(DICE[n % 3], self.now)
        elif kind == "disarm":
            self.link.disarm()
        elif kind == "roll":
            die = DICE[n % 3]
            self.fw.settle(die, FACES[die], self.now)
        elif kind == "crooked":
            self.fw.crooked(DICE[n % 3], self.now)
        elif kind == "junk":
            self.link.feed(b"N1 NOT A FRAME *0000\n" * (n % 5 + 1), self.now)
        elif kind == "flood":
            self.fw.chatter(n)
        elif kind == "reset":
            self.fw.power_on(self.now)
        elif kind == "mute":
            self.muted = not self.muted
        elif kind == "deaf":
            self.deaf = not self.deaf
        self.exchange()


ACTIONS = st.lists(st.tuples(
    st.sampled_from(["wait", "wait", "wait", "arm", "disarm", "roll", "crooked", "junk",
                     "flood", "reset", "mute", "deaf"]),
    st.integers(0, 400)), max_size=40)


def heartbeats(fw: TrayFirmware) -> int:
    return sum(isinstance(m, HostHeartbeat) for m in fw.host_messages)


def observed(link: TrayLink) -> tuple[object, ...]:
    """What the driver sees of a link: its state and its flood flags."""
    return (link.state, link.flood.dropping, link.flood.flooding, link.fail_reason)


def check_next_due(link: TrayLink, now: float, fraction: float) -> None:
    due = link.next_due(now)
    assert due > now, f"due {due} not after {now}: the driver would spin"
    if math.isinf(due):
        return
    early = copy.deepcopy(link)  # any time before the deadline: nothing at all happens
    t = now + (due - now) * fraction
    if t < due:
        early.tick(t)
        assert early.take_output() == [] and early.take_events() == []
        assert observed(early) == observed(link)
    on_time = copy.deepcopy(link)  # at the deadline something does: no wakeup for nothing
    on_time.tick(due)
    acted = (on_time.take_output(), on_time.take_events(), observed(on_time))
    assert acted != ([], [], observed(link)), f"woke at {due} for nothing"
    assert on_time.next_due(due) > due


@settings(max_examples=150, deadline=None)
@given(actions=ACTIONS, fractions=st.lists(st.floats(0, 1), min_size=41, max_size=41))
def test_next_due_is_never_late_never_spins_never_idle(
    actions: list[tuple[str, int]], fractions: list[float],
) -> None:
    run = Run()
    check_next_due(run.link, run.now, fractions[-1])
    for action, fraction in zip(actions, fractions, strict=False):
        run.act(action)
        check_next_due(run.link, run.now, fraction)


def test_a_connected_idle_tray_wakes_the_host_about_once_per_heartbeat() -> None:
    """The driver's loop on a fake clock: wake at the link's next_due or when the tray's next
    heartbeat line arrives, whichever is first. Over 60 s, that is the tray's 60 heartbeats
    and the host's 30 (each wakeup does work: a line to read or one to send), not the 600 a
    0.1 s read timeout costs."""
    run = Run()
    tray_beat = run.now + run.fw.heartbeat  # power_on: the first HB one heartbeat later
    end = run.now + 60
    wakeups = 0
    beats0 = heartbeats(run.fw)
    while True:
        due = run.link.next_due(run.now)
        run.now = min(due, tray_beat)
        if run.now > end:
            break
        wakeups += 1
        if run.now == tray_beat:
            tray_beat += run.fw.heartbeat
        run.fw.tick(run.now)
        run.exchange()
    assert run.link.state is LinkState.READY  # never declared silent
    host_beats = heartbeats(run.fw) - beats0
    assert host_beats >= 60 / TIMINGS.host_heartbeat  # the host kept its heartbeat
    assert wakeups <= 60 + host_beats + 1


def test_a_silent_ready_link_is_due_at_its_heartbeat_then_its_silence_limit() -> None:
    run = Run()
    assert run.link.state is LinkState.READY
    t = TIMINGS
    heard = run.now
    assert run.link.next_due(run.now) == run.now + t.host_heartbeat
    run.muted = True
    run.now += t.host_heartbeat
    run.exchange()
    assert run.link.next_due(run.now) == heard + t.silence_timeout
    run.now = heard + t.silence_timeout
    run.exchange()  # the silence limit fires at its deadline; the link shook hands again
    assert run.link.state.value == "handshaking"
    assert run.link.next_due(run.now) == run.now + t.hello_interval


def test_an_unconfirmed_arm_is_due_at_its_resend_and_a_confirmed_one_is_not() -> None:
    run = Run()
    run.deaf = True
    run.link.arm("d6", run.now)
    run.exchange()
    assert run.link.next_due(run.now) == run.now + TIMINGS.arm_resend
    run.deaf = False
    run.now += TIMINGS.arm_resend
    run.exchange()  # resent, ARMED read
    assert run.link.next_due(run.now) > run.now + TIMINGS.arm_resend


def test_a_flood_guard_is_due_when_dropping_ends_then_when_the_episode_ends() -> None:
    guard = FloodGuard(lines_per_s=2, bytes_per_s=1000, window=1.0)
    assert guard.next_due() == math.inf
    guard.feed(b"a\nb\nc\nd\n", 10.0)
    assert guard.dropping and guard.next_due() == 11.0
    guard.tick(11.0)
    assert not guard.dropping and guard.flooding and guard.next_due() == 12.0
    guard.tick(12.0)
    assert not guard.flooding and guard.next_due() == math.inf
