"""The GOLDEN RULE at the console (issue 24, item 1): what the A.R.T. console offers is
exactly the ruleset's legal actions, health payments included, in the states where that is
hard: the van empty, the reserve empty, a player on their last health token, a solo game.

Hypothesis drives a real session there by accepted commands only (cards whose costs drain the
van and then health, cards whose gains drain the reserve, one to three players or solo with
its ally pawn), then mounts the console at 80x24 and, by keys:
- on the table, the list of every action (A) is the ruleset's list, each kind's key lists
  that kind's legal actions and nothing else, and a key whose kind is not legal opens
  nothing (E included);
- in a battle, the weapon list is the legal weapons (with the health each pays), the reroll
  form's cards the legal rerolls', and C concedes only when conceding is legal;
- one legal action drawn at random is played by keys, and the logged command is that action
  (who pays what health, for whom, included).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.session import Session
from tests.ui.conftest import check_still, keys
from ui.app import make_app
from ui.base import Choices, PendingDialog
from ui.games.art_project.common import legal
from ui.games.art_project.dialogs import (
    ActionsDialog,
    BattleDialog,
    ChooseDialog,
    RequestForm,
    RerollForm,
    VerdictScreen,
    WeaponForm,
    dice_of,
)
from ui.games.art_project.table import ArtTableScreen
from ui.screens.common import InProgressScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
SMALL = (80, 24)
NAMES = ["Ann", "Ben", "Cy"]
SYMBOLS = ["film", "sculpture", "book", "painting", "artifact", "music"]
KEYS = {"d": "draw", "x": "extra_draw", "p": "play_card", "m": "move", "b": "battle",
        "u": "unlock_ally", "s": "place_agents", "c": "give_clue"}
GOALS = ("empty_van", "empty_reserve", "one_health", "solo")


def card(s: Session, player: str, goal: str, data: st.DataObject) -> dict[str, Any]:
    """A mission card steered toward `goal`: its cost drains the van (then the player's
    health), or its gains drain the reserve."""
    state = s.state
    request: dict[str, Any] = {"cmd": "play_card", "player": player,
                               "clues": data.draw(st.lists(st.sampled_from(SYMBOLS),
                                                           max_size=2), label="clues")}
    if goal in ("empty_van", "solo"):
        request["spend"] = dict(state.van)
    elif goal == "one_health":
        me = state.player(player)
        extra = max(0, me.health - 1) if me is not None else 0
        kind = data.draw(st.sampled_from(["fuel", "radio", "weapon"]), label="drained")
        request["spend"] = {kind: state.van[kind] + extra}
    elif goal == "empty_reserve":
        request["gain"] = {r: state.reserve[r] for r in ("fuel", "radio", "weapon")}
    return request


def play(data: st.DataObject) -> tuple[Session, str]:
    goal = data.draw(st.sampled_from(GOALS), label="goal")
    count = 1 if goal == "solo" else data.draw(st.integers(1, 3), label="players")
    s = Session(seed=SEED)
    start: dict[str, Any] = {
        "cmd": "new_game", "game": "art-project",
        "mission": data.draw(st.sampled_from(["test-board", "test-egypt"]), label="mission"),
        "difficulty": data.draw(st.sampled_from(["easy", "medium", "hard"])),
        "players": [{"name": n} for n in NAMES[:count]]}
    if count == 1:
        start["ally"] = "orange"
    assert s.handle(start)["ok"]
    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        if s.state.over:
            break
        found = s.ruleset.legal_actions(s.state, None)
        if not found:
            break
        kinds = sorted({r["cmd"] for r in found})
        if "extra_draw" in kinds and len(kinds) > 1:
            kinds.remove("extra_draw")  # (paid extra draws would end most games at once)
        kind = data.draw(st.sampled_from(kinds), label="kind")
        request = dict(data.draw(st.sampled_from([r for r in found if r["cmd"] == kind]),
                                 label="action"))
        if kind == "play_card":
            request = card(s, request["player"], goal, data)
        if kind == "battle" and data.draw(st.booleans(), label="typed dice"):
            request["rolls"] = {d: data.draw(st.integers(1, 6), label="die")
                                for d in dice_of(s, request)}
        s.handle(request)
        said = s.ruleset.state_json(s.state)["next"]  # in words, never the protocol's names
        assert "_" not in said and "(choose)" not in said and "(move)" not in said, said
        if s.state.battle is not None and data.draw(st.booleans(), label="stop in battle"):
            break
    event(f"goal {goal}: van {'empty' if not any(s.state.van.values()) else 'not empty'}")
    event(f"reserve {'empty' if not any(s.state.reserve.values()) else 'not empty'}")
    event(f"a player on 1 health: {any(p.health == 1 for p in s.state.players)}")
    event(f"phase {s.state.phase}")
    return s, goal


def same(request: dict[str, Any], logged: dict[str, Any]) -> bool:
    """The logged command is the request (the fields it names, as named)."""
    return all(logged.get(k) == v for k, v in request.items() if k != "rolls")


async def table_offers(pilot: Any, app: Any, s: Session) -> None:
    """Each key's list is the ruleset's list of its kind; a kind not legal opens nothing."""
    everything = legal(s)
    await keys(pilot, "a")
    if everything:
        assert isinstance(app.screen, ActionsDialog)
        assert app.screen.query_one("#actions", Choices).values == everything
        await keys(pilot, "escape")
    assert isinstance(app.screen, ArtTableScreen)
    listed = []
    for key, cmd in KEYS.items():
        offered = legal(s, cmd)
        await keys(pilot, key)
        if not offered:
            assert isinstance(app.screen, ArtTableScreen), (key, app.screen)
            continue
        assert isinstance(app.screen, ActionsDialog)
        values = app.screen.query_one("#actions", Choices).values
        if cmd == "move":  # a greyed row (None) for a city a pawn cannot go to now
            values = [v for v in values if v is not None]
        assert values == offered
        listed += offered
        await keys(pilot, "escape")
    ends = legal(s, "end_phase")
    listed += ends
    # every legal action has its key (the table's keys cover every kind but a battle's)
    assert sorted(map(repr, listed)) == sorted(map(repr, everything))
    if not ends:  # E ends nothing the rules do not allow
        before = len(s.log)
        await keys(pilot, "e")
        assert len(s.log) == before


async def battle_offers(pilot: Any, app: Any, s: Session) -> None:
    dialog = app.screen
    assert isinstance(dialog, BattleDialog)
    everything = legal(s)
    weapons, rerolls = legal(s, "weapon"), legal(s, "reroll")
    assert {r["cmd"] for r in everything} <= {"weapon", "reroll", "concede"}
    await keys(pilot, "w")
    if weapons:
        assert isinstance(app.screen, WeaponForm)
        assert app.screen.query_one("#weapon-player", Choices).values == weapons
        await keys(pilot, "escape")
    assert app.screen is dialog
    await keys(pilot, "r")
    if rerolls:
        assert isinstance(app.screen, RerollForm)
        cards = app.screen.query_one("#reroll-card", Choices).values
        assert cards == list(dict.fromkeys(r["card"] for r in rerolls))
        await keys(pilot, "escape")
    assert app.screen is dialog
    if not legal(s, "concede"):
        before = len(s.log)
        await keys(pilot, "c")
        assert len(s.log) == before


async def play_one(pilot: Any, app: Any, s: Session, data: st.DataObject) -> None:
    """A legal action drawn at random, played by keys: the log holds that very action."""
    everything = legal(s)
    if not everything:
        return
    chosen = data.draw(st.sampled_from(everything), label="played")
    before = len(s.log)
    if isinstance(app.screen, BattleDialog):
        key = {"weapon": "w", "reroll": "r", "concede": "c"}[chosen["cmd"]]
        await keys(pilot, key)
        if chosen["cmd"] == "weapon":
            i = legal(s, "weapon").index(chosen)
            await keys(pilot, *["down"] * i, "enter")
        elif chosen["cmd"] == "reroll":
            cards = app.screen.query_one("#reroll-card", Choices).values
            i = cards.index(chosen["card"])
            await keys(pilot, *["down"] * i, "tab")
            listed = app.screen.query_one("#reroll-dice")
            for n in range(listed.option_count):  # the chosen dice marked, the rest kept
                die = listed.get_option_at_index(n).value
                await keys(pilot, *(["space"] if die in chosen["dice"] else []), "down")
            await keys(pilot, "ctrl+s")
    elif isinstance(app.screen, ChooseDialog):
        i = legal(s, "choose").index(chosen)
        await keys(pilot, *["down"] * i, "enter")
    else:
        assert isinstance(app.screen, ArtTableScreen)
        if chosen["cmd"] == "end_phase":
            await keys(pilot, "e")
        else:
            key = next(k for k, c in KEYS.items() if c == chosen["cmd"])
            await keys(pilot, key)
            choices = app.screen.query_one("#actions", Choices)
            choices.highlighted = choices.values.index(chosen)  # (greyed rows in between)
            await keys(pilot, "enter")
            if isinstance(app.screen, RequestForm):
                assert app.screen.request == chosen
                await keys(pilot, "ctrl+s")
    assert len(s.log) == before + 1, (chosen, app.screen)
    assert same(chosen, s.log[-1].command), (chosen, s.log[-1].command)
    if chosen.get("health"):
        event(f"played with health: {chosen['cmd']}")


async def drive(s: Session, data: st.DataObject) -> None:
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        if isinstance(app.screen, InProgressScreen):
            await keys(pilot, "r")
        while isinstance(app.screen, VerdictScreen):
            await keys(pilot, "enter")
        if s.state.over:
            return
        if isinstance(app.screen, BattleDialog):
            await battle_offers(pilot, app, s)
        elif isinstance(app.screen, PendingDialog):
            assert isinstance(app.screen, ChooseDialog)
            assert app.screen.query_one("#choices", Choices).values == legal(s, "choose")
            assert {r["cmd"] for r in legal(s)} == {"choose"}
        else:
            await table_offers(pilot, app, s)
        await play_one(pilot, app, s, data)
        check_still(app)
        assert not app.trouble.found, [f.details for f in app.trouble.found]


@pytest.mark.slow(10)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_console_offers_exactly_the_legal_actions_health_payments_included(
        data: st.DataObject) -> None:
    s, _ = play(data)
    asyncio.run(drive(s, data))


def test_an_empty_van_still_moves_paying_health_from_the_keyboard() -> None:
    """The table that stopped the issue: phase B, the van's fuel at 0; M lists a move paid
    in health (who pays, how much) and Enter plays it."""
    s = Session(seed=SEED)
    assert s.handle({"cmd": "new_game", "game": "art-project", "mission": "test-board",
                     "difficulty": "medium", "players": [{"name": "Ann"}, {"name": "Ben"}]}
                    )["ok"]
    for who in ("Ann", "Ann", "Ben", "Ben"):
        assert s.handle({"cmd": "draw", "player": who})["ok"]
    assert s.handle({"cmd": "play_card", "player": "Ann", "spend": {"fuel": 3}})["ok"]
    assert s.handle({"cmd": "play_card", "player": "Ben"})["ok"]
    for _ in range(2):
        assert s.handle({"cmd": "end_phase"})["ok"]
    assert s.state.phase == "B" and s.state.van["fuel"] == 0

    async def run() -> None:
        app = make_app(s)
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r", "m")
            assert isinstance(app.screen, ActionsDialog)
            offered = app.screen.query_one("#actions", Choices)
            at = offered.highlighted  # the first move (Ann's row where she stands is greyed)
            first = offered.values[at]
            assert first["health"] == 1 and first["player"] == "Ann"
            prompt = str(offered.get_option_at_index(at).prompt)
            assert "1 health from Ann" in prompt
            health = s.state.player("Ann").health
            await keys(pilot, "enter")
            assert s.log[-1].command["health"] == 1
            assert s.state.player("Ann").health == health - 1

    asyncio.run(run())


def test_radio_short_unlocks_an_ally_die_with_health_the_table_shares() -> None:
    s = Session(seed=SEED)
    assert s.handle({"cmd": "new_game", "game": "art-project", "mission": "test-board",
                     "difficulty": "medium", "players": [{"name": "Ann"}, {"name": "Ben"}]}
                    )["ok"]
    for who in ("Ann", "Ann", "Ben", "Ben"):
        assert s.handle({"cmd": "draw", "player": who})["ok"]
    assert s.handle({"cmd": "play_card", "player": "Ann", "spend": {"radio": 3}})["ok"]
    assert s.handle({"cmd": "play_card", "player": "Ben"})["ok"]
    assert s.handle({"cmd": "end_phase"})["ok"]
    assert s.state.phase == "A/B" and s.state.van["radio"] == 0
    unlocks = legal(s, "unlock_ally")
    assert [u["health"] for u in unlocks] == [{"Ann": 1}, {"Ben": 1}]
    assert "unlock an ally die for 1 radio (health tokens pay" in s.ruleset.state_json(
        s.state)["next"]

    async def run() -> None:
        app = make_app(s)
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r", "u")
            assert isinstance(app.screen, ActionsDialog)
            await keys(pilot, "down", "enter")  # Ben pays
            assert s.log[-1].command["health"] == {"Ben": 1}

    asyncio.run(run())
