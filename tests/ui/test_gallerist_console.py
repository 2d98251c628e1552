"""The Gallerist at the console, by keys (issue 14): F2 chooses it, its form starts a game
(players, start player, catalog, bag, a house rule), and the scripted whole game
(tests/referee/games/gallerist/make_games.py) is played through to final scoring by picking
from the list of what may be done now (the ruleset's legal actions and the entry dialogs for
figures), typing only what the box merely records; the end is the same as headless."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play
from tests.ui.conftest import keys, typed
from ui.app import make_app
from ui.base import Choices, Cycle
from ui.games.gallerist.screens import (
    Entry,
    EntryDialog,
    GameOverDialog,
    HelpScreen,
    ScoresScreen,
    StartDrawnDialog,
    StateDialog,
    UndoDialog,
    choices,
)
from ui.games.gallerist.setup import RULES, GalleristNewGameScreen, parse_bag
from ui.games.gallery_grippers.setup import NewGameScreen
from ui.screens.common import GameChooser

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


async def choose_gallerist(pilot: Any, app: Any) -> None:
    await keys(pilot, "f2")
    assert isinstance(app.screen, GameChooser)
    games = app.screen.query_one("#games").values
    step = games.index("gallerist") - games.index(app.new_of)
    await keys(pilot, *(["down"] * step if step > 0 else ["up"] * -step), "enter")
    assert isinstance(app.screen_stack[0], GalleristNewGameScreen)
    assert len(app.screen_stack) == 1


def _matches(value: Any, req: dict[str, Any]) -> bool:
    """Whether a list item (a whole request, or an entry and what it asks) makes `req`."""
    if isinstance(value, dict):
        return value == req
    asked = {a.key.partition(".")[0] for a in value.asks}
    if not (value.request.items() <= req.items() and set(req) - set(value.request) <= asked):
        return False
    for a in value.asks:  # a choice must offer the value wanted (once the field it
        if a.kind == "choice" and a.key not in req:  # follows is chosen), a number its bounds
            return False
        if a.kind == "choice" and req[a.key] not in [v for _, v in a.choices(req.get(a.by))]:
            return False
        if a.kind == "number" and not a.optional and a.key not in req:
            return False
        if a.kind == "number" and "." not in a.key and a.key in req:
            low, high = a.limits(req.get(a.by) if a.by else None)
            if not low <= req[a.key] <= high:
                return False
    return True


async def pick(pilot: Any, app: Any, req: dict[str, Any]) -> bool:
    """Pick `req` from the list by ↑↓ and Enter (an entry's choices stepped to and figures
    typed in its dialog); False if the list does not offer it."""
    actions = app.screen.query_one("#gal-actions", Choices)
    found = [i for i, v in enumerate(actions.values) if _matches(v, req)]
    if not found:
        return False
    actions.focus()
    await pilot.pause()
    here = actions.highlighted or 0
    step = found[0] - here
    entry = actions.values[found[0]]
    await keys(pilot, *(["down"] * step if step > 0 else ["up"] * -step), "enter")
    if isinstance(entry, dict):
        return True
    dialog = app.screen
    assert isinstance(dialog, EntryDialog)
    for i, ask in enumerate(entry.asks):
        top, _, sub = ask.key.partition(".")
        value = req.get(top)
        if sub and value is not None:
            value = value.get(sub)
        if ask.kind == "players":
            for j, (name, _) in enumerate(ask.options):
                if name in (value or []):
                    dialog.query_one(f"#field-{i}-{j}", Cycle).focus()
                    await keys(pilot, "enter")
        elif ask.kind in ("number", "text"):
            if value is None and ask.kind == "text" and not ask.optional:
                value = "as the table said"  # (a reason the dialog asks for: GAL-10)
            dialog.query_one(f"#field-{i}").focus()
            await keys(pilot, *typed(str(value)) if value is not None else [])
        else:
            cycle = dialog.query_one(f"#field-{i}", Cycle)
            cycle.focus()
            while cycle.value != value:
                await keys(pilot, "right")
    await keys(pilot, "ctrl+s")
    assert not isinstance(app.screen, EntryDialog), dialog.query_one("#error").render()
    return True


@pytest.mark.slow(10)
async def test_a_whole_game_from_the_form_to_the_final_scoring_by_keys() -> None:
    script = make_games.game()
    start = script[0]
    s = Session(seed=play.SEED)
    app = make_app(s)
    listed = 0
    async with app.run_test(size=SMALL) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        await choose_gallerist(pilot, app)
        form = app.screen
        await keys(pilot, "ctrl+s")  # nobody named: said, nothing started
        assert "Name at least one player" in str(form.query_one("#error").render())
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "enter", "enter", "enter")
        assert form.focused is form.query_one("#start-player")
        await keys(pilot, "right")  # seat 1 starts (Ann): named as typed
        assert str(form.query_one("#start-player").render()) == "‹ Ann (seat 1) ›"
        await keys(pilot, "right", "right")
        assert str(form.query_one("#start-player").render()) == "‹ seat 3 (no name yet) ›"
        await keys(pilot, "left", "left")
        form.query_one("#catalog").focus()
        await keys(pilot, *typed(start["catalog"]), "enter", *typed("pink=2 white=1"))
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, ScoresScreen), form.query_one("#error").render()
        assert app.session.ruleset.id == "gallerist"
        assert s.log[0].command["start_player"] == "Ann"
        for req in script[1:]:
            req = {k: v for k, v in req.items() if k != "game"}
            if req["cmd"] == "state":
                continue
            before = len(s.log)
            if req["cmd"] == "undo":
                await keys(pilot, "ctrl+z")
                assert isinstance(app.screen, UndoDialog)
                await keys(pilot, "y")
            else:
                assert await pick(pilot, app, req), f"the list does not offer {req}"
                listed += 1
            assert len(s.log) == before + 1 or req["cmd"] == "undo", (
                req, str(app.screen.query_one("#error").render()))
            nxt = str(app.screen_stack[0].query_one("#gal-next").render())
            assert nxt.startswith("next: ")
        assert s.state.over
        assert isinstance(app.screen, GameOverDialog)
        words = str(app.screen.query_one("#gal-over-words").render())
        assert s.ruleset.state_json(s.state)["next"] in words
    # every step came from the list: not one protocol line typed
    assert listed == len([r for r in script[1:] if r["cmd"] not in ("state", "undo")])
    headless = Session(seed=play.SEED)
    for req in script:
        if req["cmd"] != "state":
            play.ok(headless, **req)
    mine, theirs = (x.ruleset.state_json(x.state) for x in (s, headless))
    assert mine["result"] == theirs["result"] and mine["scoring"] == theirs["scoring"]


async def test_the_form_sends_house_rules_and_says_what_is_wrong() -> None:
    s = Session(seed=play.SEED)
    app = make_app(s, game="gallerist")
    async with app.run_test(size=SMALL) as pilot:
        form = app.screen
        assert isinstance(form, GalleristNewGameScreen)
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"))
        form.query_one("#bag").focus()
        await keys(pilot, *typed("pink=two"), "ctrl+s")
        assert "not colour=count" in str(form.query_one("#error").render())
        assert s.log == []
        form.query_one("#bag").value = ""  # the built-in catalog has no bag count: the form
        form.query_one("#name-0").focus()  # says which field to fill, in its own words
        await keys(pilot, "ctrl+s")
        said = str(form.query_one("#error").render())
        assert "“Visitors in bag”" in said and "new_game" not in said and s.log == []
        assert form.focused is form.query_one("#bag")
        form.query_one("#bag").value = "9"
        form.query_one("#start-player").value = 2  # seat 3 is empty
        await keys(pilot, "ctrl+s")
        assert "Seat 3 is empty" in str(form.query_one("#error").render())
        form.query_one("#start-player").value = None
        rule = RULES.index("start_player")
        form.query_one(f"#rule-{rule}").focus()
        await keys(pilot, "enter")  # fixed -> rotating
        await keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await keys(pilot, "escape", "ctrl+s")
        assert isinstance(app.screen_stack[0], ScoresScreen)
        # the box drew the start player: said once, Enter goes on to the checklist
        assert isinstance(app.screen, StartDrawnDialog)
        start = s.state.start_player
        assert f"{start} is the start player" in str(
            app.screen.query_one("#gal-start-words").render())
        await keys(pilot, "enter")
        assert isinstance(app.screen, ScoresScreen)
        assert s.log[0].command["rules"]["start_player"] == "rotating"
        assert s.log[0].command["bag"] == 9


def test_the_bag_field() -> None:
    assert parse_bag("") is None
    assert parse_bag(" 12 ") == 12
    assert parse_bag("pink=5, white=6") == {"pink": 5, "white": 6}


async def test_an_intermediate_scoring_is_entered_by_keys() -> None:
    """A ticket stack runs out: the entry waits first in the list; its dialog ticks who
    qualifies and types the benefit; the ruleset pays it."""
    s = Session(seed=play.SEED)
    for req in make_games.game()[:6]:
        play.ok(s, **req)
    while s.state.tickets.get("pink"):
        play.ok(s, cmd="take_ticket", player="Ann", colour="pink")
    play.ok(s, cmd="move", player="Ann", to="International Market")
    play.ok(s, cmd="location_action", player="Ann")
    play.ok(s, cmd="end_turn", player="Ann")
    assert [p["decision"] for p in s.ruleset.state_json(s.state)["pending"]] == ["intermediate"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "r")  # resume
        lst = app.screen.query_one("#gal-actions", Choices)
        assert str(lst.get_option_at_index(0).prompt).startswith("Intermediate scoring")
        await keys(pilot, "enter")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        assert dialog.focused is dialog.query_one("#field-0-0")
        await keys(pilot, "tab", "enter")  # Ann no, Ben yes
        await keys(pilot, "tab", *typed("2"), "ctrl+s")
        assert not isinstance(app.screen, EntryDialog)
        logged = s.log[-1].command
        assert (logged["cmd"], logged["qualifying"], logged["benefit"]) == (
            "intermediate", ["Ben"], {"money": 2})


async def test_typed_state_opens_the_state_and_the_focus_goes_back_to_the_list() -> None:
    """`{"cmd": "state"}` typed at the console was "unknown cmd 'state'" while the refusal
    listed state as allowed; it opens the state as the protocol sends it."""
    s = Session(seed=play.SEED)
    for req in make_games.game()[:6]:
        play.ok(s, **req)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "r", "ctrl+t", *typed('{"cmd": "state"}'), "enter")
        assert isinstance(app.screen, StateDialog)
        said = str(app.screen.query_one("#gal-state-json").render())
        assert '"phase": "play"' in said
        await keys(pilot, "escape")
        base = app.screen
        assert isinstance(base, ScoresScreen)
        assert base.focused is base.query_one("#gal-actions")
        assert "Ann" in base.query_one("#gal-command").placeholder  # the game's own names


async def test_a_dialog_says_its_limits_and_refusals_in_its_own_words() -> None:
    """Money paid or received: the bounds follow the player chosen; a figure beyond them is
    said with the dialog's label, nothing sent; within them, the log says it in words."""
    s = Session(seed=play.SEED)
    for req in make_games.game()[:6]:
        play.ok(s, **req)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "r")
        assert await pick(pilot, app, {"cmd": "money", "player": "Ann", "delta": 3,
                                       "reason": "a contract's bonus"})
        assert "Ann receives 3 money (now 13): a contract's bonus" in str(
            app.screen.query_one("#gal-log").render())
        lst = app.screen.query_one("#gal-actions", Choices)
        at = next(i for i, v in enumerate(lst.values)
                  if isinstance(v, Entry) and v.request["cmd"] == "money")
        lst.focus()
        lst.highlighted = at
        await keys(pilot, "enter")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        number = dialog.query_one("#field-1")
        assert number.placeholder == "-13 to +986"  # Ann's 13 money
        dialog.query_one("#field-0").focus()
        await keys(pilot, "right")  # Ben: 10 money
        assert number.placeholder == "-10 to +989"
        number.focus()
        await keys(pilot, *typed("-11"), "ctrl+s")
        said = str(dialog.query_one("#error").render())
        assert said == "✗ Money (+ received, − paid): from -10 to 989 here, not -11."
        assert isinstance(app.screen, EntryDialog) and len(s.log) == 7
        label = dialog.query_one(".gal-entry-label")
        assert label.region.right <= number.region.x  # the label never runs into it


