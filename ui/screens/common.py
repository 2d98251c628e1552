"""Screens that serve every game: which game a new one is of, "resume or new?" for a
game whose screens have no dialog of their own for it (from its ruleset's `next` line),
"quit and lose it?" for a game kept nowhere, and the box on screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ui import format as fmt
from ui.base import BaseScreen, Choices, Dialog, KeyBar, TextButton, either_case
from ui.games import games_with_screens

if TYPE_CHECKING:
    from PIL import Image


class GameChooser(Dialog[str]):
    """Pick the game a new game is of (↑↓, Enter); Escape keeps the one chosen."""

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        found = games_with_screens()
        with Vertical(classes="dialog"):
            yield Static("[b]Which game?[/b]", classes="dialog-title")
            yield Choices(*[(name, game) for game, name in found], id="games")
            yield Static("↑↓ picks, Enter starts its form, Escape keeps the current one.",
                         classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        games = self.query_one("#games", Choices)
        if self.current in games.values:
            games.highlighted = games.values.index(self.current)
        games.focus()

    def on_option_list_option_selected(self, event: Choices.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.query_one("#games", Choices).value_at(event.option_index))


class ChooseGameScreen(BaseScreen):
    """The base screen when the chosen game has no new-game form: pick another (F2)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "app.choose_game", "Game")]

    def compose(self) -> ComposeResult:
        yield Static("Tableside Referee", classes="title-bar")
        yield Static("This game cannot be started from the console: press F2 to choose "
                     "another.", classes="hint")
        yield KeyBar()


def players_of(shown: dict[str, Any]) -> str:
    """The players of a game, as its state JSON names them, in seat order."""
    return ", ".join(str(p.get("name")) for p in shown.get("players") or [])


class InProgressScreen(Dialog[str]):
    """A game is in progress: resume it, or start a new one (any game's)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("r"), "choose('resume')", "Resume"),
        Binding(either_case("n"), "choose('new')", "New game"),
        Binding("escape", "choose('resume')", "Resume", show=False),
    ]

    def compose(self) -> ComposeResult:
        session = self.referee.session
        shown: dict[str, Any] = session.ruleset.state_json(session.state)
        names = players_of(shown)
        with Vertical(classes="dialog"):
            yield Static(f"[b]A game of {fmt.escape(session.ruleset.name)} is in progress"
                         "[/b]", classes="dialog-title")
            yield Static(fmt.escape(names), id="in-progress-players")
            yield Static(fmt.escape(str(shown.get("next") or "")), id="in-progress-next")
            with Horizontal(classes="buttons"):
                yield TextButton("Resume \\[R]", id="resume", primary=True)
                yield TextButton("New game \\[N]", id="new")
        yield KeyBar()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        self.dismiss(event.button.id)


class LeaveGameConfirm(Dialog[bool]):
    """A new game would leave the unfinished one (of any game): said, and asked, first. The
    one question every game's new-game form asks before it starts over (`RefereeApp.new_game`);
    True: leave it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "leave", "Leave it, start the new game"),
        Binding(either_case("n"), "cancel", "Keep it"),
        Binding("escape", "cancel", "Keep it", show=False),
    ]

    def compose(self) -> ComposeResult:
        session = self.referee.session
        shown: dict[str, Any] = session.ruleset.state_json(session.state)
        names = players_of(shown)
        kept = ("The game file keeps it, marked abandoned; it cannot be resumed."
                if session.store is not None else
                "This console keeps games in memory only (--memory): it will be gone.")
        with Vertical(classes="dialog", id="leave-dialog"):
            yield Static(f"[b]Leave the game of {fmt.escape(session.ruleset.name)}?[/b]",
                         classes="dialog-title")
            yield Static(f"It is not finished ({fmt.escape(names)}). Starting the new game "
                         f"ends it here. {kept}", id="leave-what")
            yield Static("[b]Y[/b] leaves it and starts the new game · [b]N[/b] keeps it")
        yield KeyBar(own_only=True)

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class QuitConfirm(Dialog[None]):
    """Quitting a game kept nowhere (`--memory`) loses it: said, and asked, first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "app.quit_now", "Quit and lose it"),
        Binding(either_case("n"), "cancel", "Keep playing"),
        Binding("escape", "cancel", "Keep playing", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="quit-dialog"):
            yield Static("[b]Quit and lose this game?[/b]", classes="dialog-title")
            yield Static("This console keeps its games in memory only (--memory): nothing is "
                         "saved, so the game cannot be resumed after quitting.")
            yield Static("[b]Y[/b] or Ctrl+Q quits · [b]N[/b] keeps playing")
        yield KeyBar(own_only=True)


class BoxScreen(Dialog[None]):
    """The box on screen: its OLED and its buttons."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding(either_case("o"), "cancel", "Close")
    ]

    def __init__(self, image_source: Callable[[], Image.Image | None],
                 press: Callable[[str, bool], None]) -> None:
        super().__init__()
        self._image_source = image_source
        self._press = press

    def compose(self) -> ComposeResult:
        from ui.boxpanel import BoxPanel

        with Vertical(classes="dialog", id="box-dialog"):
            yield Static("[b]The box[/b] — its display and buttons (keys in brackets)",
                         classes="dialog-title")
            box = getattr(self.app, "box", None)  # the box's words, if it can give them
            yield BoxPanel(self._image_source, self._press, id="box-panel",
                           text_source=getattr(box, "view_text", None))
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#box-panel").focus()

    def refresh_image(self) -> None:
        from ui.boxpanel import BoxPanel

        self.query_one("#box-panel", BoxPanel).refresh_image()
