"""Undo after a game's end: one behaviour in every game, said the same way everywhere
(issue 22, item 6). The session refuses undo once a game is over (`game_over`), in every game:
the result stands. The result dialog used to say "Ctrl+Z on the table undoes the last step"
(The Gallerist), and the undo prompt offered "Y undo" to be refused."""

from __future__ import annotations

from typing import Any

import pytest

from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.ui.conftest import keys, played, typed
from tests.ui.test_art_console import drawn
from tests.ui.test_said_not_silent import WIN
from ui.app import make_app
from ui.base import AFTER_THE_END, KeyBar

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


def gallery_grippers() -> tuple[Session, list[str]]:
    s = played()
    for request in WIN:
        assert s.handle(request)["ok"], request
    return s, ["r", "l", "s"]  # resume; Ann sells for the win


def art_project() -> tuple[Session, list[str]]:
    return drawn(), ["r", "p", "enter", "tab", *typed("Music=40"), "ctrl+s"]  # a card: lost


def gallerist() -> tuple[Session, list[str]]:
    s = Session(seed=bytes(32))
    script = make_games.game()
    for request in script[:-1]:
        assert s.handle(request)["ok"], request
    return s, ["r", "ctrl+t", *typed('{"cmd": "final_scoring"}'), "enter"]


def texts(app: Any) -> str:
    return " ".join(str(w.render()) for w in app.screen.query("Static"))


@pytest.mark.parametrize("game", [gallery_grippers, art_project, gallerist])
async def test_after_the_end_the_result_stands_and_every_screen_says_so(game: Any) -> None:
    s, to_the_end = game()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, *to_the_end)
        assert s.state.over, s.ruleset.state_json(s.state)["next"]
        result = texts(app)
        assert AFTER_THE_END in result and "undoes the last step" not in result
        entries = len(s.log)
        await keys(pilot, "escape")
        app.action_undo()  # the game's undo prompt, as Ctrl+Z opens it on any screen
        await pilot.pause()
        prompt = texts(app)
        assert AFTER_THE_END in prompt and "Y undo" not in prompt
        assert not any(k.action == "undo" for k in app.screen.query_one(KeyBar).shown_keys())
        await keys(pilot, "y")
        assert len(s.log) == entries and s.state.over
        await keys(pilot, "escape", "f1")
        aid = " ".join(str(getattr(w, "source", "") or w.render())
                       for w in app.screen.query("Static, Markdown"))
        assert "not after the end: the result stands" in " ".join(aid.split())
