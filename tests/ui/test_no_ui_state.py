"""No widget keeps game state: a second console on the same session draws the same table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.app import App

from tests.ui.conftest import SIZE, keys, move, played
from ui.app import make_app
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.widgets import EventLog, PlayerRow

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


def same_picture(a: str, b: str) -> bool:
    """Two SVG screenshots show the same screen (the SVG's class prefix is random)."""
    return re.sub(r"terminal-\d+", "T", a) == re.sub(r"terminal-\d+", "T", b)


def table_text(app: App[Any]) -> list[str]:
    """What the table's widgets show, as text."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    rows = [str(row.render()) for row in screen.query(PlayerRow)]
    return [*rows, str(screen.query_one("#turn-banner").render()),
            str(screen.query_one(EventLog).render())]


async def test_a_second_console_on_the_same_session_draws_the_same_table() -> None:
    s = played()
    first = make_app(s)
    async with first.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")  # resume
        await move(pilot, 5, 3)  # Ann leaves the Louvre by an exit, keeping the art
        await keys(pilot, "e")
        await move(pilot, 2, 7)  # Ben: a plain tile...
        await keys(pilot, "ctrl+z", "y")  # ...undone: the pawn goes back, the die stays
        await keys(pilot, "ctrl+z", "y")  # and the typed roll too
        drawn = table_text(first)
        picture = first.export_screenshot()
    assert "(undone)" in drawn[-1] and "outside" in drawn[0] and "Mona Lisa" in drawn[0]

    second = make_app(s)
    async with second.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")
        assert table_text(second) == drawn
        assert same_picture(second.export_screenshot(), picture)
