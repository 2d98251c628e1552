"""The game state: immutable values, folded forward from events by `evolve`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from referee.games.gallery_grippers.catalog import Art, Catalog
from referee.games.gallery_grippers.settings import HouseRules

ACTIVE, OUT, WINNER = "active", "out", "winner"


class Phase(Enum):
    """Where the game stands. Transitions are listed once, in `TRANSITIONS`."""

    NO_GAME = "no_game"
    SETUP = "setup"  # hands dealt (GG-1), then the turn-order roll (GG-3)
    PLAYING = "playing"
    OVER = "over"


TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.NO_GAME: frozenset({Phase.SETUP}),
    Phase.SETUP: frozenset({Phase.SETUP, Phase.PLAYING}),
    Phase.PLAYING: frozenset({Phase.SETUP, Phase.OVER}),  # SETUP: a new game abandons this one
    Phase.OVER: frozenset({Phase.SETUP}),
}


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player: strikes, status, where they are, hand, held art and money."""

    name: str
    color: str
    strikes: int = 0
    status: str = ACTIVE
    where: str | None = None  # None: outside; else the museum's name
    specialists: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    art: tuple[Art, ...] = ()
    money: int = 0
    dealt: bool = False
    reset_on_roll: bool = False  # left the premises after a 2nd strike (GG-10)

    @property
    def hand_size(self) -> int:
        return len(self.specialists) + len(self.attributes)

    @property
    def deduction(self) -> int:
        return sum(a.deduction for a in self.art)


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision that must be answered before play goes on."""

    player: str | None
    decision: str  # tiebreak, obstacle, caught, second_strike, reup, draw
    options: tuple[str, ...]
    info: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "decision": self.decision, "options": list(self.options),
                **self.info}


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """What happened so far in the current player's turn."""

    moved: bool = False
    rolled: int | None = None  # the movement roll, once made (move_roll or move)
    tile: str | None = None
    museum: str | None = None
    stolen: bool = False


Counts = Mapping[str, int]  # card name -> copies


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment; `evolve` makes the next one from events."""

    catalog: Catalog
    rules: HouseRules = field(default_factory=HouseRules)
    phase: Phase = Phase.NO_GAME
    players: tuple[PlayerState, ...] = ()
    current: int | None = None
    turn: TurnInfo = field(default_factory=TurnInfo)
    turn_number: int = 0
    round: int = 0  # 1 from the first turn on; +1 each time play comes round to the first seat
    museums: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    piles: Mapping[str, Counts] = field(default_factory=dict)  # deck -> draw pile
    discards: Mapping[str, Counts] = field(default_factory=dict)  # deck -> discard pile
    pending: tuple[Pending, ...] = ()
    first_player: str | None = None
    winner: str | None = None
    over_reason: str | None = None
    over_rule: str | None = None  # the rule that ended the game (GG-14, GG-16)
    commitment: str | None = None
    seed: str | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def current_player(self) -> PlayerState | None:
        return None if self.current is None else self.players[self.current]

    def index_of(self, name: str) -> int | None:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        return None

    def player(self, name: str) -> PlayerState:
        i = self.index_of(name)
        if i is None:
            raise KeyError(name)
        return self.players[i]

    def pending_for(self, name: str | None) -> tuple[Pending, ...]:
        return tuple(p for p in self.pending if p.player == name)

    def active_players(self) -> tuple[PlayerState, ...]:
        return tuple(p for p in self.players if p.status == ACTIVE)


def initial_state(catalog: Catalog) -> GameState:
    return GameState(catalog=catalog)


def pile_list(counts: Counts) -> list[str]:
    """The pile as a sorted list of copies: the order a box draw's `pick` indexes into."""
    return [name for name in sorted(counts) for _ in range(counts[name])]


def art_json(art: Art) -> dict[str, Any]:
    return {"name": art.name, "museum": art.museum, "value": art.value,
            "deduction": art.deduction}


def state_to_json(s: GameState) -> dict[str, Any]:
    """The protocol's state object (headless-protocol.md), plus a few extra fields."""
    cur = s.current_player
    return {
        "players": [
            {"name": p.name, "color": p.color, "strikes": p.strikes, "status": p.status,
             "where": p.where or "outside",
             "hand": {"specialists": list(p.specialists), "attributes": list(p.attributes)},
             "art": [art_json(a) for a in p.art], "money": p.money,
             "dealt": p.dealt, "strikes_reset_at_next_roll": p.reset_on_roll}
            for p in s.players
        ],
        "current": cur.name if cur else None,
        "winner": s.winner,
        "over": s.over,
        "commitment": s.commitment,
        "seed": s.seed,
        "pending": [p.to_json() for p in s.pending],
        "museums": {m: list(pieces) for m, pieces in s.museums.items()},
        # additions (the contract allows new fields)
        "phase": s.phase.value,
        "turn_number": s.turn_number,
        "round": s.round,
        "turn": {"moved": s.turn.moved, "rolled": s.turn.rolled, "tile": s.turn.tile,
                 "museum": s.turn.museum, "stolen": s.turn.stolen},
        "first_player": s.first_player,
        "over_reason": s.over_reason,
        "decks": {deck: {"draw": sum(s.piles.get(deck, {}).values()),
                         "discard": sum(s.discards.get(deck, {}).values())}
                  for deck in ("specialist", "attribute")},
        "rules": s.rules.to_json(),
    }
