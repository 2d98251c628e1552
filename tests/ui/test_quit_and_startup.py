"""Quitting a game kept in memory only asks first; what start-up says (a resumed game) shows
in the console, not only after it closes (issue 15)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

import ui.app
from referee.app import open_session
from tests.ui.conftest import SEED, keys, played
from tests.ui.test_duplicate_cards import SMALL
from ui.app import RefereeApp, make_app
from ui.games.gallery_grippers.table import TableScreen
from ui.screens.common import QuitConfirm


async def test_ctrl_q_mid_game_in_memory_says_the_game_will_be_lost() -> None:
    s = played()  # no store: in memory
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, QuitConfirm)
        assert any("--memory" in str(w.render()) for w in app.screen.query("Static"))
        await keys(pilot, "n")
        assert isinstance(app.screen, TableScreen) and app.is_running
        await keys(pilot, "ctrl+q", "ctrl+q")  # asked, then meant
    assert not app.is_running and app.return_code == 0


async def test_ctrl_q_quits_at_once_when_the_game_is_kept(tmp_path: Path) -> None:
    s = open_session(db=tmp_path / "g.sqlite", seed=SEED)
    played(s)
    app = make_app(s)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r", "ctrl+q")
        assert not app.is_running
    finally:
        s.close()


async def test_the_resumed_game_is_said_in_the_console(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.sqlite"
    first = open_session(db=db, seed=SEED)
    played(first)
    first.close()
    apps: list[RefereeApp] = []

    def capture(app: RefereeApp, **_: Any) -> int:
        apps.append(app)
        return 0

    monkeypatch.setattr(ui.app, "run_app", capture)
    args = argparse.Namespace(db=str(db), memory=False, catalog=None, seed=None, rules=None,
                              durable=True)
    ui.app.cmd_console(args)
    app = apps[0]
    try:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.press("r")  # (said once the resume question is answered)
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert any("Resumed game 1 (Ann, Ben)" in line for line in said), said
    finally:
        app.session.close()
