"""Every notice the console shows whose words are not a fixed sentence (a player's name, a
file's path, the rules' `next` line, an error, a club's news) is shown as written, never read
as Textual markup: `[b]Cy` stays `[b]Cy`, and a name like `[/]` cannot break the notice. The
check reads the console's source: any `notify(...)` of a Textual app or screen whose message
is built at run time says `markup=False`."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"


def _textual_notices(tree: ast.AST) -> list[ast.Call]:
    """The calls of a Textual `notify` (the box's own `notify`, on a `box`, takes no markup)."""
    calls = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "notify"):
            continue
        owner = node.func.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
        if name == "box":
            continue
        calls.append(node)
    return calls


def test_every_notice_built_at_run_time_is_plain_text() -> None:
    loose = []
    checked = 0
    for path in sorted(UI.rglob("*.py")):
        for call in _textual_notices(ast.parse(path.read_text(encoding="utf-8"))):
            fixed = bool(call.args) and isinstance(call.args[0], ast.Constant)
            plain = any(k.arg == "markup" and isinstance(k.value, ast.Constant)
                        and k.value.value is False for k in call.keywords)
            checked += 1
            if not (fixed or plain):
                loose.append(f"{path.relative_to(UI.parent)}:{call.lineno}")
    assert checked > 10  # (the scan found the console's notices)
    assert loose == []


def test_the_check_finds_a_loose_notice() -> None:
    tree = ast.parse("self.notify(f'{name} joined')\nrig.box.notify(text)\n"
                     "self.notify(text, markup=False)\nself.notify('Fixed words.')\n")
    calls = _textual_notices(tree)
    assert [c.lineno for c in calls] == [1, 3, 4]
