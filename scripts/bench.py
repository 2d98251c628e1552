"""Benchmarks: print figures for speed and size targets. Run through `scripts/bench`."""

from __future__ import annotations

import argparse
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.app import open_session
from referee.session import LogEntry, Session

SEED = bytes(range(32))


def long_game(commands: int, accepted: list[dict[str, Any]] | None = None,
              session: Session | None = None) -> Session:
    """A 4-player game of about `commands` accepted commands that never ends.

    Players wander, meet obstacles (electronic rolls), steal, sell, draw, and now and then
    undo; win_money is out of reach so the game goes on. Every accepted request is appended
    to `accepted` (refused ones change nothing, so replaying `accepted` gives the same game).
    """
    s = session or Session(seed=SEED)

    def handle(req: dict[str, Any]) -> dict[str, Any]:
        answer = s.handle(req)
        if answer["ok"] and accepted is not None:
            accepted.append(req)
        return answer

    names = ["Ann", "Ben", "Cy", "Di"]
    handle({"cmd": "new_game", "players": names,
            "rules": {"win_money": 10**15, "reup_at_or_below": 2}})
    for i, n in enumerate(names):
        st = s.state
        sp = [c for c in sorted(st.piles["specialist"]) for _ in range(st.piles["specialist"][c])]
        at = [c for c in sorted(st.piles["attribute"]) for _ in range(st.piles["attribute"][c])]
        handle({"cmd": "deal", "player": n, "specialists": sp[i * 3:i * 3 + 3],
                "attributes": at[i * 3:i * 3 + 3]})
    handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1, "Cy": 2, "Di": 3}})
    museums = list(s.catalog.museums)
    step = 0
    while len(s.log) < commands:
        step += 1
        st = s.state
        who = st.current_player
        assert who is not None
        pend = [p for p in st.pending if p.player == who.name]
        if pend:
            p = pend[0]
            req = {"obstacle": {"cmd": "bypass", "player": who.name,
                                **({"roll": 100} if who.strikes >= 1 else {})},
                   "caught": {"cmd": "choose", "player": who.name, "choice": "ditch"},
                   "second_strike": {"cmd": "choose", "player": who.name, "choice": "leave"},
                   "reup": {"cmd": "reup", "player": who.name},
                   "draw": {"cmd": "draw", "player": who.name,
                            "deck": "attribute" if step % 2 else "specialist"}}[p.decision]
        elif not st.turn.moved:
            if who.where is None:
                plan = ["art", "recruitment", "black_market", "plain", "security"][step % 5]
                req = {"cmd": "move", "player": who.name, "tile": plan}
                if plan in ("art", "security"):
                    req["museum"] = museums[step % len(museums)]
            else:
                plan = ["exit", "security", "art", "exit"][step % 4]
                req = {"cmd": "move", "player": who.name, "tile": plan}
        elif st.turn.tile == "art" and not st.turn.stolen and st.museums[st.turn.museum or ""]:
            req = {"cmd": "steal", "player": who.name, "art": st.museums[st.turn.museum or ""][0]}
        elif st.turn.tile == "black_market" and who.art:
            req = {"cmd": "sell", "player": who.name}
        elif step % 13 == 0:
            req = {"cmd": "undo"}
        else:
            req = {"cmd": "end_turn", "player": who.name}
        answer = handle(req)
        if not answer["ok"] and req["cmd"] != "undo":
            raise RuntimeError(f"bench game refused {req}: {answer['error']}")
    return s


DICE_ROLLS = 1_000_000


def _dice_stream() -> None:
    """A million electronic d100 rolls, against the same number of raw HMAC-SHA256 calls
    made here (the work one roll cannot avoid), so the figure holds on a loaded machine."""
    import hashlib
    import hmac

    from referee.dice import DiceStream

    seed = hashlib.sha256(b"bench dice").digest()
    t0 = time.perf_counter()
    for i in range(DICE_ROLLS):
        hmac.new(seed, f"roll:{i}:0".encode(), hashlib.sha256).digest()
    baseline = time.perf_counter() - t0
    stream = DiceStream(seed)
    t0 = time.perf_counter()
    for _ in range(DICE_ROLLS):
        stream.next_draw(100)
    rolls = time.perf_counter() - t0
    print(f"dice stream: {DICE_ROLLS:,} d100 rolls in {rolls:.2f} s; {DICE_ROLLS:,} raw "
          f"hmac.new(...).digest() calls in {baseline:.2f} s: ratio {rolls / baseline:.2f}x "
          "(a roll is about one HMAC: near 1x is the floor)")


def bench_core() -> None:
    print("== core: decide + apply, rebuilding a game from its events, the dice stream ==")
    t0 = time.perf_counter()
    s = long_game(10_000)
    elapsed = time.perf_counter() - t0
    n = len(s.log)
    events = sum(len(e.events) for e in s.log)
    print(f"decide+apply: {n} commands ({events} events) in {elapsed:.3f} s "
          f"= {n / elapsed:,.0f} commands/s")
    entries = [LogEntry(e.seq, e.command, e.events, e.undone) for e in s.log]
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        rebuilt = Session.resume(entries, seed=s.seed)
        times.append(time.perf_counter() - t0)
    assert rebuilt.state == s.state
    print(f"rebuild state of a {n}-command game from its events: median "
          f"{statistics.median(times):.3f} s, worst {max(times):.3f} s (target < 0.5 s)")
    _dice_stream()


def bench_tray() -> None:
    from device.tray.bench import run

    print("== tray: roll line -> session event; CPU idle, under a flood of tray lines (as a"
          " ratio to idle, with the drops counted), unplugged ==")
    run()


