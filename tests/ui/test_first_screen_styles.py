"""The console's first screen is not restyled when it first resumes (issue 41: ~5 ms of every
start). Textual styles each node as it mounts, and then, when the screen resumes, styles every
node of it again; on the app's first screen nothing has changed in between, so the second pass
is skipped (`BaseScreen.styled_at_mount`). These tests run that second pass anyway, at the very
moment it was skipped, on every game's first screens (a new game's form, a game in progress),
and fail if it would have changed any node's styles: a first screen that changes its own
classes or pseudo-classes before it resumes, without restyling, would be drawn wrong."""

from __future__ import annotations

from typing import Any

import pytest

from referee.session import Session
from tests.ui.conftest import SIZE, played
from tests.ui.test_art_console import drawn
from tests.ui.test_gallerist_table_view import four_players
from ui.app import make_app
from ui.base import BaseScreen


def _styles(screen: Any) -> dict[int, tuple[str, Any, Any]]:
    """Each node's rules from the stylesheets, with what they were matched on."""
    return {id(node): (type(node).__name__, sorted(node.classes), node._css_styles.get_rules())
            for node in screen.walk_children(with_self=True)}


FIRST_SCREENS = {
    "gallery-grippers, no game": lambda: make_app(Session()),
    "the-art-project, no game": lambda: make_app(Session(), game="art-project"),
    "the-gallerist, no game": lambda: make_app(Session(), game="gallerist"),
    "gallery-grippers, in play": lambda: make_app(played()),
    "the-art-project, in play": lambda: make_app(drawn()),
    "the-gallerist, in play": lambda: make_app(four_players()),
}


@pytest.mark.parametrize("first", FIRST_SCREENS)
async def test_restyling_the_first_screen_as_it_resumes_would_change_nothing(
        first: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    changed: list[str] = []
    resume = BaseScreen._on_screen_resume

    def check(screen: BaseScreen, event: Any) -> None:
        skipping = screen.styled_at_mount
        resume(screen, event)
        if not skipping:
            return
        assert event.refresh_styles is False  # (the pass Textual would make is skipped)
        before = _styles(screen)
        screen.app.stylesheet.update_nodes(list(screen.walk_children(with_self=True)),
                                           animate=False)
        after = _styles(screen)
        checked.append(type(screen).__name__)
        changed.extend(f"{before[k][0]} {before[k][1]}" for k in before
                       if before[k] != after.get(k))

    monkeypatch.setattr(BaseScreen, "_on_screen_resume", check)
    app = FIRST_SCREENS[first]()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen_stack[0] is not None
    assert len(checked) == 1, checked  # the app's first screen, once
    assert changed == [], changed


async def test_only_the_first_resume_of_the_first_screen_skips_the_restyle() -> None:
    app = make_app(Session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = app.screen_stack[0]
        assert isinstance(first, BaseScreen)
        assert first.styled_at_mount is False  # (used up by its first resume)
        await pilot.press("f1")  # help over it, then back: that resume restyles as before
        await pilot.pause()
        assert app.screen is not first
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is first
