"""Gallery Grippers' obstacles (rules/obstacle.py, GG-6..GG-10): every refusal of bypass and
choose with its code, rule and words, and the bypass and caught events in full, as the
console, the box, the page and the log read them (issue 28; docs/mutation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.gallery_grippers.catalog import default_catalog
from tests.referee.conftest import Table, start

CAT = default_catalog()
M1 = next(iter(CAT.museums))
ART = CAT.museums[M1][0]


def says(t: Table, cmd: str, code: str, rule: str, message: str, **fields: Any) -> None:
    assert t.no(cmd, code, rule, **fields)["error"]["message"] == message


def hacker() -> Table:
    return start(hands={"Ann": {"specialists": ["Hacker"], "attributes": ["More Tech"]}})


def test_bypass_each_refusal() -> None:
    t = hacker()
    says(t, "bypass", "no_obstacle", "GG-6",
         "Ann is not facing an obstacle (land on security or alarm first).", player="Ann",
         roll=50)
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    ann = t.player("Ann")["hand"]
    says(t, "bypass", "two_specialists", "GG-6", "At most one specialist card per obstacle.",
         player="Ann", specialist=ann["specialists"][:2], roll=50)
    says(t, "bypass", "two_attributes", "GG-6", "At most one attribute card per obstacle.",
         player="Ann", attribute=ann["attributes"][:2], roll=50)
    missing = next(c for c in sorted(CAT.specialists) if c not in ann["specialists"])
    says(t, "bypass", "card_not_in_hand", "GG-6", f"Ann does not hold {missing}.",
         player="Ann", specialist=missing, roll=50)
    says(t, "bypass", "roll_out_of_range", "GG-7",
         "101 is not a possible percentile roll (1-100).", player="Ann", roll=101)


def test_the_bypass_event_in_full() -> None:
    t = hacker()
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    events = t.ok("bypass", player="Ann", specialist="Hacker", attribute="More Tech",
                  roll=50)["events"]
    assert events[1:] == [
        {"type": "resolved", "player": "Ann", "decision": "obstacle"},
        {"type": "bypass", "player": "Ann", "tile": "security", "roll": 50,
         "roll_source": "physical", "roll_via": "typed", "roll_kept": False,
         "specialist": "Hacker", "specialist_bonus": 30, "attribute": "More Tech",
         "attribute_bonus": 20, "art_deduction": 0, "art": [], "total": 100, "target": 100,
         "success": True, "rule": "GG-8"}]


def caught() -> Table:
    """Ann, with no strike, fails a bypass carrying a piece: the table asks ditch or keep."""
    t = hacker()
    t.ok("move", player="Ann", tile="art", museum=M1, roll=2)
    t.ok("steal", player="Ann", art=ART.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="alarm", roll=3)
    events = t.ok("bypass", player="Ann", roll=1)["events"]
    assert events[2] == {
        "type": "bypass", "player": "Ann", "tile": "alarm", "roll": 1,
        "roll_source": "physical", "roll_via": "typed", "roll_kept": False,
        "specialist": None, "specialist_bonus": 0, "attribute": None, "attribute_bonus": 0,
        "art_deduction": ART.deduction, "art": [ART.name], "total": 1 - ART.deduction,
        "target": 100, "success": False, "rule": "GG-8"}
    assert events[3:] == [
        {"type": "caught", "player": "Ann", "strikes_before": 0, "art": [ART.name]},
        {"type": "pending", "player": "Ann", "decision": "caught", "options": ["ditch", "keep"],
         "museum": M1}]
    return t


def test_choose_each_refusal() -> None:
    t = hacker()
    says(t, "choose", "no_choice_pending", "GG-10", "Ann has no choice to make.",
         player="Ann", choice="ditch")
    t = caught()
    says(t, "choose", "bad_choice", "GG-10", "Choose ditch or keep (not leave).",
         player="Ann", choice="leave")


@pytest.mark.parametrize(("choice", "after"), [
    ("ditch", [{"type": "art_returned", "player": "Ann",
                "pieces": [{"name": ART.name, "museum": M1}]},
               {"type": "strike", "player": "Ann", "strikes": 1}]),
    ("keep", [{"type": "strike", "player": "Ann", "strikes": 2}])])
def test_caught_ditching_or_keeping_the_art(choice: str, after: list[dict[str, Any]]) -> None:
    t = caught()
    events = t.ok("choose", player="Ann", choice=choice)["events"]
    assert events == [{"type": "resolved", "player": "Ann", "decision": "caught",
                       "choice": choice}, *after]
    assert t.player("Ann")["strikes"] == after[-1]["strikes"]


def fail_bypass(t: Table, who: str) -> dict[str, Any]:
    museum = M1 if t.player(who)["where"] == "outside" else None
    t.ok("move", player=who, tile="security", museum=museum, roll=3)
    return t.ok("bypass", player=who, roll=1)


def third_strike(players: list[str]) -> tuple[Table, dict[str, list[str]], list[dict[str, Any]]]:
    """The first player fails three bypasses (re-entering after the second): the hand they
    held and the events after the third bypass."""
    t = start(players)
    who, others = players[0], players[1:]
    for i in range(2):
        fail_bypass(t, who)
        if i == 1:
            t.ok("choose", player=who, choice="reenter")
        t.ok("end_turn", player=who)
        for o in others:
            t.ok("move", player=o, tile="plain", roll=1)
            t.ok("end_turn", player=o)
    hand = t.player(who)["hand"]
    events = fail_bypass(t, who)["events"]
    return t, hand, [e for e in events[3:] if e["type"] != "seed_revealed"]


OUT = [{"type": "strike", "player": "Ann", "strikes": 3}]


def hand_out(hand: dict[str, list[str]]) -> list[dict[str, Any]]:
    return [{"type": "hand_discarded", "player": "Ann", "specialists": hand["specialists"],
             "attributes": hand["attributes"]},
            {"type": "out", "player": "Ann", "rule": "GG-15"}]


def test_the_third_strike_solo_loses_the_game() -> None:
    _, hand, events = third_strike(["Ann"])
    assert events == [*OUT, *hand_out(hand),
                      {"type": "game_over", "winner": None, "reason": "third_strike",
                       "rule": "GG-16", "outcome": "lost", "winners": []}]


def test_the_third_strike_leaves_the_last_player_standing_the_winner() -> None:
    _, hand, events = third_strike(["Ann", "Ben"])
    assert events == [*OUT, *hand_out(hand),
                      {"type": "game_over", "winner": "Ben", "reason": "last_player_standing",
                       "rule": "GG-16", "outcome": "won", "winners": ["Ben"]}]


def test_the_third_strike_of_three_passes_the_turn() -> None:
    t, hand, events = third_strike(["Ann", "Ben", "Cy"])
    assert events[:3] == [*OUT, *hand_out(hand)]
    assert {"type": "turn", "player": "Ben", "number": 8} in events[3:]
    assert t.state["current"] == "Ben" and not t.state["over"]


def second_strike() -> Table:
    t = start()
    fail_bypass(t, "Ann")
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    events = fail_bypass(t, "Ann")["events"]
    assert events[3:] == [{"type": "strike", "player": "Ann", "strikes": 2},
                          {"type": "pending", "player": "Ann", "decision": "second_strike",
                           "options": ["leave", "reenter"], "museum": M1}]
    return t


@pytest.mark.parametrize(("choice", "then"), [
    ("leave", {"type": "left_premises", "player": "Ann", "museum": M1, "art_kept": []}),
    ("reenter", {"type": "reentered", "player": "Ann", "museum": M1})])
def test_the_second_strike_leaving_or_reentering(choice: str, then: dict[str, Any]) -> None:
    t = second_strike()
    says(t, "choose", "bad_choice", "GG-10", "Choose leave or reenter (not keep).",
         player="Ann", choice="keep")
    assert t.ok("choose", player="Ann", choice=choice)["events"] == [
        {"type": "resolved", "player": "Ann", "decision": "second_strike", "choice": choice},
        then]


def test_caught_keeping_the_art_forced_out_leaves_with_it() -> None:
    """`caught_keep_forces_exit`: keeping the art is the second strike, and the player then
    chooses to leave (with the art) or re-enter."""
    t = start(hands={"Ann": {"specialists": ["Hacker"]}}, rules={"caught_keep_forces_exit": True})
    t.ok("move", player="Ann", tile="art", museum=M1, roll=2)
    t.ok("steal", player="Ann", art=ART.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="alarm", roll=3)
    t.ok("bypass", player="Ann", roll=1)
    assert t.ok("choose", player="Ann", choice="keep")["events"][1:] == [
        {"type": "strike", "player": "Ann", "strikes": 2},
        {"type": "pending", "player": "Ann", "decision": "second_strike",
         "options": ["leave", "reenter"], "museum": M1}]
    assert t.ok("choose", player="Ann", choice="leave")["events"][1:] == [
        {"type": "left_premises", "player": "Ann", "museum": M1, "art_kept": [ART.name]}]


def test_the_bypass_roll_is_the_players_percentile_for_the_bypass() -> None:
    """GG-7: the box rolls the d100 (a hundred faces) for the player's bypass; undone, it
    waits for that player's next bypass roll and is reused."""
    t = hacker()
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    typed = t.ok("bypass", player="Ann", roll=50)["events"][0]
    assert typed == {"type": "roll", "player": "Ann", "id": "Ann", "purpose": "bypass",
                     "die": "d100", "value": 50, "source": "physical", "via": "typed",
                     "index": None, "sides": None, "kept": False}
    t.ok("undo")
    [first] = t.events(t.ok("bypass", player="Ann"), "roll")
    assert (first["player"], first["purpose"], first["die"], first["sides"],
            first["source"]) == ("Ann", "bypass", "d100", 100, "electronic")
    t.ok("undo")
    t.no("bypass", "die_kept", None, player="Ann", roll=50)
    [again] = t.events(t.ok("bypass", player="Ann"), "roll")
    assert (again["index"], again["value"], again["kept"]) == (first["index"], first["value"],
                                                               True)


