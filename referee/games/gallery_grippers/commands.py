"""Commands: one frozen dataclass each, and the parser from protocol dicts.

A command says what a player (or the table) wants; the rules decide whether it happens. Dice
arrive inside commands as `Roll` values: physical ones from the request, electronic ones filled
in by the session before the rules see them, so the rules never read randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from referee.dice import Roll
from referee.errors import BadRequest
from referee.inputs import RequestProblem, check_request, nfc, show
from referee.ruleset import Reveal, Undo

__all__ = [  # Roll, Undo and Reveal are the core's (every game has them); named here too
    "Bypass", "Choose", "Command", "Deal", "Draw", "EndTurn", "FreeRoll", "Move", "MoveRoll",
    "NewGame", "PlayerSpec", "Reup", "Reveal", "Roll", "Sell", "Steal", "Tiebreak", "Trade",
    "TurnOrder", "Undo", "command_name", "command_to_json", "parse_command",
]

TILES = (
    "airport", "recruitment", "security", "alarm", "trading", "art", "exit", "black_market",
    "plain",
)
DICE = ("d6", "d10", "d100")
DECKS = ("specialist", "attribute")
CHOICES = ("ditch", "keep", "leave", "reenter")
VIAS = ("typed", "tray")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A seat at the table: the player's name and, optionally, their colour."""

    name: str
    color: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """``new_game``: seat the players (in seating order) under these house rules (GG-1)."""

    players: tuple[PlayerSpec, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)
    abandon: bool = False  # the protocol's flag, read by the session (Session.apply)
    commitment: str | None = None  # filled in by the session from the game's seed


@dataclass(frozen=True, slots=True)
class Deal:
    """``deal``: a player's starting hand, taken from the decks (GG-1)."""

    player: str
    specialists: tuple[str, ...]
    attributes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnOrder:
    """``turn_order``: everyone rolls a d6; the highest goes first (GG-3)."""

    rolls: Mapping[str, Roll] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """``tiebreak``: who won the tie for first (rock-paper-scissors at the table, GG-3)."""

    winner: str


@dataclass(frozen=True, slots=True)
class FreeRoll:
    """``roll``: a die rolled for the table, outside the rules (it changes nothing)."""

    die: str
    roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """``move``: roll the movement d6 (unless already rolled) and move to a tile (GG-4)."""

    player: str
    tile: str
    museum: str | None = None
    roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class MoveRoll:
    """The movement roll on its own, before the pawn is moved (the table must see it)."""

    player: str
    roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class Bypass:
    """``bypass``: meet an obstacle with at most one specialist and one attribute (GG-6..8)."""

    player: str
    specialist: tuple[str, ...] = ()
    attribute: tuple[str, ...] = ()
    roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class Choose:
    """``choose``: answer a pending decision (caught with art, a second strike: GG-10)."""

    player: str
    choice: str


@dataclass(frozen=True, slots=True)
class Steal:
    """``steal``: take a piece still in the museum, at its art quadrant (GG-11)."""

    player: str
    art: str


@dataclass(frozen=True, slots=True)
class Sell:
    """``sell``: sell held art at the black market, all of it unless named (GG-13)."""

    player: str
    art: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """``draw``: take a card from the named deck, at recruitment (GG-4, GG-17)."""

    player: str
    deck: str
    card: str | None = None
    pick: Roll | None = None  # filled in by the session when the box draws


@dataclass(frozen=True, slots=True)
class Reup:
    """``reup``: a short hand rolls a d6 and draws that many cards (GG-18)."""

    player: str
    roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class Trade:
    """``trade``: two players swap attribute cards at the trading post (GG-4)."""

    giver: str
    taker: str
    give: tuple[str, ...] = ()
    get: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EndTurn:
    """``end_turn``: the current player is done; play passes to the next one still in."""

    player: str


Command = (
    NewGame | Deal | TurnOrder | Tiebreak | FreeRoll | MoveRoll | Move | Bypass | Choose
    | Steal | Sell | Draw | Reup | Trade | EndTurn | Undo | Reveal
)

