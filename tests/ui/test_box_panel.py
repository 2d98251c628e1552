"""The on-screen box: the OLED mirror (every pixel) and buttons bound to keys, with a fake box;
and in `referee run`, the panel pressing the real box through its mock pins."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from textual.pilot import Pilot

from device.run import build_box
from device.watchdog import Watchdog
from referee.cli import build_parser
from tests.device.test_textart import pixels_back
from tests.ui.conftest import SIZE, keys, played
from ui.app import make_app
from ui.boxpanel import OledView, half_blocks, oled_text
from ui.run import ConsoleAndBox
from ui.screens.common import BoxScreen

# luma.oled 3.16's own display() (its set-up clear) uses Image.getdata, deprecated in Pillow 13.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


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
    assert half_blocks(None) == [" " * 128] * 32


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=1024, max_size=1024))
def test_the_compact_picture_keeps_every_pixel(raw: bytes) -> None:
    """At 80 columns the panel shows the whole OLED in 64x16 braille cells, no pixel merged
    (a 6-pixel letter stays readable)."""
    img = Image.frombytes("1", (128, 64), raw)
    small = oled_text(img, compact=True)
    assert len(small) == 16 and all(len(r) == 64 for r in small)
    assert pixels_back("\n".join(small), "braille").tobytes() == img.tobytes()


async def test_box_panel_keys_press_box_buttons_and_redraw() -> None:
    box = FakeBox()
    app = make_app(played(), box=box)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r", "o")  # resume, open the box
        assert isinstance(app.screen, BoxScreen)
        oled = app.screen.query_one(OledView)
        assert oled.compact  # 100 columns: the 64x16 picture
        marker = chr(0x2800 + 0x01 + 0x10)  # braille dots (0,0) and (1,1) of one cell
        assert str(oled.render()).splitlines()[0].startswith(marker + "\u2800")
        await keys(pilot, "r", "n", "b", "u", "m")
        assert box.presses == [("roll", False), ("next", False), ("back", False),
                               ("back", True), ("menu", False)]
        first = str(oled.render()).splitlines()[0]
        assert first.startswith("\u2800" * 5 + marker)  # the marker moved 5 cells
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


class FakeClock:
    def __init__(self) -> None:
        self.t = 500.0

    def __call__(self) -> float:
        return self.t


async def advance_until(pilot: Pilot[Any], clock: FakeClock, done: Callable[[], bool],
                        limit: float = 20.0) -> float:
    """Move the box's clock on in 5 ms steps, letting the buttons' ticker thread and the app
    run, until `done()`; returns the box's time then (a deadline, not a sleep-and-hope)."""
    end = clock.t + limit
    while not done():
        assert clock.t < end, "it never happened"
        clock.t = round(clock.t + 0.005, 6)
        await pilot.pause(0.002)
    return clock.t


