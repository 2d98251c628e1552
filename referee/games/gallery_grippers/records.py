"""Gallery Grippers' side of the records: a play for BG Stats and the places at the end."""

from __future__ import annotations

from referee.games.gallery_grippers.state import OUT, GameState, PlayerState
from referee.ruleset import BgStats, BgStatsScore


def ranks(state: GameState) -> dict[str, int]:
    """Places at the end: the winner first, then players still in before those who are out,
    each group by money; equal money and status share a place (1, 2, 2, 4)."""
    def key(p: PlayerState) -> tuple[bool, bool, int]:
        return (p.name != state.winner, p.status == OUT, -p.money)

    ordered = sorted(state.players, key=key)
    return {p.name: 1 + sum(key(q) < key(p) for q in ordered) for p in ordered}


def bgstats(state: GameState) -> BgStats:
    """The play's scores (each player's money), winner, start player, places and colours."""
    rank = ranks(state)
    scores = [BgStatsScore(name=p.name, score=str(p.money), winner=p.name == state.winner,
                           start=p.name == state.first_player, rank=rank[p.name], role=p.color)
              for p in state.players]
    return BgStats(
        name="Gallery Grippers", cooperative=False, highest_wins=True,
        about="A play of Gallery Grippers refereed by a Tableside Referee box; open or import "
              "it with BG Stats. Scores are each player's money in dollars.",
        rounds=state.round, scores=scores,
        notes=[state.over_reason] if state.over_reason else [])
