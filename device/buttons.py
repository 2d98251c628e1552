"""Physical buttons: our own debounce and hold logic over gpiozero edges.

Three layers, one concern each:

- ``PressDetector``: a pure state machine for one button. Raw edges go in (``edge``) with the
  time they happened; ``tick(now)`` turns a level that stayed put for the debounce time into a
  press, a release before the hold time into a *short* press and a level still down at the hold
  time into a *long* press (never both). It needs no thread and no real clock, so tests drive
  it with a fake one. A hold is only ever reported while the button is still down, so a late
  "held" after release (gpiozero #697) cannot happen here: gpiozero's own ``when_held`` is not
  used, nor its ``bounce_time`` (the mock pin factory ignores it; the logic we rely on is ours).
- ``Buttons``: a gpiozero ``DigitalInputDevice`` per button of a ``PinMap`` (not ``Button``:
  each ``Button`` starts gpiozero's hold thread, which wakes ten times a second for a
  ``when_held`` we do not use). Their callbacks run on gpiozero's single callback thread; they
  only record the edge, under a lock, wake the ticker and can never raise (an exception there
  would stop every button for good).
- the *ticker* (``Buttons.run``, on its own thread): it ticks when an edge (or a simulated
  press) wakes it and at the next *deadline* a detector has (a level settling, a hold being
  timed), and otherwise sleeps with no timeout: no button touched, no wakeup.
- ``PinPresser``: in simulation, a finger on gpiozero's *mock* pins. A key (or the console's
  box panel) asks for a press; the presser drives the pin to its pressed level, keeps it there
  until the detector has taken the press (debounced; for a hold, until the hold was reported)
  and lets go, one press at a time, stepped by the same ticker and clock as the detectors
  (asking for a press wakes the ticker; then it waits for the detectors' deadlines).
  So a simulated press goes through gpiozero's callbacks and our debounce like a real one.
- the *sink*: ``sink(button, long)`` receives each press. It is called from whatever thread
  calls ``tick`` and must hand the press to the one event loop: ``queue_sink`` (a queue the main
  loop drains), ``loop_sink`` (``loop.call_soon_threadsafe``) or, in a Textual app,
  ``lambda b, long: app.call_from_thread(controller.press, b, long)``. A sink that raises is
  logged and the next press still arrives.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from device.pins import PinMap
from referee.lazylog import Logger

if TYPE_CHECKING:
    import asyncio  # (only in a type: the box without a console runs without asyncio)

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

Sink = Callable[[str, bool], None]
Clock = Callable[[], float]


@dataclass
class PressDetector:
    """Debounce and short/long detection for one button (see the module docstring)."""

    debounce_s: float = 0.020
    hold_s: float = 0.800
    raw: bool = False  # the last level reported by an edge (True: pressed)
    raw_since: float = 0.0
    stable: bool = False  # the debounced level
    pressed_at: float = 0.0
    held: bool = False  # the long press was already reported for this press

    def edge(self, pressed: bool, now: float) -> None:
        """A raw edge from the pin (any thread, under the owner's lock)."""
        if pressed != self.raw:
            self.raw, self.raw_since = pressed, now

    def tick(self, now: float) -> str | None:
        """``"short"``, ``"long"`` or None: what happened by ``now``."""
        if self.raw != self.stable and now >= self.raw_since + self.debounce_s:
            self.stable = self.raw
            if self.stable:
                self.pressed_at, self.held = self.raw_since, False
                return self._hold(now)
            if not self.held:
                return "short"
            return None
        if self.stable:
            return self._hold(now)
        return None

    def _hold(self, now: float) -> str | None:
        if not self.held and now >= self.pressed_at + self.hold_s:
            self.held = True
            return "long"
        return None

    def deadline(self) -> float | None:
        """When ``tick`` may next report or settle something with no new edge: the end of the
        debounce of a level that changed, or the hold time of a press not yet reported as
        long; None when nothing is pending (only an edge can change anything then)."""
        due = [self.raw_since + self.debounce_s] if self.raw != self.stable else []
        if self.stable and not self.held:  # (also while a release settles: still down)
            due.append(self.pressed_at + self.hold_s)
        return min(due, default=None)


class Buttons:
    """The box's buttons on gpiozero pins, reporting presses to ``sink``.

    ``start()`` runs the ticker on its own thread; tests call ``tick()`` or ``run()`` with a
    fake clock (and, for ``run``, a fake ``sleep_until``) instead.

    Args:
        pins: the pin map (``device.pins.load_pins``).
        pin_factory: a gpiozero pin factory, chosen once at start-up (``device.hardware``):
            ``LGPIOFactory`` on a Pi, ``MockFactory`` in simulation and tests.
        sink: receives ``(button name, long)`` for each press.
        clock: monotonic seconds; tests inject a fake one.
    """

    def __init__(self, pins: PinMap, *, pin_factory: Any, sink: Sink,
                 clock: Clock = time.monotonic) -> None:
        from gpiozero import DigitalInputDevice

        self.pins = pins
        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        self.detectors = {b.name: PressDetector(pins.debounce_s, pins.hold_s)
                          for b in pins.buttons}
        self.errors = 0  # exceptions caught in callbacks and sinks
        self.edges = 0  # edges gpiozero reported (its callbacks that ran)
        self.ticks = 0  # turns of the ticker (each a wakeup of its thread)
        self.presser: PinPresser | None = None  # set by PinPresser: stepped on each tick
        self._wake = threading.Event()  # an edge or a press asked for: tick now
        self._devices: list[Any] = []
        try:
            for spec in pins.buttons:
                dev = DigitalInputDevice(spec.pin, bounce_time=None, pin_factory=pin_factory,
                                         **spec.gpiozero_args())
                dev.when_activated = self._callback(spec.name, True)
                dev.when_deactivated = self._callback(spec.name, False)
                self._devices.append(dev)
        except BaseException:
            self.close()
            raise

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:  # runs on gpiozero's callback thread: must never raise
            try:
                with self._lock:
                    self.edges += 1
                    self.detectors[name].edge(pressed, self._clock())
            except Exception:
                self.errors += 1
                log.exception("button %s: edge handler failed", name)
            finally:
                self._wake.set()
        return on_edge

    def wake(self) -> None:
        """Make the ticker tick now (an edge does this; so does a press asked of the presser)."""
        self._wake.set()

    def tick(self) -> list[tuple[str, bool]]:
        """Run every detector once; send each press to the sink. Returns the presses.

        The presser moves before the detectors (what they settled last time) and after them,
        as far as it can: so when ``tick`` returns, it waits only for a detector's deadline."""
        self.ticks += 1
        presser = self.presser
        if presser is not None:
            presser.step()  # outside the lock: driving a pin runs our edge callback
        now = self._clock()
        with self._lock:
            found = [(name, kind == "long") for name, d in self.detectors.items()
                     if (kind := d.tick(now)) is not None]
        if presser is not None:
            while presser.step():
                pass
        for name, long in found:
            try:
                self._sink(name, long)
            except Exception:
                self.errors += 1
                log.exception("button %s: press handler failed", name)
        return found

    def deadline(self) -> float | None:
        """The earliest detector deadline (``PressDetector.deadline``); None: none pending."""
        with self._lock:
            due = [t for d in self.detectors.values() if (t := d.deadline()) is not None]
        return min(due, default=None)

    def sleep_until(self, due: float | None) -> None:
        """Block until ``due`` (by the clock; None: no time limit) or until woken."""
        self._wake.wait(None if due is None else max(0.0, due - self._clock()))

    def run(self, stop: threading.Event,
            sleep_until: Callable[[float | None], None] | None = None) -> None:
        """The ticker (a thread's target): tick, then sleep until woken (an edge, a press asked
        for, ``stop``) or until the next deadline; until ``stop`` is set. No deadline and no
        edge: it sleeps with no timeout, so idle buttons cost no wakeups at all."""
        sleep = sleep_until or self.sleep_until
        while not stop.is_set():
            self.tick()
            # Cleared after the tick, before the deadline is read: an edge recorded after this
            # sets it again (the sleep returns at once); one recorded before is in the deadline.
            self._wake.clear()
            sleep(self.deadline())

    def start(self) -> Callable[[], None]:
        """Tick on a daemon thread; returns a function that stops it."""
        stop = threading.Event()
        thread = threading.Thread(target=self.run, args=(stop,), name="buttons", daemon=True)
        thread.start()

        def halt() -> None:
            stop.set()
            self._wake.set()
            thread.join(timeout=1)
        return halt

    def pin(self, name: str) -> Any:
        """The gpiozero pin object of button ``name``."""
        names = [b.name for b in self.pins.buttons]
        return self._devices[names.index(name)].pin

    def close(self) -> None:
        for dev in self._devices:
            try:
                dev.close()
            except Exception:
                log.exception("closing a button failed")
        self._devices.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PinPresser:
    """Presses ``buttons`` by driving their gpiozero mock pins (see the module docstring).

    ``press`` may be called from any thread; the pins are driven from ``Buttons.tick`` (the
    buttons' ticker thread), so the debounce sees the edges at the times of its own clock.
    """

    def __init__(self, buttons: Buttons) -> None:
        from gpiozero.pins.mock import MockPin

        for spec in buttons.pins.buttons:
            if not isinstance(buttons.pin(spec.name), MockPin):
                from referee.errors import DeviceError

                raise DeviceError(f"button {spec.name} is on a real GPIO pin: only gpiozero's "
                                  "mock pins can be pressed from the keyboard")
        self.buttons = buttons
        self.done = 0  # presses completed (pressed and let go)
        self._queue: deque[tuple[str, bool]] = deque()
        self._current: tuple[str, bool] | None = None
        self._phase = "press"  # press -> hold (pin at its pressed level) -> release
        self._idle = threading.Condition()
        buttons.presser = self

    def press(self, name: str, long: bool = False) -> None:
        """Ask for a press of button ``name`` (held past the hold time if ``long``)."""
        self.buttons.pins.button(name)  # KeyError for a button the box does not have
        with self._idle:
            self._queue.append((name, long))
        self.buttons.wake()

    @property
    def busy(self) -> bool:
        with self._idle:
            return bool(self._queue) or self._current is not None

    def wait_idle(self, timeout: float) -> bool:
        """Block until every asked press is done (False if ``timeout`` seconds pass first)."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._queue and self._current is None,
                                       timeout)

    def step(self) -> bool:
        """Move the finger once (called by ``Buttons.tick``); True if it did something, False
        if it waits (for a detector, or for a press to be asked for)."""
        with self._idle:
            if self._current is None:
                if not self._queue:
                    return False
                self._current, self._phase = self._queue.popleft(), "press"
            name, long = self._current
        detector = self.buttons.detectors[name]
        if self._phase == "press":
            if detector.stable:  # (a press of this button still settling: wait)
                return False
            self._level(name, pressed=True)
            self._phase = "hold"
        elif self._phase == "hold":
            if not (detector.stable and (detector.held or not long)):
                return False
            self._level(name, pressed=False)  # taken; for a hold, the hold reported
            self._phase = "release"
        elif detector.stable:
            return False
        else:  # the release is debounced: this press is done
            with self._idle:
                self._current = None
                self.done += 1
                self._idle.notify_all()
        return True

    def _level(self, name: str, *, pressed: bool) -> None:
        pin = self.buttons.pin(name)
        active_low = self.buttons.pins.button(name).active == "low"
        (pin.drive_low if pressed == active_low else pin.drive_high)()


def queue_sink(q: queue.Queue[tuple[str, bool]]) -> Sink:
    """A sink that puts each press on ``q`` for the main loop to take."""
    return lambda name, long: q.put((name, long))


def loop_sink(loop: asyncio.AbstractEventLoop, press: Sink) -> Sink:
    """A sink that runs ``press(name, long)`` on the asyncio ``loop``'s thread."""
    return lambda name, long: loop.call_soon_threadsafe(press, name, long)