class _CountingSerial:
    """A luma serial interface that only counts the bytes it would put on the I2C bus."""

    def __init__(self) -> None:
        self.bytes = 0

    def command(self, *cmd: int) -> None:
        self.bytes += len(cmd)

    def data(self, data: list[int]) -> None:
        self.bytes += len(data)

    def cleanup(self) -> None:
        pass


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_box() -> None:
    """Button press -> OLED frame sent, through mock pins, debounce, the queue, the controller,
    the session, the renderer and the SSD1306 frame diff (bytes counted, no real bus)."""
    import queue

    from gpiozero.pins.mock import MockFactory
    from luma.oled.device import ssd1306

    from device.box import BoxController
    from device.buttons import Buttons, queue_sink
    from device.framediff import Ssd1306Pages
    from device.oled import Oled
    from device.pins import DEFAULT_PINS
    from device.render import render

    print("== box: button press -> OLED frame sent (simulation, SSD1306 diff) ==")
    now = [0.0]
    factory = MockFactory()
    presses: queue.Queue[tuple[str, bool]] = queue.Queue()
    buttons = Buttons(DEFAULT_PINS, pin_factory=factory, clock=lambda: now[0],
                      sink=queue_sink(presses))
    serial = _CountingSerial()
    oled = Oled(lambda: ssd1306(serial), strategy=Ssd1306Pages(), clock=lambda: now[0],
                notify=lambda m: None, dim_after=None, shift_every=None)
    oled.open()
    sent_at: list[float] = []
    oled.on_frame.append(lambda im: sent_at.append(time.perf_counter()))
    latencies: list[float] = []
    frame_bytes: list[int] = []
    games = 0

    def press(button: str) -> None:
        pin = factory.pin(DEFAULT_PINS.button(button).pin)
        pin.drive_low()
        now[0] += 0.05
        buttons.tick()
        pin.drive_high()
        now[0] += 0.03  # past the 20 ms debounce: the next tick reports the press
        before, bytes_before = len(sent_at), serial.bytes
        t0 = time.perf_counter()
        buttons.tick()
        while not presses.empty():  # the main loop
            box.press(*presses.get_nowait())
        if len(sent_at) > before:
            latencies.append(sent_at[-1] - t0)
            frame_bytes.append(serial.bytes - bytes_before)

    while len(latencies) < 3000:
        box = BoxController(Session(seed=SEED), clock=lambda: now[0], idle_s=None)
        box.subscribe(lambda v: oled.show(render(v)))
        games += 1
        for _ in range(2000):
            v = box.view()
            if v.screen == "over":
                break
            if v.screen == "turn":
                press("ROLL" if "move" in v.hint else "NEXT")
            elif v.screen in ("tiles", "choice") and v.menu[v.cursor].rstrip(" >") not in (
                    "security", "go back in", "ditch the art"):
                press("NEXT")
            else:
                press("ROLL")
        box.close()
    buttons.close()
    ms = [x * 1000 for x in latencies]
    print(f"{len(ms)} presses over {games} games: median {statistics.median(ms):.2f} ms, "
          f"p99 {_percentile(ms, 0.99):.2f} ms, worst {max(ms):.2f} ms "
          "(plus the 20 ms debounce, by design: the ticker wakes at its end)")
    full = 6 + 1024
    print(f"bytes per frame over those games: mean {statistics.mean(frame_bytes):.0f}, "
          f"median {statistics.median(frame_bytes):.0f} (a full frame is {full})")


def bench_oled() -> None:
    from luma.oled.device import ssd1306

    from device.framediff import Ssd1306Pages
    from device.render import render
    from device.view import BoxView

    print("== oled: renderer speed and bytes for a roll update ==")

    def turn(value: int) -> BoxView:
        return BoxView("turn", title="Ann T4", big=str(value), source="electronic",
                       lines=("$300M", "Louvre", "art 1 -35%", "cards 2+3"), strikes=1,
                       hint="ROLL:move MENU:more")

    serial = _CountingSerial()
    dev = ssd1306(serial)
    strategy = Ssd1306Pages()
    strategy.send(dev, render(turn(4)))
    before = serial.bytes
    strategy.send(dev, render(turn(6)))
    roll_bytes = serial.bytes - before
    print(f"roll update (turn screen, die 4 -> 6): {roll_bytes} bytes vs 1030 for luma's "
          f"full frame ({1030 / roll_bytes:.1f}x fewer; target >= 5x)")
    before = serial.bytes
    strategy.send(dev, render(turn(6)))
    print(f"identical frame: {serial.bytes - before} bytes")
    views = [turn(v) for v in range(1, 101)]
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        render(views[n % 100])
        n += 1
    fps = n / (time.perf_counter() - t0)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        strategy.send(dev, render(views[n % 100]))
        n += 1
    fps_sent = n / (time.perf_counter() - t0)
    print(f"render: {fps:,.0f} frames/s; render + diff + send (no bus): {fps_sent:,.0f} "
          "frames/s")


def bench_store() -> None:
    print("== store: durable commands, fsyncs per command, resume from disk ==")
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        path = Path(tmp) / "games.sqlite"
        session = open_session(db=path, seed=SEED, notify=lambda _: None)
        t0 = time.perf_counter()
        long_game(10_000, session=session)
        elapsed = time.perf_counter() - t0
        n = len(session.log)
        session.close()
        print(f"durable (committed before answered): {n} commands in {elapsed:.2f} s = "
              f"{n / elapsed:,.0f} commands/s, {1000 * elapsed / n:.2f} ms each "
              f"(file on {path.parent}, {path.stat().st_size / 1e6:.1f} MB)")
        print(_mark_share(Path(tmp), elapsed / n))
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            resumed = open_session(db=path, seed=SEED, notify=lambda _: None)
            times.append(time.perf_counter() - t0)
            assert len(resumed.log) == n
            resumed.settle()
            resumed.close()
        print(f"resume a {n}-command game from disk (until playable; the proof of every "
              f"entry runs beside it): median {statistics.median(times):.3f} s, worst "
              f"{max(times):.3f} s")
        print(_fsyncs_per_command(Path(tmp)))
    bench_resume()


RESUME_SIZES = (1_000, 10_000, 50_000)


def bench_resume() -> None:
    """Resume (open_session on a game file until the game is playable: the lock, the mark,
    the game from its newest snapshot) for games of 1k, 10k and 50k commands, as ratios to the
    1k one measured in the same run, taken in turns; the proof of every entry that runs
    beside it (linear, printed too); and the RSS of a process holding each game."""
    print("== resume: constant time and bounded memory (ratios to a 1k-command game / a new "
          "game, same run) ==")
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        files = {}
        for n in RESUME_SIZES:  # written without syncs (a child process): only reading counts
            files[n] = Path(tmp) / f"g{n}.sqlite"
            subprocess.run([sys.executable, __file__, "_build", str(n), str(files[n])],
                           check=True, stdout=subprocess.DEVNULL)
        total: dict[int, list[float]] = {n: [] for n in RESUME_SIZES}
        proofs: dict[int, list[float]] = {n: [] for n in RESUME_SIZES}
        for _ in range(5):
            for n in RESUME_SIZES:
                t0 = time.perf_counter()
                s = open_session(db=files[n], notify=lambda _: None)
                total[n].append(time.perf_counter() - t0)
                assert len(s.log) == n
                proof = s.store.proof  # type: ignore[union-attr]
                s.settle()  # what the first command would wait for
                assert proof is not None and proof.elapsed is not None
                proofs[n].append(proof.elapsed)
                s.close()
        base = statistics.median(total[RESUME_SIZES[0]])
        for n in RESUME_SIZES:
            med = statistics.median(total[n])
            print(f"resume {n:>6,} commands (open_session until the game is playable): median "
                  f"{med * 1000:6.1f} ms = {med / base:5.2f}x the 1k game (target <= 1.5x at "
                  f"50k); proof of every entry, finished in the background: "
                  f"{statistics.median(proofs[n]) * 1000:6.1f} ms; a command sent meanwhile "
                  "waits for it")
        new = _rss_child("new", Path(tmp) / "new.sqlite")
        for n in RESUME_SIZES:
            rss = _rss_child(str(files[n]), Path(tmp) / f"copy{n}.sqlite")
            print(f"RSS holding a resumed {n:>6,}-command game: {rss / 1024:5.1f} MiB = "
                  f"{rss / new:4.2f}x a new game's {new / 1024:.1f} MiB (target <= 1.2x at 50k)")


