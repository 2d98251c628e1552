"""The box's main loop sleeps until something is due (issue 16, "idle = 0").

``main_loop`` waits on its queue until the earliest deadline of the controller (a notice
expiring, the idle screen), the display (dimming, a burn-in shift, a retry) and the watchdog
(its ping), and with none it waits with no timeout. Here the queue is a stand-in in which time
(a fake clock) passes only while the loop waits on it; the controller, the display (luma's
SSD1306 on a recording bus) and the watchdog (a real AF_UNIX socket for systemd) are the real
ones. The ``next_*`` deadlines are also checked one by one: a tick before one changes nothing
(so sleeping until it misses nothing), and one at it does what was due."""

from __future__ import annotations

import queue
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError
from luma.oled.device import ssd1306

from device.box import BoxController
from device.framediff import Ssd1306Pages
from device.oled import Oled
from device.render import render
from device.run import main_loop
from device.watchdog import Watchdog
from referee.session import Session
from tests.device.fakes import RecordingSerial

T0 = 1024.0  # whole seconds from here are exact in binary: deadlines are hit exactly


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


@dataclass
class Inbox:
    """The main loop's queue. Time moves only while the loop waits on it: to the next scripted
    item, or by the timeout; past ``end`` (or waiting for ever with nothing left) it hands the
    loop None, which ends it. ``look`` records the world each time the loop waits."""

    clock: Clock
    script: list[tuple[float, Any]]
    end: float
    look: Callable[[], Any] = lambda: None
    waits: list[tuple[float, float | None, Any]] = field(default_factory=list)

    def get(self, timeout: float | None = None) -> Any:
        self.waits.append((self.clock.t, timeout, self.look()))
        wake = None if timeout is None else self.clock.t + timeout
        if self.script and (wake is None or self.script[0][0] <= wake):
            at, item = self.script.pop(0)
            self.clock.t = max(self.clock.t, at)
            return item
        if wake is None or wake > self.end:
            return None
        self.clock.t = wake
        raise queue.Empty


def parts(clock: Clock, *, idle_s: float | None = 120.0, dim_after: float | None = 60.0,
          shift_every: float | None = 300.0) -> tuple[BoxController, Oled, RecordingSerial]:
    serial = RecordingSerial()
    oled = Oled(lambda: ssd1306(serial), strategy=Ssd1306Pages(), clock=clock,
                notify=lambda m: None, dim_after=dim_after, shift_every=shift_every)
    box = BoxController(Session(seed=bytes(32)), clock=clock, idle_s=idle_s)
    box.subscribe(lambda view: oled.show(render(view)))
    assert oled.open()
    oled.show(render(box.view()))
    return box, oled, serial


def test_with_nothing_due_the_loop_waits_with_no_timeout() -> None:
    clock = Clock()
    box, oled, _ = parts(clock, idle_s=None, dim_after=None, shift_every=None)
    inbox = Inbox(clock, [], end=T0 + 3600)
    assert main_loop(box, oled, inbox, None, clock=clock) == 0  # type: ignore[arg-type]
    assert [(t, timeout) for t, timeout, _ in inbox.waits] == [(T0, None)]


def test_notice_dimming_idle_screen_and_shift_each_come_on_time_with_the_loop_asleep() -> None:
    clock = Clock()
    box, oled, _ = parts(clock)
    inbox = Inbox(clock, [(T0 + 6, lambda: box.notify("Dice tray connected.")),
                          (T0 + 200, ("ROLL", False))], end=T0 + 700,
                  look=lambda: (box.view().notice is not None, oled._dimmed,
                                box.view().screen))
    assert main_loop(box, oled, inbox, None, clock=clock) == 0  # type: ignore[arg-type]
    woke = [t for t, _, _ in inbox.waits]
    seen = {t: look for t, _, look in inbox.waits}
    assert seen[T0 + 6] == (True, False, "new")  # the notice is up ...
    assert seen[T0 + 10] == (False, False, "new")  # ... for 4 s exactly, not a tick more
    assert seen[T0 + 60] == (False, True, "new")  # dimmed after 60 s with no press
    assert seen[T0 + 120] == (False, True, "idle")  # the idle screen after 120 s
    assert seen[T0 + 200] == (False, False, "new")  # a press wakes both (and does nothing else)
    assert seen[T0 + 260][1] and seen[T0 + 320][2] == "idle"  # and the cycle starts again
    assert seen[T0 + 620][2] == "idle"  # the idle screen, static since T0 + 320, moved:
    assert oled._shift == 1  # by a pixel, against burn-in
    # a turn of the loop for each thing that happened, not one per tenth of a second
    assert woke == [T0, T0 + 6, T0 + 10, T0 + 60, T0 + 120, T0 + 200, T0 + 260, T0 + 320,
                    T0 + 620]


@dataclass
class Systemd:
    """The receiving end of NOTIFY_SOCKET; each datagram stamped with the fake clock."""

    sock: socket.socket
    clock: Clock
    got: list[tuple[float, str]] = field(default_factory=list)

    def drain(self) -> list[tuple[float, str]]:
        while True:
            try:
                self.got.append((self.clock.t, self.sock.recv(4096).decode()))
            except BlockingIOError:
                return self.got


