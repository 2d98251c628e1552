"""House-rule values on the new-game form (issue 15): ambiguous numbers refused, values the
game cannot use refused in a player's words, allowed values that spoil the game warned about
(Start again to play anyway); and the seat buttons say why they do nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Input

from referee.games.gallery_grippers.catalog import default_catalog
from referee.games.gallery_grippers.settings import HouseRules, setting_warnings
from referee.session import Session
from tests.ui.conftest import SEED, keys, typed
from tests.ui.test_duplicate_cards import SMALL
from ui.app import make_app
from ui.games.gallery_grippers.setup import whole_number

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


@pytest.mark.parametrize(("text", "read"), [
    ("123", 123), ("1,000,000", 1_000_000), ("$200,000,000", 200_000_000), ("1_000", 1000),
    ("12 345", 12345), (" 7 ", 7)])
def test_whole_numbers_as_players_write_them(text: str, read: int) -> None:
    assert whole_number(text) == read


@pytest.mark.parametrize("text", ["1,2,3", "1,00", "1000,000", "12,34,567", ",100", "1,,000"])
def test_commas_that_are_not_thousands_are_refused_not_guessed(text: str) -> None:
    said = whole_number(text)
    assert isinstance(said, str) and ("ambiguous" in said or "not a whole number" in said)


@given(st.integers(0, 10**18))
def test_any_number_written_with_thousands_commas_reads_back(n: int) -> None:
    assert whole_number(f"{n:,}") == n and whole_number(f"${n}") == n


def test_gg8_gg14_warnings_for_unreachable_values() -> None:
    catalog = default_catalog()
    assert setting_warnings(HouseRules(), catalog) == []
    said = dict(setting_warnings(HouseRules(bypass_target=1000, win_money=10**15), catalog))
    assert set(said) == {"bypass_target", "win_money"}
    assert "every obstacle fails" in said["bypass_target"]
    assert "nobody can win" in said["win_money"]
    assert "no obstacle" in dict(setting_warnings(HouseRules(bypass_target=1), catalog))[
        "bypass_target"]


def error(app: Any) -> str:
    return str(app.screen.query_one("#error").render())


async def fill(app: Any, pilot: Any, rule: str, value: str) -> None:
    await keys(pilot, *typed("Ann"), "enter", *typed("Ben"))
    await pilot.pause()
    app.screen.query_one(f"#rule-{rule}", Input).value = value


@pytest.mark.parametrize(("rule", "value", "said"), [
    ("fence_bonus_per_extra_piece", "1,2,3", "Sale bonus (GG-13): '1,2,3' is ambiguous"),
    ("win_money", "99,999,999,999,999,999,999",
     "Winning money (GG-14) must be a whole number, 1 or more (at most 1,000,000,000,000,000)"),
    ("bypass_target", "0", "Bypass target (GG-8) must be a whole number from 1 to 1000"),
])
async def test_a_value_the_game_cannot_take_is_refused_in_the_form_s_words(
        rule: str, value: str, said: str) -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await fill(app, pilot, rule, value)
        await keys(pilot, "ctrl+s", "ctrl+s")
        assert s.state.players == ()  # no game
        assert said in error(app)
        assert "rules." not in error(app) and "[" not in error(app)  # no protocol names


async def test_gg8_an_unreachable_bypass_target_is_warned_then_started_if_meant() -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await fill(app, pilot, "bypass_target", "1000")
        await keys(pilot, "ctrl+s")
        assert s.state.players == ()
        assert "no bypass can reach 1000" in error(app) and "Ctrl+S again" in error(app)
        await keys(pilot, "ctrl+s")
        assert s.state.rules.bypass_target == 1000


async def test_a_seventh_player_and_removing_the_last_say_why() -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, *["ctrl+n"] * 4)
        assert len(app.screen.query(".player-form")) == 6
        await keys(pilot, "ctrl+n")
        assert len(app.screen.query(".player-form")) == 6
        assert "1 to 6 players" in error(app)
        await keys(pilot, *["ctrl+r"] * 6)
        assert len(app.screen.query(".player-form")) == 1
        assert "at least one player" in error(app)