_RSS = """
import gc, shutil, sys
from referee.app import open_session
src, path = sys.argv[1], sys.argv[2]
if src != "new":
    shutil.copy(src, path)
s = open_session(db=path, notify=lambda _: None)
if src == "new":
    s.handle({"cmd": "new_game", "players": ["Ann", "Ben", "Cy", "Di"]})
s.handle({"cmd": "state"})
gc.collect()
print(next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmRSS")))
"""


def _rss_child(src: str, path: Path) -> int:
    """The RSS (KiB) of a fresh process that opened `src` (a copy of it; "new": a new file
    with a new game), as a box does at start."""
    done = subprocess.run([sys.executable, "-c", _RSS, src, str(path)], check=True,
                          capture_output=True, text=True)
    return int(done.stdout.split()[-1])


def _build(n: int, path: str) -> None:
    """A game file of `n` commands, written without syncs (for the resume figures only)."""
    import os

    import referee.db
    import referee.store

    connect = referee.db.connect

    def unsynced(*args: Any, **kwargs: Any) -> Any:
        conn = connect(*args, **kwargs)
        conn.execute("PRAGMA synchronous = OFF")
        return conn

    referee.db.connect = referee.store.connect = unsynced  # type: ignore[assignment]
    os.fdatasync = os.fsync = lambda fd: None  # the mark
    _durable(n, path)


def _mark_share(tmp: Path, per_command: float) -> str:
    """What the mark (rewritten after every commit, synced off the command's path) costs the
    command, as a share of a durable command measured just before on the same disk."""
    from referee.lock import Mark, WriterLock

    lock = WriterLock.acquire(tmp / "mark-alone.sqlite")
    try:
        n = 2000
        t0 = time.perf_counter()
        for i in range(n):
            lock.record(Mark(1, i, "0" * 64, i))
        each = (time.perf_counter() - t0) / n
    finally:
        lock.release()
    return (f"the mark on the command's path (its pwrite; its fdatasync runs in its own "
            f"thread): {1000 * each:.3f} ms, {100 * each / per_command:.1f}% of a durable "
            f"command's time")


def _fsyncs_per_command(tmp: Path) -> str:
    """Counted by strace (SQLite syncs from C, so wrapping os.fsync would see nothing), per
    file: the -wal (one per commit), the lock file's mark (one per commit), the game file
    itself (checkpoints)."""
    strace = shutil.which("strace")
    if strace is None:
        return "fsyncs per command: strace not found (apt-get install strace)"
    counts: list[dict[str, int]] = []
    written: list[dict[str, int]] = []
    for n in (200, 1200):
        out = tmp / f"strace-{n}"
        db = tmp / f"s{n}.sqlite"
        # -ff: one file per thread (out.TID), so no call is split by another thread's
        subprocess.run([strace, "-ff", "-y", "-o", str(out), "-e",
                        "trace=fsync,fdatasync,write,pwrite64,pwritev",
                        sys.executable, __file__, "_durable", str(n), str(db)],
                       check=True, stdout=subprocess.DEVNULL)
        found = {"-wal": 0, ".lock": 0, "file": 0, "other": 0, "path": 0}
        wrote = dict.fromkeys(found, 0)

        def kind(name: str, db: Path = db) -> str:
            return ("-wal" if name.endswith("-wal") else ".lock" if name.endswith(".lock")
                    else "file" if name == str(db) else "other")

        traces = sorted(tmp.glob(f"strace-{n}.*"), key=lambda f: int(f.suffix[1:]))
        for i, trace in enumerate(traces):  # the first: the main thread, the commands' path
            text = trace.read_text()
            for m in re.finditer(r"\b(?:fsync|fdatasync)\(\d+<([^>]*)>\) = 0", text):
                found[kind(m[1])] += 1
                found["path"] += i == 0
            for m in re.finditer(r"\b(?:write|pwrite64|pwritev)\(\d+<([^>]*(?:\.sqlite|"
                                 r"-wal|\.lock))>.*\) = (\d+)$", text, re.MULTILINE):
                wrote[kind(m[1])] += int(m[2])
        counts.append(found)
        written.append(wrote)
    per = {k: (counts[1][k] - counts[0][k]) / 1000 for k in counts[0]}
    on_path = per.pop("path")
    size = {k: (written[1][k] - written[0][k]) / 1000 for k in written[0]}
    size.pop("path")
    raw = _raw_insert_bytes(tmp, strace)
    return (f"fsyncs per command (strace, fsync+fdatasync, 1200 minus 200 commands): "
            f"on the command's path (the main thread) {on_path:.3f} (target 1: the -wal's "
            f"commit); in all {sum(per.values()):.3f} = -wal {per['-wal']:.3f} (commits, and "
            f"checkpoints) + mark {per['.lock']:.3f} (the last acknowledged command, beside "
            f"the lock: synced by its own thread, off the path, a burst coalesced into one) + "
            f"file {per['file']:.3f} (checkpoints) + other {per['other']:.3f}\n"
            f"bytes written per command (strace, write+pwrite64 to the game's files): "
            f"{sum(size.values()):,.0f} = -wal {size['-wal']:,.0f} + mark {size['.lock']:,.0f} "
            f"+ file {size['file']:,.0f} (target <= 4,000; baseline: one raw SQLite WAL insert "
            f"of a row of the same size, {raw:,.0f} bytes: {sum(size.values()) / raw:.2f}x)")


_RAW_INSERT = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL"); conn.execute("PRAGMA synchronous = FULL")
conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
for i in range(int(sys.argv[2])):
    conn.execute("INSERT INTO t (body) VALUES (?)", ("x" * 780,))
