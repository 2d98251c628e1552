"""Textual's parsed stylesheets kept between starts (issue 41, docs/performance.md).

Textual parses every stylesheet at every start: the console's own (`console.tcss`, 9 KB:
about 9 ms here) and each widget class's default CSS, a third of the console's first-frame
work beyond a bare Textual app's, and several times that on a Pi Zero 2 W. `install()` gives
`Stylesheet._parse_rules` a table of rule sets already parsed, pickled, keyed by everything
the parse reads: the CSS text, where it was read from, whether it is a widget's default CSS,
its tie-breaker and scope, and the stylesheet's variables (the theme's colours); a key not in
the table is parsed as before. Each call unpickles its own copy, as a parse makes its own.

The table lives beside the console's bytecode (`ui/__pycache__/textual-css.<python>.pickle`,
for this Textual version only), written by `python -m ui.css_warm` (scripts/install-pi,
scripts/_venv.sh and the bench run it, as pip writes the `.pyc` files: it draws each game's
first screen headless) and by a console whose first screen parsed something new, where Python
itself would write bytecode. A table of another Textual or Python, or a damaged one, is
ignored. It is trusted as the `.pyc` files beside it are: same folder, same owner.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

from textual.css.stylesheet import Stylesheet

from referee.beside_bytecode import write_table
from referee.plugins import version

__all__ = ["ParsedStyles", "install", "save"]

HEADER = (b"TSR-CSS2\n" + f"textual {version('textual')} {sys.implementation.cache_tag}\n"
          .encode())


def default_path() -> Path:
    return (Path(__file__).resolve().parent / "__pycache__"
            / f"textual-css.{sys.implementation.cache_tag}.pickle")


class ParsedStyles:
    """Pickled rule sets by everything their parse read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = default_path() if path is None else path
        self.stored: dict[str, bytes] = {}
        self.new: dict[str, bytes] = {}
        self.hits = 0
        self._variables: dict[str, str] | None = None  # (the last seen, and as text:)
        self._variables_repr = ""
        self.load()

    def load(self) -> None:
        try:
            blob = self.path.read_bytes()
        except OSError:
            return
        if not blob.startswith(HEADER):
            return
        try:
            table = pickle.loads(blob[len(HEADER):])
        except Exception:  # (a damaged table: every stylesheet is parsed, as without one)
            return
        if isinstance(table, dict):
            self.stored = {k: v for k, v in table.items()
                           if type(k) is str and type(v) is bytes}

    def key(self, sheet: Stylesheet, css: str, read_from: Any, is_default_rules: bool,
            tie_breaker: int, scope: str) -> str:
        return repr((css, tuple(read_from), is_default_rules, tie_breaker, scope)) + \
            self._variables_text(getattr(sheet, "_variables", {}))

    def _variables_text(self, variables: dict[str, str]) -> str:
        """The stylesheet's variables as text, part of every key. A start asks ~70 times with
        the same ~170 theme colours: sorting and writing them out each time was ~1.5 ms of
        the console's start here (issue 41); a dict compare is much cheaper."""
        if self._variables != variables:
            self._variables = dict(variables)
            self._variables_repr = repr(sorted(variables.items()))
        return self._variables_repr

    def get(self, key: str) -> Any:
        raw = self.stored.get(key) or self.new.get(key)
        if raw is None:
            return None
        try:
            rules = pickle.loads(raw)
        except Exception:  # (parsed again instead)
            return None
        self.hits += 1
        return rules

    def put(self, key: str, rules: Any) -> None:
        if key not in self.stored:
            try:
                self.new[key] = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # (a rule set that does not pickle is parsed at every start)
                return

    def save(self) -> bool:
        """Write the table (atomically) if something new was parsed; False otherwise."""
        if not self.new:
            return False
        table = {**self.stored, **self.new}
        if not write_table(self.path, [HEADER + pickle.dumps(
                table, protocol=pickle.HIGHEST_PROTOCOL)]):
            return False
        self.stored, self.new = table, {}
        return True


_installed: ParsedStyles | None = None
_parse_rules = Stylesheet._parse_rules


def install(path: Path | None = None) -> ParsedStyles:
    """Have every stylesheet take its rules from the table (once per process)."""
    global _installed
    if _installed is not None:
        return _installed
    table = _installed = ParsedStyles(path)

    def parse_rules(self: Stylesheet, css: str, read_from: Any,
                    is_default_rules: bool = False, tie_breaker: int = 0,
                    scope: str = "") -> Any:
        cache_key = (css, read_from, is_default_rules, tie_breaker, scope)
        if cache_key in self._parse_cache:
            return self._parse_cache[cache_key]
        key = table.key(self, css, read_from, is_default_rules, tie_breaker, scope)
        rules = table.get(key)
        if rules is not None:
            self._parse_cache[cache_key] = rules
            return rules
        rules = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            table.put(key, rules)
        return rules

    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    return table


def save() -> bool:
    """After the first screen: keep what it parsed, where Python would keep bytecode."""
    if _installed is None or sys.dont_write_bytecode:
        return False
    return _installed.save()
