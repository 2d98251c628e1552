"""What every console screen shares: the way to the session, and inline refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeVar, cast

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from referee.errors import Refusal
from referee.games.gallery_grippers.state import GameState
from referee.retype import Retype
from referee.ruleset import HouseRule
from referee.session import Session
from ui import format as fmt
from ui.textual_fixes import DismissOnce

T = TypeVar("T")


class Referee(Protocol):
    """What screens may ask of the app (see `ui.app.RefereeApp`)."""

    session: Session

    def send(self, command: Any) -> Refusal | None: ...

    def new_game(self, command: Any) -> Refusal | None: ...

    def cancel_new_game(self) -> None: ...

    def send_request(self, request: dict[str, Any]) -> Refusal | None: ...

    def open(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        ...

    def drawing_failed(self, screen: Screen[Any], error: Exception) -> None: ...

    def action_undo(self) -> None:
        """Ctrl+Z (bound as ``app.undo``): open the game's undo prompt."""
        ...


class SessionView:
    """Mixin: a screen that draws from the session and redraws on `show()`."""

    # An announcement (a verdict) a step played elsewhere moved past while another screen
    # stood in front of it (the box's panel): it closes as soon as it comes to the front.
    moved_past = False

    def on_screen_resume(self) -> None:
        if self.moved_past:
            cast(Screen[Any], self).app.pop_screen()

    @property
    def referee(self) -> Referee:
        return cast(Referee, cast(Screen[Any], self).app)

    @property
    def state(self) -> GameState:
        return cast(GameState, self.referee.session.state)

    def show(self) -> None:
        """Redraw from the session (called after every accepted command)."""

    def redraw(self) -> None:
        """`show()`, where a failure closes this screen and is shown, and the game goes on
        (see ui/trouble.py), rather than ending the console."""
        try:
            self.show()
        except Exception as error:
            self.referee.drawing_failed(cast(Screen[Any], self), error)

    def send(self, command: Any) -> bool:
        """Send a command; a refusal is shown inline (in `#error`). True if accepted. A
        command that gives a die typed before an undo another value (a correction) is asked
        first (`asks_first`): False then, nothing sent yet."""
        if self.asks_first(command):
            return False
        refusal = self.referee.send(command)
        self.refused(refusal)
        return refusal is None

    def send_request(self, request: dict[str, Any]) -> bool:
        """Send a protocol request (as the ruleset's legal actions give them); a refusal
        is shown inline. True if accepted (a correction is asked first, as by `send`)."""
        try:
            command = self.referee.session.ruleset.parse(request)
        except Refusal as refusal:
            self.refused(refusal)
            return False
        return self.send(command)

    def asks_first(self, command: Any) -> bool:
        """Whether `command` corrects a typed die after its result (`Session.retype`): if so
        the table is asked (`RetypeConfirm`, naming what it changes), and
        the command is sent only on a yes; then `corrected()` does what the screen does once
        its command is recorded. A no sends nothing and leaves this screen as it was."""
        retype = self.referee.session.retype(command)
        if retype is None:
            return False

        def answered(record: bool | None) -> None:
            if not record:
                return
            refusal = self.referee.send(command)
            if cast(Screen[Any], self).is_attached:
                self.refused(refusal)
                if refusal is None:
                    self.corrected()

        self.referee.open(RetypeConfirm(retype), answered)
        return True

    def corrected(self) -> None:
        """This screen's command was recorded after the table said yes to its correction:
        a dialog that closes once its command is recorded closes (a decision's dialog is
        closed by the app once the decision is gone)."""
        if isinstance(self, Dialog) and not isinstance(self, PendingDialog):
            self.dismiss(None)

    # A form's own words for refusals the ruleset words for a protocol line (which names
    # request fields): (code, rule) -> (the form's field to put the cursor in, what to say).
    FIELD_REFUSALS: ClassVar[dict[tuple[str, str | None], tuple[str, str]]] = {}

    def refused(self, refusal: Refusal | None) -> None:
        screen = cast(Screen[Any], self)
        said = None if refusal is None else self.FIELD_REFUSALS.get((refusal.code,
                                                                      refusal.rule))
        if said is not None:
            field, text = said
            self.say_error(text)
            screen.query_one(field).focus()
            return
        errors = screen.query("#error")
        if not errors:
            if refusal is not None:
                screen.notify(fmt.refusal_text(refusal), severity="error", markup=False)
            return
        line = errors.first(Static)
        line.update("" if refusal is None else fmt.refusal_text(refusal))
        line.set_class(refusal is not None, "-shown")

    def start_new_game(self, game: str, request: dict[str, Any]) -> None:
        """A new-game form's request: parsed by `game`'s ruleset and started; a refusal of
        either (bad_request, bad_catalog, a rule) is said inline, in the form's words where it
        has them (`FIELD_REFUSALS`)."""
        from referee import games

        try:
            command = games.find(game).parse(request)
        except Refusal as refusal:
            self.refused(refusal)
            return
        self.refused(self.referee.new_game(command))

    def say_error(self, text: str) -> None:
        """A problem with what was typed, found before anything is sent. A screen closed (or
        being closed) has no error line any more: said as a notification if the app still
        runs, else dropped; never an error of its own."""
        screen = cast(Screen[Any], self)
        lines = screen.query("#error").results(Static)
        line = next(lines, None)
        if line is None:
            if screen.is_attached:
                screen.notify(text, severity="error", markup=False)
            return
        line.update(text)
        line.add_class("-shown")

    def after_typing(self, callback: Callable[[], Any]) -> None:
        """Run `callback` once every field of the screen has taken every key sent to it so
        far. Keys reach a field through the field's own queue, while a priority binding's
        action runs as soon as the app reads its key: without this, Ctrl+S right behind a fast
        typist's (or a paste's) last letters could read a field without them. Every field,
        not only the focused one: a burst of keys typed into one field, Enter or Tab, and more
        into the next leaves the first field's letters in its own queue, which nothing orders
        behind the second's (issue 25). Each field, then its containers, runs the next step
        once its earlier messages are done; one closing (gone with its dialog) is passed by."""
        screen = cast(Screen[Any], self)
        seen: set[int] = set()
        chain: list[Widget] = []
        fields = list(screen.focus_chain)
        if screen.focused is not None and screen.focused not in fields:
            fields.append(screen.focused)
        for field in fields:  # text fields, lists being ticked (Space) or moved in...
            for node in field.ancestors_with_self:
                if not isinstance(node, Widget) or node is screen or id(node) in seen:
                    continue
                seen.add(id(node))
                chain.append(node)

        def step(i: int) -> None:
            while i < len(chain):
                if chain[i].call_later(step, i + 1):
                    return
                i += 1  # closing: it takes no more keys
            if _closed(screen):
                return  # the form went (Escape right behind Ctrl+S): nothing of it to do
            callback()

        step(0)

    def field_entered(self, prefix: str) -> Input:
        """For a priority Enter binding: the focused text field if its id starts with
        `prefix`, else the key goes on as usual (SkipAction). A priority binding acts as the
        app reads the key, so moving the focus there sends the keys typed right behind the
        Enter (fast, or pasted) to the next field; Input's own Submitted message would come
        after they had gone to this one."""
        field = cast(Screen[Any], self).focused
        if not isinstance(field, Input) or not (field.id or "").startswith(prefix):
            raise SkipAction()
        return field

    def error_line(self) -> Static:
        return Static("", id="error", markup=False)


