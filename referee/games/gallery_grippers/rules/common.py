"""Shared checks and event builders for the rules. Pure: no clock, no randomness, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.dice import die_range
from referee.errors import GameOver, RuleViolation
from referee.games.gallery_grippers.catalog import Card
from referee.games.gallery_grippers.commands import Roll
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.state import ACTIVE, GameState, Pending, Phase, PlayerState
from referee.ruleset import DieRequest, NeedDice

__all__ = ["DieRequest", "NeedDice"]  # the core's, named here for the rules modules
from referee.games.gallery_grippers.rules.queries import Decision, cards_left

TABLE_DIE = "table"  # the id of a die the table rolls (a free roll before anyone's turn)


def die_id(player: str | None) -> str:
    """A Gallery Grippers die's id: the player who rolls it, or `TABLE_DIE`. (A kept die is
    matched by id and player, so a player called "table" never gets the table's die.)"""
    return TABLE_DIE if player is None else player


def die_request(player: str | None, die: str, purpose: str, sides: int,
                deck: str | None = None) -> DieRequest:
    """The electronic roll (or, with `deck`, the box draw) `player` makes for `purpose`."""
    return DieRequest(die_id(player), die, purpose, sides, player=player, deck=deck)


def refuse(code: str, rule: str | None, message: str) -> RuleViolation:
    return RuleViolation(message, code=code, rule=rule)


def require_game(s: GameState) -> None:
    if s.phase is Phase.NO_GAME:
        raise refuse("no_game", None, "No game is running: start one with new_game.")
    if s.phase is Phase.OVER:
        who = f"{s.winner} won" if s.winner else "nobody won"
        raise GameOver(f"The game is over ({who}); nothing can change it now.", rule="GG-14")


def require_playing(s: GameState) -> None:
    require_game(s)
    if s.phase is Phase.SETUP:
        raise refuse("setup_not_finished", "GG-3",
                      "Setup is not finished: deal every hand, then roll for turn order.")


def known_player(s: GameState, name: str) -> PlayerState:
    i = s.index_of(name)
    if i is None:
        names = ", ".join(p.name for p in s.players)
        raise refuse("unknown_player", None, f"There is no player called {name!r} ({names}).")
    return s.players[i]


def require_active(s: GameState, name: str) -> PlayerState:
    p = known_player(s, name)
    if p.status != ACTIVE:
        raise refuse("player_out", "GG-15", f"{p.name} is out of the game and takes no turns.")
    return p


def require_turn(s: GameState, name: str) -> PlayerState:
    """The acting player must be active and the one whose turn it is."""
    require_playing(s)
    p = require_active(s, name)
    cur = s.current_player
    if cur is None or cur.name != p.name:
        whose = cur.name if cur else "nobody"
        raise refuse("not_your_turn", "GG-3", f"It is {whose}'s turn, not {p.name}'s.")
    return p


def describe(p: Pending) -> str:
    who = f"{p.player} must " if p.player else "The table must "
    words: dict[str, str] = {
        Decision.TIEBREAK: "settle the tie for first player",
        Decision.OBSTACLE: "meet the obstacle (bypass)",
        Decision.CAUGHT: "choose to ditch or keep the art",
        Decision.SECOND_STRIKE: "choose to leave the premises or re-enter",
        Decision.REUP: "roll to re-up their hand",
        Decision.DRAW: f"draw {p.info.get('count', 1)} card(s)",
        Decision.TILE: f"say where the pawn landed (rolled {p.info.get('roll')})",
    }
    return who + words.get(p.decision, p.decision)


PENDING_RULES: dict[str, str] = {
    Decision.TIEBREAK: "GG-3", Decision.TILE: "GG-4", Decision.OBSTACLE: "GG-6",
    Decision.CAUGHT: "GG-10", Decision.SECOND_STRIKE: "GG-10", Decision.REUP: "GG-18",
    Decision.DRAW: "GG-17"}


def require_no_pending(s: GameState, allowed: Sequence[str] = ()) -> None:
    """Refuse while a decision is open (unless it is one this command answers)."""
    for p in s.pending:
        if p.decision not in allowed:
            raise refuse("decision_pending", PENDING_RULES.get(p.decision),
                         f"{describe(p)} first.")


def pending_of(s: GameState, player: str | None, decision: str) -> Pending | None:
    for p in s.pending:
        if p.player == player and p.decision == decision:
            return p
    return None


def _a(kind: str) -> str:
    """A card kind (specialist or attribute) with its article."""
    return "an attribute" if kind == "attribute" else f"a {kind}"


def catalog_card(s: GameState, name: str, kind: str, *, code: str, rule: str) -> Card:
    """The catalog's card `name`, which must be of `kind` (GG-19: the catalog decides)."""
    card = s.catalog.card(name)
    if card is None:
        raise refuse("unknown_card", "GG-19", f"There is no card called {name!r}.")
    if card.kind != kind:
        raise refuse(code, rule, f"{card.name} is {_a(card.kind)} card, not {_a(kind)}.")
    return card


def check_roll(s: GameState, roll: Roll | None, die: str, rule: str, what: str) -> None:
    """A physical value must be a face the die can show (never clamped)."""
    if roll is None or roll.source != "physical":
        return
    allowed = die_range(die, s.rules.percentile)
    if roll.value not in allowed:
        raise refuse("roll_out_of_range", rule,
                      f"{roll.value} is not a possible {what} roll "
                      f"({allowed.start}-{allowed.stop - 1}).")


def roll_event(player: str | None, roll: Roll, purpose: str) -> Event:
    return {"type": "roll", "player": player, "id": die_id(player), "purpose": purpose,
            **roll.to_json()}


def game_over_event(winner: str | None, reason: str, rule: str) -> Event:
    """The end (GG-14, GG-16), with the common result envelope: outcome and winners."""
    return {"type": "game_over", "winner": winner, "reason": reason, "rule": rule,
            "outcome": "won" if winner is not None else "lost",
            "winners": [] if winner is None else [winner]}


def pending_event(player: str | None, decision: str, options: Sequence[str],
                  **info: Any) -> Event:
    return {"type": "pending", "player": player, "decision": str(decision),
            "options": list(options), **info}


def resolved_event(player: str | None, decision: str, **info: Any) -> Event:
    return {"type": "resolved", "player": player, "decision": str(decision), **info}


def next_active(s: GameState, after: int) -> PlayerState | None:
    """The next active player clockwise after seat `after` (it may be the same one, solo)."""
    n = len(s.players)
    for step in range(1, n + 1):
        p = s.players[(after + step) % n]
        if p.status == ACTIVE:
            return p
    return None


cards_available = cards_left  # the same figure the screens show (rules.queries)


def draws_due_events(s: GameState, player: str, count: int, reason: str) -> list[Event]:
    """A pending draw of `count` cards, or nothing if both decks are empty (GG-17)."""
    if count <= 0:
        return []
    if cards_available(s) == 0:
        return [{"type": "no_cards_to_draw", "player": player, "rule": "GG-17"}]
    return [pending_event(player, Decision.DRAW, ["specialist", "attribute"], count=count,
                          reason=reason)]


def turn_start_events(s: GameState, player: PlayerState, number: int) -> list[Event]:
    """A new turn; a player whose hand is at or below the threshold must re-up (GG-18)."""
    events: list[Event] = [{"type": "turn", "player": player.name, "number": number}]
    if player.hand_size <= s.rules.reup_at_or_below and cards_available(s) > 0:
        events.append(pending_event(player.name, Decision.REUP, ["reup"], hand=player.hand_size))
    return events