async def test_the_form_gives_each_seat_a_colour_at_80x24() -> None:
    """Each seat's colour is chosen beside its name, in view at 80x24; a seat left at
    "any free" takes the first colour no seat chose; two seats on one colour are refused in
    the form, and nothing starts."""
    s = Session(seed=play.SEED)
    app = make_app(s, game="gallerist")
    async with app.run_test(size=SMALL) as pilot:
        form = app.screen
        assert isinstance(form, GalleristNewGameScreen)
        for i in range(4):
            cycle = form.query_one(f"#colour-{i}", Cycle)
            region = cycle.region
            assert region.width >= len("‹ purple ›") and region.right <= SMALL[0]
            assert 0 < region.y < SMALL[1] - 2  # in view, above the key bar
            assert str(cycle.render()) == "‹ any free ›"
        await keys(pilot, *typed("Ann"), "tab")
        assert form.focused is form.query_one("#colour-0")
        await keys(pilot, "right", "right", "right")  # any free, yellow, green, purple
        assert form.query_one("#colour-0", Cycle).value == "purple"
        await keys(pilot, "tab", *typed("Ben"), "tab", "right", "right", "right")
        assert form.query_one("#colour-1", Cycle).value == "purple"
        form.query_one("#name-2").focus()
        await keys(pilot, *typed("Cy"))
        form.query_one("#bag").focus()
        await keys(pilot, *typed("9"), "ctrl+s")
        said = str(form.query_one("#error").render())
        assert "Ann and Ben both chose purple" in said and s.log == []
        form.query_one("#colour-1").focus()
        await keys(pilot, "left")  # green
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen_stack[0], ScoresScreen), said
        assert s.log[0].command["players"] == [
            {"name": "Ann", "color": "purple"}, {"name": "Ben", "color": "green"}, "Cy"]
        state = s.ruleset.state_json(s.state)
        assert [(p["name"], p["color"]) for p in state["players"]] == [
            ("Ann", "purple"), ("Ben", "green"), ("Cy", "yellow")]


