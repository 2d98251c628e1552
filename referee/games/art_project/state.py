"""The A.R.T. Project's state: every shared count the box owns (the-art-project-rules.md).

A frozen value, changed only by `evolve` folding events. Counts that must add up are kept
both ways (van and reserve, players' health and the health reserve, agents on cities, in HQ
and in the reserve) so that a property test can hold the events to the totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.games.art_project.catalog import ArtCatalog, Mission
from referee.games.art_project.settings import ArtRules

RESOURCES = ("fuel", "radio", "weapon")
TOKENS = 6  # of each resource (ART-3)
HEALTH_TOKENS = 25  # ART-2
AGENT_TOKENS = 40  # ART-4
ALLY_DICE = 5  # ART-18
PHASES = ("A", "A/B", "B", "B/C", "C", "C/D", "D/A")
WINDOWS = ("A/B", "B/C", "C/D", "D/A")
DIFFICULTY_HEALTH = {"easy": 4, "medium": 3, "hard": 2, "impossible": 1}


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    color: str
    health: int
    city: str
    must_leave: bool = False
    hand: int = 0
    draws_owed: int = 0
    played: int = 0
    setup_agents: int = 0  # Rio: agents still to place at setup (ART-33)


@dataclass(frozen=True, slots=True)
class AllyPawn:
    """Solo's second pawn (ART-34): a city and `must_leave`; no health, no hand."""

    color: str
    city: str
    must_leave: bool = False


@dataclass(frozen=True, slots=True)
class Clue:
    id: str
    symbols: tuple[str, ...]
    player: str


@dataclass(frozen=True, slots=True)
class Deck:
    above: int = 0  # cards above the final card
    final: bool = True  # the final card is still in the deck
    below: int = 0
    discard: int = 0


@dataclass(frozen=True, slots=True)
class Battle:
    city: str
    leader: str
    participants: tuple[str, ...]
    dice: tuple[tuple[str, int], ...]  # (die id, value), in rolling order
    weapons: int
    city_agents: int
    threat: int
    hq: int

    @property
    def strength(self) -> int:
        return sum(v for _, v in self.dice) + 2 * self.weapons

    @property
    def agents_strength(self) -> int:
        return self.city_agents + self.threat + self.hq

    def verdict(self) -> dict[str, Any]:
        """The battle, term by term (headless-protocol-games.md, "Battle verdict")."""
        return {"type": "battle", "city": self.city, "leader": self.leader,
                "participants": list(self.participants), "dice": dict(self.dice),
                "dice_sum": sum(v for _, v in self.dice), "weapons": self.weapons,
                "weapon_bonus": 2 * self.weapons, "strength": self.strength,
                "city_agents": self.city_agents, "threat": self.threat, "hq": self.hq,
                "agents_strength": self.agents_strength,
                "won": self.strength >= self.agents_strength}


def battle_dice(verdict: Mapping[str, Any]) -> list[tuple[str, int]]:
    """A battle verdict's dice in the order they were rolled (ART-20): the leader's, the
    ally dice by number, each other participant's in seat order, then solo's ally pawn's.
    A verdict read back from the log has its `dice` keys sorted (the log's canonical JSON):
    every reader orders them here, so live and after a resume they read the same."""
    dice = dict(verdict["dice"])
    leader = verdict["leader"]
    people = [p for p in verdict.get("participants", ()) if p != leader]
    allies = sorted((k for k in dice if k not in people and k != leader
                     and k.startswith("ally") and k[4:].isdigit()), key=lambda k: int(k[4:]))
    order = [k for k in (leader, *allies, *people) if k in dice]
    order += [k for k in dice if k not in order]
    return [(k, dice[k]) for k in order]


@dataclass(frozen=True, slots=True)
class Pending:
    decision: str  # uncover_order | uncover_island | clue_set | collect_order | ...
    options: tuple[str, ...]
    player: str | None = None  # None: the team
    symbol: str | None = None  # uncover_island, clue_set: the set being placed
    chain: str | None = None  # USA: whose chain the sets are in
    then: str | None = None  # what carries on once answered: "end_of_movement"


@dataclass(frozen=True)
class ArtState:
    catalog: ArtCatalog
    phase: str = "no_game"
    mission: Mission | None = None
    difficulty: str = ""
    rules: ArtRules = field(default_factory=ArtRules)
    round: int = 0
    final_round: bool = False
    players: tuple[Player, ...] = ()
    ally: AllyPawn | None = None
    van: Mapping[str, int] = field(default_factory=dict)
    reserve: Mapping[str, int] = field(default_factory=dict)
    health_reserve: int = HEALTH_TOKENS
    agents: Mapping[str, int] = field(default_factory=dict)
    hq: int = 0
    agent_reserve: int = AGENT_TOKENS
    lost: tuple[str, ...] = ()
    markers: int = 0
    artwork: tuple[str, ...] = ()  # cities holding an artwork token
    artwork_gone: int = 0  # tokens removed with a lost city (artwork_on_lost_city = removed)
    track: int = 0  # spaces filled
    allies: int = 0
    unlocked_here: int = 0  # ally dice unlocked in the current window
    chain: tuple[Clue, ...] = ()
    cards: int = 0  # cards played so far (ids c1, c2, ...)
    deck: Deck = field(default_factory=Deck)
    battle: Battle | None = None
    fought: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()  # pawns moved this round (dallas_weapon)
    pending: tuple[Pending, ...] = ()
    outcome: str | None = None  # won | lost
    reason: str | None = None
    over_rule: str | None = None
    commitment: str | None = None
    seed: str | None = None
    hall: tuple[tuple[str, str, int, int], ...] = ()  # (mission, difficulty, won, lost)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def player(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name), None)

    @property
    def space(self) -> int | None:
        """The first free track space (index), None when the track is full."""
        assert self.mission is not None
        return self.track if self.track < len(self.mission.track) else None

    @property
    def threat(self) -> int | None:
        space = self.space
        return None if space is None else self.mission.track[space].threat  # type: ignore[union-attr]

    @property
    def ally_cost(self) -> int | None:
        space = self.space
        return None if space is None else self.mission.track[space].ally_cost  # type: ignore[union-attr]

    def pawns_in(self, city: str) -> list[str]:
        """Who stands in `city`: player names, and solo's ally colour."""
        out = [p.name for p in self.players if p.city == city]
        if self.ally is not None and self.ally.city == city:
            out.append(self.ally.color)
        return out

    def plays_due(self) -> int:
        return 2 if self.solo else 1  # ART-13, ART-34


def initial_state(catalog: ArtCatalog) -> ArtState:
    return ArtState(catalog)
