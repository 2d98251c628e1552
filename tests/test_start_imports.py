"""A start imports what it asked for, and nothing heavy it did not (issue 41).

Each start runs in a fresh Python as far as its first frame (the console's first painted
screen; the box's first OLED frame), and the modules loaded by then are checked: the page's
server (aiohttp, segno), the club (paho, openskill, the publisher), and the games not being
played (their rules and their console and box screens) must not be among them. On a Pi Zero
2 W each of them costs a noticeable part of a second at every power-on. A start also reads
the installed entry points once, not once per question."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# Which modules a start must not load unless it asked for them.
HEAVY = ("aiohttp", "segno", "paho", "openskill", "web.server", "club.publisher",
         "club.server", "referee.games.gallerist", "referee.games.art_project",
         "ui.games.gallerist", "ui.games.art_project", "device.games.gallerist",
         "device.games.art_project")

# Stops a console start at its first painted screen and prints the loaded modules.
# (json is imported only once the list is taken: a start itself loads it when first used.)
CONSOLE = """
import os, sys
from textual.app import App
_display = App._display
def _first(app, screen, update):
    _display(app, screen, update)
    if update is not None and not app._batch_count and screen is app.screen:
        loaded = sorted(sys.modules)
        import json
        print(json.dumps(loaded), flush=True)
        os._exit(0)
App._display = _first
_run = App.run
App.run = lambda self, *a, **k: _run(self, *a, **{**k, "headless": True, "size": (80, 24)})
from referee.cli import main
main(sys.argv[1:])
"""

# Stops the box at its first OLED frame and prints the loaded modules.
BOX = """
import os, sys
from device.oled import Oled
_show = Oled.show
def _first(self, image):
    _show(self, image)
    loaded = sorted(sys.modules)
    import json
    print(json.dumps(loaded), flush=True)
    os._exit(0)
Oled.show = _first
from referee.cli import main
main(sys.argv[1:])
"""


def at_first_frame(script: str, *argv: str) -> list[str]:
    """The list `script` printed (as JSON) at the start's first frame."""
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert done.returncode == 0 and lines, done.stdout[-2000:] + done.stderr[-2000:]
    found: list[str] = json.loads(lines[-1])
    return found


def loaded_at_first_frame(script: str, *argv: str) -> set[str]:
    return set(at_first_frame(script, *argv))


# What a game in a file needs and a game in memory does not.
IN_A_FILE = {"sqlite3", "_sqlite3", "referee.store", "referee.db"}

# What no start needs before its first frame: JSON (the log's canonical text, loaded when
# the first entry is written), and the command modules of the front ends not started (only
# the subcommand named is looked up: `referee.cli.commands(name)`).
LATER = {"json", "web.commands", "club.commands"}


def test_a_start_on_a_file_imports_the_store_and_not_openssl(tmp_path: Path) -> None:
    """(The check above is live: the same start on a file has them.) The lock file's
    checksums, read and written as the file opens beside the first screen being built, are
    hashed without OpenSSL's `_hashlib` (~2.5 ms), on a new file and on one made before."""
    db = tmp_path / "g.sqlite"
    for made in ("new", "before"):
        modules = loaded_at_first_frame(CONSOLE, "console", "--db", str(db))
        assert db.exists() and modules >= IN_A_FILE, made
        assert {"hashlib", "_hashlib"} & modules == set(), made


