"""Reliability #10: an exception inside the console ends the process with a non-zero status."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BROKEN = textwrap.dedent("""
    import sys
    from referee.session import Session
    from ui.app import make_app, run_app

    class Broken(Session):
        def apply(self, command, **_):
            raise RuntimeError("boom inside the console")

    async def play(pilot):
        await pilot.press(*"Ann", "enter", *"Ben", "enter", "ctrl+s")
        await pilot.pause()
        await pilot.pause()

    sys.exit(run_app(make_app(Broken(seed=bytes(32))), headless=True, auto_pilot=play))
""")

CLEAN = textwrap.dedent("""
    import sys
    from referee.session import Session
    from ui.app import make_app, run_app

    async def quit_(pilot):
        await pilot.press("ctrl+q")

    sys.exit(run_app(make_app(Session()), headless=True, auto_pilot=quit_))
""")


def run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)


def test_an_exception_in_the_console_exits_non_zero() -> None:
    done = run(BROKEN)
    assert done.returncode == 1, done
    assert "boom inside the console" in done.stdout + done.stderr


def test_quitting_exits_zero() -> None:
    done = run(CLEAN)
    assert done.returncode == 0, done
