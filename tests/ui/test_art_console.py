"""The A.R.T. Project at the console, by keys (issue 13): the table chooses the game of a new
game, the form starts one, a round is played to a battle with typed dice and its sums shown
term by term, a board the catalog lacks is entered and kept, a game in progress is resumed,
and the end shows the Hall of Fame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.games.art_project.catalog import load_catalog
from referee.session import Session
from tests.ui.conftest import keys, typed
from ui.app import make_app
from ui.base import Cycle
from ui.games.art_project.boards import BoardEntryScreen, board_file
from ui.games.art_project.dialogs import (
    ArtGameOverScreen,
    ArtUndoConfirm,
    BattleDialog,
    RequestForm,
)
from ui.games.art_project.setup import ArtNewGameScreen, StartConfirm
from ui.games.art_project.table import ArtTableScreen
from ui.games.gallery_grippers.setup import NewGameScreen
from ui.screens.common import GameChooser, InProgressScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
SMALL = (80, 24)
START = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
         "difficulty": "hard", "players": [{"name": "Ann"}, {"name": "Ben"}]}


@pytest.fixture(autouse=True)
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFEREE_BOARDS", str(tmp_path / "boards"))
    return tmp_path / "boards"


async def choose_art(pilot: Any, app: Any) -> None:
    """F2 on Gallery Grippers' form, then The A.R.T. Project from the list."""
    await keys(pilot, "f2")
    assert isinstance(app.screen, GameChooser)
    games = app.screen.query_one("#games").values
    assert {"gallery-grippers", "art-project"} <= set(games)
    here = games.index("gallery-grippers")
    step = games.index("art-project") - here
    await keys(pilot, *(["down"] * step if step > 0 else ["up"] * -step), "enter")
    assert isinstance(app.screen_stack[0], ArtNewGameScreen) and len(app.screen_stack) == 1


async def pick_mission(pilot: Any, app: Any, mission: str) -> None:
    """F3 steps the mission wherever the cursor is."""
    cycle = app.screen.query_one("#mission", Cycle)
    focused = app.screen.focused
    for _ in range(len(cycle.choices)):
        if cycle.value == mission:
            assert app.screen.focused is focused  # (the cursor stays in its field)
            return
        await keys(pilot, "f3")
    raise AssertionError(f"no mission {mission}")


async def test_the_table_chooses_the_game_and_starts_it_from_the_form() -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        await keys(pilot, "f2", "escape")  # Escape keeps the game chosen
        assert isinstance(app.screen, NewGameScreen)
        await choose_art(pilot, app)
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "enter")
        await pick_mission(pilot, app, "japan")
        await keys(pilot, "ctrl+s")  # first use of a mission without its board: enter it
        assert isinstance(app.screen, BoardEntryScreen)
        await keys(pilot, "escape")  # not now: back to the form, nothing started
        assert isinstance(app.screen, ArtNewGameScreen) and s.log == []
        await pick_mission(pilot, app, "test-board")
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, ArtTableScreen)
        assert s.ruleset.id == "art-project"
        assert [p.name for p in s.state.players] == ["Ann", "Ben"]
        assert s.log[0].command["mission"] == "test-board"


