"""The Gallerist as a front end that knows no game sees it (referee/games/gallerist/table.py,
issue 25): seats with money, influence, pieces and gallery; the board's panels (the clock,
the setup checklist whole, the box office and bag, the artists, the final scoring term by
term); the verdicts of an intermediate and the final scoring. Checked along the scripted
game against the state JSON, and on random reachable states (both catalogs) for shape."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.gallerist import RULESET
from referee.games.gallerist.rules.scoring import CATEGORY_WORDS
from referee.games.gallerist.state import CATEGORIES
from referee.ruleset import DescribesBoard, DescribesTable, Panel
from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play


def well_formed(panels: list[Panel]) -> None:
    for p in panels:
        assert p.title and p.rows
        assert len({len(r) for r in p.rows}) == 1, p  # every row as wide as the first
        assert all(isinstance(c, str) for r in p.rows for c in r)


def panel(panels: list[Panel], title: str) -> dict[str, tuple[str, ...]]:
    found = next(p for p in panels if p.title == title)
    return {r[0]: r[1:] for r in found.rows}


def test_the_ruleset_describes_its_table_and_board() -> None:
    assert isinstance(RULESET, DescribesTable) and isinstance(RULESET, DescribesBoard)
    before = RULESET.initial_state(RULESET.load_catalog(None))
    assert RULESET.board(before) == [] and RULESET.table(before) == []


def test_along_the_scripted_game_every_figure_is_the_state_s() -> None:
    s = Session(seed=play.SEED)
    seen_titles: set[str] = set()
    for req in make_games.game():
        play.ok(s, **req)
        j = s.ruleset.state_json(s.state)
        board = RULESET.board(s.state)
        well_formed(board)
        seen_titles |= {p.title for p in board}
        clock = panel(board, "The clock")
        assert clock["next"] == (j["next"],)
        seats = RULESET.table(s.state)
        assert [x.name for x in seats] == [p["name"] for p in j["players"]]
        for seat, p in zip(seats, j["players"], strict=True):
            figures = {f.label: f.value for f in seat.figures}
            assert figures["money"] == f"${p['money']}"
            assert figures["influence"] == str(p["influence"])
            assert seat.color == p["color"]  # the colour new_game gave the seat
        if j["phase"] == "setup":
            rows = panel(board, "Setup checklist")
            listed = j["setup"]["checklist"]
            assert len(rows) == 1 + len(listed) == 11  # the header and all ten steps
            for item in listed:
                assert rows[item["item"]] == (item["words"], "yes" if item["done"] else "no")
        if j["phase"] == "play":
            assert clock["whose turn"] == (j["current"],)
            assert clock["round"][0].startswith(str(j["round"]))
            bag = panel(board, "Box office and bag")
            for colour, n in j["tickets"].items():
                assert bag[colour][0] == str(n)
                assert bag[colour][1] == str(j["bag"].get(colour, 0))
            assert bag["all colours"] == (str(sum(j["tickets"].values())),
                                          str(sum(j["bag"].values())))  # (issue 39)
            art = panel(board, "Artists")
            for name, a in j["artists"].items():
                state = art[name][-1]
                assert (state == "celebrity") == a["celebrity"]
                assert (state == "face down") == (not a["discovered"])
        if j["scoring"] is not None:
            table = panel(board, "Final scoring")
            names = table[""]
            for i, p in enumerate(j["scoring"]["players"]):
                assert names[i] == p["name"]
                for c in CATEGORIES:
                    cell = table[CATEGORY_WORDS[c]][i]
                    if p[c] is None:
                        assert cell == "…"
                    else:
                        assert cell.split()[0] == f"${p[c]}"
                        assert ("(entered)" in cell) == (p["sources"][c] == "table")
                total = table["total"][i]
                assert total == ("…" if p["total"] is None else f"${p['total']}")
    assert {"Setup checklist", "Final scoring", "What each figure is made of",
            "International market majorities", "Auction"} <= seen_titles
    # the end: the result in the clock, the verdict term by term, the winner's seat
    board = RULESET.board(s.state)
    assert panel(board, "The clock")["result"] == ("Ben wins: the most money",)
    terms = panel(board, "What each figure is made of")
    ann = terms[""].index("Ann")
    assert terms[CATEGORY_WORDS["exhibited"]][ann] == "RedA (fame 19, masterpiece) $15"
    assert terms[CATEGORY_WORDS["market"]][ann] == ("column 1: 1 assistant(s), places 1-2 "
                                                     "shared, $4")
    title, figures = RULESET.verdict(s.log[-1].events) or ("", [])
    assert title == "Final scoring (GAL-24)"
    assert [(f.label, f.value) for f in figures] == [
        ("Ben", "$54"), ("Ann", "$40"), ("decided by", "the most money"), ("winner", "Ben")]
    assert [x.status for x in RULESET.table(s.state)] == [None, "won"]


def test_an_intermediate_scoring_s_verdict() -> None:
    events = [{"type": "intermediate", "tile": 2, "qualifying": ["Ann", "Cy"],
               "benefit": {"money": 3}, "stack": "pink", "complete": True}]
    title, figures = RULESET.verdict(events) or ("", [])
    assert title == "Intermediate scoring, goal tile 2 (GAL-14)"
    assert figures[-1].value == "Ann and Cy"
    assert ("each qualifying player gets", "+3 money") in [(f.label, f.value) for f in figures]
    assert RULESET.verdict([{"type": "moved", "player": "Ann"}]) is None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.data(), players=st.integers(1, 4), fixture=st.booleans())
def test_any_reachable_state_is_described(pick: st.DataObject, players: int,
                                          fixture: bool) -> None:
    s = Session(seed=play.SEED)
    start: dict[str, Any] = {**play.START, "players": [*play.NAMES, "Dee"][:players]}
    if not fixture:  # the built-in catalog: a bag by count, figures entered by the table
        del start["catalog"]
        start["bag"] = 9
    play.ok(s, **start)
    for _ in range(pick.draw(st.integers(0, 150))):
        if s.state.over:
            break
        s.handle(play._requests(s.state, pick))
        board = RULESET.board(s.state)
        well_formed(board)
        assert board[0].title == "The clock"
        assert [x.name for x in RULESET.table(s.state)] == list(s.state.names)
        for entry in s.log[-1:]:
            RULESET.verdict(entry.events)
