"""Gallery Grippers as a `referee.ruleset.Ruleset`: the one value the core runs it through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.dice import DIE_SIDES, Roll, die_value
from referee.games.gallery_grippers import actions, records, table, words
from referee.games.gallery_grippers import catalog as _catalog
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers import settings as _settings
from referee.games.gallery_grippers import state as _state
from referee.games.gallery_grippers.catalog import Catalog, catalog_from_json, load_catalog
from referee.games.gallery_grippers.evolve import evolve, fold
from referee.games.gallery_grippers.rules import decide
from referee.games.gallery_grippers.rules.cards import draw_pile
from referee.games.gallery_grippers.rules.common import die_id
from referee.games.gallery_grippers.settings import load_settings
from referee.games.gallery_grippers.state import GameState, initial_state, state_to_json
from referee.ruleset import (
    BgStats,
    DieRequest,
    Event,
    Figure,
    GameFunctions,
    GameRuleset,
    HouseRule,
    Result,
    Rolled,
    Seat,
    die_key,
)
from referee.snapshot import Codec, classes_of

# The purpose of the dice each command rolls (one purpose per command). Games stored before
# roll events had a purpose get it from the command that rolled them.
PURPOSE_OF_COMMAND: dict[str, str] = {
    "roll": "free", "turn_order": "turn_order", "move": "move", "move_roll": "move",
    "bypass": "bypass", "reup": "reup", "draw": "draw",
}
_SAID = {"free": "free roll", "turn_order": "turn-order roll", "move": "move",
         "bypass": "bypass", "reup": "re-up", "draw": "draw"}
_KEPT_RULES = {"turn_order": "GG-3", "move": "GG-4", "bypass": "GG-7", "reup": "GG-18",
               "draw": "GG-17"}
_SNAPSHOT = Codec(classes_of(_state, _catalog, _settings))
_ROLL_FIELDS = ("die", "value", "source", "via", "index", "sides", "kept")


class GalleryGrippers(GameRuleset[GameState, c.Command, Catalog]):
    """The ruleset of Gallery Grippers (gallery-grippers-rules.md)."""

    id = "gallery-grippers"
    name = "Gallery Grippers"
    version = "1"
    final_rule = "GG-14"

    functions = GameFunctions(
        load_catalog=load_catalog, catalog_from_json=catalog_from_json,
        load_settings=load_settings, initial_state=initial_state, parse=c.parse_command,
        command_json=c.command_to_json, decide=decide, evolve=evolve, fold=fold,
        state_json=state_to_json, next_step=actions.next_step,
        legal_actions=actions.legal_actions, undo_words=actions.undo_words)

    # ---- words (referee.ruleset.DescribesSteps) ------------------------------------------
    def step_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        """A logged step in words, for every front end (`referee.words.step_words`)."""
        return words.step_words(command, events)

    # ---- commands -----------------------------------------------------------------------
    def starts_game(self, command: object) -> bool:
        return isinstance(command, c.NewGame)

    def start(self, command: c.NewGame, *, commitment: str,
              settings: Mapping[str, Any]) -> c.NewGame:
        return replace(command, commitment=commitment, rules={**settings, **command.rules})

    def with_dice(self, command: c.Command,
                  dice: Mapping[str, tuple[Roll, str | None]]) -> c.Command:
        if isinstance(command, c.TurnOrder):  # die ids are the players' names
            return replace(command, rolls={**command.rolls,
                                           **{k: roll for k, (roll, _) in dice.items()}})
        ((roll, card),) = dice.values()
        if isinstance(command, c.Draw):
            return replace(command, pick=roll, card=card)
        if isinstance(command, c.Move | c.MoveRoll | c.Bypass | c.Reup | c.FreeRoll):
            return replace(command, roll=roll)
        raise TypeError(f"{c.command_name(command)} takes no dice")

    # ---- reading the state --------------------------------------------------------------
    def snapshot_json(self, state: GameState) -> dict[str, Any]:
        data = _SNAPSHOT.encode(state, catalog=state.catalog)
        assert isinstance(data, dict)
        return data

    def state_from_snapshot(self, data: dict[str, Any], catalog: Catalog) -> GameState:
        state = _SNAPSHOT.decode(data, catalog=catalog)
        if not isinstance(state, GameState):
            raise ValueError("the snapshot is not a state of this game")
        return state

    def result(self, state: GameState) -> Result | None:
        if not state.over:
            return None
        winners = [] if state.winner is None else [state.winner]
        return Result(outcome="won" if winners else "lost", winners=winners,
                      reason=state.over_reason or "", rule=state.over_rule)

    def bgstats(self, state: GameState) -> BgStats:
        return records.bgstats(state)

    # ---- dice ---------------------------------------------------------------------------
    def read_die(self, state: GameState, request: DieRequest,
                 draw: int) -> tuple[int, str | None]:
        if request.deck is not None:
            return draw, draw_pile(state, request.deck)[draw]
        return die_value(request.die, draw, state.rules.percentile), None

    def sides(self, state: GameState, die: str, deck: str | None) -> int:
        return len(draw_pile(state, deck)) if deck is not None else DIE_SIDES[die]

    def rolled(self, command: Mapping[str, Any], events: Sequence[Event]) -> list[Rolled]:
        """A box draw's card is in the ``drawn`` event that follows its ``pick`` roll; a card
        named by hand has a ``drawn`` event (source physical) and no roll."""
        out: list[Rolled] = []
        boxed = [e for e in events if e["type"] == "drawn" and e["source"] == "box"]
        reshuffled = self.renewed(events)
        for e in events:
            if e["type"] == "drawn" and e["source"] == "physical":
                out.append(Rolled(die_id(e["player"]), e["player"],
                                  die_key("pick", e["deck"]), "draw", None, card=e["card"]))
            if e["type"] != "roll":
                continue
            roll = Roll(**{k: e[k] for k in _ROLL_FIELDS if k in e})
            purpose = e.get("purpose") or PURPOSE_OF_COMMAND[str(command["cmd"])]
            ident = e.get("id") or die_id(e["player"])
            if e["die"] == "pick":
                drawn = boxed.pop(0)
                out.append(Rolled(ident, e["player"], die_key("pick", drawn["deck"]), purpose,
                                  roll, card=drawn["card"],
                                  from_discards=drawn["deck"] in reshuffled, event=e))
            else:
                out.append(Rolled(ident, e["player"], e["die"], purpose, roll, event=e))
        return out

    def purpose_words(self, purpose: str) -> str:
        return _SAID.get(purpose, purpose)

    # ---- kept cards ---------------------------------------------------------------------
    def renewed(self, events: Sequence[Event]) -> set[str]:
        return {e["deck"] for e in events if e["type"] == "deck_reshuffled"}

    def renew_rule(self) -> str | None:
        return "GG-17"

    def house_rules(self, state: GameState) -> list[tuple[HouseRule, object]]:
        return state.rules.described()

    def bound_rule(self) -> str | None:
        return "GG-17"

    def kept_rule(self, purpose: str) -> str | None:
        # (the sheet's "never lets a dice result be chosen by undoing" has no number: the
        # refusal cites the rule of the roll the kept die was made for)
        return _KEPT_RULES.get(purpose)

    def holds(self, state: GameState, deck: str, card: str, from_discards: bool) -> bool:
        pile = state.piles.get(deck, {})
        if from_discards:
            return not sum(pile.values()) and state.discards.get(deck, {}).get(card, 0) > 0
        return pile.get(card, 0) > 0

    # ---- the table for a front end that knows no game (ruleset.DescribesTable) -----------
    def table(self, state: GameState) -> list[Seat]:
        return table.table(state)

    def verdict(self, events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
        return table.verdict(events)


RULESET = GalleryGrippers()
