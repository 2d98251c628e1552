"""A screen that fails to draw never locks the table out of its game (issue 11, item 1).

A game stored on disk is resumed (as after a restart) into a state whose drawing fails: a
decision's dialog, the table itself, or one widget's render. The console must stay up, show
the error, and keep the game: the session and its log untouched, the log still on screen, the
box (any other front end on the session) still refereeing, undo still working.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from referee.app import open_session
from referee.session import Session
from tests.ui.conftest import SEED, keys
from tests.ui.test_box_panel import FakeBox
from tests.ui.test_duplicate_cards import to_the_obstacle
from ui.app import make_app
from ui.games.gallery_grippers.info import UndoConfirm
from ui.games.gallery_grippers.pending import ObstacleDialog, VerdictScreen
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.widgets import EventLog, Scoreboard
from ui.screens.common import BoxScreen
from ui.trouble import PlainLogScreen, TroubleScreen, log_lines

SMALL = (80, 24)
BROKEN = "injected: this screen cannot be drawn"


def boom(*_: Any, **__: Any) -> Any:
    raise RuntimeError(BROKEN)


# where the failure is injected -> the screen that cannot be drawn
FAULTS = {
    "obstacle dialog compose": (ObstacleDialog, "compose"),
    "obstacle dialog mount": (ObstacleDialog, "on_mount"),
    "table show": (TableScreen, "show"),
    "scoreboard render": (Scoreboard, "render"),
}


def stored_game(tmp_path: Path) -> Path:
    db = tmp_path / "games.sqlite"
    s = open_session(db=db, seed=SEED, notify=lambda _: None)
    to_the_obstacle(s)
    s.close()
    return db


def shown_log(app: Any) -> str:
    """The log as the bottom screen shows it (the table's, or the plain one in its place)."""
    base = app.screen_stack[0]
    if isinstance(base, PlainLogScreen):
        return str(base.query_one("#plain-log-lines", Static).render())
    return "\n".join(line for _, _, line in base.query_one(EventLog).entries)


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_a_resumed_game_that_cannot_be_drawn_keeps_the_table_in_its_game(
        fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cls, method = FAULTS[fault]
    db = stored_game(tmp_path)
    session = open_session(db=db, notify=lambda _: None)  # the box restarted
    before = [e.to_json() for e in session.log]
    monkeypatch.setattr(cls, method, boom)
    box = FakeBox()
    app = make_app(session, box=box)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r")  # resume (if the start screen is still up)
            assert app.is_running and app.return_code is None
            trouble = app.screen
            assert isinstance(trouble, TroubleScreen), app.screen_stack
            assert BROKEN in str(trouble.query_one("#trouble-error", Static).render())
            assert [e.to_json() for e in session.log] == before  # the game is untouched
            await keys(pilot, "escape")
            assert not isinstance(app.screen, TroubleScreen)
            for line in log_lines(session.log, session.ruleset)[:3]:  # the log is still there
                assert line.split(" ", 1)[1] in shown_log(app)
            if not isinstance(app.screen, ObstacleDialog):
                await keys(pilot, "o")  # the box's panel still opens
                assert isinstance(app.screen, BoxScreen)
                await keys(pilot, "escape")

            # the box (another front end on the session) answers the obstacle: the game goes on
            answer = session.handle({"cmd": "bypass", "player": "Ann",
                                     "specialist": ["Lookout"], "roll": 40})
            assert answer["ok"], answer
            await pilot.pause()
            assert len(session.log) == len(before) + 1
            assert app.is_running and app.return_code is None
            await keys(pilot, "escape", "escape")  # the verdict (or a second notice)
            assert log_lines(session.log, session.ruleset)[0].split(" ", 1)[1] in shown_log(app)

            await keys(pilot, "ctrl+z")  # undo still asks and undoes
            assert isinstance(app.screen, UndoConfirm)
            await keys(pilot, "y")
            assert session.log[-1].command["cmd"] == "undo"
            assert not any(isinstance(s, VerdictScreen) for s in app.screen_stack)
            assert app.trouble.found and all(BROKEN in f.details for f in app.trouble.found)
        assert app.return_code in (0, None)
    finally:
        session.close()
    again = open_session(db=db, notify=lambda _: None)
    try:  # every step reached the file, nothing else did
        assert [e.command["cmd"] for e in again.log][-3:] == ["move", "bypass", "undo"]
        assert [e.to_json() for e in again.log[:len(before)]] == before
    finally:
        again.close()


async def test_a_screen_that_fails_again_is_a_notice_not_another_dialog(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TableScreen, "show", boom)
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        assert isinstance(app.screen, TroubleScreen)
        await keys(pilot, "escape")
        assert isinstance(app.screen, ObstacleDialog)  # over the plain log
        await keys(pilot, "ctrl+r", "enter")  # the box rolls; the verdict; the table again
        assert s.log[-1].command["cmd"] == "bypass"
        assert len(app.trouble.found) == 2
        assert not any(isinstance(x, TroubleScreen) for x in app.screen_stack)
        assert any(BROKEN in n.message for n in app._notifications)
        assert isinstance(app.screen_stack[0], PlainLogScreen)


async def test_a_failure_inside_the_session_still_ends_the_console() -> None:
    """Only drawing is forgiven: a fault in applying a command is not the console's to hide
    (reliability #10; tests/ui/test_exit_status.py runs it in a process)."""

    class Broken(Session):
        def apply(self, command: Any, **_: Any) -> Any:
            raise RuntimeError("boom inside the session")

    s = Broken(seed=SEED)
    app = make_app(s)
    with pytest.raises(RuntimeError, match="boom inside the session"):
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, *"Ann", "enter", *"Ben", "enter", "ctrl+s")
    assert app.return_code == 1 and not app.trouble.found