async def test_the_panel_presses_the_box_through_its_mock_pins(tmp_path: Path) -> None:
    s = played()
    clock = FakeClock()
    holder: list[ConsoleAndBox] = []

    def post(fn: Callable[[], None]) -> None:
        holder[0].post_to_loop(fn)

    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory"])
    rig = build_box(args, s, post=post, say=lambda text: None, clock=clock,
                    press=lambda b, long: post(lambda: rig.box.press(b, long)))
    app = ConsoleAndBox(s, rig, Watchdog(env={}))
    holder.append(app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await keys(pilot, "r", "o")  # resume the game, open the box panel
            assert isinstance(app.screen, BoxScreen) and rig.box.view().screen == "turn"
            start = clock.t
            await keys(pilot, "u")  # UNDO: a hold of BACK
            held_at = await advance_until(pilot, clock,
                                          lambda: rig.box.view().screen == "confirm")
            assert held_at - start >= rig.buttons.pins.hold_s  # by the box's clock
            await keys(pilot, "b")  # BACK: no, nothing undone
            await advance_until(pilot, clock, lambda: not rig.presser.busy)
            await advance_until(pilot, clock, lambda: rig.box.view().screen == "turn")
            # two presses, each down and up through gpiozero's callbacks and our debounce
            assert rig.presser.done == 2 and rig.buttons.edges == 4
            assert s.log[-1].command["cmd"] == "end_turn"  # nothing was undone
            # the panel, 80 columns wide, shows the OLED in words; P: its every pixel
            await pilot.pause()
            oled = app.screen.query_one(OledView)
            assert oled.as_text and str(oled.render()) == rig.box.view().text()
            await keys(pilot, "p")
            shown = pixels_back(str(oled.render()), "braille")
            assert shown.tobytes() == app.box.render_image().tobytes()  # type: ignore[union-attr]
    finally:
        rig.close()


class WordyBox(FakeBox):
    """A box that can also say what its OLED shows (as `referee run`'s can)."""

    def view_text(self) -> str:
        return f"Ann rolls [{len(self.presses)}]\n> plain\n  airport"


async def test_at_80x24_the_box_panel_shows_the_oled_in_words_and_p_shows_the_picture() -> None:
    box = WordyBox()
    app = make_app(played(), box=box)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r", "o")  # resume, open the box
        oled = app.screen.query_one(OledView)
        assert oled.as_text
        assert str(oled.render()).splitlines() == ["Ann rolls [0]", "> plain", "  airport"]
        panel = app.screen.query_one("#box-panel")
        assert panel.region.right <= 80 and panel.region.bottom <= 24  # all of it on screen
        await keys(pilot, "r")
        assert str(oled.render()).startswith("Ann rolls [1]")  # game data, not markup
        await keys(pilot, "p")
        assert not oled.as_text and len(str(oled.render()).splitlines()) == 16  # braille


class GrowingBox(FakeBox):
    """A box whose screen opens a menu of eight items after a press (issue 24: the words
    view kept the height of the screen before and cut the menu after its first items)."""

    def view_text(self) -> str:
        if not self.presses:
            return "Round 1 A\nDraw: Ann owes 2."
        return "Act\n" + "\n".join(("> " if i == 0 else "  ") + f"item {i}" for i in range(8))


async def test_the_words_view_shows_every_option_of_a_menu_that_opens() -> None:
    box = GrowingBox()
    app = make_app(played(), box=box)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r", "o")
        oled = app.screen.query_one(OledView)
        assert oled.as_text and oled.size.height == 2
        await keys(pilot, "r")  # ROLL: the menu opens
        await pilot.pause()
        assert oled.size.height == 9  # the title and all eight items, not the first two
        assert "item 7" in str(oled.render())


def _art_in_play() -> Any:
    from tests.referee.games.art_project import test_session as art

    s = art.Session(seed=art.SEED)
    art.ok(s, **art.START)
    return s


def _gallerist_in_play() -> Any:
    from tests.ui.test_gallerist_box import in_play

    return in_play()


@pytest.mark.parametrize("start", [played, _art_in_play, _gallerist_in_play])
async def test_capital_o_opens_and_closes_the_box_as_the_key_bar_writes_it(
        start: Callable[[], Any]) -> None:
    """Issue 39: the key bar and docs/console.md write `O`; Shift+O (Textual's key "O") did
    nothing, only `o` opened the box, on every game's table."""
    app = make_app(start(), box=FakeBox())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")  # resume the game in progress
        for _ in range(2):
            if app.screen.__class__.__name__ in ("TableScreen", "ScoresScreen", "ArtTableScreen"):
                break
            await keys(pilot, "enter")  # (a word said on resuming)
        table = app.screen
        assert type(table).__name__ in ("TableScreen", "ScoresScreen", "ArtTableScreen")
        await keys(pilot, "O")
        assert isinstance(app.screen, BoxScreen), (table, app.screen)
        await keys(pilot, "O")
        assert app.screen is table


def box_plays_bypasses(s: Any, turns: int) -> None:
    """What the box's buttons send for `turns` turns: each player in turn walks onto a
    security tile, bypasses it (a verdict the box shows) and ends the turn."""
    for _ in range(turns):
        player = s.state.current_player
        who = player.name
        where = {} if player.where else {"museum": "The Louvre"}
        for request in ({"cmd": "move", "player": who, "tile": "security", "roll": 2, **where},
                        {"cmd": "bypass", "player": who, "roll": 100, "via": "typed"},
                        {"cmd": "end_turn", "player": who}):
            assert s.handle(request)["ok"], request


def after_the_bypass() -> Any:
    """Ann has bypassed her obstacle and ended her turn: Ben to move, nothing pending."""
    from referee.session import Session
    from tests.ui.conftest import SEED
    from tests.ui.test_duplicate_cards import to_the_obstacle

    s = to_the_obstacle(Session(seed=SEED))
    assert s.handle({"cmd": "bypass", "player": "Ann", "roll": 100, "via": "typed"})["ok"]
    assert s.handle({"cmd": "end_turn", "player": "Ann"})["ok"]
    return s


@pytest.mark.parametrize("panel", [True, False], ids=["on-screen panel", "real buttons"])
async def test_after_play_on_the_box_the_console_shows_the_table_not_old_verdicts(
        panel: bool) -> None:
    """Issue 42: five bypasses played on the box (its verdicts shown on the OLED) left five
    verdict dialogs stacked on the console, to dismiss one by one, its keys refused."""
    from ui.games.gallery_grippers.pending import VerdictScreen
    from ui.games.gallery_grippers.table import TableScreen

    s = after_the_bypass()
    app = make_app(s, box=FakeBox())
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")  # resume
        if panel:
            await keys(pilot, "o")
            assert isinstance(app.screen, BoxScreen)
        before = len(s.log)
        box_plays_bypasses(s, 5)
        await pilot.pause()
        if panel:
            await keys(pilot, "escape")  # close the panel
        assert not any(isinstance(screen, VerdictScreen) for screen in app.screen_stack)
        assert isinstance(app.screen, TableScreen), app.screen_stack  # the game as it is now
        assert len(s.log) == before + 15
        await keys(pilot, "r")  # the console's keys work at once: R rolls to move
        from ui.games.gallery_grippers.turn import MoveDialog

        assert isinstance(app.screen, MoveDialog)


async def test_the_consoles_own_verdict_shows_and_goes_when_the_box_moves_the_game_on() -> None:
    """A bypass sent from the console is announced there; the box's next step (the turn
    ended on its buttons) moves the game past it: the verdict goes, the table shows."""
    from referee.session import Session
    from tests.ui.conftest import SEED
    from tests.ui.test_duplicate_cards import to_the_obstacle
    from ui.games.gallery_grippers.pending import VerdictScreen
    from ui.games.gallery_grippers.table import TableScreen

    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s, box=FakeBox())
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot, "r")  # resume: Ann's obstacle
        assert app.send_request({"cmd": "bypass", "player": "Ann", "roll": 100,
                                 "via": "typed"}) is None  # as its obstacle dialog sends it
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)  # the console's own step: announced
        assert s.handle({"cmd": "end_turn", "player": "Ann"})["ok"]  # from the box
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), app.screen_stack
        await keys(pilot, "r")
        from ui.games.gallery_grippers.turn import MoveDialog

        assert isinstance(app.screen, MoveDialog)  # Ben's roll, at once
