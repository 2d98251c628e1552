"""The page's table and verdicts are the ruleset's (DescribesTable), whatever the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.luck import luck
from referee.ruleset import DescribesTable
from referee.session import Session
from referee.store import EventStore
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream
from tests.referee.toy_ruleset import RULESET as TOY
from web import page
from web.view import Snapshots, last_verdict

ART_GAME = Path(__file__).parents[1] / "referee/games/art_project/win.jsonl"
STREAM = long_stream(300)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 300))
def test_gallery_grippers_table_and_bypass_verdict_follow_the_state(n: int) -> None:
    session = Session(seed=SEED)
    for request in STREAM[:n]:
        assert session.handle(request)["ok"]
    data = Snapshots().snapshot(session)
    players = session.ruleset.state_json(session.state)["players"]
    assert [s["name"] for s in data["seats"]] == [p["name"] for p in players]
    for seat, p in zip(data["seats"], players, strict=True):
        figures = dict(seat["figures"])
        assert figures["strikes"] == f"{p['strikes']} of 3"
        assert figures["money"] == f"${p['money']:,}"
        assert figures["where"] == p["where"]
    bypasses = [(e.seq, ev) for e in session.log if not e.undone for ev in e.events
                if ev["type"] == "bypass"]
    if bypasses:
        seq, ev = bypasses[-1]
        v = data["verdict"]
        assert v["seq"] == seq
        terms = dict(v["terms"])
        assert terms["total"] == str(ev["total"])
        assert terms["needs at least"] == str(ev["target"])
        assert terms["verdict"] == ("bypassed" if ev["success"] else "failed")
    else:
        assert data["verdict"] is None


def test_the_art_project_table_and_battle_verdicts_over_a_whole_game() -> None:
    session = Session(seed=bytes.fromhex("5a" * 32))
    battles = 0
    for line in ART_GAME.read_text(encoding="utf-8").splitlines():
        assert session.handle(json.loads(line))["ok"], line
        data = Snapshots().snapshot(session)
        sj = session.ruleset.state_json(session.state)
        if sj.get("players"):
            seats = {s["name"]: dict(s["figures"]) for s in data["seats"]}
            for p in sj["players"]:
                assert seats[p["name"]]["health"] == str(p["health"])
                assert seats[p["name"]]["city"] == p["city"]
            team = seats["The team"]
            assert team["artwork track"] == (f"{sj['artwork']['track']} of "
                                            f"{sj['artwork']['spaces']}")
        battle = [ev for ev in session.log[-1].events if ev["type"] == "battle"]
        if battle:
            battles += 1
            terms = dict(data["verdict"]["terms"])
            assert terms["team strength"] == str(battle[-1]["strength"])
            assert terms["agents' strength"] == str(battle[-1]["agents_strength"])
            assert terms["verdict"] == ("won" if battle[-1]["won"] else "not yet won")
        page.body(data)  # draws, whatever the state
    assert battles >= 1 and session.state.over


def test_a_game_that_does_not_describe_its_table_still_gets_a_page() -> None:
    games.register(TOY)
    assert not isinstance(TOY, DescribesTable)
    assert isinstance(games.default(), DescribesTable)
    session = Session(seed=SEED)
    assert session.handle({"cmd": "new_game", "game": TOY.id, "players": ["Ann", "Ben"]})["ok"]
    for who in ("Ann", "Ben", "Ann"):
        assert session.handle({"cmd": "roll", "player": who})["ok"]
    data = Snapshots().snapshot(session)
    assert data["verdict"] is None and data["game_id"] == TOY.id
    rolled = {(t["player"], t["die"], t["source"]): t["rolls"] for t in data["luck"]["tallies"]}
    assert rolled == {("Ann", "d6", "electronic"): 4, ("Ben", "d6", "electronic"): 2}
    html = page.body(data)
    assert "Next: Ben rolls." in html  # its own `next`


@settings(max_examples=8, deadline=None)
@given(gaps=st.lists(st.integers(1, 40), min_size=1, max_size=8),
       new_game_at=st.integers(1, 299))
def test_the_page_kept_all_evening_shows_what_a_fresh_look_shows(
    gaps: list[int], new_game_at: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """One Snapshots for the whole evening (as the server keeps it), looked at after every
    few commands, with a file that holds the old entries (a tail of 3 in memory) and a new game
    part-way: its luck report and last verdict are luck() and last_verdict() over the log."""
    path = tmp_path_factory.mktemp("kept") / "games.sqlite"
    # the same seed: even the new game's commitment is the same
    evening = [*STREAM[:new_game_at], {**STREAM[0], "abandon": True}, *STREAM[1:]]
    kept = Snapshots()
    played = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("referee.running.TAIL", 3)
        session = Session(seed=SEED, store=EventStore.open(path))
        try:
            for gap in gaps:
                for request in evening[played:played + gap]:
                    assert session.handle(request)["ok"]
                played += gap
                data = kept.snapshot(session)
                assert data["luck"] == luck(session.log, session.ruleset).to_json()
                assert data["verdict"] == last_verdict(session.ruleset, session.log)
        finally:
            session.close()


NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                max_size=12)


@given(st.lists(NAMES, max_size=6, unique=True), st.sampled_from(
    ["last_player_standing", "track_full", "money", ""]), st.sampled_from(["won", "lost"]))
def test_the_end_of_a_game_in_words(winners: list[str], reason: str, outcome: str) -> None:
    line = page.game_over({"outcome": outcome, "winners": winners, "reason": reason,
                           "rule": "X-1"})
    assert line.startswith("Game over: ") and line.endswith(" (X-1)")
    for w in winners:
        assert w in line
    if winners:
        verb = "wins" if len(winners) == 1 else "win"
        assert line.startswith(f"Game over: {winners[0]}") and f"{winners[-1]} {verb}" in line
    else:
        assert f"Game over: {outcome}" in line
    if reason:
        assert reason.replace("_", " ") in line


def test_a_game_s_own_colour_names_get_the_palette_s_nearest() -> None:
    for own, palette in (("red", "vermillion"), ("green", "bluish green"),
                         ("purple", "reddish purple"), ("Blue", "blue")):
        assert page.colour_class(own) == page.colour_class(palette) != ""
    assert page.colour_class("white") == page.colour_class(None) == ""
