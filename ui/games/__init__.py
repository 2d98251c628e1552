"""Each game's console screens, found by the game's id in the entry-point group
``tableside_referee.screens`` (as the CLI finds its subcommands): the app knows no game's
screens, and a second game's plug in the same way (pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from textual._path import CSSPathType
from textual.screen import Screen

from referee.plugins import entry_points
from referee.session import LogEntry

GROUP = "tableside_referee.screens"
DEFAULT_GAME = "gallery-grippers"


OTHER_GAMES_CSS = str(Path(__file__).with_name("art_gallerist.tcss"))


class OtherGameStyles:
    """The first base of every screen of The A.R.T. Project and The Gallerist: their rules
    are in a stylesheet of their own, which Textual adds the first time one of these screens
    is shown, not parsed and matched at every start of the console (issue 41)."""

    CSS_PATH: ClassVar[CSSPathType | None] = OTHER_GAMES_CSS


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

    base: Callable[[Any], type[Screen[Any]]]
    dialogs: Mapping[str, Callable[[str], Screen[Any]]]
    announce: Callable[[LogEntry], list[Callable[[], Screen[Any]]]]
    game_over: Callable[[], Screen[Any]]
    name: str = ""
    """The game's name, as the game chooser lists it."""
    new_game: Callable[[], type[Screen[Any]]] | None = None
    """The new-game form (a full screen); None: the console cannot start this game."""
    in_progress: Callable[[], Screen[str]] | None = None
    """The "resume or new game?" dialog shown at start over a game in progress (it returns
    "resume" or "new"); None: the console's own, from the game's `next` line."""
    open_decisions: Callable[[Any], set[tuple[str, str]]] | None = None
    """The (player, decision) pairs the rules hold open now that `dialogs` answers; None:
    every pending decision of a game in progress (player "" for the team)."""
    help: Callable[[], Screen[Any]] | None = None
    """The player aid F1 opens; None: none for this game."""
    undo: Callable[[], Screen[Any]] | None = None
    """The prompt Ctrl+Z opens (what undo would take back, and "undo?"); None: the console's
    own, in the words of the game's ruleset (`ui.base.RulesetUndoConfirm`)."""
    describe: Callable[[LogEntry], str] | None = None
    """One step of the log in words (the log shown when a screen cannot be drawn); None: the
    command as sent."""
    stylesheets: tuple[str, ...] = ()
    """Stylesheets of the game's screens beyond the console's own (the screens name them in
    their `CSS_PATH`). Textual adds a screen's stylesheet when the screen is pushed, but not
    for the first screen of all: the console names these at start when that first screen is
    this game's (`ui.app.RefereeApp`)."""


def phase_of(state: Any) -> str:
    """A game's phase as its protocol names it (``no_game`` before any game)."""
    phase = state.phase
    return str(getattr(phase, "value", phase))


def in_progress(state: Any) -> bool:
    """Whether a game is being played (set up or under way, not over)."""
    return phase_of(state) != "no_game" and not state.over


def installed_games() -> int:
    """How many games have console screens installed, without importing any of them (the
    new-game form's `F2` shows when there is more than one: asked before its first frame)."""
    return len({ep.name for ep in entry_points(group=GROUP)})


def games_with_screens() -> list[tuple[str, str]]:
    """(id, name) of every game the console can start, by name."""
    found = []
    for ep in entry_points(group=GROUP):
        try:
            screens = screens_for(ep.name)
        except (LookupError, TypeError, ImportError):
            continue
        if screens.new_game is not None:
            found.append((ep.name, screens.name or ep.name))
    return sorted(found, key=lambda g: g[1].lower())


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
