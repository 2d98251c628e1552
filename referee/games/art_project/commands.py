"""The A.R.T. Project's commands (headless-protocol-games.md), one frozen dataclass each,
and the parser from protocol dicts (raises `BadRequest` naming what is wrong).

No turns: every command names who acts. Dice arrive as `Roll` values keyed by die id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from referee.dice import Roll
from referee.errors import BadRequest, CatalogError, RuleViolation
from referee.games.art_project.catalog import ArtCatalog, Mission, load_catalog
from referee.inputs import RequestProblem, check_request, nfc, show
from referee.ruleset import Reveal, Undo

PAYS = ("fuel", "radio", "weapon", "health")
VIAS = ("typed", "tray")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    name: str
    color: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    players: tuple[PlayerSpec, ...]
    mission: str
    difficulty: str
    ally: str | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    abandon: bool = False  # the protocol's flag, read by the session (Session.apply)
    catalog: ArtCatalog | None = None  # read from `catalog` (a path) once, at parse time
    commitment: str | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    final: bool = False


@dataclass(frozen=True, slots=True)
class ExtraDraw:
    player: str
    pay: str


@dataclass(frozen=True, slots=True)
class PlayCard:
    player: str
    spend: Mapping[str, int] = field(default_factory=dict)
    agents: tuple[tuple[str, int], ...] = ()  # in the order sent
    gain: Mapping[str, int] = field(default_factory=dict)
    gain_health: tuple[tuple[str, int], ...] = ()  # (recipient, n); "" = the player
    clues: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    to: str
    health: int = 0
    ally: bool = False
    carry: bool = False


@dataclass(frozen=True, slots=True)
class UnlockAlly:
    health: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Battle:
    city: str
    leader: str
    rolls: Mapping[str, Roll] = field(default_factory=dict)
    participants: tuple[str, ...] | None = None  # battle_participants = "declared"


@dataclass(frozen=True, slots=True)
class Reroll:
    card: str
    dice: tuple[str, ...]
    rolls: Mapping[str, Roll] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Weapon:
    player: str
    health: int = 0


@dataclass(frozen=True, slots=True)
class Concede:
    pass


@dataclass(frozen=True, slots=True)
class EndPhase:
    pass


@dataclass(frozen=True, slots=True)
class GiveClue:
    giver: str
    taker: str
    card: str


@dataclass(frozen=True, slots=True)
class PlaceAgents:
    """Rio's setup: a player's agents, by district (ART-33)."""

    player: str
    agents: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Choose:
    choice: str
    player: str | None = None


Command = (NewGame | Draw | ExtraDraw | PlayCard | Move | UnlockAlly | Battle | Reroll | Weapon
           | Concede | EndPhase | GiveClue | Choose | PlaceAgents | Undo | Reveal)

NAMES: dict[type, str] = {
    NewGame: "new_game", Draw: "draw", ExtraDraw: "extra_draw", PlayCard: "play_card",
    Move: "move", UnlockAlly: "unlock_ally", Battle: "battle", Reroll: "reroll",
    Weapon: "weapon", Concede: "concede", EndPhase: "end_phase", GiveClue: "give_clue",
    Choose: "choose", PlaceAgents: "place_agents", Undo: "undo", Reveal: "reveal",
}
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # (required, optional)
    "new_game": (("players", "mission", "difficulty"), ("ally", "rules", "abandon", "catalog")),
    "draw": (("player",), ("final",)),
    "extra_draw": (("player", "pay"), ()),
    "play_card": (("player",), ("spend", "agents", "gain", "clues")),
    "move": (("player", "to"), ("health", "ally", "carry")),
    "unlock_ally": ((), ("health",)),
    "battle": (("city", "leader"), ("rolls", "participants")),
    "reroll": (("card", "dice"), ("rolls",)),
    "weapon": (("player",), ("health",)),
    "concede": ((), ()), "end_phase": ((), ()),
    "give_clue": (("from", "to", "card"), ()),
    "choose": (("choice",), ("player",)),
    "place_agents": (("player", "agents"), ()),
}


def command_name(command: Command) -> str:
    return NAMES[type(command)]


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"'{name}' must be a non-empty string")
    return nfc(value.strip())


def _count(name: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value > 99:
        raise BadRequest(f"'{name}' must be a whole number from {low} to 99, not {show(value)}")
    return value


def _carry(value: Any) -> bool:
    """Rio: a pawn takes a single artwork along (ART-33); asking for more is refused."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 1:
        raise RuleViolation(f"A pawn carries a single artwork as it moves, not {value}: send "
                            "carry: true.", code="one_artwork", rule="ART-33")
    return _bool("carry", value)


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadRequest(f"'{name}' must be true or false")
    return value