async def test_a_round_by_keys_to_a_battle_with_typed_dice() -> None:
    s = Session(seed=SEED)
    assert s.handle(START)["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        assert isinstance(app.screen, InProgressScreen)
        assert "The A.R.T. Project" in str(app.screen.query_one(".dialog-title").render())
        await keys(pilot, "r")
        for _ in range(4):
            await keys(pilot, "d", "enter")
        assert [p.hand for p in s.state.players] == [2, 2]
        await keys(pilot, "p", "enter")
        assert isinstance(app.screen, RequestForm)
        await keys(pilot, "tab", *typed("Film=oops"), "ctrl+s")  # 2. agents: a slip, said
        assert "whole number" in str(app.screen.query_one("#error").render())
        await keys(pilot, *["backspace"] * 4, *typed("1"), "ctrl+s")
        assert s.log[-1].command["agents"] == {"Film": 1}
        assert s.state.agents["Film"] == 3
        await keys(pilot, "ctrl+z")
        assert isinstance(app.screen, ArtUndoConfirm)
        assert "mission card" in str(app.screen.query_one("#undo-what").render())
        await keys(pilot, "y")
        assert s.state.agents["Film"] == 2
        for _ in range(2):
            await keys(pilot, "p", "enter", "ctrl+s")
        await keys(pilot, "e", "e")  # A -> A/B -> B
        assert s.state.phase == "B"
        await keys(pilot, "m", "enter")  # Ann to Film: the van has the fuel, sent at once
        assert s.state.player("Ann").city == "Film"
        await keys(pilot, "e", "e")  # B -> B/C -> C
        await keys(pilot, "b")
        battles = [v for v in app.screen.query_one("#actions").values]
        i = next(n for n, r in enumerate(battles) if r["city"] == "Film")
        await keys(pilot, *["down"] * i, "enter")
        assert isinstance(app.screen, RequestForm)
        assert "Ann" in str(app.screen.query_one("#form-dice").render())
        await keys(pilot, *typed("Ann=2"), "ctrl+s")
        roll = next(e for e in s.log[-1].events if e["type"] == "roll")
        assert (roll["id"], roll["value"], roll["source"]) == ("Ann", 2, "physical")
        assert isinstance(app.screen, BattleDialog)
        sums = str(app.screen.query_one("#battle-sums").render())
        v = s.ruleset.state_json(s.state)["battle"]
        assert f"Ann 2 = {v['dice_sum']}" in sums
        assert f"{v['city_agents']} in Film + threat {v['threat']} + HQ {v['hq']}" in sums
        await keys(pilot, "escape")  # cannot be dismissed
        assert isinstance(app.screen, BattleDialog)
        health = s.state.player("Ann").health
        await keys(pilot, "c")
        assert s.state.battle is None and s.state.player("Ann").health == health - 1
        assert isinstance(app.screen, ArtTableScreen)


async def test_a_board_the_catalog_lacks_is_entered_space_by_space_and_kept(
        boards: Path) -> None:
    s = Session(seed=SEED)
    app = make_app(s, game="art-project")
    async with app.run_test(size=SMALL) as pilot:
        assert isinstance(app.screen, ArtNewGameScreen)
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"))
        await pick_mission(pilot, app, "japan")
        assert "Ctrl+B" in str(app.screen.query_one("#board-note").render())
        await keys(pilot, "ctrl+b")  # Ctrl+B: enter it now
        await keys(pilot, *typed("Tokyo, Kyoto=painting, Osaka=film"), "enter",
                   *typed("Tokyo"), "enter")
        await keys(pilot, "ctrl+s")  # no track yet: said, nothing kept
        assert "track" in str(app.screen.query_one("#error").render())
        assert board_file("japan") is None
        await keys(pilot, "escape", "ctrl+s")  # or Start: its first use asks for it
        assert isinstance(app.screen, BoardEntryScreen)
        await keys(pilot, *typed("Tokyo, Kyoto=painting, Osaka=film"), "enter",
                   *typed("Tokyo"), "enter")
        await keys(pilot, "enter")  # (roads: blank, a trusted map)
        await keys(pilot, *typed("10 1"), "enter", *typed("12 2"), "enter", "ctrl+s")
        kept = board_file("japan")
        assert kept is not None and kept.parent == boards
        mission = load_catalog(kept).missions["japan"]
        assert [(x.threat, x.ally_cost) for x in mission.track] == [(10, 1), (12, 2)]
        assert [c.name for c in mission.cities] == ["Tokyo", "Kyoto", "Osaka"]
        assert mission.start == "Tokyo" and mission.roads is None
        assert isinstance(app.screen, ArtTableScreen)  # kept, and the game started with it
        assert s.log[0].command["mission"] == "japan"
        state = s.ruleset.state_json(s.state)
        assert state["mission"] == "japan" and state["map"] == "trusted"
        assert state["artwork"]["spaces"] == 2 and state["artwork"]["threat"] == 10


def drawn() -> Session:
    """A game of the test board with every owed draw made (phase A, cards to play)."""
    s = Session(seed=SEED)
    assert s.handle(START)["ok"]
    for n in ("Ann", "Ben"):
        for _ in range(2):
            assert s.handle({"cmd": "draw", "player": n})["ok"]
    return s


async def test_the_end_shows_the_result_and_the_hall_of_fame() -> None:
    s = drawn()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "p", "enter", "tab", *typed("Music=40"), "ctrl+s")  # a card: lost
        assert s.state.over
        assert isinstance(app.screen, ArtGameOverScreen)
        hall = str(app.screen.query_one("#over-hall").render())
        assert "test-board (hard): won 0, lost 1" in hall
        assert "lost" in str(app.screen.query_one(".dialog-title").render())
        await keys(pilot, "n")
        assert isinstance(app.screen, ArtNewGameScreen)


