"""Reliability #4: random commands, undos, reveals, new games and restarts against a session on
a game file; after every step the rebuilt game equals the model, an in-memory session fed the
same commands."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from referee.app import open_session
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream
from tests.referee.test_session import bot_request

SETUP = long_stream(6)  # new_game, four hands, turn order


class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="referee-stateful-"))
        self.path = self.dir / "g.sqlite"
        self.model = Session(seed=SEED)
        self.real = open_session(db=self.path, seed=SEED, notify=lambda _: None)
        self.restarts = 0
        for request in SETUP:
            self.both(request)

    def both(self, request: dict[str, Any]) -> dict[str, Any]:
        want = self.model.handle(request)
        got = self.real.handle(request)
        assert got == want, (request, got, want)
        return got

    @precondition(lambda self: not self.model.state.over)
    @rule(pick=st.integers(min_value=0, max_value=10_000))
    def command(self, pick: int) -> None:
        self.both(bot_request(self.model.handle({"cmd": "state"})["state"], pick))

    @rule()
    def undo(self) -> None:
        self.both({"cmd": "undo"})

    @rule(when=st.integers(min_value=0, max_value=9))
    def reveal(self, when: int) -> None:
        if when == 0:  # now and then: after it the box refuses its own rolls
            self.both({"cmd": "reveal"})

    @rule(when=st.integers(min_value=0, max_value=9))
    def new_game(self, when: int) -> None:
        if when == 0:
            self.both({"cmd": "new_game", "players": ["Ann", "Ben", "Cy", "Di"],
                       "abandon": True, "rules": {"win_money": 10**15, "reup_at_or_below": 2}})
            for request in SETUP[1:]:
                self.both(request)

    @rule()
    def restart(self) -> None:
        self.real.close()
        self.real = open_session(db=self.path, seed=SEED, notify=lambda _: None)
        self.restarts += 1

    @invariant()
    def same_game(self) -> None:
        assert self.real.state == self.model.state
        assert self.real.kept == self.model.kept
        assert self.real.stream_position == self.model.stream_position
        assert [e.to_json() for e in self.real.log] == [e.to_json() for e in self.model.log]

    def teardown(self) -> None:
        self.real.close()
        shutil.rmtree(self.dir, ignore_errors=True)


StoreMachine.TestCase.settings = settings(
    max_examples=30, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
TestStoreMachine = StoreMachine.TestCase
