"""The tick lists (`ui.screens.ticks.TickList`: Gallery Grippers' sale and trade lists, The
A.R.T. Project's reroll dice): Space ticks the entry it was pressed on, however fast the
keys come (issue 39: "Space ↓ Space" typed fast ticked the second entry twice, that is not
at all)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from tests.ui.test_key_order import burst
from ui.screens.ticks import TickList

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


class Ticks(App[None]):
    def compose(self) -> ComposeResult:
        yield TickList(("Mona Lisa", "a"), ("The Raft", "b"), ("Liberty", "c"), id="ticks")

    def on_mount(self) -> None:
        self.query_one(TickList).focus()


async def test_space_down_space_in_one_burst_ticks_both() -> None:
    app = Ticks()
    async with app.run_test(size=(40, 8)) as pilot:
        await burst(pilot, "space", "down", "space")
        ticks: Any = app.query_one(TickList)
        assert sorted(ticks.selected) == ["a", "b"]
        assert ticks.ticked_text() == ["✓ Mona Lisa", "✓ The Raft", "  Liberty"]
        await burst(pilot, "space", "up", "space", "down", "down", "space")
        assert sorted(ticks.selected) == ["c"]
