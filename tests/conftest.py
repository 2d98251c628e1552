"""Every test keeps its games in its own temporary file, never in the user's home."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_game_file(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.sqlite"
    monkeypatch.setenv("REFEREE_DB", str(path))
    return path
