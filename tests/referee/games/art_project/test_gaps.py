"""ART-15's `minimal_set` house rule, the team's collection order on Rio (ART-17, ART-33) and
a pawn carrying a single artwork (ART-33): each refusal names its rule and changes nothing."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))
MINIMAL = {"clue_overflow": "minimal_set"}


def _chain(*cards: tuple[str, ...]) -> tuple[Clue, ...]:
    return tuple(Clue(f"c{i + 1}", symbols, "Ann") for i, symbols in enumerate(cards))


def _minimal(chain: tuple[Clue, ...], played: tuple[str, ...]) -> Game:
    g = Game(rules=MINIMAL)
    g.drawn()
    g.given(chain=chain, cards=len(chain))
    g.ok("play_card", player="Ann", clues=list(played))
    return g


# ---- ART-15, clue_overflow = "minimal_set" --------------------------------------------------
def test_art_15_minimal_set_never_takes_a_fourth_clue() -> None:
    # c1 and c2 are alike: either makes 3 with c3, the box takes the older without asking
    g = _minimal(_chain(("film",), ("film",)), ("film", "film"))
    assert g.state.pending == ()
    assert [x.id for x in g.state.chain] == ["c2"] and "Film" in g.state.artwork


def test_art_15_minimal_set_the_team_names_the_cards_when_they_differ() -> None:
    g = _minimal(_chain(("film",), ("film", "sculpture")), ("film", "film"))
    p = g.state.pending[0]
    assert (p.decision, p.options, p.symbol) == ("clue_set", ("c1+c3", "c2+c3"), "film")
    assert "Film" not in g.state.artwork and len(g.state.chain) == 3
    g.no("draw", "decision_pending", "ART-15", player="Ann")
    for wrong in ("c1+c2+c3", "c1+c2", "c3", "c1+c4"):
        err = g.no("choose", "bad_choice", "ART-15", choice=wrong)
        assert "exactly 3" in err.message
    events = g.ok("choose", choice="c3+c2")  # any order names the same cards
    assert {"type": "clues_discarded", "symbol": "film", "cards": ["c2", "c3"]} in events
    assert [x.id for x in g.state.chain] == ["c1"] and "Film" in g.state.artwork
    assert g.state.pending == ()


def test_art_15_minimal_set_two_doubles_go_together() -> None:
    g = _minimal(_chain(("film", "film")), ("film", "film"))
    assert g.state.chain == () and "Film" in g.state.artwork and g.state.pending == ()


def test_art_15_minimal_set_after_the_uncover_order() -> None:
    chain = _chain(("film",), ("film", "film"), ("sculpture", "sculpture"))
    for keep, left, sculpture in (("c1+c2", [], True), ("c2+c4", ["c1", "c3"], False)):
        g = _minimal(chain, ("film", "sculpture"))
        assert g.state.pending[0].decision == "uncover_order"
        g.ok("choose", choice="film")  # film counts 4: c2 with c1, or c2 with the new c4
        p = g.state.pending[0]
        assert (p.decision, p.options) == ("clue_set", ("c1+c2", "c2+c4"))
        g.ok("choose", choice=keep)
        # keeping c4 keeps sculpture at 3 (c3, c4): uncovered next; else it drops to 2
        assert [x.id for x in g.state.chain] == left
        assert ("Sculpture" in g.state.artwork) is sculpture and g.state.pending == ()


def test_art_15_all_bearing_is_unchanged() -> None:
    g = Game()
    g.drawn()
    g.given(chain=_chain(("film",), ("film", "sculpture")), cards=2)
    g.ok("play_card", player="Ann", clues=["film", "film"])
    assert g.state.chain == () and g.state.pending == ()


SYMS = ("film", "book")


@settings(max_examples=60, deadline=None)
@given(before=st.lists(st.lists(st.sampled_from(SYMS), max_size=2), max_size=5),
       played=st.lists(st.sampled_from(SYMS), max_size=2), pick=st.data())
def test_art_15_minimal_set_discards_exactly_three_where_it_can(
        before: list[list[str]], played: list[str], pick: st.DataObject) -> None:
    chain = _chain(*(tuple(x) for x in before))
    for sym in SYMS:  # a chain the box could hold: every set already uncovered
        if sum(x.symbols.count(sym) for x in chain) >= 3:
            return
    g = Game(rules=MINIMAL)
    g.drawn()
    g.given(chain=chain, cards=len(chain))
    events = g.ok("play_card", player="Ann", clues=played)
    bearing = {x.id: x.symbols for x in (*chain, Clue(f"c{len(chain) + 1}", tuple(played),
                                                       "Ann"))}
    while True:
        for e in events:
            if e["type"] != "clues_discarded":
                continue
            sym, cards = e["symbol"], e["cards"]
            n = sum(bearing[c].count(sym) for c in cards)
            assert n >= 3 and all(sym in bearing[c] for c in cards)
            if n > 3:  # only when no cards bear exactly 3
                others = [c for c, s in bearing.items() if sym in s]
                assert not any(sum(bearing[c].count(sym) for c in sub) == 3
                               for k in range(1, len(others) + 1)
                               for sub in combinations(others, k))
            for c in cards:
                bearing.pop(c)
        if not g.state.pending:
            break
        p = g.state.pending[0]
        events = g.ok("choose", choice=pick.draw(st.sampled_from(p.options)))
    for sym in SYMS:
        assert sum(x.symbols.count(sym) for x in g.state.chain) < 3
    assert {x.id for x in g.state.chain} == set(bearing)


# ---- ART-17 with ART-33: the team orders Rio's collections ----------------------------------
def _rio_open() -> Game:
    g = Game(["Ann", "Ben"], mission="test-rio-open", catalog=BOARDS)
    g.phase("B")
    g.at("Ann", "Cinema")
    g.at("Ben", "Library")
    g.given(artwork=("Cinema", "Library"))
    return g


def test_art_17_rio_the_team_orders_collections_when_it_matters() -> None:
    g = _rio_open()
    g.ok("end_phase")
    p = g.state.pending[0]
    assert (p.decision, p.options) == ("collect_order", ("Cinema", "Library"))
    assert g.state.phase == "B" and g.state.track == 0
    g.no("move", "decision_pending", "ART-17", player="Ann", to="Central")
    g.no("choose", "bad_choice", "ART-17", choice="Central")
    events = g.ok("choose", choice="Library")  # book first: then film is next on the track
    assert [e["city"] for e in events if e["type"] == "collected"] == ["Library", "Cinema"]
    assert g.state.track == 2 and g.state.agents["Central"] == 4 and g.state.phase == "B/C"
    h = _rio_open()
    h.ok("end_phase")
    events = h.ok("choose", choice="Cinema")  # film first: book is not the next space's
    assert [e["city"] for e in events if e["type"] == "collected"] == ["Cinema"]
    assert h.state.artwork == ("Library",) and h.state.phase == "B/C"


def test_art_17_rio_one_at_a_time_needs_no_question() -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    g.phase("B")
    g.at("Ann", "Cinema")
    g.at("Ben", "Library")
    g.given(artwork=("Cinema", "Library"))
    events = g.ok("end_phase")  # the track fixes the order: book, then film
    assert g.state.pending == ()
    assert [e["city"] for e in events if e["type"] == "collected"] == ["Library", "Cinema"]


def test_art_17_elsewhere_catalog_order() -> None:
    g = Game()
    g.phase("B")
    g.at("Ann", "Sculpture")
    g.at("Ben", "Film")
    g.agents("Sculpture", 0)
    g.agents("Film", 0)
    g.given(artwork=("Sculpture", "Film"))
    events = g.ok("end_phase")
    assert g.state.pending == ()
    got = [e["city"] for e in events if e["type"] == "collected"]
    order = [c.name for c in g.state.mission.cities]  # type: ignore[union-attr]
    assert sorted(got, key=order.index) == got and len(got) == 2


# ---- ART-33: one artwork per pawn -----------------------------------------------------------
def test_art_33_a_pawn_carries_a_single_artwork() -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    g.phase("B")
    g.given(artwork=("Central", "Central"))
    for n in (2, 3):
        g.no("move", "one_artwork", "ART-33", player="Ann", to="Cinema", carry=n)
    g.ok("move", player="Ann", to="Cinema", carry=True)
    assert sorted(g.state.artwork) == ["Central", "Cinema"]  # one went along, one stayed
    g.ok("move", player="Ben", to="Library", carry=True)  # another pawn carries the other
    assert sorted(g.state.artwork) == ["Cinema", "Library"]


def test_the_next_line_names_each_decision() -> None:
    g = _minimal(_chain(("film",), ("film", "sculpture")), ("film", "film"))
    assert g.json["next"] == ("The team chooses which clue cards make the film set: cards 1 and 3 "
                              "or cards 2 and 3.")
    r = _rio_open()
    r.ok("end_phase")
    assert r.json["next"] == ("The team chooses which artwork to collect first: Cinema or "
                              "Library.")


CITIES = ("Central", "Cinema", "Library")


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(("test-rio-open", "test-rio")),
       art=st.lists(st.sampled_from(CITIES), max_size=3, unique=True),
       ann=st.sampled_from(CITIES), ben=st.sampled_from(CITIES),
       guarded=st.sets(st.sampled_from(CITIES)), pick=st.data())
def test_art_17_rio_every_collection_follows_the_track(
        board: str, art: list[str], ann: str, ben: str, guarded: set[str],
        pick: st.DataObject) -> None:
    g = Game(["Ann", "Ben"], mission=board, catalog=BOARDS)
    g.phase("B")
    g.at("Ann", ann)
    g.at("Ben", ben)
    for city in guarded:
        g.agents(city, 1)
    g.given(artwork=tuple(art))
    m = g.state.mission
    assert m is not None
    events = g.ok("end_phase")
    while True:
        for e in events:
            if e["type"] == "collected":
                want = m.track[e["space"] - 1].symbol
                assert e["city"] in (ann, ben) and e["city"] not in guarded
                assert want is None or m.city(e["city"]).symbol == want  # type: ignore[union-attr]
        if not g.state.pending:
            break
        p = g.state.pending[0]
        # asked only when several wait at once, and only those that may be collected now
        assert p.decision == "collect_order" and len(p.options) > 1
        assert set(p.options) <= {ann, ben} - guarded and set(p.options) <= set(g.state.artwork)
        events = g.ok("choose", choice=pick.draw(st.sampled_from(p.options)))
    assert g.state.phase == "B/C" or g.state.over
    if not g.state.over:  # nothing collectable is left behind
        space = g.state.space
        want = None if space is None else m.track[space].symbol
        assert not [c for c in g.state.artwork if c in (ann, ben)
                    and not g.state.agents.get(c, 0) and (want is None or m.city(c).symbol == want)]  # type: ignore[union-attr]
