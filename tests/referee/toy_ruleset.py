"""A tiny second game, for tests only: "Two Dice" (id ``toy-dice``).

Players take turns; a turn rolls two d6 at once, the red die and the blue die (die ids
``red`` and ``blue``); their sum adds to the roller's score, and the first to reach the
catalog's ``target`` wins (TOY-2). Nothing here is imported by the core: a test registers
`RULESET` with `referee.games.register`, as an entry point would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.dice import Roll, die_range
from referee.errors import BadRequest, GameOver, RuleViolation
from referee.ruleset import BgStats, BgStatsScore, DieRequest, Event, NeedDice, Result, Rolled

DICE = ("red", "blue")


@dataclass(frozen=True)
class ToyCatalog:
    target: int = 20

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target}


@dataclass(frozen=True)
class ToyState:
    catalog: ToyCatalog
    phase: str = "no_game"
    players: tuple[str, ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)
    current: int = 0
    winner: str | None = None
    commitment: str | None = None
    seed: str | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"


@dataclass(frozen=True)
class ToyNewGame:
    players: tuple[str, ...]
    commitment: str | None = None


@dataclass(frozen=True)
class ToyRoll:
    player: str
    rolls: Mapping[str, Roll] = field(default_factory=dict)


@dataclass(frozen=True)
class ToySettings:
    def to_json(self) -> dict[str, object]:
        return {}


class TwoDice:
    id = "toy-dice"
    name = "Two Dice"
    version = "1"
    final_rule = "TOY-3"

    def load_catalog(self, path: str | None) -> ToyCatalog:
        return ToyCatalog()

    def catalog_json(self, catalog: ToyCatalog) -> dict[str, Any]:
        return catalog.to_json()

    def catalog_from_json(self, data: dict[str, Any]) -> ToyCatalog:
        return ToyCatalog(target=int(data["target"]))

    def load_settings(self, path: str) -> ToySettings:
        return ToySettings()

    def initial_state(self, catalog: ToyCatalog) -> ToyState:
        return ToyState(catalog)

    def parse(self, request: Any) -> ToyNewGame | ToyRoll:
        if not isinstance(request, dict):
            raise BadRequest("each line must be a JSON object with a 'cmd'")
        if request.get("cmd") == "new_game":
            players = request.get("players")
            if not isinstance(players, list) or not players:
                raise BadRequest("'players' must be a non-empty list of names")
            return ToyNewGame(tuple(str(p) for p in players))
        if request.get("cmd") == "roll":
            rolls = request.get("rolls") or {}
            if not isinstance(rolls, dict) or set(rolls) - set(DICE):
                raise BadRequest("'rolls' must be an object {red|blue: value}")
            return ToyRoll(str(request.get("player")),
                           {k: Roll.physical("d6", int(v)) for k, v in rolls.items()})
        raise BadRequest(f"unknown cmd {request.get('cmd')!r}; known: new_game, roll")

    def command_json(self, command: ToyNewGame | ToyRoll) -> dict[str, Any]:
        if isinstance(command, ToyNewGame):
            return {"cmd": "new_game", "players": list(command.players),
                    "commitment": command.commitment}
        return {"cmd": "roll", "player": command.player,
                "rolls": {k: v.to_json() for k, v in command.rolls.items()}}

    def starts_game(self, command: object) -> bool:
        return isinstance(command, ToyNewGame)

    def start(self, command: ToyNewGame, *, commitment: str,
              settings: Mapping[str, Any]) -> ToyNewGame:
        return replace(command, commitment=commitment)

    def decide(self, state: ToyState, command: ToyNewGame | ToyRoll) -> list[Event] | NeedDice:
        if isinstance(command, ToyNewGame):
            if state.phase == "playing":
                raise RuleViolation("A game is in progress.", code="game_in_progress")
            return [{"type": "game_started", "players": [{"name": p} for p in command.players],
                     "commitment": command.commitment}]
        if state.over:
            raise GameOver("The game is over.", rule="TOY-3")
        if state.phase != "playing":
            raise RuleViolation("No game is running.", code="no_game")
        if command.player != state.players[state.current]:
            raise RuleViolation(f"It is {state.players[state.current]}'s turn.",
                                code="not_your_turn", rule="TOY-1")
        for roll in command.rolls.values():
            if roll.value not in die_range("d6"):
                raise RuleViolation(f"A d6 shows 1-6, not {roll.value}.",
                                    code="roll_out_of_range", rule="TOY-1")
        missing = [d for d in DICE if d not in command.rolls]
        if missing:
            return NeedDice(tuple(DieRequest(d, "d6", "score", 6, player=command.player)
                                  for d in missing))
        events: list[Event] = [{"type": "roll", "player": command.player, "id": d,
                                "purpose": "score", **command.rolls[d].to_json()} for d in DICE]
        score = state.scores.get(command.player, 0) + sum(r.value for r in command.rolls.values())
        events.append({"type": "scored", "player": command.player, "score": score})
        if score >= state.catalog.target:
            events.append({"type": "game_over", "outcome": "won", "winners": [command.player],
                           "reason": "target", "rule": "TOY-2"})
        return events

    def with_dice(self, command: ToyRoll,
                  dice: Mapping[str, tuple[Roll, str | None]]) -> ToyRoll:
        return replace(command, rolls={**command.rolls, **{k: r for k, (r, _) in dice.items()}})

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        kind = event["type"]
        if kind == "game_started":
            names = tuple(p["name"] for p in event["players"])
            return ToyState(state.catalog, "playing", names, dict.fromkeys(names, 0),
                            commitment=event["commitment"])
        if kind == "scored":
            nxt = (state.current + 1) % len(state.players)
            return replace(state, scores={**state.scores, event["player"]: event["score"]},
                           current=nxt)
        if kind == "game_over":
            return replace(state, phase="over", winner=event["winners"][0])
        if kind == "seed_revealed":
            return replace(state, seed=event["seed"])
        if kind in ("roll", "kept_dropped", "die_corrected"):
            return state
        raise ValueError(f"unknown event type {kind!r}")

    def fold(self, state: ToyState, events: Sequence[Event]) -> ToyState:
        for e in events:
            state = self.evolve(state, e)
        return state

    def state_json(self, state: ToyState) -> dict[str, Any]:
        cur = state.players[state.current] if state.players and not state.over else None
        return {"game": self.id, "phase": state.phase, "pending": [], "over": state.over,
                "result": self.result(state), "commitment": state.commitment,
                "seed": state.seed, "next": f"{cur} rolls." if cur else "",
                "scores": dict(state.scores), "current": cur}

    def result(self, state: ToyState) -> Result | None:
        if not state.over or state.winner is None:
            return None
        return Result(outcome="won", winners=[state.winner], reason="target", rule="TOY-2")

    def legal_actions(self, state: ToyState, player: str | None) -> list[dict[str, Any]]:
        ok = state.phase == "playing" and player == state.players[state.current]
        return [{"cmd": "roll", "player": player}] if ok else []

    def undo_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        return f"Undo {command.get('player')}'s roll."

    def bgstats(self, state: ToyState) -> BgStats:
        ranked = sorted(state.players, key=lambda p: -state.scores.get(p, 0))
        return BgStats(name=self.name, cooperative=False, highest_wins=True, about="Two Dice",
                       rounds=0, notes=[], scores=[
                           BgStatsScore(name=p, score=str(state.scores.get(p, 0)),
                                        winner=p == state.winner, start=i == 0,
                                        rank=ranked.index(p) + 1, role=None)
                           for i, p in enumerate(state.players)])

    def read_die(self, state: ToyState, request: DieRequest,
                 draw: int) -> tuple[int, str | None]:
        return draw + 1, None

    def sides(self, state: ToyState, die: str, deck: str | None) -> int:
        return 6

    def rolled(self, command: Mapping[str, Any], events: Sequence[Event]) -> list[Rolled]:
        fields = ("die", "value", "source", "via", "index", "sides", "kept")
        return [Rolled(e["id"], e["player"], e["die"], e["purpose"],
                       Roll(**{k: e[k] for k in fields if k in e}), event=e)
                for e in events if e["type"] == "roll"]

    def purpose_words(self, purpose: str) -> str:
        return purpose

    def renewed(self, events: Sequence[Event]) -> set[str]:
        return set()

    def renew_rule(self) -> str | None:
        return None

    def bound_rule(self) -> str | None:
        return None

    def kept_rule(self, purpose: str) -> str | None:
        return None

    def holds(self, state: ToyState, deck: str, card: str, from_discards: bool) -> bool:
        return True


RULESET = TwoDice()
