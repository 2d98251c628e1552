"""The Gallerist on the box (device/games/gallerist/oled.py), found by the game's id: every
step of the scripted game draws; the standings ranked by money in play and by total in final
scoring, a total still owed last; the end. (The buttons running the clock:
tests/device/test_gallerist_box.py.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.games.gallerist import oled as gallerist
from device.render import render
from device.view import oled_screens
from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play


def test_the_box_finds_the_standings_and_follows_the_game() -> None:
    assert oled_screens("gallerist") is gallerist.OLED
    session = Session(seed=play.SEED)
    box = BoxController(session, idle_s=None, game="gallerist")
    try:
        assert box.view().screen == "new"
        script = make_games.game()
        for req in script[:-1]:
            play.ok(session, **req) if req["cmd"] != "undo" else session.handle(req)
            v = box.view()
            assert v.screen in ("clock", "over") and v.lines
            render(v)  # every view draws
            box.act("status")  # the standings, MENU held
            assert box.view().screen == "standings" and box.view().lines
            render(box.view())
            box.act("status")
        v = box.view()
        assert v.title.startswith("Final scoring")
        assert v.lines[1].startswith("1 Ben") and v.lines[1].endswith("54")
        assert v.lines[2].startswith("2 Ann") and v.lines[2].endswith("40")
        play.ok(session, **script[-1])
        v = box.view()
        assert v.screen == "over" and v.lines[0] == "Ben won"
        box.act("undo")  # asked first; then the result stands: the refusal is shown
        assert box.view().screen == "confirm"
        box.act("roll")
        assert box.view().notice and "GAL-24" in (box.view().notice or "")
    finally:
        box.close()


@settings(max_examples=30, deadline=None)
@given(money=st.lists(st.integers(0, 999), min_size=1, max_size=4),
       totals=st.lists(st.one_of(st.none(), st.integers(0, 999)), min_size=4, max_size=4))
def test_standings_rank_best_first_owed_last(money: list[int],
                                             totals: list[int | None]) -> None:
    names = [f"P{i}" for i in range(len(money))]
    play_state = {"players": [{"name": n, "money": m} for n, m in zip(names, money,
                                                                      strict=True)]}
    ranked = gallerist.standings(play_state)
    assert [r[1] for r in ranked] == sorted(money, reverse=True)
    final = {"scoring": {"players": [{"name": n, "total": t} for n, t in
                                     zip(names, totals, strict=False)]}}
    ranked = gallerist.standings(final)
    known = [r[1] for r in ranked if r[1] is not None]
    assert known == sorted(known, reverse=True)
    assert all(r[1] is None for r in ranked[len(known):])
    assert all(r[2] == "..." for r in ranked if r[1] is None)
    places = [gallerist.place(ranked, r[1]) for r in ranked]
    for (_, a, _), (_, b, _), pa, pb in zip(ranked, ranked[1:], places, places[1:],
                                            strict=False):
        if a is not None and b is not None:
            assert (pa == pb) == (a == b)  # tied players share a place
