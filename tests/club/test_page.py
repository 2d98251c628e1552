"""The club's page in headless Chromium follows a box's game live (a real mosquitto, the
club's receiver and page, a box session playing)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web

from club.page import Changes, make_app
from club.receiver import Receiver
from club.store import ClubStore
from referee.db import Reader, connect
from tests.club.broker import CLUB, READER, Broker, wait_for
from tests.club.play import finished_script, script
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
        await web.TCPSite(runner, "127.0.0.1", 0).start()  # a port of its own, bound
        port = runner.addresses[0][1]
        try:
            async with Browser() as browser:
                await browser.open(f"http://127.0.0.1:{port}/")
                for end in (10, 20, 30):
                    play(session, steps[end - 10:end])
                    current = session.ruleset.state_json(session.state)["current"]
                    await until(browser, ("online", str(len(session.log)), str(current)))
                text = await browser.text("main")
                assert "Ann, Ben, Cy, Di" in text and "Gallery Grippers #1" in text
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


async def _shown(browser: Browser, expression: str, want: object) -> None:
    """Wait (at each page update, no polling) until `expression`, evaluated in the page as
    its scripts left it, is `want`."""
    while True:
        version = int(await browser.evaluate("Number(document.body.dataset.version)"))
        got = await browser.evaluate(expression)
        if got == want:
            return
        try:
            await browser.version_after(version)
        except TimeoutError as err:
            raise AssertionError(f"the page shows {got!r}, not {want!r}") from err


STANDINGS = """Array.from(document.querySelectorAll('section.standings')).map(s => ({
  title: s.querySelector('h2').innerText,
  games: Array.from(s.querySelectorAll('table.standings')).map(t => ({
    game: t.dataset.game, name: t.previousElementSibling.innerText,
    rows: Array.from(t.querySelectorAll('tbody tr')).map(
      tr => Array.from(tr.querySelectorAll('td')).map(td => td.innerText))}))}))"""
GAME_ROW = """Array.from(document.querySelectorAll('tr.game[data-box="box-1"] td'))
  .map(td => td.innerText)"""


def test_the_club_page_shows_a_finished_games_standings_and_proof(
        broker: Broker, tmp_path: Path) -> None:
    """A game played to its end (its seed revealed with its last entry): the page, as the
    browser rendered it after its updates, shows the game's standings tonight and for the
    season (plays, wins, rating) and the game over, its winner, GOOD and its commitment and
    seed (screenshots at 1280 and 360 px in the test's directory)."""
    from openskill.models import PlackettLuce

    path = tmp_path / "club.sqlite"
    store = ClubStore(path)
    changes = Changes()
    receiver = Receiver(store, club=CLUB, url=broker.url,
                        secret=(READER, broker.passwords[READER]), on_change=changes.bump)
    receiver.start()
    wait_for(receiver.connected.is_set, 10, "the club connected")
    box_db = tmp_path / "box.sqlite"
    session = box_session(box_db, broker)
    names = ["Ann", "Ben", "Cy", "Di"]
    # What the page should say, from the box's own file and openskill (not from the club).
    model = PlackettLuce()
    winner: str = ""
    rated: dict[str, str] = {}

    async def main() -> None:
        nonlocal winner
        runner = web.AppRunner(make_app(path, changes))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()  # a port of its own, bound
        port = runner.addresses[0][1]
        try:
            async with Browser() as browser:
                await browser.viewport(1280, 900, mobile=False)
                await browser.open(f"http://127.0.0.1:{port}/")
                assert await browser.evaluate(STANDINGS) == [
                    {"title": "Standings: Tonight", "games": []},
                    {"title": "Standings: Season", "games": []}]
                play(session, finished_script())
                state = session.ruleset.state_json(session.state)
                assert state["over"]
                reader = Reader(connect(box_db, readonly=True), box_db)
                (game,) = reader.games()
                reader.close()
                assert game.status == "over" and game.revealed_at is not None
                assert game.winner is not None
                winner = game.winner
                teams = [[model.rating(name=n)] for n in names]
                after = model.rate(teams, ranks=[1 if n == winner else 2 for n in names])
                for n, (r,) in zip(names, after, strict=True):
                    rated[n] = f"{r.ordinal():.2f}"
                order = sorted(names, key=lambda n: (-float(rated[n]), n))
                rows = [[n, "1", "1" if n == winner else "0", rated[n]] for n in order]
                one = [{"game": "gallery-grippers", "name": "Gallery Grippers", "rows": rows}]
                await _shown(browser, STANDINGS, [
                    {"title": "Standings: Tonight", "games": one},
                    {"title": "Standings: Season", "games": one}])
                assert rows[0][0] == winner and float(rows[0][3]) > float(rows[1][3])
                for width, mobile in ((1280, False), (360, True)):  # the whole page
                    await browser.viewport(width, 900, mobile=mobile)
                    tall = int(await browser.evaluate("document.documentElement.scrollHeight"))
                    await browser.viewport(width, tall, mobile=mobile)
                    await browser.screenshot(tmp_path / f"club-{width}.png")
                    assert int(await browser.evaluate(  # nothing wider than the screen
                        "document.documentElement.scrollWidth")) <= width
                cells = await browser.evaluate(GAME_ROW)
                assert cells[:6] == ["box-1", "Gallery Grippers #1", ", ".join(names), "over",
                                     winner, str(len(session.log))], cells
                check, proof = cells[6], cells[7]
                assert check.startswith("GOOD"), check
                assert game.commitment in proof.replace("\n", "").replace(" ", "")
                assert game.seed in proof.replace("\n", "").replace(" ", "")
                await _shown(browser, "document.querySelector(\"tr.box[data-box='box-1']\")"
                             ".innerText.includes('(over)')", True)  # (the table's last view)
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    finally:
        session.close()
        receiver.stop()
        store.close()
