"""The OLED driver: page packing equal to luma's, only changed bytes on the bus, and a display
that comes and goes without stopping the game (reliability.md fault test #7)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from device.framediff import Sh1106Pages, Ssd1306Pages, pages
from device.oled import Oled
from device.panel import PanelBus, open_simulated
from device.render import render
from device.view import BoxView
from tests.device.fakes import RecordingSerial, Sh1106Panel, Ssd1306Panel

FULL_FRAME = 6 + 1024
# luma.oled 3.16's own display() uses Image.getdata, deprecated in Pillow 13 (not our code).
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def noise(seed: int, density: float = 0.5) -> Image.Image:
    rng = random.Random(seed)
    im = Image.new("1", (128, 64))
    im.putdata([1 if rng.random() < density else 0 for _ in range(128 * 64)])
    return im


def turn(value: str, source: str = "electronic") -> Image.Image:
    return render(BoxView("turn", title="P1 T3", big=value, source=source,
                          lines=("$300M", "Louvre", "art 1 -35%", "cards 2+3"), strikes=1,
                          hint="ROLL:move MENU:more"))


def test_page_packing_matches_luma_s_own_ssd1306_frame() -> None:
    serial = RecordingSerial()
    dev = ssd1306(serial)
    for seed in range(3):
        im = noise(seed)
        mark = len(serial.writes)
        dev.display(im)
        luma_data = [b for kind, bs in serial.writes[mark:] if kind == "d" for b in bs]
        assert b"".join(pages(im)) == bytes(luma_data)
        assert serial.since(mark) == FULL_FRAME


@pytest.mark.parametrize(("chip", "strategy", "panel"), [
    (ssd1306, Ssd1306Pages, Ssd1306Panel), (sh1106, Sh1106Pages, Sh1106Panel)])
def test_partial_updates_leave_the_panel_showing_exactly_the_frame(chip, strategy,
                                                                   panel) -> None:
    serial = RecordingSerial()
    dev = chip(serial)
    mark = len(serial.writes)  # after luma's set-up
    s = strategy()
    screen = panel()
    frames = [noise(1), noise(1), turn("4"), turn("6"), turn("6", "kept"), noise(2, 0.1),
              turn("100")]
    for im in frames:
        s.send(dev, im)
        screen.feed(serial.writes[mark:])
        mark = len(serial.writes)
        assert screen.image().tobytes() == im.tobytes()


def test_an_identical_frame_sends_nothing_and_a_roll_update_is_five_times_smaller() -> None:
    serial = RecordingSerial()
    dev = ssd1306(serial)
    s = Ssd1306Pages()
    assert s.send(dev, turn("4")) == FULL_FRAME  # the first frame goes whole
    mark = len(serial.writes)
    assert s.send(dev, turn("4")) == 0
    assert serial.since(mark) == 0
    sent = s.send(dev, turn("6"))
    assert sent == serial.since(mark)  # the strategy's count is what the bus saw
    assert 0 < sent * 5 <= FULL_FRAME, sent


def test_sh1106_rotated_180_degrees_is_packed_after_rotation() -> None:
    serial = RecordingSerial()
    dev = sh1106(serial, rotate=2)
    mark = len(serial.writes)
    s = Sh1106Pages()
    im = turn("5")
    s.send(dev, im)
    screen = Sh1106Panel()
    screen.feed(serial.writes[mark:])
    assert screen.image().tobytes() == im.rotate(180).tobytes()


def make_oled(clock: Clock, serials: list[RecordingSerial], **kw) -> Oled:
    def opener():
        serial = serials.pop(0)
        if isinstance(serial, BaseException):
            raise serial
        return ssd1306(serial)
    return Oled(opener, strategy=Ssd1306Pages(), clock=clock, notify=lambda m: None, **kw)


def test_a_bus_error_mid_game_degrades_and_the_display_reopens_with_backoff() -> None:
    from device.box import BoxController
    from referee.session import Session

    clock = Clock()
    first = RecordingSerial()
    broken = RecordingSerial(fail_after=0, errno=121)
    later = RecordingSerial()
    serials = [first, DeviceNotFoundError("gone"), broken, later]
    messages: list[str] = []
    oled = make_oled(clock, serials, dim_after=None, shift_every=None, backoff=(1.0, 8.0))
    oled._notify = messages.append
    box = BoxController(Session(seed=bytes(32)), clock=clock)
    box.subscribe(lambda v: oled.show(render(v)))
    assert oled.open()
    box.press("ROLL")  # new game: frame sent
    assert oled.frames == 1
    first.fail_after = 0  # the bus dies
    box.press("NEXT")
    assert not oled.present and "errno 121" in messages[-1]
    assert oled.retry_at == 1.0
    box.press("NEXT")  # the game goes on without the display
    box.press("ROLL")  # turn order rolled
    assert box.session.state.phase.value == "playing"
    clock.t = 1.0
    oled.tick()  # first retry: the display is not found; the wait doubles
    assert not oled.present and oled.retry_at == 3.0
    clock.t = 3.0
    oled.tick()  # opens, but the bus fails on the first frame
    assert not oled.present and oled.retry_at == 3.0 + 4.0
    clock.t = 5.0
    box.tick()  # the turn-order notice expires; the display is still away
    assert not oled.present
    clock.t = 7.0
    sent = oled.tick()  # back: the current frame goes whole
    assert oled.present and sent == FULL_FRAME
    panel = Ssd1306Panel()
    panel.feed(later.writes)
    assert panel.image().tobytes() == render(box.view()).tobytes()
    assert messages[-1] == "OLED back"


def test_backoff_is_capped() -> None:
    clock = Clock()
    oled = make_oled(clock, [DeviceNotFoundError("no")] * 10, backoff=(1.0, 8.0))
    waits = []
    for _ in range(6):
        clock.t = oled.retry_at
        oled.tick() if oled.failures else oled.open()
        waits.append(oled.retry_at - clock.t)
    assert waits == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


def test_dims_after_idle_wakes_on_a_press_and_shifts_a_static_frame() -> None:
    clock = Clock()
    serial = RecordingSerial()
    oled = make_oled(clock, [serial], dim_after=60, shift_every=300, contrast=0xCF,
                     dim_contrast=0x10)
    oled.open()
    oled.show(turn("3"))
    clock.t = 59
    oled.tick()
    assert serial.commands[-1] != (0x81, 0x10)
    clock.t = 60
    oled.tick()
    assert serial.commands[-1] == (0x81, 0x10)  # SETCONTRAST, dim
    oled.wake()
    assert serial.commands[-1] == (0x81, 0xCF)
    clock.t = 300
    mark = len(serial.writes)
    assert oled.tick() > 0  # moved by a pixel
    panel = Ssd1306Panel()
    panel.feed([("c", [0x21, 0, 127, 0x22, 0, 7]), ("d", list(b"".join(pages(turn("3")))))])
    panel.feed(serial.writes[mark:])
    shifted = Image.new("1", (128, 64))
    shifted.paste(turn("3"), (1, 0))
    assert panel.image().tobytes() == shifted.tobytes()


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@settings(max_examples=25, deadline=None)
@given(seeds=st.lists(st.integers(0, 50), min_size=1, max_size=6),
       rotate=st.sampled_from([0, 2]))
def test_the_emulated_chip_shows_what_luma_and_the_page_diff_sent(chip: str, seeds: list[int],
                                                                   rotate: int) -> None:
    """luma's own whole-frame display() is the reference for the emulated chip; the page diff
    on top of it must leave the glass showing every frame exactly."""
    dev = open_simulated(chip, rotate)
    assert dev.glass().tobytes() == Image.new("1", (128, 64)).tobytes()  # luma cleared it
    frames = [noise(x, 0.05 * (x % 10)) if x % 3 else turn(str(x)) for x in seeds]
    dev.display(frames[0])  # luma's own whole frame
    assert dev.glass().tobytes() == frames[0].tobytes()
    strategy = Ssd1306Pages() if chip == "ssd1306" else Sh1106Pages()
    for im in frames:
        strategy.send(dev, im)
        assert dev.glass().tobytes() == im.tobytes()


def test_the_emulated_chip_agrees_with_the_recorded_bytes_reference() -> None:
    """The emulator and the tests' own panel model read the same bytes the same way."""
    serial = RecordingSerial()
    bus = PanelBus("ssd1306")
    for target in (serial, bus):
        dev = ssd1306(target)
        s = Ssd1306Pages()
        for im in (turn("4"), noise(3, 0.2), turn("6")):
            s.send(dev, im)
    reference = Ssd1306Panel()
    reference.feed(serial.writes)
    assert bus.glass().tobytes() == reference.image().tobytes() == turn("6").tobytes()
    assert bus.data_bytes == sum(len(b) for k, b in serial.writes if k == "d")


