"""The box panel on The Gallerist's table (issue 25): O opens it as on the other games'
tables, and its buttons, pressed through the simulated box's mock pins, run the clock the
table shows."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from device.run import build_box
from device.watchdog import Watchdog
from referee.cli import build_parser
from referee.session import Session
from tests.referee.games.gallerist import test_session as play
from tests.ui.conftest import keys
from tests.ui.test_box_panel import FakeClock, advance_until
from ui.games.gallerist.screens import ScoresScreen
from ui.run import ConsoleAndBox
from ui.screens.common import BoxScreen

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def in_play() -> Session:
    """Round 1 of a three-player game, every gallerist placed: Ann to move."""
    s = Session(seed=play.SEED)
    play.ok(s, **{**play.START, "start_player": "Ann"})
    play.place_all(s)
    return s


async def test_o_opens_the_box_on_the_gallerist_table_and_its_buttons_run_the_clock() -> None:
    s = in_play()
    clock = FakeClock()
    holder: list[ConsoleAndBox] = []

    def post(fn: Callable[[], None]) -> None:
        holder[0].post_to_loop(fn)

    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory"])
    rig = build_box(args, s, post=post, say=lambda text: None, clock=clock,
                    press=lambda b, long: post(lambda: rig.box.press(b, long)))
    app = ConsoleAndBox(s, rig, Watchdog(env={}))
    holder.append(app)

    async def press(key: str, screen: str) -> None:
        await keys(pilot, key)
        await advance_until(pilot, clock, lambda: not rig.presser.busy)
        await advance_until(pilot, clock, lambda: rig.box.view().screen == screen)

    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await keys(pilot, "r")  # resume the game in progress
            if not isinstance(app.screen, ScoresScreen):
                await keys(pilot, "enter")  # (the start player was named: nothing to say)
            assert isinstance(app.screen, ScoresScreen)
            await keys(pilot, "o")
            assert isinstance(app.screen, BoxScreen)
            view = rig.box.view()
            assert view.screen == "clock" and view.title == "R1 turn: Ann"
            await press("r", "actions")  # ROLL: what the box can send now
            assert rig.box.view().menu[0] == "Move..."
            await press("r", "moves")
            moves = [r["to"] for r in s.ruleset.legal_actions(s.state, "Ann")
                     if r["cmd"] == "move"]
            assert rig.box.view().menu == tuple(moves)  # whole: the box wraps them by words
            await press("r", "clock")  # the first place the rules let Ann move to
            assert s.log[-1].command == {"cmd": "move", "player": "Ann", "to": moves[0]}
            await press("n", "clock")  # NEXT: end the turn, refused with the rule (GAL-6)
            assert s.log[-1].command["cmd"] == "move"
            assert "GAL-6" in (rig.box.view().notice or "")
            await keys(pilot, "escape")  # the table shows what the box did
            assert isinstance(app.screen, ScoresScreen)
            assert "location action" in str(app.screen.query_one("#gal-next").render())
    finally:
        rig.close()