def test_a_card_of_the_wrong_kind_or_not_held_is_refused() -> None:
    t = hacker()
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    says(t, "bypass", "not_a_specialist", "GG-6",
         "More Tech is an attribute card, not a specialist.",
         player="Ann", specialist="More Tech", roll=50)
    says(t, "bypass", "not_a_attribute", "GG-6", "Hacker is a specialist card, not an attribute.",
         player="Ann", attribute="Hacker", roll=50)
    says(t, "bypass", "unknown_card", "GG-19", "There is no card called 'Jetpack'.",
         player="Ann", attribute="Jetpack", roll=50)
    ann = t.player("Ann")["hand"]
    missing = next(c for c in sorted(CAT.attributes) if c not in ann["attributes"])
    says(t, "bypass", "card_not_in_hand", "GG-6", f"Ann does not hold {missing}.",
         player="Ann", attribute=missing, roll=50)
    # Each kind is looked up in its own hand: a held attribute is played (and discarded).
    held = ann["attributes"][0]
    t.ok("bypass", player="Ann", attribute=held, roll=100)
    after = t.player("Ann")["hand"]["attributes"]
    assert after.count(held) == ann["attributes"].count(held) - 1 and len(after) == 2


def test_caught_with_one_strike_loses_the_art_and_takes_the_second() -> None:
    """GG-10: a failed bypass while carrying art, with one strike before: the art goes back,
    the second strike, and the leave-or-re-enter choice."""
    t = start()
    fail_bypass(t, "Ann")  # strike 1, inside M1
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="art", roll=2)
    t.ok("steal", player="Ann", art=ART.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="alarm", roll=3)
    events = t.ok("bypass", player="Ann", roll=1)["events"]
    assert events[3:] == [
        {"type": "art_returned", "player": "Ann", "pieces": [{"name": ART.name, "museum": M1}]},
        {"type": "strike", "player": "Ann", "strikes": 2},
        {"type": "pending", "player": "Ann", "decision": "second_strike",
         "options": ["leave", "reenter"], "museum": M1}]
    assert t.player("Ann")["art"] == [] and t.player("Ann")["strikes"] == 2