async def _to(pilot: Any, app: Any, start: str) -> None:
    """Highlight the list item whose words begin with `start` by ↑↓, and Enter it."""
    lst = app.screen.query_one("#gal-actions", Choices)
    labels = [c.label for c in choices(app.session)]
    assert lst.values == [c.value for c in choices(app.session)]
    at = [i for i, w in enumerate(labels) if w.startswith(start)]
    assert len(at) == 1, (start, labels)
    lst.focus()
    await pilot.pause()
    here = lst.highlighted or 0
    await keys(pilot, *(["down"] * (at[0] - here) if at[0] > here else ["up"] * (here - at[0])))
    await keys(pilot, "enter")


def _in_view(dialog: EntryDialog) -> None:
    """Every field of the dialog and its Send are on the 80x24 screen, above the key bar."""
    for w in [*dialog.query("Input, Cycle"), dialog.query_one("#send")]:
        assert w.region.width > 0 and w.region.right <= SMALL[0], w
        assert 0 <= w.region.y < SMALL[1] - 1, w


async def test_a_kicked_out_player_s_location_action_is_recorded_out_of_turn_by_keys() -> None:
    """Issue 25: Ann kicks Cy's gallerist out of the Media Centre; after Ann's turn Cy takes a
    kicked-out location action (the built-in catalog has no fame icons: the dialog asks where
    the marker goes), and then, in Ben's turn, what that action did is recorded for Cy — an
    assistant to the market's lower rows, an artist discovered, a work acquired and one sold
    — all through the list and its dialogs at 80x24 (no protocol line typed): each dialog
    asks for the player first (Ben, whose turn it is, then the others), and the choices and
    bounds after it follow the player chosen. The log says each step in words."""
    s = Session(seed=play.SEED)
    for req in ({"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben", "Cy"],
                 "start_player": "Ann", "bag": 30},
                {"cmd": "place_start", "player": "Cy", "location": "Media Centre"},
                {"cmd": "place_start", "player": "Ben", "location": "Artists Colony"},
                {"cmd": "place_start", "player": "Ann", "location": "International Market"},
                {"cmd": "discover", "artist": "Blue 1", "fame": 5, "player": "Ann"},
                {"cmd": "acquire", "player": "Ben", "artist": "Blue 1", "cost": 1},
                {"cmd": "money", "player": "Cy", "delta": 5},
                {"cmd": "move", "player": "Ann", "to": "Media Centre"},
                {"cmd": "location_action", "player": "Ann"},
                {"cmd": "end_turn", "player": "Ann"}):
        play.ok(s, **req)
    assert s.ruleset.state_json(s.state)["pending"][0]["player"] == "Cy"
    start = len(s.log)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "r")  # resume the game
        base = app.screen
        assert isinstance(base, ScoresScreen)
        log = base.query_one("#gal-log")
        # Cy's kicked-out action waits first in the list: paid in influence, 10 -> 8
        await _to(pilot, app, "Cy (kicked out): a location action, paid in influence")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        _in_view(dialog)
        await keys(pilot, *typed("8"), "ctrl+s")
        assert app.screen is base
        assert "Cy, kicked out of Media Centre: a location action paid in influence " \
               "(influence 10 → 8)" in str(log.render())
        assert s.state.current == "Ben" and not s.state.queue  # Ben's turn now
        # an assistant to the market's lower rows, for Cy: the player first (Ben's turn)
        await _to(pilot, app, "A paid assistant to the market's lower rows")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        _in_view(dialog)
        player = dialog.query_one("#field-0", Cycle)
        cost = dialog.query_one("#field-2", Input)
        assert dialog.focused is player and player.value == "Ben"
        assert cost.placeholder == "0 to 9"  # Ben's money (10, less 1 for his work)
        await keys(pilot, "right", "right")  # Ben, Ann, Cy
        assert str(player.render()) == "‹ Cy ›" and cost.placeholder == "0 to 15"
        await keys(pilot, "tab", "right", "right", "tab", *typed("2"), "ctrl+s")
        assert app.screen is base
        assert "Cy: an assistant to the market, column 3, lower row, paid 2" in str(
            log.render())
        # the artist Cy's action turned face up (the built-in catalog prints no fame)
        await _to(pilot, app, "Discover an artist (turn the tile)")
        await keys(pilot, "right", "right", "tab")  # Cy; the first artist still face down
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        assert str(dialog.query_one("#field-1", Cycle).render()) == "‹ Red 1 ›"
        await keys(pilot, "tab", *typed("4"), "ctrl+s")
        assert "Cy discovers Red 1 (fame 4)" in str(log.render())
        # a work Cy acquires, within Cy's money (13 after the placement)
        await _to(pilot, app, "Acquire a work")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        await keys(pilot, "right", "right")
        assert dialog.query_one("#field-2", Input).placeholder == "0 to 13"
        artist = dialog.query_one("#field-1", Cycle)
        await keys(pilot, "tab")
        while artist.value != "Red 1":
            await keys(pilot, "right")
        await keys(pilot, "tab", *typed("3"), "ctrl+s")
        assert app.screen is base
        assert "Cy acquires a work by Red 1 for 3" in str(log.render())
        # a sale: each player's own works (Ben has Blue 1's, Cy Red 1's)
        await _to(pilot, app, "Sell a work (say what it brought)")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        player, artist = dialog.query_one("#field-0", Cycle), dialog.query_one("#field-1", Cycle)
        assert [v for _, v in player.choices] == ["Ben", "Cy"]  # (Ann exhibits nothing)
        assert artist.choices == [("Blue 1", "Blue 1")]
        await keys(pilot, "right")
        assert player.value == "Cy" and artist.choices == [("Red 1", "Red 1")]
        assert str(artist.render()) == "‹ Red 1 ›"
        await keys(pilot, "tab", "tab", *typed("6"), "ctrl+s")
        assert app.screen is base
        assert "Cy sells the work by Red 1 for 6" in str(log.render())
        assert base.query_one("#gal-command", Input).value == ""
    logged = [e.command for e in s.log[start:]]
    assert [(c["cmd"], c.get("player")) for c in logged] == [
        ("kickout_action", "Cy"), ("market", "Cy"), ("discover", "Cy"), ("acquire", "Cy"),
        ("sell", "Cy")]
    cy = next(p for p in s.ruleset.state_json(s.state)["players"] if p["name"] == "Cy")
    assert (cy["money"], cy["influence"], cy["sold"], cy["auction_spent"]) == (
        16, 8, ["Red 1"], 2)
    assert cy["assistants"]["market"] == [{"column": 3, "row": "lower", "cost": 2}]


async def test_a_notice_never_covers_an_entry_dialog_s_fields() -> None:
    """An entry dialog sits at the bottom, its values at the right: a notice that comes
    while it is open (here Ctrl+C's) shows at the top right, clear of every field, Send and
    the dialog's lines."""
    from textual.widgets._toast import Toast

    s = Session(seed=play.SEED)
    for req in make_games.game()[:6]:
        play.ok(s, **req)
    app = make_app(s)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        await keys(pilot, "r")
        lst = app.screen.query_one("#gal-actions", Choices)
        lst.focus()
        lst.highlighted = next(i for i, v in enumerate(lst.values)
                               if isinstance(v, Entry) and v.request["cmd"] == "money")
        await keys(pilot, "enter", "ctrl+c")
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        await pilot.pause()
        toasts = list(dialog.query(Toast))
        assert toasts and "Ctrl+Q" in str(toasts[0].render())
        box = dialog.query_one("#gal-entry")
        for toast in toasts:
            assert toast.region.width > 0
            assert not toast.region.overlaps(box.region), (toast.region, box.region)
