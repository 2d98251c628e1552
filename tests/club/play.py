"""Scripted games for the club's tests and bench: the requests of a long Gallery Grippers game
(scripts/bench.py's `long_game`), made once in memory and replayed on any session."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def script(commands: int) -> tuple[dict[str, Any], ...]:
    spec = importlib.util.spec_from_file_location("referee_bench", ROOT / "scripts/bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    accepted: list[dict[str, Any]] = []
    bench.long_game(commands, accepted)
    return tuple(accepted)