def test_the_loop_wakes_to_ping_the_watchdog_and_a_stalled_loop_stops_the_pings(
        tmp_path: Path) -> None:
    """Fault test 11 with the sleeping loop: the pings come from the main loop's own turns
    (it wakes for them on the watchdog's schedule), so a loop stuck in a handler sends none."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    clock = Clock()
    systemd = Systemd(sock, clock)
    wd = Watchdog(env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "20000000"}, clock=clock,
                  pid=1)
    box, oled, _ = parts(clock, idle_s=None, dim_after=None, shift_every=None)
    during: list[list[tuple[float, str]]] = []

    def stuck() -> None:  # a handler that hangs for a minute
        clock.t += 60
        during.append(list(systemd.drain()))

    inbox = Inbox(clock, [(T0 + 35, stuck)], end=T0 + 130, look=systemd.drain)
    try:
        assert main_loop(box, oled, inbox, wd, clock=clock) == 0  # type: ignore[arg-type]
    finally:
        sock.close()
    pings = [t for t, m in systemd.got if m == "WATCHDOG=1"]
    assert pings[:4] == [T0, T0 + 10, T0 + 20, T0 + 30]  # every interval (10 s), on time
    assert [t for t, m in during[0] if m == "WATCHDOG=1"] == pings[:4]  # none while stuck
    assert pings[4] == T0 + 95  # the loop is back: at once
    assert pings[5:] == [T0 + 105, T0 + 115, T0 + 125]
    assert len(inbox.waits) <= len(pings) + 2  # woken for the pings, not on a period


# ---- each deadline on its own: never late ----------------------------------------------------

opens = st.lists(st.booleans(), min_size=1, max_size=12)  # does the n-th open of the display work
steps = st.lists(st.tuples(st.sampled_from(["wait", "show", "wake", "bus_dies"]),
                           st.integers(1, 400)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(works=opens, script=steps)
def test_the_display_has_nothing_to_do_before_its_next_due(works: list[bool],
                                                            script: list[tuple[str, int]]
                                                            ) -> None:
    clock = Clock()
    serials: list[RecordingSerial] = []
    attempts = iter([*works, *[True] * 100])

    def opener() -> Any:
        if not next(attempts):
            raise DeviceNotFoundError("not there")
        serials.append(RecordingSerial())
        return ssd1306(serials[-1])

    oled = Oled(opener, strategy=Ssd1306Pages(), clock=clock, notify=lambda m: None,
                dim_after=60.0, shift_every=300.0, backoff=(1.0, 16.0))
    oled.open()
    images = [render(BoxController(Session(seed=bytes(32)), clock=clock).view())]
    images.append(images[0].rotate(180))

    def state() -> tuple[Any, ...]:
        return (oled.present, oled.frames, oled.failures, oled.retry_at, oled._dimmed,
                oled._shift, sum(len(s.writes) for s in serials))

    for n, (op, amount) in enumerate(script):
        due = oled.next_due()
        target = clock.t + amount
        if due is not None and due <= target:
            if due > clock.t:  # (it can be due now: a reopened display dims on the next tick)
                clock.t = max(clock.t, due - 0.5)  # just before: nothing to do yet
                before = state()
                assert oled.tick() == 0 and state() == before
            clock.t = max(clock.t, due)
            before = state()
            oled.tick()
            assert state() != before, "next_due was a moment with nothing to do"
        else:
            clock.t = target
            before = state()
            oled.tick()
            assert state() == before, "something was due before next_due"
        if op == "show":
            oled.show(images[n % 2])
        elif op == "wake":
            oled.wake()
        elif op == "bus_dies" and serials:
            serials[-1].fail_after = 0


presses = st.lists(st.tuples(st.sampled_from(["press", "notice", "wait"]),
                             st.integers(1, 200)), max_size=25)


@settings(max_examples=40, deadline=None)
@given(script=presses)
def test_the_box_screen_does_not_change_by_itself_before_its_next_change(
        script: list[tuple[str, int]]) -> None:
    clock = Clock()
    box = BoxController(Session(seed=bytes(32)), clock=clock, idle_s=120.0)
    for n, (op, amount) in enumerate(script):
        due = box.next_change()
        target = clock.t + amount
        if due is not None and due <= target:
            assert due > clock.t  # a tick leaves nothing already due
            clock.t = max(clock.t, due - 0.5)
            before = box.view()
            box.tick()
            assert box.view() == before
            clock.t = max(clock.t, due)
            box.tick()
            assert box.view() != before, "next_change was a moment with no change"
        else:
            clock.t = target
            before = box.view()
            box.tick()
            assert box.view() == before, "the screen changed before next_change"
        if op == "press":
            box.press(("ROLL", "NEXT", "BACK", "MENU")[n % 4])
        elif op == "notice":
            box.notify(f"message {n}")


# ---- a press reaches the front end's loop and wakes the display ------------------------------

def test_a_button_press_in_referee_run_wakes_the_dimmed_display() -> None:
    """`build_box` posts each press to the front end's loop as `BoxRig.pressed`, so every
    front end wakes the display on a press (`referee run` used to send presses to the
    controller alone: once dimmed, its OLED stayed dim)."""
    import threading

    from device.run import build_box
    from referee.cli import build_parser

    clock = Clock()
    posted: list[Callable[[], None]] = []
    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory"])
    rig = build_box(args, Session(seed=bytes(32)), post=posted.append, say=lambda t: None,
                    clock=clock)
    try:
        clock.t += 60
        rig.tick()
        assert rig.oled._dimmed and rig.box.view().screen == "new"
        rig.press("ROLL")  # through the mock pin, gpiozero's callback and the debounce
        stop = threading.Event()

        def sleep_until(due: float | None) -> None:  # the ticker's time: to each deadline
            if due is None:
                stop.set()
            else:
                clock.t = due

        rig.buttons.run(stop, sleep_until=sleep_until)
        assert posted and rig.oled._dimmed  # the press waits for the front end's loop
        for fn in posted:
            fn()
        assert not rig.oled._dimmed
        assert rig.box.view().screen != "new"  # and the controller acted on it
    finally:
        rig.close()
