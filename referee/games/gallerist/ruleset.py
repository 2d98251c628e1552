"""The Gallerist as a `referee.ruleset.Ruleset`: the one value the core runs it through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.dice import Roll
from referee.games.gallerist import actions
from referee.games.gallerist import catalog as _catalog
from referee.games.gallerist import commands as c
from referee.games.gallerist import settings as _settings
from referee.games.gallerist import state as _state
from referee.games.gallerist import table as _table
from referee.games.gallerist import words as _words
from referee.games.gallerist.catalog import Catalog, catalog_from_json, load_catalog
from referee.games.gallerist.evolve import evolve, fold
from referee.games.gallerist.rules import decide
from referee.games.gallerist.rules.records import BAG_DIE, bag_list
from referee.games.gallerist.rules.scoring import places, total
from referee.games.gallerist.settings import load_settings
from referee.games.gallerist.state import State
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
)
from referee.snapshot import Codec, classes_of

_SNAPSHOT = Codec(classes_of(_state, _catalog, _settings))
_ROLL_FIELDS = ("die", "value", "source", "via", "index", "sides", "kept")
BAG = "bag"  # the pile a box draw of a visitor picks from
BGG_ID = 125153  # The Gallerist on BoardGameGeek


class Gallerist(GameRuleset[State, c.Command, Catalog]):
    """The ruleset of The Gallerist (the-gallerist-scoring.md, GAL-1..26): the table's clock
    and scorekeeper, never an adjudicator of location actions."""

    id = "gallerist"
    name = "The Gallerist"
    # 2: a box draw from the bag names no player on its die (a kept visitor is nobody's,
    # issue 42), so a snapshot of version 1 (kept visitors with a player) is not used: a
    # game stored before is resumed by folding its log, which reads its draws the new way
    version = "2"
    final_rule = "GAL-24"

    functions = GameFunctions(
        load_catalog=load_catalog, catalog_from_json=catalog_from_json,
        load_settings=load_settings, initial_state=lambda catalog: State(catalog=catalog),
        parse=c.parse_command, command_json=c.command_to_json, decide=decide, evolve=evolve,
        fold=fold, state_json=actions.state_json, next_step=actions.next_step,
        legal_actions=actions.legal_actions, undo_words=actions.undo_words)

    # ---- commands -----------------------------------------------------------------------
    def starts_game(self, command: object) -> bool:
        return isinstance(command, c.Command) and command.name == "new_game"

    def start(self, command: c.Command, *, commitment: str,
              settings: Mapping[str, Any]) -> c.Command:
        rules = {**settings, **dict(command.get("rules") or {})}
        return replace(command, data={**command.data, "commitment": commitment,
                                      "rules": rules})

    def with_dice(self, command: c.Command,
                  dice: Mapping[str, tuple[Roll, str | None]]) -> c.Command:
        if len(dice) != 1:
            raise TypeError(f"{command.name} takes one box draw, not {len(dice)}")
        (roll, card), = dice.values()
        data = dict(command.data)
        if card is not None:
            data["card"] = card
        return replace(command, roll=roll, data=data)

    # ---- snapshots (the store keeps one every so many commands) ---------------------------
    # A game's catalog may come with its new_game (a table's own numbers, GAL-25), not from
    # the file's catalog: the snapshot carries it whole.
    def snapshot_json(self, state: State) -> dict[str, Any]:
        data = _SNAPSHOT.encode(state)
        assert isinstance(data, dict)
        return data

    def state_from_snapshot(self, data: dict[str, Any], catalog: Catalog) -> State:
        state = _SNAPSHOT.decode(data)
        if not isinstance(state, State):
            raise ValueError("the snapshot is not a state of this game")
        return state

    # ---- words and entries -----------------------------------------------------------------
    def step_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        """A logged step in words (`referee.ruleset.DescribesSteps`)."""
        return _words.step_words(command, events)

    def entries(self, state: State) -> list[actions.Entry]:
        """The steps that need the table's figures or choices (`actions.entries`)."""
        return actions.entries(state)

    # ---- reading the state --------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if not state.over or state.result is None:
            return None
        r = state.result
        return Result(outcome=str(r["outcome"]), winners=list(r["winners"]),
                      reason=str(r["reason"]), rule=r.get("rule"))

    def bgstats(self, state: State) -> BgStats:
        """The play: each player's total, the winners, and places that follow the result,
        tiebreakers included (a player who lost a tie on money is 2nd, not 1st)."""
        winners = list((state.result or {}).get("winners") or [])
        totals = {p.name: total(state, p) for p in state.players}
        place = places(state, winners)
        return BgStats(
            name=self.name, cooperative=False, highest_wins=True,
            about=f"{len(state.players)} players", rounds=state.round,
            notes=[actions.next_step(state)], bgg_id=BGG_ID,
            scores=[BgStatsScore(name=p.name, score=str(totals[p.name] or ""),
                                 winner=p.name in winners, start=p.name == state.first_player,
                                 rank=place[p.name], role=None)
                    for p in state.players])

    # ---- dice: the start-player draw and the bag ----------------------------------------
    def read_die(self, state: State, request: DieRequest,
                 draw: int) -> tuple[int, str | None]:
        if request.deck == BAG:
            return draw, bag_list(state)[draw]
        return draw + 1, None  # a seat number, 1..players

    def sides(self, state: State, die: str, deck: str | None) -> int:
        if deck == BAG:
            return len(bag_list(state))
        if die.startswith("d") and die[1:].isdigit():
            return int(die[1:])
        raise ValueError(f"The Gallerist rolls no {die}")

    def rolled(self, command: Mapping[str, Any], events: Sequence[Event]) -> list[Rolled]:
        """The start-player draw (a die with a face per seat) and box draws from the bag (a
        ``pick`` whose card is the colour of the ``visitor_drawn`` that follows); a colour
        the table drew by hand is a card named by hand.

        A draw from the bag is nobody's (the events still say whom it was recorded for): its
        player is None, so an undone draw's visitor waits for the next draw from the bag,
        whoever makes it, and a colour named by hand meanwhile is ``card_kept`` whoever
        names it (issue 42: a wrong player is a mis-entry, never a way to a new visitor)."""
        out: list[Rolled] = []
        for i, e in enumerate(events):
            if e["type"] == "roll":
                roll = Roll(**{k: e[k] for k in _ROLL_FIELDS if k in e})
                if e["die"] == "pick":
                    drawn = next(x for x in events[i:] if x["type"] == "visitor_drawn")
                    out.append(Rolled(e["id"], None, f"pick:{BAG}", e["purpose"], roll,
                                      card=drawn["colour"], event=e))
                else:
                    out.append(Rolled(e["id"], e["player"], e["die"], e["purpose"], roll,
                                      event=e))
            elif (e["type"] == "visitor_drawn" and e["source"] == "table"
                  and e.get("colour") is not None):
                out.append(Rolled(BAG_DIE, None, f"pick:{BAG}", "visitor", None,
                                  card=e["colour"]))
        return out

    def purpose_words(self, purpose: str) -> str:
        return {"start_player": "start-player draw", "visitor": "visitor drawn from the bag"
                }.get(purpose, purpose)

    # ---- kept draws ---------------------------------------------------------------------
    def renewed(self, events: Sequence[Event]) -> set[str]:
        return set()

    def renew_rule(self) -> str | None:
        return None

    def house_rules(self, state: State) -> list[tuple[HouseRule, object]]:
        return state.rules.described()

    def bound_rule(self) -> str | None:
        return "GAL-26"

    def die_owner(self, die_id: str) -> str:
        return "the table"  # (the start-player draw is nobody's)

    def kept_rule(self, purpose: str) -> str | None:
        return "GAL-26"

    def holds(self, state: State, deck: str, card: str, from_discards: bool) -> bool:
        bag = state.bag
        return deck == BAG and isinstance(bag, Mapping) and bag.get(card, 0) > 0

    # ---- the table for a front end that knows no game (ruleset.DescribesTable, -Board) ----
    def table(self, state: State) -> list[Seat]:
        return _table.table(state)

    def verdict(self, events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
        return _table.verdict(events)

    def board(self, state: State) -> list[Panel]:
        return _table.board(state)


RULESET = Gallerist()
