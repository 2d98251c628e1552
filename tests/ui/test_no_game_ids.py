"""No widget id or option id in the console is built from game data (issue 11, item 1).

Textual ids must be unique, and game data is not: a hand holds two copies of a card, a
catalog may repeat a name, a player's name may look like anything. An id built from them
crashed the console (DuplicateID) on an ordinary hand. So, read from the source:
- no `Option`/`Selection` is given an id: options stand for values by position (`Choices`,
  or a `SelectionList` whose values are places in a hand);
- every other `id=` is a literal, a constructor passing its own `id` on, or an f-string over
  a seat or row index or a name the code itself defines (the two decks, the house rules'
  fields), never over a card, a museum, a piece of art or a player.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"
# Names an f-string id may use: seat/row/button indexes, and loops over the code's own
# constants (referee.games.gallery_grippers.rules.setup's decks, HouseRules' field names,
# the protocol field names of ui.games.art_project.dialogs.FIELDS; a seat's index in The
# Gallerist's entry dialog).
CODE_NAMES = {"i", "deck", "rule", "field", "seat"}
OPTION_CLASSES = {"Option", "Selection", "Choice"}


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _bad_id(value: ast.expr) -> str | None:
    if isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, str)):
        return None
    if isinstance(value, ast.Name) and value.id == "id":
        return None  # a widget's constructor handing its own `id` parameter on
    if isinstance(value, ast.JoinedStr):
        for part in value.values:
            if isinstance(part, ast.FormattedValue) and not (
                    isinstance(part.value, ast.Name) and part.value.id in CODE_NAMES):
                return ast.unparse(value)
        return None
    return ast.unparse(value)


def offending_ids() -> list[str]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                if kw.arg != "id":
                    continue
                where = f"{path.relative_to(UI.parent)}:{node.lineno}"
                if _called(node) in OPTION_CLASSES:
                    found.append(f"{where}: an option with an id ({ast.unparse(kw.value)})")
                    continue
                bad = _bad_id(kw.value)
                if bad is not None:
                    found.append(f"{where}: id={bad}")
    return found


def test_no_widget_or_option_id_is_built_from_game_data() -> None:
    assert offending_ids() == []


def test_the_check_sees_what_it_must_refuse(tmp_path: Path) -> None:
    """The check itself: each way the console once built ids from game data is caught."""
    samples = {
        'Option(f"{c} +1", id=c)': True,
        'Option(NONE, id=NONE)': True,
        'Static("", id=f"player-{p.name}")': True,
        'Choices(id=museum)': True,
        'Static("", id=f"row-{i}")': False,
        'Static("", id="error")': False,
    }
    for source, refused in samples.items():
        call = ast.parse(source, mode="eval").body
        assert isinstance(call, ast.Call)
        kw = next(k for k in call.keywords if k.arg == "id")
        caught = _called(call) in OPTION_CLASSES or _bad_id(kw.value) is not None
        assert caught is refused, source
