"""The OLED: a luma.oled device behind a frame-diff strategy, that degrades instead of dying.

``Oled`` takes an *opener* (a function that builds the luma device: ``ssd1306``/``sh1106`` on
I2C on a Pi; in simulation the same luma device on an emulated chip, ``device.panel``) chosen
once at start-up by ``device.hardware``. Both go through the same frame-diff strategy.

- Missing display: opening raises ``luma.core.error.DeviceNotFoundError`` /
  ``DevicePermissionError`` (or an ``OSError`` from the set-up commands when nothing answers
  at the address). A dead bus: a write raises a plain ``OSError`` (errno 121 or 5) or, from
  luma's I2C interface, luma's ``DeviceNotFoundError`` (``bus_errors``). Either
  way the box goes on with "no display" and retries with a capped exponential backoff, judged
  by the injected clock; the last frame is sent whole when the display is back.
- Burn-in: after ``dim_after`` seconds with no ``wake()`` the contrast drops; a static frame is
  moved by a pixel every ``shift_every`` seconds (an orbit of four positions).
- Time: ``tick()`` does what is due (a retry, dimming, a shift); ``next_due()`` says when the
  next of those is, so the main loop sleeps until then instead of ticking on a period.
- ``watch(observer)`` shows each frame that reached the display to ``observer`` (the PNG
  mirror, the terminal's text art), starting with the one on the display now. What it sees is
  the panel's own picture when the device can show it (``device.glass()``: the simulated chip,
  read back from the bytes it was sent), else the frame sent.
- ``DisplayThread`` runs an ``Oled`` on a thread of its own, so that the bus's writes (a whole
  frame is 1,030 bytes: about 25 ms at I2C's 400 kHz, 100 ms at 100 kHz) and a dead bus's
  errors never hold up the loop that renders the frames (``referee run``: the console's).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from device.framediff import FrameStrategy
from device.render import OnceLog
from referee.lazylog import Logger

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

Opener = Callable[[], Any]
ORBIT = ((0, 0), (1, 0), (1, 1), (0, 1))


def open_errors() -> tuple[type[BaseException], ...]:
    """What opening a luma device raises when the display is missing or not ours."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError

    return (DeviceNotFoundError, DevicePermissionError, OSError)


def bus_errors() -> tuple[type[BaseException], ...]:
    """What writing to the display raises when the bus dies: a plain ``OSError``, or luma's
    own errors (its I2C interface turns EIO / EREMOTEIO into ``DeviceNotFoundError``)."""
    from luma.core.error import Error

    return (Error, OSError)


def _why(err: BaseException) -> str:
    if isinstance(err, OSError) and err.errno is not None:
        return f"errno {err.errno}: {err.strerror or err}"
    return f"{type(err).__name__}: {err}"