# Ctrl+C in a dialog: Textual's "how to quit" hint looks for the quit key among the dialog's
# own keys, finds none, and says nothing; every dialog says it instead.
CTRL_C = Binding("ctrl+c", "ctrl_c", show=False, priority=True)
# Tab and Shift+Tab move the focus as the app reads them (priority), not once the widget they
# leave has had its turn: keys typed right behind them (fast, or pasted) follow the focus
# instead of landing in the field being left (issue 15: "Tab 5 0 Enter" lost its digits).
FOCUS_KEYS = (Binding("tab", "app.focus_next", show=False, priority=True),
              Binding("shift+tab", "app.focus_previous", show=False, priority=True))


def _closed(screen: Screen[Any]) -> bool:
    """Whether `screen` is off the app's screen stack (dismissed, popped, or being removed)."""
    return not screen.is_attached or screen not in screen.app.screen_stack


def either_case(letter: str) -> str:
    """A letter key that works as the key bar and the docs write it (`O`, Shift+O: Textual
    names that key "O", which a binding of "o" never matches) and as typed (`o`)."""
    return f"{letter.lower()},{letter.upper()}"


def _closed_before_mount(screen: Screen[Any], message: Message) -> bool:
    """Whether `message` is the Mount of a screen already taken off the stack: opened and
    closed in one turn of the app (a decision's dialog opened, then the decision gone by the
    next command, from the box or an undo in the same burst of keys). Its children were never
    mounted, so its own `on_mount` would find none of them (NoMatches '#tiles' on TileDialog,
    issue 22): there is nothing to set up on a screen no one will see."""
    return isinstance(message, events.Mount) and screen not in screen.app.screen_stack


