"""The console app: one session, the screens that draw it, the dialogs that send commands.

The app keeps no game state. After every accepted command (from the console, the box or any
other front end on the same session) it redraws every screen from `session.state` and
`session.log`, and it opens a modal dialog for each decision the rules hold pending. Which
screens those are is the game's own (`ui.games.screens_for`): the app imports none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual import events
from textual._context import active_message_pump
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen, Screen

from referee import games
from referee.errors import Refusal
from referee.session import Outcome, Session
from ui import css_cache, textual_fixes  # (textual_fixes applies the fixes it holds)
from ui.base import BaseScreen, PendingDialog, SessionView
from ui.games import DEFAULT_GAME, GameScreens, in_progress, phase_of, screens_for
from ui.trouble import DrawingFailure, Failures, PlainLogScreen, TroubleScreen, failed_screen

if TYPE_CHECKING:
    import argparse

    from referee.app import SessionOpening

log = logging.getLogger(__name__)

# Textual's stylesheets parsed once, not at every start (ui/css_cache.py).
css_cache.install()

# The table and its dialogs (and the rules' Markdown, and Pillow for the box) are imported
# when first needed: the console's first screen comes up sooner (see scripts/bench.py).


class Box(Protocol):
    """What the console needs of the box controller (device/): buttons in, picture out."""

    def press(self, button: str, long: bool) -> None: ...

    def render_image(self) -> Any: ...  # a 1-bit PIL.Image.Image, or None

    def subscribe(self, callback: Callable[..., None]) -> Any: ...


class SessionChanged(Message):
    """The session accepted a command (posted from whichever thread applied it); `own`: the
    console sent it (not the box, its panel, the phone page or another front end)."""

    def __init__(self, outcome: Outcome, own: bool = False) -> None:
        super().__init__()
        self.outcome = outcome
        self.own = own


class BoxChanged(Message):
    """The box says its picture changed."""


class ProofFinished(Message):
    """The game file's proof of every entry has finished (posted from its thread)."""


