"""The A.R.T. table reads what happened (issue 24, item 4): the event log, newest first, in the
ruleset's words, an undone step marked; the play-card form's cost first (not "optional");
city names in any case; the reroll form says what is marked, and why nothing is sent with
nothing marked; a won battle names the artwork only when it took one; a lost city holding
artwork shows both."""

from __future__ import annotations

from typing import Any

import pytest

from referee.running import LogEntry
from referee.session import Session
from referee.words import step_words
from tests.ui.conftest import keys, typed
from ui.app import make_app
from ui.games.art_project.dialogs import BattleDialog, RequestForm, RerollForm, VerdictScreen
from ui.games.art_project.screens import _announce
from ui.games.art_project.table import ArtLog, ArtTableScreen, map_text

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
SMALL = (80, 24)
START = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
         "difficulty": "easy", "players": [{"name": "Ann"}, {"name": "Ben"}]}


def drawn() -> Session:
    s = Session(seed=SEED)
    assert s.handle(START)["ok"]
    for n in ("Ann", "Ann", "Ben", "Ben"):
        assert s.handle({"cmd": "draw", "player": n})["ok"]
    return s


def at_battle() -> Session:
    """Phase C, Ann in Film, a film clue card in the chain, a battle the table rolled 1."""
    s = drawn()
    for request in ({"cmd": "play_card", "player": "Ann", "clues": ["film"]},
                    {"cmd": "play_card", "player": "Ben"}, {"cmd": "end_phase"},
                    {"cmd": "end_phase"}, {"cmd": "move", "player": "Ann", "to": "Film"},
                    {"cmd": "end_phase"}, {"cmd": "end_phase"},
                    {"cmd": "battle", "city": "Film", "leader": "Ann",
                     "rolls": {"Ann": 1}}):
        assert s.handle(request)["ok"], request
    assert s.state.battle is not None
    return s


def log_text(app: Any) -> str:
    return str(app.screen_stack[0].query_one(ArtLog).render())


async def test_the_log_is_newest_first_in_the_rulesets_words_an_undo_marked() -> None:
    s = drawn()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "p", "enter", "tab", *typed("film=2"), "ctrl+s")
        played = s.log[-1]
        assert played.command["agents"] == {"Film": 2}  # the city's own spelling
        assert isinstance(app.screen, ArtTableScreen)
        lines = log_text(app).splitlines()
        assert lines[0] == f"{played.seq:>3} " + step_words(s.ruleset, played.command,
                                                              played.events)
        assert "2 agents placed in Film" in lines[0]
        assert lines[-1].endswith("New game: test-board (easy) for Ann and Ben")
        await keys(pilot, "ctrl+z", "y")
        lines = log_text(app).splitlines()
        assert lines[0].endswith(f"Undone: step {played.seq} (a mission card)")
        assert lines[1].endswith("(undone)")


async def test_the_card_form_puts_its_cost_first_and_never_calls_it_optional() -> None:
    s = drawn()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "p", "enter")
        form = app.screen
        assert isinstance(form, RequestForm)
        assert form.focused is form.query_one("#field-spend")
        labels = [str(w.render()) for w in form.query(".form-label")]
        assert labels[0].startswith("1. The card's cost")
        assert not any("ptional" in text for text in labels)


async def test_the_reroll_form_says_what_is_marked_and_why_nothing_goes_unmarked() -> None:
    s = at_battle()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume: the open battle
        assert isinstance(app.screen, BattleDialog)
        await keys(pilot, "r")
        form = app.screen
        assert isinstance(form, RerollForm)
        before = len(s.log)
        await keys(pilot, "ctrl+s")
        assert len(s.log) == before and app.screen is form
        assert "Mark the dice to reroll" in str(form.query_one("#error").render())
        assert str(form.query_one("#reroll-marked").render()) == "Marked: none"
        await keys(pilot, "tab", "space")
        assert str(form.query_one("#reroll-marked").render()) == "Marked: ✓ Ann"
        dice = form.query_one("#reroll-dice")
        assert str(dice.get_option_at_index(0).prompt).startswith("✓ reroll  Ann")
        await keys(pilot, "tab", *typed("ann=6"), "ctrl+s")
        assert s.log[-1].command["cmd"] == "reroll"
        assert s.log[-1].command["dice"] == ["Ann"]


