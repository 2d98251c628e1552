"""The trade, draw and re-up dialogs and the re-roll tie-break, driven by keys (issue #4)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from referee.games.gallery_grippers.state import Phase
from referee.session import Session
from tests.ui.conftest import keys, session
from ui.app import DECISIONS, make_app
from ui.base import KeyBar
from ui.games.gallery_grippers.hands import TurnOrderScreen
from ui.games.gallery_grippers.pending import DIALOGS, DrawDialog, ReupDialog, VerdictScreen
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import TileDialog, TradeDialog
from ui.games.gallery_grippers.widgets import EventLog, TurnBanner

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
TRADING = 2  # position in the tile list from outside


def dealt(rules: dict[str, Any] | None = None, rolls: dict[str, int] | None = None) -> Session:
    """Ann and Ben with balanced hands; turn order rolled unless `rolls` is empty."""
    from ui.games.gallery_grippers.hands import balanced_hands

    s = session()
    assert s.handle({"cmd": "new_game", "players": ["Ann", "Ben"], "rules": rules or {}})["ok"]
    for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
        assert s.handle({"cmd": "deal", "player": name, **hand})["ok"]
    rolls = {"Ann": 6, "Ben": 1} if rolls is None else rolls
    if rolls:
        assert s.handle({"cmd": "turn_order", "rolls": rolls})["ok"]
    return s


def test_every_decision_has_a_dialog() -> None:
    assert set(DIALOGS) == DECISIONS


async def test_gg3_reroll_tiebreak_by_keys() -> None:
    s = dealt({"tiebreak": "reroll"}, rolls={})
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, TurnOrderScreen)
        await keys(pilot, "4", "enter", "4", "enter")
        tie = next(p for p in s.state.pending if p.decision == "tiebreak")
        assert tie.options == ("Ann", "Ben") and s.state.phase is Phase.SETUP
        status = str(app.screen.query_one("#order-status", Static).render())
        assert "Tie" in status and "roll again" in status
        await keys(pilot, "2", "enter", "5", "enter")  # only the tied roll again
        st = s.state
        assert st.phase is Phase.PLAYING and st.first_player == "Ben"
        assert [e.command["cmd"] for e in s.log[-2:]] == ["turn_order", "turn_order"]
        assert s.log[-1].command["rolls"]["Ben"]["value"] == 5
        await keys(pilot, "enter")  # the game-start announcement
        assert isinstance(app.screen, TableScreen)


async def test_gg18_reup_then_gg17_draw_a_real_card_and_a_box_card() -> None:
    s = dealt({"reup_at_or_below": 6})
    specialists = sorted(s.state.piles["specialist"])
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: Ann must re-up before anything else
        assert isinstance(app.screen, ReupDialog)
        await keys(pilot, "escape")  # a pending decision stays open
        assert isinstance(app.screen, ReupDialog)
        await keys(pilot, "2")  # the real d6 shows 2: draw two cards
        assert isinstance(app.screen, DrawDialog)
        pend = next(p for p in s.state.pending if p.decision == "draw")
        assert pend.player == "Ann" and pend.info["count"] == 2
        ann = s.state.player("Ann")
        before_spec, before_attr = list(ann.specialists), list(ann.attributes)

        await keys(pilot, "tab", "tab", "enter")  # the real card drawn: first in the list
        ann = s.state.player("Ann")
        assert list(ann.specialists) == [*before_spec, specialists[0]]
        assert isinstance(app.screen, DrawDialog)  # one card still to draw
        assert "Draw 1 card" in str(app.screen.query_one("#draw-title", Static).render())

        await keys(pilot, "ctrl+a")  # the box draws an attribute
        ann = s.state.player("Ann")
        assert len(ann.attributes) == len(before_attr) + 1
        drawn = s.log[-1].command
        assert drawn["deck"] == "attribute" and drawn["pick"]["source"] == "electronic"
        assert not s.state.pending and isinstance(app.screen, TableScreen)


async def test_gg4_trade_attribute_cards_by_keys() -> None:
    s = dealt()
    ann0, ben0 = s.state.player("Ann").attributes, s.state.player("Ben").attributes
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r", "3", *["down"] * TRADING, "enter")  # Ann to trading
        assert s.state.turn.tile == "trading"
        await keys(pilot, "t")
        assert isinstance(app.screen, TradeDialog)
        await keys(pilot, "enter")  # trade with Ben (the only other player)
        await keys(pilot, "space", "tab", "down", "space")  # Ann's first for Ben's second
        await keys(pilot, "ctrl+t")
        ann, ben = s.state.player("Ann"), s.state.player("Ben")
        assert sorted(ann.attributes) == sorted([*ann0[1:], ben0[1]])
        assert sorted(ben.attributes) == sorted([ben0[0], ben0[2], ann0[0]])
        assert isinstance(app.screen, TableScreen)


async def test_80x24_the_table_shows_every_key_on_one_line() -> None:
    s = dealt()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        bar = app.screen.query_one(KeyBar)
        shown = [k.shown for line in bar._lines(bar.size.width) for k in line]
        assert bar.size.height == 1
        assert shown == ["R", "S", "L", "T", "E", "^z", "O", "F1"]


async def test_banner_says_where_the_pawn_landed_after_the_movement_roll() -> None:
    s = dealt()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r", "4")
        assert isinstance(app.screen, TileDialog)
        banner = str(app.screen_stack[0].query_one(TurnBanner).render())
        assert "rolled 4: say where the pawn landed" in banner and "roll to move" not in banner
        log = app.screen_stack[0].query_one(EventLog).entries
        assert log[0][2] == "Ann rolls 4 to move (physical, typed)"
        await keys(pilot, *["down"] * 4, "enter")  # security: the museum list takes the
        tiles, museums = app.screen.query_one("#tiles"), app.screen.query_one("#museums")
        assert not tiles.display and museums.display  # tile list's place (fits 24 lines)
        await keys(pilot, "backspace")  # another tile after all
        assert app.screen.query_one("#tiles").display and s.state.turn.tile is None


async def test_verdict_shows_only_its_own_key() -> None:
    s = dealt()
    for request in ({"cmd": "move", "player": "Ann", "tile": "security",
                     "museum": "The Louvre", "roll": 2},):
        assert s.handle(request)["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "ctrl+r")  # resume; the box rolls the d100
        assert isinstance(app.screen, VerdictScreen)
        bar = app.screen.query_one(KeyBar)
        assert [k.description for k in bar.shown_keys()] == ["Continue"]
        await keys(pilot, "enter")
        assert not isinstance(app.screen, VerdictScreen)


async def test_gg4_a_trade_typed_in_one_burst_of_keys() -> None:
    """Enter on the partner, then Space, Tab, ↓, Space, Ctrl+T all queued at once: the ticks
    land on the cards (not the partner list), and the trade is the one typed."""
    from textual import events

    s = dealt()
    ann0, ben0 = s.state.player("Ann").attributes, s.state.player("Ben").attributes
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r", "3", *["down"] * TRADING, "enter")  # Ann to trading
        await keys(pilot, "t")
        assert isinstance(app.screen, TradeDialog)
        for key, char in (("enter", "\r"), ("space", " "), ("tab", "\t"), ("down", None),
                          ("space", " "), ("ctrl+t", None)):
            app.post_message(events.Key(key, char))
        await pilot.pause()
        ann = s.state.player("Ann")
        assert sorted(ann.attributes) == sorted([*ann0[1:], ben0[1]])


async def test_an_undone_box_draw_is_not_offered_as_a_card_named_by_hand() -> None:
    """The box drew a card and the draw was undone: that card is on the table, and only the
    box may draw it again, from its own deck (the session refuses a named one, `card_kept`,
    and any draw from the other deck, `draw_bound`). The dialog then offers no named card
    and no box draw from the other deck, says why, and the box's draw gives the same card."""
    from referee.games.gallery_grippers import commands as c

    s = dealt({"reup_at_or_below": 6})
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "1")  # resume; the real d6 shows 1: draw one card
        assert isinstance(app.screen, DrawDialog)
        assert app.screen.query_one("#cards").values  # named cards offered
        await keys(pilot, "ctrl+s")  # the box draws a specialist ...
        drawn = next(e for e in s.log[-1].events if e["type"] == "drawn")
        assert drawn["source"] == "box"
        assert s.handle({"cmd": "undo"})["ok"]  # ... and it is taken back
        await pilot.pause()
        assert isinstance(app.screen, DrawDialog)
        assert app.screen.query_one("#cards").values == []  # none from either deck
        refusal = s.refusal(c.Draw("Ann", "attribute"))
        assert refusal is not None and refusal.code == "draw_bound"
        assert app.screen.query_one("#box-attribute").disabled
        assert not app.screen.query_one("#box-specialist").disabled
        words = str(app.screen.query_one("#pick-words").render())
        assert "still on the table, bound to the specialist deck" in words
        await keys(pilot, "ctrl+s")
        again = next(e for e in s.log[-1].events if e["type"] == "drawn")
        assert again["card"] == drawn["card"] and again["source"] == "box"


async def test_the_roll_prompt_says_when_an_undone_roll_is_still_on_the_table() -> None:
    """After the box's movement roll is undone, R gives the same value again and a typed die
    is refused (`die_kept`): the prompt says so before any key, not only after a refusal."""
    s = dealt()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")  # resume; open the move dialog
        how = str(app.screen.query_one("#move-how").render())
        assert "type the real die" in how
        await keys(pilot, "r")  # the box rolls ...
        rolled = next(e for e in s.log[-1].events if e["type"] == "roll")["value"]
        assert s.handle({"cmd": "undo"})["ok"]  # ... and the roll is taken back
        await pilot.pause()
        while not isinstance(app.screen, TableScreen):
            await keys(pilot, "escape")
        await keys(pilot, "r")
        how = str(app.screen.query_one("#move-how").render())
        assert f"gives {rolled} again" in how and "typed die is refused" in how
