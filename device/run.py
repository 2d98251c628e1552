"""``referee box``: a whole game from four buttons and a 128x64 OLED.

One thread runs the game (the *main loop*): it takes presses off a queue, hands them to the
``BoxController`` (which applies commands to the session) and lets the controller and the
display keep time. Between two things to do it sleeps: on the queue, until the earliest
deadline (a notice expiring, the idle screen, dimming, a burn-in shift, a display retry, the
watchdog's ping), with no timeout when there is none.
Button presses arrive on that queue from the buttons' ticker thread, always: on a Pi from the
real pins, in simulation from gpiozero's mock pins, which the keyboard thread drives
(``device.buttons.PinPresser``). The display goes through the same luma device and page-diff
strategy in both; in simulation the bus is an emulated chip (``device.panel``) and the
terminal shows the picture read back from it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from device.mirror import PngMirror
from referee.lazylog import Logger, basic_config
from referee.lazylog import settle as settle_logging

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)
__all__ = ["BoxRig", "BoxSetupError", "PngMirror", "build_box", "cmd_box", "main_loop"]

KEYS = {"r": ("ROLL", False), "R": ("ROLL", True), "n": ("NEXT", False), "N": ("NEXT", True),
        "b": ("BACK", False), "B": ("BACK", True), "m": ("MENU", False), "M": ("MENU", True)}
QUIT = ("q", "\x03", "\x04")
# What the main loop takes off its queue: a press, a function to run on the loop (from the
# tray's thread), or None to quit.
Press = tuple[str, bool] | Callable[[], None] | None


def add_box_args(p: argparse.ArgumentParser) -> None:
    from referee.app import add_session_args

    add_session_args(p, durable=True)
    p.add_argument("--hardware", choices=("auto", "pi", "sim"), default="auto",
                   help="real GPIO/I2C on a Raspberry Pi, or simulated (auto: detect)")
    p.add_argument("--pins", metavar="FILE", help="the button map (default "
                   "firmware_config/pins.toml)")
    p.add_argument("--pin-factory", choices=("lgpio", "rpigpio", "mock"), default=None,
                   help="gpiozero's pin driver on a Pi: lgpio (default), rpigpio (RPi.GPIO, "
                   "the 'rpigpio' extra) or mock (no real buttons; keys press them); "
                   "overrides [gpio] factory in the pins file")
    p.add_argument("--settings", metavar="FILE",
                   help="TOML with [rules] house rules and [box] players = [names]")
    p.add_argument("--oled-png", metavar="DIR", help="also write each new OLED frame as a "
                   "numbered PNG in DIR (numbering goes on after the frames already there)")
    p.add_argument("--display", choices=("ssd1306", "sh1106"), default="ssd1306")
    p.add_argument("--i2c-port", type=int, default=1, metavar="N", help="I2C bus (default 1)")
    p.add_argument("--i2c-address", type=lambda t: int(t, 0), default=0x3C, metavar="ADDR",
                   help="the display's address (default 0x3C)")
    p.add_argument("--rotate", type=int, choices=(0, 2), default=0,
                   help="2 turns the picture 180 degrees")
    p.add_argument("--contrast", type=int, default=0xCF, metavar="0-255")
    p.add_argument("--no-text-art", action="store_true",
                   help="in simulation, do not print the OLED on the terminal")
    p.add_argument("--tray", metavar="PATH",
                   help="the dice tray's serial device (e.g. /dev/dice-tray, or the link of "
                   "`referee tray-sim --link PATH`); it may be plugged in later")


def box_settings(path: str | None) -> tuple[list[str] | None, dict[str, Any]]:
    """Player names (``[box] players``) and house rules (``[rules]``, read by the ruleset of
    the box's Gallery Grippers games; its A.R.T. games take none) from a settings
    file."""
    if path is None:
        return None, {}
    from device.view import DEFAULT_GAME
    from referee import games
    from referee.errors import SettingsError
    from referee.tomlfile import toml_loads

    rules = dict(games.find(DEFAULT_GAME).load_settings(path).to_json())
    data = toml_loads(Path(path).read_text(encoding="utf-8"), path, SettingsError)
    names = data.get("box", {}).get("players")
    if names is not None and (not isinstance(names, list) or not 1 <= len(names) <= 6
                              or not all(isinstance(n, str) and n.strip() for n in names)):
        raise SettingsError("must be a list of 1 to 6 player names", path=path,
                            field="box.players")
    return names, rules


@contextlib.contextmanager
def single_keys(stream: TextIO) -> Iterator[None]:
    """On a terminal, keys arrive one by one, unechoed, from now on (restored at the end).
    Set before the first frame is drawn, and without flushing, so no key typed while the box
    starts is lost."""
    if not stream.isatty():
        yield
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):  # (a terminal that went away: none to restore)
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_keys(stream: TextIO, put: Callable[[Press], None]) -> None:
    """Single keys (``single_keys``) or characters from a pipe to presses, until q / EOF."""
    try:
        while True:
            ch = stream.read(1)
            if not ch or ch in QUIT:
                break
            if ch in KEYS:
                put(KEYS[ch])
    finally:
        put(None)


class BoxSetupError(Exception):
    """The box's buttons could not be set up (exit status 3: on a Pi that is never faked)."""


@dataclass
class BoxRig:
    """The box's parts on one session: controller, display, buttons and tray.

    `post(fn)` runs `fn` on the front end's loop (the box's main loop, or the console's event
    loop); presses and tray results arrive through it from other threads."""

    box: Any
    oled: Any
    buttons: Any
    tray: Any
    kind: str  # "pi" or "sim"
    presser: Any = None  # a PinPresser on the mock pins; None on real pins
    clock: Callable[[], float] = time.monotonic  # the box's one clock (next_due is on it)
    _stop_buttons: Callable[[], None] | None = None

    def press(self, button: str, long: bool = False) -> None:
        """A press from a key or the console's box panel. On mock pins it drives the pin (from
        any thread), so it reaches the box through gpiozero, the debounce and the sink like a
        real press. On real pins there is nothing to drive: the press goes to the controller
        directly, so call it on the front end's loop then (the console's panel does)."""
        if self.presser is not None:
            self.presser.press(button, long)
        else:
            self.pressed(button, long)

    def pressed(self, button: str, long: bool = False) -> None:
        """A press arriving on the front end's loop: the display wakes, the controller acts."""
        self.oled.wake()
        self.box.press(button, long)

    def next_due(self, wd: Any = None) -> float | None:
        """When `tick` next has work (by `clock`), the watchdog's ping included; None: none
        until a press or a posted function. Front ends sleep until then, not on a period."""
        return earliest(self.box.next_change(), self.oled.next_due(),
                        None if wd is None else wd.next_due())

    def settle(self, timeout: float = 30.0) -> bool:
        """Wait until every press asked for has been made (before quitting)."""
        return self.presser is None or self.presser.wait_idle(timeout)

    def start(self) -> None:
        """Start listening to the buttons (after the loop that takes their presses runs)."""
        self._stop_buttons = self.buttons.start()

    def tick(self) -> None:
        self.box.tick()
        self.oled.tick()

    def close(self) -> None:
        if self.tray is not None:
            self.tray.close()
        if self._stop_buttons is not None:
            self._stop_buttons()
        self.buttons.close()
        self.oled.close()
        self.box.close()


def build_box(args: argparse.Namespace, session: Any, *,
              post: Callable[[Callable[[], None]], None],
              say: Callable[[str], None], press: Callable[[str, bool], None] | None = None,
              pins: Any = None, clock: Callable[[], float] = time.monotonic,
              display_thread: bool = False) -> BoxRig:
    """Choose the hardware once (and say which), and put the box together on `session`.

    `display_thread`: the display writes its bus on a thread of its own
    (`device.oled.DisplayThread`), so the front end's loop only renders each frame (a
    console's loop must not wait on I2C); its deadline changes are posted to the loop.

    `press` is the buttons' sink (it runs on their ticker thread); by default each press is
    posted to the front end's loop as `BoxRig.pressed` (the display wakes, the controller
    acts). `clock` is the one clock of the buttons, the controller and the display (tests
    pass a fake one)."""
    rig: list[BoxRig] = []

    def posted(button: str, long: bool) -> None:
        post(lambda: rig[0].pressed(button, long))

    press = press or posted
    from device.box import BoxController
    from device.buttons import Buttons, PinPresser
    from device.hardware import choose, choose_pins, oled_opener, pin_factory, strategy_for
    from device.oled import Oled
    from device.pins import load_pins
    from device.render import GuardedRender
    from referee.errors import DeviceError

    pins = pins or load_pins(args.pins)
    names, rules = box_settings(getattr(args, "settings", None))
    choice = choose(args.hardware)
    say(choice.why)
    try:
        factory, why = choose_pins(choice.kind, getattr(args, "pin_factory", None),
                                   pins.factory, pins.source)
        say(why)
        say(f"buttons: {pins.source}")
        buttons = Buttons(pins, pin_factory=pin_factory(factory), sink=press, clock=clock)
    except DeviceError as err:
        raise BoxSetupError(str(err)) from err
    except Exception as err:  # gpiozero's own errors: say them loudly
        raise BoxSetupError(f"the buttons could not be set up ({type(err).__name__}: {err})"
                            ) from err
    presser = PinPresser(buttons) if factory == "mock" else None
    mirror = None
    if args.oled_png:
        from device.mirror import MirrorError

        try:
            mirror = PngMirror(args.oled_png)
        except MirrorError as err:
            buttons.close()
            raise BoxSetupError(str(err)) from err
    box = BoxController(session, pins=pins, names=names, rules=rules, clock=clock)
    oled = Oled(oled_opener(choice.kind, display=args.display, port=args.i2c_port,
                            address=args.i2c_address, rotate=args.rotate),
                strategy=strategy_for(args.display), notify=say, contrast=args.contrast,
                clock=clock)
    if mirror is not None:
        oled.watch(mirror)
        say(f"mirroring OLED frames to {mirror.dir}/ from frame-{mirror.first:05d}.png on")
    tray = start_tray(args.tray, box, post, say)
    if not oled.open():
        say("no display: refereeing without it")
    display: Any = oled
    if display_thread:
        from device.oled import DisplayThread

        display = DisplayThread(oled, on_due=lambda: post(lambda: None))  # re-arms the loop
        display.start()
    draw = GuardedRender()  # a screen that cannot be drawn shows "display error": never fatal
    box.subscribe(lambda view: display.show(draw(view)))
    try:
        display.show(draw(box.safe_view()))
    except Exception:  # the display's own bug: the box goes on (the next frame tries again)
        log.exception("the first frame could not be shown; the box goes on")
    rig.append(BoxRig(box, display, buttons, tray, choice.kind, presser=presser, clock=clock))
    return rig[0]


@contextlib.contextmanager
def stopped_by_signals(presses: queue.Queue[Press], say: Callable[[str], None]) -> Iterator[None]:
    """SIGTERM (systemd's stop), SIGINT (Ctrl+C) and SIGHUP (the terminal or SSH session
    went away) end the main loop as `q` does: after the
    item in hand (a press half applied is finished, never cut), so the box closes what it
    opened (the session's file, the buttons, the tray, the watchdog) and exits 0. The handler
    hands the stop to a short thread: putting onto the queue from the handler itself could
    wait for ever on the queue's lock if the signal came while the main thread held it. The
    previous handlers come back afterwards."""

    got: list[str] = []

    def stop(signum: int, _frame: object) -> None:
        got.append(signal.Signals(signum).name)  # (no printing in a handler: said below)
        threading.Thread(target=presses.put, args=(None,), name="stop").start()

    before = {sig: signal.signal(sig, stop)
              for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        if got:
            say(f"{got[0]}: stopped; the game is kept")


def cmd_box(args: argparse.Namespace) -> int:
    basic_config(level="INFO", format="referee box: %(message)s")  # (applied when used)
    last: list[str] = [""]

    def say(text: str) -> None:
        last[0] = text
        with contextlib.suppress(OSError):  # (a terminal that went away: nothing to tell)
            print(f"referee box: {text}", file=sys.stderr, flush=True)

    presses: queue.Queue[Press] = queue.Queue()
    # (from the start: a stop that comes while the box is still starting ends it at once)
    with single_keys(sys.stdin), stopped_by_signals(presses, say):
        return _cmd_box(args, presses, say, last)


def _cmd_box(args: argparse.Namespace, presses: queue.Queue[Press],
             say: Callable[[str], None], last: list[str]) -> int:
    from device.mirror import terminal_printer
    from device.watchdog import Watchdog
    from referee.app import session_from_args

    rigs: list[BoxRig] = []

    def club_state(text: str) -> None:  # (from the club's thread) said, and on the OLED
        say(text)
        presses.put(lambda: rigs[0].box.notify(text) if rigs else None)

    session = session_from_args(args, notify=say, status=club_state)
    try:
        rig = build_box(args, session, post=presses.put,
                        press=lambda b, long: presses.put((b, long)), say=say)
    except BoxSetupError as err:
        say(f"ERROR: {err}")
        session.close()
        return 3
    rigs.append(rig)
    settle_logging()  # (the first frame is shown: what a library logs from now on is ours too)

    def settle() -> None:  # on the main loop: act on what the file's proof found
        from referee.errors import FileDamaged, NotRecorded

        try:
            session.settle()
        except NotRecorded as err:  # damage: the box says it (BoxController._on_restart)
            if not isinstance(err.__cause__, FileDamaged):
                say(str(err))

    # (called on the proof's thread when it ends: onto the main loop, before any press)
    session.when_proven(lambda: presses.put(settle))
    if rig.kind == "sim" and not args.no_text_art:
        # the frame on the display now is drawn at once, then every new one
        rig.oled.watch(terminal_printer(sys.stdout, status=lambda: last[0]))
    rig.start()
    if rig.presser is not None:
        say("keys: r n b m press ROLL NEXT BACK MENU; R N B M hold them; q quits")

        def key(item: Press) -> None:
            if item is None:
                rig.settle()  # the presses asked for first are made, then quit
                presses.put(None)
            elif isinstance(item, tuple):
                rig.press(*item)

        threading.Thread(target=read_keys, args=(sys.stdin, key), daemon=True,
                         name="keys").start()
    wd = Watchdog()
    wd.ready("refereeing")
    collect_from_now_on()
    try:
        return main_loop(rig.box, rig.oled, presses, wd, clock=rig.clock)
    finally:
        wd.stopping()
        wd.close()
        rig.close()
        session.close()


# What the table is told (on the OLED, the console's box panel) when the tray's state changes;
# the full detail goes to the log.
TRAY_NOTICES = {
    "connected": "Dice tray connected.",
    "disconnected": "Dice tray disconnected.",
    "reset": "Dice tray reset.",
    "incompatible": "Dice tray incompatible.",
    "handshake_failed": "Dice tray handshake failed.",
    "flooding": "Dice tray flooding: if a roll does not show, roll again.",
    "flood_over": "Dice tray calm again.",
}


def start_tray(path: str | None, box: Any, post: Callable[[Press], None],
               say: Callable[[str], None]) -> Any:
    """The dice tray's driver, wired to `box` through the bridge; None without --tray.

    Results arrive on the driver's thread and are posted onto the main loop. The tray may be
    unplugged now and plugged in later: the driver keeps trying, with backoff."""
    if not path:
        say("no dice tray (--tray): electronic dice")
        return None
    from device.tray.bridge import PhysicalRoll, TrayBridge
    from device.tray.driver import TrayDriver
    from device.tray.messages import die_value

    def arrived(roll: PhysicalRoll) -> None:
        def on_loop() -> None:
            # the faces read in this game's percentile mode (a house rule of the games that
            # roll a d100; the others read 1-100, which only a d100 would notice)
            rules = getattr(box.session.state, "rules", None)
            value = die_value(roll.die, tuple(roll.faces),
                              getattr(rules, "percentile", "1-100"))
            box.tray_roll(roll.player, roll.die, value)
        post(on_loop)

    def status(st: Any) -> None:
        kind = getattr(st.kind, "value", st.kind)
        if kind in TRAY_NOTICES:
            say(f"dice tray {kind}" + (f": {st.detail}" if st.detail else ""))
            post(lambda: box.notify(TRAY_NOTICES[kind]))

    driver = TrayDriver(path, on_status=status)
    box.dice.bridge = TrayBridge(driver, deliver=arrived, blocker=box.dice.blocker,
                                 on_unexpected=lambda r: post(lambda: box.notify(
                                     f"Tray rolled {r.value} ({r.die}) unasked: not used.")),
                                 on_held=lambda h: post(lambda: box.notify(
                                     f"Tray roll {h.roll.value} held: {h.reason}.")))
    say(f"dice tray: {path} (rolls wait for it while it is connected; BACK lets the box roll)")
    return driver.start()


def earliest(*due: float | None) -> float | None:
    """The earliest of some deadlines; None if there is none."""
    return min((t for t in due if t is not None), default=None)


def collect_from_now_on() -> None:
    """`referee box` starts with Python's cyclic garbage collector paused (its CliCommand's
    `quick_start`, as the console's): everything made while it starts (modules, the session,
    the rules, the first frame) lives on, and collecting meanwhile only scanned it again and
    again (about a tenth of the box's start here, issue 41). Once the box is up, what exists is
    frozen out of later collections and the collector is on for play."""
    gc.freeze()
    gc.enable()


def main_loop(box: Any, oled: Any, presses: queue.Queue[Press], wd: Any = None,
              clock: Callable[[], float] = time.monotonic) -> int:
    """The one loop: presses to the controller, time to the controller and the display.

    It sleeps on the queue until the earliest deadline of the controller (`next_change`), the
    display (`next_due`) and the watchdog (`next_due`), or for good when there is none: idle,
    it wakes only when something is due. Each turn of the loop is a heartbeat for systemd's
    watchdog and the loop wakes to ping on the watchdog's schedule: if the loop stalls, the
    pings stop and systemd restarts the box."""
    while True:
        if wd is not None:
            wd.beat()
            wd.tick()
        due = earliest(box.next_change(), oled.next_due(),
                       None if wd is None else wd.next_due())
        try:
            item = presses.get(timeout=None if due is None else max(0.0, due - clock()))
        except queue.Empty:
            item = ("", False)
        if item is None:
            return 0
        if callable(item):
            item()
        elif item[0]:
            oled.wake()
            box.press(*item)
        box.tick()
        oled.tick()
