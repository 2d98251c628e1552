"""`referee box --hardware sim` on an 80x24 terminal (a pseudo-terminal of that size): the first
frame is drawn at start, before any key, and the whole OLED fits."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def read_until(fd: int, done: object, deadline: float) -> str:
    """Read the terminal until `done(text)` or the deadline (a condition, not a sleep)."""
    text = ""
    while not done(text) and time.monotonic() < deadline:  # type: ignore[operator]
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                text += os.read(fd, 65536).decode("utf-8", "replace")
            except OSError:  # the child closed the terminal
                break
    return text


def box_on_pty(*args: str) -> tuple[subprocess.Popen[bytes], int]:
    """`referee box --hardware sim ARGS` on an 80x24 pseudo-terminal: the process (stderr
    piped) and the terminal's master end."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "referee", "box", "--hardware", "sim",
                             *args], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                            close_fds=True)
    os.close(slave)
    return proc, master


def ended(proc: subprocess.Popen[bytes], master: int) -> str:
    """Kill `proc` if it still runs; close its terminal; what it said on stderr."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stderr.close()
    os.close(master)
    return err


def test_the_first_frame_is_drawn_at_start_and_fits_80_columns() -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "box", "--hardware", "sim",
                             "--memory"], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                            env=env, close_fds=True)
    os.close(slave)
    try:
        # no key is sent: the frame on the display must come by itself
        out = read_until(master, lambda t: "└" in t and "keys:" in t, time.monotonic() + 60)
        assert "└" in out, f"no frame drawn before the first key; got {out!r}"
        lines = [ESCAPE.sub("", line) for line in out.replace("\r\n", "\n").split("\n")]
        frame = [line for line in lines if line[:1] in ("┌", "│", "└")]
        assert len(frame) == 18  # the border and 16 lines of 2x4-pixel braille cells
        assert all(len(line) <= 80 for line in lines), max(lines, key=len)
        screen = lines[lines.index(frame[0]):]
        assert len(screen) <= 24  # the frame, the keys and the latest message
        assert any(ch != "\u2800" for ch in "".join(frame[1:-1]))  # something is lit
        os.write(master, b"q")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()
        os.close(master)


def test_damage_found_beside_a_resumed_game_is_said_before_any_press(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`referee box` on a file whose old entry is damaged: the game is shown from its
    snapshot at once and the proof beside it finds the damage; the box acts on it with no
    key pressed (the file moved aside, said on stderr and on the OLED)."""
    from tests.referee.test_background_proof import damaged_game

    path = damaged_game(tmp_path)
    proc, master = box_on_pty("--db", str(path))
    try:
        # no key is sent: the notice must come by itself (the terminal's status line shows
        # the latest message's start; the whole of it goes to stderr, read below)
        out = read_until(master, lambda t: "The game file" in ESCAPE.sub("", t),
                         time.monotonic() + 60)
        assert "\nThe game file /" in ESCAPE.sub("", out)  # (cut to the terminal's width)
        assert list(path.parent.glob("g.sqlite.damaged-*"))  # moved aside, no key pressed
        os.write(master, b"q")
        assert proc.wait(timeout=60) == 0
    finally:
        err = ended(proc, master)
    assert "is damaged" in err and "moved aside" in err


def test_the_box_says_a_restart_on_its_screen(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The controller hears of the restart (Session.on_restart) and says it on the OLED,
    the screen then showing the fresh session (no game: the new-game screen)."""
    import pytest

    from device.box import BoxController
    from referee.app import open_session
    from referee.errors import NotRecorded
    from tests.referee.conftest import SEED
    from tests.referee.test_background_proof import damaged_game

    session = open_session(db=damaged_game(tmp_path), seed=SEED, notify=lambda _: None)
    box = BoxController(session, clock=lambda: 0.0)
    try:
        assert box.mode() != "new"
        with pytest.raises(NotRecorded):
            session.settle()
        view = box.view()
        assert view.notice is not None and "damaged" in view.notice
        assert box.mode() == "new"
    finally:
        box.close()
        session.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_signal_ends_the_box_cleanly_with_its_game_kept(tmp_path, stop) -> None:  # type: ignore[no-untyped-def]
    """systemd's stop (SIGTERM), Ctrl+C (SIGINT) and a terminal that went away (SIGHUP) end
    `referee box` as its quit key does: exit 0 and the file closed (its writer lock
    released: a new writer opens it). Before, SIGTERM killed it outright, SIGINT ended it
    with a traceback and 130, and SIGHUP killed it."""
    from referee.store import EventStore

    path = tmp_path / "g.sqlite"
    proc, master = box_on_pty("--db", str(path))
    try:
        out = read_until(master, lambda t: "└" in t and "keys:" in t, time.monotonic() + 60)
        assert "└" in out, out
        proc.send_signal(stop)
        assert proc.wait(timeout=60) == 0
    finally:
        said = ended(proc, master)
    assert f"{stop.name}: stopped" in said and "Traceback" not in said, said
    EventStore.open(path).close()  # the lock was released: a new writer opens the file


def test_a_box_whose_terminal_went_away_ends_cleanly(tmp_path: Path) -> None:
    """Run from a terminal (its stderr there too), the terminal closes, then SIGHUP: exit 0
    and the file let go, though neither the last line nor the terminal's settings can be
    written back any more (restoring them failed, exit 1)."""
    from referee.store import EventStore

    path = tmp_path / "g.sqlite"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "referee", "box", "--hardware", "sim",
                             "--db", str(path)], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True, start_new_session=True)
    os.close(slave)
    try:
        out = read_until(master, lambda t: "└" in t and "keys:" in t, time.monotonic() + 60)
        assert "└" in out, out
    finally:
        os.close(master)  # (the terminal is gone)
    try:
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    EventStore.open(path).close()  # the lock was released: a new writer opens the file
