"""`referee run`: the console and the box together, on one session.

The console's event loop is the one loop: the box's buttons (their own thread on a Pi) and
the dice tray (its driver's thread) post onto it with `call_from_thread`; the OLED's frames
are rendered on it and written to the bus by the display's own thread (a frame is 1,030 bytes
of I2C at most, 25-100 ms, which the console does not wait for: `device.oled.DisplayThread`);
a one-shot timer, armed for the box's next deadline (a notice expiring, dimming, the
watchdog's ping), lets the box and the display keep time and beats systemd's watchdog, so a
stalled loop gets the service restarted; with nothing due, no timer runs. On a laptop the
buttons and the OLED are simulated and the console's box panel (key O) shows the OLED and
presses the buttons.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.timer import Timer

from device.run import BoxRig, BoxSetupError, build_box
from device.watchdog import Watchdog
from referee.session import Session
from ui.app import RefereeApp, run_app, stop_signals, tell_terminal
from ui.webcode import WebCodeScreen

if TYPE_CHECKING:
    from referee.app import Relay, SessionOpening

    # The page's server (aiohttp, the `web` extra) is imported only when the page is asked
    # for (`web.server_class`): a fresh install has no aiohttp, and the box starts without it.
    from web.server import WebServer

log = logging.getLogger(__name__)


MIN_DELAY = 0.001  # seconds: the shortest wait the box's one timer is armed for


class BoxOnScreen:
    """The box as the console's panel sees it (`ui.app.Box`): buttons in, picture out."""

    def __init__(self, rig: BoxRig) -> None:
        from device.render import GuardedRender

        self.rig = rig
        # A screen that cannot be drawn shows the OLED's "display error" frame here too
        # (logged once): the console, the box and the game go on.
        self._draw = GuardedRender()

    def press(self, button: str, long: bool) -> None:
        self.rig.press(button.upper(), long)  # in simulation: through the mock pins

    def render_image(self) -> Any:
        return self._draw(self.rig.box.safe_view())

    def view_text(self) -> str:
        """What the OLED shows, in plain words (the box panel on a narrow terminal)."""
        text: str = self.rig.box.safe_view().text()
        return text

    def subscribe(self, callback: Callable[..., None]) -> Callable[[], None]:
        unsubscribe: Callable[[], None] = self.rig.box.subscribe(lambda view: callback())
        return unsubscribe


class ConsoleAndBox(RefereeApp):
    """The console with the box running beside it on the same session.

    The box is given ready made (`rig`: tests) or set up by `build` once the console's first
    screen is drawn (`referee run`): gpiozero, luma and Pillow and the box's own first frame
    cost about a third of a bare Textual app's start, which the console's first frame need
    not wait for (issue 41, docs/performance.md). The first screen is the same either way:
    what the box says as it starts (the hardware found, the pins file, the tray) joins the
    start-up notice shown once the first screen is up. A box that cannot be set up ends the
    app at once: `box_failure` holds why, and `referee run` says it and exits 3 as before."""

    def __init__(self, session: Session, rig: BoxRig | None, watchdog: Watchdog,
                 web: WebServer | None = None, *,
                 build: Callable[[], BoxRig] | None = None) -> None:
        super().__init__(session, box=None if rig is None else BoxOnScreen(rig))
        self.rig = rig
        self._build = build
        self.watchdog = watchdog
        self.web = web
        self.box_failure: BaseException | None = None
        self._box_notices: list[str] = []  # for the OLED, said before the box was up
        self._timer: Timer | None = None
        if web is not None:
            self.bind("f6", "web_code", description="Phone code")
        # First of the first screen's callbacks: the box's start-up lines then join the
        # notice `say_later` shows, and it is set up while the collector is still paused.
        self.when_first_screen_drawn(self._start_box)

    def _start_box(self) -> None:
        if self.stopped_by is not None:  # a stop signal came first: nothing to start
            return
        if self.rig is None:
            if self._build is None:
                return
            try:
                self.rig = self._build()
            except Exception as err:  # (said by `referee run` once the console closes)
                self.box_failure = err
                self.exit(return_code=3 if isinstance(err, BoxSetupError) else 2)
                return
            self.attach_box(BoxOnScreen(self.rig))
        rig = self.rig
        rig.start()
        rig.box.subscribe(lambda view: self._arm())  # a change may bring a deadline
        for text in self._box_notices:
            rig.box.notify(text)
        self._box_notices.clear()
        if self.web is not None:
            self.run_worker(self._start_web(), name="web", exit_on_error=False)
        self.watchdog.ready("console and box up")
        self._tick()

    def box_notify(self, text: str) -> None:
        """A notice on the OLED (the club's state): kept until the box is up, if it is not."""
        if self.rig is None:
            self._box_notices.append(text)
        else:
            self.rig.box.notify(text)

    def action_box(self) -> None:
        if self.box is None and self.box_failure is None and self._build is not None:
            self.notify("The box is still starting: press O again in a moment.")
            return
        super().action_box()

    async def _start_web(self) -> None:
        """The page for phones, served on this loop (web/; docs/web.md)."""
        if self.web is None:
            return
        try:
            await self.web.start()
        except OSError as err:
            self.notify(f"The web page could not start: {err}", severity="error", timeout=20,
                        markup=False)
            log.error("web page: %s", err)
            self.web = None
            return
        live = self.web.live
        if live is not None:
            live.on_token(lambda token: self._web_address())
        self._web_address()

    def _web_address(self) -> None:
        """Say the page's address (a new one with each game): a notification and the log,
        and on the box its QR code (or, too long for a code the OLED can show, the address in
        words) until a button is pressed; the box's MENU shows it again (Phone page)."""
        if self.web is not None:
            from web.qr import oled_matrix

            url = self.web.url()
            log.info("web page for phones: %s", url)
            self.notify(f"Phones: {url} (F6 shows the code)", timeout=15, markup=False)
            if self.rig is not None:
                self.rig.box.set_code(oled_matrix(self.web.code_url()), url)

    def action_web_code(self) -> None:
        if self.web is not None and self.web.live is not None:
            from web.qr import text

            url = self.web.url()
            self.push_screen(WebCodeScreen(url, text(self.web.code_url())))

    async def on_unmount(self) -> None:  # type: ignore[override]  # Textual awaits it
        # (RefereeApp.on_unmount runs too: handlers are dispatched along the MRO)
        if self.web is not None:
            await self.web.stop()

    def _tick(self) -> None:
        if self.rig is None:
            return
        self.watchdog.beat()
        self.watchdog.tick()
        self.rig.tick()
        self._arm()

    def _arm(self) -> None:
        """One timer, for the box's earliest deadline (re-armed after anything happens)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.rig is None:  # (not set up yet: its start arms it)
            return
        due = self.rig.next_due(self.watchdog)
        if due is not None:
            # A deadline already past (a loop that ran late, a clock moved on) is due at once;
            # not a zero-second timer: Textual's Timer divides by its interval (a
            # ZeroDivisionError that stopped the box's tick and crashed the app on exit).
            self._timer = self.set_timer(max(MIN_DELAY, due - self.rig.clock()), self._tick)

    def post_to_loop(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the console's loop (from the buttons', the tray's or the display's
        thread; called on the loop itself, it runs at once)."""
        if self.is_running:
            if threading.get_ident() == self._thread_id:
                self._posted(fn)
            else:
                self.call_from_thread(self._posted, fn)

    def _posted(self, fn: Callable[[], None]) -> None:
        fn()
        self._arm()



