"""Every name in the corpus (`tests/names.py`) plays, closes and resumes in every game, on every
front end (issue 22): the headless protocol, the OLED, the console at 80x24 (and its box
panel), the phone page, the exports and `referee report`. Each game also takes a name at its
own limit (`longest(limit)`) and refuses one a character longer."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from device.box import BoxController
from device.render import render
from device.view import drawable
from referee.app import open_session
from referee.cli import main as referee_main
from referee.session import Session
from tests.names import CORPUS, longest, nfc
from tests.ui.conftest import SEED, keys
from tests.ui.test_run import rig_for

# each game: what its new_game needs besides the players, and its longest name (MAX_NAME)
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "gallery-grippers": ({}, 24),
    "art-project": ({"mission": "test-board", "difficulty": "medium"}, 20),
    "gallerist": ({"bag": 10}, 24),
}
_ROUND = (*CORPUS, *CORPUS[:2])  # every name, three players a table (the last one padded)
TABLES = [_ROUND[i: i + 3] for i in range(0, len(CORPUS), 3)]


def tables(game: str) -> list[tuple[str, ...]]:
    """The corpus three names a table, and one table led by the game's longest name."""
    limit = GAMES[game][1]
    return [*TABLES, (longest(limit), "李明", "👩‍🎨 Mia")]


