"""The buttons' ticker sleeps until it has work (issue 16, "idle = 0"): it ticks when an edge
wakes it and at the detectors' deadlines (a level settling, a hold being timed), never on a
period, and with nothing pending it sleeps with no timeout.

The ticker loop (``Buttons.run``) runs here with a fake clock and a fake ``sleep_until`` in
which time passes only while it sleeps and the scripted edges happen on gpiozero's mock pins
(the real callbacks, our real detectors). Its presses are compared with the debounce and hold
rules worked out from the script by hand, to the tick of the fake clock."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from device.buttons import Buttons, PinPresser
from device.pins import DEFAULT_PINS

# Edges fall on whole milliseconds; the debounce and hold end on .5 and .3 of one, so an
# edge never lands exactly on a deadline (which of the two came first would be a coin toss).
PINS = replace(DEFAULT_PINS, debounce_s=0.0205, hold_s=0.8003)
START = 100.0
NAMES = [b.name for b in PINS.buttons]


class Clock:
    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@dataclass
class World:
    """What the ticker thread's sleep sees: time moves to the deadline it sleeps until, unless
    a scripted edge comes first; with no deadline and no edge left it would sleep for ever,
    so the run ends there."""

    clock: Clock
    factory: MockFactory
    stop: threading.Event
    script: list[tuple[float, str, bool]]  # (time, button, pressed)
    sleeps: list[float | None] = field(default_factory=list)

    def sleep_until(self, due: float | None) -> None:
        self.sleeps.append(due)
        if self.script and (due is None or self.script[0][0] < due):
            at, name, pressed = self.script.pop(0)
            self.clock.t = at
            pin = self.factory.pin(PINS.button(name).pin)
            (pin.drive_low if pressed else pin.drive_high)()  # pulled up: low is pressed
        elif due is None:
            self.stop.set()
        else:
            assert due >= self.clock.t, "slept until a time already past"
            self.clock.t = due


def expected(script: list[tuple[float, str, bool]]) -> list[tuple[float, str, bool]]:
    """The presses the debounce and hold rules give, worked out from the edges alone: a level
    counts once it lasted the debounce time; a press still down at its hold time (counted from
    its first edge) is long, reported then; one let go before is short, reported when the
    release has lasted the debounce time."""
    out: list[tuple[float, str, bool]] = []
    for name in NAMES:
        edges = [(t, p) for t, n, p in script if n == name]
        stable, pressed_at = False, 0.0
        for i, (t, level) in enumerate(edges):
            lasted = edges[i + 1][0] - t if i + 1 < len(edges) else float("inf")
            if level == stable or lasted < PINS.debounce_s:
                continue  # chatter: never settled
            stable = level
            if level:
                pressed_at = t
                release = next((e[0] + PINS.debounce_s for j, e in enumerate(edges)
                                if j > i and not e[1]
                                and (edges[j + 1][0] if j + 1 < len(edges) else float("inf"))
                                - e[0] >= PINS.debounce_s), float("inf"))
                if pressed_at + PINS.hold_s < release:
                    out.append((pressed_at + PINS.hold_s, name, True))
                elif release != float("inf"):
                    out.append((release, name, False))
    return sorted(out)


def scripts() -> st.SearchStrategy[list[tuple[float, str, bool]]]:
    """Edges on the four buttons: each toggles its pin; gaps from chatter to long holds."""
    gaps = st.one_of(st.integers(1, 25), st.integers(26, 1500))
    steps = st.lists(st.tuples(st.sampled_from(NAMES), gaps), max_size=30)

    def build(raw: list[tuple[str, int]]) -> list[tuple[float, str, bool]]:
        down = dict.fromkeys(NAMES, False)
        ms, out = 0, []
        for name, gap in raw:
            ms += gap
            down[name] = not down[name]
            out.append((START + ms / 1000, name, down[name]))
        return out
    return steps.map(build)


def ticker_world(script: list[tuple[float, str, bool]]
                 ) -> tuple[World, Buttons, list[tuple[float, str, bool]]]:
    clock, factory = Clock(), MockFactory()
    got: list[tuple[float, str, bool]] = []
    buttons = Buttons(PINS, pin_factory=factory, clock=clock,
                      sink=lambda b, long: got.append((clock.t, b, long)))
    return World(clock, factory, threading.Event(), list(script)), buttons, got


@settings(max_examples=150, deadline=None)
@given(script=scripts())
def test_the_ticker_reports_every_press_at_its_deadline_and_otherwise_sleeps(
        script: list[tuple[float, str, bool]]) -> None:
    world, buttons, got = ticker_world(script)
    try:
        buttons.run(world.stop, sleep_until=world.sleep_until)
        want = expected(script)
        assert [(b, long) for _, b, long in got] == [(b, long) for _, b, long in want]
        assert [t for t, _, _ in got] == pytest.approx([t for t, _, _ in want], abs=1e-9)
        # one turn to start, then one per edge and one per deadline reached: a debounce per
        # edge at most, a hold per long press; never a turn on a period
        longs = sum(long for _, _, long in got)
        assert buttons.ticks <= 1 + 2 * len(script) + longs
        assert world.sleeps[-1] is None  # nothing pending: asleep with no timeout
        assert buttons.edges == len(script)
    finally:
        buttons.close()
        world.factory.reset()


def test_untouched_buttons_tick_once_and_sleep_with_no_timeout() -> None:
    world, buttons, got = ticker_world([])
    try:
        buttons.run(world.stop, sleep_until=world.sleep_until)
        assert (buttons.ticks, world.sleeps, got) == (1, [None], [])
    finally:
        buttons.close()
        world.factory.reset()


def test_five_edges_in_five_ms_then_a_hold_wake_the_ticker_a_handful_of_times() -> None:
    """Fault test 5 through the sleeping ticker: chatter is one press, a hold is "held" (at
    the hold time, still down) and no stray short press at its release."""
    chatter = [(START + i / 1000, "ROLL", i % 2 == 0) for i in range(5)]  # ends down
    chatter.append((START + 0.100, "ROLL", False))
    hold = [(START + 1.0, "BACK", True), (START + 3.0, "BACK", False)]
    world, buttons, got = ticker_world(chatter + hold)
    try:
        buttons.run(world.stop, sleep_until=world.sleep_until)
        assert got == [(pytest.approx(START + 0.100 + PINS.debounce_s), "ROLL", False),
                       (pytest.approx(START + 1.0 + PINS.hold_s), "BACK", True)]
        assert buttons.ticks <= 1 + 2 * 9 + 1  # not 3 s / 5 ms = 600 turns
    finally:
        buttons.close()
        world.factory.reset()


@settings(max_examples=25, deadline=None)
@given(asked=st.lists(st.tuples(st.sampled_from(NAMES), st.booleans()), min_size=1,
                      max_size=5))
def test_the_simulated_finger_needs_no_polling(asked: list[tuple[str, bool]]) -> None:
    world, buttons, got = ticker_world([])
    try:
        presser = PinPresser(buttons)
        for name, long in asked:
            presser.press(name, long)
        buttons.run(world.stop, sleep_until=world.sleep_until)
        assert [(b, long) for _, b, long in got] == asked
        assert not presser.busy and presser.done == len(asked)
        # per press: down, settled, (held,) up, settled
        assert buttons.ticks <= 1 + 4 * len(asked)
        assert world.sleeps[-1] is None
    finally:
        buttons.close()
        world.factory.reset()


def test_the_buttons_start_no_gpiozero_thread() -> None:
    """gpiozero's ``Button`` starts a hold thread per button that wakes every 0.1 s whether or
    not anything is pressed; the box times holds itself and must not have them."""
    before = {t.ident for t in threading.enumerate()}
    factory = MockFactory()
    with Buttons(PINS, pin_factory=factory, clock=Clock(), sink=lambda b, long: None):
        started = [t for t in threading.enumerate() if t.ident not in before]
        assert started == []
    factory.reset()


class Recording(Buttons):
    """Buttons whose real ticker thread reports each deadline it goes to sleep until."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.dues: list[float | None] = []
        self.asleep = threading.Condition()

    def sleep_until(self, due: float | None) -> None:
        with self.asleep:
            self.dues.append(due)
            self.asleep.notify_all()
        super().sleep_until(due)


def test_the_ticker_thread_blocks_with_no_timeout_until_a_pin_edge_wakes_it() -> None:
    clock, factory = Clock(), MockFactory()
    got: list[tuple[str, bool]] = []
    buttons = Recording(PINS, pin_factory=factory, clock=clock,
                        sink=lambda b, long: got.append((b, long)))
    halt = buttons.start()
    try:
        with buttons.asleep:
            assert buttons.asleep.wait_for(lambda: len(buttons.dues) >= 1, timeout=10)
            assert buttons.dues == [None]  # untouched: no deadline, no timeout
        factory.pin(PINS.button("NEXT").pin).drive_low()  # gpiozero's callback wakes it
        with buttons.asleep:
            assert buttons.asleep.wait_for(lambda: len(buttons.dues) >= 2, timeout=10)
            assert buttons.dues[1] == pytest.approx(START + PINS.debounce_s)
        assert got == []
    finally:
        halt()
        buttons.close()
        factory.reset()
