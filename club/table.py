"""The table's current state as the box publishes it (retained, ``box/<box>/table``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


# What the club reads of a box's table (issue 40): each field's type and, for text, its most
# characters; other fields are dropped. `state` and `result` are the game's own JSON, bounded
# by the message's size (club.topics.MESSAGE_BYTES).
TEXT_MOST = 1000  # a sentence such as the next step, or a verdict's figure (generous: a
# refused table leaves the page's row as it was)
NAME_MOST = 200
PLAYERS_MOST = 32
TERMS_MOST = 32
_SCALAR = (str, int, float, bool, type(None))


def _text(value: Any, most: int = TEXT_MOST) -> bool:
    return isinstance(value, str) and len(value) <= most


def _short(value: Any) -> bool:
    """A scalar (text at most `TEXT_MOST` characters), or nothing."""
    return isinstance(value, _SCALAR) and (not isinstance(value, str) or _text(value))


def _verdict(value: Any) -> bool:
    if value is None:
        return True
    if not isinstance(value, dict) or not _text(value.get("title"), NAME_MOST):
        return False
    terms = value.get("terms", [])
    return (isinstance(terms, list) and len(terms) <= TERMS_MOST
            and all(isinstance(t, list) and len(t) == 2 and all(_short(x) for x in t)
                    for t in terms))


TABLE_FIELDS: dict[str, Callable[[Any], bool]] = {
    "game": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    "ruleset": lambda v: v is None or _text(v, 64),
    "name": lambda v: v is None or _text(v, NAME_MOST),
    "state": lambda v: v is None or isinstance(v, dict),
    "next": _short,
    "players": lambda v: v is None or (isinstance(v, list) and len(v) <= PLAYERS_MOST
                                       and all(_text(p, 64) for p in v)),
    "current": _short,
    "over": lambda v: v is None or isinstance(v, bool),
    "result": lambda v: v is None or isinstance(v, dict),
    "verdict": _verdict,
    "commands": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)
                                        and v >= 0),
    "at": lambda v: v is None or _text(v, 64),
    "file": lambda v: v is None or _text(v, 64),
}


def checked_table(payload: Any) -> tuple[dict[str, Any] | None, str]:
    """A box's table as the club keeps it: its known fields, each checked (`TABLE_FIELDS`);
    or (None, what is wrong)."""
    if not isinstance(payload, dict):
        return None, "a table that is not a JSON object"
    for name, good in TABLE_FIELDS.items():
        if not good(payload.get(name)):
            return None, f"a table whose {name!r} is not what a table holds"
    return {k: v for k, v in payload.items() if k in TABLE_FIELDS}, ""


def checked_presence(payload: Any) -> tuple[dict[str, Any] | None, str]:
    """A box's ``online`` message (``{"online": bool, "at": text}``), or (None, why not)."""
    if (not isinstance(payload, dict) or not isinstance(payload.get("online"), bool)
            or not (payload.get("at") is None or _text(payload.get("at"), 64))):
        return None, 'a presence that is not {"online": true|false, "at": time}'
    return {"online": payload["online"], "at": payload.get("at")}, ""
