"""The box on screen: a mirror of the 128x64 OLED and its buttons, usable from the keyboard.

`BoxPanel` knows nothing about the box controller: it is given a function that returns the
current OLED image (a 1-bit PIL image, or None when there is nothing to show) and a function
to press a button with. Call `refresh_image()` when the box says its picture changed.

In `referee run` that function is the box's own press (`device.run.BoxRig.press`): in
simulation it drives gpiozero's mock pins, so a click or key here reaches the box through
gpiozero's callbacks and the debounce like a real button (a hold takes the hold time), and
the picture changes when the box says so. The picture keeps every pixel: half blocks
(128x32 cells) on a wide terminal, braille (2x4 pixels a cell: 64x16) on a narrow one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from PIL import Image
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Button, Static

from ui.base import either_case

log = logging.getLogger(__name__)

OLED_SIZE = (128, 64)


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


def oled_text(image: Image.Image | None, *, compact: bool = False) -> list[str]:
    """The OLED image as text, every pixel kept: half blocks (▀ ▄ █, 1x2 pixels a cell:
    128x32 cells) or, `compact`, braille (2x4 pixels a cell: 64x16 cells)."""
    from device.textart import text_art

    bw = Image.new("1", OLED_SIZE) if image is None else image.convert("1")
    if bw.size != OLED_SIZE:
        bw = bw.resize(OLED_SIZE)
    return text_art(bw, "braille" if compact else "half").split("\n")


def half_blocks(image: Image.Image | None) -> list[str]:
    """The image as text: two pixel rows per character cell (▀ ▄ █ and space)."""
    return oled_text(image, compact=False)


class OledView(Static):
    """The OLED picture as half-block text; or, `as_text`, what it says in plain words (a
    terminal too narrow for the full-size picture: braille's 2x4 pixels a cell keeps every
    pixel, but the OLED's small font is not readable at that size)."""

    compact: reactive[bool] = reactive(False)
    as_text: reactive[bool] = reactive(False)

    def __init__(self, image_source: Callable[[], Image.Image | None],
                 text_source: Callable[[], str] | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._image_source = image_source
        self.text_source = text_source
        self._failed: str | None = None  # the failure last logged

    def render(self) -> str | Text:
        try:
            if self.as_text and self.text_source is not None:
                return Text(self.text_source())  # game data: never read as markup
            return "\n".join(oled_text(self._image_source(), compact=self.compact))
        except Exception as err:  # the picture is not the game: say it, the console goes on
            key = f"{type(err).__name__}: {err}"
            if key != self._failed:  # once, not on every redraw
                self._failed = key
                log.exception("the box panel could not draw the OLED")
            return Text(f"The box's screen cannot be drawn here ({key}). The game goes on: "
                        "the buttons and the rest of the console still work.")

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")

    def watch_as_text(self, as_text: bool) -> None:
        self.set_class(as_text, "-words")


class BoxPanel(Vertical, can_focus=True):
    """The OLED mirror and the box's buttons; each button has a key (see `BOX_BUTTONS`).

    Args:
        image_source: returns the OLED's current 1-bit image (None: blank).
        press: presses a box button: `press(button, long)` (the box's physical path: in
            simulation, its mock pins).
        compact: None chooses the 64x16 braille picture when the terminal is under 140
            columns.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(either_case(spec.key), f"press({spec.button!r}, {spec.long})", spec.label)
          for spec in BOX_BUTTONS],
        Binding(either_case("p"), "picture", "Picture/words"),
    ]

    def __init__(self, image_source: Callable[[], Image.Image | None],
                 press: Callable[[str, bool], None], *, compact: bool | None = None,
                 id: str | None = None, text_source: Callable[[], str] | None = None) -> None:
        super().__init__(id=id)
        self._image_source = image_source
        self._text_source = text_source
        self._fitted = False
        self._press = press
        self._buttons = BOX_BUTTONS
        self._compact = compact

    def compose(self) -> ComposeResult:
        yield OledView(self._image_source, self._text_source, id="oled")
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
        oled = self.query_one(OledView)
        if oled.compact != compact or not self._fitted:  # (not on every resize: P's choice
            oled.as_text = compact and oled.text_source is not None  # changes the size)
        self._fitted = True
        oled.compact = compact

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "picture":
            return self._text_source is not None
        return True

    def action_picture(self) -> None:
        """P: the OLED's picture, or what it says in words (when the box can say it)."""
        oled = self.query_one(OledView)
        oled.as_text = not oled.as_text and oled.text_source is not None

    def refresh_image(self) -> None:
        """Redraw the OLED picture (call when the box says it changed). In words, the lines
        may be more or fewer than before (a menu opens): the view is laid out again, so every
        option shows, not as many as the screen before had lines."""
        oled = self.query_one(OledView)
        oled.refresh(layout=oled.as_text)

    def action_press(self, button: str, long: bool) -> None:
        self._press(button, long)
        self.refresh_image()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        index = int((event.button.id or "").rsplit("-", 1)[-1])
        spec = self._buttons[index]
        self.action_press(spec.button, spec.long)
