"""A game file opens on a thread of its own while a front end imports its user interface
(`referee.app.SessionOpening`, issue 41): the same session as `session_from_args` gives,
its words and errors reaching the caller as before, the file let go when it is not taken."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.app import Relay, SessionOpening, open_session
from referee.cli import build_parser, commands
from referee.errors import StoreError
from referee.games.gallery_grippers.commands import NewGame, PlayerSpec

SEED = "ab" * 32


def args_for(db: Path | None) -> object:
    where = ["--memory"] if db is None else ["--db", str(db)]
    return build_parser(commands(), only="console").parse_args(["console", *where])


def a_game_in(db: Path) -> int:
    """A two-player game started in `db`; its number of log entries."""
    session = open_session(db=db, seed=bytes.fromhex(SEED), notify=lambda _: None)
    try:
        session.apply(NewGame((PlayerSpec("Ann"), PlayerSpec("Łukasz"))))
        return len(session.log)
    finally:
        session.close()


def test_the_file_opens_on_its_own_thread_and_resumes_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    entries = a_game_in(db)
    heard: list[tuple[str, str]] = []
    opening = SessionOpening(args_for(db),
                             notify=lambda t: heard.append((threading.current_thread().name, t)))
    session = opening.session()
    try:
        assert len(session.log) == entries
        assert [p.name for p in session.state.players] == ["Ann", "Łukasz"]
        resumed = [(who, text) for who, text in heard if text.startswith("Resumed game")]
        assert resumed and resumed[0][0] == "session-open"  # said as it opened, elsewhere
    finally:
        session.close()
        opening.close()


def test_in_memory_nothing_runs_beside_the_caller() -> None:
    before = {t.name for t in threading.enumerate()}
    opening = SessionOpening(args_for(None), notify=lambda _: None)
    assert "session-open" not in {t.name for t in threading.enumerate()} - before
    session = opening.session()
    assert session.store is None
    session.close()


def test_a_file_that_cannot_be_opened_raises_where_the_session_is_asked_for(
        tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    a_game_in(db)
    holder = open_session(db=db, notify=lambda _: None)  # another referee writing it
    try:
        opening = SessionOpening(args_for(db), notify=lambda _: None)
        with pytest.raises(StoreError, match="already in use"):
            opening.session()
        opening.close()
    finally:
        holder.close()


def test_a_session_never_taken_lets_its_file_go(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    a_game_in(db)
    opening = SessionOpening(args_for(db), notify=lambda _: None)
    opening.close()  # (the front end could not start)
    again = open_session(db=db, notify=lambda _: None)  # the lock was let go
    again.close()


@settings(max_examples=50, deadline=None)
@given(before=st.lists(st.text(max_size=5), max_size=5),
       after=st.lists(st.text(max_size=5), max_size=5))
def test_a_relay_keeps_what_is_said_before_it_is_passed_on_and_forwards_the_rest(
        before: list[str], after: list[str]) -> None:
    relay = Relay()
    for line in before:
        relay(line)
    later: list[str] = []
    assert relay.pass_on(later.append) == before
    for line in after:
        relay(line)
    assert later == after and relay.kept == before