class Oled:
    """One display, with reconnection, burn-in care and only-what-changed updates.

    Args:
        opener: builds and initialises the luma device (may raise the errors above).
        strategy: the frame-diff strategy matching the chip (``device.framediff``).
        clock: monotonic seconds (tests inject a fake one).
        notify: tells the table what happened to the display (a log line, a console line).
        contrast / dim_contrast: normal and dimmed levels (0-255).
        dim_after / shift_every: seconds; None turns the feature off.
        backoff: first and longest wait between attempts to re-open, in seconds.
    """

    def __init__(self, opener: Opener, *, strategy: FrameStrategy,
                 clock: Callable[[], float] = time.monotonic,
                 notify: Callable[[str], None] = log.warning, contrast: int = 0xCF,
                 dim_contrast: int = 0x10, dim_after: float | None = 60.0,
                 shift_every: float | None = 300.0,
                 backoff: tuple[float, float] = (1.0, 60.0)) -> None:
        for name, level in (("contrast", contrast), ("dim_contrast", dim_contrast)):
            if not 0 <= level <= 255:
                raise ValueError(f"{name} must be 0-255, not {level}")
        self._opener, self.strategy, self._clock, self._notify = opener, strategy, clock, notify
        self.contrast, self.dim_contrast = contrast, dim_contrast
        self.dim_after, self.shift_every = dim_after, shift_every
        self._backoff_first, self._backoff_cap = backoff
        self.device: Any = None
        self.failures = 0  # consecutive failed attempts
        self.retry_at = 0.0
        self.frames = 0  # frames that reached the display
        self.bytes_sent = 0
        self.on_frame: list[Callable[[Image.Image], None]] = []
        self._observer_failures = OnceLog(log, "an OLED frame observer (a mirror)")
        self._image: Image.Image | None = None  # the frame the box wants shown
        self._seen: Image.Image | None = None  # what the last frame sent put on the panel
        self._static_since = clock()
        self._active_at = clock()
        self._dimmed = False
        self._shift = 0

    @property
    def present(self) -> bool:
        return self.device is not None

    # ---- the API ---------------------------------------------------------------------------
    def open(self) -> bool:
        """Try to open the display now; False (and a retry scheduled) if it is not there."""
        try:
            device = self._opener()
        except open_errors() as err:
            self._lost(f"OLED not available ({type(err).__name__}: {err})")
            return False
        self.device = device
        self.strategy.reset()
        self._dimmed = False
        if self.failures:
            self._notify("OLED back")
        self.failures = 0
        try:
            device.contrast(self.contrast)
        except bus_errors() as err:
            self._lost(f"OLED bus error ({_why(err)})")
            return False
        return True

    def show(self, image: Image.Image) -> int:
        """Show ``image`` (mode "1", 128x64); returns the bytes sent (0: unchanged or absent)."""
        if self._image is None or image.tobytes() != self._image.tobytes():
            self._image = image
            self._static_since = self._clock()
            self._shift = 0
        return self._send()

    def watch(self, observer: Callable[[Image.Image], None]) -> None:
        """Show ``observer`` every frame that reaches the display from now on, and at once the
        one the display shows already (an observer added late misses nothing)."""
        self.on_frame.append(observer)
        if self._seen is not None:
            self._tell(observer, self._seen)

    def wake(self) -> None:
        """Someone pressed a button: full brightness again."""
        self._active_at = self._clock()
        if self._dimmed and self.present:
            self._set_contrast(self.contrast)
            self._dimmed = False

    def tick(self) -> int:
        """Retry a missing display, dim when idle, shift a static frame. Returns bytes sent."""
        now = self._clock()
        if not self.present:
            if now < self.retry_at or not self.open():
                return 0
            return self._send()
        if (self.dim_after is not None and not self._dimmed
                and now - self._active_at >= self.dim_after):
            self._set_contrast(self.dim_contrast)
            self._dimmed = True
        if (self.shift_every is not None and self._image is not None
                and now - self._static_since >= self.shift_every):
            self._static_since = now
            self._shift = (self._shift + 1) % len(ORBIT)
            return self._send()
        return 0

    def next_due(self) -> float | None:
        """When ``tick`` next has something to do (by the clock): the retry of a missing
        display, dimming, the next shift of a static frame; None: nothing until a call."""
        if not self.present:
            return self.retry_at
        due: list[float] = []
        if self.dim_after is not None and not self._dimmed:
            due.append(self._active_at + self.dim_after)
        if self.shift_every is not None and self._image is not None:
            due.append(self._static_since + self.shift_every)
        return min(due, default=None)

    def close(self) -> None:
        if self.device is not None:
            try:
                self.device.cleanup()
            except Exception:  # the bus may already be gone
                log.debug("OLED cleanup failed", exc_info=True)
        self.device = None

    # ---- inside ----------------------------------------------------------------------------
    def _frame(self) -> Image.Image | None:
        if self._image is None:
            return None
        dx, dy = ORBIT[self._shift]
        if (dx, dy) == (0, 0):
            return self._image
        moved = Image.new(self._image.mode, self._image.size, 0)
        moved.paste(self._image, (dx, dy))
        return moved

    def _send(self) -> int:
        frame = self._frame()
        if frame is None:
            return 0
        if not self.present and (self._clock() < self.retry_at or not self.open()):
            return 0
        try:
            sent = self.strategy.send(self.device, frame)
        except bus_errors() as err:
            self._lost(f"OLED bus error ({_why(err)})")
            return 0
        if sent:
            self.frames += 1
            self.bytes_sent += sent
            glass = getattr(self.device, "glass", None)
            self._seen = glass() if glass is not None else frame
            for observer in list(self.on_frame):
                self._tell(observer, self._seen)
        return sent

    def _tell(self, observer: Callable[[Image.Image], None], image: Image.Image) -> None:
        try:
            observer(image)
        except Exception as err:  # a mirror must not stop the display (logged once)
            self._observer_failures.failed(err)

    def _set_contrast(self, level: int) -> None:
        try:
            self.device.contrast(level)
        except bus_errors() as err:
            self._lost(f"OLED bus error ({_why(err)})")

    def _lost(self, why: str) -> None:
        if self.device is not None:
            try:
                self.device._serial_interface.cleanup()
            except Exception:  # closing a dead bus may fail too
                log.debug("closing the OLED bus failed", exc_info=True)
        self.device = None
        self.failures += 1
        wait = min(self._backoff_cap, self._backoff_first * 2 ** (self.failures - 1))
        self.retry_at = self._clock() + wait
        self._notify(f"{why}; the game goes on, retrying in {wait:g} s")


