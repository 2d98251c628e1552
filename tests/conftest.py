"""Every test keeps its games in its own temporary file, never in the user's home."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# scripts/mutation (docs/mutation.md) sets REFEREE_MUTATION: every mutant runs the tests that
# call its function, so the hypothesis properties try a few examples each (the "mutation"
# profile) rather than their own figure; a property that names its own figure asks
# `examples(n)`.
MUTATION = bool(os.environ.get("REFEREE_MUTATION"))
settings.register_profile("mutation", max_examples=10, deadline=None)
if MUTATION:
    settings.load_profile("mutation")


def examples(n: int) -> int:
    """`n` examples, or the "mutation" profile's few under scripts/mutation."""
    return settings.get_profile("mutation").max_examples if MUTATION else n


@pytest.fixture(autouse=True)
def _private_game_file(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.sqlite"
    monkeypatch.setenv("REFEREE_DB", str(path))
    return path
