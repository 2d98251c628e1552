"""The Gallerist's console survives any reachable state, at 80x24.

Hypothesis drives a real session into a random reachable state: one to four players (a name
with markup-like brackets too), the rules' test catalog or the built-in one (which lacks fame
icons, desks and sale values, so the table enters them), some house rules changed, then
random commands (the rules' tests' generator, which tries refused ones too) mixed with random
picks from the console's own list of what may be done now (an entry with random figures),
and undos. The game is resumed from its log as after a restart and the console mounted on
it. The list must be exactly the ruleset's legal actions and its entries (the steps that need
the table's choices or figures), and every request the rules accept, for every player (not
only the one acting now; tests/referee/games/gallerist/space.py's candidates), must be made by
one of them; some entries' dialogs are opened by keys, checked and closed, one pick is made by
keys, one accepted request (another player's where there is one) is made by keys through the
list and its dialog, the help and the undo dialog are opened. Nothing may fail
to draw (ui/trouble.py records none) and no option anywhere has an id.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from textual.widgets import Input, OptionList

from referee.games.gallerist.actions import actor
from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play
from tests.referee.games.gallerist.space import accepted_space
from tests.ui.conftest import keys
from tests.ui.test_gallerist_console import _matches, pick
from ui.app import make_app
from ui.base import Choices, Cycle
from ui.games.gallerist.screens import (
    Entry,
    EntryDialog,
    GameOverDialog,
    HelpScreen,
    ScoresScreen,
    UndoDialog,
    choices,
    shown,
)
from ui.screens.common import InProgressScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
NAMES = ["Ann", "Ben", "[b]Cy", "Dee-Longname Smith"]


def filled(entry: Entry, data: st.DataObject) -> dict[str, Any]:
    """An entry's request with random choices and figures within its bounds, as its dialog
    would send them."""
    req: dict[str, Any] = dict(entry.request)
    for ask in entry.asks:  # (a choice that follows another comes after it)
        if ask.kind == "choice":
            options = ask.choices(req.get(ask.by)) if ask.by else ask.options
            req[ask.key] = data.draw(st.sampled_from([v for _, v in options]))
    for ask in entry.asks:
        value: Any
        if ask.kind == "players":
            value = data.draw(st.lists(st.sampled_from([v for _, v in ask.options]),
                                       unique=True))
        elif ask.kind == "number":
            if ask.optional and data.draw(st.booleans()):
                continue
            low, high = ask.limits(req.get(ask.by) if ask.by else None)
            value = data.draw(st.integers(low, high))
        elif ask.kind == "text":
            if data.draw(st.booleans()):
                continue
            value = data.draw(st.sampled_from(["rep 1", "[b]tile"]))
        else:
            continue
        top, dot, sub = ask.key.partition(".")
        if dot:
            req.setdefault(top, {})[sub] = value
        else:
            req[ask.key] = value
    return req


def play_to(data: st.DataObject) -> Session:
    s = Session(seed=play.SEED)
    count = data.draw(st.integers(1, 4), label="players")
    start: dict[str, Any] = {"cmd": "new_game", "game": "gallerist",
                             "players": NAMES[:count]}
    if data.draw(st.booleans(), label="test catalog"):
        start["catalog"] = play.START["catalog"]
        start["bag"] = dict(play.START["bag"])
        own = False
    else:
        start["bag"] = data.draw(st.integers(2, 12), label="bag")
        own = True
    rules = data.draw(st.fixed_dictionaries({}, optional={
        "start_player": st.sampled_from(["fixed", "rotating"]),
        "intermediate_tiles": st.sampled_from(["one_named", "all"]),
        "kickout_order": st.sampled_from(["seat_after_mover", "seat_from_start_player"])}))
    if rules:
        start["rules"] = rules
    assert s.handle(start)["ok"], start
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        if s.state.over:
            break
        if len(s.log) > 1 and data.draw(st.integers(0, 12), label="undo?") == 0:
            s.handle({"cmd": "undo"})
            continue
        if own or data.draw(st.booleans(), label="from the list"):
            found = [c.value for c in choices(s)]
            if not found:
                break
            value = data.draw(st.sampled_from(found), label="pick")
            s.handle(filled(value, data) if isinstance(value, Entry) else dict(value))
        else:
            req = play._requests(s.state, data)
            s.handle(req)
    return s


def restarted(s: Session) -> Session:
    return Session.resume(list(s.log), seed=s.seed, game=(s.ruleset, s.catalog),
                          fixed_seed=play.SEED)


def check_screens(app: Any) -> None:
    for screen in app.screen_stack:
        for lst in screen.query(OptionList):
            ids = [lst.get_option_at_index(i).id for i in range(lst.option_count)]
            assert ids == [None] * len(ids), (type(screen).__name__, lst.id, ids)
    assert not app.trouble.found, [f.details for f in app.trouble.found]


async def to_item(pilot: Any, lst: Choices, i: int) -> None:
    lst.focus()
    await pilot.pause()
    here = lst.highlighted or 0
    await keys(pilot, *(["down"] * (i - here) if i > here else ["up"] * (here - i)))
    assert lst.highlighted == i


async def drive(s: Session, data: st.DataObject) -> None:
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if isinstance(app.screen, InProgressScreen):
            await keys(pilot, "r")
        if isinstance(app.screen, GameOverDialog):
            assert s.state.over
            await keys(pilot, "escape")
        base = app.screen
        assert isinstance(base, ScoresScreen)
        check_screens(app)
        state = shown(s)
        assert str(base.query_one("#gal-next").render()) == f"next: {state['next']}"
        lst = base.query_one("#gal-actions", Choices)
        values = lst.values
        assert values == [c.value for c in choices(s)]
        # the list is exactly the ruleset's legal actions and entries
        legal = s.ruleset.legal_actions(s.state, None)
        assert [v for v in values if isinstance(v, dict)] == legal
        assert [v for v in values if isinstance(v, Entry)] == [
            Entry.from_json(e) for e in s.ruleset.entries(s.state)]
        # every request the rules accept, for every player (not only the one acting now),
        # is made by a list item: a legal action, or an entry whose dialog offers it
        accepted = accepted_space(s.state)
        missing = [r for r in accepted if not any(_matches(v, r) for v in values)]
        assert not missing, (state["phase"], actor(s.state), missing[:8])
        decisions = {p["decision"] for p in state["pending"]}
        if "score" in decisions:
            assert any(isinstance(v, Entry) and v.request["cmd"] == "score" for v in values)
        event(f"phase {state['phase']}; decisions {sorted(decisions)}")
        # entries' dialogs (the waited-on one and two drawn at random: all of them made
        # the run too slow), opened by keys, ask for their fields; Escape closes them
        at = [i for i, v in enumerate(values) if isinstance(v, Entry)]
        some = sorted(set(at[:1] + data.draw(st.lists(st.sampled_from(at), max_size=2),
                                             label="dialogs"))) if at else []
        for i in some:
            v = values[i]
            await to_item(pilot, lst, i)
            await keys(pilot, "enter")
            dialog = app.screen
            assert isinstance(dialog, EntryDialog) and dialog.entry == v
            asked = list(dialog.query(Input)) + list(dialog.query(Cycle))
            assert len(asked) >= len(v.asks)
            check_screens(app)
            await keys(pilot, "escape")
            assert app.screen is base
        # one pick by keys: accepted (logged) or refused (said inline)
        if values:
            i = data.draw(st.integers(0, len(values) - 1), label="picked")
            before = len(s.log)
            await to_item(pilot, lst, i)
            await keys(pilot, "enter")
            if isinstance(app.screen, EntryDialog):
                await keys(pilot, "ctrl+s")  # nothing typed: said, or sent if nothing needed
                if isinstance(app.screen, EntryDialog):
                    assert str(app.screen.query_one("#error").render())
                    await keys(pilot, "escape")
            elif len(s.log) == before:
                assert str(base.query_one("#error").render())
            check_screens(app)
            if isinstance(app.screen, GameOverDialog):
                await keys(pilot, "escape")
        # one accepted request, another player's where there is one, made by keys through
        # the list and its dialog (no protocol line typed): logged as it was asked for
        if app.screen is base and not s.state.over:
            wanted = _by_keys(s, data)
            if wanted is not None:
                before = len(s.log)
                assert await pick(pilot, app, wanted), wanted
                assert len(s.log) == before + 1, wanted
                logged = s.log[-1].command
                assert {k: logged.get(k) for k in wanted} == wanted, (wanted, logged)
                check_screens(app)
                if isinstance(app.screen, GameOverDialog):
                    await keys(pilot, "escape")
        await keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await keys(pilot, "escape", "ctrl+z")
        assert isinstance(app.screen, UndoDialog)
        await keys(pilot, "n")
        check_screens(app)


def _by_keys(s: Session, data: st.DataObject) -> dict[str, Any] | None:
    """An accepted request of the candidate space the session takes as it is (no kept box
    draw in the way), for a player other than the one acting now where there is one."""
    who = actor(s.state)
    found = [r for r in accepted_space(s.state)
             if s.refusal(s.ruleset.parse(r)) is None and r["cmd"] != "new_game"]
    others = [r for r in found if r.get("player", r.get("by")) not in (who, None)]
    pool = others or found
    return data.draw(st.sampled_from(pool), label="by keys") if pool else None


@pytest.mark.slow(30)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_reachable_state_draws_and_every_entry_opens(data: st.DataObject) -> None:
    s = play_to(data)
    asyncio.run(drive(restarted(s), data))


@pytest.mark.slow(12)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_scripted_game_s_states_draw_and_every_entry_opens(data: st.DataObject) -> None:
    """The states random play seldom reaches: kick-outs, the end, the final round, the
    auction and final scoring (a prefix of the scripted whole game, from its late part more
    often), then random commands and list picks from there."""
    script = [r for r in make_games.game() if r["cmd"] != "state"]
    n = data.draw(st.one_of(st.integers(1, len(script)),
                            st.integers(len(script) - 16, len(script))), label="prefix")
    s = Session(seed=play.SEED)
    for req in script[:n]:
        play.ok(s, **req)
    for _ in range(data.draw(st.integers(0, 3), label="more")):
        found = [c.value for c in choices(s)]
        if not found or s.state.over:
            break
        value = data.draw(st.sampled_from(found), label="pick")
        s.handle(filled(value, data) if isinstance(value, Entry) else dict(value))
    asyncio.run(drive(restarted(s), data))
