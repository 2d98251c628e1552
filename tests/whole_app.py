"""The whole `referee run` in one process, driven by keys and button presses (issue 22, items
4 and 5): the console (`ui.run.ConsoleAndBox`, built as `cmd_run` builds it), the box
controller on gpiozero's mock pins with its OLED renderer (the luma dummy device, written by
the display's own thread), and the phone page's view and HTML rendered from the session
after every step. All three games, one game file.

A run is a start (what the file holds before the app opens: no game, or a prefix of one of
the games' scripted games, the whole of it being a game that is over) and a list of actions:

    ("key", "ctrl+n")          one key, the app left to settle after it
    ("bound", 7)               the 8th (modulo) enabled key the current screen binds
    ("burst", ("enter", "enter"))  keys handed to the app's driver before any is handled
    ("type", "李明")            text, a key per character
    ("button", "BACK", True)   a box button through its mock pin (True: held)
    ("wait", 5.0)              the box's clock moves on (notices expire, the OLED dims)
    ("reopen",)                the app closes; a new one opens the same file

After every action: no exception reached Textual's handler, no screen failed to draw (the
console's own recovery, ui/trouble.py, counts as a failure here), no thread raised, the OLED
and the page render, and the app is still answering (`Deadline`: a key that is not done
within its time is a hang, reported with the keys so far). A reopen compares the session's
`state` answer before the close and after the reopen.

`play(start, actions)` returns a `Report`: the keys as sent and the first failure, if any
(its `signature` names the exception and the innermost project line it came from). Used by
tests/test_whole_app.py and scripts/random-keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import faulthandler
import json
import logging
import os
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.names import CORPUS

ROOT = Path(__file__).resolve().parents[1]
SEED = bytes(range(32))
SIZE = (80, 24)
GAMES_DIR = ROOT / "tests" / "referee" / "games"
# Each game's scripted game (every line accepted with any seed; the last ends the game).
SCRIPTS: dict[str, Path] = {
    "gallery-grippers": GAMES_DIR / "three_players.jsonl",
    "art-project": GAMES_DIR / "art_project" / "win.jsonl",
    "art-project-lost": GAMES_DIR / "art_project" / "lost_surrounded.jsonl",
    "gallerist": GAMES_DIR / "gallerist" / "game.jsonl",
}
BUTTONS = ("ROLL", "NEXT", "BACK", "MENU")
STEP_SECONDS = float(os.environ.get("REFEREE_KEY_TIMEOUT", "10"))
PROJECT = ("ui", "device", "referee", "web")

Action = tuple[Any, ...]


@dataclass(frozen=True)
class Start:
    """What the game file holds before the first app opens: `lines` lines of `script`'s
    game (0: no game; all of them: a game that is over)."""

    script: str | None = None
    lines: int = 0

    def requests(self) -> list[dict[str, Any]]:
        if self.script is None:
            return []
        out = []
        for line in SCRIPTS[self.script].read_text(encoding="utf-8").splitlines():
            if line.strip():
                request = json.loads(line)
                if request.get("cmd") == "new_game" and "catalog" in request:
                    request["catalog"] = str(ROOT / request["catalog"])  # any working dir
                out.append(request)
        return out[:self.lines]


# ---- what went wrong -----------------------------------------------------------------------
@dataclass
class Failure:
    kind: str  # crash, drawing, thread, oled, page, hang, reopen, logged
    signature: str
    details: str


@dataclass
class Report:
    start: Start
    keys: list[str] = field(default_factory=list)  # every key and press as sent, in order
    actions: list[Action] = field(default_factory=list)  # the actions run (resolved)
    failure: Failure | None = None
    apps: int = 0  # apps opened (1 + reopens)

    def repro(self) -> str:
        return " ".join(self.keys)


def _project_frame(tb: Any) -> str:
    """The innermost frame in the project's own code (not tests/), as path:line (function)."""
    found = last = ""
    for frame in traceback.extract_tb(tb):
        last = f"{_short(frame.filename)}:{frame.lineno} ({frame.name})"
        try:
            rel = Path(frame.filename).resolve().relative_to(ROOT)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] in PROJECT:
            found = f"{rel}:{frame.lineno} ({frame.name})"
    return found or f"{last or '?'}, no project frame"


