"""Every surface speaks the table's language (issue 39): no machine word (a snake_case
identifier, a code, a command or setting key, a raw id; `tests/machine_words.py`) on the
box's screens, the phone page, the log, the refusals or the house rules, in any reachable
state of any game; and none on the console's screens and dialogs at 80x24.

The states come from the walkers of the console's property tests (Gallery Grippers:
`tests/ui/reachable.py`; The A.R.T. Project: `tests/ui/test_art_reachable.py`; The Gallerist:
`tests/ui/test_gallerist_reachable.py`, and prefixes of its scripted whole game, which reach
kick-outs, the final round and final scoring). In each state:

- the box is pressed at random (its buttons act: what it applies is reachable too) and every
  screen's words are read before drawing;
- the page is rendered and read as text; the log and every step's undo words are read;
- the requests the walk made in earlier states are sent again with other players (most are
  refused now), and each refusal is said as the console and the box say it.

A rule id ("GAL-15") may stay in a refusal, before its words.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.session import Session
from tests.machine_words import (
    Shown,
    box_refusal,
    box_walk,
    code_as_words,
    console_refusal,
    log_text,
    machine_words,
    page_text,
    refused,
)
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as scripted

# (the walkers' modules hold @given tests: imported here, not while a test is running)
from tests.ui.reachable import reachable_session
from tests.ui.test_art_reachable import play
from tests.ui.test_gallerist_reachable import play_to

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


def gg(data: st.DataObject) -> Session:
    return reachable_session(data)


def art(data: st.DataObject) -> Session:
    return play(data)


def gallerist(data: st.DataObject) -> Session:
    if data.draw(st.booleans(), label="scripted game"):
        script = [r for r in make_games.game() if r["cmd"] != "state"]
        n = data.draw(st.one_of(st.integers(1, len(script)),
                                st.integers(len(script) - 20, len(script))), label="prefix")
        s = Session(seed=scripted.SEED)
        for request in script[:n]:
            assert s.handle(request)["ok"], request
        return s
    return play_to(data)


WALKS = {"gallery-grippers": gg, "art-project": art, "gallerist": gallerist}


def requests_of(s: Session) -> list[dict[str, Any]]:
    """Requests to send again: the logged commands and the legal actions now, each as it
    was and with every other player (most of them refused in this state)."""
    found: list[dict[str, Any]] = []
    names = [p["name"] for p in s.handle({"cmd": "state"})["state"].get("players", [])]
    base = [dict(e.command) for e in s.log if e.command.get("cmd") not in ("new_game",)]
    base += s.ruleset.legal_actions(s.state, None) if names else []
    for request in base:
        request = {k: v for k, v in request.items()
                   if k not in ("roll", "rolls", "commitment", "catalog", "rules")}
        found.append(request)
        for key in ("player", "by", "from"):
            if key in request:
                found += [{**request, key: n} for n in names if n != request[key]]
    return found


def shown_everywhere(s: Session, data: st.DataObject) -> Shown:
    shown = Shown()
    refusals = refused(s, requests_of(s))[:60]
    for refusal in refusals:
        for surface, said in (("console refusal", console_refusal(refusal)),
                              ("box refusal", box_refusal(s, refusal))):
            shown.add(surface, said)
            if code_as_words(refusal, said):
                shown.found.setdefault(refusal.code, set()).add(f"{surface}: {said}")
    shown.add("page", page_text(s))
    shown.add("log", log_text(s))
    presses = data.draw(st.lists(st.tuples(
        st.sampled_from(["ROLL", "NEXT", "NEXT", "BACK", "MENU"]),
        st.integers(0, 9).map(lambda n: n == 0)), max_size=40), label="presses")
    for text in box_walk(s, presses):
        shown.add("box", text)
    shown.add("page after the box", page_text(s))
    shown.add("log after the box", log_text(s))
    return shown


@pytest.mark.slow(20)
@pytest.mark.parametrize("game", WALKS)
@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          # (no shrinking: a long walk takes minutes to shrink, and the words found, with
          # where they were shown, say what to fix; the failing example is printed whole)
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(data=st.data())
def test_no_machine_words_on_the_box_the_page_the_log_or_in_refusals(
        game: str, data: st.DataObject) -> None:
    s = WALKS[game](data)
    shown = shown_everywhere(s, data)
    assert not shown.found, shown.report()


def test_the_checker_finds_the_words_the_tables_met() -> None:
    """The machine words of issue 39, as the tables met them, are found; their words are not."""
    for said in ("record its fame with discover_artist", "phase final_scoring",
                 "[no_kickout_final_round] In the final round…", "Undone: step 42",
                 "GAL-15 no kickout final round_x", "Fourth location",
                 "previous_icon: strictly_below", "tiebreak: rps"):
        assert machine_words(said), said
    for said in ("✗ GAL-15 In the final round no one takes a kicked-out action.",
                 "Undone: Ann's move to the Sales Office", "Ann rolls a d6: 4",
                 "step 42 (Ann's move)"):
        assert not machine_words(said), said


async def _console_text(s: Session) -> str:
    """What the console shows of `s` at 80x24: the game's screen, and the help and undo
    dialogs opened over it by their keys."""
    from tests.ui.conftest import keys
    from ui.app import make_app
    from ui.screens.common import InProgressScreen

    app = make_app(s)
    said = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, InProgressScreen):
            await keys(pilot, "r")
        said.append(screen_text(app))
        depth = len(app.screen_stack)
        for key in ("f1", "ctrl+z", "enter", "tab", "enter"):  # (Enter: the item at the
            await keys(pilot, key)                             # cursor, its dialog or step)
            said.append(screen_text(app))
            for _ in range(3):
                if len(app.screen_stack) <= depth:
                    break
                await keys(pilot, "escape")
        assert not app.trouble.found, [f.details for f in app.trouble.found]
    return "\n".join(said)


async def _forms_text() -> str:
    """Every game's new-game form and its help, as the console shows them at 80x24."""
    from tests.ui.conftest import keys
    from ui.app import make_app

    app = make_app(Session(seed=bytes(range(32))))
    said = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for downs in range(3):  # the games, in the order F2 lists them
            await keys(pilot, "f2", "home", *["down"] * downs, "enter")
            await pilot.pause()
            said.append(screen_text(app))
            depth = len(app.screen_stack)
            await keys(pilot, "f1")
            said.append(screen_text(app))
            if len(app.screen_stack) > depth:
                await keys(pilot, "escape")
        assert not app.trouble.found, [f.details for f in app.trouble.found]
    return "\n".join(said)


