"""The A.R.T. Project as a `referee.ruleset.Ruleset`: the one value the core runs it through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.dice import Roll
from referee.errors import BadRequest
from referee.games.art_project import actions, table, words
from referee.games.art_project import board as _board
from referee.games.art_project import catalog as _catalog
from referee.games.art_project import commands as c
from referee.games.art_project import settings as _settings
from referee.games.art_project import state as _state
from referee.games.art_project.catalog import (
    ArtCatalog,
    catalog_from_json,
    load_catalog,
)
from referee.games.art_project.evolve import evolve, fold
from referee.games.art_project.records import hall_of_fame
from referee.games.art_project.rules import decide
from referee.games.art_project.rules.battle import faces
from referee.games.art_project.settings import load_settings
from referee.games.art_project.state import ArtState, initial_state
from referee.ruleset import (
    BgStats,
    BgStatsScore,
    DieRequest,
    Event,
    Figure,
    GameFunctions,
    GameRuleset,
    HouseRule,
    Panel,
    Result,
    Rolled,
    Seat,
    StoredGame,
)
from referee.snapshot import Codec, classes_of

_SNAPSHOT = Codec(classes_of(_state, _catalog, _settings))
_ROLL_FIELDS = ("die", "value", "source", "via", "index", "sides", "kept")


class ArtProject(GameRuleset[ArtState, c.Command, ArtCatalog]):
    """The ruleset of The A.R.T. Project (the-art-project-rules.md, ART-1..36)."""

    id = "art-project"
    name = "The A.R.T. Project"
    version = "1"
    final_rule = "ART-27"
    queries = ("hall_of_fame",)  # answered by `query` (referee.ruleset.Queries)

    functions = GameFunctions(
        load_catalog=load_catalog, catalog_from_json=catalog_from_json,
        load_settings=load_settings, initial_state=initial_state, parse=c.parse_command,
        command_json=c.command_to_json, decide=decide, evolve=evolve, fold=fold,
        state_json=actions.state_json, next_step=actions.next_step,
        legal_actions=actions.legal_actions, undo_words=actions.undo_words)

    # ---- commands -----------------------------------------------------------------------
    def starts_game(self, command: object) -> bool:
        return isinstance(command, c.NewGame)

    def start(self, command: c.NewGame, *, commitment: str,
              settings: Mapping[str, Any]) -> c.NewGame:
        return replace(command, commitment=commitment, rules={**settings, **command.rules})

    def with_dice(self, command: c.Command,
                  dice: Mapping[str, tuple[Roll, str | None]]) -> c.Command:
        if isinstance(command, c.Battle | c.Reroll):
            return replace(command, rolls={**command.rolls,
                                           **{k: roll for k, (roll, _) in dice.items()}})
        raise TypeError(f"{c.command_name(command)} takes no dice")

    # ---- reading the state --------------------------------------------------------------
    def snapshot_json(self, state: ArtState) -> dict[str, Any]:
        # A game's state holds the catalog its game_started event gave (its mission's),
        # not the one the game is played with: kept as its JSON.
        data = _SNAPSHOT.encode(state, catalog=state.catalog)
        assert isinstance(data, dict)
        return {"state": data, "catalog": state.catalog.to_json()}

    def state_from_snapshot(self, data: dict[str, Any], catalog: ArtCatalog) -> ArtState:
        own = catalog_from_json(data["catalog"])
        state = _SNAPSHOT.decode(data["state"], catalog=own)
        if not isinstance(state, ArtState):
            raise ValueError("the snapshot is not a state of this game")
        return state

    def result(self, state: ArtState) -> Result | None:
        if not state.over:
            return None
        won = state.outcome == "won"
        return Result(outcome=state.outcome or "lost",
                      winners=[p.name for p in state.players] if won else [],
                      reason=state.reason or "", rule=state.over_rule)

    def bgstats(self, state: ArtState) -> BgStats:
        won = state.outcome == "won"
        about = f"{state.mission.id if state.mission else ''}, {state.difficulty}"
        return BgStats(
            name=self.name, cooperative=True, highest_wins=True, about=about,
            rounds=state.round, notes=[actions.next_step(state)],
            scores=[BgStatsScore(name=p.name, score=str(state.track), winner=won,
                                 start=i == 0, rank=1, role=p.color)
                    for i, p in enumerate(state.players)])

    def query(self, name: str, request: Mapping[str, Any], state: ArtState | None,
              stored: Sequence[StoredGame] | None) -> dict[str, Any]:
        """``hall_of_fame`` (ART-35): the game file's games, else the session's."""
        if name != "hall_of_fame":
            raise BadRequest(f"unknown query {name!r}")
        extra = sorted(set(request) - {"cmd"})
        if extra:
            raise BadRequest(f"hall_of_fame takes no fields ({', '.join(extra)})")
        if stored is not None:
            table = hall_of_fame((g.game, g.status, g.result, g.first_events) for g in stored)
        else:
            table = actions.hall_of_fame(state) if state is not None else []
        return {"hall_of_fame": table}

    # ---- dice ---------------------------------------------------------------------------
    def read_die(self, state: ArtState, request: DieRequest,
                 draw: int) -> tuple[int, str | None]:
        return faces(state)[draw], None

    def sides(self, state: ArtState, die: str, deck: str | None) -> int:
        return len(faces(state))

    def rolled(self, command: Mapping[str, Any], events: Sequence[Event]) -> list[Rolled]:
        return [Rolled(e["id"], e["player"], e["die"], e["purpose"],
                       Roll(**{k: e[k] for k in _ROLL_FIELDS if k in e}), event=e)
                for e in events if e["type"] == "roll"]

    def purpose_words(self, purpose: str) -> str:
        return {"battle": "battle roll", "reroll": "reroll"}.get(purpose, purpose)

    # ---- kept cards (the box never draws a card in this game) ---------------------------
    def renewed(self, events: Sequence[Event]) -> set[str]:
        return set()

    def renew_rule(self) -> str | None:
        return None

    def house_rules(self, state: ArtState) -> list[tuple[HouseRule, object]]:
        return state.rules.described()

    def bound_rule(self) -> str | None:
        return "ART-36"

    def die_owner(self, die_id: str) -> str:
        return words.die_said(die_id)

    def kept_rule(self, purpose: str) -> str | None:
        return "ART-36"

    def holds(self, state: ArtState, deck: str, card: str, from_discards: bool) -> bool:
        return False

    # ---- the table for a front end that knows no game (ruleset.DescribesTable) -----------
    def table(self, state: ArtState) -> list[Seat]:
        return table.table(state)

    def verdict(self, events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
        return table.verdict(events)

    # ---- a logged step in words, for every front end (ruleset.DescribesSteps) -------------
    def step_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        return words.step_words(command, events)

    # ---- the board for a front end that knows no game (ruleset.DescribesBoard) -----------
    def board(self, state: ArtState) -> list[Panel]:
        return _board.board(state)


RULESET = ArtProject()
