"""Snapshots of the console's main screens at 100x32 (pytest-textual-snapshot)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from tests.ui.conftest import SIZE, keys, played, session, typed
from ui.app import make_app


def test_new_game_screen(snap_compare: Any) -> None:
    async def fill(pilot: Pilot[Any]) -> None:
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "enter")

    assert snap_compare(make_app(session()), terminal_size=SIZE, run_before=fill)


def test_table_screen(snap_compare: Any) -> None:
    async def resume(pilot: Pilot[Any]) -> None:
        await keys(pilot, "r")  # resume the game in progress

    assert snap_compare(make_app(played()), terminal_size=SIZE, run_before=resume)


def test_verdict_screen(snap_compare: Any) -> None:
    async def fail(pilot: Pilot[Any]) -> None:
        await keys(pilot, "r", "r", "4", "enter")  # resume; Ann lands on security
        await keys(pilot, "down", "tab", "down", "tab", *typed("10"), "enter")

    assert snap_compare(make_app(played()), terminal_size=SIZE, run_before=fail)


def test_rules_screen(snap_compare: Any) -> None:
    async def rules(pilot: Pilot[Any]) -> None:
        await keys(pilot, "r", "f1")

    assert snap_compare(make_app(played()), terminal_size=SIZE, run_before=rules)


def test_game_over_screen(snap_compare: Any) -> None:
    s = played()
    for request in ({"cmd": "move", "player": "Ann", "tile": "exit", "roll": 5},
                    {"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "plain", "roll": 1},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "black_market", "roll": 2},
                    {"cmd": "sell", "player": "Ann"}):
        assert s.handle(request)["ok"]
    assert not s.state.over
    for request in ({"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "security",
                     "museum": "The Uffizi Gallery", "roll": 1},
                    {"cmd": "bypass", "player": "Ben", "roll": 1},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "art", "museum": "The Rijksmuseum",
                     "roll": 4},
                    {"cmd": "steal", "player": "Ann", "art": "The Milkmaid"},
                    {"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "exit", "roll": 1},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "exit", "roll": 2},
                    {"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "plain", "roll": 3},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "black_market", "roll": 6},
                    {"cmd": "sell", "player": "Ann"}):
        answer = s.handle(request)
        assert answer["ok"], (request, answer)
    assert s.state.over and s.state.winner == "Ann"
    assert snap_compare(make_app(s), terminal_size=SIZE)
