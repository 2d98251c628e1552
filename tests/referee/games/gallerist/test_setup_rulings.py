"""Setup's rulings that mutation testing checks (issue 28; docs/mutation.md): each test fails
on a mutant of referee/games/gallerist/rules/setup.py or rules/common.py that changes what the
box rules (a refusal's code and rule) or what the console, the page and the log read (the
game_started event, the checklist's figures, the starting places) (GAL-1..5, 13, 15, 24)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.dice import Roll
from referee.errors import GameOver, Refusal
from referee.games.gallerist import RULESET
from referee.games.gallerist.rules.setup import checklist, placement_order, seat_die, setup_for
from referee.games.gallerist.settings import GalleristRules
from referee.games.gallerist.state import Pending
from referee.ruleset import NeedDice
from tests.referee.games.gallerist.helpers import FIXTURE, Game
from tests.referee.games.playing import is_sentence

CATALOG = RULESET.load_catalog(FIXTURE)


def start(**req: Any) -> Any:
    """new_game on a fresh box: its events, or the NeedDice it answers."""
    fresh = RULESET.initial_state(CATALOG)
    cmd = RULESET.start(RULESET.parse({"cmd": "new_game", **req}), commitment="cc",
                        settings={})
    return RULESET.decide(fresh, cmd)


def refused(code: str, rule: str | None, **req: Any) -> Refusal:
    with pytest.raises(Refusal) as err:
        start(**req)
    assert (err.value.code, err.value.rule) == (code, rule), err.value
    assert is_sentence(err.value.args[0]), err.value.args
    return err.value


def test_game_started_in_full() -> None:
    [e] = start(players=["Ann", {"name": "Ben", "color": "Green"}], start_player="Ben",
                catalog=FIXTURE, rules={"kickout_order": "seat_from_start_player"})
    rules = GalleristRules(kickout_order="seat_from_start_player").to_json()
    setup = {"visitors_removed_per_type": 4, "tickets_per_colour": 10, "easels": 1,
             "middle_column": False}
    assert e == {"type": "game_started", "game": "gallerist",
                 "players": [{"name": "Ann", "color": "yellow"},
                             {"name": "Ben", "color": "green"}],
                 "start_player": "Ben", "start_drawn": False, "commitment": "cc",
                 "rules": rules, "catalog": CATALOG.to_json(), "setup": setup, "bag": 28,
                 "checklist": checklist(setup, CATALOG)}


def test_the_setup_by_count_and_the_checklist_s_figures() -> None:
    rules = GalleristRules()
    assert setup_for(1, rules)["visitors_removed_per_type"] == rules.solo_visitor_removal
    assert setup_for(1, GalleristRules(solo_visitor_removal=0))[
        "visitors_removed_per_type"] == 0
    assert setup_for(2, GalleristRules(solo_visitor_removal=0))[
        "visitors_removed_per_type"] == 4
    assert [setup_for(n, rules)["middle_column"] for n in (1, 2, 3, 4)] == [
        False, False, True, True]
    words = {i["item"]: i["words"] for i in checklist(setup_for(3, rules), CATALOG)}
    assert list(words) == ["bag", "tickets", "contracts", "artists", "works", "market",
                           "easels", "visitors", "locations", "players"]
    assert "2 of each kind" in words["bag"]
    assert "15 tickets of each colour (pink, brown, white)" in words["tickets"]
    assert "all three columns" in words["market"] and "2 easels," in words["easels"]
    words = {i["item"]: i["words"] for i in checklist(setup_for(4, rules), CATALOG)}
    assert "every visitor" in words["bag"] and "taking out" not in words["bag"]
    assert "3 easels" in words["easels"] and "20 tickets" in words["tickets"]
    words = {i["item"]: i["words"] for i in checklist(setup_for(2, rules), CATALOG)}
    assert "middle column stays empty" in words["market"]
    assert "1 easel," in words["easels"] and "4 of each kind" in words["bag"]
    assert all(is_sentence(w) for w in words.values())


def test_the_player_list_s_refusals() -> None:
    err = refused("bad_players", "GAL-1", players=["A", "B", "C", "D", "E"], bag=10)
    assert "1 to 4" in err.message and "not 5" in err.message
    refused("bad_players", "GAL-1", players=[], bag=10)
    err = refused("bad_players", "GAL-1", players=["Ann", "x" * 25], bag=10)
    assert err.message.startswith("Player 2's name")
    err = refused("bad_players", "GAL-1", players=["Ann", "Ben", "ANN"], bag=10)
    assert "'ANN'" in err.message
    err = refused("unknown_colour", "GAL-1", players=["Ann", {"name": "Ben", "color": "teal"}],
                  bag=10)
    assert "'teal'" in err.message and "Ben can take" in err.message
    err = refused("bad_players", "GAL-1", players=[{"name": "Ann", "color": "green"}, "Ben",
                                                   {"name": "Cy", "color": "GREEN"}], bag=10)
    assert "Ann and Cy both chose green" in err.message and shouted(err.message) == []
    err = refused("unknown_player", "GAL-1", players=["Ann", "Ben"], start_player="Zed",
                  bag=10)
    assert "'Zed'" in err.message and "(Ann, Ben)" in err.message
    with pytest.raises(Refusal) as bad:  # (said as the settings' problem, not a sentence)
        start(players=["Ann"], bag=5, rules={"auction_tie": "coin"})
    assert (bad.value.code, bad.value.rule) == ("bad_rules", None)
    assert bad.value.message.startswith("House rules: rules.auction_tie")


def test_the_bag_given_or_from_the_catalog() -> None:
    err = refused("unknown_colour", "GAL-13", players=["Ann"], bag={"pink": 1, "teal": 2},
                  catalog=FIXTURE)
    assert "'teal'" in err.message and "pink, brown, white" in err.message
    [e] = start(players=["Ann"], bag={"pink": 1, "white": 2}, catalog=FIXTURE)
    assert e["bag"] == {"pink": 1, "white": 2}
    [e] = start(players=["Ann"], bag=7, catalog=FIXTURE)
    assert e["bag"] == 7
    [e] = start(players=["Ann", "Ben", "Cy", "Dee"], start_player="Dee", catalog=FIXTURE)
    assert e["bag"] == 40  # nobody taken out at four
    built_in = RULESET.initial_state(RULESET.load_catalog(None))  # its catalog: no bag
    with pytest.raises(Refusal) as no_bag:
        RULESET.decide(built_in, RULESET.start(RULESET.parse(
            {"cmd": "new_game", "players": ["Ann"]}), commitment="cc", settings={}))
    assert (no_bag.value.code, no_bag.value.rule) == ("catalog_incomplete", "GAL-13")
    small = Path(FIXTURE).read_text().replace("bag = 40", "bag = 11")
    path = Path(FIXTURE).with_name("_small_bag.toml")
    path.write_text(small)
    try:
        err = refused("catalog_incomplete", "GAL-2", players=["Ann", "Ben"],
                      start_player="Ann", catalog=str(path))
        assert "11" in err.message and "4 of each kind" in err.message
        [e] = start(players=["Ann", "Ben", "Cy"], start_player="Ann", catalog=str(path))
        assert e["bag"] == 5
    finally:
        path.unlink()
    by_colour = Path(FIXTURE).read_text().replace(
        "bag = 40", "bag = {pink = 3, brown = 5, white = 6}")
    path.write_text(by_colour)
    try:
        [e] = start(players=["Ann", "Ben", "Cy"], start_player="Ann", catalog=str(path))
        assert e["bag"] == {"pink": 1, "brown": 3, "white": 4}
        err = refused("catalog_incomplete", "GAL-2", players=["Ann", "Ben"],
                      start_player="Ann", catalog=str(path))
        assert "fewer than 4" in err.message
        [e] = start(players=["Ann", "Ben", "Cy", "Dee"], start_player="Ann",
                    catalog=str(path))
        assert e["bag"] == {"pink": 3, "brown": 5, "white": 6}
    finally:
        path.unlink()


def test_the_start_player_is_drawn_from_the_stream() -> None:
    [e] = start(players=["Solo"], catalog=FIXTURE)
    assert e["start_player"] == "Solo" and e["start_drawn"] is False
    need = start(players=["Ann", "Ben"], catalog=FIXTURE)
    assert isinstance(need, NeedDice)
    [req] = need.requests
    assert (req.id, req.die, req.purpose, req.sides, req.player) == (
        "start_player", "d2", "start_player", 2, None)
    assert seat_die(3) == "d3"
    fresh = RULESET.initial_state(CATALOG)
    cmd = RULESET.start(RULESET.parse({"cmd": "new_game", "players": ["Ann", "Ben", "Cy"],
                                       "catalog": FIXTURE}), commitment="cc", settings={})
    roll = Roll("d3", 2, "electronic", index=0, sides=3)
    started, rolled = RULESET.decide(fresh, replace(cmd, roll=roll))
    assert started["start_player"] == "Ben" and started["start_drawn"] is True
    assert rolled == {"type": "roll", "player": None, "id": "start_player",
                      "purpose": "start_player", **roll.to_json()}


def test_the_checklist_and_its_refusals() -> None:
    g = Game(["Ann", "Ben"])
    assert g.ok("check", item="bag") == [{"type": "checked", "item": "bag"}]
    err = g.no("check", "already_checked", "GAL-2", item="bag")
    assert "'bag'" in err.message
    err = g.no("check", "unknown_item", "GAL-2", item="teapot")
    assert "'teapot'" in err.message and "bag, tickets, contracts" in err.message
    g.ok("check", item="tickets")
    assert [i["done"] for i in g.json["setup"]["checklist"]][:3] == [True, True, False]


def test_starting_places_in_reverse_turn_order() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ben")
    assert placement_order(g.state) == ("Ann", "Cy", "Ben")
    err = g.no("place_start", "not_your_placement", "GAL-4", player="Ben",
               location="Media Centre")
    assert "Ann places now, not Ben" in err.message
    err = g.no("place_start", "unknown_location", "GAL-4", player="Ann", location="Moon")
    assert "'Moon'" in err.message
    assert ", ".join(g.state.catalog.start_locations) in err.message
    assert g.ok("place_start", player="Ann", location="Media Centre", tile="t") == [
        {"type": "placed_start", "player": "Ann", "location": "Media Centre", "tile": "t",
         "tile_taken": True}]
    err = g.no("place_start", "space_taken", "GAL-4", player="Cy", location="Media Centre")
    assert "Ann's gallerist already stands on Media Centre" in err.message
    assert g.ok("place_start", player="Cy", location="Artists Colony") == [
        {"type": "placed_start", "player": "Cy", "location": "Artists Colony", "tile": None,
         "tile_taken": True}]
    assert g.json["phase"] == "setup"
    events = g.ok("place_start", player="Ben", location="Fourth Location")
    assert events == [
        {"type": "placed_start", "player": "Ben", "location": "Fourth Location",
         "tile": None, "tile_taken": True},
        {"type": "turn_started", "player": "Ben", "round": 1, "start_player": "Ben",
         "final_round": False}]
    err = g.no("place_start", "wrong_phase", "GAL-4", player="Ann", location="Media Centre")
    assert err.message == "A starting place is part of setup, which is over."
    fresh = RULESET.initial_state(CATALOG)
    with pytest.raises(Refusal) as no_game:
        RULESET.decide(fresh, RULESET.parse({"cmd": "check", "item": "bag"}))
    assert (no_game.value.code, no_game.value.rule) == ("no_game", None)


def test_over_and_before_the_game() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given(phase="over")
    for cmd, fields in (("check", {"item": "bag"}), ("money", {"player": "Ann", "delta": 1}),
                        ("move", {"player": "Ann", "to": "Media Centre"})):
        with pytest.raises(GameOver) as err:
            RULESET.decide(g.state, RULESET.parse({"cmd": cmd, **fields}))
        assert (err.value.code, err.value.rule) == ("game_over", "GAL-24")
        assert is_sentence(err.value.args[0]) and shouted(err.value.args[0]) == []
    fresh = RULESET.initial_state(CATALOG)
    with pytest.raises(Refusal) as no:
        RULESET.decide(fresh, RULESET.parse({"cmd": "money", "player": "Ann", "delta": 1}))
    assert (no.value.code, no.value.rule) == ("no_game", None)
    assert "new_game" in no.value.message and is_sentence(no.value.message)


def test_whose_turn_and_what_waits() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    err = g.no("move", "not_your_turn", "GAL-5", player="Ben", to="Fourth Location")
    assert err.message == "It is Ann's turn, not Ben's."
    err = g.no("move", "unknown_player", "GAL-1", player="Zed", to="Fourth Location")
    assert "'Zed' (player)" in err.message and "Ann, Ben" in err.message
    g.given(turn=replace(g.state.turn, ended=True),
            queue=(Pending("kickout", "Ben", "Media Centre", "assistant"),))
    err = g.no("move", "decision_pending", "GAL-5", player="Ann", to="Fourth Location")
    assert err.message == ("Ann's turn is over; first Ben's kicked-out action (assistant "
                           "kicked out of Media Centre).")
    g.given(queue=(Pending("intermediate", stack="pink"),))
    err = g.no("end_turn", "decision_pending", "GAL-5", player="Ann")
    assert "the intermediate scoring for the pink tickets" in err.message


def shouted(words: str) -> list[str]:
    """The words of two or more letters written in capitals (no figure here is an acronym)."""
    return [w for w in re.findall(r"[A-Za-z_]+", words) if len(w) > 1 and w.isupper()]


@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("solo_removal", [0, 4])
def test_the_checklist_is_said_in_sentences(count: int, solo_removal: int) -> None:
    """Each step is read at the table: sentences that open on a capital (or a figure), none
    of them shouted, each finished."""
    rules = GalleristRules(solo_visitor_removal=solo_removal)
    for step in checklist(setup_for(count, rules), CATALOG):
        words = step["words"]
        assert is_sentence(words), step
        for sentence in re.split(r"(?<=\.)\s+", words):
            assert not sentence[0].islower(), step
        assert shouted(words) == [], step


def test_a_bag_exactly_emptied_by_the_kinds_taken_out_is_empty_not_refused() -> None:
    path = Path(FIXTURE).with_name("_exact_bag.toml")
    for bag, left in (("12", 0), ("{pink = 4, brown = 5, white = 6}",
                                  {"pink": 0, "brown": 1, "white": 2})):
        path.write_text(Path(FIXTURE).read_text().replace("bag = 40", f"bag = {bag}"))
        try:  # two players: 4 of each of the 3 kinds taken out (GAL-2)
            [e] = start(players=["Ann", "Ben"], start_player="Ann", catalog=str(path))
        finally:
            path.unlink()
        assert e["bag"] == left


def test_a_catalog_without_a_bag_is_refused_in_a_sentence_naming_the_field() -> None:
    built_in = RULESET.initial_state(RULESET.load_catalog(None))  # its catalog: no bag
    with pytest.raises(Refusal) as no_bag:
        RULESET.decide(built_in, RULESET.start(RULESET.parse(
            {"cmd": "new_game", "players": ["Ann"]}), commitment="cc", settings={}))
    assert (no_bag.value.code, no_bag.value.rule) == ("catalog_incomplete", "GAL-13")
    assert is_sentence(no_bag.value.message) and '"bag"' in no_bag.value.message
    assert shouted(no_bag.value.message) == []


def test_a_location_that_is_no_starting_one_is_refused_with_the_starting_ones() -> None:
    text = Path(FIXTURE).read_text().replace('"Fourth Location"]',
                                             '"Fourth Location", "Harbour"]')
    path = Path(FIXTURE).with_name("_harbour.toml")
    path.write_text(text)
    try:
        g = Game(["Ann", "Ben"], catalog=str(path))
    finally:
        path.unlink()
    err = g.no("place_start", "not_a_start_location", "GAL-4", player="Ben",
               location="Harbour")
    starts = g.state.catalog.start_locations
    assert "Harbour" not in starts and len(starts) > 1
    assert f"({', '.join(starts)})" in err.message


def test_the_box_s_settings_are_the_house_rules_unless_new_game_names_its_own() -> None:
    fresh = RULESET.initial_state(CATALOG)
    box = {"kickout_order": "seat_from_start_player"}
    for own, want in ((None, "seat_from_start_player"),
                      ({"kickout_order": "seat_after_mover"}, "seat_after_mover")):
        req = {"cmd": "new_game", "players": ["Ann", "Ben"], "start_player": "Ann",
               "catalog": FIXTURE, **({"rules": own} if own else {})}
        [e] = RULESET.decide(fresh, RULESET.start(RULESET.parse(req), commitment="cc",
                                                  settings=box))
        assert e["rules"]["kickout_order"] == want
