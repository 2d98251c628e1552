"""The ``hall_of_fame`` query (ART-35, headless-protocol-games.md): a ruleset's own query
through the session's game-neutral hook, answered from the game file when there is one,
else from the session; nothing is logged and a bad request changes nothing."""

from __future__ import annotations

from pathlib import Path

from referee.app import open_session
from referee.session import Session
from tests.referee.games.art_project.test_session import NAMES, SEED, START, ok


def lose_at_once(session: Session, **start: object) -> None:
    ok(session, **{**START, **start})
    for n in NAMES:
        ok(session, cmd="draw", player=n)
        ok(session, cmd="draw", player=n)
    ok(session, cmd="play_card", player="Ann", agents={"Music": 40})
    assert session.state.over and session.state.reason == "agents"


def test_the_session_answers_from_its_own_games_without_a_file() -> None:
    session = Session(seed=SEED)  # a Gallery Grippers session: the query is found anyway
    assert session.handle({"cmd": "hall_of_fame"}) == {"ok": True, "hall_of_fame": []}
    lose_at_once(session)
    lose_at_once(session, difficulty="easy")
    log_length = len(session.log)
    answer = session.handle({"cmd": "hall_of_fame"})
    assert answer == {"ok": True, "hall_of_fame": [
        {"mission": "test-board", "difficulty": "easy", "won": 0, "lost": 1},
        {"mission": "test-board", "difficulty": "hard", "won": 0, "lost": 1}]}
    assert len(session.log) == log_length  # a query is not a step of the game


def test_the_file_counts_every_game_it_holds_across_sessions(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    first = open_session(db=path, seed=SEED, notify=lambda _: None)
    lose_at_once(first)
    ok(first, **{**START, "difficulty": "easy"})  # abandoned by the next: counts as neither
    first.close()
    second = open_session(db=path, notify=lambda _: None)
    ok(second, **{**START, "abandon": True})
    # The file holds one loss (hard); the session resumed on the file knows it too.
    expected = [{"mission": "test-board", "difficulty": "hard", "won": 0, "lost": 1}]
    assert ok(second, cmd="hall_of_fame")["hall_of_fame"] == expected
    second.close()


def test_a_bad_hall_of_fame_request_is_refused_clearly() -> None:
    session = Session(seed=SEED)
    answer = session.handle({"cmd": "hall_of_fame", "mission": "japan"})
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request"
    assert "mission" in answer["error"]["message"]
