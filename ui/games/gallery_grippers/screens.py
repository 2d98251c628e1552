"""Gallery Grippers' console screens, as the app finds them (`ui.games`, entry point
``gallery-grippers`` in ``tableside_referee.screens``). The screens themselves are imported
when first shown: the console's first screen comes up sooner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from referee.games.gallery_grippers.rules.queries import Decision
from referee.games.gallery_grippers.state import GameState, Phase
from referee.session import LogEntry
from ui.games import GameScreens
from ui.games.gallery_grippers import format as fmt


def _base(s: GameState) -> type[Screen[Any]]:
    if s.phase is Phase.SETUP:
        from ui.games.gallery_grippers.hands import HandsScreen, TurnOrderScreen

        return HandsScreen if any(not p.dealt for p in s.players) else TurnOrderScreen
    from ui.games.gallery_grippers.table import TableScreen

    return TableScreen


def _dialog(decision: str) -> Callable[[str], Screen[Any]]:
    def open_(player: str) -> Screen[Any]:
        from ui.games.gallery_grippers.pending import DIALOGS

        dialog: Screen[Any] = DIALOGS[decision](player)
        return dialog

    return open_


def _announce(entry: LogEntry) -> list[Callable[[], Screen[Any]]]:
    out: list[Callable[[], Screen[Any]]] = []
    types = {e["type"] for e in entry.events}
    if "bypass" in types:
        from ui.games.gallery_grippers.pending import VerdictScreen

        out.append(lambda: VerdictScreen(entry))
    if "first_player" in types:
        from ui.games.gallery_grippers.setup import GameStartScreen

        out.append(GameStartScreen)
    return out


def _new_game() -> type[Screen[Any]]:
    from ui.games.gallery_grippers.setup import NewGameScreen

    return NewGameScreen


def _in_progress() -> Screen[str]:
    from ui.games.gallery_grippers.setup import StartScreen

    return StartScreen()


def _open_decisions(s: GameState) -> set[tuple[str, str]]:
    """The (player, decision) pairs the rules hold open that a dialog answers."""
    if s.phase is not Phase.PLAYING:
        return set()
    return {(p.player, p.decision) for p in s.pending
            if p.player and p.decision in _DIALOGS}


def _help() -> Screen[Any]:
    from ui.games.gallery_grippers.info import RulesScreen

    return RulesScreen()


def _game_over() -> Screen[Any]:
    from ui.games.gallery_grippers.info import GameOverScreen

    return GameOverScreen()


def _undo() -> Screen[Any]:
    from ui.games.gallery_grippers.info import UndoConfirm

    return UndoConfirm()


_DIALOGS: dict[str, Callable[[str], Screen[Any]]] = {
    d: _dialog(d) for d in Decision if d is not Decision.TIEBREAK}

SCREENS = GameScreens(
    base=_base,
    dialogs=_DIALOGS,
    announce=_announce,
    game_over=_game_over,
    name="Gallery Grippers",
    new_game=_new_game,
    in_progress=_in_progress,
    open_decisions=_open_decisions,
    help=_help,
    undo=_undo,
    describe=fmt.describe,
)
