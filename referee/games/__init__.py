"""The registry of games: a ruleset is found by its id, never imported by name.

Installed games are the ``tableside_referee.games`` entry points (pyproject.toml), as the
CLI's subcommands are ``tableside_referee.commands``: each names a `referee.ruleset.Ruleset`
value whose ``id`` is the entry point's name. `register` adds one for this process only (tests,
or a game being written). See docs/architecture.md, "Adding a game".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from referee.errors import BadRequest
from referee.plugins import entry_points
from referee.ruleset import Ruleset

GROUP = "tableside_referee.games"
DEFAULT_GAME = "gallery-grippers"

_registered: dict[str, Ruleset] = {}
_loaded: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Callable[[], None]:
    """Make `ruleset` findable by its id in this process; returns the undo of that."""
    _registered[ruleset.id] = ruleset

    def unregister() -> None:
        if _registered.get(ruleset.id) is ruleset:
            del _registered[ruleset.id]
    return unregister


@cache
def _installed() -> frozenset[str]:
    """The installed games' ids, read once a process: reading the entry points scans every
    installed distribution's metadata (about 3 ms with this project's dependencies), and a
    session asks which game answers a request on every command (`Session._query_owner`)."""
    return frozenset(ep.name for ep in entry_points(group=GROUP))


def available() -> list[str]:
    """The ids of every game this referee can run."""
    return sorted({*_registered, *_installed()})


def find(game: object) -> Ruleset:
    """The ruleset whose id is `game`; raises `BadRequest` naming the games there are."""
    if isinstance(game, str):
        if game in _registered:
            return _registered[game]
        if game in _loaded:
            return _loaded[game]
        for ep in entry_points(group=GROUP, name=game):
            ruleset: Ruleset = ep.load()
            if getattr(ruleset, "id", None) != game:
                raise TypeError(f"entry point {ep.name} ({ep.value}) is not the ruleset "
                                f"{game!r}")
            _loaded[game] = ruleset
            return ruleset
    raise BadRequest(f"unknown game {game!r}; this referee plays: {', '.join(available())}")


def default() -> Ruleset:
    """Gallery Grippers, the game a session plays unless told otherwise."""
    return find(DEFAULT_GAME)
