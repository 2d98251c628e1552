"""A name in a double-width script is drawn whole over any screen (issue 42: the resume
notice drew "李  )" for "李明)"). Textual cuts each screen line at the edges of every widget on
it, the covered ones too; a cut through a double-width character made both its halves
spaces. `ui.textual_fixes` keeps it whole, in a full redraw and in a partial update."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from textual._compositor import LayoutUpdate
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.widgets import Static

import ui.textual_fixes  # noqa: F401  (the fix, as the console loads it)

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

WIDE = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)  # CJK: two cells each
NAMES = st.text(WIDE | st.sampled_from("ŁukaszAnn"), min_size=1, max_size=6).filter(
    lambda name: any(cell_len(ch) == 2 for ch in name))


class Split(App[None]):
    """A table of two columns (the edge at `edge`) with a notice over it."""

    def __init__(self, edge: int) -> None:
        super().__init__()
        self.edge = edge  # (changed at will: `styles.width`)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("left " * 200, id="left")
            yield Static("right " * 200, id="right")

    def on_mount(self) -> None:
        self.query_one("#left").styles.width = self.edge


class Terminal:
    """Just enough of a terminal to see what the console's bytes draw: cursor moves, text
    in cells (a double-width character takes two; writing over half of one blanks it)."""

    MOVE = re.compile(r"\x1b\[(\d+);(\d+)H")
    OTHER = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")

    def __init__(self, width: int, height: int) -> None:
        self.cells = [[" "] * width for _ in range(height)]
        self.x = self.y = 0

    def put(self, x: int, ch: str) -> None:
        row = self.cells[self.y]
        if x >= len(row):
            return
        if row[x] == "" and x > 0:  # the second half of a wide character
            row[x - 1] = " "
        if cell_len(row[x]) == 2 and x + 1 < len(row):
            row[x + 1] = " "
        row[x] = ch

    def write(self, data: str) -> None:
        i = 0
        while i < len(data):
            move = self.MOVE.match(data, i)
            if move:
                self.y, self.x = int(move[1]) - 1, int(move[2]) - 1
                i = move.end()
                continue
            other = self.OTHER.match(data, i)
            if other:
                i = other.end()
                continue
            ch = data[i]
            i += 1
            if ch in "\r\n":
                continue
            self.put(self.x, ch)
            if cell_len(ch) == 2:
                self.put(self.x + 1, "")
                self.x += 2
            else:
                self.x += 1

    def text(self) -> str:
        return "\n".join("".join(row) for row in self.cells)


def drawn(app: App[None], term: Terminal, partial_from: int | None = None) -> str:
    """What the terminal shows after a full redraw, or after a partial update of the columns
    from `partial_from` on (as when the widget there changed)."""
    compositor = app.screen._compositor
    if partial_from is None:
        full = compositor.render_update(full=True)
        assert isinstance(full, LayoutUpdate)
        term.write(full.render_segments(app.console))
    else:
        compositor._dirty_regions.add(Region(partial_from, 0, 80 - partial_from, 24))
        update = compositor.render_partial_update()
        assert update is not None
        term.write(update.render_segments(app.console))
    return term.text()


@settings(max_examples=20, deadline=None)
@given(name=NAMES, before=st.integers(0, 20), data=st.data())
def test_a_wide_name_in_a_notice_is_drawn_whole_across_any_edge(
        name: str, before: int, data: st.DataObject) -> None:
    import asyncio

    async def run() -> None:
        app = Split(2)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            app.notify(f"{'x' * before} ({name}) after command 14.", markup=False,
                       timeout=100)
            await pilot.pause()
            shown = drawn(app, Terminal(80, 24)).splitlines()
            row = next(i for i, line in enumerate(shown) if f"({name})" in line)
            x = cell_len(shown[row][:shown[row].index(f"({name})")]) + 1  # the name's 1st cell
            middles = [x + cell_len(name[:i]) + 1 for i, ch in enumerate(name)
                       if cell_len(ch) == 2]
            edge = data.draw(st.sampled_from(middles), label="edge")  # through a character
            app.query_one("#left").styles.width = edge
            await pilot.pause()
            term = Terminal(80, 24)
            assert f"({name})" in drawn(app, term), term.text()
            assert f"({name})" in drawn(app, term, partial_from=edge), term.text()

    asyncio.run(run())