def _short(filename: str) -> str:
    """A library's file as package/module (textual/timer.py)."""
    parts = Path(filename).parts
    if "site-packages" in parts:
        return "/".join(parts[parts.index("site-packages") + 1:])
    return Path(filename).name


def signature(error: BaseException) -> str:
    """The exception's type and where in the project it was raised: the same bug gives the
    same signature whatever name or key brought it there."""
    inner = error
    seen = set()
    while inner.__cause__ is not None and id(inner) not in seen:  # the root cause
        seen.add(id(inner))
        inner = inner.__cause__
    return f"{type(inner).__name__} @ {_project_frame(inner.__traceback__)}"


def signature_of_text(details: str) -> str:
    """`signature` from a traceback printed as text (what the console keeps of a screen it
    could not draw)."""
    import re

    where = last = ""
    for match in re.finditer(r'File "([^"]+)", line (\d+), in (\S+)', details):
        last = f"{_short(match[1])}:{match[2]} ({match[3]})"
        try:
            rel = Path(match[1]).resolve().relative_to(ROOT)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] in PROJECT:
            where = f"{rel}:{match[2]} ({match[3]})"
    last = [line for line in details.strip().splitlines() if line and not line[0].isspace()]
    kind = last[-1].split(":", 1)[0].rsplit(".", 1)[-1] if last else "?"
    return f"{kind} @ {where or (last or '?') + ', no project frame'}"


def _details(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))[-4000:]


class Hang(Exception):
    """Raised in the app's thread by `Deadline` when one action took longer than its time."""


class Deadline:
    """A watchdog on its own thread: an action not finished within `seconds` is a hang. The
    app runs on this thread's event loop, so a loop spinning in Python code gets `Hang`
    raised inside it (an async exception); a loop stuck where no Python runs (a lock, a C
    call) gets every thread's stack dumped and, after twice the time, the process ended: a
    hang must never hang the suite."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.fired = False
        self._armed: float | None = None
        self._cond = threading.Condition()
        self._stop = False
        self._main = threading.get_ident()
        self._thread = threading.Thread(target=self._run, name="deadline", daemon=True)
        self._thread.start()

    def arm(self) -> None:
        with self._cond:
            self._armed = time.monotonic()
            self._cond.notify_all()

    def disarm(self) -> None:
        with self._cond:
            self._armed = None
            faulthandler.cancel_dump_traceback_later()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(5)
        faulthandler.cancel_dump_traceback_later()

    def _run(self) -> None:
        with self._cond:
            while not self._stop:
                if self._armed is None:
                    self._cond.wait()
                    continue
                late = self._armed + self.seconds - time.monotonic()
                if late > 0:
                    self._cond.wait(late)
                    continue
                self.fired = True
                self._armed = None
                faulthandler.dump_traceback_later(2 * self.seconds, exit=True)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._main),
                                                           ctypes.py_object(Hang))


class FakeClock:
    """The box's one clock (buttons, controller, display): moved on by the driver only."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@contextmanager
