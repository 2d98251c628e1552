"""What a player may do now, what the table must do next, and what undo would take back.

`legal_actions` never decides legality itself: it is the rules' own list (`rules.queries`,
which keeps the candidates `decide` accepts) as protocol requests, so the rules stay the one
source.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from referee.errors import Refusal
from referee.games.gallery_grippers.commands import DICE, Command, command_to_json, parse_command
from referee.games.gallery_grippers.rules import decide, queries
from referee.games.gallery_grippers.rules.common import describe
from referee.games.gallery_grippers.rules.setup import HAND
from referee.games.gallery_grippers.state import GameState, Phase, pile_list
from referee.ruleset import Event

Request = dict[str, Any]


def _request(command: Command) -> Request:
    """A command as the request a front end would send (the box fills in what is left out)."""
    return {k: v for k, v in command_to_json(command).items() if v is not None}


def _extras(s: GameState, player: str | None) -> Iterator[Request]:
    """What the rules' own list leaves out but a table may send: a starting hand (here the
    top cards of each pile; any six the table holds would do) and the free dice."""
    if player is None:
        yield from ({"cmd": "roll", "die": die} for die in DICE)
    elif s.phase is Phase.SETUP:
        sp, at = pile_list(s.piles.get("specialist", {})), pile_list(s.piles.get("attribute", {}))
        yield {"cmd": "deal", "player": player, "specialists": sp[:HAND["specialists"]],
               "attributes": at[:HAND["attributes"]]}


def legal_actions(s: GameState, player: str | None) -> list[Request]:
    """Every request `player` (None: the table) may send now that the rules accept, with the
    fields that tell the choices apart (a move's tile and museum, a draw's deck, ...); the
    box fills in any dice. The rules' own list (`rules.queries.legal_actions`, what the
    console and the box offer) plus a starting hand and the free rolls; undo, reveal and
    new_game are the table's and not listed."""
    if s.phase in (Phase.NO_GAME, Phase.OVER):
        return []
    if player is not None and s.index_of(player) is None:
        return []
    found = [_request(a) for a in queries.legal_actions(s, player)]
    for request in _extras(s, player):
        try:
            decide(s, parse_command(request))
        except Refusal:
            continue
        found.append(request)
    return found


def next_step(s: GameState) -> str:
    """One line: what the table must do now, naming whom it waits on."""
    if s.phase is Phase.NO_GAME:
        return "Start a game."
    if s.phase is Phase.OVER:
        return f"The game is over: {s.winner} won." if s.winner else "The game is over: " \
            "nobody won."
    if s.pending:
        return describe(s.pending[0]) + "."
    if s.phase is Phase.SETUP:
        undealt = [p.name for p in s.players if not p.dealt]
        if undealt:
            return f"Deal the starting hands ({', '.join(undealt)})."
        return "Everyone rolls a d6 for the turn order."
    cur = s.current_player
    if cur is None:
        return "Nobody is left to take a turn."
    if not s.turn.moved:
        return f"{cur.name} rolls to move."
    return f"{cur.name}'s turn: act on the tile, or end the turn."


_WORDS = {"new_game": "the start of the game", "deal": "{player}'s starting hand",
          "turn_order": "the turn-order roll", "tiebreak": "the tiebreak",
          "roll": "the free roll", "move_roll": "{player}'s movement roll",
          "move": "{player}'s move", "bypass": "{player}'s bypass", "choose": "{player}'s choice",
          "steal": "{player}'s theft", "sell": "{player}'s sale", "draw": "{player}'s draw",
          "reup": "{player}'s re-up roll", "trade": "the trade", "end_turn": "the end of "
          "{player}'s turn", "reveal": "the revealed seed"}


def undo_words(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """What undoing the step (`command` as logged, with its `events`) would take back; its
    electronic dice stay on the table for the redo."""
    cmd = str(command.get("cmd"))
    player = command.get("player") or command.get("from") or "the table"
    what = _WORDS.get(cmd, cmd).format(player=player)
    dice = [e for e in events if e.get("type") == "roll" and e.get("source") == "electronic"]
    if dice:
        shown = ", ".join(str(e["value"]) for e in dice if e["die"] != "pick")
        kept = " (its box dice stay on the table" + (f": {shown})" if shown else ")")
        return f"Undo {what}{kept}."
    return f"Undo {what}."
