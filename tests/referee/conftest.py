"""Helpers for driving a session through the protocol in tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from referee.session import Session

SEED = bytes(range(32))


class Table:
    """A session plus terse helpers: `ok` insists on success, `no` on a given refusal."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def ok(self, cmd: str, **fields: Any) -> dict[str, Any]:
        answer = self.session.handle({"cmd": cmd, **fields})
        assert answer["ok"], f"{cmd} {fields} refused: {answer.get('error')}"
        return answer

    def no(self, cmd: str, code: str, rule: str | None = None, **fields: Any) -> dict[str, Any]:
        before = self.session.handle({"cmd": "state"})["state"]
        log_len = len(self.session.log)
        answer = self.session.handle({"cmd": cmd, **fields})
        assert not answer["ok"], f"{cmd} {fields} was accepted: {answer.get('events')}"
        assert answer["error"]["code"] == code, answer["error"]
        if rule is not None:
            assert answer["error"]["rule"] == rule, answer["error"]
        assert answer["error"]["message"]
        # a refusal changes nothing
        assert self.session.handle({"cmd": "state"})["state"] == before
        assert len(self.session.log) == log_len
        return answer

    @property
    def state(self) -> dict[str, Any]:
        return self.session.handle({"cmd": "state"})["state"]

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.state["players"] if p["name"] == name)

    def events(self, answer: dict[str, Any], type_: str) -> list[dict[str, Any]]:
        return [e for e in answer["events"] if e["type"] == type_]


def hand_for(session: Session, specialists: Iterable[str] = (),
             attributes: Iterable[str] = ()) -> dict[str, list[str]]:
    """A legal starting hand that includes the named cards, topped up from what is left."""
    st = session.state
    out = {}
    for deck, wanted in (("specialist", list(specialists)), ("attribute", list(attributes))):
        left = dict(st.piles[deck])
        for name in wanted:
            left[name] -= 1
        for name in sorted(left, key=lambda n: -left[n]):
            while len(wanted) < 3 and left[name] > 0:
                wanted.append(name)
                left[name] -= 1
        out[deck + "s"] = wanted
    return out


def start(players: Iterable[str] = ("Ann", "Ben"), hands: dict[str, dict[str, list[str]]]
          | None = None, rolls: dict[str, int] | None = None, rules: dict[str, Any]
          | None = None, seed: bytes = SEED) -> Table:
    """A game in play: hands dealt (named cards first), turn order rolled (first seat wins)."""
    names = list(players)
    t = Table(Session(seed=seed))
    t.ok("new_game", players=[{"name": n} for n in names], rules=rules or {})
    hands = hands or {}
    for n in names:
        h = hands.get(n, {})
        t.ok("deal", player=n, **hand_for(t.session, h.get("specialists", ()),
                                           h.get("attributes", ())))
    if rolls is None:
        rolls = {n: (6 if i == 0 else 1 + i % 5) for i, n in enumerate(names)}
    t.ok("turn_order", rolls=rolls)
    return t


@pytest.fixture
def table() -> Table:
    return start()
