"""The team's choices carrying on (`choose`, ART-15, ART-17, ART-30, ART-31, ART-32): whose
chain a chosen set is counted in, what the choice's events name, and what a decision answered
late still carries on with. Pinned from the survivors of mutation testing rules/choices.py
(issue 28; docs/mutation.md).

Some start from a chain holding two complete sets at once (a "given" state, as in
test_gaps.py): play only ever completes the sets of the card just added, but the box settles
every set a chain holds, one after another, and these show it does so in the right chain."""

from __future__ import annotations

from pathlib import Path

from referee.games.art_project.state import Clue, Pending
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def usa(chain: tuple[Clue, ...], pending: Pending, **rules: str) -> Game:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS, rules=rules)
    g.drawn()
    g.given(chain=chain, cards=len(chain), pending=(pending,))
    return g


def discarded(events: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["symbol"], e["cards"]) for e in events if e["type"] == "clues_discarded"]


def uncovered(events: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for e in events if e["type"] == "uncovered"]


def test_usa_the_set_chosen_first_and_the_next_are_the_players_own() -> None:
    """ART-30: on USA each player's clues make their own sets; after the chosen set, the same
    player's other set is uncovered, and the other player's cards stay."""
    ann = tuple(Clue(f"c{i}", (sym,), "Ann") for i, sym in
                enumerate(("film", "film", "film", "book", "book", "book"), 1))
    ben = (Clue("c7", ("film",), "Ben"), Clue("c8", ("book",), "Ben"))
    g = usa(ann + ben, Pending("uncover_order", ("film", "book"), chain="Ann"))
    events = g.ok("choose", choice="film")
    assert discarded(events) == [("film", ["c1", "c2", "c3"]), ("book", ["c4", "c5", "c6"])]
    assert uncovered(events) == [{"type": "uncovered", "symbol": "film", "city": "Boston"},
                                 {"type": "uncovered", "symbol": "book", "city": "Denver"}]
    assert [x.id for x in g.state.chain] == ["c7", "c8"] and g.state.pending == ()


def test_usa_minimal_set_the_chosen_cards_then_the_players_next_set() -> None:
    """ART-15 (`clue_overflow = "minimal_set"`) on USA (ART-30): the sets offered and the one
    uncovered next are counted in the player's own chain: Ben's book card would make a second
    way to the book set if it counted."""
    chain = (Clue("c1", ("film",), "Ann"), Clue("c2", ("film", "film"), "Ann"),
             Clue("c3", ("book", "book"), "Ann"), Clue("c4", ("film", "book"), "Ann"),
             Clue("c5", ("book",), "Ben"))
    g = usa(chain, Pending("uncover_order", ("film", "book"), chain="Ann"),
            clue_overflow="minimal_set")
    g.ok("choose", choice="film")
    [p] = g.state.pending
    assert (p.decision, p.options, p.symbol, p.chain) == ("clue_set", ("c1+c2", "c2+c4"),
                                                          "film", "Ann")
    events = g.ok("choose", choice="c1+c2")
    assert discarded(events) == [("film", ["c1", "c2"]), ("book", ["c3", "c4"])]
    assert [e["city"] for e in uncovered(events)] == ["Boston", "Denver"]
    assert [x.id for x in g.state.chain] == ["c5"] and g.state.pending == ()


def test_polynesia_the_island_asked_after_the_clue_set_and_the_uncovered_event() -> None:
    """ART-15 then ART-32: after the chosen set (played for, not given) the team chooses the
    island; the question names whose chain it came from and the event names the symbol."""
    g = Game(["Ann", "Ben"], mission="test-polynesia", catalog=BOARDS,
             rules={"clue_overflow": "minimal_set"})
    g.drawn()
    g.given(chain=(Clue("c1", ("film",), "Ann"), Clue("c2", ("film", "book"), "Ann")), cards=2)
    g.ok("play_card", player="Ann", clues=["film", "film"])  # c3: film 4, c3 with c1 or c2
    assert g.state.pending[0].decision == "clue_set"
    events = g.ok("choose", choice="c3+c1")
    assert discarded(events) == [("film", ["c1", "c3"])]
    [p] = g.state.pending
    assert (p.decision, p.options, p.symbol, p.chain) == ("uncover_island",
                                                          ("Film A", "Film B"), "film", "Ann")
    events = g.ok("choose", choice="Film B")
    assert uncovered(events) == [{"type": "uncovered", "symbol": "film", "city": "Film B"}]
    assert g.state.artwork == ("Film B",) and g.state.pending == ()
    assert [x.id for x in g.state.chain] == ["c2"]


def scandinavia_two_collections() -> Game:
    g = Game(["Ann", "Ben"], mission="test-scandinavia", catalog=BOARDS)
    g.phase("B")
    g.given(artwork=("Bergen", "Narvik"))
    g.at("Ann", "Bergen")
    g.at("Ben", "Narvik")
    g.agents("Bergen", 0)
    g.agents("Narvik", 0)
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 1)
    return g


def test_scandinavia_an_effect_asked_after_the_collect_order_still_ends_the_movement() -> None:
    """ART-17 with ART-31: the team orders the collections; the first city's effect asks
    which resources go, and once answered the second artwork is collected and phase B ends."""
    g = scandinavia_two_collections()
    g.ok("end_phase")
    [p] = g.state.pending
    assert (p.decision, p.options, p.then) == ("collect_order", ("Bergen", "Narvik"),
                                               "end_of_movement")
    err = g.no("choose", "bad_choice", "ART-17", choice="Oslo")
    assert err.message == "Choose one of Bergen, Narvik, not 'Oslo'."
    g.ok("choose", choice="Bergen")
    [p] = g.state.pending
    assert (p.decision, p.then) == ("lose_resources", "end_of_movement")
    assert g.state.phase == "B"
    events = g.ok("choose", choice="fuel+radio")
    assert [e["city"] for e in events if e["type"] == "collected"] == ["Narvik"]
    assert g.state.phase != "B" and g.state.pending == ()
    assert g.state.track == 2
