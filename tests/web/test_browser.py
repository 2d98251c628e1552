"""The page in a real browser: headless Chromium (Debian's `chromium`, installed by .ci/run)
loads it from the console's own loop (`referee run --web`'s ConsoleAndBox, under Textual's
pilot), the game goes on through the headless protocol, and the page shows each change.
Screenshots at 360x740 and 1280x800 are compared with the references in tests/web/reference
(REFEREE_UPDATE_REFERENCES=1 rewrites them; look at them before committing)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from device.render import render
from device.run import build_box
from device.watchdog import Watchdog
from referee.app import open_session
from referee.cli import build_parser
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream
from tests.web.cdp import Browser
from tests.web.helpers import LOOPBACK, serving
from tests.whole_app import SCRIPTS, Start
from ui.run import ConsoleAndBox
from web.qr import oled_matrix
from web.server import WebServer

REFERENCE = Path(__file__).parent / "reference"
SIZES = {"phone": (360, 740, True), "laptop": (1280, 800, False)}
STREAM = long_stream(140)


async def _console_with_web(session: Any, tmp_path: Path) -> tuple[ConsoleAndBox, Any]:
    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory",
                                      "--web", f"{LOOPBACK}:0"])
    holder: list[ConsoleAndBox] = []
    rig = build_box(args, session, post=lambda fn: holder[0].post_to_loop(fn),
                    say=lambda text: None)
    app = ConsoleAndBox(session, rig, Watchdog(env={}), web=WebServer(session, LOOPBACK, 0))
    holder.append(app)
    return app, rig


def test_the_page_follows_the_game_from_the_console_loop(tmp_path: Path) -> None:
    async def main() -> None:
        session = open_session(db=tmp_path / "g.sqlite", seed=SEED)
        assert session.handle(STREAM[0])["ok"]
        app, rig = await _console_with_web(session, tmp_path)
        try:
            async with app.run_test(size=(100, 32)) as pilot, Browser() as browser:
                for _ in range(500):  # the web worker starts on the app's loop
                    if app.web is not None and app.web.live is not None:
                        break
                    await pilot.pause(0.01)
                assert app.web is not None and app.web.live is not None
                live = app.web.live
                frames: list[Any] = []
                rig.oled.watch(frames.append)  # the frame on the OLED now: the page's code
                code = oled_matrix(app.web.code_url())
                assert code is not None and rig.box.view().code == tuple(map(tuple, code))
                assert frames[-1].tobytes() == render(rig.box.view()).tobytes()
                await browser.viewport(360, 740, mobile=True)
                await browser.open(app.web.code_url())  # as a phone opens the code's address
                assert "Gallery Grippers" in await browser.text("#status")
                seen = live.version
                for request in STREAM[1:60]:
                    assert session.handle(request)["ok"], request
                    seen = await browser.version_after(seen)
                    status = await browser.text("#status")
                    assert f"{len(session.log)} commands so far" in status
                    table = await browser.text("#table")
                    for seat in live.data["seats"]:
                        assert seat["name"] in table
                        for label, value in seat["figures"]:
                            assert value in table, (label, value)
                    nxt = session.ruleset.state_json(session.state)["next"]
                    if nxt:
                        assert nxt in status
                    last = await browser.text("#log li")
                    assert last.startswith(f"#{session.log[-1].seq}")
                    verdict = live.data["verdict"]
                    if verdict is not None:
                        shown = await browser.text("#verdict")
                        assert verdict["title"] in shown
                        assert all(v in shown for _, v in verdict["terms"])
                # the page never sent the game anything: the log is what we sent
                assert len(session.log) == 60
        finally:
            rig.close()
            session.close()

    asyncio.run(main())


def test_without_the_token_the_browser_gets_404_and_the_game_goes_on() -> None:
    async def main() -> None:
        from referee.session import Session

        session = Session(seed=SEED)
        assert session.handle(STREAM[0])["ok"]
        async with serving(session) as srv, Browser() as browser:
            for url in (f"http://{LOOPBACK}:{srv.port}/",
                        f"http://{LOOPBACK}:{srv.port}/g/not-the-token/"):
                await browser.open(url)
                assert "Not found" in await browser.text("body")
            assert session.handle(STREAM[1])["ok"]
            await browser.open(srv.url())
            assert "2 commands so far" in await browser.text("#status")

    asyncio.run(main())


def _close_enough(shot: Path, reference: Path) -> float:
    """How far two screenshots are apart, 0-255, after shrinking both (fonts may hint a
    little differently from one machine to the next; a layout change moves far more)."""
    a = Image.open(shot).convert("L")
    b = Image.open(reference).convert("L")
    assert a.size == b.size
    small = (a.size[0] // 10, a.size[1] // 10)
    diff = ImageChops.difference(a.resize(small), b.resize(small))
    return float(ImageStat.Stat(diff).mean[0])


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_match_the_references(size: str, tmp_path: Path) -> None:
    width, height, mobile = SIZES[size]

    async def main() -> Path:
        session = open_session(db=tmp_path / "g.sqlite", seed=SEED)
        try:
            for request in STREAM:
                assert session.handle(request)["ok"]
            async with serving(session) as srv, Browser() as browser:
                await browser.viewport(width, height, mobile=mobile)
                await browser.open(srv.url())
                # readable at this width: nothing scrolls sideways, text is not shrunk
                assert await browser.evaluate("document.documentElement.scrollWidth") <= width
                px = await browser.evaluate("parseFloat(getComputedStyle(document.body)"
                                            ".fontSize)")
                assert px >= 16
                charts = await browser.evaluate("document.querySelectorAll('svg.chart').length")
                assert charts == sum(1 for t in srv.live.data["luck"]["tallies"] if t["rolls"])
                shot = tmp_path / f"page-{width}x{height}.png"
                await browser.screenshot(shot)
                return shot
        finally:
            session.close()

    shot = asyncio.run(main())
    reference = REFERENCE / shot.name
    if os.environ.get("REFEREE_UPDATE_REFERENCES") or not reference.exists():
        REFERENCE.mkdir(exist_ok=True)
        reference.write_bytes(shot.read_bytes())
        assert os.environ.get("REFEREE_UPDATE_REFERENCES"), f"wrote a new {reference}"
    assert _close_enough(shot, reference) < 6.0


_TOP_LINE = ("(function(){var l=document.querySelector('ol.log');"
             "for (var x of l.children) { if (x.offsetTop + x.offsetHeight > l.scrollTop)"
             " return [x.getAttribute('data-seq'), x.offsetTop - l.scrollTop]; } })()")


def test_the_log_keeps_the_readers_place_when_a_line_arrives() -> None:
    """Issue 26: a reader scrolled down into the log (newest first) still sees the same line
    at the same place after an update; one at the top sees the new line."""
    async def main() -> None:
        session = open_session(seed=SEED)
        try:
            for request in STREAM[:60]:
                assert session.handle(request)["ok"]
            async with serving(session) as srv, Browser() as browser:
                await browser.viewport(360, 740, mobile=True)
                await browser.open(srv.url())
                await browser.evaluate("document.querySelector('ol.log').scrollTop = 150")
                before = await browser.evaluate(_TOP_LINE)
                version = await browser.evaluate("Number(document.body.dataset.version)")
                assert session.handle(STREAM[60])["ok"]
                await browser.version_after(version)
                assert await browser.evaluate(_TOP_LINE) == before
                await browser.evaluate("document.querySelector('ol.log').scrollTop = 0")
                version = await browser.evaluate("Number(document.body.dataset.version)")
                assert session.handle(STREAM[61])["ok"]
                await browser.version_after(version)
                top = await browser.evaluate(_TOP_LINE)
                assert top[0] == str(len(session.log))  # the new line, in view
        finally:
            session.close()

    asyncio.run(main())


_PANEL_WIDTHS = ("JSON.stringify([...document.querySelectorAll('section, #board .panel')]"
                 ".filter(p => p.scrollWidth > p.clientWidth)"
                 ".map(p => (p.querySelector('h2, h3') || p).textContent.slice(0, 40)))")


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_games_finished_page_fits_a_phone_without_scrolling_sideways(script: str) -> None:
    """At 360 px every section and board panel of each game's page, at its end (the widest
    moment: the final scoring, the market's majorities), fits its width: nothing is hidden
    behind a sideways scroll a phone's reader would not guess at."""
    async def main() -> None:
        session = Session(seed=SEED)
        try:
            for request in Start(script, 10**6).requests():
                assert session.handle(request)["ok"], request
            async with serving(session) as srv, Browser() as browser:
                await browser.viewport(360, 740, mobile=True)
                await browser.open(srv.url())
                assert await browser.evaluate("document.documentElement.scrollWidth") <= 360
                assert json.loads(await browser.evaluate(_PANEL_WIDTHS)) == []
        finally:
            session.close()

    asyncio.run(main())
