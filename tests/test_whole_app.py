"""The whole `referee run`, all three games, driven by random keys and button presses (issue
22, item 4): the console, the box on its mock pins with its OLED renderer, and the phone
page's view, on one game file (tests/whole_app.py says what each action is and what is
checked after it).

New games of each game are started over every state of every other (in progress, over,
none: the file starts empty or with part or all of one of the scripted games), names come
from tests/names.py, undo is pressed anywhere (after a game's end too), the box's buttons
short and held, the app is closed and a new one opened on the same file at random points.
Nothing may raise, every frame must draw (the console, the OLED, the page), no key may go
unanswered for `REFEREE_KEY_TIMEOUT` seconds (10), and the file must reopen to the state it
was closed in.

The default run fits the suite (25 random tables of up to 40 actions; a failure is
shortened by a few replays and printed as the keys that reproduce it). `REFEREE_LONG=1` runs
200 tables of up to 120 actions with Hypothesis's shrinking, for before a release; and
`scripts/random-keys` runs for N keys or M minutes (docs/testing.md).

Each failure found is pinned below (`PINNED`) with the keys that reproduce it.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.whole_app import ACTION, START, Action, Report, Start, play, shrink

LONG = os.environ.get("REFEREE_LONG", "") not in ("", "0")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def said(report: Report) -> str:
    failure = report.failure
    assert failure is not None
    return (f"{failure.signature}\n  start: {report.start}\n  keys: {report.repro()}\n"
            f"  actions: {report.actions!r}\n{failure.details}")


# Found by this test (and by the random run of issue 22, item 5), each with its keys.
PINNED: dict[str, tuple[Start, list[Action]]] = {
    # TypeError 'abandon' (ui/app.py new_game): a Gallerist game over an unfinished one.
    "gallerist over an unfinished gallery grippers game": (Start(), [
        ("type", "Ann"), ("key", "enter"), ("type", "Ben"), ("key", "ctrl+s"),
        ("key", "ctrl+n"), ("key", "f2"), ("key", "down"), ("key", "down"), ("key", "enter"),
        ("type", "Ann"), ("key", "ctrl+s")]),
    # ScreenStackError (ui/screens/common.py GameChooser): two Enters together.
    "double enter in the game chooser": (Start(), [
        ("key", "f2"), ("burst", ("enter", "enter"))]),
    # ScreenStackError (ui/screens/common.py InProgressScreen, its buttons): the Resume/New
    # dialog of a resumed game, two Enters together.
    "double enter on the resume dialog": (Start("gallerist", 50), [
        ("burst", ("enter", "enter"))]),
    # The same in Gallery Grippers' (ui/games/gallery_grippers/setup.py, on_text_button_pressed).
    "double enter on gallery grippers' resume dialog": (Start("gallery-grippers", 20), [
        ("burst", ("enter", "enter"))]),
    # ScreenStackError in Textual's command palette (textual/command.py, its own dismiss):
    # Ctrl+P opened it on any screen, and two Enters together ended the app. (The console
    # has no palette now: Ctrl+P does nothing.)
    "double enter in textual's command palette": (Start(), [
        ("key", "ctrl+p"), ("burst", ("enter", "enter"))]),
    # A hang (the console never idle again): the palette's first command over an A.R.T.
    # table, then typing (scripts/random-keys, seed 4444).
    "a palette command over an a.r.t. table": (Start("art-project", 100), [
        ("key", "escape"), ("key", "ctrl+p"), ("burst", ("enter", "enter")),
        ("type", "O'Brien-Smith")]),
    # ScreenStackError (A.R.T. ActionsDialog): its list, two Enters together.
    "double enter in the a.r.t. actions": (Start("art-project", 10), [
        ("key", "r"), ("key", "a"), ("burst", ("enter", "enter"))]),
    # AttributeError 'ArtCatalog' ... 'specialists' (GG settings read the A.R.T. catalog).
    "gallery grippers over an a.r.t. game": (Start("art-project", 10), [
        ("key", "n"), ("key", "f2"), ("key", "home"), ("key", "enter"), ("type", "Ann"),
        ("key", "enter"), ("type", "Ben"), ("key", "ctrl+s")]),
    # The same after a finished Gallerist game ('Catalog' object has no 'specialists').
    "gallery grippers after a finished gallerist game": (Start("gallerist", 52), [
        ("key", "escape"), ("key", "ctrl+n"), ("key", "f2"), ("key", "home"),
        ("key", "enter"), ("type", "Ann"), ("key", "enter"), ("type", "Ben"),
        ("key", "ctrl+s")]),
    # UnicodeEncodeError (device/render.py _text): a name outside Latin-1 on the OLED.
    "a name outside latin-1": (Start(), [
        ("type", "李明"), ("key", "enter"), ("type", "Ben"), ("key", "ctrl+s")]),
    # ZeroDivisionError in Textual's Timer: the box's deadline already past when the
    # console arms its timer (ui/run.py ConsoleAndBox._arm: set_timer(0)).
    "a box deadline already past": (Start("art-project", 98), [
        ("wait", 600.0), ("key", "f2")]),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_keys(name: str) -> None:
    start, actions = PINNED[name]
    report = play(start, actions)
    if report.failure is not None:
        pytest.fail(said(report), pytrace=False)


@pytest.mark.slow(45)
@settings(max_examples=200 if LONG else 25, deadline=None, print_blob=True,
          suppress_health_check=list(HealthCheck),
          phases=list(Phase) if LONG else [Phase.explicit, Phase.reuse, Phase.generate])
@given(start=START, actions=st.lists(ACTION, min_size=1, max_size=120 if LONG else 40))
def test_random_keys_on_the_whole_app(start: Start, actions: list[Action]) -> None:
    report = play(start, actions)
    if report.failure is not None and not LONG:
        # Hypothesis's shrinking replays hundreds of times: too long for the suite. A few
        # replays dropping actions give keys short enough to read and pin.
        shorter = shrink(start, list(report.actions), report.failure.signature, budget=12)
        again = play(start, shorter)
        if again.failure is not None and again.failure.signature == report.failure.signature:
            report = again
    if report.failure is not None:
        pytest.fail(said(report), pytrace=False)


def test_a_clean_table_passes() -> None:
    """The harness itself: a whole game's start, keys and presses and a reopen with nothing
    wrong reports nothing (so a failure above is the app's, not the harness's)."""
    report = play(Start("gallery-grippers", 20), [
        ("key", "r"), ("button", "NEXT", False), ("button", "BACK", True), ("key", "escape"),
        ("reopen",), ("key", "r"), ("key", "ctrl+z"), ("key", "escape")])
    if report.failure is not None:
        pytest.fail(said(report), pytrace=False)
    assert report.apps == 2 and "(reopen)" in report.keys
