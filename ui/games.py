"""Each game's console screens, found by the game's id in the entry-point group
``tableside_referee.screens`` (as the CLI finds its subcommands): the app knows no game's
screens, and a second game's plug in the same way (pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from textual.screen import Screen

from referee.games.gallery_grippers.state import GameState
from referee.session import LogEntry

GROUP = "tableside_referee.screens"
DEFAULT_GAME = "gallery-grippers"


@dataclass(frozen=True)
class GameScreens:
    """What the console shows of one game.

    Attributes:
        base: the screen under every dialog that a state calls for, once a game exists.
        dialogs: for each decision the rules hold open, the dialog that answers it (given
            the player).
        announce: the screens a step announces (a bypass's verdict, the start of play).
        game_over: the result, shown once when the game ends.
    """

    base: Callable[[GameState], type[Screen[Any]]]
    dialogs: Mapping[str, Callable[[str], Screen[Any]]]
    announce: Callable[[LogEntry], list[Callable[[], Screen[Any]]]]
    game_over: Callable[[], Screen[Any]]


@cache
def screens_for(game: str = DEFAULT_GAME) -> GameScreens:
    """The installed console screens of `game`; a clear error if there are none."""
    for ep in entry_points(group=GROUP, name=game):
        found = ep.load()
        if not isinstance(found, GameScreens):
            raise TypeError(f"entry point {game} in {GROUP} is not a GameScreens")
        return found
    raise LookupError(f"No console screens are installed for the game {game!r} "
                      f"(entry-point group {GROUP}); reinstall the referee.")