# Protocol names of every command, for messages and for `command_name`.
NAMES: dict[type, str] = {
    NewGame: "new_game", Deal: "deal", TurnOrder: "turn_order", Tiebreak: "tiebreak",
    FreeRoll: "roll", MoveRoll: "move_roll", Move: "move", Bypass: "bypass",
    Choose: "choose", Steal: "steal",
    Sell: "sell", Draw: "draw", Reup: "reup", Trade: "trade", EndTurn: "end_turn", Undo: "undo",
    Reveal: "reveal",
}
QUERIES = ("state", "catalog")


def command_name(cmd: Command) -> str:
    return NAMES[type(cmd)]


# ---- parsing -----------------------------------------------------------------------------

def _text(name: str, value: Any) -> str:
    """Stripped and composed (NFC): one name is spelt one way, whatever keyboard typed it."""
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"'{name}' must be a non-empty string")
    return nfc(value.strip())


def _bool(name: str, value: Any) -> bool:
    """An optional flag: JSON true or false (null or absent is false), nothing else."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise BadRequest(f"'{name}' must be true or false (not {show(value)})")
    return value


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"'{name}' must be a whole number")
    return value


def _names(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise BadRequest(f"'{name}' must be a list of names")
    return tuple(_text(f"{name}[{i}]", v) for i, v in enumerate(value))


def _one_of(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise BadRequest(f"'{name}' must be one of {', '.join(allowed)} (got {show(value)})")
    return str(value)


def _cards(name: str, value: Any) -> tuple[str, ...]:
    """A card field: a name, or a list (so that two cards can be refused by the rules)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (_text(name, value),)
    return _names(name, value)


def _via(req: Mapping[str, Any]) -> str:
    return _one_of("via", req.get("via", "typed"), VIAS)


def _roll(die: str, value: Any, req: Mapping[str, Any], name: str = "roll") -> Roll | None:
    if value is None:
        return None
    return Roll.physical(die, _int(name, value), via=_via(req))


def _players(value: Any) -> tuple[PlayerSpec, ...]:
    if not isinstance(value, list) or not value:
        raise BadRequest("'players' must be a non-empty list of {\"name\", [\"color\"]}")
    specs = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict):
            raise BadRequest(f"players[{i}] must be an object with a 'name'")
        unknown = set(item) - {"name", "color"}
        if unknown:
            raise BadRequest(f"players[{i}] has unknown field(s): {', '.join(sorted(unknown))}")
        color = item.get("color")
        specs.append(PlayerSpec(
            name=_text(f"players[{i}].name", item.get("name")),
            color=None if color is None else _text(f"players[{i}].color", color),
        ))
    return tuple(specs)


def _rules(value: Any) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest("'rules' must be an object of house-rule overrides")
    return dict(value)


def _turn_rolls(value: Any, req: Mapping[str, Any]) -> Mapping[str, Roll]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest("'rolls' must be an object {player name: d6 value}")
    return {_text("rolls key", k): Roll.physical("d6", _int(f"rolls[{k}]", v), via=_via(req))
            for k, v in value.items()}


Parser = Callable[[Mapping[str, Any]], Command]


