"""The Gallerist's state: frozen values, changed only by `evolve` (events in, a new state out).

What the box keeps is the-gallerist-scoring.md's "Pieces the box tracks": per player money,
influence, assistants, the gallerist, works, visitors; the artists, the box office, the bag,
goal tiles; and the clock (round, whose turn, what the turn has done, the after-turn queue,
the end trigger, the final round) and the final scoring's entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from referee.games.gallerist.catalog import Catalog
from referee.games.gallerist.settings import GalleristRules

GALLERY = "gallery"  # where a kicked-out gallerist goes (GAL-8)
KICKED = "kicked out"  # a piece waiting for its kicked-out action
CATEGORIES = ("market", "reputation", "exhibited", "auction", "curator", "dealer",
              "influence")  # GAL-16's order


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Work:
    artist: str
    masterpiece: bool = False


@dataclass(frozen=True)
class Placement:
    """An assistant placed in the international market (GAL-17, GAL-20)."""

    column: int
    row: str  # upper | lower
    cost: int = 0


@dataclass(frozen=True)
class Player:
    name: str
    money: int = 10
    influence: int = 10
    gallerist: str | None = None  # a location, GALLERY, KICKED, or None before GAL-4
    queue: int = 8
    desks: int = 2
    locations: tuple[str, ...] = ()  # one entry per assistant on a location
    market: tuple[Placement, ...] = ()
    removed: int = 0
    waiting: int = 0  # assistants kicked out, waiting for the kicked-out action (GAL-8)
    exhibited: tuple[Work, ...] = ()
    sold: tuple[str, ...] = ()
    visitors: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    tiles: tuple[str, ...] = ()  # reputation tiles (labels)
    signatures: tuple[str, ...] = ()  # artists whose signature is on the commission space
    color: str | None = None  # the player's colour (None: a game stored before colours)

    @property
    def in_play(self) -> int:
        """Assistants neither in the unemployment queue nor removed (GAL-24)."""
        return self.desks + len(self.locations) + len(self.market) + self.waiting

    @property
    def spent(self) -> int:
        """Money spent placing assistants in the market's lower rows (GAL-20)."""
        return sum(p.cost for p in self.market if p.row == "lower")


@dataclass(frozen=True)
class ArtistState:
    discovered: bool = False
    fame: int | None = None
    celebrity: bool = False


@dataclass(frozen=True)
class Pending:
    """A step the table owes: ``start_place``, ``intermediate``, ``kickout``, ``auction_pick``."""

    decision: str
    player: str | None = None
    location: str | None = None
    piece: str | None = None  # gallerist | assistant
    stack: str | None = None  # the ticket colour that ran out
    pieces: tuple[str, ...] = ()  # a kickout's pieces when one move kicked out more than one

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "decision": self.decision}
        for key in ("location", "piece", "stack"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if len(self.pieces) > 1:
            out["pieces"] = list(self.pieces)
        return out

    @classmethod
    def from_json(cls, q: Mapping[str, Any]) -> Pending:
        return cls(**{**q, "pieces": tuple(q.get("pieces", ()))})


@dataclass(frozen=True)
class Turn:
    moved: bool = False
    location_action: bool = False
    executive: str | None = None
    kicked: tuple[tuple[str, str, str], ...] = ()  # (player, piece, location) this turn
    emptied: tuple[str, ...] = ()  # stacks that ran out and are not yet queued for scoring
    ended: bool = False  # the after-turn steps are running


@dataclass(frozen=True)
class Pick:
    player: str
    easel: str  # an art form
    counts_as: str  # exhibited | sold
    value: int
    source: str  # computed | table


@dataclass(frozen=True)
class Setup:
    visitors_removed_per_type: int
    tickets_per_colour: int
    easels: int
    middle_column: bool


@dataclass(frozen=True)
class State:
    catalog: Catalog
    rules: GalleristRules = field(default_factory=GalleristRules)
    phase: str = "no_game"  # setup | play | final_scoring | over
    players: tuple[Player, ...] = ()
    start_player: str | None = None  # this round's (rotating: it passes left)
    first_player: str | None = None  # the start player token's first holder
    setup: Setup | None = None
    checklist: tuple[tuple[str, str, bool], ...] = ()  # (item, words, done)
    round: int = 0
    turn_no: int = 0  # turns played in this round
    current: str | None = None
    turn: Turn = field(default_factory=Turn)
    queue: tuple[Pending, ...] = ()
    tickets: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    scored_stacks: tuple[str, ...] = ()  # stacks whose one scoring is queued or done
    bag: int | Mapping[str, int] | None = None
    market_tiles_taken: int = 0  # reputation tiles taken from the market in play (GAL-18)
    artists: Mapping[str, ArtistState] = field(default_factory=lambda: EMPTY)
    goals_scored: tuple[int, ...] = ()
    goals_this_scoring: tuple[int, ...] = ()  # intermediate_tiles = "all"
    end_triggered: int | None = None  # the round it was triggered in
    end_conditions: tuple[str, ...] = ()
    entries: tuple[tuple[str, str, int], ...] = ()  # (player, category, money) entered
    picks: tuple[Pick, ...] = ()
    result: Mapping[str, Any] | None = None
    commitment: str | None = None
    seed: str | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def final_round(self) -> int | None:
        return None if self.end_triggered is None else self.end_triggered + 1

    @property
    def in_final_round(self) -> bool:
        return self.final_round is not None and self.round == self.final_round

    @property
    def celebrities(self) -> int:
        return sum(a.celebrity for a in self.artists.values())

    @property
    def bag_left(self) -> int | None:
        if self.bag is None:
            return None
        return self.bag if isinstance(self.bag, int) else sum(self.bag.values())

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def has(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def seats_from(self, name: str, *, after: bool) -> tuple[str, ...]:
        """Every seat in order starting at `name` (or just after it)."""
        i = self.seat(name) + (1 if after else 0)
        n = len(self.names)
        return tuple(self.names[(i + k) % n] for k in range(n))

    def artist(self, name: str) -> ArtistState:
        return self.artists[name]

    def occupants(self, location: str) -> list[tuple[str, str]]:
        """(player, piece) standing on `location`."""
        out = [(p.name, "gallerist") for p in self.players if p.gallerist == location]
        out += [(p.name, "assistant") for p in self.players for loc in p.locations
                if loc == location]
        return out

    def with_player(self, name: str, **changes: Any) -> State:
        return replace(self, players=tuple(replace(p, **changes) if p.name == name else p
                                           for p in self.players))
