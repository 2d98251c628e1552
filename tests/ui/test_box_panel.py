"""The on-screen box: half-block OLED mirror and buttons bound to keys, with a fake box."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from tests.ui.conftest import SIZE, keys, played
from ui.app import make_app
from ui.boxpanel import OledView, half_blocks
from ui.screens.info import BoxScreen


class FakeBox:
    """A box controller stand-in: records presses, draws a marker that moves per press."""

    def __init__(self) -> None:
        self.presses: list[tuple[str, bool]] = []
        self.listeners: list[Callable[..., None]] = []

    def press(self, button: str, long: bool) -> None:
        self.presses.append((button, long))

    def render_image(self) -> Image.Image:
        img = Image.new("1", (128, 64))
        x = 2 * len(self.presses)
        img.putpixel((x, 0), 1)  # top half of cell (x, 0)
        img.putpixel((x + 1, 1), 1)  # bottom half of the next cell
        return img

    def subscribe(self, callback: Callable[..., None]) -> Callable[[], None]:
        self.listeners.append(callback)
        return lambda: self.listeners.remove(callback)


def test_half_blocks_two_pixel_rows_per_cell() -> None:
    img = Image.new("1", (128, 64))
    for x, y in ((0, 0), (1, 1), (2, 0), (2, 1), (127, 63), (0, 3)):
        img.putpixel((x, y), 1)
    rows = half_blocks(img)
    assert len(rows) == 32 and all(len(r) == 128 for r in rows)
    assert rows[0][:4] == "▀▄█ " and rows[1][0] == "▄"
    assert rows[31][127] == "▄"
    small = half_blocks(img, scale=2)
    assert len(small) == 16 and all(len(r) == 64 for r in small)
    # a scaled pixel is lit if any of its 2x2 is: (0,0) from (0,0); (0,1) from (0,3)
    assert small[0][:3] == "█▀ "
    assert half_blocks(None) == [" " * 128] * 32


async def test_box_panel_keys_press_box_buttons_and_redraw() -> None:
    box = FakeBox()
    app = make_app(played(), box=box)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r", "o")  # resume, open the box
        assert isinstance(app.screen, BoxScreen)
        oled = app.screen.query_one(OledView)
        assert oled.compact  # 100 columns: the 64x16 picture
        assert str(oled.render()).splitlines()[0].startswith("▀ ")
        await keys(pilot, "r", "n", "b", "u", "m")
        assert box.presses == [("roll", False), ("next", False), ("back", False),
                               ("back", True), ("menu", False)]
        first = str(oled.render()).splitlines()[0]
        assert first.startswith(" " * 5 + "▀ ")  # the marker moved 5 cells
        await pilot.click("#box-button-0")  # the mouse works too
        await pilot.pause()
        assert box.presses[-1] == ("roll", False)
        for listener in box.listeners:  # the box says its picture changed
            listener()
        await pilot.pause()
        await keys(pilot, "escape")
        assert not isinstance(app.screen, BoxScreen)


async def test_wide_terminal_shows_full_size_oled() -> None:
    app = make_app(played(), box=FakeBox())
    async with app.run_test(size=(150, 45)) as pilot:
        await keys(pilot, "r", "o")
        oled = app.screen.query_one(OledView)
        assert not oled.compact
        lines = str(oled.render()).splitlines()
        assert len(lines) == 32 and len(lines[0]) == 128


async def test_no_box_says_so() -> None:
    app = make_app(played())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r", "o")
        assert not isinstance(app.screen, BoxScreen)