def test_the_third_strike_carrying_art_returns_it() -> None:
    """GG-15: out with art in hand: the art goes back to its museum before the hand goes."""
    t = start()
    for i in range(2):
        fail_bypass(t, "Ann")
        if i == 1:
            t.ok("choose", player="Ann", choice="reenter")
        t.ok("end_turn", player="Ann")
        t.ok("move", player="Ben", tile="plain", roll=1)
        t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="art", roll=2)
    t.ok("steal", player="Ann", art=ART.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    hand = t.player("Ann")["hand"]
    t.ok("move", player="Ann", tile="alarm", roll=3)
    events = [e for e in t.ok("bypass", player="Ann", roll=1)["events"][3:]
              if e["type"] != "seed_revealed"]
    assert events == [
        *OUT,
        {"type": "art_returned", "player": "Ann", "pieces": [{"name": ART.name, "museum": M1}]},
        *hand_out(hand),
        {"type": "game_over", "winner": "Ben", "reason": "last_player_standing",
         "rule": "GG-16", "outcome": "won", "winners": ["Ben"]}]


def test_out_with_an_empty_hand_discards_nothing() -> None:
    """The cards played at the third failed bypass are discarded first (GG-9): a player who
    played their last cards there has no hand left to discard (GG-15)."""
    t = start()
    for i in range(3):
        hand = t.player("Ann")["hand"]
        museum = M1 if t.player("Ann")["where"] == "outside" else None
        t.ok("move", player="Ann", tile="security", museum=museum, roll=3)
        events = t.ok("bypass", player="Ann", specialist=hand["specialists"][0],
                      attribute=hand["attributes"][0], roll=1)["events"]
        if i == 1:
            t.ok("choose", player="Ann", choice="reenter")
        if i < 2:
            t.ok("end_turn", player="Ann")
            t.ok("move", player="Ben", tile="plain", roll=1)
            t.ok("end_turn", player="Ben")
    assert t.player("Ann")["hand"] == {"specialists": [], "attributes": []}
    events = [e for e in events[3:] if e["type"] != "seed_revealed"]
    assert events == [*OUT, {"type": "out", "player": "Ann", "rule": "GG-15"},
                      {"type": "game_over", "winner": "Ben", "reason": "last_player_standing",
                       "rule": "GG-16", "outcome": "won", "winners": ["Ben"]}]
