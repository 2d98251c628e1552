"""Where the OLED's frames go besides the display: numbered PNGs, and the terminal's text art."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

FRAME = re.compile(r"frame-(\d+)\.png")
KEY_LEGEND = "keys: r ROLL  n NEXT  b BACK  m MENU  (capital: hold)  q quit"


class MirrorError(Exception):
    """The PNG directory cannot be used (the message says why, for the person at the box)."""


class PngMirror:
    """Writes each frame it is shown as DIR/frame-NNNNN.png, never over an existing file.

    Numbering continues after the highest frame already in DIR, so a second run adds to the
    first instead of overwriting it; each file is created with O_EXCL, so even two runs
    writing to the same DIR at once each get their own numbers (one skips past the other's).
    """

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            names = [p.name for p in self.dir.iterdir()]
        except OSError as err:
            raise MirrorError(f"--oled-png {self.dir}: cannot write frames there "
                              f"({err.strerror or err})") from err
        found = [int(m.group(1)) for n in names if (m := FRAME.fullmatch(n))]
        self.next = max(found, default=0) + 1
        self.first = self.next  # the number this run starts at
        self.count = 0  # frames this mirror wrote

    def __call__(self, image: Any) -> Path:
        while True:
            path = self.dir / f"frame-{self.next:05d}.png"
            self.next += 1
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:  # another run took this number: take the next
                continue
            with os.fdopen(fd, "wb") as out:
                image.save(out, format="PNG")
            self.count += 1
            return path


def terminal_printer(stream: TextIO, status: Callable[[], str] = lambda: "") -> Callable[
        [Any], None]:
    """Prints each frame as text art sized to the terminal (see ``device.textart``): the OLED
    in a thin border, the keys, and ``status()`` (the box's latest message) under it."""
    from device.textart import art_style, framed

    def show(image: Any) -> None:
        columns, rows = shutil.get_terminal_size((80, 24))
        text = framed(image, art_style(columns, rows), KEY_LEGEND)
        line = status()
        if line:
            text += "\n" + line[: max(1, columns - 1)]
        clear = "\x1b[H\x1b[2J" if stream.isatty() else ""
        out = clear + text
        encoding = getattr(stream, "encoding", None)
        if encoding:  # a terminal that cannot show a player's name gets "?", not a dead mirror
            out = out.encode(encoding, "replace").decode(encoding)
        print(out, file=stream, flush=True)
    return show
