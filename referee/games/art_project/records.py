"""The Hall of Fame (ART-35): wins and losses per mission board and difficulty.

Two sources, one count:

- Within a session the state carries it (`ArtState.hall`): each ``game_started`` takes the
  record of the game before it, and each ``game_over`` adds its result, so a new game, a
  resumed one and undo all see the same table (`state.hall_of_fame`).
- Across every game in a game file, `hall_of_fame` counts them from what the store already
  keeps per game: the ruleset id, the status (``over`` / ``abandoned`` / ``playing``), the
  result envelope and the first entry's ``game_started`` event (mission, difficulty). The
  store needs no new column; a front end (or the session's ``hall_of_fame`` query, see
  docs/art-project.md) hands those rows in. An abandoned or unfinished game counts as
  neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

GAME = "art-project"


def hall_of_fame(games: Iterable[tuple[str, str, Mapping[str, Any] | None,
                                       Sequence[Mapping[str, Any]]]]) -> list[dict[str, Any]]:
    """The table from stored games: (ruleset id, status, result, first entry's events)."""
    table: dict[tuple[str, str], list[int]] = {}
    for game, status, result, events in games:
        if game != GAME or status != "over" or not result:
            continue
        started = next((e for e in events if e.get("type") == "game_started"), None)
        if started is None:
            continue
        key = (str(started["mission"]["id"]), str(started["difficulty"]))
        row = table.setdefault(key, [0, 0])
        row[0 if result.get("outcome") == "won" else 1] += 1
    return [{"mission": m, "difficulty": d, "won": w, "lost": lo}
            for (m, d), (w, lo) in sorted(table.items())]
