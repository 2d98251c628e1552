"""`referee run` and `referee console` stop on SIGTERM (systemd's stop, at every shutdown of the
console service) and SIGHUP (the terminal went away) as quitting does with the game kept:
exit 0, the terminal given back (the alternate screen left), the file closed, one line saying
so. Before, SIGTERM killed them (exit 143) with the terminal left in the alternate screen.

The programs run on an 80x24 pseudo-terminal, as on tty1 or over SSH."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.device.test_box_terminal import read_until

ENTER_ALT, LEAVE_ALT = "\x1b[?1049h", "\x1b[?1049l"


def on_pty(*args: str) -> tuple[subprocess.Popen[bytes], int]:
    """`referee ARGS` on an 80x24 pseudo-terminal (Textual draws on stderr: both go there)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen([sys.executable, "-m", "referee", *args], stdin=slave,
                            stdout=slave, stderr=slave, close_fds=True, env=env,
                            start_new_session=True)
    os.close(slave)
    return proc, master


def stopped(proc: subprocess.Popen[bytes], master: int, stop: signal.Signals,
            drawn: str) -> tuple[int, str]:
    """Wait for `drawn` on the screen, send `stop`, and give the exit status and all that
    the terminal showed after the signal."""
    try:
        shown = read_until(master, lambda t: drawn in t, time.monotonic() + 90)
        assert drawn in shown, shown[-2000:]
        proc.send_signal(stop)
        code = proc.wait(timeout=60)
        after = read_until(master, lambda t: "stopped;" in t and t.endswith("\n"),
                           time.monotonic() + 10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return code, shown + after


def headless_game(path: Path) -> int:
    """A two-player Gallery Grippers game in `path`; the number of its log entries."""
    out = subprocess.run(
        [sys.executable, "-m", "referee", "headless", "--db", str(path)],
        input=json.dumps({"cmd": "new_game", "players": [{"name": "Ann"}, {"name": "Ben"}]})
        + "\n", capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out.splitlines()[0])["ok"], out
    return entries(path)


def entries(path: Path) -> int:
    from referee.app import open_session

    session = open_session(db=path, notify=lambda _: None)  # (a writer: only once let go)
    try:
        return len(session.log)
    finally:
        session.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_referee_run_stops_cleanly_with_the_terminal_given_back(stop: signal.Signals) -> None:
    proc, master = on_pty("run", "--memory", "--hardware", "sim")
    code, screen = stopped(proc, master, stop, "Start game")
    assert code == 0, screen[-2000:]
    assert screen.rfind(LEAVE_ALT) > screen.rfind(ENTER_ALT) >= 0  # the terminal given back
    said = screen[screen.rfind(LEAVE_ALT):]
    assert f"referee run: {stop.name}: stopped; the game is kept" in said, said
    assert "Traceback" not in screen


def test_referee_console_stops_on_sigterm_with_the_game_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    before = headless_game(path)
    proc, master = on_pty("console", "--db", str(path))
    code, screen = stopped(proc, master, signal.SIGTERM, "Ann")  # (the resumed game)
    assert code == 0, screen[-2000:]
    assert screen.rfind(LEAVE_ALT) > screen.rfind(ENTER_ALT) >= 0
    assert "referee console: SIGTERM: stopped; the game is kept" in screen
    assert entries(path) == before  # kept whole, and the file let go


@pytest.mark.parametrize("command", ["console", "run"])
def test_a_terminal_that_went_away_ends_it_as_quitting_does(tmp_path: Path,
                                                            command: str) -> None:
    """The terminal closes (its pty's master end), then SIGHUP: exit 0 with the game kept and
    the file let go, although the last line can no longer be written anywhere (that write
    failing made it exit 1)."""
    path = tmp_path / "g.sqlite"
    before = headless_game(path)
    extra = ["--hardware", "sim"] if command == "run" else []
    proc, master = on_pty(command, "--db", str(path), *extra)
    try:
        shown = read_until(master, lambda t: "Ann" in t, time.monotonic() + 90)
        assert "Ann" in shown, shown[-2000:]
    finally:
        os.close(master)  # (the terminal is gone: writing to it fails from now on)
    try:
        proc.send_signal(signal.SIGHUP)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0
    assert entries(path) == before  # kept whole, and the file let go


def test_a_game_in_memory_only_is_said_to_be_gone(tmp_path: Path) -> None:
    """With --memory and a game under way, a stop loses it: the line says so, not "kept"."""
    from referee.app import open_session
    from ui.app import make_app, stop_signals

    session = open_session(notify=lambda _: None)
    assert session.handle({"cmd": "new_game",
                           "players": [{"name": "Ann"}, {"name": "Ben"}]})["ok"]
    said: list[str] = []
    with stop_signals([make_app(session)], said.append) as got:
        os.kill(os.getpid(), signal.SIGTERM)
    assert got == ["SIGTERM"]
    assert said == ["SIGTERM: stopped; the game was in memory only (--memory) and is gone"]


def test_a_stop_before_the_console_is_up_ends_it_without_starting(tmp_path: Path) -> None:
    """A stop that comes while the file is opened (or the box set up) is kept, and the
    console never starts: exit 0, and the previous handler is back afterwards."""
    from referee.app import open_session
    from ui.app import RefereeApp, make_app, run_app, stop_signals

    before = signal.getsignal(signal.SIGTERM)
    apps: list[RefereeApp] = []
    said: list[str] = []
    with stop_signals(apps, said.append):
        os.kill(os.getpid(), signal.SIGTERM)
        app = make_app(open_session(notify=lambda _: None))
        apps.append(app)
        app.stopped_by = "SIGTERM"
        assert run_app(app) == 0
        assert not app.is_running and app.return_code is None  # (never ran)
    assert said == ["SIGTERM: stopped; the game is kept"]
    assert signal.getsignal(signal.SIGTERM) is before


async def test_a_console_in_a_test_leaves_the_stop_signals_alone() -> None:
    """Only a console run as a program takes SIGTERM and SIGHUP: one driven by a test (or any
    host) leaves the process's handlers as they were, so the test runner can be stopped."""
    from referee.app import open_session
    from ui.app import make_app

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}
    app = make_app(open_session(notify=lambda _: None))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert {sig: signal.getsignal(sig) for sig in before} == before
    assert {sig: signal.getsignal(sig) for sig in before} == before


def test_the_handlers_are_given_back_when_the_console_ends() -> None:
    """After `run_app` (inside `stop_signals`) the handlers are `stop_signals`'s again, then
    the ones from before: never asyncio's default, which kills."""
    from referee.app import open_session
    from ui.app import RefereeApp, make_app, run_app, stop_signals

    before = signal.getsignal(signal.SIGTERM)
    apps: list[RefereeApp] = []
    seen: list[object] = []
    with stop_signals(apps, lambda _: None):
        inside = signal.getsignal(signal.SIGTERM)
        app = make_app(open_session(notify=lambda _: None))
        apps.append(app)
        app.call_later(app.exit)  # (ends at once, once up)
        run_app(app, headless=True)
        seen.append(signal.getsignal(signal.SIGTERM))
    assert seen == [inside] and inside is not signal.SIG_DFL
    assert signal.getsignal(signal.SIGTERM) is before