def _counts(name: str, value: Any, keys: tuple[str, ...] | None = None) -> dict[str, int]:
    if not isinstance(value, dict):
        raise BadRequest(f"'{name}' must be an object {{name: count}}")
    out: dict[str, int] = {}
    for k, v in value.items():
        key = _text(f"{name} key", k)
        if keys is not None and key not in keys:
            raise BadRequest(f"'{name}' takes {', '.join(keys)}, not {show(key)}")
        out[key] = _count(f"{name}.{key}", v)
    return out


def _rolls(value: Any) -> dict[str, Roll]:
    if not isinstance(value, dict):
        raise BadRequest("'rolls' must be an object {die id: value}")
    return {_text("rolls key", k): Roll.physical("d6", _count(f"rolls.{k}", v))
            for k, v in value.items()}


def _names(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise BadRequest(f"'{name}' must be a list of names")
    return tuple(_text(name, v) for v in value)


def _new_game(r: dict[str, Any]) -> NewGame:
    players = r["players"]
    if not isinstance(players, list):
        raise BadRequest("'players' must be a list of {\"name\", [\"color\"]}")
    specs = []
    for i, p in enumerate(players):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict) or set(p) - {"name", "color"} or "name" not in p:
            raise BadRequest(f"players[{i}] must be {{\"name\", [\"color\"]}}")
        specs.append(PlayerSpec(_text(f"players[{i}].name", p["name"]),
                                None if p.get("color") is None
                                else _text(f"players[{i}].color", p["color"])))
    rules = r.get("rules", {})
    if not isinstance(rules, dict):
        raise BadRequest("'rules' must be an object of house rules")
    catalog = None
    if r.get("catalog") is not None:
        try:
            catalog = load_catalog(_text("catalog", r["catalog"]))
        except CatalogError as err:
            raise BadRequest(str(err), code="bad_catalog") from err
    return NewGame(tuple(specs), _text("mission", r["mission"]),
                   _text("difficulty", r["difficulty"]),
                   None if r.get("ally") is None else _text("ally", r["ally"]), dict(rules),
                   _bool("abandon", r.get("abandon", False)), catalog)


def _play_card(r: dict[str, Any]) -> PlayCard:
    gain = r.get("gain", {})
    if not isinstance(gain, dict):
        raise BadRequest("'gain' must be an object {fuel|radio|weapon: n, health: n or {name: n}}")
    health = gain.get("health", 0)
    who: tuple[tuple[str, int], ...] = ()
    if isinstance(health, dict):
        who = tuple(_counts("gain.health", health).items())
    elif health:
        who = (("", _count("gain.health", health)),)
    agents = r.get("agents", {})
    clues = r.get("clues", [])
    if not isinstance(clues, list) or len(clues) > 2:
        raise BadRequest("'clues' must be a list of at most 2 symbols")
    return PlayCard(_text("player", r["player"]),
                    _counts("spend", r.get("spend", {}), ("fuel", "radio", "weapon")),
                    tuple(_counts("agents", agents).items()),
                    _counts("gain", {k: v for k, v in gain.items() if k != "health"},
                            ("fuel", "radio", "weapon")),
                    who, tuple(_text("clues", c) for c in clues))


