"""The club's page in headless Chromium follows a box's game live (a real mosquitto, the
club's receiver and page, a box session playing)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web

from club.page import Changes, make_app
from club.receiver import Receiver
from club.store import ClubStore
from tests.club.broker import CLUB, READER, Broker, free_port, wait_for
from tests.club.play import script
from tests.club.test_publish import box_session, play
from tests.web.cdp import Browser


def test_the_club_page_follows_a_game_live(broker: Broker, tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    store = ClubStore(path)
    changes = Changes()
    receiver = Receiver(store, club=CLUB, url=broker.url,
                        secret=(READER, broker.passwords[READER]), on_change=changes.bump)
    receiver.start()
    wait_for(receiver.connected.is_set, 10, "the club connected")
    steps = script(30)
    session = box_session(tmp_path / "box.sqlite", broker)
    port = free_port()

    async def row(browser: Browser) -> tuple[str, str, str]:
        cells = await browser.evaluate(
            "Array.from(document.querySelectorAll('tr.box[data-box=\"box-1\"] td'))"
            ".map(td => td.innerText)")
        return (cells[1], cells[6], cells[4]) if cells else ("", "", "")

    async def until(browser: Browser, want: tuple[str, str, str]) -> None:
        while True:  # at each page update (no polling)
            version = int(await browser.evaluate("Number(document.body.dataset.version)"))
            got = await row(browser)
            if got == want:
                return
            try:
                await browser.version_after(version)
            except TimeoutError as err:
                raise AssertionError(f"the page shows {got}, not {want}") from err

    async def main() -> None:
        runner = web.AppRunner(make_app(path, changes))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with Browser() as browser:
                await browser.open(f"http://127.0.0.1:{port}/")
                for end in (10, 20, 30):
                    play(session, steps[end - 10:end])
                    current = session.ruleset.state_json(session.state)["current"]
                    await until(browser, ("online", str(len(session.log)), str(current)))
                text = await browser.text("main")
                assert "Ann, Ben, Cy, Di" in text and "gallery-grippers #1" in text
                session.close()  # the box leaves: the page says it is offline
                await until(browser, ("offline", str(len(steps)), str(current)))
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    finally:
        session.close()
        receiver.stop()
        store.close()
