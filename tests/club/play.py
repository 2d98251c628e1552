"""Scripted games for the club's tests and bench: the requests of a long Gallery Grippers game
(scripts/bench.py's `long_game`), made once in memory and replayed on any session."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("referee_bench", ROOT / "scripts/bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


@functools.cache
def script(commands: int) -> tuple[dict[str, Any], ...]:
    accepted: list[dict[str, Any]] = []
    _bench().long_game(commands, accepted)
    return tuple(accepted)


class _Over(Exception):
    pass


class _Winnable:
    """A session as `long_game` drives it, but its game is won at `win_money` (the first
    sale wins): each accepted request (as sent to the session) goes to `accepted`, and
    `long_game` is stopped at the game's end."""

    def __init__(self, session: Any, win_money: int, accepted: list[dict[str, Any]]) -> None:
        self.session, self.win_money, self.accepted = session, win_money, accepted

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        if req["cmd"] == "new_game":
            req = {**req, "rules": {**req["rules"], "win_money": self.win_money}}
        answer: dict[str, Any] = self.session.handle(req)
        if answer["ok"]:
            self.accepted.append(req)
        if self.session.state.over:
            raise _Over
        return answer


@functools.cache
def finished_script() -> tuple[dict[str, Any], ...]:
    """The requests of a Gallery Grippers game played to its end (the first sale wins it; the
    seed is revealed with the game's last entry), on the scripted games' seed."""
    from referee.session import Session

    bench = _bench()
    session = Session(seed=bench.SEED)
    accepted: list[dict[str, Any]] = []
    with contextlib.suppress(_Over):  # (raised at the game's end)
        bench.long_game(10**6, None, _Winnable(session, 1, accepted))
    assert session.state.over, "the scripted game did not end"
    return tuple(accepted)
