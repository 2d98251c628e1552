"""The new-game form starts from the table's settings file (--rules), and the table can choose
any value there, the default included: what the form shows is what the game starts with."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input

from referee.app import open_session
from tests.ui.conftest import SIZE, keys, typed
from ui.app import make_app
from ui.base import Cycle

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))


def table(tmp: Path, rules: str) -> Path:
    path = tmp / "table.toml"
    path.write_text(f"[rules]\n{rules}\n", encoding="utf-8")
    return path


async def start(app: object, pilot: object) -> None:
    await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "enter")  # type: ignore[arg-type]
    await keys(pilot, "ctrl+s")  # type: ignore[arg-type]
    screen = app.screen  # type: ignore[attr-defined]
    if screen.query("#error") and "⚠" in str(screen.query_one("#error").render()):
        await keys(pilot, "ctrl+s")  # type: ignore[arg-type]  # (a warned value: start anyway)


async def test_the_form_shows_the_table_s_bypass_target_and_the_game_starts_with_it(
        tmp_path: Path) -> None:
    s = open_session(seed=SEED, rules=str(table(tmp_path, "bypass_target = 90")))
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#rule-bypass_target", Input).value == "90"
        await start(app, pilot)
        assert s.state.rules.bypass_target == 90


async def test_the_table_can_choose_the_default_back(tmp_path: Path) -> None:
    """The file says 90; the form is changed to 100 (the default): the game starts at 100."""
    s = open_session(seed=SEED, rules=str(table(
        tmp_path, 'bypass_target = 90\npercentile = "0-99"')))
    app = make_app(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#rule-bypass_target", Input)
        field.value = "100"
        cycle = app.screen.query_one("#rule-percentile", Cycle)
        assert cycle.value == "0-99"
        cycle.value = "1-100"
        await start(app, pilot)
        assert s.state.rules.bypass_target == 100
        assert s.state.rules.percentile == "1-100"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(file_target=st.integers(1, 1000), chosen=st.one_of(st.none(), st.integers(1, 1000)))
def test_what_the_form_shows_is_what_the_game_starts_with(
        tmp_path: Path, file_target: int, chosen: int | None) -> None:
    """Any value in the file, left as it is or changed to any value (the default too)."""
    import asyncio

    s = open_session(seed=SEED,
                     rules=str(table(tmp_path, f"bypass_target = {file_target}")))

    async def run() -> None:
        app = make_app(s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            field = app.screen.query_one("#rule-bypass_target", Input)
            assert field.value == f"{file_target:,}"
            if chosen is not None:
                field.value = str(chosen)
            await start(app, pilot)

    asyncio.run(run())
    assert s.state.rules.bypass_target == (file_target if chosen is None else chosen)
