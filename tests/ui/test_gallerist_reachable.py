"""The Gallerist's console survives any reachable state, at 80x24.

Hypothesis drives a real session into a random reachable state: one to four players (a name
with markup-like brackets too), the rules' test catalog or the built-in one (which lacks fame
icons, desks and sale values, so the table enters them), some house rules changed, then
random commands (the rules' tests' generator, which tries refused ones too) mixed with random
picks from the console's own list of what may be done now (an entry with random figures),
and undos. The game is resumed from its log as after a restart and the console mounted on
it. The list must hold every legal action of the ruleset and an entry for each decision that
needs figures; every entry's dialog is opened by keys, checked and closed, one pick is made
by keys, the help and the undo dialog are opened. Nothing may fail to draw (ui/trouble.py
records none) and no option anywhere has an id.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from textual.widgets import Input, OptionList

from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play
from tests.ui.conftest import keys
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

SMALL = (80, 24)
NAMES = ["Ann", "Ben", "[b]Cy", "Dee-Longname Smith"]


def filled(entry: Entry, data: st.DataObject) -> dict[str, Any]:
    """An entry's request with random figures, as its dialog would send them."""
    req: dict[str, Any] = dict(entry.request)
    for key, _, kind in entry.fields:
        value: Any
        if kind == "players":
            value = data.draw(st.lists(st.sampled_from(entry.names), unique=True))
        elif kind == "count":
            value = data.draw(st.integers(0, 12))
        elif kind == "counts_as":
            value = data.draw(st.sampled_from(["exhibited", "sold"]))
        else:
            value = data.draw(st.sampled_from([True, False]))
        top, dot, sub = key.partition(".")
        if dot:
            req.setdefault(top, {})[sub] = value
        else:
            req[key] = value
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
        # every legal action is offered (an intermediate scoring as an entry that asks)
        legal = s.ruleset.legal_actions(s.state, None)
        head = next((p for p in state["pending"]
                     if p["decision"] in ("kickout", "intermediate")), None)
        gallerists = ({head["player"]} if head and head.get("piece") == "gallerist" else set())
        for req in legal:
            if "desk" in req and req["player"] in gallerists:
                continue  # (a desk is for an assistant: not offered for a gallerist)
            assert req in values or any(isinstance(v, Entry) and v.request.items()
                                        <= req.items() for v in values), req
        decisions = {p["decision"] for p in state["pending"]}
        if "score" in decisions:
            assert any(isinstance(v, Entry) and v.request["cmd"] == "score" for v in values)
        event(f"phase {state['phase']}; decisions {sorted(decisions)}")
        # every entry's dialog, opened by keys, asks for its fields; Escape closes it
        for i, v in enumerate(values):
            if not isinstance(v, Entry):
                continue
            await to_item(pilot, lst, i)
            await keys(pilot, "enter")
            dialog = app.screen
            assert isinstance(dialog, EntryDialog) and dialog.entry == v
            asked = list(dialog.query(Input)) + list(dialog.query(Cycle))
            assert len(asked) >= len(v.fields)
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
        await keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await keys(pilot, "escape", "ctrl+z")
        assert isinstance(app.screen, UndoDialog)
        await keys(pilot, "n")
        check_screens(app)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_reachable_state_draws_and_every_entry_opens(data: st.DataObject) -> None:
    s = play_to(data)
    asyncio.run(drive(restarted(s), data))


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
