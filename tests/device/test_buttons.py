"""Buttons on gpiozero mock pins: our debounce, short vs long, and handlers that raise
(reliability.md fault tests #5 and #6). Time is a fake clock; nothing sleeps."""

from __future__ import annotations

import queue
import threading
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from device.buttons import Buttons, PinPresser, PressDetector, queue_sink
from device.pins import DEFAULT_PINS


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig():
    factory = MockFactory()
    clock = Clock()
    presses: list[tuple[str, bool]] = []
    buttons = Buttons(DEFAULT_PINS, pin_factory=factory, clock=clock,
                      sink=lambda b, long: presses.append((b, long)))
    yield factory, clock, buttons, presses
    buttons.close()
    factory.reset()


def run_for(clock: Clock, buttons: Buttons, seconds: float, step: float = 0.005) -> None:
    """Advance the fake clock, ticking as the real ticker thread would."""
    end = clock.t + seconds
    while clock.t < end:
        clock.t = round(clock.t + step, 6)
        buttons.tick()


def test_five_edges_in_five_ms_is_one_press(rig) -> None:
    factory, clock, buttons, presses = rig
    pin = factory.pin(17)  # ROLL, pulled up: low is pressed
    for i in range(5):  # bounce on the way down: low, high, low, high, low
        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        clock.t += 0.001
        buttons.tick()
    run_for(clock, buttons, 0.1)
    for i in range(5):  # and on the way up
        (pin.drive_high if i % 2 == 0 else pin.drive_low)()
        clock.t += 0.001
        buttons.tick()
    run_for(clock, buttons, 0.1)
    assert presses == [("ROLL", False)]


def test_chatter_shorter_than_the_debounce_is_no_press(rig) -> None:
    factory, clock, buttons, presses = rig
    pin = factory.pin(27)
    pin.drive_low()
    clock.t += 0.005
    buttons.tick()
    pin.drive_high()
    run_for(clock, buttons, 0.5)
    assert presses == []


def test_a_hold_gives_the_long_action_and_no_short_one(rig) -> None:
    factory, clock, buttons, presses = rig
    pin = factory.pin(22)  # BACK
    pin.drive_low()
    run_for(clock, buttons, 0.79)
    assert presses == []  # not yet: hold_ms is 800
    run_for(clock, buttons, 0.05)
    assert presses == [("BACK", True)]  # reported while still held
    run_for(clock, buttons, 2.0)
    pin.drive_high()
    run_for(clock, buttons, 0.2)
    assert presses == [("BACK", True)]  # release after a hold: no stray short press


def test_a_hold_after_release_is_ignored_gpiozero_697() -> None:
    d = PressDetector(debounce_s=0.02, hold_s=0.8)
    d.edge(True, 0.0)
    assert d.tick(0.03) is None
    d.edge(False, 0.5)
    assert d.tick(0.6) == "short"
    # the hold time of the press passes after the release: nothing more happens
    assert [d.tick(t) for t in (0.81, 0.9, 5.0)] == [None, None, None]


def test_two_buttons_at_once_each_report(rig) -> None:
    factory, clock, buttons, presses = rig
    factory.pin(17).drive_low()
    factory.pin(23).drive_low()
    run_for(clock, buttons, 0.05)
    factory.pin(17).drive_high()
    factory.pin(23).drive_high()
    run_for(clock, buttons, 0.05)
    assert sorted(presses) == [("MENU", False), ("ROLL", False)]


def test_a_press_handler_that_raises_leaves_later_presses_working() -> None:
    factory, clock = MockFactory(), Clock()
    got: list[tuple[str, bool]] = []

    def sink(button: str, long: bool) -> None:
        got.append((button, long))
        if len(got) == 1:
            raise RuntimeError("handler bug")

    with Buttons(DEFAULT_PINS, pin_factory=factory, clock=clock, sink=sink) as buttons:
        for _ in range(2):
            factory.pin(27).drive_low()
            run_for(clock, buttons, 0.05)
            factory.pin(27).drive_high()
            run_for(clock, buttons, 0.05)
        assert got == [("NEXT", False), ("NEXT", False)]
        assert buttons.errors == 1
    factory.reset()


def test_an_edge_callback_that_fails_never_raises_into_gpiozero() -> None:
    factory, clock = MockFactory(), Clock()
    calls = {"n": 0}

    def flaky_clock() -> float:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("clock glitch")
        return clock.t

    got: list[tuple[str, bool]] = []
    buttons = Buttons(DEFAULT_PINS, pin_factory=factory, clock=flaky_clock,
                      sink=lambda b, long: got.append((b, long)))
    pin = factory.pin(17)
    pin.drive_low()  # the callback's clock raises: swallowed, counted
    assert buttons.errors == 1
    pin.drive_high()
    run_for(clock, buttons, 0.05)
    pin.drive_low()
    run_for(clock, buttons, 0.05)
    pin.drive_high()
    run_for(clock, buttons, 0.05)
    assert got == [("ROLL", False)]
    buttons.close()
    factory.reset()


