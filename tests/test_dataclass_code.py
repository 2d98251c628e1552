"""Dataclass methods from the table of compiled code (referee/dataclass_code.py, issue 41):
the classes are the same as without it, a table that does not fit is ignored, and the
starts find everything they make in the table the install writes."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import dataclass_code
from referee.dataclass_code import HEADER, CodeTable

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
           "__lt__", "__le__", "__gt__", "__ge__")


def make(fields: list[tuple[str, int | None]], options: dict[str, bool]) -> type:
    """A dataclass `C` with these fields (a default, or none), made by `@dataclass`, in a
    namespace of its own; annotations are real types (this module has postponed ones)."""
    namespace: dict[str, Any] = {"__annotations__": {n: int for n, _ in fields},
                                 "__module__": __name__, "__qualname__": "C"}
    namespace.update({n: d for n, d in fields if d is not None})
    return dataclasses.dataclass(**options)(type("C", (), namespace))


def methods(cls: type) -> dict[str, Any]:
    return {name: cls.__dict__[name] for name in METHODS
            if callable(cls.__dict__.get(name))}


def same_code(a: Any, b: Any) -> bool:
    ca, cb = a.__code__, b.__code__
    return (ca.co_code, ca.co_consts, ca.co_names, ca.co_varnames, ca.co_filename,
            ca.co_flags) == (cb.co_code, cb.co_consts, cb.co_names, cb.co_varnames,
                             cb.co_filename, cb.co_flags)


def with_table(table: CodeTable, make_it: Any) -> Any:
    before = dataclasses.__dict__.get("exec")
    dataclasses.exec = table.exec  # type: ignore[attr-defined]
    try:
        return make_it()
    finally:
        if before is None:
            del dataclasses.exec  # type: ignore[attr-defined]
        else:
            dataclasses.exec = before  # type: ignore[attr-defined]


names = st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda n: n not in {"self", "return", "object", "if", "in", "is", "or", "as", "def",
                        "for", "not", "and", "del", "try", "pass", "with", "else", "from",
                        "elif", "while", "class", "raise", "yield", "break", "async",
                        "await", "global", "lambda", "assert", "import", "except",
                        "finally", "continue", "nonlocal", "None", "True", "False"}),
    min_size=0, max_size=5, unique=True)
option_sets = st.fixed_dictionaries({"frozen": st.booleans(), "eq": st.booleans(),
                                     "order": st.booleans(), "repr": st.booleans()}).filter(
    lambda o: o["eq"] or not o["order"])


@settings(max_examples=60, deadline=None)
@given(field_names=names, defaults=st.lists(st.integers(-5, 5), max_size=5),
       options=option_sets)
def test_a_class_from_the_table_is_the_class_made_without_it(
        tmp_path_factory: pytest.TempPathFactory, field_names: list[str], defaults: list[int],
        options: dict[str, bool]) -> None:
    """Same code objects for every generated method (compiled, then read back from a
    saved table), same behaviour, same annotations: `exec` compiles the text for
    dataclasses.py, which has no `from __future__ import annotations`, and so does the table
    (this test module has it: a table compiled with its flags would give string
    annotations)."""
    tail = defaults[-len(field_names):] if field_names and defaults else []
    fields = [(n, None) for n in field_names[:len(field_names) - len(tail)]]
    fields += list(zip(field_names[len(field_names) - len(tail):], tail, strict=True))
    plain = make(fields, options)
    path = tmp_path_factory.mktemp("table") / "dc.marshal"
    first = CodeTable(path)
    compiled = with_table(first, lambda: make(fields, options))
    assert first.compiled == len(first) > 0  # (each text compiled once)
    assert first.save()
    again = CodeTable(path)
    loaded = with_table(again, lambda: make(fields, options))
    assert again.compiled == 0  # all of it read from the table
    for cls in (compiled, loaded):
        got, want = methods(cls), methods(plain)
        assert got.keys() == want.keys()
        for name in want:
            assert same_code(got[name], want[name]), name
        assert inspect.get_annotations(cls.__init__) == inspect.get_annotations(plain.__init__)
        args = list(range(len(fields)))
        a, b = cls(*args), plain(*args)
        if options["repr"]:
            assert repr(a) == repr(b)
        assert (a == cls(*args)) == (b == plain(*args))
        if options["frozen"] and fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(a, fields[0][0], 9)


@settings(max_examples=40, deadline=None)
@given(junk=st.binary(max_size=200), keep_header=st.booleans())
def test_a_damaged_or_foreign_table_is_ignored(tmp_path_factory: pytest.TempPathFactory,
                                               junk: bytes, keep_header: bool) -> None:
    path = tmp_path_factory.mktemp("table") / "dc.marshal"
    path.write_bytes((HEADER if keep_header else b"") + junk)
    table = CodeTable(path)
    cls = with_table(table, lambda: make([("a", None), ("b", 2)], {"frozen": True}))
    assert cls(1) == cls(1, 2) and cls(1).b == 2


def test_a_table_of_another_python_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "dc.marshal"
    table = CodeTable(path)
    with_table(table, lambda: make([("a", None)], {"frozen": True}))
    assert table.save()
    blob = path.read_bytes()
    other = HEADER[:-1] + bytes([(HEADER[-1] + 1) % 256])  # another optimisation level
    path.write_bytes(other + blob[len(HEADER):])
    again = CodeTable(path)
    with_table(again, lambda: make([("a", None)], {"frozen": True}))
    assert again.stored == {} and again.compiled > 0


def test_a_module_s_code_is_read_when_first_used_and_a_file_cut_short_meanwhile_is_not_used(
        tmp_path: Path) -> None:
    """A start reads a module's code from the file when that module makes its first
    dataclass (not the whole table at once); a file cut short by then is as no table: the
    methods are compiled, and the class is the same."""
    path = tmp_path / "dc.marshal"
    table = CodeTable(path)
    with_table(table, lambda: make([("a", None)], {"frozen": True}))
    assert table.save()
    again = CodeTable(path)
    assert again.code == {} and list(again.stored) == [__name__]  # only where it is, yet
    with_table(again, lambda: make([("a", None)], {"frozen": True}))
    assert again.compiled == 0 and again.code[__name__]  # read from the file
    cut = CodeTable(path)
    path.write_bytes(path.read_bytes()[:-10])  # (in place: the same file, shorter)
    cls = with_table(cut, lambda: make([("a", None)], {"frozen": True}))
    assert cut.compiled > 0 and cls(1) == cls(1) and cls(1).a == 1


def test_nothing_is_written_when_nothing_was_compiled_or_bytecode_may_not_be(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "sub" / "dc.marshal"
    table = CodeTable(path)
    assert not table.save() and not path.exists()  # nothing new
    with_table(table, lambda: make([("a", None)], {}))
    monkeypatch.setattr(dataclass_code, "_installed", table)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not dataclass_code.save() and not path.exists()  # PYTHONDONTWRITEBYTECODE
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert dataclass_code.save() and path.exists()
    assert not list(path.parent.glob("*.tmp"))  # written whole, then renamed
    path.parent.chmod(0o500)
    try:
        with_table(table, lambda: make([("z", None)], {}))
        writable = subprocess.run(["test", "-w", str(path.parent)]).returncode == 0
        assert table.save() is writable  # (root may write anyway): never an exception
    finally:
        path.parent.chmod(0o700)


def test_the_starts_make_every_dataclass_from_the_table_the_install_writes(
        tmp_path: Path) -> None:
    """`python -m referee.dataclass_code` (what install-pi, scripts/_venv.sh and the bench
    run) writes a table holding every method the console, `referee run` and the box make
    as they start: then a start compiles none."""
    path = tmp_path / "dc.marshal"
    warm = textwrap.dedent(f"""
        from pathlib import Path
        from referee import dataclass_code
        dataclass_code.install(Path({str(path)!r}))
        dataclass_code.warm()
    """)
    subprocess.run([sys.executable, "-c", warm], check=True, timeout=300)
    start = textwrap.dedent(f"""
        from pathlib import Path
        from referee import dataclass_code
        table = dataclass_code.install(Path({str(path)!r}))
        import referee.cli
        from referee.cli import build_parser, commands
        for name in ("console", "run", "box"):
            build_parser(commands(), only=name)
        import ui.app, ui.run, device.run, device.box, device.oled, device.render
        import referee.games.art_project, referee.games.gallerist
        print(table.compiled, len(table))
    """)
    out = subprocess.run([sys.executable, "-c", start], check=True, timeout=300,
                         capture_output=True, text=True).stdout.split()
    assert int(out[0]) == 0 and int(out[1]) > 300, out


def test_the_command_line_installs_the_table_before_its_first_dataclass() -> None:
    probe = textwrap.dedent("""
        import dataclasses
        import referee.cli
        from referee import dataclass_code
        table = dataclass_code.installed()
        assert table is not None and dataclasses.exec == table.exec
        from types import CodeType
        init = referee.cli.CliCommand.__init__.__code__
        def nested(code):  # the module's code, its __create_fn__, the method in that
            yield code
            for inner in code.co_consts:
                if isinstance(inner, CodeType):
                    yield from nested(inner)
        assert any(init == inner for module in table.code.values() for code in module.values()
                   for inner in nested(code))
        print(len(table))
    """)
    out = subprocess.run([sys.executable, "-c", probe], check=True, timeout=120,
                         capture_output=True, text=True).stdout
    assert int(out) >= 3  # CliCommand's own methods went through the table
