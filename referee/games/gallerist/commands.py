"""The Gallerist's commands (headless-protocol-games.md, "The Gallerist") and their parser.

Every command is one `Command`: its name, its checked fields, and the box's draw when it asked
for one (filled in by the session, so the rules never read randomness). `SCHEMA` lists each
command's fields and their kinds; a field not listed, a missing one or a value of the wrong
kind is ``bad_request`` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.dice import Roll
from referee.errors import BadRequest, CatalogError
from referee.games.gallerist.catalog import load_catalog
from referee.inputs import RequestProblem, check_request, nfc, show

# field kinds: text, int, count (whole >= 0), bool, names (list of text), players (each a name,
# or {"name", "color"} when a colour is chosen; see `seats`), rules,
# benefit, bag, text_or_list
Fields = dict[str, tuple[str, bool]]  # field: (kind, required)


def _f(required: str = "", optional: str = "", **kinds: str) -> Fields:
    out: Fields = {}
    for names, req in ((required, True), (optional, False)):
        for n in names.split():
            out[n] = (kinds.get(n, "text"), req)
    return out


SCHEMA: dict[str, Fields] = {
    "new_game": _f("players", "rules catalog bag start_player abandon", players="players",
                   rules="rules", bag="bag", abandon="bool"),
    "check": _f("item"),
    "place_start": _f("player location", "tile"),
    "move": _f("player to", "leave_assistant"),
    "location_action": _f("player"),
    "end_turn": _f("player"),
    "executive": _f("player kind"),
    "kickout_action": _f("player kind", "influence desk", influence="count", desk="bool"),
    "intermediate": _f("tile qualifying", "benefit", tile="int", qualifying="names",
                       benefit="benefit"),
    "take_ticket": _f("player colour"),
    "draw_visitor": _f("", "player colour"),
    "visitor": _f("player colour to"),
    "hire": _f("player"),
    "market": _f("player column row", "cost", column="int", cost="count"),
    "discover": _f("artist", "player fame", fame="count"),
    "commission": _f("player artist"),
    "fame": _f("artist by steps", steps="int"),
    "acquire": _f("player artist", "cost", cost="count"),
    "sell": _f("player artist", "money", money="count"),
    "money": _f("player delta", "reason", delta="int"),
    "reputation_tile": _f("player", "tile"),
    "influence": _f("player to reason", to="int"),
    "score": _f("player category money", money="count"),
    "auction_pick": _f("player easel counts_as", "value", value="count",
                       counts_as="text_or_list"),
    "final_scoring": _f(),
}


@dataclass(frozen=True)
class Command:
    """One request: `name` (the protocol's ``cmd``), its fields, and a box draw if any."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    roll: Roll | None = None
    data: Mapping[str, Any] = field(default_factory=dict)  # filled in by the box (new_game)

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)


def seats(players: Any) -> list[tuple[str, str | None]]:
    """new_game's `players` field as (name, chosen colour or None) per seat."""
    return [(p["name"], p["color"]) if isinstance(p, Mapping) else (p, None) for p in players]


def _int(value: object, where: str, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{where} must be a whole number, not {show(value)}")
    if low is not None and value < low:
        raise BadRequest(f"{where} must be {low} or more, not {value}")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{where} must be a non-empty text, not {show(value)}")
    return nfc(value.strip())


def _value(kind: str, value: object, where: str) -> Any:
    if kind == "text":
        return _text(value, where)
    if kind == "int":
        return _int(value, where)
    if kind == "count":
        return _int(value, where, 0)
    if kind == "bool":
        if not isinstance(value, bool):
            raise BadRequest(f"{where} must be true or false, not {show(value)}")
        return value
    if kind in ("names", "players"):
        if not isinstance(value, list):
            raise BadRequest(f"{where} must be a list of names, not {show(value)}")
        out: list[Any] = []
        for i, v in enumerate(value):
            if kind == "players" and isinstance(v, dict):
                if set(v) - {"name", "color"} or "name" not in v:
                    raise BadRequest(f"{where}[{i}] must be a name or {{\"name\", "
                                     "[\"color\"]}")
                name = _text(v["name"], f"{where}[{i}].name")
                if v.get("color") is None:
                    out.append(name)  # (kept as a plain name: logged as it always was)
                else:
                    out.append(MappingProxyType(
                        {"name": name, "color": _text(v["color"], f"{where}[{i}].color")}))
                continue
            out.append(_text(v, f"{where}[{i}]"))
        return tuple(out)
    if kind == "rules":
        if not isinstance(value, dict):
            raise BadRequest(f"{where} must be an object of house rules, not {show(value)}")
        return MappingProxyType(dict(value))
    if kind == "benefit":
        if not isinstance(value, dict) or set(value) - {"money", "influence"}:
            raise BadRequest(f"{where} must be {{\"money\": n, \"influence\": n}}, "
                             f"not {show(value)}")
        return MappingProxyType({k: _int(v, f"{where}.{k}", 0) for k, v in value.items()})
    if kind == "bag":
        if isinstance(value, dict):
            return MappingProxyType({_text(k, f"{where} colour"): _int(v, f"{where}.{k}", 0)
                                     for k, v in value.items()})
        return _int(value, where, 0)
    if kind == "text_or_list":
        if isinstance(value, list):
            return tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))
        return _text(value, where)
    raise AssertionError(kind)


def parse_command(request: Any) -> Command:
    """A protocol request (without ``game``) as a `Command`; raises BadRequest."""
    if not isinstance(request, dict):
        raise BadRequest("each line must be a JSON object with a 'cmd'")
    try:
        check_request(request)
    except RequestProblem as err:
        raise BadRequest(str(err)) from err
    name = request.get("cmd")
    if not isinstance(name, str) or name not in SCHEMA:
        raise BadRequest(f"unknown cmd {show(name)}; The Gallerist takes: "
                         f"{', '.join(SCHEMA)}, state, undo, reveal")
    schema = SCHEMA[name]
    unknown = sorted(set(request) - set(schema) - {"cmd"})
    if unknown:
        raise BadRequest(f"{name} does not take field(s): {show(', '.join(unknown), 80)}; "
                         f"it takes: {', '.join(schema) or 'none'}")
    args: dict[str, Any] = {}
    for key, (kind, required) in schema.items():
        if key not in request or request[key] is None:
            if required:
                raise BadRequest(f"{name} needs the field {key!r}")
            continue
        args[key] = _value(kind, request[key], f"'{key}'")
    data: dict[str, Any] = {}
    if name == "new_game" and "catalog" in args:
        try:
            data["catalog"] = load_catalog(args["catalog"]).to_json()
        except CatalogError as err:
            raise BadRequest(str(err), code="bad_catalog") from err
    return Command(name, MappingProxyType(args), data=MappingProxyType(data))


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def command_to_json(command: Command) -> dict[str, Any]:
    """The command as logged: its fields, the box's draw, the commitment and house rules (a
    catalog file is logged by its path; game_started carries what it held)."""
    data = {k: v for k, v in command.data.items() if k != "catalog"}
    out: dict[str, Any] = {"cmd": command.name, **_plain(command.args), **_plain(data)}
    if command.roll is not None:
        out["roll"] = command.roll.to_json()
    return out