class BaseScreen(SessionView, Screen[None]):
    """A full screen of the console (new game, hands, turn order, the table)."""

    BINDINGS: ClassVar[list[BindingType]] = [*FOCUS_KEYS]
    # Set on the app's first screen (RefereeApp.get_default_screen): its first resume need
    # not restyle it. Textual (8.2.8) restyles every node of a screen when it resumes unless
    # told otherwise, as after a translucent screen above it closes; the first screen's nodes
    # were each styled as they mounted, a moment before, with no screen before it and nothing
    # changed since, so that pass recomputed the same styles: ~5 ms of the console's start
    # here, more on a Pi (issue 41). tests/ui/test_first_screen_styles.py checks, for each
    # game's first screens, that restyling them then changes nothing.
    styled_at_mount = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # (Textual calls this before Screen's own handler, with the same event)
        if self.styled_at_mount:
            self.styled_at_mount = False
            event.refresh_styles = False

    async def _on_message(self, message: Message) -> None:
        if _closed_before_mount(self, message):
            return
        await super()._on_message(message)


class Dialog(DismissOnce, SessionView, ModalScreen[T]):
    """A modal dialog over the table; Escape cancels it (unless it is a pending decision).
    It takes one choice once, however fast keys come (`DismissOnce`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel"), CTRL_C,
                                             *FOCUS_KEYS]

    async def _on_message(self, message: Message) -> None:
        # A choice from a list that reaches the dialog after it closed (the second Enter of a
        # burst) is dropped before any handler sees it: a handler that sends a command would
        # send it again, to whatever the game is by then.
        if isinstance(message, OptionList.OptionSelected) and self.closed_to_choices():
            message.stop()
            return
        if _closed_before_mount(self, message):
            return
        await super()._on_message(message)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        """A letter or digit this dialog does not use says so (a dialog answers only its own
        keys, listed in its key bar), rather than nothing."""
        ch = event.character
        if (not ch or not ch.isprintable() or ch.isspace() or isinstance(self.focused, Input)
                or event.key in self.active_bindings):
            return
        text = f"✗ {ch!r} does nothing here: this dialog's keys are in the bar at the bottom."
        if cast(Screen[Any], self).query("#error"):
            self.say_error(text)
        else:
            self.notify(text, severity="warning", markup=False)

    def action_ctrl_c(self) -> None:
        field = self.focused
        if isinstance(field, Input) and field.selected_text:
            field.action_copy()  # what Ctrl+C does in a text field with text selected
            return
        self.notify("Ctrl+C does not quit: Ctrl+Q does (this dialog stays open).",
                    title="Do you want to quit?")


class PendingDialog(Dialog[None]):
    """A decision the rules hold open: it cannot be dismissed, only answered (or undone).

    The app opens one for each pending decision and closes it once the decision is gone.
    """

    decision = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("f1", "app.rules", "Help"),
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


class Choice(NamedTuple):
    """One option of a `Choices` list: what it shows and what it stands for."""

    label: str
    value: Any
    disabled: bool = False


class Choices(OptionList):
    """An option list whose options stand for values (a card, a museum, a player, a tile),
    kept beside the options by position. An option never has an id: ids must be unique,
    and game data is not (a hand holds two copies of a card, a catalog may repeat a name).
    Labels are plain text (no markup), so a name with brackets shows as it is written.
    The list always has an option highlighted, so Enter picks at once."""

    def __init__(self, *choices: Choice | tuple[str, Any], id: str | None = None,
                 classes: str | None = None, compact: bool = False) -> None:
        super().__init__(id=id, classes=classes, markup=False, compact=compact)
        self.values: list[Any] = []
        self._append(choices)

    def set_choices(self, choices: Iterable[Choice | tuple[str, Any]]) -> None:
        """Replace every option (the highlight is left to the caller)."""
        self.clear_options()
        self.values = []
        self._append(choices)
        self._first()

    def _append(self, choices: Iterable[Choice | tuple[str, Any]]) -> None:
        items = [Choice(*c) for c in choices]
        self.values.extend(c.value for c in items)
        super().add_options([Option(c.label, disabled=c.disabled) for c in items])

    def value_at(self, index: int | None) -> Any:
        """The value of the option at `index` (None for no option)."""
        if index is None or not 0 <= index < len(self.values):
            return None
        return self.values[index]

    @property
    def highlighted_value(self) -> Any:
        return self.value_at(self.highlighted)

    def add_options(self, new_options: Iterable[Any]) -> Self:
        items = list(new_options)
        if items:  # options without their values would shift every value after them
            raise TypeError("Choices are given as (label, value) pairs: use set_choices")
        return self

    def on_mount(self) -> None:
        self._first()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """Wrap the options again for the width the scrollbar leaves. Textual's OptionList
        (8.2) counts each option's lines for the width it had when the options were set; when
        options set later bring the scrollbar, an option that only just fitted is drawn on
        two lines but given one, and its last word is lost (tests/ui/test_choices_wrap.py)."""
        self._clear_caches()
        self._update_lines()
        self.refresh()

    def on_focus(self) -> None:
        self._first()

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

    class Changed(Message):
        """The value was stepped to another."""

        def __init__(self, cycle: Cycle) -> None:
            super().__init__()
            self.cycle = cycle

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.choices)
        self.refresh()
        self.post_message(self.Changed(self))

    def on_click(self) -> None:
        self.action_step(1)


class TextButton(Static, can_focus=True):
    """A button drawn as one line of text: Enter, Space or a click presses it. Much lighter
    than Textual's Button, whose styles alone cost the first screen ~20 ms to set up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "press", "Press", show=False),
    ]

    class Pressed(Message):
        """The button was pressed."""

        def __init__(self, button: TextButton) -> None:
            super().__init__()
            self.button = button

    def __init__(self, label: str, *, id: str | None = None, classes: str = "",
                 primary: bool = False, disabled: bool = False, tooltip: str | None = None
                 ) -> None:
        super().__init__(label, id=id, classes=f"{classes} -primary" if primary else classes,
                         disabled=disabled)
        if tooltip:
            self.tooltip = tooltip

    def action_press(self) -> None:
        if not self.disabled:
            self.post_message(self.Pressed(self))

    def on_click(self) -> None:
        self.action_press()


