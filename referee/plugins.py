"""The installed entry points, read once a process.

Every front end and the core find their plug-ins (subcommands, session add-ons, games, the
console's and the box's screens) through entry points. Reading them scans every installed
distribution's metadata (1.5-3 ms here, the first time most), and a start asked five groups
six or more times before its first frame (issue 41). They are read once, all groups together,
and each question is answered from that. Installing a package while a referee runs is not
noticed until it restarts, as with any Python program's imports (`referee.games.register`
adds a game for this process)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoints
from importlib.metadata import entry_points as _read


@cache
def _all() -> EntryPoints:
    # Every group's, once. (Python 3.11 gives them grouped, 3.12 as one EntryPoints.)
    found = _read()
    if isinstance(found, EntryPoints):
        return found
    return EntryPoints(ep for group in found.groups for ep in found.select(group=group))


def entry_points(*, group: str, name: str | None = None) -> EntryPoints:
    """The installed entry points of `group` (only the one called `name`, if given)."""
    if name is None:
        return _all().select(group=group)
    return _all().select(group=group, name=name)
