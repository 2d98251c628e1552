"""The layering as import-linter contracts (pyproject's [tool.importlinter]): kept by the
tree as it is, and broken by a copy of the tree with one forbidden import added."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"}
    return subprocess.run([str(LINT), "--no-cache"], cwd=root, capture_output=True, text=True,
                          env=env, timeout=120)


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    shutil.copy(CHECKOUT / "pyproject.toml", root)
    for package in ("referee", "device", "ui", "web"):
        shutil.copytree(CHECKOUT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_tree_keeps_every_layer_contract() -> None:
    done = _lint(CHECKOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("referee/sneaky.py", "import textual\n", "referee/"),
    ("referee/sneaky.py", "from device import oled\n", "referee/"),
    ("device/sneaky.py", "from ui import app\n", "device/"),
    ("referee/sneaky.py", "from referee.games.gallery_grippers import state\n",
     "the core imports no game"),
    ("referee/games/__init__.py", "from referee.games.gallery_grippers import RULESET\n",
     "the core imports no game"),
    ("referee/sneaky.py", "import aiohttp\n", "referee/"),
    ("web/sneaky.py", "import textual\n", "web/"),
    ("web/sneaky.py", "from ui import app\n", "web/"),
    ("web/sneaky.py", "from referee.games.art_project import state\n", "web/"),
    # (a line added to an existing module goes at its end)
    ("device/run.py", "from device.games.gallerist import oled\n", "the console app, the"),
    ("ui/screens/ticks.py", "from referee.games.gallerist import state\n",
     "the console app, the"),
    ("ui/games/art_project/sneaky.py", "from ui.games.gallerist import setup\n",
     "a game's console screens"),
    ("device/games/gallerist/sneaky.py", "from device.games.gallery_grippers import screens\n",
     "a game's console screens"),
    ("device/tray/errors.py", "from device.tray import sim\n", "no import circle"),
    ("referee/app.py", "from referee.cli import main\n", "no import circle"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path: Path, module: str, line: str,
                                                contract: str) -> None:
    root = _copy(tmp_path)
    path = root / module
    path.write_text((path.read_text() if path.exists() else "") + line)
    done = _lint(root)
    assert done.returncode != 0
    assert "1 broken" in done.stdout
    broken = [ln for ln in done.stdout.splitlines() if " BROKEN" in ln]
    assert broken and broken[0].startswith(contract), done.stdout
