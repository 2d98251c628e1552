"""Every Gallery Grippers rule by id (GG-n), driven through the session's protocol."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.gallery_grippers.catalog import default_catalog, parse_catalog
from referee.session import Session
from tests.referee.conftest import Table, start

CAT = default_catalog()
MUSEUMS = list(CAT.museums)
M1, M2 = MUSEUMS[0], MUSEUMS[1]
BIG = next(a for arts in CAT.museums.values() for a in arts
           if a.value == 700_000_000 and a.deduction == 35)
SMALL = [a for a in CAT.museums[M1] if a.name != BIG.name]


def pass_turn(t: Table, who: str) -> None:
    """`who` moves one plain step and ends the turn."""
    t.ok("move", player=who, tile="plain", roll=1)
    t.ok("end_turn", player=who)


def steal(t: Table, who: str, museum: str, art: str) -> None:
    t.ok("move", player=who, tile="art", museum=museum, roll=2)
    t.ok("steal", player=who, art=art)


def fail_bypass(t: Table, who: str, museum: str | None = None) -> dict[str, Any]:
    t.ok("move", player=who, tile="security", museum=museum, roll=3)
    return t.ok("bypass", player=who, roll=1)


def ann_and_ben(**rules: Any) -> Table:
    return start(hands={"Ann": {"specialists": ["Hacker"], "attributes": ["More Tech"]}},
                 rules=rules)


# ---- setup -------------------------------------------------------------------------------

def test_gg1_starting_hands_are_recorded_and_leave_the_decks() -> None:
    t = start()
    for p in t.state["players"]:
        assert len(p["hand"]["specialists"]) == 3 and len(p["hand"]["attributes"]) == 3
    total = sum(c.copies for c in CAT.specialists.values())
    assert t.state["decks"]["specialist"]["draw"] == total - 6


@pytest.mark.parametrize("hand, code", [
    ({"specialists": ["Hacker"], "attributes": ["More Tech", "Steroids", "Added Stealth"]},
     "bad_hand"),
    ({"specialists": ["Hacker", "Hacker", "More Tech"],
      "attributes": ["More Tech", "Steroids", "Added Stealth"]}, "wrong_deck"),
    ({"specialists": ["Hacker", "Hacker", "Nobody"],
      "attributes": ["More Tech", "Steroids", "Added Stealth"]}, "unknown_card"),
])
def test_gg1_bad_starting_hands_are_refused(hand: dict[str, list[str]], code: str) -> None:
    t = Table(Session())
    t.ok("new_game", players=[{"name": "Ann"}])
    t.no("deal", code, player="Ann", **hand)


def test_gg1_hand_cannot_take_more_copies_than_the_deck_has() -> None:
    t = Table(Session())
    t.ok("new_game", players=[{"name": "Ann"}])
    rare = min(CAT.specialists.values(), key=lambda c: c.copies)
    if rare.copies >= 3:
        pytest.skip("the default catalog has no card with fewer than 3 copies")
    t.no("deal", "not_enough_copies", "GG-1", player="Ann",
         specialists=[rare.name] * 3, attributes=["More Tech", "Steroids", "Added Stealth"])


def test_gg1_turn_order_waits_for_every_hand_and_a_hand_is_dealt_once() -> None:
    t = Table(Session())
    t.ok("new_game", players=[{"name": "Ann"}, {"name": "Ben"}])
    t.ok("deal", player="Ann", specialists=["Hacker", "Hacker", "Stealth Specialist"],
         attributes=["More Tech", "Steroids", "Added Stealth"])
    t.no("deal", "already_dealt", "GG-1", player="Ann",
         specialists=["Hacker", "Hacker", "Stealth Specialist"],
         attributes=["More Tech", "Steroids", "Added Stealth"])
    t.no("turn_order", "hands_not_dealt", "GG-1")
    t.no("move", "setup_not_finished", "GG-3", player="Ann", tile="plain")


def test_gg2_every_museum_is_full_and_everyone_starts_outside() -> None:
    t = start(["Ann", "Ben", "Cy"])
    assert t.state["museums"] == {m: [a.name for a in arts] for m, arts in CAT.museums.items()}
    assert all(p["where"] == "outside" and p["money"] == 0 and p["strikes"] == 0
               for p in t.state["players"])


# ---- turn order --------------------------------------------------------------------------

def test_gg3_highest_roll_goes_first_then_clockwise_skipping_nobody() -> None:
    t = start(["Ann", "Ben", "Cy"], rolls={"Ann": 2, "Ben": 5, "Cy": 4})
    assert t.state["current"] == "Ben"
    pass_turn(t, "Ben")
    assert t.state["current"] == "Cy"
    pass_turn(t, "Cy")
    assert t.state["current"] == "Ann"


def test_gg3_tie_is_pending_until_rock_paper_scissors_is_recorded() -> None:
    t = start(["Ann", "Ben", "Cy"], rolls={"Ann": 6, "Ben": 6, "Cy": 3})
    assert t.state["current"] is None
    [pending] = t.state["pending"]
    assert pending["decision"] == "tiebreak" and pending["options"] == ["Ann", "Ben"]
    t.no("move", "setup_not_finished", "GG-3", player="Ann", tile="plain")
    t.no("tiebreak", "not_tied", "GG-3", winner="Cy")
    t.ok("tiebreak", winner="Ben")
    assert t.state["current"] == "Ben" and t.state["pending"] == []
    t.no("tiebreak", "no_tiebreak", "GG-3", winner="Ann")


def test_gg3_reroll_house_rule_rolls_again_among_the_tied_only() -> None:
    t = start(["Ann", "Ben", "Cy"], rolls={"Ann": 6, "Ben": 6, "Cy": 3},
              rules={"tiebreak": "reroll"})
    t.no("tiebreak", "reroll_required", "GG-3", winner="Ann")
    t.no("turn_order", "not_rolling", "GG-3", rolls={"Cy": 6})
    t.ok("turn_order", rolls={"Ann": 2, "Ben": 4})
    assert t.state["current"] == "Ben"


def test_gg3_turn_order_rolls_electronically_when_no_values_are_given() -> None:
    t = Table(Session(seed=bytes(32)))
    t.ok("new_game", players=[{"name": "Ann"}])
    t.ok("deal", player="Ann", specialists=["Hacker", "Hacker", "Stealth Specialist"],
         attributes=["More Tech", "Steroids", "Added Stealth"])
    answer = t.ok("turn_order")
    [roll] = t.events(answer, "roll")
    assert roll["source"] == "electronic" and roll["index"] == 0 and 1 <= roll["value"] <= 6
    assert t.state["current"] == "Ann"


@pytest.mark.parametrize("value", [0, 7, -1])
def test_gg3_turn_order_roll_out_of_range_is_refused(value: int) -> None:
    t = Table(Session())
    t.ok("new_game", players=[{"name": "Ann"}])
    t.ok("deal", player="Ann", specialists=["Hacker", "Hacker", "Stealth Specialist"],
         attributes=["More Tech", "Steroids", "Added Stealth"])
    t.no("turn_order", "roll_out_of_range", "GG-3", rolls={"Ann": value})


# ---- a turn ------------------------------------------------------------------------------

def test_gg4_one_movement_roll_per_turn_and_only_on_your_turn(table: Table) -> None:
    table.no("move", "not_your_turn", "GG-3", player="Ben", tile="plain", roll=2)
    table.no("end_turn", "must_move", "GG-4", player="Ann")
    table.ok("move", player="Ann", tile="airport", roll=4)
    table.no("move", "already_moved", "GG-4", player="Ann", tile="plain", roll=2)
    table.no("end_turn", "not_your_turn", "GG-3", player="Ben")


@pytest.mark.parametrize("value", [0, 7, 100])
def test_gg4_movement_roll_out_of_range_is_refused(table: Table, value: int) -> None:
    table.no("move", "roll_out_of_range", "GG-4", player="Ann", tile="plain", roll=value)


def test_gg4_airport_changes_nothing_but_the_turn_record(table: Table) -> None:
    before = table.state["players"]
    table.ok("move", player="Ann", tile="airport", roll=5)
    assert table.state["players"] == before


def test_gg4_recruitment_owes_one_draw_before_the_turn_can_end(table: Table) -> None:
    table.ok("move", player="Ann", tile="recruitment", roll=2)
    table.no("end_turn", "decision_pending", "GG-17", player="Ann")
    table.ok("draw", player="Ann", deck="attribute", card="Steroids")
    assert table.player("Ann")["hand"]["attributes"].count("Steroids") >= 1
    table.no("draw", "no_draw_due", "GG-17", player="Ann", deck="attribute")
    table.ok("end_turn", player="Ann")


def test_gg4_trading_post_moves_named_attribute_cards_between_hands(table: Table) -> None:
    ann, ben = table.player("Ann")["hand"], table.player("Ben")["hand"]
    give, get = ann["attributes"][0], ben["attributes"][0]
    table.no("trade", "not_at_trading_post", "GG-4", **{"from": "Ann", "to": "Ben",
                                                          "give": [give], "get": [get]})
    table.ok("move", player="Ann", tile="trading", roll=3)
    table.no("trade", "not_an_attribute", "GG-4",
             **{"from": "Ann", "to": "Ben", "give": [ann["specialists"][0]], "get": []})
    not_held = next(c for c in CAT.attributes if c not in ann["attributes"])
    table.no("trade", "card_not_in_hand", "GG-4",
             **{"from": "Ann", "to": "Ben", "give": [not_held], "get": []})
    table.ok("trade", **{"from": "Ann", "to": "Ben", "give": [give], "get": [get]})
    after_ann, after_ben = table.player("Ann")["hand"], table.player("Ben")["hand"]
    assert sorted(after_ann["attributes"]) == sorted([*ann["attributes"][1:], get])
    assert sorted(after_ben["attributes"]) == sorted([*ben["attributes"][1:], give])


def test_gg5_entering_a_museum_tile_puts_the_player_inside(table: Table) -> None:
    table.no("move", "museum_required", "GG-5", player="Ann", tile="art", roll=2)
    table.no("move", "unknown_museum", "GG-5", player="Ann", tile="art", museum="Moon", roll=2)
    table.ok("move", player="Ann", tile="art", museum=M1, roll=2)
    assert table.player("Ann")["where"] == M1
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    table.no("move", "inside_museum", "GG-12", player="Ann", tile="black_market", roll=2)
    table.no("move", "wrong_museum", "GG-12", player="Ann", tile="art", museum=M2, roll=2)


# ---- obstacles ---------------------------------------------------------------------------

def test_gg6_bypass_needs_an_obstacle_and_cards_from_the_hand() -> None:
    t = ann_and_ben()
    t.no("bypass", "no_obstacle", "GG-6", player="Ann", roll=50)
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    t.no("end_turn", "decision_pending", "GG-6", player="Ann")
    t.no("bypass", "two_specialists", "GG-6", player="Ann", specialist=["Hacker", "Hacker"])
    t.no("bypass", "not_a_specialist", "GG-6", player="Ann", specialist="More Tech")
    t.no("bypass", "unknown_card", "GG-19", player="Ann", attribute="Jetpack")
    missing = next(c for c in CAT.specialists if c not in t.player("Ann")["hand"]["specialists"])
    t.no("bypass", "card_not_in_hand", "GG-6", player="Ann", specialist=missing)
    t.no("bypass", "not_your_turn", "GG-3", player="Ben", roll=50)


@pytest.mark.parametrize("rules, ok_values, bad_values", [
    ({}, [1, 100], [0, 101]),
    ({"percentile": "0-99"}, [0, 99], [100, -1]),
])
def test_gg7_percentile_range_follows_the_house_rule(
        rules: dict[str, str], ok_values: list[int], bad_values: list[int]) -> None:
    for value in bad_values:
        t = ann_and_ben(**rules)
        t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
        t.no("bypass", "roll_out_of_range", "GG-7", player="Ann", roll=value)
    for value in ok_values:
        t = ann_and_ben(**rules)
        t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
        [bypass] = t.events(t.ok("bypass", player="Ann", roll=value), "bypass")
        assert bypass["roll"] == value and bypass["roll_source"] == "physical"


def test_gg7_electronic_percentile_roll_is_recorded_as_electronic() -> None:
    t = ann_and_ben()
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    [bypass] = t.events(t.ok("bypass", player="Ann"), "bypass")
    assert bypass["roll_source"] == "electronic" and 1 <= bypass["roll"] <= 100


@pytest.mark.parametrize("roll, success", [(50, True), (49, False), (100, True)])
def test_gg8_the_sheets_worked_example(roll: int, success: bool) -> None:
    t = ann_and_ben()
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    answer = t.ok("bypass", player="Ann", specialist="Hacker", attribute="More Tech", roll=roll)
    [b] = t.events(answer, "bypass")
    assert (b["roll"], b["specialist_bonus"], b["attribute_bonus"], b["art_deduction"]) == (
        roll, 30, 20, 0)
    assert b["total"] == roll + 50 and b["target"] == 100 and b["success"] is success
    assert bool(t.events(answer, "strike")) is not success


def test_gg8_carried_art_is_deducted_and_the_target_is_a_house_rule() -> None:
    t = ann_and_ben(bypass_target=90)
    steal(t, "Ann", BIG.museum, BIG.name)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    t.ok("move", player="Ann", tile="security", roll=3)
    [b] = t.events(t.ok("bypass", player="Ann", specialist="Hacker", roll=95), "bypass")
    assert b["art_deduction"] == 35 and b["total"] == 95 + 30 - 35 and b["target"] == 90
    assert b["success"] is True


@pytest.mark.parametrize("roll", [1, 100])
def test_gg9_played_cards_are_discarded_whatever_the_outcome(roll: int) -> None:
    t = ann_and_ben()
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    t.ok("bypass", player="Ann", specialist="Hacker", attribute="More Tech", roll=roll)
    hand = t.player("Ann")["hand"]
    assert len(hand["specialists"]) == 2 and len(hand["attributes"]) == 2
    assert t.state["decks"]["specialist"]["discard"] == 1
    assert t.state["decks"]["attribute"]["discard"] == 1


def test_gg10_first_strike_the_turn_goes_on(table: Table) -> None:
    answer = fail_bypass(table, "Ann", M1)
    assert table.events(answer, "strike") == [{"type": "strike", "player": "Ann", "strikes": 1}]
    assert table.state["pending"] == [] and table.player("Ann")["where"] == M1
    table.ok("end_turn", player="Ann")


def _two_strikes(t: Table) -> None:
    fail_bypass(t, "Ann", M1)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    answer = fail_bypass(t, "Ann")
    assert t.events(answer, "strike")[0]["strikes"] == 2
    [pending] = t.state["pending"]
    assert pending["decision"] == "second_strike" and pending["options"] == ["leave", "reenter"]


def test_gg10_second_strike_leave_resets_strikes_at_the_next_roll(table: Table) -> None:
    _two_strikes(table)
    table.no("end_turn", "decision_pending", "GG-10", player="Ann")
    table.no("choose", "bad_choice", "GG-10", player="Ann", choice="ditch")
    table.ok("choose", player="Ann", choice="leave")
    ann = table.player("Ann")
    assert ann["where"] == "outside" and ann["strikes"] == 2
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    answer = table.ok("move", player="Ann", tile="plain", roll=4)
    assert table.events(answer, "strikes_reset") == [{"type": "strikes_reset", "player": "Ann",
                                                      "rule": "GG-10"}]
    assert table.player("Ann")["strikes"] == 0


def test_gg10_second_strike_reenter_keeps_two_strikes(table: Table) -> None:
    _two_strikes(table)
    table.ok("choose", player="Ann", choice="reenter")
    assert table.player("Ann")["where"] == M1 and table.player("Ann")["strikes"] == 2
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    table.ok("move", player="Ann", tile="plain", roll=4)
    assert table.player("Ann")["strikes"] == 2


def _caught(t: Table, strikes_before: int) -> dict[str, Any]:
    """Ann holds the big piece and fails a bypass with `strikes_before` strikes."""
    for _ in range(strikes_before):
        fail_bypass(t, "Ann", None if t.player("Ann")["where"] != "outside" else BIG.museum)
        t.ok("end_turn", player="Ann")
        pass_turn(t, "Ben")
    steal(t, "Ann", BIG.museum, BIG.name)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    return fail_bypass(t, "Ann")


def test_gg10_caught_with_art_and_no_strikes_ditch(table: Table) -> None:
    answer = _caught(table, 0)
    assert table.events(answer, "strike") == []
    [pending] = table.state["pending"]
    assert pending["decision"] == "caught" and pending["options"] == ["ditch", "keep"]
    table.ok("choose", player="Ann", choice="ditch")
    ann = table.player("Ann")
    assert ann["art"] == [] and ann["strikes"] == 1
    assert BIG.name in table.state["museums"][BIG.museum]


@pytest.mark.parametrize("forces_exit", [False, True])
def test_gg10_caught_with_art_and_no_strikes_keep(forces_exit: bool) -> None:
    t = start(rules={"caught_keep_forces_exit": forces_exit})
    _caught(t, 0)
    t.ok("choose", player="Ann", choice="keep")
    ann = t.player("Ann")
    assert [a["name"] for a in ann["art"]] == [BIG.name] and ann["strikes"] == 2
    assert ann["where"] == BIG.museum
    pending = [p["decision"] for p in t.state["pending"]]
    assert pending == (["second_strike"] if forces_exit else [])


def test_gg10_caught_with_art_and_one_strike_loses_the_art(table: Table) -> None:
    answer = _caught(table, 1)
    assert table.events(answer, "art_returned")
    ann = table.player("Ann")
    assert ann["art"] == [] and ann["strikes"] == 2
    assert BIG.name in table.state["museums"][BIG.museum]
    assert [p["decision"] for p in table.state["pending"]] == ["second_strike"]


def test_gg10_caught_with_art_and_two_strikes_is_out(table: Table) -> None:
    fail_bypass(table, "Ann", BIG.museum)
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    fail_bypass(table, "Ann")
    table.ok("choose", player="Ann", choice="reenter")
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    table.ok("move", player="Ann", tile="art", roll=2)
    table.ok("steal", player="Ann", art=BIG.name)
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    answer = fail_bypass(table, "Ann")
    assert [e["strikes"] for e in table.events(answer, "strike")] == [3]
    assert table.events(answer, "art_returned") and table.events(answer, "out")
    assert table.player("Ann")["status"] == "out"
    assert BIG.name in table.state["museums"][BIG.museum]


# ---- art ---------------------------------------------------------------------------------

def test_gg11_steal_one_piece_from_the_museum(table: Table) -> None:
    table.no("steal", "not_at_art", "GG-11", player="Ann", art=BIG.name)
    table.ok("move", player="Ann", tile="art", museum=BIG.museum, roll=2)
    table.no("steal", "art_not_here", "GG-11", player="Ann", art="The Moon")
    table.ok("steal", player="Ann", art=BIG.name)
    table.no("steal", "already_stole", "GG-11", player="Ann", art=BIG.name)
    assert BIG.name not in table.state["museums"][BIG.museum]
    assert table.player("Ann")["art"] == [{"name": BIG.name, "museum": BIG.museum,
                                           "value": BIG.value, "deduction": BIG.deduction}]


def test_gg11_an_empty_museum_has_nothing_to_steal() -> None:
    museum = min(CAT.museums, key=lambda m: len(CAT.museums[m]))
    pieces = [a.name for a in CAT.museums[museum]]
    t = start(["Ann", "Ben"])
    for piece in pieces:
        t.ok("move", player="Ann", tile="art", museum=museum, roll=2)
        t.ok("steal", player="Ann", art=piece)
        t.ok("end_turn", player="Ann")
        pass_turn(t, "Ben")
    assert t.state["museums"][museum] == []
    t.ok("move", player="Ann", tile="art", museum=museum, roll=2)
    t.no("steal", "empty_museum", "GG-11", player="Ann", art=pieces[0])


def test_gg12_leaving_through_an_exit_keeps_the_art(table: Table) -> None:
    steal(table, "Ann", BIG.museum, BIG.name)
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    table.ok("move", player="Ann", tile="exit", roll=1)
    ann = table.player("Ann")
    assert ann["where"] == "outside" and [a["name"] for a in ann["art"]] == [BIG.name]
    table.ok("end_turn", player="Ann")
    pass_turn(table, "Ben")
    table.no("move", "not_inside", "GG-12", player="Ann", tile="exit", roll=1)


def _carry(t: Table, pieces: list[Any]) -> None:
    for art in pieces:
        if t.player("Ann")["where"] not in ("outside", art.museum):
            t.ok("move", player="Ann", tile="exit", roll=1)
            t.ok("end_turn", player="Ann")
            pass_turn(t, "Ben")
        steal(t, "Ann", art.museum, art.name)
        t.ok("end_turn", player="Ann")
        pass_turn(t, "Ben")
    t.ok("move", player="Ann", tile="exit", roll=1)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")


@pytest.mark.parametrize("n", [1, 2, 3])
def test_gg13_fence_bonus_for_each_piece_beyond_the_first(n: int) -> None:
    t = start(rules={"win_money": 10**12})
    pieces = sorted(CAT.museums[M1], key=lambda a: a.value)[:n]
    _carry(t, pieces)
    t.no("sell", "not_at_black_market", "GG-13", player="Ann")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    [sold] = t.events(t.ok("sell", player="Ann"), "sold")
    face = sum(a.value for a in pieces)
    assert sold["face_value"] == face and sold["fence_bonus"] == 200_000_000 * (n - 1)
    assert t.player("Ann")["money"] == face + 200_000_000 * (n - 1)
    assert t.player("Ann")["art"] == []
    assert all(a.name not in t.state["museums"][M1] for a in pieces)  # sold art leaves the game


def test_gg13_sell_only_the_named_pieces() -> None:
    t = start(rules={"win_money": 10**12, "fence_bonus_per_extra_piece": 5})
    pieces = sorted(CAT.museums[M1], key=lambda a: a.value)[:2]
    _carry(t, pieces)
    t.ok("move", player="Ann", tile="black_market", roll=4)
    t.no("sell", "art_not_held", "GG-13", player="Ann", art=["Nothing"])
    t.ok("sell", player="Ann", art=[pieces[0].name])
    assert [a["name"] for a in t.player("Ann")["art"]] == [pieces[1].name]
    assert t.player("Ann")["money"] == pieces[0].value


def test_gg14_reaching_the_win_money_wins_at_once_and_ends_the_game() -> None:
    t = start(rules={"win_money": BIG.value})
    _carry(t, [BIG])
    t.ok("move", player="Ann", tile="black_market", roll=4)
    answer = t.ok("sell", player="Ann")
    over = t.events(answer, "game_over")
    assert over == [{"type": "game_over", "winner": "Ann", "reason": "money", "rule": "GG-14",
                     "outcome": "won", "winners": ["Ann"]}]  # the result envelope, too
    st = t.state
    assert st["over"] and st["winner"] == "Ann" and t.player("Ann")["status"] == "winner"
    assert st["seed"] is not None  # the seed is revealed when the game ends
    for cmd, fields in [("end_turn", {"player": "Ann"}), ("move", {"player": "Ben",
                        "tile": "plain"}), ("undo", {}), ("roll", {"die": "d6"})]:
        t.no(cmd, "game_over", **fields)


def test_gg14_one_billion_by_default() -> None:
    t = start()
    assert t.state["rules"]["win_money"] == 1_000_000_000


# ---- the end -----------------------------------------------------------------------------

def _third_strike(t: Table, who: str, others: list[str]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for i in range(3):
        answer = fail_bypass(t, who, M1 if t.player(who)["where"] == "outside" else None)
        if i == 1:
            t.ok("choose", player=who, choice="reenter")
        if i < 2:
            t.ok("end_turn", player=who)
            for o in others:
                pass_turn(t, o)
    return answer


def test_gg15_out_player_loses_art_and_hand_and_is_skipped() -> None:
    t = start(["Ann", "Ben", "Cy"])
    answer = _third_strike(t, "Ann", ["Ben", "Cy"])
    assert t.events(answer, "out") and t.player("Ann")["status"] == "out"
    assert t.player("Ann")["hand"] == {"specialists": [], "attributes": []}
    assert t.state["current"] == "Ben"  # the turn passed at once
    t.no("move", "player_out", "GG-15", player="Ann", tile="plain", roll=1)
    pass_turn(t, "Ben")
    pass_turn(t, "Cy")
    assert t.state["current"] == "Ben"


def test_gg15_out_player_art_goes_back_to_its_museum() -> None:
    t = start(["Ann", "Ben", "Cy"])
    t.ok("move", player="Ann", tile="security", museum=BIG.museum, roll=3)
    t.ok("bypass", player="Ann", roll=1)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    pass_turn(t, "Cy")
    t.ok("move", player="Ann", tile="security", roll=3)
    t.ok("bypass", player="Ann", roll=1)
    t.ok("choose", player="Ann", choice="reenter")
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    pass_turn(t, "Cy")
    t.ok("move", player="Ann", tile="art", roll=3)
    t.ok("steal", player="Ann", art=BIG.name)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    pass_turn(t, "Cy")
    answer = fail_bypass(t, "Ann")
    assert t.events(answer, "art_returned") and t.events(answer, "out")
    assert BIG.name in t.state["museums"][BIG.museum]


def test_gg16_last_player_standing_wins() -> None:
    t = start(["Ann", "Ben"])
    answer = _third_strike(t, "Ann", ["Ben"])
    assert t.events(answer, "game_over")[0]["winner"] == "Ben"
    assert t.state["winner"] == "Ben" and t.state["over"]


def test_gg16_solo_third_strike_loses() -> None:
    t = start(["Solo"])
    answer = _third_strike(t, "Solo", [])
    [over] = t.events(answer, "game_over")
    assert over["winner"] is None and over["reason"] == "third_strike"
    assert t.state["over"] and t.state["winner"] is None


def test_gg16_solo_money_wins() -> None:
    t = start(["Solo"], rules={"win_money": BIG.value})
    t.ok("move", player="Solo", tile="art", museum=BIG.museum, roll=2)
    t.ok("steal", player="Solo", art=BIG.name)
    t.ok("end_turn", player="Solo")
    assert t.state["current"] == "Solo"
    t.ok("move", player="Solo", tile="exit", roll=1)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="black_market", roll=1)
    t.ok("sell", player="Solo")
    assert t.state["winner"] == "Solo" and t.state["over"]


# ---- cards -------------------------------------------------------------------------------

def test_gg17_physical_and_box_draws(table: Table) -> None:
    table.ok("move", player="Ann", tile="recruitment", roll=2)
    table.no("draw", "wrong_deck", "GG-17", player="Ann", deck="attribute", card="Hacker")
    table.no("draw", "unknown_card", "GG-19", player="Ann", deck="attribute", card="Jetpack")
    [drawn] = table.events(table.ok("draw", player="Ann", deck="specialist"), "drawn")
    assert drawn["source"] == "box" and drawn["card"] in CAT.specialists
    assert len(table.player("Ann")["hand"]["specialists"]) == 4


TINY = """
[[specialists]]
name = "Hacker"
bonus = 30
copies = 4
[[attributes]]
name = "Rope"
bonus = 10
copies = 1
[[attributes]]
name = "Gloves"
bonus = 5
copies = 1
[[attributes]]
name = "Torch"
bonus = 5
copies = 2
[[museums]]
name = "Small Museum"
[[museums.art]]
name = "Vase"
value = 100
deduction = 5
"""


def test_gg17_an_empty_deck_is_replenished_from_its_discards() -> None:
    t = Table(Session(parse_catalog(TINY, "tiny.toml"), seed=bytes(32)))
    t.ok("new_game", players=["Solo"])
    t.ok("deal", player="Solo", specialists=["Hacker"] * 3, attributes=["Rope", "Gloves", "Torch"])
    t.ok("turn_order", rolls={"Solo": 3})
    assert t.state["decks"]["attribute"] == {"draw": 1, "discard": 0}
    t.ok("move", player="Solo", tile="alarm", museum="Small Museum", roll=3)
    t.ok("bypass", player="Solo", attribute="Rope", roll=100)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="exit", roll=1)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    t.no("draw", "card_not_in_deck", "GG-17", player="Solo", deck="attribute", card="Rope")
    [drawn] = t.events(t.ok("draw", player="Solo", deck="attribute"), "drawn")
    assert drawn["card"] == "Torch"  # the only card in the pile
    assert t.state["decks"]["attribute"] == {"draw": 0, "discard": 1}
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    answer = t.ok("draw", player="Solo", deck="attribute")
    assert t.events(answer, "deck_reshuffled") == [
        {"type": "deck_reshuffled", "deck": "attribute", "cards": 1, "rule": "GG-17"}]
    assert t.events(answer, "drawn")[0]["card"] == "Rope"
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    t.no("draw", "deck_empty", "GG-17", player="Solo", deck="attribute")
    t.ok("draw", player="Solo", deck="specialist", card="Hacker")


def test_gg18_empty_hand_must_re_up_at_the_start_of_the_turn() -> None:
    t = start(["Ann", "Ben"], rules={"reup_at_or_below": 6})
    [pending] = t.state["pending"]
    assert pending == {"player": "Ann", "decision": "reup", "options": ["reup"], "hand": 6}
    t.no("move", "decision_pending", "GG-18", player="Ann", tile="plain", roll=1)
    t.no("reup", "roll_out_of_range", "GG-18", player="Ann", roll=7)
    t.ok("reup", player="Ann", roll=2)
    [due] = t.state["pending"]
    assert due["decision"] == "draw" and due["count"] == 2
    t.ok("draw", player="Ann", deck="specialist")
    t.ok("draw", player="Ann", deck="attribute")
    assert t.state["pending"] == []
    t.no("reup", "no_reup_due", "GG-18", player="Ann", roll=2)


def test_gg18_default_threshold_is_an_empty_hand(table: Table) -> None:
    assert table.state["pending"] == []
    assert table.state["rules"]["reup_at_or_below"] == 0


def test_gg19_bonuses_come_from_the_catalog() -> None:
    weakest = min(CAT.specialists.values(), key=lambda c: c.bonus)
    t = start(hands={"Ann": {"specialists": [weakest.name]}})
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    [b] = t.events(t.ok("bypass", player="Ann", specialist=weakest.name, roll=10), "bypass")
    assert b["specialist_bonus"] == weakest.bonus and b["total"] == 10 + weakest.bonus


def test_gg4_the_movement_roll_can_come_first_and_the_tile_after(table: Table) -> None:
    """Electronic dice: the table sees the number, moves the pawn, then names the tile."""
    answer = table.ok("move_roll", player="Ann")
    [roll] = table.events(answer, "roll")
    assert roll["purpose"] == "move" and roll["source"] == "electronic"
    [pending] = table.state["pending"]
    assert pending == {"player": "Ann", "decision": "tile", "options": ["move"],
                       "roll": roll["value"]}
    table.no("end_turn", "decision_pending", "GG-4", player="Ann")
    table.no("move_roll", "decision_pending", "GG-4", player="Ann")
    table.no("move", "already_rolled", "GG-4", player="Ann", tile="plain", roll=3)
    moved = table.ok("move", player="Ann", tile="airport")
    assert table.events(moved, "roll") == []  # the die was rolled once
    assert table.events(moved, "moved")[0]["roll"] == roll["value"]
    assert table.state["pending"] == [] and table.state["turn"]["rolled"] == roll["value"]
    table.ok("end_turn", player="Ann")


def test_gg4_undoing_the_tile_keeps_the_movement_roll() -> None:
    t = start()
    rolled = t.ok("move_roll", player="Ann")["state"]["turn"]["rolled"]
    t.ok("move", player="Ann", tile="plain")
    t.ok("undo")  # the tile was wrong: the roll stands
    assert t.state["turn"]["rolled"] == rolled
    t.ok("move", player="Ann", tile="recruitment")
    t.ok("undo")
    t.ok("undo")  # the roll itself: its die stays on the table
    again = t.ok("move_roll", player="Ann")
    [roll] = t.events(again, "roll")
    assert roll["value"] == rolled and roll["kept"] is True


def test_gg10_leaving_resets_strikes_at_the_movement_roll() -> None:
    t = start()
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    t.ok("bypass", player="Ann", roll=1)
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    t.ok("move", player="Ann", tile="security", roll=3)
    t.ok("bypass", player="Ann", roll=1)
    t.ok("choose", player="Ann", choice="leave")
    t.ok("end_turn", player="Ann")
    pass_turn(t, "Ben")
    assert t.events(t.ok("move_roll", player="Ann", roll=2), "strikes_reset")
    assert t.player("Ann")["strikes"] == 0
