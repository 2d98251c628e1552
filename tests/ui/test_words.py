"""The console speaks words, not the protocol's tokens (issue 15)."""

from __future__ import annotations

import re

import pytest

from referee.games.gallery_grippers.commands import CHOICES
from referee.session import LogEntry
from tests.ui.conftest import keys, played
from tests.ui.test_duplicate_cards import SMALL
from ui.app import make_app
from ui.games.gallery_grippers import format as fmt
from ui.games.gallery_grippers.pending import VerdictScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

TOKEN = re.compile(r"\b[a-z]+_[a-z_]+\b|\breenter\b")


def entry(command: dict[str, object], events: list[dict[str, object]]) -> LogEntry:
    return LogEntry(seq=9, command=command, events=events, undone=False)


@pytest.mark.parametrize("choice", CHOICES)
def test_gg10_a_choice_is_logged_in_words(choice: str) -> None:
    line = fmt.describe(entry({"cmd": "choose", "player": "Ann", "choice": choice}, []))
    assert choice not in line.split() and "chooses" not in line


@pytest.mark.parametrize("cmd", sorted(fmt.COMMAND_WORDS))
def test_an_undo_names_the_step_in_words(cmd: str) -> None:
    line = fmt.describe(entry({"cmd": "undo", "undoes": 3}, [{"type": "undone", "cmd": cmd}]))
    assert not TOKEN.search(line), line


@pytest.mark.parametrize("reason", ["money", "third_strike", "last_player_standing"])
def test_the_end_of_the_game_in_words(reason: str) -> None:
    lines = fmt.consequences([{"type": "game_over", "winner": "Ann", "reason": reason}])
    assert not TOKEN.search(" ".join(lines)) and f"({reason})" not in " ".join(lines)


async def test_gg8_the_verdict_shows_the_art_deduction_with_one_minus() -> None:
    s = played()  # Ann carries the Mona Lisa (−35)
    assert s.handle({"cmd": "move", "player": "Ann", "tile": "security", "roll": 2})["ok"]
    assert s.handle({"cmd": "bypass", "player": "Ann", "roll": 10})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        app.open(VerdictScreen(s.log[-1]))
        await pilot.pause()
        text = str(app.screen.query_one("#verdict-sum").render())
        art = next(line for line in text.splitlines() if "Mona Lisa" in line)
        assert art.count("−") + art.count("-") == 1, art


async def test_gg13_a_ticked_piece_shows_a_tick_not_only_a_colour() -> None:
    from tests.ui.test_said_not_silent import WIN
    from ui.screens.ticks import TickList

    s = played()
    for request in WIN[:5]:  # Ann at the black market with the Mona Lisa
        assert s.handle(request)["ok"], request
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "l")  # resume; sell
        lst = app.screen.query_one("#sell-list", TickList)
        assert lst.render_line(0).text.startswith("▐✓▌ Mona Lisa")
        await keys(pilot, "space")
        assert lst.render_line(0).text.startswith("▐ ▌ Mona Lisa")
        assert lst.ticked_text() == ["  Mona Lisa  $700,000,000"]


async def test_the_museum_step_names_the_tile_picked_not_another() -> None:
    """Issue 42: "Plain tile in a museum (you enter it)" picked, the museum step said
    "Landed on Plain tile (nothing happens)". Every tile that asks for a museum next is
    named there as the list named it."""
    from ui.games.gallery_grippers.turn import TileDialog, tile_choices

    s = played()
    for request in ({"cmd": "move", "player": "Ann", "tile": "plain", "roll": 1},
                    {"cmd": "end_turn", "player": "Ann"}):
        assert s.handle(request)["ok"], request
    listed = tile_choices(s.state, "Ben")  # Ben is outside: every museum tile enters one
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r", "4")  # resume; Ben rolls a typed 4
        dialog = app.screen
        assert isinstance(dialog, TileDialog)
        asked = [i for i, (_, landing) in enumerate(listed) if landing.museums]
        assert any("enter" in listed[i][0] for i in asked)
        for i in asked:
            await keys(pilot, *["down"] * i, "enter")  # the tile: the museums are asked next
            title = str(dialog.query_one("#tile-title").render())
            assert title.startswith(f"Landed on {listed[i][0]} "), (title, listed[i][0])
            await keys(pilot, "backspace", *["up"] * i)  # another tile


def test_ordinals() -> None:
    from ui.games.gallery_grippers.info import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "14th", "21st", "22nd", "101st",
        "111th", "112th"]


async def test_the_undo_prompt_says_the_step_in_the_tables_words() -> None:
    """Issue 42: "This takes back step #14" (the log's number, machine-ish): the prompt asks
    in words what it takes back, and says which step in the log it is."""
    from ui.games.gallery_grippers.info import UndoConfirm

    s = played()
    assert s.handle({"cmd": "move", "player": "Ann", "tile": "plain", "roll": 4})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+z")  # resume; undo?
        assert isinstance(app.screen, UndoConfirm)
        what = str(app.screen.query_one("#undo-what").render())
        assert "#" not in what and "step #" not in what
        assert what.startswith("Take back Ann rolls 4 → "), what
        assert f"the {len(s.log)}th step in the log" in what, what