"""


def _raw_insert_bytes(tmp: Path, strace: str) -> float:
    """Bytes a plain SQLite WAL+FULL single-row insert of an entry-sized row writes."""
    got = []
    for n in (200, 1200):
        out, db = tmp / f"raw-{n}.txt", tmp / f"raw{n}.sqlite"
        subprocess.run([strace, "-f", "-y", "-o", str(out), "-e", "trace=write,pwrite64",
                        sys.executable, "-c", _RAW_INSERT, str(db), str(n)], check=True)
        got.append(sum(int(m[1]) for m in re.finditer(
            r"\b(?:write|pwrite64)\(\d+<[^>]*(?:\.sqlite|-wal)>.*\) = (\d+)$", out.read_text(),
            re.MULTILINE)))
    return (got[1] - got[0]) / 1000


def _durable(n: int, path: str) -> None:
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    long_game(n, session=session)
    session.close()


# ---- console -------------------------------------------------------------------------------

# Both children start the same way and stop at the same event: the first frame written for
# the first screen that shows all of that screen's marker texts. Textual's auto-pilot is no
# good as the stop signal: it runs once the app has mounted, before anything is painted (for
# the console, 40 ms before its first frame). Headless Textual skips turning a frame into
# terminal bytes; the hook does that, as a terminal would need, for both apps alike.
# The bench's hooks import nothing before the program does: each is installed when the
# program itself imports the module it patches (`after_import`). A hook that imported Textual
# (or device.oled) at the top of the script would have the program's imports done before its
# own start-up code runs: `referee console`, `run` and `box` import with Python's cyclic
# collector paused (CliCommand.quick_start), and would be measured importing with it on.
AFTER_IMPORT = """
import sys, time
from importlib.machinery import PathFinder

def after_import(name, patch):
    class Finder:
        def find_spec(self, fullname, path=None, target=None):
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = PathFinder.find_spec(fullname, path)
            run = spec.loader.exec_module
            def exec_module(module):
                run(module)
                patch(module)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, Finder())
"""

FIRST_PAINT = AFTER_IMPORT + """
HEADLESS = False  # (True: App.run made headless, for a program that runs it itself)

def _patch_app(module):
    App = module.App
    _display = App._display
    _seen = set()

    def _first_paint(app, screen, update):
        from textual._compositor import CompositorUpdate  # (loaded with textual.app)
        _display(app, screen, update)
        if update is None or app._batch_count or screen is not app.screen:
            return
        text = update.render_segments(app.console) if isinstance(update, CompositorUpdate) \\
            else ""
        _seen.update(m for m in MARKS if m in text)
        if len(_seen) == len(MARKS):
            print(time.perf_counter() - float(sys.argv[1]))
            app._display = _display.__get__(app)
            app.exit()

    App._display = _first_paint
    if HEADLESS:
        _run = App.run
        def _headless(self, *args, **kwargs):
            return _run(self, *args, **{**kwargs, "headless": True, "size": (100, 32)})
        App.run = _headless

after_import("textual.app", _patch_app)
"""

MINIMAL_APP = FIRST_PAINT + """
from textual.app import App
from textual.widgets import Static

MARKS = ("hello",)

class Minimal(App):
    def compose(self):
        yield Static("hello")

Minimal().run(headless=True, size=(100, 32))
"""

# The console's first screen (no game yet) is the new-game form: its top, both columns and
# the footer must all be on screen.
CONSOLE_APP = FIRST_PAINT + """
from referee.session import Session
from ui.app import make_app, run_app

MARKS = ("Players", "House rules", "Start game", "Quit")

run_app(make_app(Session()), headless=True, size=(100, 32))
"""

# The same, through the command a user types: argument parsing, finding the front ends'
# subcommands (importlib.metadata), and a new game file (the console's default is durable;
# a new file is what the first start makes), or the file named after the start time (one
# made before: what every later start opens).
CONSOLE_COMMAND = FIRST_PAINT + """
import os, tempfile

MARKS = ("Players", "House rules", "Start game", "Quit")
HEADLESS = True

from referee.cli import main

db = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.mkdtemp(), "games.sqlite")
main(["console", "--db", db])
"""


# `referee run` (the console and the box, what scripts/run starts), simulated hardware, games in
# memory; and the same with the page's server and QR code imported first, as ui/run.py did at
# its top before issue 22 (and as any install would pay if aiohttp were imported eagerly).
RUN_COMMAND = FIRST_PAINT + """
MARKS = ("Players", "House rules", "Start game", "Quit")
HEADLESS = True
{eager}
from referee.cli import main

main(["run", "--memory", "--hardware", "sim"])
"""
RUN_LAZY = RUN_COMMAND.replace("{eager}", "")
RUN_EAGER = RUN_COMMAND.replace("{eager}", "import web.server, web.qr  # aiohttp, segno")


# `referee box --hardware sim` (the service that runs at every boot) to its first OLED frame,
# against a minimal script that imports gpiozero and luma, sets up one mock button, and draws
# one frame of text on the same simulated display (luma's own driver on the emulated panel).
BOX_FIRST_FRAME = AFTER_IMPORT + """
import os

def _patch_oled(module):
    _show = module.Oled.show
    def _first(self, image):
        _show(self, image)
        print(time.perf_counter() - float(sys.argv[1]), flush=True)
        os._exit(0)
    module.Oled.show = _first

after_import("device.oled", _patch_oled)
from referee.cli import main
main(["box", "--hardware", "sim", "--memory"])
"""
MINIMAL_BOX = """
import sys, time
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw, ImageFont
from device.panel import open_simulated

button = Button(17, pin_factory=MockFactory())
oled = open_simulated("ssd1306", 0)
frame = Image.new("1", (128, 64))
ImageDraw.Draw(frame).text((0, 0), "New game", font=ImageFont.load_default(), fill=1)
oled.display(frame)
print(time.perf_counter() - float(sys.argv[1]), flush=True)
"""


def _first_paint(script: str, *args: str) -> float:
    """Seconds from launching a fresh Python to the app's first painted screen, measured
    inside the child (perf_counter is the system's monotonic clock)."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, repr(t0), *args], capture_output=True,
                          text=True, check=True, timeout=120)
    # (the time is the line the hook printed; a program may log lines after it: `referee
    # run` logs to stdout when it is not a terminal, and the box starts after the first frame)
    return float(next(line for line in reversed(done.stdout.splitlines())
                      if re.fullmatch(r"\d+\.\d+(e-?\d+)?", line.strip())))


def bench_console() -> None:

    print("== console: cold start to the first screen and key latency (textual, headless) ==")
    _cold_start(with_run=False)
    _key_latencies()


def bench_cold() -> None:
    print("== cold start to the first screen (textual, headless) ==")
    _cold_start(with_run=True)