class TitleBar(Static):
    """The app's name and the game's along the top (a plain line: lighter than Textual's
    Header): the game being set up on a new-game form, else the game being played."""

    def __init__(self) -> None:
        super().__init__(title_of(None), classes="title-bar")

    def on_mount(self) -> None:
        self.update(title_of(self.app))


def title_of(app: Any) -> str:
    """"Tableside Referee — <game>": the game a new-game form starts, else the running one
    (Gallery Grippers when told nothing)."""
    from referee import games

    name = "Gallery Grippers"
    session = getattr(app, "session", None)
    if session is not None:
        setting_up = getattr(app, "setting_up_new_game", None)
        if callable(setting_up) and setting_up():
            name = games.find(app.new_of).name
        else:
            name = session.ruleset.name
    return f"Tableside Referee — {name}"


class KeyBar(Widget):
    """The keys of the screen in front, along the bottom. The screen's own keys always show
    (on a second line if they must); then F1 (rules and every key); then Ctrl+Q (and Ctrl+P,
    for an app with Textual's command palette) if they fit, else they are left to the F1
    screen. Lighter than Textual's Footer: one
    widget, drawn in the screen's first frame. A click on a key presses it.

    `own_only` shows only the screen's own keys (no F1, Ctrl+Q, Ctrl+P).
    """

    OPTIONAL = ("ctrl+q", "ctrl+p")

    def __init__(self, *, own_only: bool = False) -> None:
        super().__init__(classes="key-bar")
        self.own_only = own_only

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _: Screen[Any]) -> None:
        self.refresh(layout=True)

    def shown_keys(self) -> list[KeyShown]:
        """The screen's own keys, then the app's; one per action, in binding order."""
        app = self.app
        seen: set[tuple[int, str]] = set()
        own: list[KeyShown] = []
        common: list[KeyShown] = []
        for key, (node, binding, enabled, _) in self.screen.active_bindings.items():
            if not binding.show or not binding.description:
                continue
            if (id(node), binding.action) in seen or (self.own_only and node is app):
                continue
            seen.add((id(node), binding.action))
            (common if node is app else own).append(self._shown(key, binding, enabled))
        if not self.own_only:
            # Priority keys work on every screen, dialogs too, though a dialog does not list
            # them among its active bindings.
            listed = {k.key for k in own + common} | {k.action for k in own + common}
            for entry in type(app).BINDINGS:
                if isinstance(entry, Binding) and entry.priority and entry.show \
                        and entry.key not in listed and f"app.{entry.action}" not in listed:
                    common.append(self._shown(entry.key, entry, True))
            if app.ENABLE_COMMAND_PALETTE:
                common.append(KeyShown("ctrl+p", "^p", "Palette", True, "app.command_palette"))
        common.sort(key=lambda k: k.key in self.OPTIONAL)
        return own + common

    def _shown(self, key: str, binding: Binding, enabled: bool) -> KeyShown:
        shown = self.app.get_key_display(binding)
        if len(shown) == 1 or (shown[:1] == "f" and shown[1:].isdigit()):
            shown = shown.upper()  # R, F1: as the screens and docs/console.md write them
        return KeyShown(key, shown, binding.description, enabled, binding.action)

    def _lines(self, width: int) -> list[list[KeyShown]]:
        lines: list[list[KeyShown]] = [[]]
        used = 0
        for item in self.shown_keys():
            if lines[-1] and used + item.width > width:
                if item.key in self.OPTIONAL:
                    continue  # listed on the F1 screen
                lines.append([])
                used = 0
            lines[-1].append(item)
            used += item.width
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(self._lines(self.size.width)):
            if n:
                text.append("\n")
            for item in line:
                style = "" if item.enabled else "dim"
                text.append(f" {item.shown}", style=f"bold {style}".strip())
                text.append(f" {item.description}  ", style=style)
        return text

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it."""
        lines = self._lines(self.size.width)
        if not 0 <= event.y < len(lines):
            return
        x = event.x
        for item in lines[event.y]:
            if x < item.width:
                if item.enabled:
                    self.app.simulate_key(item.key)
                return
            x -= item.width


class KeyShown(NamedTuple):
    """A key in the key bar: the key, how it is shown, what it does, whether it works now."""

    key: str
    shown: str
    description: str
    enabled: bool
    action: str

    @property
    def width(self) -> int:
        return len(self.shown) + len(self.description) + 4


AFTER_THE_END = ("The game is over and its result stands: undo takes nothing back after the "
                 "end (Ctrl+N starts a new game).")
"""What every game's result dialog, undo prompt and player aid say of undo after the end: the
session refuses it in every game (`game_over`; the spec: once over, every command that would
change the game is refused)."""
UNDO_KEYS = "[b]Y[/b] undo · [b]N[/b] keep it"
NO_UNDO_KEYS = "[b]N[/b] or [b]Esc[/b] closes"


class RulesetUndoConfirm(Dialog[None]):
    """What undo would take back, in the words of the game's ruleset, and what happens to
    that step's dice, in the core's (`referee.words.undo_dice_words`: the box's and the
    tray's stay on the table, typed ones may be typed again and a change is logged as a
    correction), and asks: the undo prompt of every game whose screens need no more than
    that (a game adds a `HINT`)."""

    HINT: ClassVar[str | None] = None  # anything more the game has to say about an undo
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "undo", "Yes, undo"),
        Binding(either_case("n"), "cancel", "No"),
        Binding("escape", "cancel", "No", show=False),
    ]

    def compose(self) -> Any:
        from textual.containers import Vertical

        from referee.words import undo_dice_words

        session = self.referee.session
        words = session.undo_words()
        target = session.undo_target()
        dice = undo_dice_words(target.events) if target is not None else None
        nothing = AFTER_THE_END if session.state.over else "There is nothing to undo."
        with Vertical(classes="dialog", id="undo-dialog"):
            yield Static("[b]Undo?[/b]", classes="dialog-title")
            yield Static(words or nothing, id="undo-what", markup=False)
            if words and dice:
                yield Static(dice, classes="hint", id="undo-dice", markup=False)
            if words and self.HINT:
                yield Static(self.HINT, classes="hint", markup=False)
            yield Static(UNDO_KEYS if words else NO_UNDO_KEYS, id="undo-keys")
            yield self.error_line()
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Y is offered only while there is a step to take back (not after the end)."""
        if action == "undo":
            return self.referee.session.undo_target() is not None
        return True

    def action_undo(self) -> None:
        from referee.ruleset import Undo

        if self.send(Undo()):
            self.dismiss(None)


