"""Nothing wakes the console while it waits (issue 16): no repeating timer runs, and a text
field's cursor is lit while it has the focus instead of blinking (a blink is a timer that
redraws the field twice a second). The walks through every reachable dialog check the same
(`check_still` in tests/ui/test_reachable_states.py and test_art_reachable.py); here random
keys on the forms, where most of the typing is."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.ui.conftest import SIZE, check_still, keys, session, typed
from ui.app import make_app
from ui.games.gallery_grippers.hands import TurnOrderScreen
from ui.games.gallery_grippers.setup import NewGameScreen
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import MoveDialog
from ui.screens.diefield import DieField

KEYS = st.lists(st.sampled_from(["tab", "shift+tab", "a", "7", "backspace", "enter", "left",
                                 "down", "up", "space"]), min_size=1, max_size=12)


# No shrinking: every step runs the app (as in test_reachable_states.py).
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(presses=KEYS)
def test_the_new_game_form_never_ticks_and_its_cursor_stays_lit(presses: list[str]) -> None:
    async def run() -> None:
        app = make_app(session())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            check_still(app)
            for key in presses:
                await keys(pilot, key)
                check_still(app)

    asyncio.run(run())


async def test_the_turn_order_s_die_fields_and_the_table_never_tick() -> None:
    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "enter", "ctrl+s")
        check_still(app)
        await keys(pilot, "ctrl+b")  # balanced hands: the turn order's die fields
        assert isinstance(app.screen, TurnOrderScreen)
        assert isinstance(app.focused, DieField)
        check_still(app)
        await keys(pilot, "6", "tab")
        assert isinstance(app.focused, DieField)
        check_still(app)
        await keys(pilot, "1", "enter", "enter")  # the game starts, then its announcement
        assert isinstance(app.screen, TableScreen)
        check_still(app)
        await keys(pilot, "r")
        assert isinstance(app.screen, MoveDialog)
        check_still(app)