def test_observers_see_the_glass_and_one_added_late_gets_the_current_frame_at_once() -> None:
    seen: list[Image.Image] = []
    dev_box: list = []

    def opener():
        dev_box.append(open_simulated("ssd1306"))
        return dev_box[-1]

    oled = Oled(opener, strategy=Ssd1306Pages(), clock=Clock(), notify=lambda m: None)
    oled.open()
    oled.show(turn("2"))
    oled.show(turn("2"))
    late: list[Image.Image] = []
    oled.watch(late.append)  # added after the frame went out: it still sees it, once
    assert [im.tobytes() for im in late] == [turn("2").tobytes()]
    oled.watch(seen.append)
    assert turn("5").getpixel((127, 63)) == 0
    dev_box[-1].bus.ram[7][127] = 0xFF  # a stray byte on the chip: the observers see it
    oled.show(turn("5"))
    assert oled.frames == 2 and len(late) == 2
    assert seen[-1].tobytes() != turn("5").tobytes()  # what the panel shows, not the wish
    assert seen[-1].getpixel((127, 63)) == 1


def test_a_mirror_that_fails_does_not_stop_the_display() -> None:
    oled = Oled(lambda: open_simulated("sh1106"), strategy=Sh1106Pages(), clock=Clock(),
                notify=lambda m: None)
    oled.open()

    def broken(image: Image.Image) -> None:
        raise OSError(28, "No space left on device")

    oled.watch(broken)
    assert oled.show(turn("3")) > 0
    assert oled.device.glass().tobytes() == turn("3").tobytes()