class DisplayThread:
    """An ``Oled`` driven from a thread of its own, with the same calls as an ``Oled`` for
    the loop that renders the frames.

    ``show(image)`` puts the frame in a one-slot mailbox and returns at once: the thread
    diffs it against the panel and writes the bus. A frame replaced in the mailbox before
    the thread took it is skipped (only the newest matters); frames go out in the order
    they were shown, never an older one after a newer. ``wake()`` and ``tick()`` are
    handed over the same way. A dead bus is the ``Oled``'s business, on the thread: the
    error is said, the display is re-opened with the same backoff, and the newest frame
    goes whole when it is back. ``next_due()`` is the ``Oled``'s deadline as the thread
    last left it; when the thread changes it (a failure schedules a retry, a frame starts
    the burn-in clock), ``on_due`` is called, from the thread, so the loop can re-arm its
    timer (``referee run`` posts it to its loop).

    With nothing to do the thread waits on a condition, with no timeout: an idle box wakes
    nobody. ``flush()`` waits until everything handed over has been done (tests, closing).
    Open the ``Oled`` and add its observers (``watch``) before ``start()``.
    """

    def __init__(self, oled: Oled, *, on_due: Callable[[], None] | None = None) -> None:
        self.oled = oled
        self.on_due = on_due
        self._cond = threading.Condition()
        self._frame: Image.Image | None = None
        self._wake = self._tick = self._closing = False
        self._busy = False
        self._due = oled.next_due()
        self.skipped = 0  # frames replaced in the mailbox before they were sent
        self._failures = OnceLog(log, "the OLED's thread, on a frame (it goes on)")
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)

    # ---- the loop's side ----------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def show(self, image: Image.Image) -> int:
        """Hand ``image`` to the thread; 0 bytes sent *here* (the thread sends them)."""
        with self._cond:
            if self._frame is not None:
                self.skipped += 1
            self._frame = image
            self._cond.notify_all()
        return 0

    def wake(self) -> None:
        with self._cond:
            self._wake = True
            self._cond.notify_all()

    def tick(self) -> int:
        with self._cond:
            self._tick = True
            self._cond.notify_all()
        return 0

    def next_due(self) -> float | None:
        return self._due

    def watch(self, observer: Callable[[Image.Image], None]) -> None:
        """Before ``start()`` only (the observers are called on the thread)."""
        if self._thread.is_alive():
            raise RuntimeError("add the display's observers before its thread starts")
        self.oled.watch(observer)

    @property
    def present(self) -> bool:
        return self.oled.present

    @property
    def frames(self) -> int:
        return self.oled.frames

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the thread has done everything handed to it; False on timeout."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._thread.is_alive() or not (
                    self._busy or self._frame is not None or self._wake or self._tick),
                timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Stop the thread (after what it is writing now) and close the display. A thread
        stuck on a hung bus is left behind after `timeout` (it is a daemon)."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():
            self.oled.close()

    # ---- the thread ---------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()  # flush() waits for this
                self._cond.wait_for(lambda: self._closing or self._wake or self._tick
                                    or self._frame is not None)
                if self._closing:
                    return
                frame, self._frame = self._frame, None
                wake, tick = self._wake, self._tick
                self._wake = self._tick = False
                self._busy = True
            before = self._due
            try:
                if wake:
                    self.oled.wake()
                if frame is not None:
                    self.oled.show(frame)
                if tick:
                    self.oled.tick()
            except Exception as err:  # a bug, not the bus (the Oled takes the bus's errors)
                self._failures.failed(err)
            self._due = self.oled.next_due()
            if self._due != before and self.on_due is not None:
                try:
                    self.on_due()
                except Exception:
                    log.exception("telling the loop of the OLED's next deadline failed")
