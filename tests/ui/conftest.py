"""Helpers for driving the console with keys, on a session with a fixed seed."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
from textual.pilot import Pilot

from referee.session import Session

SEED = bytes(range(32))
SIZE = (100, 32)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (the project has no asyncio plugin)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names}))
    return True


def session() -> Session:
    return Session(seed=SEED)


async def keys(pilot: Pilot[Any], *presses: str) -> None:
    """Press keys one at a time, letting the app settle after each (no sleeping)."""
    for key in presses:
        await pilot.press(key)
        await pilot.pause()


def typed(text: str) -> list[str]:
    return list(text)


async def new_game(pilot: Pilot[Any], names: tuple[str, ...] = ("Ann", "Ben")) -> None:
    """From the new-game screen: names, Start, balanced hands, typed turn order (first wins)."""
    for name in names:
        await keys(pilot, *typed(name), "enter")
    await keys(pilot, "ctrl+s", "ctrl+b")
    for i, _ in enumerate(names):
        await keys(pilot, "6" if i == 0 else str(min(i, 5)), "enter")
    await keys(pilot, "enter")  # the game-start announcement


async def move(pilot: Pilot[Any], value: int, tile_index: int,
               museum_index: int | None = None) -> None:
    """Roll to move with a typed d6 and pick the tile (and museum) by position."""
    await keys(pilot, "r", str(value), *["down"] * tile_index, "enter")
    if museum_index is not None:
        await keys(pilot, *["down"] * museum_index, "enter")


def played(s: Session | None = None) -> Session:
    """A game in play, driven straight through the session: Ann holds the Mona Lisa inside
    the Louvre and it is her turn again (turn 3), not yet moved."""
    from ui.games.gallery_grippers.hands import balanced_hands

    s = s or session()

    def ok(**request: Any) -> None:
        answer = s.handle(request)
        assert answer["ok"], answer

    ok(cmd="new_game", players=["Ann", "Ben"])
    for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
        ok(cmd="deal", player=name, **hand)
    ok(cmd="turn_order", rolls={"Ann": 6, "Ben": 1})
    ok(cmd="move", player="Ann", tile="art", museum="The Louvre", roll=3)
    ok(cmd="steal", player="Ann", art="Mona Lisa")
    ok(cmd="end_turn", player="Ann")
    ok(cmd="move", player="Ben", tile="plain", roll=2)
    ok(cmd="end_turn", player="Ben")
    return s


def ticking(app: Any) -> list[str]:
    """The repeating timers (Textual's `set_interval`) running anywhere in the app: each one
    wakes the console while it waits (docs/performance.md, idle). One-shot timers (a
    notification's timeout, the box's next deadline) are not counted: they end; nor is a
    screen's frame timer (`screen_update`), which Textual runs only while a redraw is due."""
    nodes = [app, *app.screen_stack]
    for screen in app.screen_stack:
        nodes += list(screen.walk_children())
    return [f"{type(node).__name__} {timer.name} every {timer._interval} s"
            for node in nodes for timer in list(node._timers)
            if timer._repeat != 0 and timer._task is not None and not timer._task.done()
            and timer._active.is_set() and timer.name != "screen_update"]


def check_still(app: Any) -> None:
    """Nothing ticks while the console waits, and the focused text field (if one is)
    shows its cursor, lit, not blinking: a player sees where they type."""
    assert not ticking(app), ticking(app)
    focused = app.focused
    if focused is not None and hasattr(focused, "cursor_blink"):
        assert not focused.cursor_blink, type(focused).__name__
        assert focused._cursor_visible, type(focused).__name__