def _cold_start(with_run: bool) -> None:
    import compileall
    from pathlib import Path

    # What a Pi pays: scripts/install-pi pip-installs the project (not editable) into its venv,
    # and pip writes every module's bytecode at install, ours as Textual's and gpiozero's. This
    # checkout is installed editable, and with PYTHONDONTWRITEBYTECODE set (as on this
    # workplace's machines) a module without a .pyc beside it is compiled from source at every
    # start. So ours are compiled here first, every package of the project (a start imports the
    # club's and the page's entry-point modules too), as pip does for both sides alike: then
    # no module of either side is compiled at start (docs/performance.md, "Cold start").
    root = Path(__file__).resolve().parent.parent
    for package in sorted(p.parent.name for p in root.glob("*/__init__.py")
                          if p.parent.name != "tests"):
        compileall.compile_dir(root / package, quiet=1)
    # And, as scripts/install-pi does after pip, the dataclasses' compiled methods.
    subprocess.run([sys.executable, "-m", "referee.dataclass_code"], check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "-m", "ui.css_warm"], check=True, capture_output=True)
    # Taken in turns, so that a busy moment on the machine falls on both alike.
    repeats = 9
    minimal: list[float] = []
    console: list[float] = []
    command: list[float] = []
    run_lazy: list[float] = []
    run_eager: list[float] = []
    box: list[float] = []
    box_minimal: list[float] = []
    existing: list[float] = []
    # A game file made (and closed) once, as a first start leaves it: every later start
    # opens it (2 syncs before the first frame here, where a new file makes 11).
    from referee.app import open_session

    kept = Path(tempfile.mkdtemp(prefix="bench-cold-")) / "games.sqlite"
    open_session(db=kept, notify=lambda _: None).close()
    for _ in range(repeats):
        minimal.append(_first_paint(MINIMAL_APP))
        console.append(_first_paint(CONSOLE_APP))
        command.append(_first_paint(CONSOLE_COMMAND))
        if with_run:
            existing.append(_first_paint(CONSOLE_COMMAND, str(kept)))
            run_lazy.append(_first_paint(RUN_LAZY))
            run_eager.append(_first_paint(RUN_EAGER))
            box_minimal.append(_first_paint(MINIMAL_BOX))
            box.append(_first_paint(BOX_FIRST_FRAME))
    shutil.rmtree(kept.parent, ignore_errors=True)

    def figure(times: list[float], baseline: list[float], goal: bool = True) -> str:
        med, p90 = statistics.median(times), _percentile(times, 0.9)
        b_med, b_p90 = statistics.median(baseline), _percentile(baseline, 0.9)
        verdict = ""
        if goal:
            met = med <= 1.5 * b_med and p90 <= 1.5 * b_p90
            verdict = "  goal met" if met else "  goal NOT met"
        return (f"median {med:.3f} s ({med / b_med:.2f}x), p90 {p90:.3f} s "
                f"({p90 / b_p90:.2f}x){verdict}")

    print(f"against a minimal Textual app (median {statistics.median(minimal):.3f} s, p90 "
          f"{_percentile(minimal, 0.9):.3f} s; goal: median and p90 <= 1.5x; {repeats} starts "
          f"each, taken in turns, separate processes; p90 of 9 is the slowest start):")
    print(f"  referee console --db NEW (a new game file): {figure(command, minimal)}")
    if with_run:
        print(f"  referee console --db on a game file made before (every later start): "
              f"{figure(existing, minimal)}")
        print(f"  referee run --memory --hardware sim (the console and the box): "
              f"{figure(run_lazy, minimal)}")
        print(f"against a minimal script (gpiozero, luma, one mock button, one frame on the "
              f"same simulated display: median {statistics.median(box_minimal):.3f} s):")
        print(f"  referee box --hardware sim to its first OLED frame: "
              f"{figure(box, box_minimal)}")
    # For comparison, not goals: the app made in a script of its own (no `referee` command:
    # nothing installs the dataclasses' compiled methods, docs/performance.md), and `referee
    # run` with the page's server imported as before issue 22.
    print("for comparison (no goal):")
    print(f"  the console's app in a script of its own (make_app, run_app; no CLI): "
          f"{figure(console, minimal, goal=False)}")
    if with_run:
        lazy, eager = statistics.median(run_lazy), statistics.median(run_eager)
        print(f"  referee run with the page's server imported first (aiohttp, segno; as "
              f"before issue 22): {figure(run_eager, minimal, goal=False)} "
              f"(+{(eager - lazy) * 1000:.0f} ms)")


def _key_latencies() -> None:
    rounds = 100
    console_in, console_harness = _key_latency(rounds, minimal=False)
    minimal_in, minimal_harness = _key_latency(rounds, minimal=True)
    console_p99, minimal_p99 = _percentile(console_in, 0.99), _percentile(minimal_in, 0.99)
    print(f"key press -> frame drawn, in the app (key received -> the frame with the new screen "
          f"in front, turned into terminal bytes; open and close a dialog, {len(console_in)} "
          f"presses each):")
    print(f"  console (the move dialog on a resumed table): median "
          f"{statistics.median(console_in) * 1000:.1f} ms, p99 {console_p99 * 1000:.1f} ms")
    print(f"  minimal Textual app (a modal dialog of two lines and a footer): median "
          f"{statistics.median(minimal_in) * 1000:.1f} ms, p99 {minimal_p99 * 1000:.1f} ms")
    print(f"  ratio: median {statistics.median(console_in) / statistics.median(minimal_in):.2f}x,"
          f" p99 {console_p99 / minimal_p99:.2f}x (target p99 <= 2x: "
          f"{'met' if console_p99 <= 2 * minimal_p99 else 'NOT met'})")
    print(f"  through the pilot (press + pause, mostly its idle waits): console median "
          f"{statistics.median(console_harness) * 1000:.1f} ms, minimal "
          f"{statistics.median(minimal_harness) * 1000:.1f} ms")
    _commands_on_slow_disk(rounds)
    _pty_latency(rounds)


# A minimal Textual app with a dialog of the same kind as the console's move dialog: `r` opens
# a modal screen (a bordered box of two lines of text over the screen, a footer), Escape closes
# it. Run as a script on a pty; its classes are also used in the app (exec'd, not run).
MINIMAL_DIALOG_APP = """
from textual.app import App
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class Dialog(ModalScreen):
    BINDINGS = [("escape", "app.pop_screen", "Cancel")]

    def compose(self):
        with Vertical(classes="dialog"):
            yield Static("[b]Roll to move[/b] - Ann, outside")
            yield Static("[b]R[/b]: the box rolls  -  [b]1-6[/b]: type the real die")
        yield Footer()


class Minimal(App):
    CSS = ("Dialog { align: center middle; } "
           ".dialog { width: 60; height: auto; border: round $accent; background: $panel; }")
    BINDINGS = [("r", "open", "Roll")]

    def compose(self):
        yield Static("Table: Ann to move")
        yield Footer()

    def action_open(self):
        self.push_screen(Dialog())


if __name__ == "__main__":
    Minimal().run()
"""


