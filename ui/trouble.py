"""When the console cannot draw a screen: say so, and keep the game.

A screen that fails to draw (a bug in the console, a state it did not foresee) must never
lock a table out of its game. The game lives in the session, not in the screens: the failed
screen is closed, the error is shown (`TroubleScreen`), the table and its log stay (or, when
the table itself cannot be drawn, a plain log in its place: `PlainLogScreen`), and undo, the
box and quitting still work. The failed screen is not opened again until the game moves on
(an answer from the box, an undo), so a resumed game cannot crash the console again and
again. See `ui.app.RefereeApp._handle_exception` and docs/console.md.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from referee.session import LogEntry
from referee.words import step_words
from ui import format as fmt
from ui.base import BaseScreen, Dialog, KeyBar, TitleBar, either_case

# After this many drawing failures with no step of the game between them the console stops
# trying to go on: something is failing over and over, and ending (exit status 1) lets the
# service manager see it.
MAX_FAILURES = 10


@dataclass(frozen=True)
class DrawingFailure:
    """A screen the console could not draw: which, why, and when in the game."""

    screen: str  # what the players would call it ("the obstacle", "the table")
    error: str  # the exception, one line
    details: str  # the traceback, for the owner (printed when the console ends)
    log_length: int  # the game's log length then: it is tried again once the game moves on


class Failures:
    """The screens this console could not draw, and which of them not to open again until
    the game moves on (its log grows: an answer from the box, an undo)."""

    def __init__(self) -> None:
        self.found: list[DrawingFailure] = []
        self._broken: dict[tuple[str, ...], int] = {}  # screen key -> log length then
        self._closing: set[int] = set()  # screens failed and not yet closed

    def add(self, key: tuple[str, ...], screen: Screen[object], error: BaseException,
            log_length: int) -> DrawingFailure | None:
        """Record a failure; None if `screen` already failed and is being closed."""
        if id(screen) in self._closing:
            return None
        self._closing.add(id(screen))
        found = failure(screen, error, log_length)
        self.found.append(found)
        self._broken[key] = log_length
        return found

    def closed(self, screen: Screen[object]) -> None:
        self._closing.discard(id(screen))

    def broken(self, key: tuple[str, ...], log_length: int) -> bool:
        return self._broken.get(key) == log_length

    def too_many(self, log_length: int) -> bool:
        """Failure after failure with no step of the game between them."""
        return sum(f.log_length == log_length for f in self.found) >= MAX_FAILURES

    def said(self, found: DrawingFailure) -> bool:
        """Whether the people at the table were told about that screen before."""
        return any(f.screen == found.screen for f in self.found if f is not found)


def what(screen: Screen[object]) -> str:
    """A screen's name for the people at the table."""
    decision = getattr(screen, "decision", "")
    if decision:
        return f"the {decision.replace('_', ' ')} decision"
    name = type(screen).__name__.removesuffix("Screen").removesuffix("Dialog")
    return f"the {''.join(' ' + c.lower() if c.isupper() else c for c in name).strip()} screen"


def failure(screen: Screen[object], error: BaseException, log_length: int) -> DrawingFailure:
    details = "".join(traceback.format_exception(error))
    return DrawingFailure(what(screen), f"{type(error).__name__}: {error}", details, log_length)


def failed_screen(error: BaseException, pump: object) -> Screen[object] | None:
    """The screen a failure belongs to: that of the innermost widget on a screen in the
    traceback (a widget's render runs while another screen is being refreshed, so the
    message pump that was running is not always the one at fault), else the pump's."""
    for frame, _ in reversed(list(traceback.walk_tb(error.__traceback__))):
        screen = _screen_of(frame.f_locals.get("self"))
        if screen is not None:
            return screen
    return _screen_of(pump)


def _screen_of(node: object) -> Screen[object] | None:
    if isinstance(node, Screen):
        return node
    if isinstance(node, Widget) and node.is_attached:
        try:
            return node.screen
        except Exception:  # not on a screen after all (NoScreen)
            return None
    return None


def log_lines(log: Sequence[LogEntry], ruleset: Any) -> list[str]:
    """The log, newest first, each line on its own, in the words every front end gives it
    (`referee.words.step_words`); one that cannot be worded is shown raw."""
    lines = []
    for entry in reversed(log):
        try:
            text = step_words(ruleset, entry.command, entry.events)
        except Exception:  # the log must show even what the console cannot word
            text = f"{entry.command.get('cmd', '?')} {entry.command}"
        mark = "  (undone)" if entry.undone else ""
        lines.append(f"#{entry.seq} {text}{mark}")
    return lines


class TroubleScreen(Dialog[None]):
    """The error, and that the game is safe."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "cancel", "Back to the game", priority=True),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding(either_case("o"), "app.box", "Box"),
    ]

    def __init__(self, failure: DrawingFailure, commands: int, *,
                 new_game: bool = False) -> None:
        super().__init__()
        self.failure = failure
        self.commands = commands
        self.new_game = new_game  # it was a new game's form: that game did not start

    def compose(self) -> ComposeResult:
        f = self.failure
        with Vertical(classes="dialog", id="trouble"):
            yield Static(f"[b]The console could not show {fmt.escape(f.screen)}[/b]",
                         classes="dialog-title")
            yield Static(f"✗ {f.error}", id="trouble-error", markup=False)
            safe = (f"The new game did not start; the game before is as it was "
                    f"({self.commands} steps in its log)." if self.new_game else
                    f"The game is safe: nothing was changed and nothing lost "
                    f"({self.commands} steps in its log).")
            yield Static(
                f"{safe} This is a fault in the console, not in the game: "
                "please report it (the details are printed when the console ends).\n"
                "Go on with the box (O), take the last step back (Ctrl+Z), or quit "
                "(Ctrl+Q): the game resumes at the next start.", id="trouble-what")
        yield KeyBar()


class PlainLogScreen(BaseScreen):
    """In place of a table that cannot be drawn: the log, in plain lines, and the keys that
    still work (undo, the box, a new game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding(either_case("o"), "app.box", "Box"),
        Binding("ctrl+n", "app.new_game", "New game"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        setting_up = getattr(self.app, "setting_up_new_game", None)
        if callable(setting_up) and setting_up():
            head = ("[b]The new game's form cannot be drawn[/b]: no new game started; the game "
                    "before is as it was, its log below (newest first).")
        else:
            head = ("[b]The table cannot be drawn[/b]; the game goes on: the box referees, "
                    "and the log is below (newest first).")
        yield Static(head, classes="screen-title", id="plain-log-head")
        with VerticalScroll(id="plain-log"):
            yield Static("", id="plain-log-lines", markup=False)
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        session = self.referee.session
        text = "\n".join(log_lines(session.log, session.ruleset)) or "(no steps yet)"
        self.query_one("#plain-log-lines", Static).update(text)
