"""The box on screen: a mirror of the 128x64 OLED and its buttons, usable from the keyboard.

`BoxPanel` knows nothing about the box controller: it is given a function that returns the
current OLED image (a 1-bit PIL image, or None when there is nothing to show) and a function
to press a button with. Call `refresh_image()` when the box says its picture changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from PIL import Image
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Button, Static

OLED_SIZE = (128, 64)
UPPER, LOWER, FULL, EMPTY = "▀", "▄", "█", " "


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """An on-screen button: its label, the box button it presses, short or held, its key."""

    label: str
    button: str
    long: bool
    key: str


# The box's buttons. Holding BACK is undo, so UNDO is the long press of BACK.
BOX_BUTTONS: tuple[ButtonSpec, ...] = (
    ButtonSpec("ROLL", "roll", False, "r"),
    ButtonSpec("NEXT", "next", False, "n"),
    ButtonSpec("BACK", "back", False, "b"),
    ButtonSpec("UNDO (hold BACK)", "back", True, "u"),
    ButtonSpec("MENU", "menu", False, "m"),
)


def half_blocks(image: Image.Image | None, *, scale: int = 1) -> list[str]:
    """The image as text: two pixel rows per character cell (▀ ▄ █ and space).

    `scale` 2 halves both dimensions first (a cell block is lit if any of its pixels is), so a
    128x64 image becomes 64x16 cells instead of 128x32.
    """
    width, height = OLED_SIZE[0] // scale, OLED_SIZE[1] // scale
    if image is None:
        return [EMPTY * width for _ in range(height // 2)]
    bw = image.convert("1")
    if bw.size != OLED_SIZE:
        bw = bw.resize(OLED_SIZE)
    px = bw.load()

    def lit(x: int, y: int) -> bool:
        return any(px[x * scale + dx, y * scale + dy]  # type: ignore[index]
                   for dx in range(scale) for dy in range(scale))

    rows = []
    for cy in range(height // 2):
        row = []
        for x in range(width):
            top, bottom = lit(x, 2 * cy), lit(x, 2 * cy + 1)
            row.append(FULL if top and bottom else UPPER if top else LOWER if bottom else EMPTY)
        rows.append("".join(row))
    return rows


class OledView(Static):
    """The OLED picture as half-block text."""

    compact: reactive[bool] = reactive(False)

    def __init__(self, image_source: Callable[[], Image.Image | None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._image_source = image_source

    def render(self) -> str:
        return "\n".join(half_blocks(self._image_source(), scale=2 if self.compact else 1))

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")


class BoxPanel(Vertical, can_focus=True):
    """The OLED mirror and the box's buttons; each button has a key (see `BOX_BUTTONS`).

    Args:
        image_source: returns the OLED's current 1-bit image (None: blank).
        press: presses a box button: `press(button, long)`.
        compact: None chooses the 64x16 picture when the terminal is under 140 columns.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(spec.key, f"press({spec.button!r}, {spec.long})", spec.label)
        for spec in BOX_BUTTONS
    ]

    def __init__(self, image_source: Callable[[], Image.Image | None],
                 press: Callable[[str, bool], None], *, compact: bool | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self._image_source = image_source
        self._press = press
        self._buttons = BOX_BUTTONS
        self._compact = compact

    def compose(self) -> ComposeResult:
        yield OledView(self._image_source, id="oled")
        with Horizontal(id="box-buttons"):
            for i, spec in enumerate(self._buttons):
                yield Button(f"{spec.label} \\[{spec.key}]", id=f"box-button-{i}",
                             classes="box-button", compact=True)

    def on_mount(self) -> None:
        self._fit(self.app.size.width)

    def on_resize(self) -> None:
        self._fit(self.app.size.width)

    def _fit(self, width: int) -> None:
        compact = self._compact if self._compact is not None else width < 140
        self.query_one(OledView).compact = compact

    def refresh_image(self) -> None:
        """Redraw the OLED picture (call when the box says it changed)."""
        self.query_one(OledView).refresh()

    def action_press(self, button: str, long: bool) -> None:
        self._press(button, long)
        self.refresh_image()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        index = int((event.button.id or "").rsplit("-", 1)[-1])
        spec = self._buttons[index]
        self.action_press(spec.button, spec.long)
