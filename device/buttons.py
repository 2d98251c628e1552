"""Physical buttons: our own debounce and hold logic over gpiozero edges.

Three layers, one concern each:

- ``PressDetector``: a pure state machine for one button. Raw edges go in (``edge``) with the
  time they happened; ``tick(now)`` turns a level that stayed put for the debounce time into a
  press, a release before the hold time into a *short* press and a level still down at the hold
  time into a *long* press (never both). It needs no thread and no real clock, so tests drive
  it with a fake one. A hold is only ever reported while the button is still down, so a late
  "held" after release (gpiozero #697) cannot happen here: gpiozero's own ``when_held`` is not
  used, nor its ``bounce_time`` (the mock pin factory ignores it; the logic we rely on is ours).
- ``Buttons``: the gpiozero ``Button`` objects for a ``PinMap``. Their callbacks run on
  gpiozero's single callback thread; they only record the edge, under a lock, and can never
  raise (an exception there would stop every button for good).
- the *sink*: ``sink(button, long)`` receives each press. It is called from whatever thread
  calls ``tick`` and must hand the press to the one event loop: ``queue_sink`` (a queue the main
  loop drains), ``loop_sink`` (``loop.call_soon_threadsafe``) or, in a Textual app,
  ``lambda b, long: app.call_from_thread(controller.press, b, long)``. A sink that raises is
  logged and the next press still arrives.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from device.pins import PinMap

log = logging.getLogger(__name__)

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
        if self.raw != self.stable and now - self.raw_since >= self.debounce_s:
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
        if not self.held and now - self.pressed_at >= self.hold_s:
            self.held = True
            return "long"
        return None


class Buttons:
    """The box's buttons on gpiozero pins, reporting presses to ``sink``.

    Args:
        pins: the pin map (``device.pins.load_pins``).
        pin_factory: a gpiozero pin factory, chosen once at start-up (``device.hardware``):
            ``LGPIOFactory`` on a Pi, ``MockFactory`` in simulation and tests.
        sink: receives ``(button name, long)`` for each press.
        clock: monotonic seconds; tests inject a fake one.
    """

    def __init__(self, pins: PinMap, *, pin_factory: Any, sink: Sink,
                 clock: Clock = time.monotonic) -> None:
        from gpiozero import Button

        self.pins = pins
        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        self.detectors = {b.name: PressDetector(pins.debounce_s, pins.hold_s)
                          for b in pins.buttons}
        self.errors = 0  # exceptions caught in callbacks and sinks
        self._devices: list[Any] = []
        try:
            for spec in pins.buttons:
                dev = Button(spec.pin, bounce_time=None, pin_factory=pin_factory,
                             **spec.gpiozero_args())
                dev.when_pressed = self._callback(spec.name, True)
                dev.when_released = self._callback(spec.name, False)
                self._devices.append(dev)
        except BaseException:
            self.close()
            raise

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:  # runs on gpiozero's callback thread: must never raise
            try:
                with self._lock:
                    self.detectors[name].edge(pressed, self._clock())
            except Exception:
                self.errors += 1
                log.exception("button %s: edge handler failed", name)
        return on_edge

    def tick(self) -> list[tuple[str, bool]]:
        """Run every detector once; send each press to the sink. Returns the presses."""
        now = self._clock()
        with self._lock:
            found = [(name, kind == "long") for name, d in self.detectors.items()
                     if (kind := d.tick(now)) is not None]
        for name, long in found:
            try:
                self._sink(name, long)
            except Exception:
                self.errors += 1
                log.exception("button %s: press handler failed", name)
        return found

    def run(self, stop: threading.Event, interval: float = 0.005) -> None:
        """Tick every ``interval`` seconds until ``stop`` is set (a thread's target)."""
        while not stop.wait(interval):
            self.tick()

    def start(self, interval: float = 0.005) -> Callable[[], None]:
        """Tick on a daemon thread; returns a function that stops it."""
        stop = threading.Event()
        thread = threading.Thread(target=self.run, args=(stop, interval), name="buttons",
                                  daemon=True)
        thread.start()

        def halt() -> None:
            stop.set()
            thread.join(timeout=1)
        return halt

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


def queue_sink(q: queue.Queue[tuple[str, bool]]) -> Sink:
    """A sink that puts each press on ``q`` for the main loop to take."""
    return lambda name, long: q.put((name, long))


def loop_sink(loop: asyncio.AbstractEventLoop, press: Sink) -> Sink:
    """A sink that runs ``press(name, long)`` on the asyncio ``loop``'s thread."""
    return lambda name, long: loop.call_soon_threadsafe(press, name, long)