def verdict_entry(collected: bool) -> LogEntry:
    battle = {"type": "battle", "city": "Film", "leader": "Ann", "participants": ["Ann"],
              "dice": {"Ann": 6}, "dice_sum": 6, "weapons": 0, "weapon_bonus": 0,
              "strength": 6, "city_agents": 1, "threat": 5, "hq": 0, "agents_strength": 6,
              "won": True}
    events = [battle, {"type": "agents_cleared", "city": "Film", "count": 1}]
    if collected:
        events.append({"type": "collected", "city": "Film", "space": 1, "threat": 5,
                       "ally_cost": 1})
    return LogEntry(seq=9, command={"cmd": "battle", "city": "Film", "leader": "Ann"},
                    events=events)


async def test_a_won_battle_names_the_artwork_only_when_it_took_one() -> None:
    s = drawn()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")
        for collected in (False, True):
            [open_verdict] = _announce(verdict_entry(collected))
            screen = open_verdict()
            assert isinstance(screen, VerdictScreen)
            app.push_screen(screen)
            await pilot.pause()
            title = str(screen.query_one(".dialog-title").render())
            assert "won: the agents go to the reserve" in title
            assert ("artwork" in title) is collected, title
            await keys(pilot, "enter")


def test_a_lost_city_that_holds_its_artwork_shows_both() -> None:
    shown = {"agents": {"cities": {"Film": 0, "Book": 2}}, "players": [
        {"name": "Ann", "city": "Book"}], "ally": None, "lost": ["Film"],
        "artwork": {"cities": ["Film", "Book"]}}
    rows = map_text(shown, [("Film", "film"), ("Book", "book")]).splitlines()
    assert "LOST✦" in rows[1] and "LOST" not in rows[2] and "✦" in rows[2]


async def test_with_declared_participants_the_battle_form_asks_who_fights() -> None:
    """House rule battle_participants = "declared" (ART-19): the form names who fights (in
    any case); the battle is fought by those only."""
    s = Session(seed=SEED)
    assert s.handle({**START, "rules": {"battle_participants": "declared"}})["ok"]
    for request in ({"cmd": "draw", "player": "Ann"}, {"cmd": "draw", "player": "Ann"},
                    {"cmd": "draw", "player": "Ben"}, {"cmd": "draw", "player": "Ben"},
                    {"cmd": "play_card", "player": "Ann"}, {"cmd": "play_card", "player": "Ben"},
                    *[{"cmd": "end_phase"}] * 4):
        assert s.handle(request)["ok"], request
    assert s.state.phase == "C"
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "b")
        battles = app.screen.query_one("#actions").values
        i = next(n for n, r in enumerate(battles) if r["leader"] == "Ann")
        await keys(pilot, *["down"] * i, "enter")
        assert isinstance(app.screen, RequestForm)
        await keys(pilot, *typed("Ann=3"), "tab", *typed("ann"), "ctrl+s")
        verdict = next(e for e in s.log[-1].events if e["type"] == "battle")
        assert s.log[-1].command["participants"] == ["Ann"]
        assert verdict["participants"] == ["Ann"]


def two_at_battle(ben: tuple[str, ...] = ()) -> Session:
    """Phase C, Ann and Ben in Film, Ann's one-clue card in the chain (and Ben's with the
    clues `ben`), a battle lost 2 to 12."""
    s = drawn()
    for request in ({"cmd": "play_card", "player": "Ann", "clues": ["film"]},
                    {"cmd": "play_card", "player": "Ben", "clues": list(ben)},
                    {"cmd": "end_phase"},
                    {"cmd": "end_phase"}, {"cmd": "move", "player": "Ann", "to": "Film"},
                    {"cmd": "move", "player": "Ben", "to": "Film"},
                    {"cmd": "end_phase"}, {"cmd": "end_phase"},
                    {"cmd": "battle", "city": "Film", "leader": "Ann",
                     "rolls": {"Ann": 1, "Ben": 1}}):
        assert s.handle(request)["ok"], request
    assert s.state.battle is not None
    return s


