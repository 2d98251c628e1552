"""`referee box --hardware sim` on an 80x24 terminal (a pseudo-terminal of that size): the first
frame is drawn at start, before any key, and the whole OLED fits."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

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
