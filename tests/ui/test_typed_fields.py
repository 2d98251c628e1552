"""Typed die fields (issue 15): what a field holds is what is sent; an empty or invalid
field says what it wants and shows, before Enter, what Enter will do."""

from __future__ import annotations

import pytest

from referee.session import Session
from tests.ui.conftest import SEED, keys, typed
from tests.ui.test_duplicate_cards import SMALL, to_the_obstacle
from ui.app import make_app
from ui.games.gallery_grippers.pending import ObstacleDialog

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


async def test_keys_typed_ahead_at_the_obstacle_reach_the_d100_field() -> None:
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, ObstacleDialog)
        before = len(s.log)
        await pilot.press("tab", "tab", "5", "0", "enter")  # fast: no pause between keys
        await pilot.pause()
        assert len(s.log) == before + 1
        roll = next(e for e in s.log[-1].events if e["type"] == "roll")
        assert (roll["value"], roll["source"]) == (50, "physical")


async def test_enter_in_the_card_lists_then_digits_typed_fast() -> None:
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        before = len(s.log)
        await pilot.press("down", "enter", "enter", "4", "2", "enter")
        await pilot.pause()
        assert len(s.log) == before + 1
        roll = next(e for e in s.log[-1].events if e["type"] == "roll")
        assert (roll["value"], roll["source"]) == (42, "physical")


async def test_digits_typed_in_a_card_list_go_to_the_d100_field() -> None:
    """Digits mean nothing in the card lists: typed there (one Tab short), they are the roll."""
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        before = len(s.log)
        await pilot.press("tab", "5", "0", "enter")
        await pilot.pause()
        assert len(s.log) == before + 1
        roll = next(e for e in s.log[-1].events if e["type"] == "roll")
        assert (roll["value"], roll["source"]) == (50, "physical")


def hint(app: object) -> str:
    return str(app.screen.query_one("#d100-hint").render())  # type: ignore[attr-defined]


async def test_letters_in_the_d100_field_stay_and_enter_rolls_nothing() -> None:
    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "tab", "tab")  # resume; to the d100 field
        assert "lets the box roll the d100" in hint(app)  # said before Enter
        await keys(pilot, *typed("abc"))
        assert app.screen.query_one("#d100").value == "abc"  # type: ignore[attr-defined]
        assert "type 1–100, or leave empty for the box to roll" in hint(app)
        before = len(s.log)
        await keys(pilot, "enter")
        assert len(s.log) == before  # no electronic roll
        assert "not a number" in str(app.screen.query_one("#error").render())
        await keys(pilot, *["backspace"] * 3, *typed("101"))
        assert "not 101" in hint(app)
        await keys(pilot, "enter")
        assert len(s.log) == before
        await keys(pilot, "backspace", "backspace", "backspace", *typed("7"))
        assert "records the real d100 roll 7" in hint(app)
        await keys(pilot, "enter")
        roll = next(e for e in s.log[-1].events if e["type"] == "roll")
        assert (roll["value"], roll["source"]) == (7, "physical")


async def test_gg3_a_turn_order_die_that_is_no_face_stays_and_says_what_it_wants() -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        for name in ("Ann", "Ben"):
            await keys(pilot, *typed(name), "enter")
        await keys(pilot, "ctrl+s", "ctrl+b")  # start; balanced hands
        await keys(pilot, "7")
        assert app.screen.query_one("#d6-0").value == "7"  # type: ignore[attr-defined]
        assert "a d6 shows 1–6, not 7" in str(app.screen.query_one("#error").render())
        await keys(pilot, "enter", "3", "enter")
        assert not any(e.command["cmd"] == "turn_order" for e in s.log)
        assert "Ann's d6" in str(app.screen.query_one("#error").render())
        await keys(pilot, "backspace", "5", "enter", "enter")
        assert s.log[-1].command["cmd"] == "turn_order"


async def test_keys_right_behind_a_tab_follow_the_focus() -> None:
    """Keys that arrive together (typed fast, or pasted) are read by the app before the
    first is handled: a Tab must move the focus as it is read, or the keys behind it go to
    the field it leaves."""
    from textual import events

    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        for key, char in (("tab", "\t"), ("tab", "\t"), ("x", "x"), ("y", "y")):
            app.post_message(events.Key(key, char))  # all queued at once
        await pilot.pause()
        assert app.screen.query_one("#d100").value == "xy"  # type: ignore[attr-defined]
        assert "'xy' is not a number" in hint(app)


async def test_gg3_turn_order_dice_typed_with_tabs_in_a_burst_land_in_their_fields() -> None:
    from textual import events

    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        for name in ("Ann", "Ben"):
            await keys(pilot, *typed(name), "enter")
        await keys(pilot, "ctrl+s", "ctrl+b")  # start; balanced hands
        for key, char in (("6", "6"), ("tab", "\t"), ("2", "2")):
            app.post_message(events.Key(key, char))  # all queued at once
        await pilot.pause()
        assert [app.screen.query_one(f"#d6-{i}").value  # type: ignore[attr-defined]
                for i in (0, 1)] == ["6", "2"]


async def test_gg5_a_tile_and_its_museum_picked_in_one_burst_of_keys() -> None:
    """Enter on a museum's tile replaces the tile list by the museum list: the keys typed
    right behind it pick the museum (they must not move or pick in the hidden tile list)."""
    from textual import events

    from ui.games.gallery_grippers.turn import TileDialog, tile_choices

    s = Session(seed=SEED)
    for request in ({"cmd": "new_game", "players": ["Ann", "Ben"]},
                    {"cmd": "deal", "player": "Ann", "specialists": ["Lookout", "Hacker",
                     "Safecracker"], "attributes": ["Lock Picks", "Steroids", "Smoke Bomb"]},
                    {"cmd": "deal", "player": "Ben", "specialists": ["Lookout", "Hacker",
                     "Safecracker"], "attributes": ["Lock Picks", "Steroids", "Smoke Bomb"]},
                    {"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}},
                    {"cmd": "move_roll", "player": "Ann", "roll": 3}):
        assert s.handle(request)["ok"], request
    tiles = [landing for _, landing in tile_choices(s.state, "Ann")]
    at = next(i for i, x in enumerate(tiles) if x.tile == "art" and len(x.museums) > 1)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: where did the pawn land?
        assert isinstance(app.screen, TileDialog)
        burst = [("down", None)] * at + [("enter", "\r"), ("down", None), ("enter", "\r")]
        for key, char in burst:
            app.post_message(events.Key(key, char))  # all queued at once
        await pilot.pause()
        moved = next(e for e in s.log[-1].events if e["type"] == "moved")
        assert (moved["tile"], moved["museum"]) == ("art", tiles[at].museums[1])


async def test_gg6_cards_and_roll_in_one_burst_of_keys() -> None:
    from textual import events

    s = to_the_obstacle(Session(seed=SEED))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: the obstacle
        burst = [("down", None), ("enter", "\r"), ("down", None), ("down", None), ("down", None),
                 ("enter", "\r"), ("4", "4"), ("2", "2"), ("enter", "\r")]
        for key, char in burst:
            app.post_message(events.Key(key, char))  # all queued at once
        await pilot.pause()
        b = next(e for e in s.log[-1].events if e["type"] == "bypass")
        assert (b["specialist"], b["attribute"], b["roll"]) == ("Lookout", "Steroids", 42)
