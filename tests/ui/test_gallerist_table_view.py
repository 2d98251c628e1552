"""The Gallerist's clock stays readable at 80×24 (issue 39): every artist, what `next` owes
(a coming intermediate scoring too), which end conditions hold, with any entry dialog open;
a record's dialog says why it is not for the one acting now; money carries its reason and a
reputation tile taken in play is recorded, both in the log's words. The screen is read as
the terminal shows it (Textual's pilot at 80×24)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.gallerist.rules.common import end_conditions
from referee.session import Session
from tests.ui.conftest import SEED, keys, typed
from ui.app import make_app
from ui.base import Choices
from ui.games.gallerist.screens import (
    END_WORDS,
    Entry,
    EntryDialog,
    ScoresScreen,
    log_lines,
)

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
LONG = ["Annabelle-Marie", "Benjamin Oswald", "Cyrille Duponte", "Dorothea Klein"]


def ok(s: Session, **request: Any) -> None:
    answer = s.handle(request)
    assert answer["ok"], answer


def four_players(pink_left: int = 1) -> Session:
    """Four long names, round 1: the first player moved, took the location action, and the
    pink stack is down to `pink_left`."""
    s = Session(seed=SEED)
    ok(s, cmd="new_game", game="gallerist", players=LONG, start_player=LONG[0],
       bag={"pink": 8, "brown": 8, "white": 8})
    for name, where in zip(reversed(LONG), ("Artists Colony", "Media Centre",
                                           "International Market", "Sales Office"),
                           strict=True):
        ok(s, cmd="place_start", player=name, location=where, tile=f"start {name[0]}")
    ok(s, cmd="move", player=LONG[0], to="Media Centre")
    ok(s, cmd="location_action", player=LONG[0])
    for _ in range(20 - pink_left):
        ok(s, cmd="take_ticket", player=LONG[1], colour="pink")
    return s


def screen_text(app: Any) -> str:
    """What the terminal shows: the top screen over the ones under it, row by row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def flat(text: str) -> str:
    """The screen's words with its line breaks and margins made single spaces."""
    return " ".join(text.split())


def assert_clock_in_view(app: Any, s: Session) -> None:
    state = s.ruleset.state_json(s.state)
    seen = flat(screen_text(app))
    for name, a in state["artists"].items():
        look = "celebrity" if a["celebrity"] else str(a["fame"]) if a["discovered"] else "–"
        assert f"{name} {look}" in seen, (name, seen)
    assert flat(f"next: {state['next']}") in seen, seen
    holding = end_conditions(s.state)
    for c, words in END_WORDS.items():
        assert f"{words}" in seen and (("YES" if c in holding else "no") in seen), seen


async def open_entry(pilot: Any, app: Any, label: str) -> EntryDialog:
    actions = app.screen.query_one("#gal-actions", Choices)
    found = [i for i, v in enumerate(actions.values)
             if isinstance(v, Entry) and v.label.startswith(label)]
    assert found, [getattr(v, "label", v) for v in actions.values]
    actions.focus()
    await keys(pilot, *["down"] * (found[0] - (actions.highlighted or 0)), "enter")
    assert isinstance(app.screen, EntryDialog), app.screen
    return app.screen


async def test_every_artist_the_end_and_a_coming_scoring_are_in_view_at_80x24() -> None:
    s = four_players(pink_left=1)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        assert_clock_in_view(app, s)
        ok(s, cmd="take_ticket", player=LONG[0], colour="pink")  # the last pink ticket
        await keys(pilot, "down", "up")  # (a key: the screen shows the session as it is)
        assert "pink tickets ran out: an intermediate scoring at the end of this turn" in \
            flat(screen_text(app))
        assert_clock_in_view(app, s)


async def test_no_entry_dialog_hides_the_clock_or_its_next_line_at_80x24() -> None:
    s = four_players(pink_left=3)
    ok(s, cmd="discover", player=LONG[0], artist="Red 1", fame=18)
    ok(s, cmd="fame", artist="Red 1", by=LONG[0], steps=1)  # a celebrity
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        labels = [v.label for v in app.screen.query_one("#gal-actions", Choices).values
                  if isinstance(v, Entry)]
        assert len(labels) > 8, labels
        for label in labels:
            dialog = await open_entry(pilot, app, label)
            assert_clock_in_view(app, s)
            # the dialog's own title and its send key are in view too
            seen = flat(screen_text(app))
            assert flat(dialog.entry.label.rstrip("…")) in seen, (label, seen)
            assert "Send [^S]" in seen, (label, seen)
            await keys(pilot, "escape")
            assert isinstance(app.screen, ScoresScreen)


async def test_a_record_not_for_the_player_acting_now_says_why() -> None:
    """Ben's turn, Ben's desks empty: the market dialog starts on another player and says
    that it is not for Ben, and why (issue 39: it was sent as Ann by mistake)."""
    s = Session(seed=SEED)
    ok(s, cmd="new_game", game="gallerist", players=["Ann", "Ben"], start_player="Ben",
       bag=10)
    ok(s, cmd="place_start", player="Ann", location="Media Centre")
    ok(s, cmd="place_start", player="Ben", location="Artists Colony")
    ok(s, cmd="market", player="Ben", column=1, row="upper")
    ok(s, cmd="market", player="Ben", column=3, row="upper")
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        await open_entry(pilot, app, "An assistant to the market's upper rows")
        seen = flat(screen_text(app))
        assert "Not for Ben (acting now): Ben has no assistant on a desk" in seen, seen
        assert "‹ Ann ›" in seen


async def test_money_asks_its_reason_and_the_log_shows_it() -> None:
    s = four_players(pink_left=5)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        await open_entry(pilot, app, "Money paid or received")
        await keys(pilot, "tab", *typed("-3"), "ctrl+s")
        assert isinstance(app.screen, EntryDialog)  # no reason: the dialog says so, stays
        assert "What for: say it in a few words" in flat(screen_text(app))
        await keys(pilot, "tab", *typed("hired an assistant"), "ctrl+s")
        assert isinstance(app.screen, ScoresScreen)
        last = s.log[-1]
        assert last.command["reason"] == "hired an assistant"
        assert log_lines(s)[0] == (False, f"{LONG[0]} pays 3 money (now 7): hired an "
                                          "assistant")


async def test_a_reputation_tile_taken_in_play_is_recorded() -> None:
    s = four_players(pink_left=5)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        await open_entry(pilot, app, "A reputation tile taken")
        await keys(pilot, "right", "tab", *typed("3 per collector"), "ctrl+s")
        assert isinstance(app.screen, ScoresScreen)
        player = s.ruleset.state_json(s.state)["players"][1]
        assert player["reputation_tiles"] == ["start B", "3 per collector"]
        assert log_lines(s)[0] == (False, f"{LONG[1]} takes reputation tile 3 per collector")
