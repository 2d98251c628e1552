"""Every test keeps its games in its own temporary file, never in the user's home; under
pytest-xdist (scripts/test) the slowest tests start first."""

from __future__ import annotations

import os
from collections.abc import Iterator
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


@pytest.fixture
def quick_keys() -> Iterator[None]:
    """The console's keys settle when it has nothing left to do, not by the clock
    (tests/settle.py): the long walks ask for it."""
    from tests.settle import quick_keys as settling

    with settling():
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the workers of a parallel run (scripts/test, `-n`): the tests marked `slow` first,
    the longest first, the rest in their own order. `--dist loadgroup` hands tests out in this
    order to whichever worker is free, so the long ones run side by side early and the end of
    the run is short ones on every core, not one long test on one. (Every worker sorts the
    same collection the same way, as xdist requires.)"""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: -seconds(item))  # (stable)


def seconds(item: pytest.Item) -> float:
    """A `slow` test's seconds, as `@pytest.mark.slow(seconds)` gives them (measured in a
    parallel run on 2 cores; only their order matters); else 0."""
    mark = item.get_closest_marker("slow")
    return float(mark.args[0]) if mark is not None else 0.0
