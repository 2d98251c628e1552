"""The installed entry points, read once a process.

Every front end and the core find their plug-ins (subcommands, session add-ons, games, the
console's and the box's screens) through entry points. Reading them scans every installed
distribution's metadata (1.5-3 ms here, the first time most), and a start asked five groups
six or more times before its first frame (issue 41). They are read once, all groups together,
and each question is answered from that. Installing a package while a referee runs is not
noticed until it restarts, as with any Python program's imports (`referee.games.register`
adds a game for this process).

They are read without `importlib.metadata` where that gives the same answer, which is almost
always: importing it (with `email`, `zipfile`, `csv` and the rest) cost every start about 9 ms
here, more than the scan, and no other module a start loads needs it. The scan below does
what `importlib.metadata.entry_points()` does for distributions installed in directories
(every `*.dist-info` and `*.egg-info` on `sys.path`, the first of a name winning, each one's
`entry_points.txt` read as it reads it); where a Python path holds something it would read
otherwise (a zip file or an `.egg` on the path, or an import finder of its own that lists
distributions), `importlib.metadata` answers instead (`tests/test_plugins.py` checks both
agree on this install and on made-up ones)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import import_module
from typing import Any


class EntryPoint:
    """One entry point: `name = value` in `group`; `load()` imports what `value` names
    (`module`, or `module:attr.attr`, extras in brackets ignored), as importlib's does."""

    __slots__ = ("group", "name", "value")

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name, self.value, self.group = name, value, group

    def load(self) -> Any:
        target = self.value.split("[", 1)[0]
        module, _, attrs = target.partition(":")
        found = import_module(module.strip())
        for attr in filter(None, attrs.strip().split(".")):
            found = getattr(found, attr)
        return found

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _normalized(name: str) -> str:
    # importlib.metadata's Prepared.normalize, on the folder name's part before its first '-'.
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


class _Unreadable(Exception):
    """Something on the path that importlib.metadata reads in a way this scan does not."""


def _parse(text: str) -> Iterator[tuple[str, str, str]]:
    """(group, name, value) of an entry_points.txt, read as importlib.metadata reads it."""
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
            continue
        if group is None:
            continue
        name, _, value = line.partition("=")
        yield group, name.strip(), value.strip()


def _directly_readable(path: Iterable[str]) -> bool:
    from importlib.machinery import PathFinder

    if any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return False
    return not any(os.path.isfile(p) or p.lower().endswith(".egg") for p in path)


def distributions(path: list[str]) -> Iterator[tuple[str, str]]:
    """(normalized name, metadata folder) of each distribution installed in the directories
    of `path`, the first of each name only, as importlib.metadata finds them."""
    seen: set[str] = set()
    for entry in path:
        try:
            children = os.listdir(entry or ".")
        except OSError:
            continue
        for child in children:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            if not child.endswith((".dist-info", ".egg-info")):
                raise _Unreadable(child)  # (importlib names it from its metadata instead)
            name = _normalized(low.rpartition(".")[0].partition("-")[0])
            if name not in seen:
                seen.add(name)
                yield name, os.path.join(entry, child)


def _read(folder: str, name: str) -> str | None:
    try:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def scan(path: list[str]) -> list[EntryPoint]:
    """Every entry point of the distributions installed in the directories of `path`."""
    found: list[EntryPoint] = []
    for _, folder in distributions(path):
        text = _read(folder, "entry_points.txt")
        if text is not None:
            found.extend(EntryPoint(n, v, g) for g, n, v in _parse(text))
    return found


def _scan() -> list[EntryPoint]:
    if _directly_readable(sys.path):
        with contextlib.suppress(_Unreadable):
            return scan(sys.path)
    return read_by_importlib()


@cache
def version(distribution: str) -> str | None:
    """The installed version of `distribution` (its metadata's `Version:`), as
    `importlib.metadata.version` gives it; None if it is not installed. Read once a process,
    as the entry points are (a console start asks for Textual's twice)."""
    if _directly_readable(sys.path):
        with contextlib.suppress(_Unreadable):
            wanted = _normalized(distribution)
            for name, folder in distributions(sys.path):
                if name == wanted:
                    text = _read(folder, "METADATA") or _read(folder, "PKG-INFO") or ""
                    for line in text.splitlines():
                        if not line.strip():
                            break  # (the headers end at the first blank line)
                        if line.startswith("Version:"):
                            return line[len("Version:"):].strip()
                    break  # (no version in its headers: importlib.metadata says what then)
            else:
                return None
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def read_by_importlib() -> list[EntryPoint]:
    """What `importlib.metadata.entry_points()` finds, every group's."""
    from importlib import metadata

    every = metadata.entry_points()  # (3.11: grouped; 3.12: one EntryPoints; both select)
    return [EntryPoint(ep.name, ep.value, ep.group)
            for group in sorted(every.groups) for ep in every.select(group=group)]


@cache
def _all() -> tuple[EntryPoint, ...]:
    return tuple(_scan())


def entry_points(*, group: str, name: str | None = None) -> tuple[EntryPoint, ...]:
    """The installed entry points of `group` (only the one called `name`, if given)."""
    return tuple(ep for ep in _all()
                 if ep.group == group and (name is None or ep.name == name))
