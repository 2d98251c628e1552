"""A whole two-player game played through the console with keys only (issue #4)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from referee.games.gallery_grippers.state import Phase
from tests.ui.conftest import SIZE, keys, move, new_game, played, session, typed
from ui.app import make_app
from ui.games.gallery_grippers.info import GameOverScreen, UndoConfirm
from ui.games.gallery_grippers.pending import ChoiceDialog, ObstacleDialog, VerdictScreen
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import SellDialog, TileDialog

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

# Tile positions in the move dialog's list.
OUT = {"airport": 0, "recruitment": 1, "trading": 2, "black_market": 3, "security": 4,
       "alarm": 5, "art": 6, "plain": 7}
IN = {"security": 0, "alarm": 1, "art": 2, "exit": 3, "plain": 4}
LOUVRE, MET = 0, 1


@pytest.mark.slow(6)
async def test_two_player_game_to_a_win_with_keys_only() -> None:
    s = session()
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await new_game(pilot)
        assert isinstance(app.screen, TableScreen)
        st = s.state
        assert st.phase is Phase.PLAYING and st.current_player.name == "Ann"
        assert all(p.hand_size == 6 for p in st.players)

        # Ann: into the Louvre's art quadrant, steals the Mona Lisa.
        await move(pilot, 3, OUT["art"], LOUVRE)
        await keys(pilot, "s", "enter")
        ann = s.state.player("Ann")
        assert [a.name for a in ann.art] == ["Mona Lisa"] and ann.where == "The Louvre"
        await keys(pilot, "e")
        assert s.state.current_player.name == "Ben"
        await move(pilot, 2, OUT["plain"])
        await keys(pilot, "e")

        # Ann meets security carrying art, plays no card, the typed roll fails.
        await move(pilot, 4, IN["security"])
        assert isinstance(app.screen, ObstacleDialog)
        await keys(pilot, "escape")  # a pending decision cannot be skipped
        assert isinstance(app.screen, ObstacleDialog)
        await keys(pilot, "tab", "tab", *typed("10"), "enter")
        assert isinstance(app.screen, VerdictScreen)
        verdict = str(app.screen.query_one("#verdict-sum", Static).render())
        assert "roll (physical, typed)" in verdict and "= total" in verdict and "-25" in verdict
        assert "FAILED" in str(app.screen.query(Static).first().render())
        await keys(pilot, "enter")
        # Caught with art and no strikes: keep it (2 strikes).
        assert isinstance(app.screen, ChoiceDialog) and app.screen.decision == "caught"
        await keys(pilot, "down", "enter")
        ann = s.state.player("Ann")
        assert ann.strikes == 2 and [a.name for a in ann.art] == ["Mona Lisa"]
        assert isinstance(app.screen, TableScreen)
        await keys(pilot, "e")
        await move(pilot, 1, OUT["plain"])
        await keys(pilot, "e")

        # Ann leaves by the exit, then sells at the black market.
        await move(pilot, 5, IN["exit"])
        assert s.state.player("Ann").where is None
        await keys(pilot, "e")
        await move(pilot, 1, OUT["plain"])
        await keys(pilot, "e")
        await move(pilot, 2, OUT["black_market"])
        await keys(pilot, "l")
        assert isinstance(app.screen, SellDialog)
        price = str(app.screen.query_one("#price", Static).render())
        assert "$700,000,000" in price
        await keys(pilot, "s")
        assert s.state.player("Ann").money == 700_000_000
        assert isinstance(app.screen, TableScreen)
        await keys(pilot, "e")

        # Ben lands on the airport by mistake: undo says what it takes back, then the fix.
        await move(pilot, 6, OUT["airport"])
        await keys(pilot, "ctrl+z")
        assert isinstance(app.screen, UndoConfirm)
        what = str(app.screen.query_one("#undo-what", Static).render())
        assert "Ben rolls 6 → Airport" in what
        await keys(pilot, "y")
        assert not s.state.turn.moved and s.log[-2].undone
        assert isinstance(app.screen, TileDialog) and s.state.turn.rolled == 6  # die stays
        await keys(pilot, *["down"] * OUT["plain"], "enter")
        assert s.state.turn.tile == "plain"
        await keys(pilot, "e")

        # Ann: steal a second piece and sell it for the win.
        await move(pilot, 1, OUT["art"], MET)
        await keys(pilot, "s", "enter")
        await keys(pilot, "e")
        await move(pilot, 3, OUT["plain"])
        await keys(pilot, "e")
        await move(pilot, 2, IN["exit"])
        await keys(pilot, "e")
        await move(pilot, 3, OUT["plain"])
        await keys(pilot, "e")
        await move(pilot, 4, OUT["black_market"])
        await keys(pilot, "l", "s")
        st = s.state
        assert st.over and st.winner == "Ann" and st.player("Ann").money == 1_200_000_000
        assert isinstance(app.screen, GameOverScreen)
        assert str(app.screen.query_one("#seed", Static).render()) == SEED_HEX


SEED_HEX = bytes(range(32)).hex()


async def test_new_game_form_three_players_colours_and_house_rules() -> None:
    s = session()
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "ctrl+n", *typed("Cy"))
        await keys(pilot, "tab", "enter")  # Cy's colour: one step on from bluish green
        await keys(pilot, "ctrl+s")
        st = s.state
        assert [(p.name, p.color) for p in st.players] == [
            ("Ann", "orange"), ("Ben", "sky blue"), ("Cy", "yellow")]
        assert st.rules.win_money == 1_000_000_000


async def test_refusals_are_shown_inline_with_the_rule() -> None:
    app = make_app(played())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r", "e")  # resume; end the turn before moving
        error = app.screen.query_one("#error", Static)
        assert str(error.render()) == "✗ GG-4 Ann must roll to move before ending the turn."
        assert error.has_class("-shown")
        await keys(pilot, "l")  # selling away from the black market
        assert "GG-13" in str(app.screen.query_one("#error", Static).render())