async def test_f1_opens_the_art_player_aid_with_the_house_rules_in_force() -> None:
    """F1 at the A.R.T. table: its own aid (not Gallery Grippers'), every phase of the round,
    and each house rule with the value this game plays by (one changed from its default)."""
    from ui.games.art_project.help import ArtHelpScreen

    s = Session(seed=SEED)
    assert s.handle({**START, "rules": {"deck_empty": "reshuffle"}})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if isinstance(app.screen, InProgressScreen):
            await keys(pilot, "r")
        assert isinstance(app.screen, ArtTableScreen)
        await keys(pilot, "f1")
        assert isinstance(app.screen, ArtHelpScreen)
        text = app.screen.query_one("#art-aid").source  # type: ignore[attr-defined]
        for phase in ("A — Mission", "B — Movement", "C — Battle", "D — End of round"):
            assert phase in text
        for rule, value in s.state.rules.described():  # in the table's words (issue 39)
            assert f"**{rule.name}**: {rule.says(value)} — {rule.explain(value)}" in text
        assert "deck_empty" not in text and "reshuffles — The discards" in text
        assert "**A draw from an empty deck**: reshuffles" in text
        await keys(pilot, "escape")
        assert isinstance(app.screen, ArtTableScreen)


async def test_f1_on_the_art_form_shows_the_art_aid_with_a_new_games_rules() -> None:
    """F1 on the A.R.T. new-game form, the console's own game being Gallery Grippers: the
    A.R.T. aid, with the rules an A.R.T. game starts with (not Gallery Grippers' rules)."""
    from referee.games.art_project.settings import ArtRules
    from ui.games.art_project.help import ArtHelpScreen

    app = make_app(Session(seed=SEED))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await choose_art(pilot, app)
        await keys(pilot, "f1")
        assert isinstance(app.screen, ArtHelpScreen)
        text = app.screen.query_one("#art-aid").source  # type: ignore[attr-defined]
        assert "a new game's, unless changed" in text
        for rule, value in ArtRules().described():
            assert f"**{rule.name}**: {rule.says(value)} — {rule.explain(value)}" in text
        assert "reup_at_or_below" not in text  # (a Gallery Grippers rule)


