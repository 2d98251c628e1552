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

from referee.beside_bytecode import write_table

__all__ = ["CodeTable", "install", "installed", "save", "warm"]

# What a table must match to be used: the interpreter's bytecode (its magic number) and the
# optimisation level (compile's output depends on it); a table from anything else is ignored.
_MAGIC = __import__("importlib.util").util.MAGIC_NUMBER
HEADER = b"TSR-DC3\n" + _MAGIC + bytes([sys.flags.optimize])
MAX_ENTRIES = 5000  # beyond this, a save keeps only what this process used


def default_path() -> Path:
    return (Path(__file__).resolve().parent / "__pycache__"
            / f"dataclass-code.{sys.implementation.cache_tag}.marshal")


class CodeTable:
    """Source text → code object, for the `exec` calls of `dataclasses`, kept per module (the
    module the class is made in: the globals `exec` is given), so that a start unmarshals the
    code of the modules it imports and no other."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = default_path() if path is None else path
        # module → its {source: code}, still marshalled: where it is in the file (offset,
        # length), read when the module makes its first dataclass, or its bytes (saved)
        self.stored: dict[str, tuple[int, int] | bytes] = {}
        self._fd: int | None = None  # the file the offsets are in (kept open: see load)
        self.code: dict[str, dict[str, CodeType]] = {}  # module → {source: code}, in use
        self.compiled = 0  # texts this process compiled (not in the table)
        self._changed: set[str] = set()  # modules with code compiled by this process
        self.load()

    def __len__(self) -> int:
        """The methods in the table and compiled since (each module's read as it is used)."""
        return sum(len(self._module(m)) for m in set(self.stored) | set(self.code))

    def load(self) -> None:
        """Read the file's index: which modules it has code for, and where. Each module's
        code is read and unmarshalled when the module makes its first dataclass: the table
        holds every module of the project and of the libraries it uses (~1 MB), a start
        uses a third of it, and reading it all took ~1 ms of every start here (issue 41).
        The file stays open for that (a table saved meanwhile replaces it, by another name:
        this one is still read as it was)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return
        try:
            head = os.pread(fd, len(HEADER) + 4, 0)
            if len(head) < len(HEADER) + 4 or not head.startswith(HEADER):
                raise ValueError("not a table of this Python")
            size = int.from_bytes(head[len(HEADER):], "little")
            index = marshal.loads(os.pread(fd, size, len(HEADER) + 4))
            total = os.fstat(fd).st_size
        except (OSError, ValueError, EOFError, TypeError):
            os.close(fd)
            return
        if not isinstance(index, dict):
            os.close(fd)
            return
        body = len(HEADER) + 4 + size
        for module, where in index.items():
            if (type(module) is str and type(where) is tuple and len(where) == 2
                    and all(type(n) is int and n >= 0 for n in where)
                    and body + where[0] + where[1] <= total):
                self.stored[module] = (body + where[0], where[1])
        self._fd = fd

    def _raw(self, module: str) -> bytes | None:
        """A module's marshalled code as stored (None: not there, or the file cut short)."""
        where = self.stored.get(module)
        if where is None or isinstance(where, bytes):
            return where
        if self._fd is None:
            return None
        try:
            raw = os.pread(self._fd, where[1], where[0])
        except OSError:
            return None
        return raw if len(raw) == where[1] else None

    def _module(self, module: str) -> dict[str, CodeType]:
        found = self.code.get(module)
        if found is None:
            found = {}
            raw = self._raw(module)
            if raw is not None:
                try:
                    table = marshal.loads(raw)
                except (ValueError, EOFError, TypeError):
                    table = None
                if isinstance(table, dict):
                    found = {k: v for k, v in table.items()
                             if type(k) is str and type(v) is CodeType}
            self.code[module] = found
        return found

    def lookup(self, source: str, module: str = "") -> CodeType:
        """The code of `source` as `exec` would compile it: from the table, or compiled."""
        known = self._module(module)
        code = known.get(source)
        if code is None:
            # As the builtin exec compiles a string for dataclasses.py (which imports nothing
            # from __future__): no flags inherited from this module.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            known[source] = code
            self._changed.add(module)
            self.compiled += 1
        return code

    def exec(self, source: Any, globals: dict[str, Any] | None = None,
             locals: Any = None, /) -> None:
        if globals is None:  # exec's default: the caller's namespace
            caller = sys._getframe(1)
            globals = caller.f_globals
            if locals is None:
                locals = caller.f_locals
        if type(source) is str:
            name = globals.get("__name__")
            source = self.lookup(source, name if type(name) is str else "")
        builtins.exec(source, globals, locals)

    def save(self) -> bool:
        """Write the table (atomically) if this process compiled anything; False if there
        was nothing new or it cannot be written. Past MAX_ENTRIES methods (code edited many
        times over), only the modules this process used are kept."""
        if not self.compiled:
            return False
        table: dict[str, bytes] = {}
        for module in self.stored:
            raw = self._raw(module)
            if raw is not None:
                table[module] = raw
        table.update((m, marshal.dumps(self.code[m])) for m in self._changed)
        if len(self) > MAX_ENTRIES:
            table = {m: v for m, v in table.items() if m in self.code}
        index: dict[str, tuple[int, int]] = {}
        blobs: list[bytes] = []
        at = 0
        for module, raw in table.items():
            index[module] = (at, len(raw))
            blobs.append(raw)
            at += len(raw)
        head = marshal.dumps(index)
        if not write_table(self.path, [HEADER + len(head).to_bytes(4, "little") + head,
                                       *blobs]):
            return False
        self.stored, self.compiled = {}, 0
        self.stored.update(table)  # (now as bytes: the file they came from was replaced)
        self._changed.clear()
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
    table._changed.update(table.code)
    table.save()
    return table


if __name__ == "__main__":
    from referee import dataclass_code  # (this file as a module, not as __main__: one table)

    done = dataclass_code.warm()
    print(f"dataclass code: {len(done)} methods of {len(done.stored)} modules in {done.path}")
    # What else a start would otherwise work out every time: the shipped catalogs' data.
    # (Imported only now: a module imported before warm() made its dataclasses without
    # the table, and they would be missing from it.)
    from referee import tomlfile

    # Any TOML files named (scripts/install-pi names the box's pin map in /etc) besides.
    also = [Path(arg) for arg in sys.argv[1:]]
    print(f"shipped TOML files parsed: {tomlfile.warm(also=also)} in {tomlfile.parsed_path()}")
