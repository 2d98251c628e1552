"""The `idle` section of scripts/bench: what the box and the console cost while nobody touches
them, each against a baseline measured in the same run.

Every program runs in its own process on its own pseudo-terminal (80x24), as on a table; the
bench reads the terminal (so nothing blocks on a full pty) and, once the program has drawn its
first screen and settled, watches it for a fixed window from outside:

- CPU: the on-CPU time of all its threads, from /proc/<pid>/task/*/schedstat (nanoseconds;
  /proc/<pid>/stat's utime+stime in clock ticks when schedstat is missing), as % of one core;
- wakeups: voluntary + involuntary context switches of all its threads, from
  /proc/<pid>/task/*/status, per second. A thread that sleeps until it has work adds none.

Baselines: for the box, a Python process blocked in select() (the floor: nothing at all); for
the console (`referee run`, `referee console`), two minimal Textual apps on the same kind of
terminal: one Static, and one focused Input (Textual's defaults, so its cursor blinks).
"""

from __future__ import annotations

import os
import pty
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

WINDOW_S = 10.0
SETTLE_S = 3.0  # after the first screen: start-up work (imports, GC, the first frames) ends
# The console's start-up notices (`referee run` says what the box found, for 8 s) disappear
# on a timer: their end is start-up too, so the console's window (and its baselines') starts
# this much later. Measured in the window just after SETTLE_S instead, `referee run` costs
# about twice as much (0.18-0.20 % against 0.10 %).
NOTICES_S = 10.0
TICK_S = 1 / os.sysconf("SC_CLK_TCK")

BLOCKED = "import select; select.select([], [], [])"
MINIMAL_TEXTUAL = """
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("hello")

Minimal().run()
"""
MINIMAL_INPUT = """
from textual.app import App
from textual.widgets import Input

class Minimal(App):
    def compose(self):
        yield Input(placeholder="hello")

Minimal().run()
"""


@dataclass(frozen=True)
class Idle:
    """One program's idle figures over a window."""

    cpu_pct: float  # % of one core
    wakeups: float  # context switches per second, all threads
    threads: int
    busiest: tuple[tuple[int, float], ...]  # (thread id, wakeups/s), most first

    def __str__(self) -> str:
        return f"{self.cpu_pct:.2f} % CPU, {self.wakeups:.1f} wakeups/s"


def _tasks(pid: int) -> dict[int, tuple[float, int]]:
    """Per thread: CPU seconds so far and context switches so far."""
    out: dict[int, tuple[float, int]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
            try:
                cpu = int((task / "schedstat").read_text().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) * TICK_S  # utime, stime
        except OSError:  # the thread ended just now
            continue
        switches = sum(int(line.split()[1]) for line in status.splitlines()
                       if line.startswith(("voluntary_ctxt_switches",
                                           "nonvoluntary_ctxt_switches")))
        out[int(task.name)] = (cpu, switches)
    return out


def watch(pid: int, window: float = WINDOW_S) -> Idle:
    """The process's idle figures over the next ``window`` seconds."""
    before, t0 = _tasks(pid), time.monotonic()
    threading.Event().wait(window)
    after, elapsed = _tasks(pid), time.monotonic() - t0
    cpu = sum(c for c, _ in after.values()) - sum(before.get(t, (0.0, 0))[0] for t in after)
    per = {t: (s - before.get(t, (0.0, 0))[1]) / elapsed for t, (_, s) in after.items()}
    busiest = tuple(sorted(per.items(), key=lambda kv: -kv[1])[:3])
    return Idle(cpu / elapsed * 100, sum(per.values()), len(after), busiest)


class OnPty:
    """``argv`` in a child process on a new 80x24 pseudo-terminal (stdin, stdout, stderr)."""

    def __init__(self, argv: Sequence[str], *, ready: str | None = None) -> None:
        self.master, slave = pty.openpty()
        import fcntl
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
        self.proc = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave,
                                     env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.text = ""
        self.last = 0.0  # perf_counter of the last output read
        self._seen = threading.Event()
        self._ready = ready
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if ready is None:
            self._seen.set()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.last = time.perf_counter()
            self.text = (self.text + chunk.decode("utf-8", "replace"))[-20000:]
            if self._ready is not None and self._ready in self.text:
                self._seen.set()

    def keys(self, keys: bytes, ready: str) -> None:
        """Type ``keys`` and settle again once ``ready`` shows."""
        self._seen.clear()
        self._ready, self.text = ready, ""
        os.write(self.master, keys)
        self.settle()

    def time_key(self, keys: bytes, want: str, quiet: float, timeout: float = 30.0) -> float:
        """Seconds from writing ``keys`` to the last output byte before ``quiet`` seconds of
        silence (``want`` must have shown by then)."""
        self.text = ""
        t0 = time.perf_counter()
        self.last = t0
        os.write(self.master, keys)
        while True:
            threading.Event().wait(quiet / 5)
            now = time.perf_counter()
            if self.last > t0 and (want in self.text) and now - self.last >= quiet:
                return self.last - t0
            if now - t0 > timeout:
                raise RuntimeError(f"bench: {self.proc.args} never settled after {keys!r} "
                                   f"(wanted {want!r}); it wrote {self.text[-500:]!r}")

    def settle(self, timeout: float = 120.0) -> None:
        if not self._seen.wait(timeout):
            raise RuntimeError(f"bench: {self.proc.args} never showed {self._ready!r}; "
                               f"it wrote {self.text[-500:]!r}")
        threading.Event().wait(SETTLE_S)
        if self.proc.poll() is not None:
            raise RuntimeError(f"bench: {self.proc.args} ended early ({self.proc.returncode}):"
                               f" {self.text[-500:]!r}")

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        os.close(self.master)
        self._reader.join(5)


def idle_of(argv: Sequence[str], ready: str | None = None, window: float = WINDOW_S,
            then: tuple[bytes, str] | None = None, later: float = 0.0) -> Idle:
    """``argv``'s idle figures once ``ready`` shows (and, with ``then``, once those keys were
    typed and their marker shows), ``later`` seconds more after settling."""
    term = OnPty(argv, ready=ready)
    try:
        term.settle()
        if then is not None:
            term.keys(*then)
        threading.Event().wait(later)
        return watch(term.proc.pid, window)
    finally:
        term.close()


def game_in_play(path: str) -> None:
    """A two-player game on the table (hands dealt, turn order rolled), stored at ``path``."""
    from device.games.gallery_grippers.dealing import balanced_hands
    from referee.app import open_session

    s = open_session(db=path, notify=lambda _: None)
    try:
        s.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})
        for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
            s.handle({"cmd": "deal", "player": name, **hand})
        if not s.handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}})["ok"]:
            raise RuntimeError("bench: the game did not start")
    finally:
        s.close()