async def test_f1_on_another_games_form_after_an_art_game_shows_that_games_aid() -> None:
    """An A.R.T. game is over and the table picks Gallery Grippers for the next one: F1 on
    that form is Gallery Grippers' aid with its own house rules (the session's state is
    still the A.R.T. game's)."""
    from ui.games.gallery_grippers.info import RulesScreen

    s = drawn()
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r", "p", "enter", "tab", *typed("Music=40"), "ctrl+s")  # a card: lost
        assert s.state.over and isinstance(app.screen, ArtGameOverScreen)
        await keys(pilot, "n", "f2")
        assert isinstance(app.screen, GameChooser)
        games = app.screen.query_one("#games").values
        step = games.index("gallery-grippers") - games.index("art-project")
        await keys(pilot, *(["down"] * step if step > 0 else ["up"] * -step), "enter")
        assert isinstance(app.screen_stack[0], NewGameScreen)
        await keys(pilot, "f1")
        assert isinstance(app.screen, RulesScreen)
        text = app.screen.query_one("Markdown").source  # type: ignore[attr-defined]
        assert "**Re-up limit**: no cards left" in text and "A draw from an empty" not in text


async def test_the_form_says_the_solo_ally_in_its_own_words() -> None:
    """One named player is a solo game, which needs the ally's colour: the form says which of
    its fields to set (not the protocol's "ally"), puts the cursor there, starts nothing;
    the colour chosen, the game starts."""
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await choose_art(pilot, app)
        await keys(pilot, *typed("Ann"), "enter")
        await pick_mission(pilot, app, "test-board")
        await keys(pilot, "ctrl+s")
        form = app.screen
        said = str(form.query_one("#error").render())
        assert "“Solo: ally colour”" in said and '"ally"' not in said and s.log == []
        assert form.focused is form.query_one("#ally")
        ally = form.query_one("#ally")
        while ally.value in (None, form.query_one("#colour-0").value):
            await keys(pilot, "right")  # to the first colour that is not Ann's
        await keys(pilot, "ctrl+s")  # after a refusal: what would start is said, and asked
        assert isinstance(app.screen, StartConfirm) and s.log == []
        what = str(app.screen.query_one("#start-what").render())
        assert "test-board" in what and "Ann (" in what and f"ally pawn {ally.value}" in what
        await keys(pilot, "y")
        assert isinstance(app.screen, ArtTableScreen), str(form.query_one("#error").render())
        assert s.log[0].command["ally"]


async def test_after_a_refusal_keys_meant_for_another_field_start_nothing_unseen() -> None:
    """Issue 24: two names, a solo ally colour set by mistake: refused, the cursor on the
    ally's field. The keys typed next "for seat 2" reach the wrong field; Ctrl+S then starts
    nothing before the table has seen what would start (and may go back)."""
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await choose_art(pilot, app)
        await pick_mission(pilot, app, "test-board")
        form = app.screen
        form.query_one("#ally").focus()
        await keys(pilot, "right")  # (solo: an ally colour, by mistake)
        assert form.query_one("#ally").value is not None
        form.query_one("#name-0").focus()
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "ctrl+s")
        assert form.focused is form.query_one("#ally") and s.log == []  # refused
        await keys(pilot, *typed("Cy"), "enter", "ctrl+s")  # (typed into the ally's field)
        assert isinstance(app.screen, StartConfirm) and s.log == []
        what = str(app.screen.query_one("#start-what").render())
        assert "Ann (" in what and "Ben (" in what
        await keys(pilot, "n")
        assert app.screen is form and s.log == []
        form.query_one("#ally").value = None
        await keys(pilot, "ctrl+s", "y")
        assert isinstance(app.screen, ArtTableScreen)
        assert [p["name"] for p in s.log[0].command["players"]] == ["Ann", "Ben"]


async def test_the_name_field_holds_what_the_rules_take() -> None:
    from referee.games.art_project.rules.setup import MAX_NAME

    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await choose_art(pilot, app)
        await pick_mission(pilot, app, "test-board")
        app.screen.query_one("#name-0").focus()
        await keys(pilot, *typed("W" * (MAX_NAME + 4)), "enter", *typed("Ben"), "ctrl+s")
        assert isinstance(app.screen, ArtTableScreen)  # no "at most 20 fit" refusal
        assert s.log[0].command["players"][0]["name"] == "W" * MAX_NAME
