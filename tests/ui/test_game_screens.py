"""Screens are chosen per game (issue 12, item 3): the console and the box find a game's
screens by its id in an entry-point group, so a second game's screens plug in the same way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from device.box import BoxController
from device.games.gallery_grippers import oled as gallery_grippers
from device.view import oled_screens
from referee.session import Session
from ui.app import make_app
from ui.games import screens_for
from ui.games.gallery_grippers import screens as gg_console

ROOT = Path(__file__).resolve().parents[2]


def test_gallery_grippers_screens_are_found_by_the_game_s_id() -> None:
    assert screens_for("gallery-grippers") is gg_console.SCREENS
    assert make_app(Session()).screens is gg_console.SCREENS
    assert oled_screens("gallery-grippers") is gallery_grippers.OLED
    box = BoxController(Session(), idle_s=None)
    assert box.game is gallery_grippers.OLED
    box.close()


def test_a_game_without_screens_is_a_clear_error() -> None:
    with pytest.raises(LookupError, match="'tic-tac-toe'"):
        screens_for("tic-tac-toe")
    with pytest.raises(LookupError, match="'tic-tac-toe'"):
        BoxController(Session(), game="tic-tac-toe")


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def test_the_app_and_the_box_import_no_game_s_screens() -> None:
    # (The box panel and "quit and lose it?" serve every game: ui.screens.common.)
    game_screens = {f"ui.games.gallery_grippers.{m}"
                    for m in ("pending", "table", "hands", "turn", "info", "screens")}
    game_screens |= {"device.games.gallery_grippers.oled", "device.games.gallery_grippers.actions"}
    assert imported(ROOT / "ui" / "app.py") & game_screens == set()
    assert imported(ROOT / "device" / "box.py") & game_screens == set()