async def test_the_reroll_form_lists_the_rulesets_dice_and_sends_only_a_listed_reroll() -> None:
    """Issue 39: the console takes the rerolls from the ruleset (works none out): a card's
    dice are those its listed rerolls name, and a choice it does not list is not sent."""
    s = two_at_battle()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")  # resume: the open battle; R: the reroll form
        form = app.screen
        assert isinstance(form, RerollForm)
        dice = form.query_one("#reroll-dice")
        assert [dice.get_option_at_index(i).value for i in range(dice.option_count)] == [
            "Ann", "Ben"]
        before = len(s.log)
        await keys(pilot, "tab", "space", "down", "space", "ctrl+s")  # two dice, one clue
        assert len(s.log) == before and app.screen is form
        assert "rerolls 1 of these dice at most" in str(form.query_one("#error").render())
        await keys(pilot, "space", "ctrl+s")  # Ben's unmarked: Ann's die alone
        assert s.log[-1].command["dice"] == ["Ann"]


async def test_the_reroll_form_offers_no_die_the_ruleset_does_not_list(
        monkeypatch: Any) -> None:
    """With the ruleset listing only Ben's die for the card (a stand-in), the form lists
    Ben's die alone: the dice come from the ruleset, not from the battle."""
    s = two_at_battle()
    rules = type(s.ruleset)
    original = rules.legal_actions

    def only_ben(self: Any, state: Any, player: str | None) -> list[dict[str, Any]]:
        return [r for r in original(self, state, player)
                if r["cmd"] != "reroll" or r["dice"] == ["Ben"]]

    monkeypatch.setattr(rules, "legal_actions", only_ben)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")
        form = app.screen
        assert isinstance(form, RerollForm)
        dice = form.query_one("#reroll-dice")
        assert [dice.get_option_at_index(i).value for i in range(dice.option_count)] == [
            "Ben"]


async def test_another_card_chosen_its_dice_are_listed_and_space_marks_at_once() -> None:
    """The dice listed again for the card chosen: the cursor is on the first die, so Tab and
    Space mark it (with no die under the cursor, Space did nothing)."""
    s = two_at_battle(ben=("book", "music"))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")
        form = app.screen
        assert isinstance(form, RerollForm)
        await keys(pilot, "down", "tab", "space")  # c2, Ben's two clues: Ann's die marked
        assert str(form.query_one("#reroll-marked").render()) == "Marked: ✓ Ann"
        await keys(pilot, "down", "space", "ctrl+s")
        assert s.log[-1].command["card"] == "c2"
        assert s.log[-1].command["dice"] == ["Ann", "Ben"]



async def test_another_card_and_its_dice_marked_in_one_burst_are_marked() -> None:
    """Found by hand at 80x24 (issue 39): ↓ (another card), Tab, Space, ↓, Space typed fast
    left nothing marked: each Space marked the die under the cursor when it was read, so the
    second die was marked twice. Each Space marks the die it was pressed on."""
    from tests.ui.test_key_order import burst

    s = two_at_battle(ben=("book",))
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "r")
        form = app.screen
        assert isinstance(form, RerollForm)
        await burst(pilot, "down", "tab", "space", "down", "space")
        await pilot.pause()
        assert str(form.query_one("#reroll-marked").render()) == "Marked: ✓ Ann, ✓ Ben"
        before = len(s.log)
        await keys(pilot, "ctrl+s")  # two dice on a one-clue card: said, nothing sent
        assert len(s.log) == before
        assert "c2 rerolls 1 of these dice" in str(form.query_one("#error").render())
