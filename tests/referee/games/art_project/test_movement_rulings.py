"""Moving pawns, unlocking ally dice and exchanging clue cards (ART-16, ART-18, ART-30,
ART-32, ART-34): which pawn moves, what a step costs on which board, what the events name and
what each refusal says. Pinned from the survivors of mutation testing rules/movement.py
(issue 28; docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.games.art_project.catalog import Road
from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def in_b(g: Game) -> Game:
    g.phase("B")
    return g


def roads(g: Game, *given: Road) -> None:
    """The game's mission with these roads instead of its own."""
    assert g.state.mission is not None
    g.given(mission=replace(g.state.mission, roads=given))


def test_moving_belongs_to_phase_b_and_each_refusal_says_why() -> None:
    g = Game()
    g.drawn()
    err = g.no("move", "wrong_phase", "ART-16", player="Ann", to="Film")
    assert err.message == ("Moving a pawn belongs to the movement phase (B); the game is in "
                           "the mission phase (A).")
    in_b(g)
    g.given(lost=("Film",))
    err = g.no("move", "city_lost", "ART-16", player="Ann", to="Film")
    assert err.message == "Film is lost: no pawn may enter or pass through it."
    err = g.no("move", "no_road", "ART-16", player="Ann", to="Book")
    assert err.message == "No road joins Start and Book; move one road at a time."


def test_the_moved_event_names_the_pawn_the_player_the_fuel_and_the_map() -> None:
    g = in_b(Game())
    g.van("fuel", 1)
    events = g.ok("move", player="Ann", to="Film")
    assert events[-1] == {"type": "moved", "pawn": "Ann", "player": "Ann", "from": "Start",
                          "to": "Film", "fuel": 1, "map": "checked"}
    assert events[0]["type"] == "paid" and events[0]["player"] == "Ann"
    assert events[0]["fuel"] == 1 and events[0]["health"] == {}
    assert g.state.van["fuel"] == 0


def test_a_step_the_van_cannot_fuel_is_paid_in_the_movers_health() -> None:
    """ART-7: the fuel the van lacks is paid in health; the moved event counts only the van's
    fuel, the paid event names who paid."""
    g = in_b(Game())
    g.van("fuel", 0)
    health = g.state.player("Ann").health  # type: ignore[union-attr]
    g.no("move", "not_enough_fuel", "ART-16", player="Ann", to="Film")
    events = g.ok("move", player="Ann", to="Film", health=1)
    paid, moved = events
    assert (paid["type"], paid["player"], paid["fuel"], paid["health"]) == ("paid", "Ann", 0,
                                                                            {"Ann": 1})
    assert moved == {"type": "moved", "pawn": "Ann", "player": "Ann", "from": "Start",
                     "to": "Film", "fuel": 0, "map": "checked"}
    assert g.state.player("Ann").health == health - 1  # type: ignore[union-attr]


def test_solo_the_player_and_the_ally_pawn_move_each_from_where_it_stands() -> None:
    """ART-34: `ally` moves solo's second pawn; without it the player's own pawn moves, even
    with an ally pawn on the board."""
    g = in_b(Game(["Ann"], ally="blue"))
    assert g.state.ally is not None
    g.given(ally=replace(g.state.ally, city="Film"))
    moved = g.ok("move", player="Ann", to="Sculpture")[-1]
    assert (moved["pawn"], moved["from"], moved["to"]) == ("Ann", "Start", "Sculpture")
    assert g.state.player("Ann").city == "Sculpture"  # type: ignore[union-attr]
    assert g.state.ally.city == "Film"
    moved = g.ok("move", player="Ann", to="Book", ally=True)[-1]
    assert (moved["pawn"], moved["player"], moved["from"], moved["to"]) == ("blue", "Ann",
                                                                            "Film", "Book")
    assert g.state.ally.city == "Book"
    assert g.state.player("Ann").city == "Sculpture"  # type: ignore[union-attr]


def test_polynesia_moves_to_any_island_whatever_roads_a_catalog_lists() -> None:
    """ART-32: on Polynesia a pawn sails to any island; a catalog's roads do not bind it."""
    g = in_b(Game(["Ann", "Ben"], mission="test-polynesia", catalog=BOARDS))
    roads(g, Road("Home", "Book A"))
    moved = g.ok("move", player="Ann", to="Film A")[-1]
    assert (moved["from"], moved["to"], moved["fuel"], moved["map"]) == ("Home", "Film A", 1,
                                                                        "checked")


def test_a_roads_direction_thread_and_dashes_count_only_on_their_own_board() -> None:
    """ART-29 (Egypt's north and south), ART-31 (Scandinavia's red thread), ART-33 (Rio's
    free road): on another board a road so marked costs one fuel like any other."""
    g = in_b(Game())
    roads(g, Road("Start", "Film", dir="north", thread="red", free=True))
    g.van("fuel", 3)
    moved = g.ok("move", player="Ann", to="Film")[-1]
    assert moved["fuel"] == 1 and g.state.van["fuel"] == 2


def test_unlock_ally_refusals_name_the_windows_and_the_event_the_cost() -> None:
    g = in_b(Game())
    err = g.no("unlock_ally", "wrong_phase", "ART-18")
    assert err.message == ("Ally dice are unlocked between phases (A/B, B/C, C/D), not in "
                           "phase B.")
    g = in_b(Game(rules={"ally_windows": "every_boundary"}))
    err = g.no("unlock_ally", "wrong_phase", "ART-18")
    assert err.message == ("Ally dice are unlocked between phases (A/B, B/C, C/D, D/A), not "
                           "in phase B.")
    g = Game(rules={"unlocks_per_window": "one"})
    g.phase("A/B")
    events = g.ok("unlock_ally")
    assert events[-1] == {"type": "ally_unlocked", "allies": 1, "cost": 1}
    err = g.no("unlock_ally", "one_unlock_per_window", "ART-18")
    assert err.message == ("One ally die between two phases (the house rule \"Ally dice "
                           'unlocked at a time: one").')


def test_a_clue_card_changes_hands_only_together_and_says_so() -> None:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    g.phase("C/D")
    g.given(chain=(Clue("c1", ("book",), "Ann"),), cards=1)
    g.at("Ann", "Dallas")
    g.at("Ben", "Boston")
    err = g.no("give_clue", "not_together", "ART-30",
               **{"from": "Ann", "to": "Ben", "card": "c1"})
    assert err.message == ("Clue cards change hands only between players in the same city "
                           "with no agent there.")