class RetypeConfirm(Dialog[bool]):
    """A die typed before an undo, given another value after its result was shown (a
    correction, issue 39), asked first: what it changes, in the ruleset's words
    (`referee.session.Session.retype`): "This changes Ben's d6 from 4 to 6. Battle in Film,
    led by Ann: the verdict goes from not yet won to won. Record it?". Y records it (True);
    N or Escape records nothing, and the dialog it came from stays as it was, what was typed
    still in its field. Every screen that sends a command asks it (`SessionView.send`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "record", "Record it"),
        Binding(either_case("n"), "cancel", "Keep the die as it was"),
        Binding("escape", "cancel", "Keep the die as it was", show=False),
    ]

    def __init__(self, retype: Retype) -> None:
        super().__init__()
        self.retype = retype

    def compose(self) -> Any:
        from textual.containers import Vertical

        with Vertical(classes="dialog", id="retype-dialog"):
            yield Static("[b]Correct a die after its result?[/b]", classes="dialog-title")
            yield Static(self.retype.words(), id="retype-what", markup=False)
            yield Static("If it is recorded, the log, the page, the export and the check "
                         "all name the correction.", classes="hint")
            yield Static("[b]Y[/b] records it · [b]N[/b] keeps the die as it was (what you "
                         "typed stays in the field)", id="retype-keys")
        yield KeyBar(own_only=True)

    def action_record(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class DescribesRules(Protocol):
    """A game's house rules in the table's words (`referee.ruleset.HouseRule`), with their
    values."""

    def described(self) -> list[tuple[HouseRule, object]]: ...


def house_rules_markdown(rules: DescribesRules) -> str:
    """The house rules in force, one line each (what it is about, its value, what the table
    does under it, the rule), in the table's words: every game's player aid ends with them."""
    lines = ["## House rules in force"]
    for rule, value in rules.described():
        lines.append(f"- **{rule.name}**: {rule.says(value)} — {rule.explain(value)} "
                     f"({rule.rule})")
    return "\n".join(lines)
