"""What every console screen shares: the way to the session, and inline refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static

from referee.commands import Command, NewGame
from referee.errors import Refusal
from referee.session import Session
from referee.state import GameState
from ui import format as fmt

T = TypeVar("T")


class Referee(Protocol):
    """What screens may ask of the app (see `ui.app.RefereeApp`)."""

    session: Session

    def send(self, command: Command) -> Refusal | None: ...

    def new_game(self, command: NewGame) -> Refusal | None: ...

    def cancel_new_game(self) -> None: ...

    def open(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        ...


class SessionView:
    """Mixin: a screen that draws from the session and redraws on `show()`."""

    @property
    def referee(self) -> Referee:
        return cast(Referee, cast(Screen[Any], self).app)

    @property
    def state(self) -> GameState:
        return self.referee.session.state

    def show(self) -> None:
        """Redraw from the session (called after every accepted command)."""

    def send(self, command: Command) -> bool:
        """Send a command; a refusal is shown inline (in `#error`). True if accepted."""
        refusal = self.referee.send(command)
        self.refused(refusal)
        return refusal is None

    def refused(self, refusal: Refusal | None) -> None:
        screen = cast(Screen[Any], self)
        errors = screen.query("#error")
        if not errors:
            if refusal is not None:
                screen.notify(fmt.refusal_text(refusal), severity="error", markup=False)
            return
        line = errors.first(Static)
        line.update("" if refusal is None else fmt.refusal_text(refusal))
        line.set_class(refusal is not None, "-shown")

    def say_error(self, text: str) -> None:
        """A problem with what was typed, found before anything is sent."""
        line = cast(Screen[Any], self).query_one("#error", Static)
        line.update(text)
        line.add_class("-shown")

    def error_line(self) -> Static:
        return Static("", id="error", markup=False)


class BaseScreen(SessionView, Screen[None]):
    """A full screen of the console (new game, hands, turn order, the table)."""


class Dialog(SessionView, ModalScreen[T]):
    """A modal dialog over the table; Escape cancels it (unless it is a pending decision)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def action_cancel(self) -> None:
        self.dismiss(None)


class PendingDialog(Dialog[None]):
    """A decision the rules hold open: it cannot be dismissed, only answered (or undone).

    The app opens one for each pending decision and closes it once the decision is gone.
    """

    decision = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("f1", "app.rules", "Rules"),
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    @property
    def key(self) -> tuple[str, str]:
        return (self.player, self.decision)

    def action_cancel(self) -> None:
        self.notify("This decision must be made before play goes on (or undo with Ctrl+Z).",
                    severity="warning")


class Choices(OptionList):
    """An option list that always has an option highlighted, so Enter picks at once."""

    def on_mount(self) -> None:
        self._first()

    def on_focus(self) -> None:
        self._first()

    def add_options(self, items: Iterable[Any]) -> Self:
        result = super().add_options(items)
        self._first()
        return result

    def _first(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0


class Cycle(Static, can_focus=True):
    """A value picked from a short list: Enter, Space or → steps on, ← steps back; a click
    steps on. Much lighter than a Select (the new-game form has up to nine of them)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,right", "step(1)", "Next value", show=False),
        Binding("left", "step(-1)", "Previous value", show=False),
    ]

    def __init__(self, choices: list[tuple[str, Any]], value: Any, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.choices = choices
        self.index = next((i for i, (_, v) in enumerate(choices) if v == value), 0)

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    @value.setter
    def value(self, value: Any) -> None:
        self.index = next(i for i, (_, v) in enumerate(self.choices) if v == value)
        self.refresh()

    def render(self) -> str:
        return f"‹ {self.choices[self.index][0]} ›"

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.choices)
        self.refresh()

    def on_click(self) -> None:
        self.action_step(1)


class TitleBar(Static):
    """The app's name along the top (a plain line: lighter than Textual's Header)."""

    def __init__(self) -> None:
        super().__init__("Tableside Referee — Gallery Grippers", classes="title-bar")