def _vs(got: Idle, base: Idle) -> str:
    """``got`` against its baseline: a ratio where the baseline is not zero, else the excess."""
    cpu = (f"{got.cpu_pct / base.cpu_pct:.1f}x" if base.cpu_pct > 0
           else f"+{got.cpu_pct - base.cpu_pct:.2f} points")
    wake = (f"{got.wakeups / base.wakeups:.1f}x" if base.wakeups > 0
            else f"+{got.wakeups - base.wakeups:.0f}/s")
    return f"CPU {cpu}, wakeups {wake} the baseline"


def _line(name: str, got: Idle, base: Idle, note: str = "") -> None:
    print(f"{name}: {got} ({_vs(got, base)}; {got.threads} threads, the busiest at "
          f"{got.busiest[0][1] if got.busiest else 0:.0f} wakeups/s){note}")


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def run(window: float = WINDOW_S) -> None:
    py = sys.executable
    print(f"== idle: CPU and wakeups of programs left alone ({window:.0f} s windows, read from "
          "/proc, all threads) ==")
    box = [py, "-m", "referee", "box", "--hardware", "sim", "--memory"]
    base = idle_of([py, "-c", BLOCKED], window=window)
    print(f"baseline, a Python process blocked in select(): {base}")
    alone = idle_of(box, ready="keys:", window=window)
    _line("referee box --hardware sim", alone, base,
          f"; target <= 0.3 % and <= 20 wakeups/s: "
          f"{_met(alone.cpu_pct <= 0.3 and alone.wakeups <= 20)}")
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        gone = idle_of([*box, "--tray", os.path.join(tmp, "no-tray")], ready="keys:",
                       window=window)
        _line("  with --tray unplugged (the driver retrying)", gone, base)
        link = os.path.join(tmp, "dice-tray")
        sim = subprocess.Popen([py, "-m", "device.tray.sim", "--link", link, "--seed", "2"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert sim.stdout is not None
            sim.stdout.readline()  # "tray simulator on ..."
            linked = idle_of([*box, "--tray", link], ready="dice tray connected",
                             window=window)
            _line("  with a tray connected, idle (the box's process only)", linked, base)
        finally:
            sim.terminate()
            sim.wait(10)
    print(f"(the console and its baselines: the window starts {NOTICES_S:.0f} s later, after "
          "the start-up notices have gone)")
    minimal = idle_of([py, "-c", MINIMAL_TEXTUAL], ready="hello", window=window,
                      later=NOTICES_S)
    print(f"baseline, a minimal Textual app (one Static): {minimal}")
    field = idle_of([py, "-c", MINIMAL_INPUT], ready="hello", window=window, later=NOTICES_S)
    print(f"baseline, a minimal Textual app (one focused Input, its cursor blinking): {field}")
    console: dict[str, Idle] = {}
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        db = os.path.join(tmp, "games.sqlite")
        game_in_play(db)
        for name, argv in (("referee run --hardware sim", ["run", "--hardware", "sim"]),
                           ("referee console", ["console"])):
            form = idle_of([py, "-m", "referee", *argv, "--memory"], ready="Players",
                           window=window, later=NOTICES_S)
            table = idle_of([py, "-m", "referee", *argv, "--db", db], ready="Resume",
                            then=(b"r", "End turn"), window=window, later=NOTICES_S)
            console[f"{name}, new-game form"], console[f"{name}, table"] = form, table
            for where, got, how in (("new-game form", form, "--memory"),
                                    ("Gallery Grippers table", table, "--db, a game resumed")):
                _line(f"{name} ({where}, {how})", got, minimal,
                      f"; against the Input app CPU {got.cpu_pct / field.cpu_pct:.1f}x; target "
                      f"CPU <= 2x the minimal app: {_met(got.cpu_pct <= 2 * minimal.cpu_pct)}")
    print("on a Pi Zero 2 W (about 8-10x slower per core than here; wakeups are the same "
          "count there, each costing more):")
    for name, got in (("referee box", alone), ("referee box, tray connected", linked),
                      *console.items()):
        print(f"  {name} idle: about {got.cpu_pct * 8:.1f}-{got.cpu_pct * 10:.1f} % of one "
              f"of its 4 cores, {got.wakeups:.1f} wakeups/s")


if __name__ == "__main__":
    run(float(sys.argv[1]) if len(sys.argv) > 1 else WINDOW_S)