def test_presses_reach_the_main_loop_through_a_queue_from_the_ticker_thread() -> None:
    factory = MockFactory()
    q: queue.Queue[tuple[str, bool]] = queue.Queue()
    clock = Clock()
    buttons = Buttons(DEFAULT_PINS, pin_factory=factory, clock=clock, sink=queue_sink(q))
    stop = threading.Event()
    ticker = threading.Thread(target=buttons.run, args=(stop,), daemon=True)
    ticker.start()
    try:
        factory.pin(23).drive_low()
        clock.t += 0.05  # settled, but a press is only reported at release or hold time
        assert q.empty()
        clock.t += 1.0  # past the hold time: the ticker thread reports the long press
        assert q.get(timeout=5) == ("MENU", True)
    finally:
        stop.set()
        buttons.wake()
        ticker.join(timeout=5)
        buttons.close()
        factory.reset()


# ---- the simulation's finger: key presses through the mock pins ----------------------------

def finish(clock: Clock, buttons: Buttons, presser: PinPresser, limit: float = 30.0) -> None:
    """Tick (5 ms steps of the fake clock) until every asked press is done."""
    end = clock.t + limit
    while presser.busy and clock.t < end:
        clock.t = round(clock.t + 0.005, 6)
        buttons.tick()
    assert not presser.busy, "the presses never finished"


presses_asked = st.lists(st.tuples(st.sampled_from(["ROLL", "NEXT", "BACK", "MENU"]),
                                   st.booleans()), min_size=1, max_size=5)


@settings(max_examples=15, deadline=None)
@given(asked=presses_asked, wiring=st.sampled_from(["up", "down"]))
def test_the_finger_makes_each_press_through_gpiozero_and_the_debounce(
        asked: list[tuple[str, bool]], wiring: str) -> None:
    pins = DEFAULT_PINS
    if wiring == "down":  # buttons to 3V3 with pull-downs: pressed reads high
        pins = replace(pins, buttons=tuple(replace(b, pull="down", active="high")
                                           for b in pins.buttons))
    factory, clock = MockFactory(), Clock()
    got: list[tuple[str, bool]] = []
    with Buttons(pins, pin_factory=factory, clock=clock,
                 sink=lambda b, long: got.append((b, long))) as buttons:
        presser = PinPresser(buttons)
        for name, long in asked:
            presser.press(name, long)
        finish(clock, buttons, presser)
        assert got == asked  # in order, short or long as asked, each once
        assert buttons.edges == 2 * len(asked)  # gpiozero's callbacks: down and up each
        assert presser.done == len(asked)
        for b in pins.buttons:  # every pin let go again
            assert buttons.pin(b.name).state == (b.active == "low")
    factory.reset()


def test_a_held_key_is_reported_at_the_hold_time_while_still_down() -> None:
    factory, clock = MockFactory(), Clock()
    got: list[tuple[str, bool, float]] = []
    with Buttons(DEFAULT_PINS, pin_factory=factory, clock=clock,
                 sink=lambda b, long: got.append((b, long, clock.t))) as buttons:
        presser = PinPresser(buttons)
        start = clock.t
        presser.press("BACK", long=True)
        finish(clock, buttons, presser)
        (name, long, at), = got
        assert (name, long) == ("BACK", True)
        assert at - start >= DEFAULT_PINS.hold_s  # by the box's clock, not a sleep
        pin_states = [s.state for s in buttons.pin("BACK").states]
        assert pin_states[-2:] == [False, True]  # driven low, then let go
    factory.reset()


def test_presses_asked_from_another_thread_are_made_by_the_ticker() -> None:
    factory = MockFactory()
    q: queue.Queue[tuple[str, bool]] = queue.Queue()
    with Buttons(DEFAULT_PINS, pin_factory=factory, sink=queue_sink(q)) as buttons:
        presser = PinPresser(buttons)
        stop = buttons.start()
        try:
            threading.Thread(target=presser.press, args=("MENU", False)).start()
            assert q.get(timeout=10) == ("MENU", False)
            assert presser.wait_idle(timeout=10)
        finally:
            stop()
    factory.reset()


def test_real_pins_cannot_be_pressed_from_the_keyboard() -> None:
    from gpiozero.pins.mock import MockPin

    from referee.errors import DeviceError

    class NotMock:
        def __init__(self, pin: MockPin) -> None:
            self._pin = pin

    factory, clock = MockFactory(), Clock()
    with Buttons(DEFAULT_PINS, pin_factory=factory, clock=clock, sink=lambda b, long: None
                 ) as buttons:
        buttons.pin = lambda name: NotMock(factory.pin(17))  # type: ignore[method-assign]
        with pytest.raises(DeviceError, match="real GPIO pin"):
            PinPresser(buttons)
    factory.reset()
