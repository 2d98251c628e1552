"""Textual's parsed stylesheets from a table (ui/css_cache.py, issue 41): the rules read back
are the rules a parse gives, for every stylesheet the console has and any variables; a key
holds everything the parse reads; a damaged or foreign table is ignored; the warm-up covers
every game's first screen."""

from __future__ import annotations

import functools
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.css.stylesheet import Stylesheet

from ui import css_cache
from ui.css_cache import HEADER, ParsedStyles

UI = Path(__file__).resolve().parents[2] / "ui"
SOURCES = [(UI / "console.tcss").read_text(encoding="utf-8"),
           (UI / "games" / "art_gallerist.tcss").read_text(encoding="utf-8")]


@functools.cache
def theme() -> dict[str, str]:
    from textual.app import App

    return dict(App().get_css_variables())


def described(rules: list[Any]) -> list[tuple[Any, ...]]:
    """What a rule set is, for comparing: its CSS written back, its selectors, where it came
    from and how it ranks."""
    return [(r.css, r.selector_set, r.is_default_rules, r.tie_breaker, r.selector_names,
             r.pseudo_classes, r.styles.get_rules()) for r in rules]


def parsed(css: str, variables: dict[str, str], table: ParsedStyles | None) -> list[Any]:
    sheet = Stylesheet(variables=variables)
    read_from = ("console.tcss", "")
    if table is None:
        return list(css_cache._parse_rules(sheet, css, read_from))
    key = table.key(sheet, css, read_from, False, 0, "")
    rules = table.get(key)
    if rules is None:
        rules = css_cache._parse_rules(sheet, css, read_from)
        table.put(key, rules)
    return list(rules)


@settings(max_examples=20, deadline=None)
@given(which=st.sampled_from(range(len(SOURCES))),
       colours=st.dictionaries(st.sampled_from(["primary", "secondary", "boost", "panel"]),
                               st.from_regex(r"#[0-9a-f]{6}", fullmatch=True), max_size=4))
def test_rules_read_back_are_the_rules_a_parse_gives(
        tmp_path_factory: pytest.TempPathFactory, which: int, colours: dict[str, str]) -> None:
    variables = {**theme(), **colours}
    css = SOURCES[which]
    path = tmp_path_factory.mktemp("css") / "t.pickle"
    first = ParsedStyles(path)
    want = described(parsed(css, variables, None))
    assert described(parsed(css, variables, first)) == want  # parsed, and kept
    assert first.save()
    again = ParsedStyles(path)
    assert described(parsed(css, variables, again)) == want and again.hits == 1  # read back


def test_the_key_holds_the_variables_and_where_the_css_came_from() -> None:
    variables = theme()
    a, b = Stylesheet(variables=variables), Stylesheet(variables={**variables,
                                                                  "primary": "#123456"})
    key = ParsedStyles(Path("/nonexistent/t.pickle")).key  # (one table, asked in turns)
    assert key(a, "X {}", ("p", ""), False, 0, "") != key(b, "X {}", ("p", ""), False, 0, "")
    assert key(a, "X {}", ("p", ""), False, 0, "") != key(a, "X {}", ("q", ""), False, 0, "")
    assert key(a, "X {}", ("p", ""), False, 0, "") != key(a, "X {}", ("p", ""), True, 0, "")
    assert key(a, "X {}", ("p", ""), False, 0, "") != key(a, "X {}", ("p", ""), False, 1, "")
    assert key(a, "X {}", ("p", ""), False, 0, "") != key(a, "X {}", ("p", ""), False, 0, "Y")
    # the same stylesheet's variables changed in place (a theme set): a new key
    before = key(a, "X {}", ("p", ""), False, 0, "")
    a._variables["primary"] = "#654321"
    assert key(a, "X {}", ("p", ""), False, 0, "") != before
    assert key(b, "X {}", ("p", ""), False, 0, "") != key(a, "X {}", ("p", ""), False, 0, "")


@settings(max_examples=30, deadline=None)
@given(junk=st.binary(max_size=200), keep_header=st.booleans())
def test_a_damaged_or_foreign_table_is_ignored(tmp_path_factory: pytest.TempPathFactory,
                                               junk: bytes, keep_header: bool) -> None:
    path = tmp_path_factory.mktemp("css") / "t.pickle"
    path.write_bytes((HEADER if keep_header else b"TSR-CSS0\n") + junk)
    table = ParsedStyles(path)
    assert table.stored == {} or all(type(v) is bytes for v in table.stored.values())
    assert (described(parsed(SOURCES[0], theme(), table))
            == described(parsed(SOURCES[0], theme(), None)))


def test_nothing_is_written_under_pythondontwritebytecode(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = ParsedStyles(tmp_path / "t.pickle")
    parsed(SOURCES[1], theme(), table)
    monkeypatch.setattr(css_cache, "_installed", table)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not css_cache.save() and not table.path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert css_cache.save() and table.path.exists()
    assert not list(tmp_path.glob("*.tmp"))


def test_after_the_warm_up_every_games_first_screen_parses_nothing(tmp_path: Path) -> None:
    """`python -m ui.css_warm` (install-pi, scripts/_venv.sh, the bench) keeps every
    stylesheet each game's first screen parses: a console started then parses none."""
    path = tmp_path / "t.pickle"
    run = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from ui import css_cache
        table = css_cache.install(Path({str(path)!r}))
        if sys.argv[1] == "warm":
            from ui.css_warm import warm
            warm()
        else:
            from referee.session import Session
            from ui.app import make_app
            app = make_app(Session(), game=sys.argv[1])
            app.when_first_screen_drawn(lambda: app.call_after_refresh(
                lambda: app.call_after_refresh(app.exit)))
            app.run(headless=True, size=(80, 24))
            print(table.hits, len(table.new))
    """)
    subprocess.run([sys.executable, "-c", run, "warm"], check=True, timeout=300,
                   capture_output=True)
    for game in ("gallery-grippers", "art-project", "gallerist"):
        out = subprocess.run([sys.executable, "-c", run, game], check=True, timeout=300,
                             capture_output=True, text=True).stdout.split()
        assert int(out[-2]) > 5 and out[-1] == "0", (game, out)