def cmd_run(args: argparse.Namespace, *, opening: SessionOpening | None = None,
            early: Relay | None = None) -> int:
    """`referee run`: the console and the box on the session the arguments ask for (or
    `opening`'s, begun while this module was imported, which said its lines to `early`)."""
    from referee.app import SessionOpening

    said: list[str] = []
    holder: list[ConsoleAndBox] = []
    journal = not sys.stdout.isatty()  # under systemd stdout is the journal, not the screen
    if journal:
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format="referee run: %(message)s")

    def post(fn: Callable[[], None]) -> None:
        if holder:
            holder[0].post_to_loop(fn)

    shown: list[bool] = []  # the start-up notice is up: later lines are notices of their own

    def say(text: str) -> None:
        """The console owns the screen: a message is a notification there (and a journal
        line under systemd); all of them are printed again when the console closes. What is
        said before the first screen is up, and by the box as it starts after it, is one
        notice (`say_later`)."""
        said.append(text)
        log.info("%s", text)
        if shown:
            post(lambda: holder[0].notify(text, timeout=8, markup=False))

    for line in early.pass_on(say) if early is not None else ():
        said.append(line)  # (said while the file opened, before `say` was)
        log.info("%s", line)
    opening = opening or SessionOpening(args, notify=say)
    try:
        return _run(args, opening, said, say, holder, post, shown)
    finally:
        opening.close()  # (a session never taken: its file let go)


def _run(args: argparse.Namespace, opening: SessionOpening, said: list[str],
         say: Callable[[str], None], holder: list[ConsoleAndBox],
         post: Callable[[Callable[[], None]], None], shown: list[bool]) -> int:
    journal = not sys.stdout.isatty()
    from referee.errors import RefereeError
    from web import PageUnavailable, server_class
    from web.listen import ListenError, listen_from

    try:
        listen = listen_from(getattr(args, "web", None), getattr(args, "settings", None))
        page = None if listen is None else server_class()
    except (ListenError, RefereeError, PageUnavailable) as err:
        print(f"referee run: ERROR: {err}", file=sys.stderr)
        return 2
    def club_state(text: str) -> None:  # (from the club's thread) the console and the OLED
        say(text)
        post(lambda: holder[0].box_notify(text))

    apps: list[RefereeApp] = []

    def console_and_box(stopped: list[str]) -> int:
        session = opening.session(status=club_state)
        wd = Watchdog()
        app: ConsoleAndBox | None = None
        try:
            web = None if page is None or listen is None else page(session, *listen)
            # The box is set up once the console's first screen is drawn (ConsoleAndBox).
            app = ConsoleAndBox(session, None, wd, web=web, build=lambda: build_box(
                args, session, post=post, say=say,  # presses: rig.pressed, posted
                display_thread=True))  # the OLED's bus is written off the loop
            apps.append(app)
            app.stopped_by = next(iter(stopped), None)  # (a stop while the file opened)
            app.say_later(said)  # said before the console was up, and by the box as it
            app.when_first_screen_drawn(lambda: shown.append(True))  # starts: one notice
            holder.append(app)
            code = run_app(app)
            failure = app.box_failure
            if isinstance(failure, BoxSetupError):
                print(f"referee run: ERROR: {failure}", file=sys.stderr)
                return 3
            if failure is not None:
                raise failure  # (a settings file's error: `referee` says it, exit 2)
            return code
        finally:
            wd.stopping()
            wd.close()
            if app is not None and app.rig is not None:
                app.rig.close()
            session.close()

    try:
        with stop_signals(apps, say) as stopped:
            return console_and_box(stopped)
    finally:
        if not journal:  # (the last: how a stop signal ended it, if one did)
            for line in said:
                tell_terminal(f"referee run: {line}")
