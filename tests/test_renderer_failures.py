"""No exception in a renderer stops a game (issue 22, item 2): the OLED's render, the box's
screens, the console's box panel, the phone page, the exports and `referee report` are each
made to raise; the part that failed shows a placeholder and says what failed (logged once),
and the box, the console, the store and the other front ends go on."""

from __future__ import annotations

import asyncio
import logging
import queue
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

import device.render
from device.box import BoxController
from device.run import build_box, main_loop
from device.watchdog import Watchdog
from referee.app import open_session
from referee.cli import build_parser
from referee.cli import main as referee_main
from tests.ui.conftest import SEED, SIZE, keys, played
from tests.ui.test_run import rig_for
from tests.web.helpers import serving

BROKEN = "injected: this cannot be drawn"


def boom(*_: Any, **__: Any) -> Any:
    raise RuntimeError(BROKEN)


def stored(tmp_path: Path) -> Path:
    """A game file with a game in progress (Ann's turn, not yet moved)."""
    db = tmp_path / "games.sqlite"
    s = open_session(db=db, seed=SEED, notify=lambda _: None)
    played(s)
    s.close()
    return db


def failures(caplog: pytest.LogCaptureFixture, what: str) -> int:
    return sum(1 for r in caplog.records if r.levelno >= logging.ERROR and what in r.getMessage())


def frames(directory: Path) -> list[Image.Image]:
    return [Image.open(p) for p in sorted(directory.glob("frame-*.png"))]


def test_the_box_resumes_and_plays_on_when_its_screen_cannot_be_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """`referee box`: build_box and its main loop, on a game file, with render raising."""
    db = stored(tmp_path)
    monkeypatch.setattr(device.render, "render", boom)
    args = build_parser().parse_args(["box", "--hardware", "sim", "--db", str(db),
                                      "--oled-png", str(tmp_path / "frames")])
    session = open_session(db=db, notify=lambda _: None)
    presses: queue.Queue[Any] = queue.Queue()
    rig = build_box(args, session, post=presses.put, say=lambda _: None,
                    press=lambda b, long: presses.put((b, long)))
    try:
        before = len(session.log)
        for item in (("ROLL", False), ("NEXT", False), ("BACK", False), None):
            presses.put(item)
        assert main_loop(rig.box, rig.oled, presses, clock=rig.clock) == 0
        assert session.log[before].command["cmd"] == "move_roll"  # the box's ROLL played
    finally:
        rig.close()
        session.close()
    shown = frames(tmp_path / "frames")
    expected = device.render.error_frame(f"RuntimeError: {BROKEN}")
    assert shown and all(f.convert("1").tobytes() == expected.tobytes() for f in shown)
    assert failures(caplog, "drawing the box's screen failed") == 1  # once, not per frame
    # and the game on the file is whole: it resumes, with the box's roll
    again = open_session(db=db, notify=lambda _: None)
    try:
        assert again.log[before].command["cmd"] == "move_roll"
    finally:
        again.close()