# cmd -> (required fields, optional fields, builder)
_SCHEMA: dict[str, tuple[tuple[str, ...], tuple[str, ...], Parser]] = {
    "new_game": (("players",), ("rules", "abandon"), lambda r: NewGame(
        players=_players(r["players"]), rules=_rules(r.get("rules")),
        abandon=_bool("abandon", r.get("abandon")))),
    "deal": (("player", "specialists", "attributes"), (), lambda r: Deal(
        player=_text("player", r["player"]), specialists=_names("specialists", r["specialists"]),
        attributes=_names("attributes", r["attributes"]))),
    "turn_order": ((), ("rolls", "via"), lambda r: TurnOrder(
        rolls=_turn_rolls(r.get("rolls"), r))),
    "tiebreak": (("winner",), (), lambda r: Tiebreak(winner=_text("winner", r["winner"]))),
    "roll": (("die",), ("value", "via"), lambda r: FreeRoll(
        die=_one_of("die", r["die"], DICE),
        roll=_roll(str(r["die"]), r.get("value"), r, "value"))),
    "move": (("player", "tile"), ("roll", "museum", "via"), lambda r: Move(
        player=_text("player", r["player"]), tile=_one_of("tile", r["tile"], TILES),
        museum=None if r.get("museum") is None else _text("museum", r["museum"]),
        roll=_roll("d6", r.get("roll"), r))),
    "move_roll": (("player",), ("roll", "via"), lambda r: MoveRoll(
        player=_text("player", r["player"]), roll=_roll("d6", r.get("roll"), r))),
    "bypass": (("player",), ("specialist", "attribute", "roll", "via"), lambda r: Bypass(
        player=_text("player", r["player"]), specialist=_cards("specialist", r.get("specialist")),
        attribute=_cards("attribute", r.get("attribute")), roll=_roll("d100", r.get("roll"), r))),
    "choose": (("player", "choice"), (), lambda r: Choose(
        player=_text("player", r["player"]), choice=_one_of("choice", r["choice"], CHOICES))),
    "steal": (("player", "art"), (), lambda r: Steal(
        player=_text("player", r["player"]), art=_text("art", r["art"]))),
    "sell": (("player",), ("art",), lambda r: Sell(
        player=_text("player", r["player"]),
        art=None if r.get("art") is None else _names("art", r["art"]))),
    "draw": (("player", "deck"), ("card",), lambda r: Draw(
        player=_text("player", r["player"]), deck=_one_of("deck", r["deck"], DECKS),
        card=None if r.get("card") is None else _text("card", r["card"]))),
    "reup": (("player",), ("roll", "via"), lambda r: Reup(
        player=_text("player", r["player"]), roll=_roll("d6", r.get("roll"), r))),
    "trade": (("from", "to", "give", "get"), (), lambda r: Trade(
        giver=_text("from", r["from"]), taker=_text("to", r["to"]),
        give=_names("give", r["give"]), get=_names("get", r["get"]))),
    "end_turn": (("player",), (), lambda r: EndTurn(player=_text("player", r["player"]))),
    "undo": ((), (), lambda r: Undo()),
    "reveal": ((), (), lambda r: Reveal()),
}


def parse_command(request: Any) -> Command:
    """Turn one protocol request into a command; raises `BadRequest` naming what is wrong.
    Required fields may not be null; a null optional field counts as not given."""
    if not isinstance(request, dict):
        raise BadRequest("each line must be a JSON object with a 'cmd'")
    try:
        check_request(request)
    except RequestProblem as err:
        raise BadRequest(str(err)) from err
    name = request.get("cmd")
    if not isinstance(name, str) or name not in _SCHEMA:
        known = ", ".join([*_SCHEMA, *QUERIES])
        raise BadRequest(f"unknown cmd {show(name)}; known: {known}")
    required, optional, build = _SCHEMA[name]
    missing = [f for f in required if request.get(f) is None]
    if missing:
        raise BadRequest(f"{name}: missing field(s): {', '.join(missing)}")
    unknown = sorted(set(request) - {"cmd", *required, *optional})
    if unknown:
        raise BadRequest(f"{name} does not take field(s): {show(', '.join(unknown), 80)}")
    return build(request)


def command_to_json(cmd: Command) -> dict[str, Any]:
    """The command as it is logged: protocol names, with the filled-in dice and commitment."""
    out: dict[str, Any] = {"cmd": command_name(cmd)}
    for f in fields(cmd):
        value = getattr(cmd, f.name)
        key = {"giver": "from", "taker": "to"}.get(f.name, f.name)
        if isinstance(value, Roll):
            value = value.to_json()
        elif isinstance(value, tuple):
            value = [asdict(v) if isinstance(v, PlayerSpec) else v for v in value]
        elif isinstance(value, Mapping):
            value = {k: (v.to_json() if isinstance(v, Roll) else v) for k, v in value.items()}
        out[key] = value
    return out
