"""The club's standings per game: plays, wins and a multiplayer rating (openskill's
Weng-Lin Plackett-Luce), over the games that are over and checked GOOD only. A tampered or
unchecked game never counts. The evening is the games started in the last `EVENING` hours;
the season is every game in the file."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from club.store import ClubGame

EVENING = timedelta(hours=12)


@dataclass
class Standing:
    player: str
    plays: int = 0
    wins: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "plays": self.plays, "wins": self.wins,
                "rating": round(self.ordinal, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2)}


@dataclass
class Table:
    game: str
    rows: list[Standing] = field(default_factory=list)


def counted(games: Iterable[ClubGame]) -> list[ClubGame]:
    """The games the standings count: over and GOOD, oldest first."""
    return sorted((g for g in games if g.status == "over" and g.check == "good"),
                  key=lambda g: (g.started_at or "", g.box, g.game))


def standings(games: Iterable[ClubGame], *, ruleset: str | None = None,
              since: datetime | None = None) -> list[Table]:
    """Each game's standings (best rating first)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    tables: dict[str, dict[str, Standing]] = {}
    ratings: dict[tuple[str, str], Any] = {}
    for g in counted(games):
        if g.ruleset is None or (ruleset is not None and g.ruleset != ruleset):
            continue
        if since is not None and (g.started_at is None
                                  or datetime.fromisoformat(g.started_at) < since):
            continue
        rows = tables.setdefault(g.ruleset, {})
        winners = set((g.result or {}).get("winners") or [])
        for p in g.players:
            s = rows.setdefault(p, Standing(p))
            s.plays += 1
            s.wins += p in winners
        if not winners or winners >= set(g.players) or len(g.players) < 2:
            continue  # everyone won or nobody did (a cooperative game): no order to rate
        teams = [[ratings.get((g.ruleset, p)) or model.rating(name=p)] for p in g.players]
        rated = model.rate(teams, ranks=[1 if p in winners else 2 for p in g.players])
        for p, (r,) in zip(g.players, rated, strict=True):
            ratings[(g.ruleset, p)] = r
    out = []
    for name, rows in sorted(tables.items()):
        for p, s in rows.items():
            r = ratings.get((name, p)) or model.rating(name=p)
            s.mu, s.sigma, s.ordinal = r.mu, r.sigma, r.ordinal()
        out.append(Table(name, sorted(rows.values(),
                                      key=lambda s: (-s.ordinal, -s.wins, s.player))))
    return out


def evening_start(now: datetime | None = None) -> datetime:
    return (now or datetime.now(UTC)) - EVENING