def _key_latency(rounds: int, *, minimal: bool) -> tuple[list[float], list[float]]:
    """Open and close a dialog by keys (the console's move dialog on a resumed table, or the
    minimal app's). Two clocks: in the app, from the key event reaching the app to the first
    frame drawn with the new screen in front; and around Pilot.press + pause, which waits for
    the app to go idle in steps of 20 ms (textual._wait.wait_for_idle), so it mostly measures
    the harness."""
    from textual import events
    from textual._compositor import CompositorUpdate
    from textual.app import App
    from textual.screen import Screen

    in_app: list[float] = []
    harness: list[float] = []
    pending: dict[str, Any] = {}
    display, on_event = App._display, App.on_event
    steps: tuple[tuple[str, type[Screen[Any]]], ...]
    if minimal:
        space: dict[str, Any] = {"__name__": "bench_minimal_dialog"}
        exec(MINIMAL_DIALOG_APP, space)
        app = space["Minimal"]()
        first: tuple[str, ...] = ()
        steps = (("r", space["Dialog"]), ("escape", Screen))
    else:
        from ui.app import make_app
        from ui.games.gallery_grippers.hands import balanced_hands
        from ui.games.gallery_grippers.table import TableScreen
        from ui.games.gallery_grippers.turn import MoveDialog

        s = Session(seed=SEED)
        s.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})
        for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
            s.handle({"cmd": "deal", "player": name, **hand})
        if not s.handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}})["ok"]:
            raise RuntimeError("bench game did not start")
        app = make_app(s)
        first = ("r",)  # resume
        steps = (("r", MoveDialog), ("escape", TableScreen))

    def timed_display(self: App[Any], screen: Any, update: Any) -> None:
        display(self, screen, update)
        want = pending.get("screen")
        if (want is not None and isinstance(update, CompositorUpdate)
                and not self._batch_count and type(self.screen) is want):
            update.render_segments(self.console)  # the bytes a terminal would get
            in_app.append(time.perf_counter() - pending.pop("t"))
            pending.pop("screen")

    async def timed_event(self: App[Any], event: Any) -> None:
        if isinstance(event, events.Key) and "screen" in pending and "t" not in pending:
            pending["t"] = time.perf_counter()
        await on_event(self, event)

    async def drive(pilot: Any) -> None:
        for key in first:
            await pilot.press(key)
        await pilot.pause()
        for _ in range(rounds):
            for key, screen in steps:
                pending["screen"] = screen
                t0 = time.perf_counter()
                await pilot.press(key)
                while type(app.screen) is not screen or "screen" in pending:
                    await pilot.pause()
                harness.append(time.perf_counter() - t0)
        app.exit()

    App._display, App.on_event = timed_display, timed_event  # type: ignore[method-assign]
    try:
        if minimal:
            app.run(headless=True, size=(100, 32), auto_pilot=drive)
        else:
            from ui.app import run_app

            # As `referee console` runs it (run_app: the collector paused until the first
            # frame, then the start-up's objects frozen out of later collections).
            if run_app(app, headless=True, size=(100, 32), auto_pilot=drive) != 0:
                raise RuntimeError("the console failed during the latency run")
    finally:
        App._display, App.on_event = display, on_event  # type: ignore[method-assign]
    return in_app, harness


SLOW_SYNC = 0.020  # seconds added to each sync of the slow disk


def _slow_disk(delay: float) -> tuple[Callable[[], None], dict[str, int]]:
    """Make every sync of the game file take `delay` more: SQLite's COMMIT (its WAL fsync,
    synchronous=FULL) through a connection factory whose commit sleeps first, and the lock
    file's mark (`os.fdatasync`). Returns the undo of it and a count of the syncs."""
    import os
    import sqlite3

    from referee.store import EventStore

    counts = {"commit": 0, "fdatasync": 0}

    class SlowCommit(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
            if sql.strip().upper() == "COMMIT":
                counts["commit"] += 1
                time.sleep(delay)
            return super().execute(sql, *args)

    real_open = EventStore.__dict__["open"].__func__
    real_fdatasync = os.fdatasync

    def slow_open(cls: type[EventStore], path: Any, **kwargs: Any) -> EventStore:
        result: EventStore = real_open(cls, path, **{**kwargs, "factory": SlowCommit})
        return result

    def slow_fdatasync(fd: int) -> None:
        counts["fdatasync"] += 1
        time.sleep(delay)
        real_fdatasync(fd)

    EventStore.open = classmethod(slow_open)  # type: ignore[method-assign,assignment]
    os.fdatasync = slow_fdatasync

    def undo() -> None:
        EventStore.open = classmethod(real_open)  # type: ignore[method-assign,assignment]
        os.fdatasync = real_fdatasync

    return undo, counts


I2C_HZ = 400_000  # the box's bus (firmware_config: fast mode); 9 clocks per byte


def _slow_bus(device: Any) -> None:
    """Make the simulated OLED's bus take as long as a real one at I2C_HZ (each byte 9
    clocks; the address byte and the control byte of each write counted too)."""
    bus = device.bus
    command, data = bus.command, bus.data

    def slow_command(*cmd: int) -> None:
        time.sleep((len(cmd) + 2) * 9 / I2C_HZ)
        command(*cmd)

    def slow_data(values: list[int]) -> None:
        time.sleep((len(values) + 2) * 9 / I2C_HZ)
        data(values)

    bus.command, bus.data = slow_command, slow_data


def _command_latency(db: str, rounds: int, *, slow: float, box: str | None = None,
                     syncs: dict[str, int] | None = None) -> dict[str, list[float]]:
    """Keys that apply a command, on a resumed Gallery Grippers table stored in `db` (as
    `referee console --db` runs it; with `box`, as `referee run --hardware sim` runs it,
    the OLED's bus as slow as a real one and written on the loop ("loop", as before issue
    15) or on the display's thread ("thread")): `r` opens the move dialog (no command: the
    control), `r` there rolls (MoveRoll, one entry made durable before it is shown: the tile
    dialog), Enter picks the first tile listed (Move: the next screen); then the two are
    undone through the session, untimed, and the round starts again (an undone roll's die
    is kept, so each round lands alike). Per key: key event received -> first frame drawn
    with the screen it leads to in front (turned into terminal bytes), and the longest gap
    between two turns of a 1 ms ticker on the loop meanwhile (how long the loop stalled)."""
    import asyncio

    from textual import events
    from textual._compositor import CompositorUpdate
    from textual.app import App

    from referee.app import open_session
    from ui.app import make_app, run_app
    from ui.games.gallery_grippers.table import TableScreen
    from ui.games.gallery_grippers.turn import MoveDialog, TileDialog

    out: dict[str, list[float]] = {k: [] for k in (
        "open", "roll", "pick", "open stall", "roll stall", "pick stall")}
    pending: dict[str, Any] = {}
    stall = [0.0, time.perf_counter()]  # the longest gap since the key; the last tick
    display, on_event = App._display, App.on_event
    undo_slow, counts = _slow_disk(slow) if slow else (lambda: None, {})
    rig: Any = None
    try:
        s = open_session(db=db, notify=lambda _: None)
        if box is None:
            app: Any = make_app(s)
        else:
            from device.run import build_box
            from device.watchdog import Watchdog
            from referee.cli import build_parser
            from ui.run import ConsoleAndBox

            args = build_parser().parse_args(["run", "--hardware", "sim", "--db", db])
            holder: list[Any] = []
            rig = build_box(args, s, post=lambda fn: holder[0].post_to_loop(fn),
                            say=lambda text: None, display_thread=box == "thread")
            oled = rig.oled.oled if box == "thread" else rig.oled
            _slow_bus(oled.device)
            app = ConsoleAndBox(s, rig, Watchdog(env={}))
            holder.append(app)
    except BaseException:
        undo_slow()
        raise

    def timed_display(self: App[Any], screen: Any, update: Any) -> None:
        display(self, screen, update)
        want = pending.get("want")
        if (want is not None and "t" in pending and isinstance(update, CompositorUpdate)
                and not self._batch_count and want(self.screen)):
            update.render_segments(self.console)
            name = pending.pop("name")
            now, t = time.perf_counter(), pending.pop("t")
            out[name].append(now - t)
            # (with the gap the ticker is in now: the frame may come before its next turn)
            out[f"{name} stall"].append(max(stall[0], now - max(stall[1], t)))
            pending.pop("want")

    async def timed_event(self: App[Any], event: Any) -> None:
        if isinstance(event, events.Key) and "want" in pending and "t" not in pending:
            stall[0] = 0.0
            pending["t"] = time.perf_counter()
        await on_event(self, event)

    async def drive(pilot: Any) -> None:
        running = [True]

        async def ticker() -> None:
            last = time.perf_counter()
            while running[0]:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                if "t" in pending:  # only the part of a gap after the key was received
                    stall[0] = max(stall[0], now - max(last, pending["t"]))
                last = stall[1] = now

        async def until(done: Callable[[], bool], what: str, limit: float = 60.0) -> None:
            """Pause until `done()`; a screen that never comes is an error, not a wait."""
            deadline = time.perf_counter() + limit
            while not done():
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"bench: no {what} after {limit:.0f} s (the screen is "
                                       f"{type(app.screen).__name__})")
                await pilot.pause()

        async def timed(name: str, key: str, want: Callable[[Any], bool]) -> None:
            pending.update(name=name, want=want)
            await pilot.press(key)
            await until(lambda: "want" not in pending, f"frame for {name!r}")

        tick = asyncio.get_running_loop().create_task(ticker())
        await pilot.press("r")  # resume
        await pilot.pause()
        for _ in range(rounds):
            await timed("open", "r", lambda screen: type(screen) is MoveDialog)
            await timed("roll", "r", lambda screen: type(screen) is TileDialog)
            await timed("pick", "enter", lambda screen: type(screen) is not TileDialog)
            for _ in range(2):
                if not s.handle({"cmd": "undo"})["ok"]:
                    raise RuntimeError("bench: undo refused")
            await until(lambda: type(app.screen) is TableScreen, "table after the undos")
            if rig is not None and box == "thread":  # the display has caught up (untimed)
                rig.oled.flush(10)
            await pilot.pause(0.05)  # the next key starts on a loop with nothing left to do
        running[0] = False
        await tick
        app.exit()

    App._display, App.on_event = timed_display, timed_event  # type: ignore[method-assign]
    try:
        if run_app(app, headless=True, size=(100, 32), auto_pilot=drive) != 0:
            raise RuntimeError("the console failed during the command latency run")
    finally:
        App._display, App.on_event = display, on_event  # type: ignore[method-assign]
        undo_slow()
        if rig is not None:
            rig.close()
        s.close()
    if syncs is not None:
        for k, v in counts.items():
            syncs[k] = syncs.get(k, 0) + v
    return out


