"""The A.R.T. Project's console survives any reachable state, at 80x24.

Hypothesis drives a real session into a random reachable state: one to four players (names
with markup-like brackets too), the test board or the Egypt fixture, any difficulty, then
random legal actions (the ruleset's own list; the test boards of USA, Rio and Scandinavia
too; cards with random clue symbols, battles with
typed or box dice) and undos. The game is resumed from its log as after a restart and the
console mounted on it. Every pending decision's dialog is checked against the ruleset (its
options are the ruleset's legal `choose` requests, the battle's sums its verdict) and
answered by keys, several in a row; then on the table every key that opens a dialog is
pressed and what it offers compared with the ruleset's legal actions. Nothing may fail to
draw (ui/trouble.py records none) and no option anywhere has an id.

The choices only other boards raise (Polynesia's island, Scandinavia's effects, the collect
order) are opened by a second test: a reachable state is given each pending decision through
the ruleset's own `pending` event, replayed as a restart replays a log.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from textual.widgets import OptionList

from referee.running import LogEntry
from referee.session import Session
from tests.ui.conftest import check_still, keys
from ui.app import make_app
from ui.base import Choices, PendingDialog
from ui.games.art_project.common import legal, shown
from ui.games.art_project.dialogs import (
    ActionsDialog,
    ArtGameOverScreen,
    ArtUndoConfirm,
    BattleDialog,
    ChooseDialog,
    RequestForm,
    VerdictScreen,
    dice_of,
    label,
)
from ui.games.art_project.screens import CHOICES
from ui.games.art_project.table import ArtTableScreen
from ui.screens.common import InProgressScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
BOARDS = str(Path(__file__).parents[1] / "referee" / "games" / "art_project" / "boards.toml")
SMALL = (80, 24)
NAMES = ["Ann", "Ben", "[b]Cy", "Dee-Longname Smith"]
SYMBOLS = ["film", "sculpture", "book", "painting", "artifact", "music"]
TABLE_KEYS = {"a": None, "d": "draw", "p": "play_card", "m": "move", "b": "battle",
              "u": "unlock_ally", "x": "extra_draw", "s": "place_agents", "c": "give_clue"}


def play(data: st.DataObject) -> Session:
    """A session driven into a random reachable A.R.T. state by legal actions and undos."""
    s = Session(seed=SEED)
    count = data.draw(st.integers(1, 4), label="players")
    start: dict[str, Any] = {
        "cmd": "new_game", "game": "art-project",
        "mission": data.draw(st.sampled_from(["test-board", "test-egypt", "test-usa",
                                              "test-rio", "test-scandinavia"]),
                             label="mission"),
        "difficulty": data.draw(st.sampled_from(["easy", "medium", "hard", "impossible"])),
        "players": [{"name": n} for n in NAMES[:count]]}
    if count == 1:
        start["ally"] = "orange"
    if start["mission"] not in ("test-board", "test-egypt"):
        start["catalog"] = BOARDS  # the rules' tests' boards (tests/referee/.../boards.toml)
    assert s.handle(start)["ok"]
    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        if s.state.over:
            break
        if len(s.log) > 1 and data.draw(st.integers(0, 9), label="undo?") == 0:
            s.handle({"cmd": "undo"})
            continue
        found = s.ruleset.legal_actions(s.state, None)
        if not found:
            break
        kinds = sorted({r["cmd"] for r in found})  # a kind first: end_phase is one of few
        if len(kinds) > 1 and "extra_draw" in kinds and data.draw(st.integers(0, 4)):
            kinds.remove("extra_draw")  # (paid extra draws would end most games at once)
        if "battle" in kinds and data.draw(st.booleans(), label="fight"):
            kinds = ["battle"]
        kind = data.draw(st.sampled_from(kinds), label="kind")
        request = dict(data.draw(st.sampled_from([r for r in found if r["cmd"] == kind]),
                                 label="action"))
        if request["cmd"] == "play_card":
            request["clues"] = data.draw(st.lists(st.sampled_from(SYMBOLS), max_size=2))
        if request["cmd"] == "battle" and data.draw(st.booleans(), label="typed dice"):
            request["rolls"] = {d: data.draw(st.integers(1, 6), label="die")
                                for d in dice_of(s, request)}
        s.handle(request)
        if (s.state.battle is not None or s.state.pending) and data.draw(
                st.booleans(), label="stop at a decision"):
            break  # (so that states with a decision open are drawn often)
    return s


def restarted(s: Session) -> Session:
    return Session.resume(list(s.log), seed=s.seed, game=(s.ruleset, s.catalog),
                          fixed_seed=SEED)


def labels(lst: OptionList) -> list[str]:
    return [str(lst.get_option_at_index(i).prompt) for i in range(lst.option_count)]


def check_screens(app: Any) -> None:
    check_still(app)
    for screen in app.screen_stack:
        for lst in screen.query(OptionList):
            ids = [lst.get_option_at_index(i).id for i in range(lst.option_count)]
            assert ids == [None] * len(ids), (type(screen).__name__, lst.id, ids)
    assert not app.trouble.found, [f.details for f in app.trouble.found]


async def answer(pilot: Any, app: Any, s: Session, data: st.DataObject) -> None:
    """Check the pending decision's dialog against the ruleset, then answer it by keys."""
    dialog = app.screen
    assert isinstance(dialog, PendingDialog)
    pending = [(p["player"] or "", p["decision"]) for p in shown(s)["pending"]]
    assert (dialog.player, dialog.decision) in pending
    before = len(s.log)
    if isinstance(dialog, ChooseDialog):
        lst = dialog.query_one("#choices", Choices)
        offered = legal(s, "choose")
        assert lst.values == offered and labels(lst) == [str(r["choice"]) for r in offered]
        if not offered:
            return
        i = data.draw(st.integers(0, len(offered) - 1), label="choice")
        await keys(pilot, *["down"] * i, "enter")
        logged = s.log[-1].command
        assert (logged["cmd"], logged["choice"]) == ("choose", offered[i]["choice"])
        return
    assert isinstance(dialog, BattleDialog)
    v = shown(s)["battle"]
    sums = str(dialog.query_one("#battle-sums").render())
    for term in (f"= {v['dice_sum']}", f"{v['weapons']} × 2 = {v['weapon_bonus']}",
                 f"= {v['strength']}", f"{v['city_agents']} in", f"threat {v['threat']}",
                 f"HQ {v['hq']}", f"= {v['agents_strength']}"):
        assert term in sums, (term, sums)
    what = data.draw(st.sampled_from(["r", "w", "c"]), label="battle step")
    await keys(pilot, what)
    if what in "rw" and app.screen is not dialog:
        await keys(pilot, "ctrl+s")
        if len(s.log) == before:  # refused: said inline, the form stays
            await keys(pilot, "escape")
    if len(s.log) > before:
        assert s.log[-1].command["cmd"] in {"r": ("reroll",), "w": ("weapon",),
                                            "c": ("concede",)}[what]


