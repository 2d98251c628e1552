"""Dataclass methods compiled once, not at every start (issue 41, docs/performance.md).

`@dataclass` writes each class's methods (`__init__`, `__repr__`, `__eq__`, `__hash__`, a
frozen class's `__setattr__` and `__delattr__`) as Python source and runs `exec` on it. On
Python 3.11 and 3.12 that is one compile per method: for the rules' commands, events and
states, and Textual's own classes, about 450 compiles and 30 ms of every console start here,
three quarters of all the time dataclasses take (several times that on a Pi Zero 2 W).

`install()` gives the `dataclasses` module an `exec` of its own (a module global shadows the
builtin) that looks the source up in a table of code objects compiled from that exact text,
and compiles only what is not there. The code object is what `exec` would have compiled from
the same text (same file name, no inherited `__future__` flags), so every class is the same
as without it; only the compiling is skipped. The table lives beside the project's bytecode,
`referee/__pycache__/dataclass-code.<python>.marshal`, written by `warm()` (`python -m
referee.dataclass_code`: scripts/install-pi, scripts/_venv.sh and `scripts/bench` run it, as
pip writes the `.pyc` files) and by a start that compiled something new, where Python itself
would write bytecode (not under PYTHONDONTWRITEBYTECODE, not in a folder it cannot write).
A table from another Python, a damaged file or one that is not there is ignored: then every
method is compiled, as without it. The file is trusted as the `.pyc` files beside it are:
same folder, same owner.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["CodeTable", "install", "installed", "save", "warm"]

# What a table must match to be used: the interpreter's bytecode (its magic number) and the
# optimisation level (compile's output depends on it); a table from anything else is ignored.
_MAGIC = __import__("importlib.util").util.MAGIC_NUMBER
HEADER = b"TSR-DC1\n" + _MAGIC + bytes([sys.flags.optimize])
MAX_ENTRIES = 5000  # beyond this, a save keeps only what this process used


def default_path() -> Path:
    return (Path(__file__).resolve().parent / "__pycache__"
            / f"dataclass-code.{sys.implementation.cache_tag}.marshal")


class CodeTable:
    """Source text → code object, for the `exec` calls of `dataclasses`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = default_path() if path is None else path
        # The table as read: each code object still marshalled, loaded when first asked for
        # (a start uses about half of them: unmarshalling all would cost it ~1 ms more).
        self.stored: dict[str, bytes] = {}
        self.code: dict[str, CodeType] = {}  # loaded or compiled by this process
        self.compiled = 0  # texts this process compiled (not in the table)
        self.load()

    def load(self) -> None:
        try:
            blob = self.path.read_bytes()
        except OSError:
            return
        if not blob.startswith(HEADER):
            return
        try:
            table = marshal.loads(blob[len(HEADER):])
        except (ValueError, EOFError, TypeError):
            return
        if isinstance(table, dict):
            self.stored = {k: v for k, v in table.items() if type(k) is str and type(v) is bytes}

    def lookup(self, source: str) -> CodeType:
        """The code of `source` as `exec` would compile it: from the table, or compiled."""
        code = self.code.get(source)
        if code is not None:
            return code
        raw = self.stored.get(source)
        if raw is not None:
            try:
                code = marshal.loads(raw)
            except (ValueError, EOFError, TypeError):
                code = None
        if type(code) is not CodeType:
            # As the builtin exec compiles a string for dataclasses.py (which imports nothing
            # from __future__): no flags inherited from this module.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.code[source] = code
        return code

    def exec(self, source: Any, globals: dict[str, Any] | None = None,
             locals: Any = None, /) -> None:
        if globals is None:  # exec's default: the caller's namespace
            caller = sys._getframe(1)
            globals = caller.f_globals
            if locals is None:
                locals = caller.f_locals
        builtins.exec(self.lookup(source) if type(source) is str else source, globals, locals)

    def save(self) -> bool:
        """Write the table (atomically) if this process compiled anything; False if there
        was nothing new or it cannot be written. Past MAX_ENTRIES (code edited many times
        over), only what this process used is kept."""
        if not self.compiled:
            return False
        table = dict(self.stored) if len(self.stored) + len(self.code) <= MAX_ENTRIES else {}
        table.update((k, marshal.dumps(v)) for k, v in self.code.items())
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(HEADER + marshal.dumps(table))
            os.replace(tmp, self.path)
        except OSError:
            return False
        self.stored, self.compiled = table, 0
        return True


_installed: CodeTable | None = None


def install(path: Path | None = None) -> CodeTable:
    """Have `dataclasses` take its methods' code from the table (once per process)."""
    global _installed
    if _installed is None:
        _installed = CodeTable(path)
        dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
    return _installed


def installed() -> CodeTable | None:
    return _installed


def save() -> bool:
    """At the end of a start: keep what it compiled, where Python would keep bytecode."""
    if _installed is None or sys.dont_write_bytecode:
        return False
    return _installed.save()


def warm(packages: list[str] | None = None) -> CodeTable:
    """Import every module of the project (and of every front end and game installed as an
    entry point) with the table installed, and write it whatever PYTHONDONTWRITEBYTECODE
    says, as `compileall` writes bytecode. A module that cannot be imported here (an extra
    not installed: the page's aiohttp, the club's paho) is left out."""
    import importlib
    import pkgutil

    from referee.plugins import entry_points

    table = install()
    names = set(packages or ["referee"])
    if packages is None:
        for group in ("tableside_referee.commands", "tableside_referee.games"):
            names.update(ep.value.split(":")[0].split(".")[0] for ep in entry_points(group=group))
    for name in sorted(names):
        try:
            package = importlib.import_module(name)
        except Exception:  # (an extra that is not installed)
            continue
        for info in pkgutil.walk_packages(getattr(package, "__path__", []), f"{name}."):
            if info.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(info.name)
            except Exception:  # (an extra that is not installed)
                continue
    table.compiled = max(table.compiled, 1)  # written even when nothing was new
    table.save()
    return table


if __name__ == "__main__":
    from referee import dataclass_code  # (this file as a module, not as __main__: one table)

    done = dataclass_code.warm()
    print(f"dataclass code: {len(done.stored)} methods in {done.path}")