def screen_text(app: Any) -> str:
    """What the console's screens say: every widget's text (the parts scrolled out of view
    too) and the options of every list."""
    from textual.widgets import Input, Label, OptionList, Static

    out = []
    for screen in app.screen_stack:
        for widget in screen.walk_children(with_self=True):
            if isinstance(widget, OptionList):
                out += [str(widget.get_option_at_index(i).prompt)
                        for i in range(widget.option_count)]
            elif isinstance(widget, Input):
                out += [widget.value, widget.placeholder or ""]
            elif isinstance(widget, Static | Label):
                out.append(str(widget.render()))
            elif hasattr(widget, "source") and isinstance(widget.source, str):  # Markdown
                out.append(widget.source)
    # the notices (Textual's toasts), those already gone too
    out += [str(n.message) for n in getattr(app, "_notifications", [])]
    return "\n".join(out)


@pytest.mark.slow(10)
@pytest.mark.parametrize("game", WALKS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(data=st.data())
def test_no_machine_words_on_the_console(game: str, data: st.DataObject) -> None:
    s = WALKS[game](data)
    shown = Shown()
    shown.add("console", asyncio.run(_console_text(s)))
    assert not shown.found, shown.report()


def test_no_machine_words_on_the_new_game_forms_and_their_help() -> None:
    """Every game's new-game form names and explains its house rules in the table's words."""
    said = asyncio.run(_forms_text())
    for key, rule in HOUSE_RULE_NAMES():
        assert rule in said, (key, rule)
    shown = Shown()
    shown.add("new-game form", said)
    assert not shown.found, shown.report()


def HOUSE_RULE_NAMES() -> list[tuple[str, str]]:
    """(key, name) of the house rules a new-game form lets the table choose."""
    from referee.games.gallerist.settings import HOUSE_RULES as GAL
    from referee.games.gallery_grippers.settings import HOUSE_RULES as GG

    return [(k, r.name) for k, r in (*GG.items(), *GAL.items())]


@pytest.mark.parametrize("game", ["gallery_grippers", "art_project", "gallerist"])
def test_every_house_rule_is_named_and_explained_in_the_table_s_words(game: str) -> None:
    """One place words every setting and every value (the game's settings module), and no
    word of it is a machine word; every value has its own explanation."""
    import importlib

    settings_module = importlib.import_module(f"referee.games.{game}.settings")
    rules = settings_module.HOUSE_RULES
    shown = Shown()
    for key, rule in rules.items():
        assert rule.key == key and rule.name and rule.rule
        values = list(rule.choices) or [1, 100, 1_000_000_000]
        for value in values:
            shown.add(key, rule.line(value))
            assert rule.explain(value) and rule.says(value), (key, value)
        if rule.choices:  # each value explained differently
            assert len({rule.explain(v) for v in rule.choices}) == len(rule.choices), key
            assert len({rule.says(v) for v in rule.choices}) == len(rule.choices), key
    assert not shown.found, shown.report()


def test_the_card_form_s_examples_name_the_board_in_play_and_the_table_s_players() -> None:
    """The A.R.T. Project's card form gives its examples in this game's terms: cities of the
    board in play (Egypt's, not the test board's Film and Book) and a player at the table."""
    from ui.app import make_app
    from ui.games.art_project.dialogs import RequestForm

    s = Session(seed=bytes(range(32)))
    assert s.handle({"cmd": "new_game", "game": "art-project", "mission": "test-egypt",
                     "difficulty": "easy", "players": [{"name": "Zoë"}, {"name": "Ben"}]})["ok"]
    egypt = [c.name for c in s.state.mission.cities if c.name != s.state.mission.start]

    async def main() -> tuple[str, str]:
        from tests.ui.conftest import keys
        from ui.screens.common import InProgressScreen

        app = make_app(s)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if isinstance(app.screen, InProgressScreen):
                await keys(pilot, "r")
            app.push_screen(RequestForm({"cmd": "play_card", "player": "Zoë"}))
            await pilot.pause()
            agents = app.screen.query_one("#field-agents").placeholder
            return agents, screen_text(app)

    agents, said = asyncio.run(main())
    assert agents == f"{egypt[0]}=2 {egypt[1]}=1"
    assert "Film" not in said and "Book=" not in said and "health=Zoë:1" in said


def test_a_house_rule_s_explanation_follows_its_value_on_the_new_game_forms() -> None:
    """The Gallerist's form explains each rule's chosen value under it, and the explanation
    follows the value as the table changes it (and back with Ctrl+R); Gallery Grippers' form
    explains the rule at the cursor."""
    from referee.games.gallerist.settings import HOUSE_RULES as GAL
    from referee.games.gallerist.settings import GalleristRules
    from referee.games.gallery_grippers.settings import HOUSE_RULES as GG
    from tests.ui.conftest import keys
    from ui.app import make_app
    from ui.base import Cycle

    async def main() -> None:
        app = make_app(Session(seed=bytes(range(32))))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            first = app.screen.query_one("#rule-tiebreak", Cycle)
            first.focus()
            await keys(pilot, "right")
            why = str(app.screen.query_one("#rule-why").render())
            assert GG["tiebreak"].explain("reroll") in why and "GG-3" in why
            await keys(pilot, "f2", "home", "down", "down", "enter")
            await pilot.pause()
            key = "previous_icon"
            i = list(GalleristRules().to_json()).index(key)
            cycle = app.screen.query_one(f"#rule-{i}", Cycle)
            why_of = app.screen.query_one(f"#rule-{i}-why")
            assert str(why_of.render()) == GAL[key].explain("strictly_below")
            cycle.focus()
            await keys(pilot, "right")
            assert cycle.value == "at_or_below"
            assert str(why_of.render()) == GAL[key].explain("at_or_below")
            await keys(pilot, "ctrl+r")
            assert str(why_of.render()) == GAL[key].explain("strictly_below")

    asyncio.run(main())
