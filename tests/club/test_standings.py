"""Tonight's and the season's standings over games of any age (club.standings).

Tonight is the games started in the last 12 hours (`EVENING`), rated among themselves; the
season is every game. Only games over and checked GOOD count. The figures are worked out here
independently: plays and wins by counting, and the ratings by replaying openskill over the
games in the order they started."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from club.standings import EVENING, counted, evening_start, standings
from club.store import ClubGame

NOW = datetime(2026, 12, 2, 23, 0, tzinfo=UTC)
NAMES = ["Ann", "Ben", "Cy", "Dee", "王小明", "Ελένη"]
RULESETS = ["gallery-grippers", "gallerist", "art-project"]


@st.composite
def club_games(draw: st.DrawFn) -> list[ClubGame]:
    games = []
    for i in range(draw(st.integers(0, 12))):
        players = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
        winners = draw(st.lists(st.sampled_from(players), max_size=len(players), unique=True))
        # minutes before NOW: either side of the evening's start, and on it exactly
        ago = draw(st.one_of(st.integers(0, 48 * 60), st.just(12 * 60),
                             st.sampled_from([12 * 60 - 1, 12 * 60 + 1])))
        started = None if draw(st.integers(0, 9)) == 0 else (
            NOW - timedelta(minutes=ago)).isoformat(timespec="milliseconds")
        games.append(ClubGame(
            box=f"box-{draw(st.integers(0, 2))}", game=i + 1,
            ruleset=draw(st.sampled_from(RULESETS)), players=players, started_at=started,
            ended_at=started, status=draw(st.sampled_from(["over", "over", "playing",
                                                           "abandoned"])),
            result={"winners": winners}, entries=10,
            check=draw(st.sampled_from(["good", "good", "tampered", "pending"])),
            problems=[], commitment=None))
    return games


def tonight(g: ClubGame) -> bool:
    return g.started_at is not None and datetime.fromisoformat(g.started_at) >= NOW - EVENING


def expected(games: list[ClubGame]) -> dict[str, dict[str, tuple[int, int, float]]]:
    """Per ruleset, per player: (plays, wins, rating), worked out from the games alone."""
    model = PlackettLuce()
    out: dict[str, dict[str, tuple[int, int, float]]] = {}
    rating: dict[tuple[str, str], Any] = {}
    ordered = sorted(games, key=lambda g: (g.started_at or "", g.box, g.game))
    for g in ordered:
        assert g.ruleset is not None
        if g.status != "over" or g.check != "good":
            continue
        winners = set((g.result or {})["winners"])
        rows = out.setdefault(g.ruleset, {})
        for p in g.players:
            plays, wins, _ = rows.get(p, (0, 0, 0.0))
            rows[p] = (plays + 1, wins + (p in winners), 0.0)
        if winners and winners != set(g.players) and len(g.players) > 1:
            teams = [[rating.get((g.ruleset, p)) or model.rating(name=p)] for p in g.players]
            new = model.rate(teams, ranks=[1 if p in winners else 2 for p in g.players])
            for p, (r,) in zip(g.players, new, strict=True):
                rating[(g.ruleset, p)] = r
    for ruleset, rows in out.items():
        for p, (plays, wins, _) in rows.items():
            r = rating.get((ruleset, p)) or model.rating(name=p)
            rows[p] = (plays, wins, r.ordinal())
    return out


def shown(tables: list[Any]) -> dict[str, dict[str, tuple[int, int, float]]]:
    return {t.game: {s.player: (s.plays, s.wins, s.ordinal) for s in t.rows} for t in tables}


def close(a: dict[str, dict[str, tuple[int, int, float]]],
          b: dict[str, dict[str, tuple[int, int, float]]]) -> bool:
    return a.keys() == b.keys() and all(
        a[k].keys() == b[k].keys() and all(
            a[k][p][:2] == b[k][p][:2] and abs(a[k][p][2] - b[k][p][2]) < 1e-9 for p in a[k])
        for k in a)


def test_the_evening_starts_twelve_hours_ago() -> None:
    assert timedelta(hours=12) == EVENING
    assert evening_start(NOW) == datetime(2026, 12, 2, 11, 0, tzinfo=UTC)


@settings(deadline=None)  # (openskill's rating of a dozen games; a loaded machine)
@given(club_games())
def test_tonight_counts_only_the_last_twelve_hours_and_the_season_every_game(
        games: list[ClubGame]) -> None:
    season = shown(standings(games))
    assert close(season, expected(games))
    night = shown(standings(games, since=evening_start(NOW)))
    assert close(night, expected([g for g in games if tonight(g)]))
    # a game older than the evening (or with no start) is in the season and not tonight
    for g in counted(games):
        assert g.ruleset is not None
        for p in g.players:
            assert season[g.ruleset][p][0] >= 1
    old = [g for g in counted(games) if not tonight(g)]
    for g in old:
        assert g.ruleset is not None
        plays_tonight = sum(1 for h in counted(games) if tonight(h) and h.ruleset == g.ruleset
                            and g.players[0] in h.players)
        assert night.get(g.ruleset, {}).get(g.players[0], (0, 0, 0.0))[0] == plays_tonight


def test_a_game_started_just_over_twelve_hours_ago_is_the_season_s_only() -> None:
    def game(number: int, minutes_ago: int, winner: str) -> ClubGame:
        at = (NOW - timedelta(minutes=minutes_ago)).isoformat(timespec="milliseconds")
        return ClubGame(box="box-0", game=number, ruleset="gallery-grippers",
                        players=["Ann", "Ben"], started_at=at, ended_at=at, status="over",
                        result={"winners": [winner]}, entries=10, check="good", problems=[],
                        commitment=None)

    games = [game(1, 12 * 60 + 1, "Ann"), game(2, 12 * 60, "Ben"), game(3, 30, "Ben")]
    night = shown(standings(games, since=evening_start(NOW)))["gallery-grippers"]
    season = shown(standings(games))["gallery-grippers"]
    assert (night["Ann"][:2], night["Ben"][:2]) == ((2, 0), (2, 2))
    assert (season["Ann"][:2], season["Ben"][:2]) == ((3, 1), (3, 2))
    # tonight Ben beat Ann twice and nothing else: a higher rating than in the season
    assert night["Ben"][2] > season["Ben"][2]