async def on_table(pilot: Any, app: Any, s: Session) -> None:
    """Every key that opens a dialog: what it offers is the ruleset's legal actions."""
    for key, cmd in TABLE_KEYS.items():
        assert isinstance(app.screen, ArtTableScreen)
        offered = legal(s, cmd)
        await keys(pilot, key)
        if not offered:
            assert isinstance(app.screen, ArtTableScreen)
            continue
        assert isinstance(app.screen, ActionsDialog)
        lst = app.screen.query_one("#actions", Choices)
        rows = [(v, t) for v, t in zip(lst.values, labels(lst), strict=True)
                if v is not None]  # (the move list's greyed rows: a city not open now)
        assert [v for v, _ in rows] == offered and [t for _, t in rows] == [
            label(r) for r in offered]
        chosen = lst.values[lst.highlighted]  # (None: a greyed row, Enter does nothing)
        await keys(pilot, "enter")
        if isinstance(app.screen, RequestForm):
            assert app.screen.request == chosen
        check_screens(app)
        while not isinstance(app.screen, ArtTableScreen) and not isinstance(
                app.screen, PendingDialog):
            await keys(pilot, "escape")
        if isinstance(app.screen, PendingDialog):
            return
    await keys(pilot, "ctrl+z")
    assert isinstance(app.screen, ArtUndoConfirm)
    await keys(pilot, "n")