class SessionRestarted(Message):
    """The game file was found damaged after the session opened (its proof of every entry
    runs beside it): moved aside, a new one started, the session starts afresh."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class RefereeApp(textual_fixes.KeysWhereRead, App[None]):
    """A game at the table: see docs/console.md. The screens are the running game's (by its
    ruleset's id); a new game may be of any game whose screens are installed (F2)."""

    CSS_PATH = "console.tcss"
    # No Textual command palette (Ctrl+P): its commands are Textual's own (a theme that
    # overrides the colour-blind-safe palette, the keys panel, a screenshot), none of them the
    # table's; F1 is the help. With it, random keys found a crash (two Enters at once) and a
    # console that never went idle again (a palette command over the A.R.T. table): screens
    # outside the game's state space, of no use at a table.
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Tableside Referee"
    SUB_TITLE = "Gallery Grippers"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "rules", "Help"),
        Binding("f2", "choose_game", "Game"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]


    def __init__(self, session: Session, *, box: Box | None = None,
                 game: str | None = None) -> None:
        # The game a new game is of (its form is the base screen while one is being set up):
        # the one asked for, else the session's (before any game: its own).
        new_of = game or session.ruleset.id
        first = screens_for(new_of)  # a game without screens is a clear error at once
        if phase_of(session.state) != "no_game":
            first = screens_for(session.ruleset.id)
        # The first screen's own stylesheets with the console's: Textual loads a screen's
        # CSS_PATH when it is pushed, but not the first screen's (GameScreens.stylesheets).
        super().__init__(css_path=[self.CSS_PATH, *first.stylesheets])
        self.session = session
        self.box = box
        self.new_of = new_of
        self._announce: list[Callable[[], Screen[Any]]] = []
        self._announced: Screen[Any] | None = None  # the announcement open, if one is
        self._sending: int | None = None  # the thread applying a console command, meanwhile
        self._want_new = False
        self._over_shown: str | None = None
        self._unsubscribe: list[Callable[[], Any]] = []
        self._when_drawn: list[Callable[[], Any]] = []
        self.trouble = Failures()  # screens that could not be drawn (ui/trouble.py)
        self._session_error: BaseException | None = None
        self._start_dialog: Screen[Any] | None = None  # "resume or new?", while it is open
        self._held: list[str] = []  # start-up notices held back until it closes
        self.stopped_by: str | None = None  # SIGTERM or SIGHUP, if one ended the console
        # Only a console run as a program (run_app) takes the process's stop signals: an app
        # in a test (run_test) leaves them alone, so the test runner can still be stopped.
        self.takes_stop_signals = False
        self._signals_taken: list[tuple[signal.Signals, Any]] = []  # (signal, handler before)

    def when_first_screen_drawn(self, callback: Callable[[], Any]) -> None:
        """Run `callback` once the first screen has been drawn (see `run_app`)."""
        self._when_drawn.append(callback)

    def _first_screen_drawn(self) -> None:
        callbacks, self._when_drawn = self._when_drawn, []
        for callback in callbacks:
            callback()
        css_cache.save()  # what the first screen parsed, if Python may write bytecode here

    # ---- life cycle ------------------------------------------------------------------------
    def stop_by_signal(self, name: str) -> None:
        """End the console as its quit key does when the game is kept: a stop signal
        (systemd's SIGTERM, a closed terminal's SIGHUP). Exit status 0; the caller says so."""
        if self.stopped_by is None:
            self.stopped_by = name
        if self.is_running:
            self.exit(0)

    def _take_stop_signals(self) -> None:
        """From now on the loop itself takes the stop signals (see `stop_signals`): the
        stop is handled between two messages, never inside one."""
        if not self.takes_stop_signals:
            return
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            before = signal.getsignal(sig)
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop_by_signal, sig.name)
                self._signals_taken.append((sig, before))
        if self.stopped_by is not None:  # it came while the console was starting
            self.exit(0)

    def on_mount(self) -> None:
        self._take_stop_signals()
        self._unsubscribe.append(self.session.subscribe(self._on_outcome))
        def restarted(text: str) -> None:  # (from whichever thread sent the command)
            self.post_message(SessionRestarted(text))

        self._unsubscribe.append(self.session.on_restart(restarted))
        # The file's proof of every entry may still be running (a resumed game is shown from
        # its snapshot at once): when it ends, settle on this loop, so that damage it found
        # is said, and the fresh session shown, before anyone presses anything.
        def proven() -> None:  # (on the proof's thread: post_message is thread-safe)
            self.post_message(ProofFinished())

        self.session.when_proven(proven)
        if self.box is not None:
            self.attach_box(self.box)
        # The base screen is already up (see get_default_screen); what the session holds open
        # (a game to resume, a decision) is opened on top of it once start-up is over: a
        # screen pushed here would be laid out and drawn inside Textual's start-up batch,
        # where that frame is thrown away, and then drawn again.
        self.call_later(self._first_screen)

    def attach_box(self, box: Box) -> None:
        """Show `box` on the panel (key O) and follow its picture: a box made with the app,
        on mounting, or one set up once the first screen is drawn (`referee run`)."""
        self.box = box

        def changed(*_: Any) -> None:
            self.post_message(BoxChanged())

        undo = box.subscribe(changed)
        if callable(undo):
            self._unsubscribe.append(undo)

    def get_default_screen(self) -> Screen[Any]:
        """The bottom screen is the one the session's state calls for (the new-game form, the
        hands, the turn order or the table), so Textual's first frame is already the game's:
        no empty screen is drawn first, and keys typed early reach it."""
        screen = self._base_class(self.session.state)()
        # Textual (8.2.8) gives every screen it pushes or switches to an empty result callback,
        # and `switch_screen` takes one off the screen it replaces; the default screen never
        # got one, so replacing it (when the game moves on to the next base screen) would fail.
        # Give it the same empty callback (tests/ui: every base-screen change is played).
        screen._push_result_callback(screen, None)
        if isinstance(screen, BaseScreen):  # (its first resume need not restyle it)
            screen.styled_at_mount = True
        return screen

    @property
    def screens(self) -> GameScreens:
        """The running game's screens (before any game: those of the game a new one is of)."""
        if phase_of(self.session.state) == "no_game":
            return screens_for(self.new_of)
        return screens_for(self.session.ruleset.id)

    def _first_screen(self) -> None:
        state = self.session.state
        self.sync()
        if in_progress(state):
            make = self.screens.in_progress
            if make is None:
                from ui.screens.common import InProgressScreen

                make = InProgressScreen
            self._start_dialog = make()
            self.open(self._start_dialog, self._start_choice)
        self.call_after_refresh(self._first_screen_drawn)

    def on_unmount(self) -> None:
        for undo in self._unsubscribe:
            undo()
        self._unsubscribe.clear()
        loop = asyncio.get_running_loop()
        for sig, before in self._signals_taken:  # the handlers as they were (`stop_signals`'s)
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)  # (this leaves the default, which kills)
                signal.signal(sig, signal.SIG_DFL if before is None else before)
        self._signals_taken.clear()

    def _on_outcome(self, outcome: Outcome) -> None:
        # Runs in whichever thread applied the command (the session tells its subscribers
        # before `apply` returns); post_message is thread-safe.
        own = self._sending is not None and self._sending == threading.get_ident()
        self.post_message(SessionChanged(outcome, own))

    @contextlib.contextmanager
    def _own_command(self) -> Iterator[None]:
        """While the console applies a command: its outcome is the console's own."""
        self._sending = threading.get_ident()
        try:
            yield
        finally:
            self._sending = None

    def on_session_changed(self, message: SessionChanged) -> None:
        """Redraw, and announce the step (a bypass's verdict, the start of play) when the
        console played it. Only the newest step is announced: a step played elsewhere (the
        box's buttons or its panel, the phone page) was shown there, and the game has moved
        past any announcement still waiting or open, so none is stacked up for later (issue
        42: five old verdicts to dismiss one by one after play on the box)."""
        entry = message.outcome.entry
        if entry.command["cmd"] == "new_game":
            self._want_new = False
        self._announce = list(self.screens.announce(entry)) if message.own else []
        if not message.own and self._announced is not None:
            if self._announced is self.screen:
                self.pop_screen()
            elif (self._announced in self.screen_stack  # under the box's panel, say:
                  and isinstance(self._announced, SessionView)):
                self._announced.moved_past = True  # it closes as it comes to the front
            self._announced = None
        self.sync()

    def on_proof_finished(self, _: ProofFinished) -> None:
        from referee.errors import FileDamaged, NotRecorded

        try:
            self.session.settle()
        except NotRecorded as err:
            if not isinstance(err.__cause__, FileDamaged):  # (damage: said by on_restart)
                # the file could not be read to finish its check: said; the next command
                # tries again (and is refused, saying why, if it still cannot)
                self.notify(str(err), severity="warning", timeout=15, markup=False)

    def on_session_restarted(self, message: SessionRestarted) -> None:
        """Say what was found, and show the fresh session (no game)."""
        self.notify(message.text, severity="error", timeout=15, markup=False)
        self._want_new = False
        self._announce.clear()
        self.sync()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A text field's cursor stays lit while it has the focus instead of blinking (every
        screen's fields, Textual's `Input` and whatever else has a `cursor_blink`, set here
        once). A blink is a timer that wakes the console twice a second and redraws the
        field, for as long as a form waits: most of its idle cost (docs/performance.md). A
        player still sees where they type; the cursor goes out when the field loses the
        focus, as before."""
        widget = event.widget
        if getattr(widget, "cursor_blink", False):
            widget.cursor_blink = False  # type: ignore[attr-defined]

    def on_box_changed(self, _: BoxChanged) -> None:
        from ui.screens.common import BoxScreen

        for screen in self.screen_stack:
            if isinstance(screen, BoxScreen):
                screen.refresh_image()

    # ---- commands --------------------------------------------------------------------------
    def send(self, command: Any) -> Refusal | None:
        """Apply a command; a refusal is returned for the screen to show inline. Anything
        else that goes wrong is a bug: it ends the app with a non-zero status."""
        try:
            with self._own_command():
                self.session.apply(command)
        except Refusal as refusal:
            return refusal
        except Exception as error:
            self._session_error = error  # not a drawing failure: see _handle_exception
            raise
        return None

    def new_game(self, command: Any) -> Refusal | None:
        """Start a game of `self.new_of` with `command` (that game's new_game). While a game
        (of any game) is unfinished, the table is asked first (`LeaveGameConfirm`): it is
        left only on a yes, and the session keeps it as abandoned; a refusal of the new game
        after the yes is said on the form, as one before it would be."""
        ruleset = games.find(self.new_of)
        if not self.session.unfinished:
            return self._start(command, ruleset)
        from ui.screens.common import LeaveGameConfirm

        def answered(leave: bool | None) -> None:
            if not leave:
                return
            refusal = self._start(command, ruleset, abandon=True)
            form = self.screen_stack[0]
            if refusal is not None and isinstance(form, SessionView) and form.is_mounted:
                form.refused(refusal)

        if not isinstance(self.screen, LeaveGameConfirm):
            self.open(LeaveGameConfirm(), answered)
        return None

    def _start(self, command: Any, ruleset: Any, *, abandon: bool = False) -> Refusal | None:
        try:
            with self._own_command():
                self.session.apply(command, ruleset=ruleset, abandon=abandon)
        except Refusal as refusal:
            return refusal
        except Exception as error:
            self._session_error = error  # not a drawing failure: see _handle_exception
            raise
        return None

    def send_request(self, request: dict[str, Any]) -> Refusal | None:
        """A protocol request (as a ruleset's legal actions give them) parsed by the running
        game's ruleset and applied; a refusal (a malformed one too) is returned."""
        try:
            command = self.session.ruleset.parse(request)
        except Refusal as refusal:
            return refusal
        return self.send(command)

    # ---- screens ---------------------------------------------------------------------------
    def open(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Push a screen; when it closes, run `callback` and bring the screens up to date."""

        def closed(result: Any) -> None:
            if callback is not None:
                callback(result)
            self.sync()

        self.push_screen(screen, closed)

    def _base_class(self, s: Any) -> type[Screen[Any]]:
        want = self._wanted_base(s)
        return PlainLogScreen if self._is_broken(("base", want.__name__)) else want

    def _wanted_base(self, s: Any) -> type[Screen[Any]]:
        if self._want_new or phase_of(s) == "no_game":
            form = screens_for(self.new_of).new_game
            if form is None:
                from ui.screens.common import ChooseGameScreen

                return ChooseGameScreen
            return form()
        return self.screens.base(s)

    def sync(self) -> None:
        """Make the screens match the session: the right base screen, every screen redrawn,
        stale decision dialogs closed, the next announcement or pending decision opened."""
        if self._held and self._start_dialog not in self.screen_stack:  # closed otherwise
            self._start_choice(None)
        s = self.session.state
        want = self._base_class(s)
        if type(self.screen_stack[0]) is not want:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.switch_screen(want())
        for screen in self.screen_stack:
            if isinstance(screen, SessionView) and screen.is_mounted:
                screen.redraw()
        open_keys = _decisions(s, self.screens)
        top = self.screen
        if isinstance(top, PendingDialog) and top.key not in open_keys:
            self.pop_screen()
            top = self.screen
        modal = isinstance(top, ModalScreen)
        if self._announce and (not modal or isinstance(top, PendingDialog)):
            self._announced = self._announce.pop(0)()
            self.open(self._announced)
            return
        if modal:
            return
        listed = [(str(p.player or ""), str(p.decision)) for p in getattr(s, "pending", ())]
        for who, decision in listed + sorted(open_keys - set(listed)):
            if (who, decision) in open_keys and not self._is_broken(
                    ("pending", who, decision)):
                self.open(self.screens.dialogs[decision](who))
                return
        if s.over and self._over_shown != s.commitment:
            self._over_shown = s.commitment
            self.open(self.screens.game_over())

    # ---- screens that cannot be drawn (ui/trouble.py) ---------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """Textual hands every exception no handler caught to this method, and ends the app.
        A screen the console cannot draw is no reason to end a game: while one is in progress
        (or just over), the failed screen is closed and the error shown, and the game goes
        on (`drawing_failed`). Anything else still ends the app with exit status 1: a
        failure inside the session, before any game, in the app itself (its own message loop
        stops after an exception), or failure after failure with no step of the game between."""
        screen = self._failed_screen(error)
        if screen is None:
            super()._handle_exception(error)
        else:
            self.drawing_failed(screen, error)

    def _can_go_on(self, error: BaseException, screen: Screen[Any] | None) -> bool:
        return (screen is not None and error is not self._session_error
                and phase_of(self.session.state) != "no_game"
                and not self.trouble.too_many(len(self.session.log))
                and not isinstance(screen, TroubleScreen | PlainLogScreen))

    def _failed_screen(self, error: BaseException) -> Screen[Any] | None:
        """The screen whose drawing raised `error`, if the game can go on without it."""
        screen = failed_screen(error, active_message_pump.get(None))
        return screen if self._can_go_on(error, screen) else None

    def drawing_failed(self, screen: Screen[Any], error: Exception) -> None:
        """Close `screen`, say what failed, keep the game; a failure that cannot be
        recovered from is raised again."""
        if not self._can_go_on(error, screen):
            raise error
        found = self.trouble.add(self._screen_key(screen), screen, error, len(self.session.log))
        if found is not None:  # (None: the same screen again, before it is closed)
            log.error("the console could not show %s", found.screen, exc_info=error)
            self.call_later(self._recover, screen, found)

    def _screen_key(self, screen: Screen[Any]) -> tuple[str, ...]:
        if isinstance(screen, PendingDialog):
            return ("pending", str(screen.player), screen.decision)
        if screen in self.screen_stack[:1]:
            return ("base", type(screen).__name__)
        return ("dialog", type(screen).__name__)

    def _is_broken(self, key: tuple[str, ...]) -> bool:
        """Whether that screen failed and the game has not moved on since."""
        return self.trouble.broken(key, len(self.session.log))

    def _recover(self, screen: Screen[Any], found: DrawingFailure) -> None:
        new_game = screen is self.screen_stack[0] and self.setting_up_new_game()
        if screen is self.screen_stack[0]:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.switch_screen(PlainLogScreen())
        else:
            while screen in self.screen_stack:
                self.pop_screen()
        if self.trouble.said(found):
            # Said before: a notice, not a dialog after every step of the game.
            self.notify(f"Still cannot show {found.screen} ({found.error}); the game goes on.",
                        severity="error", markup=False)
            self.sync()
        else:
            self.open(TroubleScreen(found, len(self.session.log), new_game=new_game))
        self.trouble.closed(screen)

    def _start_choice(self, choice: str | None) -> None:
        if choice == "new":
            self._want_new = True
        self._start_dialog = None
        held, self._held = self._held, []
        self._say(held)

    def cancel_new_game(self) -> None:
        """Back from the new-game form to the game that is still there."""
        if phase_of(self.session.state) != "no_game":
            self._want_new = False
            self.new_of = self.session.ruleset.id
            self.sync()

    def choose_game(self, game: str | None) -> None:
        """A new game will be of `game` (None: no change): its form replaces the other's."""
        if game is not None and game != self.new_of:
            screens_for(game)
            self.new_of = game
            self.sync()

    def setting_up_new_game(self) -> bool:
        """Whether the base screen is a new-game form (the game can be chosen)."""
        return self._want_new or phase_of(self.session.state) == "no_game"

    # ---- actions (keys that work everywhere) ----------------------------------------------
    def action_rules(self) -> None:
        """F1: the player aid of the game being played, or on a new-game form of the game
        the form starts."""
        make = (screens_for(self.new_of) if self.setting_up_new_game() else self.screens).help
        if make is None:
            self.notify("No player aid for this game on the console yet: the rules are in "
                        "the docs.", severity="warning")
            return
        screen = make()
        if not isinstance(self.screen, type(screen)):
            self.open(screen)

    def action_undo(self) -> None:
        """Ctrl+Z, on any screen of any game: the game's own undo prompt (GameScreens.undo)."""
        from ui.base import RulesetUndoConfirm

        screen = (self.screens.undo or RulesetUndoConfirm)()
        if not isinstance(self.screen, type(screen)):
            self.open(screen)

    def action_box(self) -> None:
        from ui.screens.common import BoxScreen

        if self.box is None:
            self.notify("No box is connected to this console.", severity="warning")
            return
        if not isinstance(self.screen, BoxScreen):
            box = self.box
            self.open(BoxScreen(box.render_image, box.press))

    async def action_quit(self) -> None:
        """Ctrl+Q: quit, unless that loses a game kept in memory only (then ask first)."""
        from ui.screens.common import QuitConfirm

        s = self.session.state
        if (self.session.store is None and in_progress(s)
                and not isinstance(self.screen, QuitConfirm)):
            self.open(QuitConfirm())
            return
        self.exit()

    def action_quit_now(self) -> None:
        self.exit()

    def say_later(self, lines: list[str]) -> None:
        """Show what was said before the console was up (resumed game N...) once it is; while
        the "resume or new?" question is open they wait for it to close: toasts over the
        question (at 80x24 they cover most of it, for seconds) would hide what it asks."""
        def show() -> None:
            if self._start_dialog is not None and self._start_dialog in self.screen_stack:
                self._held += lines
            else:
                self._say(lines)

        self.when_first_screen_drawn(show)

    def _say(self, lines: list[str]) -> None:
        """One toast for all of them: at 80x24 a toast per line (the hardware found, the pins
        file, the tray...) stacked up over half the form for ten seconds."""
        if lines:
            self.notify("\n".join(lines), timeout=10, markup=False)

    def action_new_game(self) -> None:
        self._want_new = True
        self.sync()

    def action_choose_game(self) -> None:
        from ui.screens.common import GameChooser

        if not isinstance(self.screen, GameChooser):
            self.open(GameChooser(self.new_of), self.choose_game)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose_game":
            # Only on a new-game form, and only when there is another game to choose (counted
            # without importing the other games' screens and rules: F2's chooser loads them).
            from ui.games import installed_games

            return (self.setting_up_new_game() and self.screen is self.screen_stack[0]
                    and installed_games() > 1)
        return True


# The decisions Gallery Grippers' console answers in a dialog (its `GameScreens.dialogs`).
DECISIONS = frozenset(screens_for(DEFAULT_GAME).dialogs)


def _decisions(s: Any, screens: GameScreens) -> set[tuple[str, str]]:
    """The (player, decision) pairs the rules hold open that the console has a dialog for."""
    if screens.open_decisions is not None:
        return screens.open_decisions(s)
    if not in_progress(s):
        return set()
    return {(str(p.player or ""), p.decision) for p in s.pending
            if p.decision in screens.dialogs}


def make_app(session: Session, *, box: Box | None = None,
             game: str | None = None) -> RefereeApp:
    """The console on `session` with `game`'s screens; `box` (optional) is shown as an
    on-screen OLED and buttons."""
    return RefereeApp(session, box=box, game=game)


def _collect_from_now_on() -> None:
    gc.freeze()
    gc.enable()


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def stop_signals(apps: list[RefereeApp], say: Callable[[str], None]) -> Iterator[list[str]]:
    """SIGTERM (systemd stops the console service with it at every shutdown) and SIGHUP (the
    terminal went away) end `referee console` and `referee run` as quitting does with the
    game kept: the console closes its screens and gives the terminal back (the alternate
    screen left, the cursor and keys as they were), the session's file is closed, exit 0,
    and one line says so. Before the console is up (opening the file, the box's hardware)
    a stop is remembered and the console never starts; while it runs, its loop takes the
    signal (`RefereeApp._take_stop_signals`). The yielded list holds the signal's name once
    one came; the previous handlers come back afterwards."""

    got: list[str] = []

    def stop(signum: int, _frame: object) -> None:
        name = signal.Signals(signum).name
        got.append(name)
        for app in apps:  # (the loop is not running: Textual's start-up or shutdown)
            app.stopped_by = app.stopped_by or name

    before = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    try:
        yield got
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        names = got or [app.stopped_by for app in apps if app.stopped_by]
        if names:
            lost = any(app.session.store is None and in_progress(app.session.state)
                       for app in apps)
            say(f"{names[0]}: stopped; " + ("the game was in memory only (--memory) and is "
                                            "gone" if lost else "the game is kept"))


def tell_terminal(text: str) -> None:
    """One of the last lines on stderr, if there is still a terminal to read it. A console
    whose terminal went away (the pty closed, then SIGHUP) ends as quitting does, exit 0
    with the game kept: writing its last line there fails (EIO), and that failure must not
    turn the stop into an error (it did: exit 1)."""
    with contextlib.suppress(OSError):
        print(text, file=sys.stderr, flush=True)


def run_app(app: RefereeApp, **run_kwargs: Any) -> int:
    """Run the app and give the process's exit status: non-zero if the app ended on an error.

    Textual ends the app on an unhandled exception but its `run()` returns normally; the
    status is in `return_code` (1 after an exception, None if the app never got going).

    Python's cyclic garbage collector is off until the first screen is drawn, and on from
    then (and on when this returns, however the app ended). Start-up makes thousands of
    objects that all live on (modules, widgets, styles, Textual's caches), and collecting
    while they are being made only scans them again and again: a fifth of the console's
    start-up time here (scripts/bench console), and the Pi is slower still. `referee console`
    and `referee run` have it off already while they import and set up
    (CliCommand.quick_start). Once the first screen is up, what exists is frozen out of later
    collections (gc.freeze), so that a full collection during play scans only what play
    made: the slowest key presses were the ones a collection landed on.
    """
    if app.stopped_by is not None:  # a stop signal came before the console was up
        return 0
    gc.disable()
    app.when_first_screen_drawn(_collect_from_now_on)
    app.takes_stop_signals = True
    try:
        app.run(**run_kwargs)
    finally:
        gc.enable()
        for found in app.trouble.found:  # for the owner: the screens it could not draw, and why
            print(f"referee: the console could not show {found.screen} "
                  f"(the game went on):\n{found.details}", file=sys.stderr)
    code = app.return_code
    if app.stopped_by is not None and code in (None, 0):
        return 0
    return 1 if code is None else code


def cmd_console(args: argparse.Namespace, *, opening: SessionOpening | None = None,
                said: list[str] | None = None) -> int:
    """`referee console`: the console on a session built from the shared options (or
    `opening`'s, begun while this module was imported; it says what it found in `said`)."""
    from referee.app import SessionOpening

    said = [] if said is None else said
    opening = opening or SessionOpening(args, notify=said.append)
    apps: list[RefereeApp] = []
    try:
        with stop_signals(apps, said.append) as stopped:
            session = opening.session()
            try:
                app = make_app(session)
                apps.append(app)
                app.stopped_by = next(iter(stopped), None)  # (a stop while the file opened)
                app.say_later(list(said))  # shown once the console is up, and when it closes
                return run_app(app)
            finally:
                session.close()
    finally:
        opening.close()  # (a session never taken: its file let go)
        for line in said:  # (the last: how a stop signal ended it, if one did)
            tell_terminal(f"referee console: {line}")
