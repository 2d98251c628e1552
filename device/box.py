"""Button-only play: the box's controller.

``BoxController`` turns button presses into commands for the session and describes the screen
as a ``BoxView``. It holds no game state: every screen is built from ``session.state`` and the
log, plus a small cursor (which menu item is highlighted, which card is picked). Refusals from
the session are shown for a few seconds with their rule id, and nothing is lost: the cursor
stays where it was. What each button does on each screen is in ``docs/box.md``.

The console embeds the same controller (a "box panel"): call ``press`` from its event loop,
``subscribe`` to redraw, and ``safe_view()`` / ``device.render.GuardedRender`` to draw.

A screen that cannot be built (a bug in a game's box screens, a state it did not expect) must
not stop the box: ``safe_view()`` (what ``subscribe``'s callbacks get) shows a "display
error" screen instead, the failure logged once; the buttons, the session and the other front
ends go on. ``view()`` raises, for tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from device.pins import DEFAULT_PINS, PinMap
from device.traydice import Bridge, TrayDice, Waiting
from device.view import (
    DEFAULT_GAME,
    SCROLL_S,
    BoxView,
    Cursor,
    OledScreens,
    layout,
    notice_pages,
    oled_screens,
    wrap,
)
from referee.dice import Roll
from referee.errors import Refusal
from referee.lazylog import Logger
from referee.session import LogEntry, Outcome, Session

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

NOTICE_S = 4.0
IDLE_S = 120.0
CODE_S = 30.0  # the page's QR code leaves the screen by itself after this long
BUTTONS = ("ROLL", "NEXT", "BACK", "MENU")
# The page for phones (`referee run --web`): its code, shown by the controller for any game.
CODE = "code"  # the overlay (screen) that shows it
CODE_ITEM = ("Phone page", "phone_page")  # added to every game's MENU while there is a code
CODE_OK = ("roll", "select")  # what chooses a MENU item
# The game chooser: which game a new game started from the box's buttons is of (the games
# whose box screens can start one, `OledScreens.starts`). A game's screens open it (their
# "New game"); choosing opens that game's "new" overlay.
GAMES = "games"
NEW = "new"
# A die the tray read for a die typed before an undo (a correction): asked first, naming what
# it changes (`Session.retype`); ROLL records it, BACK leaves it unrecorded.
RETYPE = "retype"


def error_view(what: str) -> BoxView:
    """The screen shown when the real one cannot be built: what failed, in a few words."""
    return BoxView("error", title="Display error", lines=(*wrap(what, 21, 2), "The game goes on."),
                   hint="the buttons still work")


class BoxController:
    """Buttons in, commands to the session out, a ``BoxView`` to show.

    Args:
        session: the one session (``referee.app.open_session``).
        clock: monotonic seconds, for notices and the idle screen (tests inject a fake one).
        pins: the pin map whose ``short``/``long`` actions ``press`` follows.
        names: player names for a new game (the first n are used); default P1..Pn.
        rules: house-rule overrides for new games.
        tray: the dice tray's bridge; while a tray is connected, rolls wait for it.
        notice_s: how long a refusal or message stays on screen (or until the next press);
            idle_s: quiet time before the idle screen (None: never).
    """

    def __init__(self, session: Session, *, clock: Callable[[], float] = time.monotonic,
                 pins: PinMap = DEFAULT_PINS, names: Sequence[str] | None = None,
                 rules: Mapping[str, Any] | None = None, notice_s: float = NOTICE_S,
                 idle_s: float | None = IDLE_S, tray: Bridge | None = None,
                 game: str = DEFAULT_GAME) -> None:
        self.session = session
        self._default_game = game
        oled_screens(game)  # a game without box screens is a clear error at once
        self.dice = TrayDice(session, tray)
        self.pins = pins
        self._clock = clock
        self._names = list(names) if names else None
        self._rules = dict(rules or {})
        self._notice_s, self._idle_s = notice_s, idle_s
        self.ui: Cursor = self.game.cursor(players=min(len(names), 6) if names else 2)
        self._notice: tuple[str, float] | None = None  # (text, until)
        self._notice_from = 0.0  # when the notice on screen came (its pages turn from then)
        self._queued: list[str] = []  # notices waiting for the one on screen (corrections)
        self._code_until: float | None = None  # when the QR code shown leaves by itself
        # a screen whose text is longer than the OLED scrolls a page every SCROLL_S: the
        # screen (its text) and when it came, and how many pages it has
        self._scrolled: tuple[BoxView, float, int] | None = None
        self._last_press = clock()
        self._subscribers: list[Callable[[BoxView], None]] = []
        self._shown: BoxView | None = None
        self._mine = False  # the outcome being published came from this controller
        self._code: tuple[tuple[tuple[bool, ...], ...] | None, str] | None = None
        self._asking: tuple[Any, bool, str] | None = None  # (command, ack, question): RETYPE
        from device.render import OnceLog

        self._view_failures = OnceLog(log, "building the box's screen")
        self._subscriber_failures = OnceLog(log, "a box view subscriber")
        self._unsubscribe = session.subscribe(self._on_outcome)
        self._unrestart = session.on_restart(self._on_restart)

    @property
    def game(self) -> OledScreens:
        """The running game's box screens (before any game, and while a new game is being
        set up: those of the game the box starts, `new_game_of`)."""
        state = self.session.state
        phase = getattr(state.phase, "value", state.phase)
        setting_up = getattr(getattr(self, "ui", None), "overlay", None) == NEW
        if phase == "no_game" or setting_up:
            return oled_screens(self._default_game)
        return oled_screens(self.session.ruleset.id)

    @property
    def new_game_of(self) -> str:
        """The game a new game from the box's buttons is of (the chooser sets it)."""
        return self._default_game

    def startable(self) -> list[tuple[str, str]]:
        """(name, id) of every installed game a new game of can start from the box."""
        from referee import games

        out = []
        for game in games.available():
            try:
                if oled_screens(game).starts:
                    out.append((games.find(game).name, game))
            except LookupError:
                continue
        return out

    def choose_game(self) -> None:
        """A game's "New game": the chooser when more than one game can start from the box,
        else that one's new-game screen."""
        found = self.startable()
        if len(found) > 1:
            self.ui.overlay, self.ui.oindex = GAMES, 0
            return
        if found:
            self._default_game = found[0][1]
        self._new_of(self._default_game)

    def _new_of(self, game: str) -> None:
        self._default_game = game
        self.ui.reset_turn()
        self.ui.overlay, self.ui.oindex = NEW, 0

    # ---- the API front ends use -------------------------------------------------------------
    def press(self, button: str, long: bool = False) -> None:
        """A press of ``button`` (ROLL, NEXT, BACK, MENU), short or long. Never raises a
        refusal: it is shown on the screen instead."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r}; the box has {', '.join(BUTTONS)}")
        self.act(self.pins.action(button, long))

    def act(self, action: str) -> None:
        """Do ``action`` (roll, next, select, back, undo, menu, status, none) on this screen."""
        was_idle = self._idle()
        self._last_press = self._clock()
        self._notice = None  # a press means the message was seen
        self._next_notice()
        if action != "none" and not was_idle:
            try:
                self._dispatch(action)
            except Refusal as refusal:
                self._refused(refusal)
        self._changed()

    def view(self) -> BoxView:
        """The screen as it stands now (a body longer than the OLED at its page for now)."""
        v = self._view()
        now = self._clock()
        v = self._scroll(v, now)
        if self._notice is not None and now < self._notice[1]:
            page = int((now - self._notice_from) // SCROLL_S)
            v = replace(v, notice=self._notice[0], notice_page=page)
        return v

    def _scroll(self, v: BoxView, now: float) -> BoxView:
        """A body that does not fit (`device.view.layout`) shows its next page every
        `SCROLL_S` seconds from when the screen came, round and round."""
        pages = layout(v).pages if v.code is None and v.screen != "idle" else 1
        if pages <= 1:
            self._scrolled = None
            return v
        if self._scrolled is None or self._scrolled[0] != v:
            self._scrolled = (v, now, pages)
        page = int((now - self._scrolled[1]) // SCROLL_S)
        return replace(v, scroll=page % pages)

    def safe_view(self) -> BoxView:
        """`view()`, or, if the screen cannot be built, one that says so (never raises)."""
        try:
            return self.view()
        except Exception as err:
            from device.render import failure_words

            self._view_failures.failed(err)
            return error_view(failure_words(err))

    def subscribe(self, callback: Callable[[BoxView], None]) -> Callable[[], None]:
        """Call ``callback(view)`` whenever the screen changes; returns an unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def tick(self) -> None:
        """Let time pass: a notice expires, the idle screen comes. Call it at ``next_change``
        (calling it more often changes nothing)."""
        now = self._clock()
        if self._notice is not None and now >= self._notice[1]:
            self._notice = None
            self._next_notice()
        if self._code_until is not None and now >= self._code_until:
            self._code_until = None
            if self.ui.overlay == CODE:
                self.ui.overlay = None  # the code leaves by itself: the game is shown again
        self._changed()

    def next_change(self) -> float | None:
        """When the screen next changes by itself (by the clock): a notice expires, the idle
        screen comes; None: only a press or an outcome changes it."""
        due: list[float] = []
        if self._notice is not None:
            due.append(self._notice[1])
            if len(notice_pages(self._notice[0])) > 1:  # its next page
                since = self._notice_from
                due.append(since + SCROLL_S * (int((self._clock() - since) // SCROLL_S) + 1))
        if self._code_until is not None and self.ui.overlay == CODE:
            due.append(self._code_until)
        if self._scrolled is not None:  # the next page of a screen too long for the OLED
            since = self._scrolled[1]
            due.append(since + SCROLL_S * (int((self._clock() - since) // SCROLL_S) + 1))
        if self._idle_s is not None and self.ui.ack is None and not self._idle():
            due.append(self._last_press + self._idle_s)
        return min(due, default=None)

    def close(self) -> None:
        self._unsubscribe()
        self._unrestart()

    # ---- what a new game started from the box gets -----------------------------------------
    def player_names(self, n: int) -> list[str]:
        """The names of a new game's `n` players: the configured ones first, then P<i>."""
        names = (self._names or [])[:n]
        return names + [f"P{i + 1}" for i in range(len(names), n)]

    @property
    def house_rules(self) -> dict[str, Any]:
        """The house-rule overrides every new game started from the box gets."""
        return dict(self._rules)

    # ---- dice: the tray when there is one --------------------------------------------------
    def roll(self, player: str, die: str, make: Callable[[Roll | None], Any], *,
             answers: tuple[str, ...] = (), ack: bool = False) -> None:
        """Apply `make(roll)`: wait for the tray if one is connected, else the box rolls."""
        if not self.dice.wait_for(Waiting(player, die, make, answers, ack)):
            self._apply(make(None), ack=ack)

    def notify(self, text: str) -> None:
        """Show a message from outside the game (the dice tray's state) for a few seconds."""
        self._say(text)
        self._changed()

    def set_code(self, code: Sequence[Sequence[bool]] | None, address: str, *,
                 show: bool = True) -> None:
        """The page for phones: its address as a QR code's modules (None when the code is
        too big for the OLED: the address is shown in words then) and in words. MENU lists
        it as "Phone page" from now on; with `show` it is on screen now, until a press or for
        `CODE_S` seconds (a deadline of `next_change`: the loop's timer, never a sleep)."""
        matrix = None if code is None else tuple(tuple(bool(m) for m in row) for row in code)
        self._code = (matrix, address)
        if show:
            self._show_code()
        self._changed()

    def _show_code(self) -> None:
        self.ui.overlay = CODE
        self._code_until = self._clock() + CODE_S

    def _code_view(self) -> BoxView:
        code, address = self._code or (None, "")
        if code is not None:
            return BoxView(CODE, lines=("Phones:", "scan to", "follow the", "game."),
                           hint="BACK:close", code=code)
        words = address.removeprefix("http://")
        chunks = tuple(words[i:i + 21] for i in range(0, len(words), 21))[:4]
        return BoxView(CODE, title="Phones: open", lines=chunks, hint="QR: console F6")

    def tray_roll(self, player: str, die: str, value: int) -> None:
        """A roll from the tray (on this controller's loop): completes the waiting command."""
        found = self.dice.arrived(player, die, value)
        if found is None:
            self._say(f"Tray rolled {value} ({die}) but no roll was asked for: not used.")
        else:
            waiting, roll = found
            following = waiting.then(roll) if waiting.then is not None else None
            if following is not None and self.dice.wait_for(following):
                self._changed()  # the next die of the same command
                return
            try:
                self._given(waiting.make(roll), ack=waiting.ack)
            except Refusal as refusal:
                self._refused(refusal)
        self._changed()

    def _given(self, command: Any, ack: bool) -> None:
        """Apply a command whose die the table gave (the tray read it); one that gives a die
        typed before an undo another value (a correction) is asked first (`RETYPE`)."""
        ask = self.session.retype(command)
        if ask is None:
            self._apply(command, ack=ack)
            return
        self._asking = (command, ack, ask.words())
        self.ui.overlay, self._code_until = RETYPE, None

    def _retype(self, action: str) -> None:
        """The correction's question: ROLL (or select) records it, BACK does not (nothing is
        recorded; ROLL on the game's screen asks the tray again); other buttons say so."""
        asking = self._asking
        if asking is None or action in ("back", "menu"):
            self.ui.overlay, self._asking = None, None
            if asking is not None:
                self._say("Not recorded: the die is as it was.")
            return
        if action not in CODE_OK:
            self._say("ROLL records the corrected die, BACK does not.")
            return
        self.ui.overlay, self._asking = None, None
        self._apply(asking[0], ack=asking[1])

    # ---- plumbing --------------------------------------------------------------------------
    def _changed(self) -> None:
        v = self.safe_view()
        if v == self._shown:
            return
        self._shown = v
        for callback in list(self._subscribers):
            try:
                callback(v)
            except Exception as err:
                self._subscriber_failures.failed(err)

    def _on_outcome(self, outcome: Outcome) -> None:
        self.dice.settled()
        fixed = [e for e in outcome.events if e.get("type") == "die_corrected"]
        if fixed:  # a typed die given another value after an undo: never silently, each one
            from referee.words import core_words

            for event in fixed:  # one notice each, in turn (the OLED font has no →)
                self._say(core_words([event], self.session.ruleset)[0].replace("→", "->"),
                          queue=True)
            if self.ui.overlay == CODE:  # the code would hide it: the game's screen, said
                self.ui.overlay, self._code_until = None, None
        ack = self.ui.ack if self._mine else None
        self.ui.reset_turn()
        self.ui.ack = ack
        if not self._mine:
            asked = ("menu", "confirm", "confirm_end", RETYPE)
            if self.ui.overlay == RETYPE:
                self._asking = None
            self.ui.overlay = (None if self.ui.overlay in asked
                               else self.ui.overlay)  # (a question about the game as it was)
            self._changed()

    def _on_restart(self, _text: str) -> None:
        """The game file was found damaged after the box opened it (its proof of every entry
        runs beside the game): moved aside, a new one started, no game now. Said on the
        screen; the whole message went to the log and the console."""
        self.dice.settled()
        self.ui = self.game.cursor(players=getattr(self.ui, "players", 2))
        self._say("Game file damaged: moved aside; new file started.")
        self._changed()

    def _apply(self, command: Any, ack: bool = False, **how: Any) -> Outcome:
        """Apply a command of the running game from this box (`ack`: its result stays on
        screen until a press); the game's box screens say what the outcome needs said.
        `how`: `Session.apply`'s (the ruleset of a new game of another game, abandon)."""
        self._mine = True
        try:
            outcome = self.session.apply(command, **how)
        finally:
            self._mine = False
        self.ui.ack = outcome.entry.seq if ack else None
        return outcome

    def _refused(self, refusal: Refusal) -> None:
        # The rule it rests on and the refusal's words; its code is for programs (issue 39).
        head = f"Not allowed ({refusal.rule})" if refusal.rule else "Not allowed"
        # The words as said (names as typed): the OLED wraps and transliterates them as it
        # draws (`device.render`); the console's box panel shows them whole.
        self._show_notice(f"{head}\n{refusal.message}")

    def _show_notice(self, text: str) -> None:
        """`text` on screen from now: a page of its rows every `SCROLL_S` when it has more
        than the notice's rows (`notice_pages`), on screen long enough for each page."""
        now = self._clock()
        pages = len(notice_pages(text))
        # (notice_s 0: notices are not shown at all, as before)
        last = max(self._notice_s, pages * SCROLL_S) if self._notice_s > 0 else 0.0
        self._notice = (text, now + last)
        self._notice_from = now

    def _say(self, text: str, queue: bool = False) -> None:
        """Show `text` for a few seconds; with `queue`, after the notice on screen (and those
        already waiting) rather than over it: none is lost."""
        if queue and (self._queued or (self._notice is not None
                                       and self._clock() < self._notice[1])):
            self._queued.append(text)
            return
        self._show_notice(text)

    def _next_notice(self) -> None:
        """The next waiting notice, now the one before it was seen or expired."""
        if self._queued:
            self._say(self._queued.pop(0))

    def _idle(self) -> bool:
        return (self._idle_s is not None and self.ui.ack is None
                and self._clock() - self._last_press >= self._idle_s)

    def _entry(self, seq: int | None) -> LogEntry | None:
        log = self.session.log  # log[i].seq == i + 1 (older entries are read from the store)
        if seq is None or not 1 <= seq <= len(log):
            return None
        entry = log[seq - 1]
        return None if entry.undone else entry

    # ---- which screen ----------------------------------------------------------------------
    def mode(self) -> str:
        """The screen the next press acts on."""
        ui = self.ui
        if ui.overlay is not None:
            return ui.overlay
        if self.dice.waiting is not None:
            return "tray"
        return self.game.mode(self)

    def _menu(self) -> list[Any]:
        menu: list[Any] = self.game.menu(self)
        return [*menu, CODE_ITEM] if self._code is not None else menu

    def _items(self, mode: str) -> list[Any]:
        return self.game.items(mode, self.session.state, self.ui, self._menu())

    def _view(self) -> BoxView:
        if self._idle():
            return self.game.idle(self.session.state)
        mode = self.mode()
        if mode == CODE:
            return self._code_view()
        if mode == RETYPE and self._asking is not None:
            return BoxView(RETYPE, title="Correct a die?", lines=(self._asking[2],),
                           hint="ROLL:record BACK:no")
        if mode == GAMES:
            names = tuple(name for name, _ in self.startable())
            return BoxView("games", title="New game of", menu=names,
                           cursor=self.ui.oindex % max(1, len(names)),
                           hint="NEXT:move ROLL:ok")
        return self.game.view(self, mode)

    # ---- acting ----------------------------------------------------------------------------
    def _dispatch(self, action: str) -> None:
        mode = self.mode()
        if mode == RETYPE:
            self._retype(action)
            return
        if mode == CODE:  # any button puts the code away
            self.ui.overlay, self._code_until = None, None
            return
        if mode == GAMES:
            found = self.startable()
            step = {"next": 1, "back": -1}.get(action)
            if step is not None:
                self.ui.oindex = (self.ui.oindex + step) % max(1, len(found))
            elif action in CODE_OK and found:
                self._new_of(found[self.ui.oindex % len(found)][1])
            elif action == "menu":
                self.ui.overlay = None
            return
        if mode == "menu" and action in CODE_OK and self._code is not None:
            menu = self._menu()
            if menu[getattr(self.ui, "oindex", 0) % len(menu)] == CODE_ITEM:
                self._show_code()
                return
        self.game.handle(self, mode, action)