def parse_command(request: Any) -> Command:
    if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
        raise BadRequest("each line must be a JSON object with a \"cmd\"")
    try:
        check_request(request)
    except RequestProblem as err:
        raise BadRequest(str(err)) from err
    name = request["cmd"]
    if name not in _FIELDS:
        raise BadRequest(f"unknown cmd {show(name)}; The A.R.T. Project takes "
                         f"{', '.join(_FIELDS)}, undo, reveal, state, catalog")
    required, optional = _FIELDS[name]
    missing = [f for f in required if f not in request]
    unknown = sorted(set(request) - {"cmd", *required, *optional})
    if missing:
        raise BadRequest(f"{name} needs the field(s): {', '.join(missing)}")
    if unknown:
        raise BadRequest(f"{name} does not take field(s): {show(', '.join(unknown), 80)}")
    r = request
    if name == "new_game":
        return _new_game(r)
    if name == "play_card":
        return _play_card(r)
    simple: dict[str, Any] = {
        "draw": lambda: Draw(_text("player", r["player"]), _bool("final", r.get("final", False))),
        "extra_draw": lambda: ExtraDraw(_text("player", r["player"]), _pay(r["pay"])),
        "move": lambda: Move(_text("player", r["player"]), _text("to", r["to"]),
                             _count("health", r.get("health", 0)),
                             _bool("ally", r.get("ally", False)),
                             _carry(r.get("carry", False))),
        "unlock_ally": lambda: UnlockAlly(_counts("health", r.get("health", {}))),
        "battle": lambda: Battle(_text("city", r["city"]), _text("leader", r["leader"]),
                                 _rolls(r.get("rolls", {})),
                                 None if r.get("participants") is None
                                 else _names("participants", r["participants"])),
        "reroll": lambda: Reroll(_text("card", r["card"]), _names("dice", r["dice"]),
                                 _rolls(r.get("rolls", {}))),
        "weapon": lambda: Weapon(_text("player", r["player"]), _count("health",
                                                                      r.get("health", 0))),
        "concede": Concede, "end_phase": EndPhase,
        "give_clue": lambda: GiveClue(_text("from", r["from"]), _text("to", r["to"]),
                                      _text("card", r["card"])),
        "place_agents": lambda: PlaceAgents(_text("player", r["player"]),
                                            tuple(_counts("agents", r["agents"]).items())),
        "choose": lambda: Choose(_text("choice", r["choice"]),
                                 None if r.get("player") is None
                                 else _text("player", r["player"])),
    }
    result: Command = simple[name]()
    return result


def _pay(value: Any) -> str:
    if value not in PAYS:
        raise BadRequest(f"'pay' must be one of {', '.join(PAYS)}, not {show(value)}")
    return str(value)


def command_to_json(command: Command) -> dict[str, Any]:
    """The command as logged: what was asked, with the dice filled in."""
    name = command_name(command)
    if isinstance(command, NewGame):
        out: dict[str, Any] = {
            "cmd": name, "players": [asdict(p) for p in command.players],
            "mission": command.mission, "difficulty": command.difficulty,
            "ally": command.ally, "rules": dict(command.rules), "abandon": command.abandon,
            "commitment": command.commitment}
        if command.catalog is not None:
            out["catalog"] = command.catalog.source
        return out
    if isinstance(command, PlayCard):
        health: Any = {k or command.player: n for k, n in command.gain_health}
        return {"cmd": name, "player": command.player, "spend": dict(command.spend),
                "agents": dict(command.agents), "gain": {**command.gain, "health": health},
                "clues": list(command.clues)}
    out = {"cmd": name}
    for f in fields(command):
        value = getattr(command, f.name)
        key = {"giver": "from", "taker": "to"}.get(f.name, f.name)
        if f.name == "rolls":
            value = {k: v.to_json() for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        out[key] = value
    return out


def mission_of(command: NewGame, catalog: ArtCatalog) -> Mission | None:
    return (command.catalog or catalog).missions.get(command.mission)
