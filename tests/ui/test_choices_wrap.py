"""Every word of every option shows when the list's scrollbar comes with options set after it
was drawn: Textual's OptionList counted an option's lines for the width without the
scrollbar, so one that only just fitted lost its last word (seen on the Gallerist's action
list at 80x24: "Ann: move the gallerist to International" without "Market")."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from ui.base import Choices

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

WIDTH = 30


class OneList(App[None]):
    CSS = f"Choices {{ width: {WIDTH}; height: 5; }}"

    def compose(self) -> ComposeResult:
        yield Choices(("a", 0))


def shown(lst: Choices, lines: int) -> str:
    return " ".join("".join(seg.text for seg in lst.render_line(y)) for y in range(lines))


@pytest.mark.parametrize("length", range(16, 30))
async def test_an_option_that_just_fits_keeps_its_last_word_when_the_scrollbar_comes(
        length: int) -> None:
    app = OneList()
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        lst = app.query_one(Choices)
        long = "x" * length + " end"
        lst.set_choices([(long, 0), *((f"item {i}", i + 1) for i in range(10))])
        await pilot.pause()
        await pilot.pause()
        assert lst.show_vertical_scrollbar
        text = shown(lst, 3)
        assert "end" in text, text
        assert "item 0" in text  # (and the option after it is not pushed out of view)
