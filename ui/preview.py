"""The movement roll before the tile is known.

A `move` command carries both the d6 and the tile the pawn landed on, but at the table the die
comes first: the pawn cannot move before the number is known. The value the box will roll is
already fixed (the next kept die, else the next draw of the game's dice stream), whatever tile
is named, so the console asks the session what it *would* roll by replaying its log into a
throw-away session and moving to a plain tile there. Nothing is recorded; cancelling and
rolling again shows the same value, so no one can re-roll by backing out.
"""

from __future__ import annotations

from referee.commands import Move
from referee.errors import Refusal
from referee.session import LogEntry, Session


def preview_move_roll(session: Session, player: str) -> tuple[int, bool]:
    """The d6 the box would roll for `player`'s move now: (value, kept after an undo).

    Raises:
        Refusal: the move is not allowed now (the same refusal the real move would get).
    """
    if session.seed is None:
        raise Refusal("No game is running.", code="no_game")
    copy = Session.resume(
        [LogEntry(e.seq, e.command, e.events, e.undone) for e in session.log],
        seed=session.seed, catalog=session.catalog)
    outcome = copy.apply(Move(player=player, tile="plain"))
    roll = next(e for e in outcome.events if e["type"] == "roll")
    return int(roll["value"]), bool(roll["kept"])
