"""Issue 39 in the rules: reputation tiles taken in play are recorded (GAL-18), money keeps
its reason in the log's words (GAL-10), the `next` line says an intermediate scoring is
coming as soon as a stack runs out (GAL-14), and the state says which end conditions hold
(GAL-15)."""

from __future__ import annotations

from dataclasses import replace

from referee.games.gallerist.state import frozen
from referee.games.gallerist.words import step_words
from tests.referee.games.gallerist.helpers import Game


def test_a_reputation_tile_taken_in_play_is_on_the_board_and_in_final_scoring() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    events = g.ok("reputation_tile", player="Ben", tile="3 per collector")
    assert events == [{"type": "reputation_tile", "player": "Ben", "tile": "3 per collector"}]
    g.ok("reputation_tile", player="Ben")
    assert g.player("Ben")["reputation_tiles"] == ["tile-Ben", "3 per collector",
                                                   "a tile without a label"]
    assert step_words({"cmd": "reputation_tile", "player": "Ben", "tile": "x"}, events) == \
        "Ben takes reputation tile x"


def test_money_s_reason_is_in_the_log_s_words() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    req = {"cmd": "money", "player": "Ann", "delta": -2, "reason": "hired an assistant"}
    events = g.ok(**req)
    assert step_words(req, events) == "Ann pays 2 money (now 8): hired an assistant"


def test_the_next_line_says_a_coming_intermediate_scoring_at_once() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.state = replace(g.state, tickets=frozen({**g.state.tickets, "pink": 1}))
    g.ok("move", player="Ann", to="Artists Colony")
    assert "intermediate" not in g.next
    g.ok("take_ticket", player="Ann", colour="pink")
    assert g.next.endswith("The pink tickets ran out: an intermediate scoring at the end of "
                           "this turn.")
    assert g.json["end_conditions"] == []


def test_the_state_says_which_end_conditions_hold() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.state = replace(g.state, tickets=frozen(dict.fromkeys(g.state.tickets, 0)))
    assert g.json["end_conditions"] == ["box_office_empty"]


def test_a_starting_tile_without_a_label_is_on_the_board_too() -> None:
    """GAL-4: the starting place's tile is always taken; the console's "Reput." column
    counted it only when the table had typed a label."""
    g = Game(["Ann", "Ben"])
    g.ok("place_start", player="Ben", location="Media Centre")
    g.ok("place_start", player="Ann", location="Artists Colony", tile="T1")
    assert g.player("Ben")["reputation_tiles"] == ["a tile without a label"]
    assert g.player("Ann")["reputation_tiles"] == ["T1"]


def test_the_market_s_twelve_reputation_tiles_are_all_it_has() -> None:
    """GAL-2 reads the market's reputation tiles as 12 in all: the 13th taken in play is
    refused in words, whoever takes it, and nothing is recorded."""
    g = Game(["Ann", "Ben"])
    g.place_all()
    for i in range(12):
        g.ok("reputation_tile", player=("Ann", "Ben")[i % 2])
    before = g.json
    refusal = g.no("reputation_tile", "no_reputation_tile", "GAL-18", player="Ann")
    assert "12 reputation tiles are all taken" in refusal.message
    assert g.json == before
    assert len(g.player("Ann")["reputation_tiles"]) == 1 + 6