def heavy(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    return sorted(m for m in modules for h in HEAVY
                  if (m == h or m.startswith(h + ".")) and not m.startswith(allowed))


@pytest.mark.parametrize("argv", [
    ["console", "--memory"],
    ["run", "--memory", "--hardware", "sim"],
], ids=["console", "run"])
def test_a_console_start_loads_nothing_it_did_not_ask_for(argv: list[str]) -> None:
    modules = loaded_at_first_frame(CONSOLE, *argv)
    assert "ui.games.gallery_grippers" in modules  # (the game shown: the check is live)
    assert heavy(modules) == []
    # The shipped catalogs are read as files: importlib.resources (with zipfile) cost ~3 ms.
    assert "importlib.resources" not in modules and "zipfile" not in modules
    # A game in memory opens no file: SQLite and the store are imported with one (~3 ms).
    assert IN_A_FILE & modules == set()
    assert LATER & modules == set() and "device.commands" not in modules


def test_referee_run_draws_its_first_frame_before_it_sets_the_box_up() -> None:
    """gpiozero, luma and Pillow (what the box's set-up imports) cost about a third of a
    bare Textual app's start: `referee run` loads them after the console's first frame."""
    modules = loaded_at_first_frame(CONSOLE, "run", "--memory", "--hardware", "sim")
    assert "ui.run" in modules  # (the check is live: it is `referee run`)
    assert sorted(m for m in modules if m.split(".")[0] in ("gpiozero", "luma", "PIL")
                  or m in ("device.box", "device.oled", "device.buttons")) == []


def test_the_box_start_loads_nothing_it_did_not_ask_for() -> None:
    modules = loaded_at_first_frame(BOX, "box", "--hardware", "sim", "--memory")
    assert "device.games.gallery_grippers" in modules
    assert heavy(modules) == []
    # Nothing is hashed before a game in memory is drawn: hashlib (OpenSSL's _hashlib, ~2.5
    # ms) and Pillow's image plugins (its bitmap font is kept as bytes) come when used.
    assert {"hashlib", "_hashlib", "hmac", "PIL.PngImagePlugin"} & modules == set()
    assert IN_A_FILE & modules == set()  # (no file: as a console in memory)
    assert LATER & modules == set() and "ui.commands" not in modules
    # The shipped pin map's data is kept from install (referee.tomlfile.warm): no tomllib.
    assert "tomllib" not in modules and "device.pins" in modules
    # Nothing is logged on a start that goes well: `logging` (~2 ms, with traceback) comes
    # when first used (referee/lazylog.py), and the frame's bits are packed without
    # PIL.ImageFile, which imports it (device.framediff.raw_bits).
    assert {"logging", "traceback", "PIL.ImageFile"} & modules == set()


def test_the_resumed_game_loads_its_own_screens_only(tmp_path: Path) -> None:
    """A console on a file whose game is The Gallerist loads that game's screens and rules,
    and still neither of the others'."""
    db = tmp_path / "g.sqlite"
    start = {"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben", "Cy"],
             "start_player": "Ann", "bag": 30}
    subprocess.run([sys.executable, "-m", "referee", "headless", "--db", str(db)],
                   input=json.dumps(start) + "\n", capture_output=True, text=True, check=True,
                   timeout=60)
    modules = loaded_at_first_frame(CONSOLE, "console", "--db", str(db))
    assert "ui.games.gallerist" in modules
    assert heavy(modules, allowed=("referee.games.gallerist", "ui.games.gallerist")) == []


def test_the_guard_sees_a_heavy_import() -> None:
    """The check itself: a start that imports the page's server is caught."""
    script = CONSOLE.replace("from referee.cli import main", "import web.server\n"
                             "from referee.cli import main")
    with tempfile.TemporaryDirectory():
        modules = loaded_at_first_frame(script, "console", "--memory")
    assert "web.server" in heavy(modules)


# Counts each scan of the installed distributions' entry points (`referee.plugins._scan`;
# Textual's and gpiozero's own reads would not count), printed as a JSON list at the first
# frame, with whether importlib.metadata was imported by then.
SCANS = """
import sys
import referee.plugins as _plugins
_read = _plugins._scan
SCANNED = []
def _counted():
    SCANNED.append("referee.plugins")
    return _read()
_plugins._scan = _counted
"""


@pytest.mark.parametrize(("script", "argv", "metadata"), [
    (CONSOLE, ["console", "--memory"], []),
    # (`referee run` sets the box up after its first frame: see below)
    (CONSOLE, ["run", "--memory", "--hardware", "sim"], []),
    # (gpiozero imports importlib.metadata itself, as the minimal box script does)
    (BOX, ["box", "--hardware", "sim", "--memory"], ["importlib.metadata"]),
], ids=["console", "run", "box"])
def test_a_start_reads_the_entry_points_once(script: str, argv: list[str],
                                             metadata: list[str]) -> None:
    """The subcommands, the session's add-ons, the game, its console and box screens are all
    found through entry points; reading them scans every installed distribution, so a start
    reads them once (`referee.plugins`), not once per question (it asked six to eight times),
    and without importlib.metadata: importing it cost a console start about 9 ms, more than
    the scan."""
    counting = SCANS + script.replace(
        "loaded = sorted(sys.modules)",
        "loaded = SCANNED + sorted(m for m in sys.modules if m == 'importlib.metadata')")
    assert at_first_frame(counting, *argv) == ["referee.plugins", *metadata]
