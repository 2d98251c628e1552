"""The table's current state as the box publishes it (retained, ``box/<box>/table``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.ruleset import DescribesTable

_DESCRIBES: dict[type, bool] = {}


def _describes(kind: type) -> bool:
    # (a runtime-checkable Protocol's isinstance walks the protocol's members each time:
    # asked once per ruleset class, not on every accepted command)
    found = _DESCRIBES.get(kind)
    if found is None:
        found = _DESCRIBES[kind] = all(callable(getattr(kind, name, None))
                                       for name in ("table", "verdict"))
    return found


def verdict_of(ruleset: Any, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The verdict an entry's events hold, as the ruleset words it (None: none)."""
    if not (_describes(type(ruleset)) or isinstance(ruleset, DescribesTable)):
        return None
    found = ruleset.verdict(events)
    if found is None:
        return None
    title, terms = found
    return {"title": title, "terms": [[t.label, t.value] for t in terms]}


def table_payload(game: int | None, ruleset: Any, state: Any, *, commands: int,
                  verdict: dict[str, Any] | None, at: str) -> dict[str, Any]:
    """club.md's table: ``{"game", "ruleset", "state", "next"}`` and, for the club's page,
    the game's name, the players, whose turn, whether it is over, the last verdict."""
    sj = ruleset.state_json(state)
    players = [str(p.get("name", "?")) for p in sj.get("players") or []
               if isinstance(p, Mapping)]
    return {"game": game, "ruleset": ruleset.id, "name": ruleset.name, "state": sj,
            "next": sj.get("next"), "players": players, "current": sj.get("current"),
            "over": bool(sj.get("over")), "result": sj.get("result"), "verdict": verdict,
            "commands": commands, "at": at}
