"""Gallery Grippers' turn (rules/play.py): every refusal of moving, stealing, selling, trading,
ending the turn and free rolls, with its code, its rule and what it says; trades of a card held
once, of nothing, with oneself. Pinned from the survivors of mutation testing rules/play.py
(issue 28; docs/mutation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.dice import roll_for
from referee.games.gallery_grippers.catalog import default_catalog
from tests.referee.conftest import SEED, Table, start

CAT = default_catalog()
M1, M2 = list(CAT.museums)[:2]
ATTRS = sorted(CAT.attributes)


def says(t: Table, cmd: str, code: str, rule: str, message: str, **fields: Any) -> None:
    answer = t.no(cmd, code, rule, **fields)
    assert answer["error"]["message"] == message


def two_distinct_hands() -> Table:
    """Ann and Ben each hold three different attribute cards, each once."""
    return start(hands={"Ann": {"attributes": ATTRS[:3]}, "Ben": {"attributes": ATTRS[3:6]}})


def test_where_a_move_lands_each_refusal() -> None:
    t = start()
    says(t, "move", "museum_required", "GG-5",
         "Which museum is an art quadrant in? Name the museum.",
         player="Ann", tile="art", roll=2)
    says(t, "move", "unknown_museum", "GG-5",
         f"There is no museum called 'Moon' ({', '.join(CAT.museums)}).",
         player="Ann", tile="art", museum="Moon", roll=2)
    says(t, "move", "not_a_museum_tile", "GG-5", "An airport is not inside a museum.",
         player="Ann", tile="airport", museum=M1, roll=2)
    says(t, "move", "not_inside", "GG-12",
         "Ann is outside; an exit only matters on the way out (say 'plain').",
         player="Ann", tile="exit", roll=1)
    t.ok("move", player="Ann", tile="plain", museum=M1, roll=1)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    says(t, "move", "wrong_museum", "GG-12",
         f"Ann is inside {M1}; leave through an exit first.",
         player="Ann", tile="art", museum=M2, roll=2)
    says(t, "move", "inside_museum", "GG-12",
         f"Ann is inside {M1}: a trading post is outside. Leave through an exit first.",
         player="Ann", tile="trading", roll=3)


def test_one_movement_roll_a_turn_each_refusal() -> None:
    t = start()
    says(t, "end_turn", "must_move", "GG-4", "Ann must roll to move before ending the turn.",
         player="Ann")
    t.ok("move_roll", player="Ann", roll=3)
    says(t, "move", "already_rolled", "GG-4",
         "Ann already rolled 3 to move; say where the pawn landed.",
         player="Ann", tile="plain", roll=3)
    t.ok("move", player="Ann", tile="plain")
    says(t, "move_roll", "already_moved", "GG-4", "Ann has already rolled to move this turn.",
         player="Ann", roll=3)
    says(t, "move", "already_moved", "GG-4", "Ann has already rolled to move this turn.",
         player="Ann", tile="plain", roll=3)


def test_stealing_each_refusal() -> None:
    t = start()
    says(t, "steal", "not_at_art", "GG-11",
         "Art can only be stolen on an art quadrant, in the turn the pawn lands there.",
         player="Ann", art=CAT.museums[M1][0].name)
    t.ok("move", player="Ann", tile="art", museum=M1, roll=2)
    here = [a.name for a in CAT.museums[M1]]
    says(t, "steal", "art_not_here", "GG-11",
         f"'The Moon' is not in {M1} (there: {', '.join(here)}).", player="Ann", art="The Moon")
    t.ok("steal", player="Ann", art=here[0])
    says(t, "steal", "already_stole", "GG-11", "One piece per art quadrant landing.",
         player="Ann", art=here[1])
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="plain", roll=1)  # inside the museum, not on its art
    says(t, "steal", "not_at_art", "GG-11",
         "Art can only be stolen on an art quadrant, in the turn the pawn lands there.",
         player="Ann", art=here[1])


def test_an_empty_museum_says_so() -> None:
    museum = min(CAT.museums, key=lambda m: len(CAT.museums[m]))
    pieces = [a.name for a in CAT.museums[museum]]
    t = start()
    for piece in pieces:
        t.ok("move", player="Ann", tile="art", museum=museum, roll=2)
        t.ok("steal", player="Ann", art=piece)
        t.ok("end_turn", player="Ann")
        t.ok("move", player="Ben", tile="plain", roll=1)
        t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="art", museum=museum, roll=2)
    says(t, "steal", "empty_museum", "GG-11", f"{museum} has no art left to steal.",
         player="Ann", art=pieces[0])


def test_selling_each_refusal() -> None:
    t = start(rules={"win_money": 10**12})
    says(t, "sell", "not_at_black_market", "GG-13", "Art is sold only at the black market.",
         player="Ann")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    says(t, "sell", "nothing_to_sell", "GG-13", "Ann carries no art.", player="Ann")
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    piece, other = (a.name for a in CAT.museums[M1][:2])
    for art in (piece, other):
        t.ok("move", player="Ann", tile="art", museum=M1, roll=2)
        t.ok("steal", player="Ann", art=art)
        t.ok("end_turn", player="Ann")
        t.ok("move", player="Ben", tile="plain", roll=1)
        t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="exit", roll=1)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    says(t, "sell", "nothing_to_sell", "GG-13", "Name at least one piece to sell.",
         player="Ann", art=[])
    carrying = f"(carrying: {piece}, {other})."
    says(t, "sell", "art_not_held", "GG-13", f"Ann does not carry 'Nothing' {carrying}",
         player="Ann", art=["Nothing"])
    says(t, "sell", "art_not_held", "GG-13", f"Ann does not carry {piece!r} {carrying}",
         player="Ann", art=[piece, piece])
    t.ok("sell", player="Ann", art=[piece])


def test_trading_each_refusal_and_a_card_held_once() -> None:
    t = two_distinct_hands()
    ann, ben = ATTRS[0], ATTRS[3]
    trade = {"from": "Ann", "to": "Ben", "give": [ann], "get": [ben]}
    says(t, "trade", "not_at_trading_post", "GG-4", "Cards are traded only at a trading post.",
         **trade)
    t.ok("move", player="Ann", tile="trading", roll=3)
    says(t, "trade", "bad_trade", "GG-4", "A trade needs two different players.",
         **{**trade, "to": "Ann"})
    says(t, "trade", "bad_trade", "GG-4", "Name the cards that change hands.",
         **{**trade, "give": [], "get": []})
    specialist = t.player("Ann")["hand"]["specialists"][0]
    says(t, "trade", "not_an_attribute", "GG-4",
         f"Only attribute cards are traded ({specialist!r} is not one).",
         **{**trade, "give": [specialist]})
    says(t, "trade", "card_not_in_hand", "GG-4", f"Ann does not hold {ann}.",
         **{**trade, "give": [ann, ann]})
    says(t, "trade", "card_not_in_hand", "GG-4", f"Ben does not hold {ann}.",
         **{**trade, "get": [ann]})
    answer = t.ok("trade", **{**trade, "get": []})  # a gift: one side may name nothing
    assert t.events(answer, "traded") == [{"type": "traded", "from": "Ann", "to": "Ben",
                                            "give": [ann], "get": []}]
    assert ann not in t.player("Ann")["hand"]["attributes"]
    assert t.player("Ben")["hand"]["attributes"].count(ann) == 1


@pytest.mark.parametrize(("die", "value", "rule", "faces"),
                         [("d6", 7, "GG-4", "1-6"), ("d6", 0, "GG-4", "1-6"),
                          ("d10", 11, "GG-4", "1-10"), ("d100", 101, "GG-7", "1-100"),
                          ("d100", 0, "GG-7", "1-100")])
def test_a_free_roll_typed_off_the_die_is_refused(die: str, value: int, rule: str,
                                                  faces: str) -> None:
    t = start()
    says(t, "roll", "roll_out_of_range", rule,
         f"{value} is not a possible {die} roll ({faces}).", die=die, value=value)


def test_a_free_percentile_roll_follows_the_percentile_house_rule() -> None:
    """GG-7 with `percentile = "0-99"`: 0 is a face, 100 is not."""
    t = start(rules={"percentile": "0-99"})
    says(t, "roll", "roll_out_of_range", "GG-7", "100 is not a possible d100 roll (0-99).",
         die="d100", value=100)
    [roll] = t.events(t.ok("roll", die="d100", value=0), "roll")
    assert (roll["die"], roll["value"], roll["purpose"], roll["player"]) == ("d100", 0, "free",
                                                                             "Ann")


def typed_roll(player: str, value: int) -> dict[str, Any]:
    return {"type": "roll", "player": player, "id": player, "purpose": "move", "die": "d6",
            "value": value, "source": "physical", "via": "typed", "index": None,
            "sides": None, "kept": False}


def test_a_turns_events_in_full() -> None:
    """What the console, the box, the page and the log read from each step of a turn."""
    t = start(rules={"win_money": 10**12})
    art = CAT.museums[M1][0]
    assert t.ok("move_roll", player="Ann", roll=2)["events"] == [
        typed_roll("Ann", 2), {"type": "move_rolled", "player": "Ann", "roll": 2},
        {"type": "pending", "player": "Ann", "decision": "tile", "options": ["move"],
         "roll": 2}]
    assert t.ok("move", player="Ann", tile="art", museum=M1)["events"] == [
        {"type": "resolved", "player": "Ann", "decision": "tile"},
        {"type": "moved", "player": "Ann", "roll": 2, "tile": "art", "museum": M1},
        {"type": "entered", "player": "Ann", "museum": M1}]
    assert t.ok("steal", player="Ann", art=art.name)["events"] == [
        {"type": "stolen", "player": "Ann", "art": {"name": art.name, "museum": M1,
                                                    "value": art.value,
                                                    "deduction": art.deduction}}]
    t.ok("end_turn", player="Ann")
    assert t.ok("move", player="Ben", tile="recruitment", roll=1)["events"] == [
        typed_roll("Ben", 1),
        {"type": "moved", "player": "Ben", "roll": 1, "tile": "recruitment", "museum": None},
        {"type": "pending", "player": "Ben", "decision": "draw",
         "options": ["specialist", "attribute"], "count": 1, "reason": "recruitment"}]
    t.ok("draw", player="Ben", deck="attribute", card=ATTRS[0])
    t.ok("end_turn", player="Ben")
    assert t.ok("move", player="Ann", tile="exit", roll=1)["events"] == [
        typed_roll("Ann", 1),
        {"type": "moved", "player": "Ann", "roll": 1, "tile": "exit", "museum": M1},
        {"type": "left", "player": "Ann", "museum": M1, "art_kept": [art.name]}]
    t.ok("end_turn", player="Ann")
    assert t.ok("move", player="Ben", tile="security", museum=M1, roll=1)["events"] == [
        typed_roll("Ben", 1),
        {"type": "moved", "player": "Ben", "roll": 1, "tile": "security", "museum": M1},
        {"type": "entered", "player": "Ben", "museum": M1},
        {"type": "pending", "player": "Ben", "decision": "obstacle", "options": ["bypass"],
         "tile": "security", "museum": M1}]
    t.ok("bypass", player="Ben", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    assert t.ok("sell", player="Ann")["events"] == [
        {"type": "sold", "player": "Ann", "pieces": [art.name], "face_value": art.value,
         "fence_bonus": 0, "price": art.value, "money": art.value}]


@pytest.mark.parametrize("cmd", ["move", "move_roll"])
def test_a_movement_roll_typed_off_the_die_says_so(cmd: str) -> None:
    t = start()
    fields = {"tile": "plain"} if cmd == "move" else {}
    says(t, cmd, "roll_out_of_range", "GG-4", "7 is not a possible movement (d6) roll (1-6).",
         player="Ann", roll=7, **fields)


def test_the_box_rolls_the_movement_d6_from_the_stream() -> None:
    """GG-4: with no value typed, the box rolls the movement die: a d6 (six sides) drawn from
    the game's stream, the same face `roll_for` gives for that index."""
    t = start()
    for turn in range(8):
        who = ("Ann", "Ben")[turn % 2]
        if turn % 4 < 2:  # the roll first, then the tile
            [roll] = t.events(t.ok("move_roll", player=who), "roll")
            t.ok("move", player=who, tile="plain")
        else:  # the tile named with no roll: the box rolls for the move itself
            [roll] = t.events(t.ok("move", player=who, tile="airport"), "roll")
        assert (roll["die"], roll["sides"], roll["source"], roll["purpose"], roll["player"]) == (
            "d6", 6, "electronic", "move", who)
        assert roll["value"] == roll_for(SEED, roll["index"], "d6")
        t.ok("end_turn", player=who)


@pytest.mark.parametrize(("cmd", "fields"), [("roll", {"die": "d6"}),
                                             ("move", {"player": "Ann", "tile": "airport"})])
def test_an_undone_box_roll_waits_for_the_same_die_and_purpose(cmd: str,
                                                              fields: dict[str, Any]) -> None:
    """Kept dice (docs/protocol.md): the box's free roll and its roll for a move each wait,
    once undone, for the next roll of the same die by the same player for the same purpose."""
    t = start()
    [first] = t.events(t.ok(cmd, **fields), "roll")
    t.ok("undo")
    typed = {"value": 1} if cmd == "roll" else {"roll": 1}
    t.no(cmd, "die_kept", None, **fields, **typed)
    [again] = t.events(t.ok(cmd, **fields), "roll")
    assert (again["index"], again["value"], again["kept"]) == (first["index"], first["value"],
                                                               True)
    assert (again["player"], again["purpose"]) == ("Ann", "free" if cmd == "roll" else "move")