async def drive(s: Session, data: st.DataObject) -> None:
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if isinstance(app.screen, InProgressScreen):
            await keys(pilot, "r")  # resume the game in progress
        assert isinstance(app.screen_stack[0], ArtTableScreen)
        check_screens(app)
        event(f"first screen: {type(app.screen).__name__}")
        for _ in range(3):
            while isinstance(app.screen, VerdictScreen):
                await keys(pilot, "enter")
            if isinstance(app.screen, ArtGameOverScreen):
                assert s.state.over
                await keys(pilot, "escape")
                break
            if not isinstance(app.screen, PendingDialog):
                break
            event(f"answered: {type(app.screen).__name__}")
            await answer(pilot, app, s, data)
            check_screens(app)
        if isinstance(app.screen, ArtTableScreen) and not s.state.over:
            await on_table(pilot, app, s)
        check_screens(app)


@pytest.mark.slow(9)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_reachable_state_draws_and_offers_what_the_rules_allow(
        data: st.DataObject) -> None:
    s = restarted(play(data))
    asyncio.run(drive(s, data))


OPTIONS = {
    "uncover_order": lambda s: ["film", "book"],
    "uncover_island": lambda s: [c.name for c in s.state.mission.cities[1:3]],
    "collect_order": lambda s: [c.name for c in s.state.mission.cities[1:3]],
    "lose_resources": lambda s: ["fuel+radio", "radio+weapon"],
    "lose_clue": lambda s: [x.id for x in s.state.chain] or ["c1"],
    "effect_health": lambda s: [p.name for p in s.state.players],
    "clue_set": lambda s: ["c1+c2", "c2+c3"],
}


@pytest.mark.parametrize("decision", CHOICES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_kind_of_pending_choice_opens_its_dialog(decision: str,
                                                       data: st.DataObject) -> None:
    s = play(data)
    if s.state.over:
        return
    options = OPTIONS[decision](s)
    pending = {"type": "pending", "decisions": [
        {"decision": decision, "options": options, "player": None,
         "symbol": "film" if decision == "uncover_island" else None, "then": None}]}
    log = [*s.log, LogEntry(seq=s.log[-1].seq + 1, command={"cmd": "choose"},
                            events=[pending])]
    resumed = Session.resume(log, seed=s.seed, game=(s.ruleset, s.catalog), fixed_seed=SEED)

    async def run() -> None:
        app = make_app(resumed)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, InProgressScreen)
            await keys(pilot, "r")  # resume
            assert isinstance(app.screen, ChooseDialog) and app.screen.decision == decision
            lst = app.screen.query_one("#choices", Choices)
            assert [r["choice"] for r in lst.values] == options == [
                r["choice"] for r in legal(resumed, "choose")]
            check_screens(app)
            await keys(pilot, "escape")  # a pending decision cannot be dismissed
            assert isinstance(app.screen, ChooseDialog)
            await keys(pilot, "ctrl+z")  # the game's own undo prompt, over its dialog too
            assert isinstance(app.screen, ArtUndoConfirm)
            await keys(pilot, "n")
            assert isinstance(app.screen, ChooseDialog)
            before = len(resumed.log)
            i = min(1, len(options) - 1)  # answered by keys: the second option, if any
            await keys(pilot, *["down"] * i, "enter")
            if len(resumed.log) > before:  # (an effect may be refused: said inline)
                logged = resumed.log[-1].command
                assert (logged["cmd"], logged["choice"]) == ("choose", options[i])

    asyncio.run(run())
