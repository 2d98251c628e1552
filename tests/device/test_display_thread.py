"""The OLED on its own thread (`device.oled.DisplayThread`): the loop that renders frames never
waits for the bus, a slow or dead bus is handled on the thread, the newest frame always lands,
frames never go out of order, and an idle display waits without a timeout (issue 15)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from luma.core.error import DeviceNotFoundError
from PIL import Image

from device.framediff import Ssd1306Pages
from device.oled import DisplayThread, Oled
from device.panel import open_simulated
from tests.device.test_oled import Clock, noise, turn

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
DEADLINE = 30.0  # seconds: a deadline for the thread, never a sleep


class Gate:
    """Holds the simulated bus's data writes while closed: a slow bus, as slow as a test
    wants. `entered` is set once a write is waiting at the gate."""

    def __init__(self, device: Any) -> None:
        self.open = threading.Event()
        self.open.set()
        self.entered = threading.Event()
        self.fail: BaseException | None = None
        bus = device.bus
        real = bus.data

        def data(values: list[int]) -> None:
            if not self.open.is_set():
                self.entered.set()
                assert self.open.wait(DEADLINE)
            if self.fail is not None:
                raise self.fail
            real(values)

        bus.data = data


def rig(clock: Clock | None = None, **kw: Any) -> tuple[DisplayThread, list[Any], list[str]]:
    devices: list[Any] = []
    said: list[str] = []

    def opener() -> Any:
        device = open_simulated("ssd1306")
        devices.append(device)
        return device

    oled = Oled(opener, strategy=Ssd1306Pages(), clock=clock or Clock(), notify=said.append,
                dim_after=None, shift_every=None, **kw)
    assert oled.open()
    return DisplayThread(oled), devices, said


def test_a_slow_bus_holds_only_the_thread_and_the_newest_frame_lands() -> None:
    display, devices, _ = rig()
    seen: list[bytes] = []
    display.watch(lambda im: seen.append(im.tobytes()))  # what reached the glass, in order
    gate = Gate(devices[0])
    display.start()
    try:
        frames = [turn(str(n)) for n in range(1, 6)]
        gate.open.clear()  # the bus is stuck in the middle of the first frame
        display.show(frames[0])
        assert gate.entered.wait(DEADLINE)
        for frame in frames[1:]:  # the loop goes on rendering: none of these waits
            assert display.show(frame) == 0
        assert not gate.open.is_set()  # (the bus is still stuck: they returned without it)
        gate.open.set()
        assert display.flush(DEADLINE)
        assert devices[0].glass().tobytes() == frames[-1].tobytes()
        assert seen == [frames[0].tobytes(), frames[-1].tobytes()]  # in order, none stale
        assert display.skipped == 3 and display.frames == 2
    finally:
        display.close()


@pytest.mark.parametrize("error", [OSError(121, "Remote I/O error"),
                                   DeviceNotFoundError("I2C device not found on address: 0x3C")],
                         ids=["OSError", "luma"])
def test_a_dead_bus_is_handled_on_the_thread_and_the_newest_frame_lands_when_back(
        error: BaseException) -> None:
    clock = Clock()
    display, devices, said = rig(clock, backoff=(1.0, 8.0))
    due: list[float | None] = []
    display.on_due = lambda: due.append(display.next_due())  # the loop re-arms its timer
    gate = Gate(devices[0])
    display.start()
    try:
        display.show(turn("1"))
        assert display.flush(DEADLINE)
        gate.fail = error  # the bus dies
        display.show(turn("2"))
        assert display.flush(DEADLINE)
        assert not display.present and "OLED bus error" in said[-1]
        assert display.next_due() == 1.0 and due[-1] == 1.0  # a retry, with the backoff
        display.show(turn("3"))  # the game goes on without the display
        clock.t = 1.0
        display.tick()  # the loop's timer at the retry: the display is back
        assert display.flush(DEADLINE)
        assert display.present and said[-1] == "OLED back"
        assert devices[-1].glass().tobytes() == turn("3").tobytes()
    finally:
        display.close()


class CountingCondition(threading.Condition):
    """Records the timeout of every wait of the display's thread (None: until notified)."""

    def __init__(self) -> None:
        super().__init__()
        self.timeouts: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        if threading.current_thread().name == "oled":  # (flush() waits with a deadline)
            self.timeouts.append(timeout)
        return super().wait(timeout)


def test_an_idle_display_thread_waits_without_a_timeout() -> None:
    display, _, _ = rig()
    cond = CountingCondition()
    display._cond = cond
    display.start()
    try:
        for n in range(3):
            display.show(noise(n))
            display.wake()
            display.tick()
            assert display.flush(DEADLINE)
    finally:
        display.close()
    assert cond.timeouts and set(cond.timeouts) == {None}, cond.timeouts


def test_observers_are_added_before_the_thread_starts() -> None:
    display, _, _ = rig()
    display.start()
    try:
        with pytest.raises(RuntimeError):
            display.watch(lambda im: None)
    finally:
        display.close()


def test_frames_shown_in_a_burst_from_many_renders_end_on_the_last() -> None:
    display, devices, _ = rig()
    display.start()
    try:
        last = Image.new("1", (128, 64))
        for n in range(50):
            last = noise(n, 0.2)
            display.show(last)
        assert display.flush(DEADLINE)
        assert devices[0].glass().tobytes() == last.tobytes()
        assert display.frames + display.skipped == 50
    finally:
        display.close()
