"""Playing for hours must not pile up memory: opened and closed dialogs leave nothing behind."""

from __future__ import annotations

import gc
from typing import Any

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.pilot import Pilot

from tests.ui.conftest import SIZE, keys, played
from ui import textual_fixes
from ui.app import make_app
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import MoveDialog


def live(kind: type) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is kind)


async def open_and_close(pilot: Pilot[Any], times: int) -> None:
    for _ in range(times):
        await keys(pilot, "r")
        assert isinstance(pilot.app.screen, MoveDialog)
        await keys(pilot, "escape")
        assert isinstance(pilot.app.screen, TableScreen)


async def test_dialogs_opened_and_closed_leave_no_widget_caches_behind() -> None:
    app = make_app(played())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")  # resume
        await open_and_close(pilot, 3)
        before = live(StylesCache)
        await open_and_close(pilot, 20)
        after = live(StylesCache)
    # One StylesCache per live widget; without ui/textual_fixes.py each closed dialog left
    # its widgets' caches (and their drawn lines) behind: about 5 per round here.
    assert after - before < 5, (before, after)


def test_the_fixed_colour_cache_answers_as_textuals_own_code_does() -> None:
    body = textual_fixes._body
    for base, bg in ((Color(18, 18, 18), Color(36, 47, 56, 0.5)), (Color(0, 0, 0), Color(0, 0, 0))):
        assert StylesCache().get_inner_outer(base, bg) == body(None, base, bg)
