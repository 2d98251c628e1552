"""The round's phases (ART-9, ART-17, ART-24, ART-25, ART-30, ART-33): when a pawn that must
leave a lost city is surrounded, on a map, on Polynesia and in trusted mode; what the end of
movement gives and asks; what each refusal of `end_phase` says; the next round's draws.
Pinned from the survivors of mutation testing rules/phases.py (issue 28; docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from referee.games.art_project.catalog import Road
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def must_leave(g: Game, name: str, city: str) -> None:
    """`name` stands in the lost `city` with must_leave, as a city_lost event leaves it."""
    g.given(players=tuple(replace(p, city=city, must_leave=True) if p.name == name else p
                          for p in g.state.players))


def open_movement(g: Game) -> list[dict[str, object]]:
    """From the A/B window into B, where `surrounded_check = "at_movement"` looks."""
    g.phase("A/B")
    return g.ok("end_phase")


# ---- what end_phase waits for (ART-9) ------------------------------------------------------

def test_rio_phase_a_waits_for_the_setup_agents() -> None:
    """Rio: each player places 2 agents before the first round's mission phase can end
    (ART-33), and the refusal says so before it looks at draws or cards."""
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    err = g.no("end_phase", "setup_agents_owed", "ART-33")
    assert err.message == "First every player places their 2 agents in any district."
    g.ok("place_agents", player="Ann", agents={"Cinema": 2})
    g.no("end_phase", "setup_agents_owed", "ART-33")
    g.ok("place_agents", player="Ben", agents={"Library": 2})
    g.no("end_phase", "draws_outstanding", "ART-10")


def test_phase_a_waits_for_every_draw_then_every_card_and_names_who_owes() -> None:
    g = Game(["Ann", "Ben"])
    err = g.no("end_phase", "draws_outstanding", "ART-10")
    assert err.message == "Draws still owed: Ann 2, Ben 2."
    g.drawn()
    err = g.no("end_phase", "cards_unplayed", "ART-13")
    assert err.message == "Ann and Ben still owe a mission card."
    g.ok("play_card", player="Ann")
    err = g.no("end_phase", "cards_unplayed", "ART-13")
    assert err.message == "Ben still owes a mission card."
    g.ok("play_card", player="Ben")
    assert g.ok("end_phase")[-1] == {"type": "phase", "phase": "A/B"}


@pytest.mark.parametrize(("artwork", "words"), [
    (("Cinema", "Cinema"), "Cinema holds"),
    (("Library", "Cinema", "Library", "Cinema"), "Cinema and Library hold")])
def test_rio_movement_ends_with_one_artwork_a_district(artwork: tuple[str, ...],
                                                       words: str) -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    g.phase("B")
    g.given(artwork=artwork)
    err = g.no("end_phase", "two_artworks", "ART-33")
    assert err.message == (f"{words} two artworks: a district holds one when movement "
                           "ends.")


@pytest.mark.parametrize(("who", "words"), [(["Ann"], "Ann must"),
                                            (["Ann", "Ben"], "Ann and Ben must")])
def test_movement_ends_only_once_every_pawn_has_left_a_lost_city(who: list[str],
                                                                 words: str) -> None:
    g = Game(["Ann", "Ben"])
    g.phase("B")
    g.given(lost=("Film",))
    for name in who:
        must_leave(g, name, "Film")
    err = g.no("end_phase", "must_leave", "ART-24")
    assert err.message == f"{words} leave a lost city before movement ends."
    g.ok("move", player="Ann", to="Start")
    if who == ["Ann"]:
        assert g.ok("end_phase")[-1] == {"type": "phase", "phase": "B/C"}


# ---- surrounded (ART-24, ART-27) ---------------------------------------------------------

# test-board's roads around Film: Start-Film (Film the road's second end), Film-Sculpture
# and Film-Book (Film the first end).
@pytest.mark.parametrize(("lost", "surrounded"), [
    (("Film", "Sculpture", "Book"), False),  # out by Start-Film, where Film is `b`
    (("Film", "Start", "Sculpture"), False),  # out by Film-Book, where Film is `a`
    (("Film", "Start", "Sculpture", "Book"), True),  # every road leads to a lost city
])
def test_a_pawn_that_must_leave_is_surrounded_only_when_every_road_leads_to_a_lost_city(
        lost: tuple[str, ...], surrounded: bool) -> None:
    g = Game(["Ann", "Ben"])
    g.given(lost=lost)
    must_leave(g, "Ann", "Film")
    g.at("Ben", "Painting")
    events = open_movement(g)
    assert events[0] == {"type": "phase", "phase": "B"}
    if surrounded:
        assert events[-1] == {"type": "game_over", "outcome": "lost", "winners": [],
                              "reason": "surrounded", "rule": "ART-27"}
    else:
        assert events == [{"type": "phase", "phase": "B"}] and not g.state.over


def test_a_pawn_free_to_stay_is_never_surrounded_even_with_no_road_out() -> None:
    """Only a pawn that must leave (its city lost) can be surrounded: Ann in Start, which is
    not lost, with both its neighbours lost, plays on."""
    g = Game(["Ann", "Ben"])
    g.given(lost=("Film", "Sculpture"))
    g.at("Ben", "Painting")
    assert open_movement(g) == [{"type": "phase", "phase": "B"}] and not g.state.over


@pytest.mark.parametrize("mission", ["test-polynesia", "test-trusted"])
@pytest.mark.parametrize(("others_lost", "surrounded"), [(False, False), (True, True)])
def test_without_a_map_any_city_not_lost_is_a_way_out(mission: str, others_lost: bool,
                                                       surrounded: bool) -> None:
    """Polynesia moves to any island, and trusted mode cannot know the roads: a pawn that must
    leave is surrounded only when every other city is lost."""
    g = Game(["Ann", "Ben"], mission=mission, catalog=BOARDS)
    assert g.state.mission is not None
    names = [c.name for c in g.state.mission.cities]
    here = names[1]
    g.given(lost=tuple(names) if others_lost else (here,))
    must_leave(g, "Ann", here)
    events = open_movement(g)
    assert (events[-1].get("reason") == "surrounded") == surrounded
    assert g.state.over == surrounded


def test_polynesia_ignores_a_catalogs_roads_when_looking_for_a_way_out() -> None:
    """A catalog may list roads for Polynesia; a move still goes to any island (ART-32), so
    the one road out being lost does not surround the pawn."""
    g = Game(["Ann", "Ben"], mission="test-polynesia", catalog=BOARDS)
    assert g.state.mission is not None
    g.given(mission=replace(g.state.mission, roads=(Road("Film A", "Film B"),)),
            lost=("Film A", "Film B"))
    must_leave(g, "Ann", "Film A")
    assert open_movement(g) == [{"type": "phase", "phase": "B"}] and not g.state.over


# ---- the end of movement (ART-17, ART-30, ART-33) ----------------------------------------

def test_the_start_city_gives_a_weapon_only_on_the_usa_board() -> None:
    """Dallas (ART-30) is the USA's start city; ending movement in another board's start city
    gives nothing."""
    g = Game(["Ann", "Ben"])
    g.phase("B")
    g.van("weapon", 0)
    events = g.ok("end_phase")
    assert events == [{"type": "phase", "phase": "B/C"}]
    assert g.state.van["weapon"] == 0
    usa = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    usa.phase("B")
    usa.van("weapon", 0)
    events = usa.ok("end_phase")
    assert events[0] == {"type": "gained", "fuel": 0, "radio": 0, "weapon": 2, "health": {},
                         "short": {}}
    assert usa.state.van["weapon"] == 2


def test_each_pawn_that_moved_counts_the_movers_in_dallas_not_those_who_stayed() -> None:
    g = Game(["Ann", "Ben", "Cy"], mission="test-usa", catalog=BOARDS,
             rules={"dallas_weapon": "each_pawn_that_moved"})
    g.phase("B")
    g.van("weapon", 0)
    g.at("Ben", "Boston")
    g.at("Cy", "Boston")
    g.ok("move", player="Ben", to="Dallas")
    g.ok("move", player="Cy", to="Dallas")  # Ann stayed in Dallas
    g.ok("end_phase")
    assert g.state.van["weapon"] == 2


def test_a_rio_collection_places_two_agents_in_the_central_district() -> None:
    g = Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS)
    g.given(players=tuple(replace(p, setup_agents=0) for p in g.state.players))
    g.phase("B")
    g.given(artwork=("Library",))
    g.at("Ann", "Library")
    g.agents("Library", 0)
    events = g.ok("end_phase")
    assert events[0] == {"type": "collected", "city": "Library", "space": 1, "threat": 5,
                         "ally_cost": 1}
    assert events[1] == {"type": "agents_placed", "city": "Central", "to": "Central",
                         "count": 2, "cause": "collection"}


def test_the_collect_order_decision_names_the_artworks_and_what_carries_on() -> None:
    g = Game(["Ann", "Ben"], mission="test-scandinavia", catalog=BOARDS)
    g.phase("B")
    g.given(artwork=("Narvik", "Turku"))
    g.at("Ann", "Narvik")
    g.at("Ben", "Turku")
    g.agents("Narvik", 0)
    g.agents("Turku", 0)
    events = g.ok("end_phase")
    assert events == [{"type": "pending", "decisions": [
        {"decision": "collect_order", "options": ["Turku", "Narvik"], "player": None,
         "then": "end_of_movement"}]}]


# ---- the next round (ART-10, ART-34) -----------------------------------------------------

@pytest.mark.parametrize(("players", "draws"), [(["Ann"], 3), (["Ann", "Ben"], 2)])
def test_the_next_round_owes_two_draws_each_and_solo_three(players: list[str],
                                                           draws: int) -> None:
    extra = {"ally": "blue"} if len(players) == 1 else {}
    g = Game(players, **extra)
    g.phase("C/D")
    events = g.ok("end_phase")
    assert events == [{"type": "round_started", "round": 2, "draws": draws}]
    assert [p.draws_owed for p in g.state.players] == [draws] * len(players)