def new_game(game: str, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
    extra, _ = GAMES[game]
    return {"cmd": "new_game", "game": game, "players": [{"name": n} for n in names], **extra}


def names_in(session: Session) -> list[str]:
    return [p["name"] for p in session.handle({"cmd": "state"})["state"]["players"]]


def stored(tmp_path: Path, game: str, names: tuple[str, ...]) -> Path:
    db = tmp_path / f"{game}.sqlite"
    s = open_session(db=db, seed=SEED, notify=lambda _: None)
    try:
        answer = s.handle(new_game(game, names))
        assert answer["ok"], answer
    finally:
        s.close()
    return db


# ---- the protocol ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_name_plays_closes_and_resumes_in_every_game(tmp_path: Path, game: str) -> None:
    for n, names in enumerate(tables(game)):
        db = tmp_path / f"{n}.sqlite"
        s = open_session(db=db, seed=SEED, notify=lambda _: None)
        try:
            answer = s.handle(new_game(game, names))
            assert answer["ok"], (names, answer)
            assert names_in(s) == [nfc(x) for x in names]  # exactly, in the rules' NFC
        finally:
            s.close()
        again = open_session(db=db, notify=lambda _: None)
        try:
            assert names_in(again) == [nfc(x) for x in names]
        finally:
            again.close()


@pytest.mark.parametrize("game", GAMES)
def test_referee_headless_keeps_every_name_over_its_pipes_and_a_restart(tmp_path: Path,
                                                                      game: str) -> None:
    """The real `referee headless` process: JSON lines in and out, UTF-8 both ways."""
    from tests.referee.storehelp import Headless

    db = tmp_path / "games.sqlite"
    for n, names in enumerate(tables(game)[-2:]):
        with Headless(db) as referee:
            # the second table starts over the first's game, unfinished
            assert referee.ask({**new_game(game, names), **({"abandon": True} if n else {})}
                               )["ok"]
            state = referee.ask({"cmd": "state"})["state"]
            assert [p["name"] for p in state["players"]] == [nfc(x) for x in names]
            assert referee.close() == 0
        with Headless(db) as referee:  # a restart resumes the game on the file
            state = referee.ask({"cmd": "state"})["state"]
            assert [p["name"] for p in state["players"]] == [nfc(x) for x in names]
            assert referee.close() == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_name_at_the_limit_is_taken_and_one_longer_refused(game: str) -> None:
    limit = GAMES[game][1]
    s = Session(seed=SEED)
    too_long = s.handle(new_game(game, [longest(limit) + "x", "Ann"]))
    assert not too_long["ok"] and str(limit) in too_long["error"]["message"]
    assert s.handle(new_game(game, [longest(limit), "Ann"]))["ok"]
    assert names_in(s)[0] == longest(limit) and len(longest(limit)) == limit


# ---- the OLED --------------------------------------------------------------------------------

def test_the_box_new_game_screen_draws_every_name() -> None:
    for names in TABLES:
        box = BoxController(Session(seed=SEED), names=names, clock=lambda: 0.0)
        view = box.view()
        image = render(view)
        assert image.getbbox() is not None
        assert drawable(names[0])[:4] in drawable(view.text())


@pytest.mark.parametrize("game", GAMES)
def test_every_box_screen_a_walk_reaches_draws_every_name(game: str) -> None:
    """Random presses on each table: every screen is built and drawn without an exception
    (`view()` and `render`, not their guarded forms), and the names are on the screens."""
    rnd = random.Random(game)
    for names in tables(game):
        s = Session(seed=SEED)
        assert s.handle(new_game(game, names))["ok"]
        clock = [0.0]
        box = BoxController(s, clock=lambda clock=clock: clock[0], idle_s=None)
        shown = ""
        for _ in range(60):
            view = box.view()
            image = render(view)
            assert image.size == (128, 64) and image.getbbox() is not None, view
            shown += drawable(view.text())
            box.press(rnd.choice(["ROLL", "NEXT", "NEXT", "BACK", "MENU"]), rnd.random() < 0.1)
            clock[0] += 1.0
        # (a name transliterated to nothing but boxes is still a name on screen)
        assert any(drawable(n)[:3] in shown for n in names), (names, shown)


# ---- the console -----------------------------------------------------------------------------

def on_screen(svg: str, name: str) -> bool:
    return html.escape(nfc(name)).replace(" ", "&#160;") in svg


@pytest.mark.parametrize("game", GAMES)
def test_the_console_draws_each_table_of_corpus_names_at_80x24(game: str) -> None:
    from ui.app import make_app
    from ui.trouble import PlainLogScreen, TroubleScreen

    async def main(names: tuple[str, ...]) -> None:
        s = Session(seed=SEED)
        assert s.handle(new_game(game, names))["ok"]
        app = make_app(s, game=game)
        async with app.run_test(size=(80, 24)) as pilot:
            await keys(pilot, "r")  # resume the game in progress
            assert app.is_running
            stack = app.screen_stack
            assert not any(isinstance(x, PlainLogScreen | TroubleScreen) for x in stack)
            svg = app.export_screenshot()
            assert any(on_screen(svg, n) for n in names), names
            assert names_in(s) == [nfc(x) for x in names]

    for names in tables(game):
        asyncio.run(main(names))


@pytest.mark.parametrize("game", GAMES)
def test_the_console_box_panel_draws_the_names(tmp_path: Path, game: str) -> None:
    from device.watchdog import Watchdog
    from ui.run import ConsoleAndBox
    from ui.screens.common import BoxScreen

    names = (longest(GAMES[game][1]), "李明", "👩‍🎨 Mia")

    async def main() -> None:
        s = Session(seed=SEED)
        assert s.handle(new_game(game, names))["ok"]
        holder: list[ConsoleAndBox] = []
        rig = rig_for(s, tmp_path, holder)  # as `referee run` builds it
        app = ConsoleAndBox(s, rig, Watchdog(env={}))
        holder.append(app)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await keys(pilot, "r")
                app.action_box()  # (O, on a screen whose fields do not take the letter)
                await pilot.pause()
                assert isinstance(app.screen, BoxScreen)
                assert app.box is not None
                assert rig.box.safe_view().screen != "error"
                assert app.box.render_image().getbbox() is not None
                await keys(pilot, "n", "n", "m", "b")  # the box's buttons, on the names
                assert rig.box.safe_view().screen != "error"
                assert rig.oled.flush(30)
        finally:
            rig.close()
        assert list((tmp_path / "frames").glob("frame-*.png"))

    asyncio.run(main())


# ---- the page --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_page_shows_every_name_escaped(game: str) -> None:
    from web import page
    from web.view import Snapshots

    for names in tables(game):
        s = Session(seed=SEED)
        assert s.handle(new_game(game, names))["ok"]
        body = page.body(Snapshots().snapshot(s))
        for name in names:
            assert html.escape(nfc(name)) in body, name
        assert "<i>" not in body  # the corpus's markup is text, not markup


# ---- the exports and the report --------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_exports_keep_every_name_in_utf8(tmp_path: Path, game: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    for n, names in enumerate(tables(game)):
        (tmp_path / str(n)).mkdir()
        db = stored(tmp_path / str(n), game, names)
        want = [nfc(x) for x in names]
        out = {}
        for fmt in ("jsonl", "csv", "bgstats"):
            path = tmp_path / str(n) / f"game.{fmt}"
            assert referee_main(["export", "1", "--db", str(db), "--format", fmt,
                                 "-o", str(path)]) == 0
            out[fmt] = path.read_bytes().decode("utf-8")
        header = json.loads(out["jsonl"].splitlines()[0])
        assert header["players"] == want
        rows = list(csv.DictReader(io.StringIO(out["csv"])))
        assert want[0] in rows[0]["command"] and rows[0]["cmd"] == "new_game"
        play = json.loads(out["bgstats"])
        assert [p["name"] for p in play["players"]] == want
        from referee.export import read_jsonl

        assert read_jsonl(tmp_path / str(n) / "game.jsonl").players == want
        capsys.readouterr()


@pytest.mark.parametrize("game", GAMES)
def test_the_report_shows_every_name_as_text_and_draws_its_png(
        tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    names = (longest(GAMES[game][1]), "李明", "👩‍🎨 Mia")
    db = stored(tmp_path, game, names)
    picture = tmp_path / "luck.png"
    assert referee_main(["report", "1", "--db", str(db), "--png", str(picture)]) == 0
    said = capsys.readouterr().out
    assert all(nfc(n) in said for n in names)
    with Image.open(picture) as im:
        assert im.size[0] > 100 and im.getbbox() is not None


@pytest.mark.parametrize("game", GAMES)
def test_referee_box_starts_and_restarts_on_a_file_of_corpus_names(tmp_path: Path,
                                                                   game: str) -> None:
    """The issue's lock-out, as the appliance meets it: `referee box` on a game file whose
    players have names outside Latin-1, started twice (a restart), presses keys, exits 0."""
    from tests.referee.storehelp import referee

    db = stored(tmp_path, game, (longest(GAMES[game][1]), "李明", "👩‍🎨 Mia"))
    frames = tmp_path / "frames"
    for keys_typed in ("nnrq", "rnbmq"):
        done = referee("box", "--hardware", "sim", "--db", str(db), "--no-text-art",
                       "--oled-png", str(frames), stdin=keys_typed)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "ERROR" not in done.stderr
        assert "placeholder" not in done.stderr  # no screen fell back to "display error"
    shown = sorted(frames.glob("frame-*.png"))
    assert len(shown) >= 2
    from PIL import Image

    for path in shown:
        with Image.open(path) as im:
            assert im.getbbox() is not None
