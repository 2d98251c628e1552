"""Phase A, the mission (ART-10..15, ART-30, ART-32): drawing, extra draws and their payment,
playing a card and the clue chain; what each refusal says and what the events name. Pinned
from the survivors of mutation testing rules/mission.py (issue 28; docs/mutation.md).

Two tests start from a chain holding two complete sets at once (a "given" state, as in
test_choice_rulings.py): play only ever completes the sets of the card just added, but the
box settles every set a chain holds, one after another."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from referee.games.art_project.rules.mission import clue_sets, set_name
from referee.games.art_project.state import Clue, Pending
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def drawn(players: list[str] | None = None, **rules: object) -> Game:
    g = Game(players or ["Ann", "Ben"], rules=rules)
    g.drawn()
    return g


def empty_van(g: Game) -> None:
    for kind in ("fuel", "radio", "weapon"):
        g.van(kind, 0)


def paid(fuel: int = 0, radio: int = 0, weapon: int = 0,
         health: dict[str, int] | None = None) -> dict[str, object]:
    return {"type": "paid", "player": "Ann", "fuel": fuel, "radio": radio, "weapon": weapon,
            "health": health or {}}


# ---- extra draws (ART-11, ART-12, ART-7) -------------------------------------------------

def test_an_extra_draw_belongs_to_phase_a() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("B")
    err = g.no("extra_draw", "wrong_phase", "ART-10", player="Ann", pay="fuel")
    assert err.message == ("An extra draw belongs to the mission phase (A); the game is in "
                           "the movement phase (B).")


@pytest.mark.parametrize(("until", "words"), [
    ("first_play", "the round's first card is played."), ("own_play", "Ann has played.")])
def test_extra_draws_end_and_the_refusal_says_when(until: str, words: str) -> None:
    g = drawn(extra_draw_until=until)
    g.ok("play_card", player="Ann")
    err = g.no("extra_draw", "extra_draw_closed", "ART-11", player="Ann", pay="fuel")
    assert err.message == f"Extra draws are over once {words}"


def test_an_extra_draw_pays_one_token_of_the_named_type() -> None:
    g = drawn()
    events = g.ok("extra_draw", player="Ann", pay="radio")
    assert events == [paid(radio=1), {"type": "drawn", "player": "Ann", "extra": True,
                                      "from": "above"}]
    assert g.state.van["radio"] == 2


@pytest.mark.parametrize(("payment", "words"), [
    ("any_resource", "The van has no radio; pay with a resource it holds."),
    ("per_type", 'The van has no radio: pay another resource, or health (pay: "health").')])
def test_a_type_the_van_lacks_is_refused_and_the_refusal_says_what_else_pays(
        payment: str, words: str) -> None:
    g = drawn(extra_draw_payment=payment)
    g.van("radio", 0)
    err = g.no("extra_draw", "not_enough_radio", "ART-11", player="Ann", pay="radio")
    assert err.message == words


@pytest.mark.parametrize("payment", ["any_resource", "per_type"])
def test_health_pays_an_extra_draw_only_once_the_van_lacks_what_the_setting_asks(
        payment: str) -> None:
    """A full van: health is refused under both settings, and the refusal lists the van."""
    g = drawn(extra_draw_payment=payment)
    err = g.no("extra_draw", "golden_rule", "ART-7", player="Ann", pay="health")
    assert err.message == ("The GOLDEN RULE: health pays an extra draw only when the van has "
                           "no resource left (3 fuel, 3 radio, 3 weapon).")


def test_per_type_health_pays_the_draw_alone_while_the_van_holds_other_types() -> None:
    """Found by mutation testing (issue 28): under `per_type` with the radio gone, paying
    health took a fuel token from the van as well. One health pays the draw, nothing else."""
    g = drawn(extra_draw_payment="per_type")
    g.van("radio", 0)
    events = g.ok("extra_draw", player="Ann", pay="health")
    assert events[0] == paid(health={"Ann": 1})
    assert dict(g.state.van) == {"fuel": 3, "radio": 0, "weapon": 3}
    assert g.state.player("Ann").health == 2  # type: ignore[union-attr]


def test_an_empty_van_lets_the_last_health_pay_and_that_loses() -> None:
    g = drawn()
    empty_van(g)
    g.health("Ann", 1)
    events = g.ok("extra_draw", player="Ann", pay="health")
    assert events == [paid(health={"Ann": 1}),
                      {"type": "game_over", "outcome": "lost", "winners": [],
                       "reason": "health", "rule": "ART-27"}]


def test_an_extra_draw_from_an_empty_deck_reshuffles_by_house_rule_or_is_refused() -> None:
    """The deck above and below the final card empty, cards in the discard: `reshuffle` turns
    them over for the extra draw; with no discard either it is `deck_empty`, before any
    payment is looked at (the van lacking the type named)."""
    g = drawn(deck_empty="reshuffle")
    g.given(deck=replace(g.state.deck, above=0, final=False, below=0, discard=4))
    events = g.ok("extra_draw", player="Ann", pay="fuel")
    assert events == [paid(fuel=1), {"type": "reshuffled", "cards": 4},
                      {"type": "drawn", "player": "Ann", "extra": True, "from": "below"}]
    g.given(deck=replace(g.state.deck, below=0, discard=0))
    g.van("radio", 0)
    err = g.no("extra_draw", "deck_empty", "ART-12", player="Ann", pay="radio")
    assert err.message == "The deck is empty: no extra draw."


# ---- drawing and the final card (ART-10, ART-12) -----------------------------------------

def test_a_draw_belongs_to_phase_a_and_is_owed() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("B")
    err = g.no("draw", "wrong_phase", "ART-10", player="Ann")
    assert err.message == ("A draw belongs to the mission phase (A); the game is in the "
                           "movement phase (B).")
    g = drawn()
    err = g.no("draw", "no_draw_due", "ART-10", player="Ann")
    assert err.message == "Ann owes no draw this round; an extra card is a paid extra draw."


def test_the_table_reports_the_final_card_only_under_table_detection() -> None:
    g = Game(["Ann", "Ben"])
    err = g.no("draw", "bad_request", "ART-12", player="Ann", final=True)
    assert err.message == ("The box counts the deck and says when the final card comes "
                           '(the house rule "Who notices the final card: the box counts").')
    t = Game(["Ann", "Ben"], rules={"final_card_detection": "table"})
    above = t.state.deck.above
    events = t.ok("draw", player="Ann", final=True)
    assert events == [{"type": "final_card", "player": "Ann", "detected": "table"},
                      {"type": "warning", "message": f"The box counted {above} more card(s) "
                       "above the final card; it takes the table's word."}]


def test_the_counted_final_card_is_announced_and_an_extra_draw_draws_again_below_it() -> None:
    g = drawn()
    g.given(deck=replace(g.state.deck, above=0))
    events = g.ok("extra_draw", player="Ann", pay="fuel")
    assert events == [paid(fuel=1),
                      {"type": "final_card", "player": "Ann", "detected": "count"},
                      {"type": "drawn", "player": "Ann", "extra": True, "from": "below"}]


def test_under_table_detection_the_box_warns_when_its_count_says_final() -> None:
    g = Game(["Ann", "Ben"], rules={"final_card_detection": "table"})
    g.given(deck=replace(g.state.deck, above=0))
    events = g.ok("draw", player="Ann")
    assert events == [{"type": "warning", "message": "By the box's count the final card is "
                       'next; if it is, send this draw again with "final": true.'},
                      {"type": "drawn", "player": "Ann", "extra": False, "from": "below"}]


# ---- playing a card (ART-10, ART-13, ART-14) ---------------------------------------------

def test_playing_a_card_belongs_to_phase_a() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("B")
    err = g.no("play_card", "wrong_phase", "ART-10", player="Ann")
    assert err.message == ("Playing a mission card belongs to the mission phase (A); the game "
                           "is in the movement phase (B).")


def test_a_cards_agents_go_to_named_cities_and_on_polynesia_to_a_symbols_islands() -> None:
    g = drawn()
    err = g.no("play_card", "unknown_city", "ART-14", player="Ann", agents={"film": 1})
    assert err.message.startswith("'film' is not a city of this mission (Start, Film, ")
    err = g.no("play_card", "unknown_symbol", "ART-14", player="Ann", clues=["dance"])
    assert err.message == ("'dance' is not a clue symbol (film, sculpture, book, painting, "
                           "artifact, music).")
    p = Game(["Ann", "Ben"], mission="test-polynesia", catalog=BOARDS)
    p.drawn()
    p.no("play_card", "unknown_city", "ART-14", player="Ann", agents={"Atlantis": 1})
    p.no("play_card", "unknown_city", "ART-14", player="Ann",
         agents={"film": 1, "Atlantis": 1})
    events = p.ok("play_card", player="Ann", agents={"Book A": 2, "film": 1})
    assert [(e["to"], e["count"], e["cause"]) for e in events
            if e["type"] == "agents_placed"] == [
        ("Book A", 2, "c1"), ("Film A", 1, "c1"), ("Film B", 1, "c1")]

def test_every_owed_draw_comes_before_the_first_card() -> None:
    g = Game(["Ann", "Ben"])
    g.ok("draw", player="Ann")
    err = g.no("play_card", "draws_outstanding", "ART-10", player="Ann")
    assert err.message == ("Every owed draw comes before the first card: Ann owes 1, Ben "
                           "owes 2.")


@pytest.mark.parametrize(("players", "words"), [(["Ann"], "both cards"),
                                                (["Ann", "Ben"], "a card")])
def test_a_card_a_round_and_solo_two(players: list[str], words: str) -> None:
    extra = {"ally": "blue"} if len(players) == 1 else {}
    g = Game(players, **extra)
    g.drawn()
    for _ in range(g.state.plays_due()):
        g.ok("play_card", player="Ann")
    err = g.no("play_card", "already_played", "ART-13", player="Ann")
    assert err.message == f"Ann has played {words} this round."


def test_a_player_whose_draws_were_lost_holds_no_card_to_play() -> None:
    """An empty deck under `deck_empty = "skip"` loses the owed draws (ART-12): the player
    then has no card to play (and owes none: phase A may end)."""
    g = Game(["Ann", "Ben"])
    g.given(deck=replace(g.state.deck, above=0, final=False, below=0, discard=0))
    g.drawn()
    assert g.state.player("Ann").hand == 0  # type: ignore[union-attr]
    err = g.no("play_card", "no_card", "ART-13", player="Ann")
    assert err.message == "Ann holds no card to play."
    assert g.ok("end_phase")[-1] == {"type": "phase", "phase": "A/B"}


# ---- the clue chain (ART-15, ART-32) -----------------------------------------------------

def test_a_set_of_a_symbol_no_city_bears_is_blocked_no_city() -> None:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    g.drawn()
    g.given(chain=(Clue("x1", ("music", "music"), "Ann"),))
    events = g.ok("play_card", player="Ann", clues=["music"])
    assert events[-2:] == [{"type": "clues_discarded", "symbol": "music",
                            "cards": ["x1", "c1"]},
                           {"type": "uncover_blocked", "symbol": "music", "reason": "no_city"}]


@pytest.mark.parametrize(("gone", "ruled"), [
    (0, {"type": "uncovered", "symbol": "film", "city": "Film"}),
    (1, {"type": "uncover_blocked", "symbol": "film", "reason": "no_token"})])
def test_the_token_limit_counts_tokens_on_the_board_on_the_track_and_removed(
        gone: int, ruled: dict[str, object]) -> None:
    """`artwork_token_limit`: a token removed with a lost city (`artwork_gone`) is not back in
    the supply."""
    g = drawn(artwork_token_limit=8)
    g.given(track=6, artwork=("Book",), artwork_gone=gone)  # 7 tokens out, or 8
    g.given(chain=(Clue("x1", ("film", "film"), "Ann"),))
    assert g.ok("play_card", player="Ann", clues=["film"])[-1] == ruled


def test_polynesia_asks_the_island_and_the_decision_names_the_set() -> None:
    g = Game(["Ann", "Ben"], mission="test-polynesia", catalog=BOARDS)
    g.drawn()
    g.given(chain=(Clue("x1", ("film", "film"), "Ann"),))
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert events[-1] == {"type": "pending", "decisions": [
        {"decision": "uncover_island", "options": ["Film A", "Film B"], "player": None,
         "symbol": "film", "chain": "Ann"}]}


def test_minimal_set_asks_which_cards_and_the_decision_names_the_set() -> None:
    g = drawn(clue_overflow="minimal_set")
    g.given(chain=(Clue("x1", ("film", "book"), "Ann"), Clue("x2", ("film", "film"), "Ann")))
    events = g.ok("play_card", player="Ann", clues=["film"])
    assert events[-1] == {"type": "pending", "decisions": [
        {"decision": "clue_set", "options": ["x1+x2", "x2+c1"], "player": None,
         "symbol": "film", "chain": "Ann"}]}


def test_a_card_completing_two_sets_asks_the_order() -> None:
    g = drawn()
    g.given(chain=(Clue("x1", ("film", "film"), "Ann"), Clue("x2", ("book", "book"), "Ann")))
    events = g.ok("play_card", player="Ann", clues=["film", "book"])
    assert events[-1] == {"type": "pending", "decisions": [
        {"decision": "uncover_order", "options": ["film", "book"], "player": None,
         "chain": "Ann"}]}


def test_minimal_sets_bear_exactly_three_where_any_set_does() -> None:
    """`clue_sets` offers the sets making 3 or more only when none makes exactly 3: with two
    cards bearing film twice and one bearing it once, the set of the two (4) is not offered."""
    twice = Clue("c1", ("film", "film"), "Ann")
    again = Clue("c2", ("film", "film"), "Ann")
    once = Clue("c3", ("film",), "Ann")
    assert [set_name(x) for x in clue_sets([twice, again, once], "film")] == ["c1+c3"]


def two_sets_waiting(mission: str = "test-board", **given: object) -> Game:
    extra = {} if mission == "test-board" else {"catalog": BOARDS}
    g = Game(["Ann", "Ben"], mission=mission, **extra)
    g.drawn()
    chain = tuple(Clue(f"x{i}", (sym,), "Ann") for i, sym in
                  enumerate(("film", "film", "film", "book", "book", "book"), 1))
    g.given(chain=chain, pending=(Pending("uncover_order", ("film", "book"), chain="Ann"),),
            **given)
    return g


def test_a_blocked_set_chosen_first_lets_the_next_set_be_uncovered() -> None:
    g = two_sets_waiting(lost=("Film",))
    g.agents("Film", 0)
    events = g.ok("choose", choice="film")
    assert {"type": "uncover_blocked", "symbol": "film", "reason": "lost"} in events
    assert events[-1] == {"type": "uncovered", "symbol": "book", "city": "Book"}


def test_an_island_asked_for_the_set_chosen_first_waits_before_the_next_set() -> None:
    g = two_sets_waiting("test-polynesia")
    g.ok("choose", choice="film")
    assert g.state.pending == (Pending("uncover_island", ("Film A", "Film B"), symbol="film",
                                       chain="Ann"),)
    events = g.ok("choose", choice="Film B")
    assert events[-1]["decisions"][0]["symbol"] == "book"  # then the book set's island
