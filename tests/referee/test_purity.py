"""The rules are pure: `referee` imports no hardware or UI library, and the rules modules
import nothing beyond the standard library and read no clock or randomness."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import referee

ROOT = Path(referee.__file__).parent
# Modules that decide or fold the game: no clock, no randomness, no OS.
# Every game's modules (referee/games/<game>/: catalog, settings, commands, state, evolve, rules)
# and the core's dice and errors.
RULES = ["dice.py", "errors.py",
         *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").rglob("*.py"))]
FORBIDDEN_IN_RULES = {"random", "secrets", "time", "datetime", "os", "uuid", "socket",
                      "sqlite3", "subprocess", "threading", "asyncio"}
UI_AND_HARDWARE = {"textual", "rich", "gpiozero", "lgpio", "RPi", "luma", "PIL", "serial",
                   "device", "ui"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_rules_modules_import_only_the_standard_library_and_no_clock_or_rng() -> None:
    for rel in RULES:
        mods = imports(ROOT / rel)
        outside = {m for m in mods if m != "referee" and m not in sys.stdlib_module_names}
        assert not outside, f"{rel} imports {outside}"
        assert not mods & FORBIDDEN_IN_RULES, f"{rel} imports {mods & FORBIDDEN_IN_RULES}"


def test_no_referee_module_imports_ui_or_hardware_libraries() -> None:
    for path in ROOT.rglob("*.py"):
        bad = imports(path) & UI_AND_HARDWARE
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_check_itself_catches_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import random\nfrom gpiozero import Button\nfrom time import time\n")
    assert imports(sneaky) == {"random", "gpiozero", "time"}
