"""A selection list whose ticked entries show a tick, not only another colour: a table of
colour-blind players, or a monochrome terminal, sees what is picked."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import SelectionList
from textual.widgets.option_list import OptionDoesNotExist

TICKED, UNTICKED = "✓", " "


class TickList(SelectionList[Any]):
    """`SelectionList` with ✓ in the box of each ticked entry (and nothing in the others),
    and Space ticks the entry it was pressed on. (Textual's list ticks the entry under the
    cursor when the key's message is read: "Space ↓ Space" typed fast ticked the second
    entry twice, that is not at all; found in The A.R.T. Project's reroll form.)"""

    def _on_option_list_option_selected(self, event: SelectionList.OptionSelected) -> None:
        event.stop()
        event.prevent_default()  # (not the base class's toggle of the highlighted one)
        self.toggle(self.get_option_at_index(event.option_index).value)

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        segments = list(line)
        if len(segments) < 2:
            return line
        mark = TICKED if selection.value in self.selected else UNTICKED
        text, style, control = segments[1]
        segments[1] = Segment(mark * len(text), style, control)
        return Strip(segments, line.cell_length)

    def ticked_text(self) -> list[str]:
        """Each entry as it is read: its mark and its label (for tests and screen readers)."""
        return [f"{TICKED if o.value in self.selected else UNTICKED} {o.prompt}"
                for o in (self.get_option_at_index(i) for i in range(self.option_count))]
