"""Every letter key works as the key bar and docs/console.md write it (a capital: `R`, `O`)
and as typed (`r`, `o`). Textual names Shift+R "R", which a binding of "r" never matches
(issue 39, item 6: `O` did nothing, only `o` opened the box)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

import ui
from tests.ui.conftest import SIZE, keys, played
from ui.app import make_app
from ui.games.gallery_grippers.table import TableScreen
from ui.games.gallery_grippers.turn import MoveDialog

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)


def _letter_keys() -> dict[str, set[str]]:
    """Each console class's letters bound, in the cases bound."""
    found: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(ui.__path__, "ui."):
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, DOMNode) or cls.__module__ != module.__name__:
                continue
            for entry in cls.__dict__.get("BINDINGS", []):
                if not isinstance(entry, Binding):
                    continue
                for key in entry.key.split(","):
                    if len(key.strip()) == 1 and key.strip().isalpha():
                        found.setdefault(f"{info.name}.{name}", set()).add(key.strip())
    return found


def test_every_letter_key_is_bound_in_both_cases() -> None:
    found = _letter_keys()
    assert found  # (the walk found the screens)
    one_case = {cls: sorted(k for k in keys if k.swapcase() not in keys)
                for cls, keys in found.items()}
    assert {cls: ks for cls, ks in one_case.items() if ks} == {}


async def test_capital_r_rolls_to_move_as_the_key_bar_writes_it() -> None:
    app = make_app(played())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")  # resume
        assert isinstance(app.screen, TableScreen)
        await keys(pilot, "R")
        assert isinstance(app.screen, MoveDialog)
