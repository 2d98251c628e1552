"""Keys typed in a burst act in order, each on the field that had the focus when it was read.

Tab and Shift+Tab move the focus as the app reads them (priority bindings, ui.base.FOCUS_KEYS),
while a field's own keys (a colour's →/←, a list's ↑/↓, a button's Enter) are bindings that
Textual matches once the key has come back up from the field: without the fix in
ui.textual_fixes, "→ Tab" matched the → against the field Tab had moved to and it was lost
(issue 15).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from tests.ui.conftest import SIZE, session
from ui.app import make_app
from ui.base import Cycle


async def burst(pilot: Pilot[Any], *keys: str) -> None:
    """Every key handed to the app through its driver (as the input thread hands over what
    the terminal sent) before the first is handled: a fast typist, or a paste. Pilot.press
    would let the app settle between them."""
    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, None)
        event.set_sender(pilot.app)
        driver.send_message(event)
    for _ in range(3):
        await pilot.pause()


async def test_a_colour_stepped_right_before_tab_keeps_its_step() -> None:
    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("tab")  # from the first name to its colour
        colour = app.screen.query_one("#colour-0", Cycle)
        assert app.screen.focused is colour
        before = colour.index
        await burst(pilot, "right", "tab")
        assert colour.index == (before + 1) % len(colour.choices)
        assert app.screen.focused is not colour
        await burst(pilot, "shift+tab", "left", "left", "shift+tab")
        assert colour.index == (before - 1) % len(colour.choices)
        assert app.screen.focused is app.screen.query_one("#name-0")


async def test_pilot_press_of_right_and_tab_together_steps_the_colour() -> None:
    """The same through Pilot.press with both keys at once (it lets the app settle between
    keys, so this one passed before the fix too: it guards the ordinary path)."""
    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("tab")
        colour = app.screen.query_one("#colour-0", Cycle)
        before = colour.index
        await pilot.press("right", "tab")
        await pilot.pause()
        assert colour.index == (before + 1) % len(colour.choices)


@pytest.mark.parametrize("game", ["gallery-grippers", "art-project", "gallerist"])
async def test_every_cycle_of_every_new_game_form_keeps_a_step_typed_before_tab(
        game: str) -> None:
    """Every value field of the three games' new-game forms (a colour, a mission, a rule):
    "→ Tab" and "← Shift+Tab" in a burst step the field and then move on."""
    app = make_app(session(), game=game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cycles = list(app.screen.query(Cycle).results(Cycle))
        assert cycles
        for cycle in cycles:
            cycle.focus()
            await pilot.pause()
            before = cycle.index
            await burst(pilot, "right", "tab")
            assert cycle.index == (before + 1) % len(cycle.choices), cycle.id
            assert app.screen.focused is not cycle
            cycle.focus()
            await pilot.pause()
            await burst(pilot, "left", "shift+tab")
            assert cycle.index == before, cycle.id
            assert app.screen.focused is not cycle


async def test_in_a_dialog_a_step_typed_before_tab_goes_to_its_own_field_not_the_next() -> None:
    """The Gallerist's intermediate scoring asks, per player, "qualifies? ‹ no ›": "→ Tab →"
    in a burst says yes for both. Before the fix the first → was matched against the field
    Tab had moved to: Ben's answer stepped twice (back to no) and Ann's not at all."""
    from referee.session import Session
    from tests.referee.games.gallerist import make_games
    from tests.referee.games.gallerist import test_session as play
    from ui.games.gallerist.screens import EntryDialog

    s = Session(seed=play.SEED)
    for req in make_games.game()[:6]:
        play.ok(s, **req)
    while s.state.tickets.get("pink"):
        play.ok(s, cmd="take_ticket", player="Ann", colour="pink")
    play.ok(s, cmd="move", player="Ann", to="International Market")
    play.ok(s, cmd="location_action", player="Ann")
    play.ok(s, cmd="end_turn", player="Ann")
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")  # resume
        await pilot.pause()
        await pilot.press("enter")  # the intermediate scoring waits first in the list
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, EntryDialog)
        ann, ben = dialog.query_one("#field-0-0", Cycle), dialog.query_one("#field-0-1", Cycle)
        assert dialog.focused is ann and (ann.value, ben.value) == (False, False)
        await burst(pilot, "right", "tab", "right")
        assert (ann.value, ben.value) == (True, True)


async def test_two_enters_on_the_add_player_button_add_two_seats() -> None:
    """"+ player" pressed twice in one burst adds two seats (an exclusive worker per press
    cancelled the first before it ran: one seat, and a coroutine never awaited)."""
    from textual.widgets import Input

    app = make_app(session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seats = len([w for w in app.screen.query(Input) if (w.id or "").startswith("name-")])
        app.screen.set_focus(app.screen.query_one("#add"))
        await pilot.pause()
        await burst(pilot, "enter", "enter")
        await pilot.pause()
        after = len([w for w in app.screen.query(Input) if (w.id or "").startswith("name-")])
        assert after == seats + 2, (seats, after)


async def test_two_names_typed_in_a_burst_then_ctrl_s_start_with_both() -> None:
    """Ctrl+S is a priority binding: it acts as the app reads it, while the letters before
    it wait in their fields' own queues, each field taking them in its own turn. Waiting
    for the focused field alone (the second name) read the first one before its letters
    were in (ui.base.after_typing). The first field is held busy while the burst comes in
    (as a slow turn of its own would), so the order is not left to the event loop."""
    import asyncio

    from textual.widgets import Input

    s = session()
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = app.screen.query_one("#name-0", Input)
        gate = asyncio.Event()
        first.call_later(gate.wait)  # the first name's queue waits behind this
        try:
            driver = pilot.app._driver
            assert driver is not None
            for key, char in [*[(c, c) for c in "Ann"], ("enter", "\r"),
                              *[(c, c) for c in "Ben"], ("ctrl+s", None)]:
                event = events.Key(key, char)
                event.set_sender(pilot.app)
                driver.send_message(event)
            second = app.screen.query_one("#name-1", Input)
            for _ in range(10_000):  # pilot.pause would wait for the held field too
                await asyncio.sleep(0)
                if second.value == "Ben" and second._message_queue.empty() \
                        and app._message_queue.empty():
                    break
            assert second.value == "Ben"
        finally:
            gate.set()
        for _ in range(3):
            await pilot.pause()
        starts = [e.command for e in s.log if e.command.get("cmd") == "new_game"]
        assert starts, str(app.screen.query("#error").first().render())
        assert [p["name"] for p in starts[-1]["players"]] == ["Ann", "Ben"]
