"""Every legal A.R.T. action is reachable from the box's buttons, and nothing else is offered
(issue 24, item 3): a property over reachable states (any player count, solo included; an
empty van; an empty reserve; one health token left; battles and team decisions open).

The box's menus are walked by presses alone (NEXT to move, ROLL to choose, every branch of
every menu), from a fresh controller for each path; what the box would send at the end of a
path is caught instead of applied, so one state serves every path. A card's sections are
left at nothing (the card as the ruleset lists it); the command sent must be one of the
ruleset's legal actions, and every legal action must be sent by some path.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from referee.errors import Refusal
from referee.session import Session
from tests.ui.test_art_reachable import SYMBOLS, play

MAX_PATHS = 400


class Sent(Exception):
    """What the box sent at the end of a path (caught, never applied)."""

    def __init__(self, command: Any) -> None:
        super().__init__("sent")
        self.command = command


def canon(session: Session, command: Any) -> str:
    return json.dumps(session.ruleset.command_json(command), sort_keys=True)


def walk(session: Session, path: list[int]) -> tuple[str | None, tuple[str, ...], str]:
    """Press along `path` (for each step: NEXT that many times, then ROLL) from the phase
    screen: (the command sent, or None; the menu shown at the end; the screen)."""
    box = BoxController(session, idle_s=None)

    def caught(command: Any, ack: bool = False, **how: Any) -> Any:
        raise Sent(command)

    box._apply = caught  # type: ignore[method-assign]
    try:
        if box.view().screen == "phase":
            box.press("ROLL")  # the actions
        for i in path:
            for _ in range(i):
                box.press("NEXT")
            box.press("ROLL")
            while box.view().screen == "card":  # its sections left at nothing: go on
                view = box.view()
                for _ in range(len(view.menu) - 1 - view.cursor):
                    box.press("NEXT")
                box.press("ROLL")
            if box.view().screen == "ask":  # it costs or ends the game: yes
                box.press("ROLL")
    except Sent as sent:
        return canon(session, sent.command), (), "sent"
    finally:
        box.close()
    view = box.view()
    return None, view.menu, view.screen


def offered(session: Session) -> set[str]:
    """Every command the box's buttons can send from this state."""
    out: set[str] = set()
    todo: list[list[int]] = [[]]
    paths = 0
    while todo:
        path = todo.pop()
        paths += 1
        assert paths < MAX_PATHS, "the box's menus do not end"
        sent, menu, screen = walk(session, path)
        if sent is not None:
            out.add(sent)
            continue
        if not path and not menu:
            continue  # nothing to do (e.g. the game is over)
        assert menu, (path, screen)  # a menu that leads nowhere is never shown
        todo += [[*path, i] for i in range(len(menu))]
    return out


def legal(session: Session) -> set[str]:
    """The ruleset's legal actions; a reroll (listed once per clue card, on one die) as every
    choice of the battle's dice its `decide` accepts with that card (issue 39, item 3)."""
    ruleset = session.ruleset
    out = set()
    for r in ruleset.legal_actions(session.state, None):
        if r["cmd"] != "reroll":
            out.add(canon(session, ruleset.parse(r)))
            continue
        ids = [d for d, _ in session.state.battle.dice]
        for k in range(1, len(ids) + 1):
            for dice in combinations(ids, k):
                command = ruleset.parse({**r, "dice": list(dice)})
                try:
                    ruleset.decide(session.state, command)
                except Refusal:
                    continue
                out.add(canon(session, command))
    return out


def drained(s: Session, data: st.DataObject) -> Session:
    """The corners of item 1: the van emptied by paid extra draws, the reserve by a card that
    gains everything, by legal actions only."""
    if data.draw(st.booleans(), label="empty the van"):
        for _ in range(12):
            pays = [r for r in s.ruleset.legal_actions(s.state, None)
                    if r["cmd"] == "extra_draw" and r["pay"] != "health"]
            if not pays:
                break
            s.handle(pays[0])
        if not any(s.state.van.values()):
            event("the van is empty")
    if data.draw(st.booleans(), label="empty the reserve"):
        cards = [r for r in s.ruleset.legal_actions(s.state, None) if r["cmd"] == "play_card"]
        if cards:
            s.handle({**cards[0], "gain": {"fuel": 6, "radio": 6, "weapon": 6},
                      "clues": data.draw(st.lists(st.sampled_from(SYMBOLS), max_size=2))})
            if not any(s.state.reserve.values()):
                event("the reserve is empty")
    return s


@pytest.mark.slow(45)
@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_legal_action_is_reachable_from_the_buttons_and_nothing_else(
        data: st.DataObject) -> None:
    s = drained(play(data), data)
    if len(s.state.players) == 1:
        event("solo")
    if any(p.health == 1 for p in s.state.players):
        event("one health token left")
    event(f"screen: {BoxController(s, idle_s=None).view().screen}")
    assert offered(s) == legal(s)


def corner(players: int, difficulty: str) -> Session:
    """Phase B of round 1 with the van emptied by paid extra draws (health as it started)."""
    s = Session(seed=bytes(range(32)))
    start: dict[str, Any] = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
                             "difficulty": difficulty,
                             "players": [{"name": n} for n in ("Ann", "Ben", "Cy")[:players]]}
    if players == 1:
        start["ally"] = "orange"
    assert s.handle(start)["ok"]
    drawn = 0
    while True:
        legal_now = s.ruleset.legal_actions(s.state, None)
        pays = [r for r in legal_now if r["cmd"] == "extra_draw" and r["pay"] != "health"]
        draws = [r for r in legal_now if r["cmd"] == "draw"]
        if draws:
            assert s.handle(draws[0])["ok"]
        elif pays and drawn < 9:
            assert s.handle(pays[0])["ok"]
            drawn += 1
        else:
            break
    for r in s.ruleset.legal_actions(s.state, None):
        if r["cmd"] == "play_card":
            assert s.handle({**r, "gain": {"radio": 6}})["ok"] or True
    for _ in range(2):
        if {"cmd": "end_phase"} in s.ruleset.legal_actions(s.state, None):
            s.handle({"cmd": "end_phase"})
    return s


def test_the_corners_empty_van_one_health_solo_offer_exactly_the_legal_actions() -> None:
    for players, difficulty in ((2, "impossible"), (1, "impossible"), (3, "easy")):
        s = corner(players, difficulty)
        assert s.state.phase in ("A", "A/B", "B"), s.state.phase
        assert offered(s) == legal(s), (players, difficulty)
