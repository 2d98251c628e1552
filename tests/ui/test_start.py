"""How the console starts: its first screen, and the garbage collector paused until it is up."""

from __future__ import annotations

import gc
from typing import Any

from textual.pilot import Pilot

from tests.ui.conftest import SIZE, keys, session, typed
from ui.app import make_app, run_app
from ui.games.gallery_grippers.hands import HandsScreen, balanced_hands
from ui.games.gallery_grippers.setup import NewGameScreen, StartScreen
from ui.games.gallery_grippers.table import TableScreen


def test_gc_is_paused_until_the_first_screen_is_drawn() -> None:
    assert gc.isenabled()
    gc.unfreeze()
    app = make_app(session())
    seen: dict[str, Any] = {}
    # Registered before run_app registers its own: runs while the collector is still off.
    app.when_first_screen_drawn(lambda: seen.setdefault("at_first_frame", gc.isenabled()))

    async def play(pilot: Pilot[Any]) -> None:
        seen["while_starting"] = gc.isenabled()
        while "at_first_frame" not in seen:
            await pilot.pause()
        await pilot.pause()
        seen["after"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count() > 0  # start-up's objects: out of collections
        seen["screen"] = type(app.screen)
        await pilot.press("ctrl+q")

    status = run_app(app, headless=True, size=SIZE, auto_pilot=play)
    assert status == 0
    assert seen == {"while_starting": False, "at_first_frame": False, "after": True,
                    "frozen": True, "screen": NewGameScreen}
    assert gc.isenabled()


def test_gc_is_back_on_when_the_app_fails_before_its_first_screen() -> None:
    class Broken(NewGameScreen):
        def compose(self) -> Any:
            raise RuntimeError("no form today")

    app = make_app(session())
    app.get_default_screen = Broken  # type: ignore[method-assign]
    assert run_app(app, headless=True, size=SIZE) == 1
    assert gc.isenabled()


async def test_the_first_screen_is_the_bottom_one_and_is_replaced_as_play_moves_on() -> None:
    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [NewGameScreen]
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "ctrl+s")
        assert [type(s) for s in app.screen_stack] == [HandsScreen]


async def test_a_game_in_progress_opens_on_its_table_with_the_resume_question() -> None:
    s = session()
    s.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})
    for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
        assert s.handle({"cmd": "deal", "player": name, **hand})["ok"]
    assert s.handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}})["ok"]
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(x) for x in app.screen_stack][:2] == [TableScreen, StartScreen]
        await keys(pilot, "r")
        assert type(app.screen) is not StartScreen
        assert type(app.screen_stack[0]) is TableScreen


async def burst(pilot: Pilot[Any], text: str) -> None:
    """Keys arriving all at once, as from a fast typist or a paste: every key is queued on
    the app before the first is handled (Pilot.press would wait between keys)."""
    from textual import events

    for ch in text:
        if ch == "^":  # ^ stands for Ctrl+S here
            pilot.app.post_message(events.Key("ctrl+s", None))
            continue
        key = "enter" if ch == "\n" else ch
        pilot.app.post_message(events.Key(key, "\r" if ch == "\n" else ch))
    await pilot.pause()
    await pilot.pause()


async def test_names_typed_in_a_burst_land_in_their_own_fields() -> None:
    from textual.widgets import Input

    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await burst(pilot, "Ann\nBen\nx")
        names = [app.screen.query_one(f"#name-{i}", Input).value for i in range(2)]
        assert names == ["Ann", "Ben"]  # Enter on the last name goes to Start: x is no name
        assert app.screen.focused is not None and app.screen.focused.id == "start"


async def test_turn_order_dice_typed_in_a_burst_are_recorded_for_each_player() -> None:
    s = session()
    s.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})
    for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
        assert s.handle({"cmd": "deal", "player": name, **hand})["ok"]
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")  # resume
        await burst(pilot, "2\n5\n")
        first = s.state.first_player
        assert first == "Ben", [e.command for e in s.log][-1:]


async def test_start_right_behind_a_burst_of_names_reads_them_whole() -> None:
    s = session()
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await burst(pilot, "Ann\nBenedict^")
        await pilot.pause()
        assert [p.name for p in s.state.players] == ["Ann", "Benedict"]
