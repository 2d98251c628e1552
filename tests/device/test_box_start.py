"""`referee box` starts with the cyclic garbage collector paused and collects once it is up
(issue 41), as the console does (tests/ui/test_start.py)."""

from __future__ import annotations

import json
import subprocess
import sys

# Notes the collector's state at the first OLED frame and when the box's loop begins, then
# ends the box (its loop is never entered).
SCRIPT = """
import gc, json, os, sys
import device.run
from device.oled import Oled
seen = {}
_show = Oled.show
def _first(self, image):
    seen.setdefault("first_frame", gc.isenabled())
    _show(self, image)
Oled.show = _first
def _loop(*args, **kwargs):
    seen["loop"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count() > 0
    return 0
device.run.main_loop = _loop
from referee.cli import main
code = main(["box", "--hardware", "sim", "--memory", "--no-text-art"])
seen["after"] = gc.isenabled()
print(json.dumps(seen), flush=True)
os._exit(code)
"""


def test_the_box_starts_with_the_collector_paused_and_plays_with_it_on() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"first_frame": False, "loop": True, "frozen": True, "after": True}