def test_a_screen_that_cannot_be_built_says_so_and_the_buttons_still_work(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    s = played()
    box = BoxController(s, clock=lambda: 0.0)
    seen: list[Any] = []
    box.subscribe(seen.append)
    monkeypatch.setattr(BoxController, "_view", boom)
    with pytest.raises(RuntimeError):
        box.view()  # (tests see the failure itself)
    view = box.safe_view()
    assert view.screen == "error" and BROKEN[:10] in " ".join(view.lines)
    before = len(s.log)
    box.press("ROLL")
    box.press("NEXT")
    assert s.log[before].command["cmd"] == "move_roll"
    assert seen and seen[-1].screen == "error"
    assert failures(caplog, "building the box's screen failed") == 1
    monkeypatch.undo()
    box.press("BACK")
    assert box.safe_view().screen != "error"  # drawn again once it can be


def test_the_console_and_its_box_panel_go_on_when_the_oled_cannot_be_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = stored(tmp_path)
    monkeypatch.setattr(device.render, "render", boom)
    s = open_session(db=db, notify=lambda _: None)  # `referee run` restarted on its file
    try:
        asyncio.run(console_with_a_broken_oled(s, tmp_path))
    finally:
        s.close()


async def console_with_a_broken_oled(s: Any, tmp_path: Path) -> None:
    """`referee run`: the console resumes the game, the box panel shows the error frame,
    the box's buttons and the console's keys both still play."""
    from ui.games.gallery_grippers.turn import TileDialog
    from ui.run import ConsoleAndBox
    from ui.screens.common import BoxScreen

    holder: list[ConsoleAndBox] = []
    rig = rig_for(s, tmp_path, holder)  # as `referee run` builds it
    app = ConsoleAndBox(s, rig, Watchdog(env={}))
    holder.append(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await keys(pilot, "r")  # resume the game in progress
            await keys(pilot, "o")  # the box panel
            assert isinstance(app.screen, BoxScreen)
            assert app.box is not None
            image = app.box.render_image()
            expected = device.render.error_frame(f"RuntimeError: {BROKEN}")
            assert image.tobytes() == expected.tobytes()
            await keys(pilot, "r")  # the box's ROLL, through its mock pin
            for _ in range(1000):  # a deadline for the button's ticker thread
                if s.log[-1].command["cmd"] == "move_roll":
                    break
                await pilot.pause(0.01)
            assert s.log[-1].command["cmd"] == "move_roll"
            await keys(pilot, "escape")
            assert isinstance(app.screen, TileDialog)  # the console goes on
            await keys(pilot, "enter")
            assert s.log[-1].command["cmd"] == "move"
            assert app.is_running
    finally:
        rig.close()


def test_the_box_panel_says_in_words_what_it_cannot_draw() -> None:
    asyncio.run(panel_with_a_broken_picture())


async def panel_with_a_broken_picture() -> None:
    from textual.app import App, ComposeResult

    from ui.boxpanel import BoxPanel, OledView

    presses: list[tuple[str, bool]] = []

    class Panel(App[None]):
        def compose(self) -> ComposeResult:
            yield BoxPanel(boom, lambda b, long: presses.append((b, long)), compact=False)

    app = Panel()
    async with app.run_test(size=(160, 50)) as pilot:
        shown = str(app.query_one(OledView).render())
        assert "cannot be drawn" in shown and BROKEN in shown
        await keys(pilot, "r")
        assert presses == [("roll", False)]  # the buttons still press


def test_the_page_is_a_500_and_an_error_section_while_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from web import page

    async def main() -> None:
        s = played()
        drawn = page.body
        monkeypatch.setattr(page, "body", boom)
        async with serving(s) as srv, aiohttp.ClientSession() as http:
            assert srv.live is not None and srv.live.error is not None
            async with http.get(srv.url()) as resp:
                assert resp.status == 500
                assert "cannot be drawn" in await resp.text()
            async with http.get(srv.url() + "state.json") as resp:
                assert resp.status == 500 and BROKEN in (await resp.json())["error"]
            assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 3})["ok"]
            monkeypatch.setattr(page, "body", drawn)
            version = srv.live.version
            for _ in range(1000):  # the refresh is posted to the loop
                if srv.live.version != version:
                    break
                await asyncio.sleep(0)
            assert srv.live.error is None
            async with http.get(srv.url()) as resp:
                assert resp.status == 200

    asyncio.run(main())


def test_an_export_that_cannot_be_made_is_one_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import referee.export

    db = stored(tmp_path)
    monkeypatch.setattr(referee.export, "csv_text", boom)
    assert referee_main(["export", "1", "--db", str(db), "--format", "csv"]) == 2
    err = capsys.readouterr().err
    assert "cannot be exported as csv" in err and BROKEN in err
    out = tmp_path / "game.jsonl"
    assert referee_main(["export", "1", "--db", str(db), "-o", str(out)]) == 0  # the rest works
    assert out.read_text(encoding="utf-8").startswith("{")


def test_a_report_that_cannot_be_drawn_is_one_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import web.report

    db = stored(tmp_path)
    monkeypatch.setattr(web.report, "png", boom)
    picture = tmp_path / "luck.png"
    assert referee_main(["report", "1", "--db", str(db), "--png", str(picture)]) == 1
    said = capsys.readouterr()
    assert "Luck in game 1" in said.out  # the text report was still given
    assert "charts cannot be drawn" in said.err and BROKEN in said.err
    monkeypatch.setattr(web.report, "text", boom)
    assert referee_main(["report", "1", "--db", str(db)]) == 1
    assert "report cannot be drawn" in capsys.readouterr().err


def test_a_mirror_that_fails_on_every_frame_is_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    from device.framediff import Sh1106Pages
    from device.oled import Oled
    from device.panel import open_simulated
    from device.render import render
    from device.view import BoxView

    oled = Oled(lambda: open_simulated("sh1106"), strategy=Sh1106Pages(),
                notify=lambda _: None)
    oled.open()
    oled.watch(boom)
    for n in range(5):
        image = render(BoxView("turn", title=f"T{n}"))
        assert oled.show(image) > 0  # the display goes on
        assert oled.device.glass().tobytes() == image.tobytes()
    assert failures(caplog, "an OLED frame observer") == 1
