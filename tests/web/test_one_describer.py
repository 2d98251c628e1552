"""The page's log and the console's are one describer's words (issue 26): for a scripted game
of each game, every line of the page's log is the console's line for the same step."""

from __future__ import annotations

import pytest

from referee.session import Session
from referee.words import step_words
from tests.referee.conftest import SEED
from tests.whole_app import SCRIPTS, Start
from ui.games.gallery_grippers.widgets import EventLog
from ui.trouble import log_lines
from web import view


def _play(script: str) -> Session:
    session = Session(seed=SEED)
    requests = Start(script, 10_000).requests()
    assert requests
    for request in requests:
        assert session.handle(request)["ok"], request
    return session


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_the_page_says_what_the_console_says(script: str, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    monkeypatch.setattr(view, "LOG_LINES", 10_000)
    session = _play(script)
    page = [(x["seq"], x["text"]) for x in view.Snapshots().snapshot(session)["log"]]
    plain_log = [(int(line.split(" ", 1)[0][1:]), line.split(" ", 1)[1].removesuffix(
        "  (undone)")) for line in log_lines(session.log, session.ruleset)]
    assert page == plain_log
    assert page == [(e.seq, step_words(session.ruleset, e.command, e.events))
                    for e in reversed(session.log)]
    if session.ruleset.id == "gallery-grippers":  # the console's event log
        assert page == [(seq, text) for seq, _, text in EventLog.lines_for(session.log, 10_000)]


def test_gallery_grippers_log_lines_read_as_the_table_says_them() -> None:
    session = _play("gallery-grippers")
    texts = [x["text"] for x in view.Snapshots().snapshot(session)["log"]]
    order = next(t for t in texts if t.startswith("Turn-order roll: "))
    assert "goes first" in order or "tie" in order
    assert not any(t.startswith(("turn order", "bypass —")) for t in texts)
    assert any(" at the " in t and ("bypassed" in t or "failed" in t) for t in texts)
