"""The A.R.T. Project's console screens, as the app finds them (`ui.games`, entry point
``art-project`` in ``tableside_referee.screens``).

Every figure shown is the ruleset's (`state_json`: the counts, the track's threat and ally
cost, the battle's verdict term by term, the `next` line) and every action offered is one of
its legal actions (`legal_actions`); the screens decide no rule. The screens themselves are
imported when first shown; what they share is `ui.games.art_project.common`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from referee.session import LogEntry
from ui.games import OTHER_GAMES_CSS, GameScreens, in_progress

GAME = "art-project"
# The decisions the rules may hold open (state_json's `pending`), each answered in a dialog.
CHOICES = ("uncover_order", "uncover_island", "collect_order", "lose_resources",
           "lose_clue", "effect_health", "clue_set")
DECISIONS = (*CHOICES, "battle")


def _base(_: Any) -> type[Screen[Any]]:
    from ui.games.art_project.table import ArtTableScreen

    return ArtTableScreen


def _dialog(decision: str) -> Callable[[str], Screen[Any]]:
    def open_(player: str) -> Screen[Any]:
        from ui.games.art_project.dialogs import BattleDialog, ChooseDialog

        if decision == "battle":
            return BattleDialog(player)
        return ChooseDialog(player, decision)

    return open_


def _announce(entry: LogEntry) -> list[Callable[[], Screen[Any]]]:
    """A battle that ended in this step (won, or conceded) shows its verdict."""
    verdicts = [e for e in entry.events if e["type"] == "battle"]
    ended = any(e["type"] in ("agents_cleared", "battle_conceded") for e in entry.events)
    if not verdicts or not ended:
        return []
    from ui.games.art_project.dialogs import VerdictScreen

    last = verdicts[-1]
    conceded = any(e["type"] == "battle_conceded" for e in entry.events)
    collected = any(e["type"] == "collected" and e["city"] == last["city"]
                    for e in entry.events)
    return [lambda: VerdictScreen(last, conceded, collected)]


def _game_over() -> Screen[Any]:
    from ui.games.art_project.dialogs import ArtGameOverScreen

    return ArtGameOverScreen()


def _new_game() -> type[Screen[Any]]:
    from ui.games.art_project.setup import ArtNewGameScreen

    return ArtNewGameScreen


def _open_decisions(state: Any) -> set[tuple[str, str]]:
    if not in_progress(state):
        return set()
    from referee import games

    pending = games.find(GAME).state_json(state)["pending"]
    return {(str(p["player"] or ""), str(p["decision"])) for p in pending
            if p["decision"] in DECISIONS}


def _help() -> Screen[Any]:
    from ui.games.art_project.help import ArtHelpScreen

    return ArtHelpScreen()


def _undo() -> Screen[Any]:
    from ui.games.art_project.dialogs import ArtUndoConfirm

    return ArtUndoConfirm()


SCREENS = GameScreens(
    stylesheets=(OTHER_GAMES_CSS,),
    base=_base,
    dialogs={d: _dialog(d) for d in DECISIONS},
    announce=_announce,
    game_over=_game_over,
    name="The A.R.T. Project",
    new_game=_new_game,
    open_decisions=_open_decisions,
    help=_help,
    undo=_undo,
)