def _commands_on_slow_disk(rounds: int) -> None:
    """Key -> frame for keys that apply a command, with the game file on a normal disk and
    on one whose every sync takes SLOW_SYNC more, in the same run (in turns: two runs of
    each), as ratios against the normal disk's figure; then `referee run` with the OLED
    written on the loop and on its own thread."""
    import bench_idle  # scripts/bench_idle.py, beside this file

    variants = {"normal": (0.0, None), "slow": (SLOW_SYNC, None),
                "run, OLED on the loop": (0.0, "loop"), "run, OLED thread": (0.0, "thread")}
    got: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    syncs: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        db = str(Path(tmp) / "games.sqlite")
        bench_idle.game_in_play(db)
        for _ in range(2):
            for name, (delay, box) in variants.items():
                for k, v in _command_latency(db, rounds // 2, slow=delay, box=box,
                                             syncs=syncs if delay else None).items():
                    got[name].setdefault(k, []).extend(v)
    ms = 1000
    normal = got["normal"]
    commands = 4 * 2 * (rounds // 2)  # per round: roll, pick, and their two undos
    print(f"key press -> frame for keys that apply a command, on a resumed table stored in a "
          f"file (in the app, {len(normal['roll'])} presses each, in turns; slow disk: each "
          f"sync +{SLOW_SYNC * ms:.0f} ms, {syncs.get('commit', 0) / commands:.1f} COMMIT and "
          f"{syncs.get('fdatasync', 0) / commands:.1f} fdatasync per command):")

    def line(label: str, values: list[float], base: list[float] | None) -> str:
        med, p99 = statistics.median(values), _percentile(values, 0.99)
        text = f"{label} median {med * ms:.1f} ms, p99 {p99 * ms:.1f} ms"
        if base is not None:
            text += (f" ({med / statistics.median(base):.2f}x, "
                     f"{p99 / _percentile(base, 0.99):.2f}x)")
        return text

    def stalls(label: str, values: list[float]) -> str:
        return (f"{label} median {statistics.median(values) * ms:.1f} ms, max "
                f"{max(values) * ms:.1f} ms")

    for key, what in (("open", "r opens the move dialog (no command)"),
                      ("roll", "r rolls to move (MoveRoll; the tile dialog)"),
                      ("pick", "Enter picks the tile (Move; the next screen)")):
        print(f"  {what}:")
        print("    " + line("normal disk", normal[key], None) + "; "
              + line("slow disk", got["slow"][key], normal[key]))
        loop, thread = got["run, OLED on the loop"][key], got["run, OLED thread"][key]
        print(f"    referee run, OLED bus at {I2C_HZ // 1000} kHz: "
              + line("written on the loop", loop, normal[key]) + "; "
              + line("on its thread", thread, normal[key]))
        print("    loop stalled (longest gap between ticks of a 1 ms ticker, per key): "
              + "; ".join(stalls(label, got[name][f"{key} stall"]) for label, name in (
                  ("normal", "normal"), ("slow disk", "slow"),
                  ("run, OLED on the loop", "run, OLED on the loop"),
                  ("run, OLED thread", "run, OLED thread"))))


def _pty_latency(rounds: int) -> None:
    """From outside, as a terminal sees it: each program on its own 80x24 pty; a key is
    written and the clock runs until the program's output has gone quiet (the last byte
    before 150 ms of silence; the marker text of the dialog must have come for `r`)."""
    import bench_idle  # scripts/bench_idle.py, beside this file

    quiet = 0.15
    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        db = str(Path(tmp) / "games.sqlite")
        bench_idle.game_in_play(db)
        py = sys.executable
        for name, argv, start, marker in (
                ("console", [py, "-m", "referee", "console", "--db", db], b"r", "Roll to move"),
                ("minimal", [py, "-c", MINIMAL_DIALOG_APP], b"", "Roll to move")):
            term = bench_idle.OnPty(argv, ready="Resume" if start else "Table")
            times: list[float] = []
            try:
                term.settle()
                if start:
                    term.keys(start, "End turn")
                for _ in range(rounds):
                    for key, want in ((b"r", marker), (b"\x1b", "")):
                        times.append(term.time_key(key, want, quiet))
            finally:
                term.close()
            results[name] = times
    for i, what in ((0, "open (r)"), (1, "close (Escape)")):
        c, m = results["console"][i::2], results["minimal"][i::2]
        cp, mp = _percentile(c, 0.99), _percentile(m, 0.99)
        print(f"key press -> output settled, from outside on an 80x24 pty, {what}, {len(c)} "
              f"presses: console median {statistics.median(c) * 1000:.1f} ms, p99 "
              f"{cp * 1000:.1f} ms; minimal app median {statistics.median(m) * 1000:.1f} ms, "
              f"p99 {mp * 1000:.1f} ms; ratio p99 {cp / mp:.2f}x (target <= 2x: "
              f"{'met' if cp <= 2 * mp else 'NOT met'})")
    print("  (a lone Escape byte is taken as the Escape key only after Textual's wait for a "
          "sequence that might follow it, in both programs alike)")


def bench_idle() -> None:
    import bench_idle as idle  # scripts/bench_idle.py, beside this file

    idle.run()


# ---- input --------------------------------------------------------------------------------

_PEAK_RSS = (
    "import resource, sys\n"
    "from referee.cli import main\n"
    "status = main(['headless'])\n"
    "print(f'peak_rss_kib={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}', "
    "file=sys.stderr)\n"
    "sys.exit(status)\n"
)


def _headless_peak_rss(stdin_path: Path) -> tuple[int, list[dict[str, Any]]]:
    """Peak RSS (KiB) of `referee headless` reading `stdin_path`, and its answers."""
    import json

    with stdin_path.open("rb") as stdin:
        proc = subprocess.run([sys.executable, "-c", _PEAK_RSS], stdin=stdin,
                              capture_output=True, check=True)
    peak = next(int(line.split("=")[1]) for line in proc.stderr.decode().splitlines()
                if line.startswith("peak_rss_kib="))
    return peak, [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]


def bench_input() -> None:
    print("== input: peak memory of `referee headless` fed one 64 MiB line ==")
    size = 64 << 20
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        idle, huge = Path(tmp) / "idle.jsonl", Path(tmp) / "huge.jsonl"
        idle.write_bytes(b'{"cmd": "state"}\n')
        with huge.open("wb") as f:
            f.write(b'{"cmd": "new_game", "players": ["')
            for _ in range(size >> 20):
                f.write(b"A" * (1 << 20))
            f.write(b'"]}\n{"cmd": "new_game", "players": ["Ann"]}\n')
        baseline, _ = _headless_peak_rss(idle)
        peak, answers = _headless_peak_rss(huge)
    refused = answers[0]["error"]["code"] if not answers[0]["ok"] else "accepted!"
    after = "answered normally" if len(answers) == 2 and answers[1]["ok"] else f"{answers[1:]}"
    print(f"peak RSS: idle {baseline / 1024:.1f} MiB; one 64 MiB line {peak / 1024:.1f} MiB "
          f"= {peak / baseline:.2f}x idle (+{(peak - baseline) / 1024:.1f} MiB); "
          f"the line: {refused}; the next line: {after}")


def bench_art() -> None:
    from bench_art import bench_art as run  # scripts/bench_art.py (beside this file)

    run(long_game)


def bench_web() -> None:
    from bench_web import bench_web as run  # scripts/bench_web.py (beside this file)

    run(long_game)


CLUB_SIZE: dict[str, Any] = {"boxes": 5, "commands": 200, "pace": 5.0, "nice": 10}
# (--boxes, --commands, --pace, --box-nice; the size: 30 x 1000)


def bench_club() -> None:
    from bench_club import bench_club as run  # scripts/bench_club.py (beside this file)

    run(long_game, **CLUB_SIZE)


def bench_siege() -> None:
    """The page under 1,200 slow connections, the box under ulimit -n 1024 (issue 26)."""
    import asyncio

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.web import siege

    print(siege.report(asyncio.run(siege.run(commands=400, settle=5.0))))


SECTIONS: dict[str, Callable[[], None]] = {
    "core": bench_core, "store": bench_store, "tray": bench_tray, "box": bench_box,
    "oled": bench_oled, "console": bench_console, "input": bench_input, "idle": bench_idle,
    "art": bench_art, "resume": bench_resume, "web": bench_web, "siege": bench_siege,
    "cold": bench_cold, "club": bench_club,
}


def _stop_cleanly_on_sigterm() -> None:
    """Stopped from outside (`kill`, a CI's timeout), the bench ends as Ctrl+C ends it: its
    `finally` blocks stop the programs it started. (A program it runs on a pty of its own, in
    a session of its own, is never hung up when the bench dies; the minimal Textual app of the
    pty figures then read its closed terminal in a loop, a whole core, until found.)"""
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_durable"]:  # the child process whose syncs bench_store counts
        _durable(int(argv[1]), argv[2])
        return 0
    if argv[:1] == ["_build"]:  # a game file for the resume figures
        _build(int(argv[1]), argv[2])
        return 0
    _stop_cleanly_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help=f"which to run (default all): {', '.join(SECTIONS)}")
    parser.add_argument("--boxes", type=int, default=CLUB_SIZE["boxes"],
                        help="club: how many boxes (default %(default)s)")
    parser.add_argument("--commands", type=int, default=CLUB_SIZE["commands"],
                        help="club: commands per box (default %(default)s)")
    parser.add_argument("--pace", type=float, default=CLUB_SIZE["pace"],
                        help="club: commands a second per box on the paced night, 0 for "
                        "none (default %(default)s)")
    parser.add_argument("--box-nice", type=int, default=CLUB_SIZE["nice"],
                        help="club: the boxes' nice on the first night (default "
                        "%(default)s)")
    args = parser.parse_args(argv)
    CLUB_SIZE.update(boxes=args.boxes, commands=args.commands, pace=args.pace,
                     nice=args.box_nice)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    for name in args.sections or SECTIONS:
        SECTIONS[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