def _watching() -> Iterator[list[tuple[str, BaseException]]]:
    """Exceptions raised in any thread, and errors logged anywhere, while it is open."""
    caught: list[tuple[str, BaseException]] = []
    old_hook = threading.excepthook

    def hook(args: Any) -> None:
        if args.exc_value is not None:
            caught.append(("thread", args.exc_value))

    class Errors(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.exc_info and record.exc_info[1] is not None:
                caught.append(("logged", record.exc_info[1]))

    handler = Errors(level=logging.ERROR)
    root = logging.getLogger()
    threading.excepthook = hook
    root.addHandler(handler)
    try:
        yield caught
    finally:
        threading.excepthook = old_hook
        root.removeHandler(handler)


# ---- one app on the file -------------------------------------------------------------------
class Stop(Exception):
    """The run ends here (a failure was recorded)."""


class Table:
    """Everything `referee run --hardware sim --db FILE` puts together, one app at a time."""

    def __init__(self, path: Path, report: Report, deadline: Deadline) -> None:
        self.path = path
        self.report = report
        self.deadline = deadline
        self.clock = FakeClock()

    def fail(self, kind: str, error: BaseException | None, sig: str = "",
             details: str = "") -> None:
        if self.report.failure is None:
            self.report.failure = Failure(
                kind, f"{kind}: {sig or (signature(error) if error else '?')}",
                details or (_details(error) if error else ""))
        raise Stop

    def open(self) -> tuple[Any, Any, Any]:
        from device.run import build_box
        from device.watchdog import Watchdog
        from referee.app import session_from_args
        from referee.cli import build_parser
        from ui.run import ConsoleAndBox

        args = build_parser().parse_args(["run", "--hardware", "sim", "--db", str(self.path),
                                          "--seed", SEED.hex()])
        holder: list[Any] = []

        def post(fn: Callable[[], None]) -> None:
            if holder:
                holder[0].post_to_loop(fn)

        def say(text: str) -> None:
            post(lambda: holder[0].notify(text, timeout=8))

        session = session_from_args(args, notify=say)
        rig = build_box(args, session, post=post, say=say, display_thread=True,
                        clock=self.clock)
        app = ConsoleAndBox(session, rig, Watchdog(env={}))
        holder.append(app)
        self.report.apps += 1
        return session, rig, app

    async def run(self, actions: Sequence[Action]) -> int:
        """Run actions until a reopen; returns how many were done (a reopen included)."""
        from web.page import body
        from web.view import Snapshots

        session, rig, app = self.open()
        snaps = Snapshots()
        done = 0
        reopen = False
        try:
            async with app.run_test(size=SIZE) as pilot:
                await answered(app)
                self.check(app, rig, session, snaps, body)
                for action in actions:
                    done += 1
                    if action[0] == "reopen":
                        self.report.actions.append(action)
                        self.report.keys.append("(reopen)")
                        reopen = True
                        break
                    self.deadline.arm()
                    try:
                        await asyncio.wait_for(self.act(pilot, app, rig, action),
                                               STEP_SECONDS)
                        await asyncio.wait_for(self._settle(pilot, app, rig), STEP_SECONDS)
                    except (Hang, TimeoutError) as err:
                        self.fail("hang", err, "no answer in time",
                                  f"{_details(err)}\n{_busy(app)}")
                    finally:
                        self.deadline.disarm()
                    if self.deadline.fired:
                        self.fail("hang", None, "no answer in time")
                    if not app.is_running or app.return_code is not None:
                        if app._exception is None and app.return_code in (0, None):
                            reopen = True  # Ctrl+Q: the table closed the app
                            break
                        self.fail("crash", app._exception, "the app ended" if
                                  app._exception is None else "")
                    self.check(app, rig, session, snaps, body)
                before = session.handle({"cmd": "state"}) if reopen else None
                if app.is_running:
                    app.exit()
        except Stop:
            raise
        except Hang as err:
            self.fail("hang", err, "no answer in time")
        except Exception as err:  # what run_test raises: the app's own exception
            self.fail("crash", err)
        finally:
            self.deadline.disarm()
            rig.close()
            session.close()
        if app._exception is not None:
            self.fail("crash", app._exception)
        if app.trouble.found:
            self._drawing(app)
        if before is not None:
            self.compare(before)
        return done

    def compare(self, before: dict[str, Any]) -> None:
        from referee.app import session_from_args
        from referee.cli import build_parser

        args = build_parser().parse_args(["run", "--db", str(self.path), "--seed", SEED.hex()])
        try:
            session = session_from_args(args, notify=lambda text: None)
        except Exception as err:
            self.fail("reopen", err)
        try:
            session.settle()
            after = session.handle({"cmd": "state"})
        finally:
            session.close()
        if after != before:
            diff = _first_difference(before, after)
            self.fail("reopen", None, "the file reopened to another state",
                      f"first difference: {diff}")

    def _drawing(self, app: Any) -> None:
        found = app.trouble.found[0]  # a DrawingFailure: its traceback as text
        self.fail("drawing", None, signature_of_text(found.details),
                  f"{found.screen}: {found.error}\n{found.details}")

    def check(self, app: Any, rig: Any, session: Any, snaps: Any, body: Any) -> None:
        from device.render import render

        if app.trouble.found:
            self._drawing(app)
        try:
            app.screen._compositor.render_update(full=True)  # the whole frame, drawn again
        except Exception as err:
            self.fail("crash", err)
        try:
            image = render(rig.box.view())
            assert image.size == (128, 64), image.size
        except Exception as err:
            self.fail("oled", err)
        try:
            html = body(snaps.snapshot(session))
            assert isinstance(html, str) and html
        except Exception as err:
            self.fail("page", err)

    async def _settle(self, pilot: Any, app: Any, rig: Any) -> None:
        """Let the app, the buttons' thread and the display's thread finish what was asked:
        the box's clock moves on in small steps while a press is under way."""
        presser = rig.presser
        if presser is not None and presser.busy:
            for _ in range(2000):
                if not presser.busy:
                    break
                self.clock.t = round(self.clock.t + 0.01, 6)
                rig.buttons.wake()
                await pilot.pause(0.001)
        # (from another thread: the display's thread may be waiting on this loop, in
        # call_from_thread, to tell it of its next deadline)
        if not await asyncio.to_thread(rig.oled.flush, STEP_SECONDS):
            raise Hang("the OLED's thread did not finish its frames")
        await answered(app)

    async def act(self, pilot: Any, app: Any, rig: Any, action: Action) -> None:
        kind = action[0]
        if kind == "bound":
            keys = bound_keys(app)
            if not keys:
                self.report.actions.append(action)
                return
            key = keys[action[1] % len(keys)]
            self.report.actions.append(("key", key))
            self.report.keys.append(key)
            await press(app, key)
        elif kind == "key":
            self.report.actions.append(action)
            self.report.keys.append(action[1])
            await press(app, action[1])
        elif kind == "type":
            self.report.actions.append(action)
            self.report.keys.append(repr(action[1]))
            for char in action[1]:
                await press(app, char)
        elif kind == "burst":
            self.report.actions.append(action)
            self.report.keys.append("+".join(action[1]) + "(together)")
            await burst(pilot, *action[1])
        elif kind == "button":
            self.report.actions.append(action)
            self.report.keys.append(f"[{action[1]}{' held' if action[2] else ''}]")
            rig.press(action[1], action[2])
        elif kind == "wait":
            self.report.actions.append(action)
            self.report.keys.append(f"(wait {action[1]:g} s)")
            self.clock.t += action[1]
            app.post_to_loop(lambda: None)  # re-arms the box's timer: its deadline is due
            rig.buttons.wake()
        else:
            raise ValueError(f"no such action {action!r}")


def _busy(app: Any) -> str:
    """The screens, and the widgets with messages waiting and what each is doing (a hang)."""
    import io

    out = io.StringIO()
    print("screens:", [type(screen).__name__ for screen in app.screen_stack], file=out)
    try:
        nodes = [app, *app.screen.walk_children(with_self=True)]
    except Exception as err:
        return f"{out.getvalue()}(the screen cannot be walked: {err!r})"
    for node in nodes:
        waiting = node._message_queue.qsize()
        if waiting:
            print(f"{node!r}: {waiting} messages waiting", file=out)
            if node._task is not None:
                node._task.print_stack(limit=12, file=out)
    return out.getvalue()


def _first_difference(a: Any, b: Any, where: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
    return f"{where or '.'}: {a!r:.200} then {b!r:.200}"


async def answered(app: Any) -> None:
    """Wait until the app has done what it was sent: its process is idle (as Pilot waits),
    then the app's loop and the current screen's each run a callback posted to them (a loop
    that no longer answers makes this wait for ever: the caller's deadline is the hang).
    Pilot's own wait (every widget's queue) is not used: a widget removed while it waits
    never answers, and that is no hang."""
    from textual._wait import wait_for_idle

    def ended() -> bool:
        return bool(app._exit or app._closing or not app.is_running
                    or app._exception is not None)

    await wait_for_idle(0)
    while not ended():
        screen = app.screen
        app_done, screen_done = asyncio.Event(), asyncio.Event()
        if not (app.call_later(app_done.set) and screen.call_later(screen_done.set)):
            return  # (the app or the screen is closing)
        while not app_done.is_set():  # (for ever if the loop no longer answers)
            if ended():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(app_done.wait(), 0.1)
        for _ in range(50):
            if screen_done.is_set() or screen is not app.screen:
                break
            await asyncio.sleep(0.01)
        if screen_done.is_set():
            return
        # the screen was replaced meanwhile (or is still busy): ask the current one


async def press(app: Any, key: str) -> None:
    """A key as the terminal sends it (Pilot.press, without its wait on every widget)."""
    await app._press_keys([key])
    await answered(app)


def bound_keys(app: Any) -> list[str]:
    """The keys the current screen binds that are enabled now (its key bar and more)."""
    try:
        bindings = app.screen.active_bindings
    except Exception:
        return []
    return sorted(key for key, active in bindings.items() if active.enabled)


async def burst(pilot: Any, *keys: str) -> None:
    """Every key handed to the app through its driver before the first is handled (a fast
    typist, a key bouncing; as tests/ui/test_key_order.py does)."""
    from textual import events

    driver = pilot.app._driver
    if driver is None:
        return
    for key in keys:
        char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(pilot.app)
        driver.send_message(event)


def prepare(path: Path, start: Start) -> None:
    """Write the start's game into a new game file (through a session, no app)."""
    from referee.app import open_session

    session = open_session(db=path, seed=SEED, notify=lambda text: None)
    try:
        for request in start.requests():
            answer = session.handle(request)
            assert answer["ok"], (request, answer)
    finally:
        session.close()


async def _play(path: Path, start: Start, actions: Sequence[Action], report: Report,
                deadline: Deadline) -> None:
    table = Table(path, report, deadline)
    rest = list(actions)
    with _watching() as caught:
        try:
            while True:
                done = await table.run(rest)
                rest = rest[done:]
                if caught:
                    kind, error = caught[0]
                    table.fail(kind, error)
                if not rest:
                    break
        except Stop:
            pass
        if caught and report.failure is None:
            kind, error = caught[0]
            report.failure = Failure(kind, f"{kind}: {signature(error)}", _details(error))


def play(start: Start, actions: Sequence[Action], *, path: Path | None = None) -> Report:
    """Run `actions` on a game file that starts as `start`; the report says what failed."""
    report = Report(start)
    deadline = Deadline(0.8 * STEP_SECONDS)  # (first: its Hang says where the loop spins)
    old = os.environ.get("REFEREE_BOARDS")
    try:
        with tempfile.TemporaryDirectory(prefix="whole-app-") as tmp:
            os.environ["REFEREE_BOARDS"] = str(Path(tmp) / "boards")
            file = path or Path(tmp) / "game.sqlite"
            prepare(file, start)
            try:
                asyncio.run(_play(file, start, actions, report, deadline))
            except Hang as err:  # raised where no handler of the run was waiting
                if report.failure is None:
                    report.failure = Failure("hang", "hang: no answer in time", _details(err))
    finally:
        deadline.close()
        if old is None:
            os.environ.pop("REFEREE_BOARDS", None)
        else:
            os.environ["REFEREE_BOARDS"] = old
    return report


# ---- what to press -------------------------------------------------------------------------
# Keys every screen may see, besides the ones it binds: the new-game form's (Ctrl+N, F2,
# Ctrl+S), undo (Ctrl+Z, then Y), the box panel (O), moving about and typing.
GLOBAL = ("ctrl+n", "ctrl+s", "ctrl+z", "y", "n", "f2", "f1", "o", "r", "escape", "enter",
          "tab", "shift+tab", "up", "down", "left", "right", "home", "end", "space",
          "backspace", "pageup", "pagedown", "ctrl+q")
PRINTABLE = st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs"))
KEY = st.sampled_from(GLOBAL)
ACTION: st.SearchStrategy[Action] = st.one_of(
    st.tuples(st.just("bound"), st.integers(0, 40)),  # weighted: three ways in
    st.tuples(st.just("bound"), st.integers(0, 40)),
    st.tuples(st.just("bound"), st.integers(0, 40)),
    st.tuples(st.just("key"), KEY),
    st.tuples(st.just("key"), KEY),
    st.tuples(st.just("key"), st.sampled_from(("enter", "ctrl+s", "ctrl+n", "f2", "ctrl+z",
                                               "y", "down", "escape"))),
    st.tuples(st.just("type"), st.sampled_from(CORPUS)),
    st.tuples(st.just("type"), st.text(PRINTABLE, min_size=1, max_size=4)),
    st.tuples(st.just("burst"), st.one_of(
        st.just(("enter", "enter")),
        st.tuples(KEY, KEY))),
    st.tuples(st.just("button"), st.sampled_from(BUTTONS), st.booleans()),
    st.tuples(st.just("wait"), st.sampled_from((1.0, 5.0, 60.0, 600.0))),
    st.just(("reopen",)),
)
START: st.SearchStrategy[Start] = st.one_of(
    st.just(Start()),
    st.sampled_from(sorted(SCRIPTS)).flatmap(
        lambda script: st.builds(Start, st.just(script), st.integers(
            1, _script_len(script)) | st.just(_script_len(script)))),
)


def _script_len(script: str) -> int:
    return sum(1 for line in SCRIPTS[script].read_text(encoding="utf-8").splitlines()
               if line.strip())


def print_report(report: Report, out: Any = sys.stdout) -> None:
    if report.failure is None:
        print(f"ok: {len(report.keys)} keys on {report.start}", file=out)
        return
    print(f"FAILED {report.failure.signature}\n  start: {report.start}\n"
          f"  keys: {report.repro()}\n  actions: {report.actions!r}", file=out)


# ---- the same, from a seeded random generator (scripts/random-keys) ------------------------
_TEXT = "AaBbZz019 -'.é李Σ🎨"


def random_action(rng: Any) -> Action:
    """One action, weighted as `ACTION` is (for long runs without Hypothesis)."""
    roll = rng.random()
    if roll < 0.40:
        return ("bound", rng.randrange(41))
    if roll < 0.62:
        return ("key", rng.choice(GLOBAL))
    if roll < 0.70:
        return ("key", rng.choice(("enter", "ctrl+s", "ctrl+n", "f2", "ctrl+z", "y")))
    if roll < 0.75:
        return ("type", rng.choice(CORPUS))
    if roll < 0.80:
        return ("type", "".join(rng.choice(_TEXT) for _ in range(rng.randint(1, 4))))
    if roll < 0.86:
        if rng.random() < 0.5:
            return ("burst", ("enter", "enter"))
        return ("burst", (rng.choice(GLOBAL), rng.choice(GLOBAL)))
    if roll < 0.93:
        return ("button", rng.choice(BUTTONS), rng.random() < 0.3)
    if roll < 0.96:
        return ("wait", rng.choice((1.0, 5.0, 60.0, 600.0)))
    if roll < 0.98:
        return ("reopen",)
    return ("key", rng.choice(("ctrl+q", "ctrl+n", "ctrl+z")))


def random_start(rng: Any) -> Start:
    script = rng.choice([None, *sorted(SCRIPTS)])
    if script is None:
        return Start()
    n = _script_len(script)
    return Start(script, n if rng.random() < 0.3 else rng.randint(1, n))


def shrink(start: Start, actions: list[Action], sig: str, budget: int) -> list[Action]:
    """Fewer actions with the same failure: chunks dropped greedily, `budget` replays."""
    best = list(actions)
    chunk = max(1, len(best) // 2)
    while chunk >= 1 and budget > 0:
        i = 0
        while i < len(best) and budget > 0:
            trial = best[:i] + best[i + chunk:]
            budget -= 1
            failure = play(start, trial).failure
            if failure is not None and failure.signature == sig:
                best = trial
            else:
                i += chunk
        chunk //= 2
    return best
