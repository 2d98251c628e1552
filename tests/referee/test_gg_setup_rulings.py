"""Gallery Grippers' setup (rules/setup.py, GG-1..GG-3): the players' names and colours, the
starting hands, the turn-order roll and its tie-break: every refusal with its code, its rule
and what it says, and the events in full, as the console, the box, the page and the log read
them. Pinned from the survivors of mutation testing rules/setup.py (issue 28;
docs/mutation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import GameOver, Refusal
from referee.games.gallery_grippers.catalog import default_catalog
from referee.games.gallery_grippers.commands import NewGame, PlayerSpec
from referee.games.gallery_grippers.rules import setup
from referee.games.gallery_grippers.rules.common import DieRequest, NeedDice
from referee.games.gallery_grippers.ruleset import RULESET
from referee.session import Session
from tests.referee.conftest import SEED, Table, hand_for, start
from tests.referee.games.playing import PureGame

CAT = default_catalog()
RARE = min(CAT.specialists.values(), key=lambda card: card.copies)  # Inside Man: 2 copies
ATTRS = ["More Tech", "Steroids", "Added Stealth"]
DEFAULT_RULES = {"tiebreak": "rps", "percentile": "1-100", "bypass_target": 100,
                 "caught_keep_forces_exit": False, "fence_bonus_per_extra_piece": 200_000_000,
                 "win_money": 1_000_000_000, "reup_at_or_below": 0}


class Game(PureGame):
    RULESET = RULESET


def says(t: Table, cmd: str, code: str, rule: str | None, message: str, **fields: Any) -> None:
    assert t.no(cmd, code, rule, **fields)["error"]["message"] == message


def seated(*players: Any, rules: dict[str, Any] | None = None) -> Table:
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=[p if isinstance(p, dict) else {"name": p} for p in players],
         rules=rules or {})
    return t


def dealt(*names: str, rules: dict[str, Any] | None = None) -> Table:
    t = seated(*names, rules=rules)
    for n in names:
        t.ok("deal", player=n, **hand_for(t.session))
    return t


def bad_players(players: list[dict[str, Any]], message: str) -> None:
    t = Table(Session(seed=SEED))
    says(t, "new_game", "bad_players", None, message, players=players)


# ---- new_game: the players ------------------------------------------------------------------

def test_game_started_in_full() -> None:
    t = Table(Session(seed=SEED))
    [event] = t.ok("new_game", players=[{"name": "  Ann "}, {"name": "Ben", "color": " blue "}],
                   rules={"tiebreak": "reroll"})["events"]
    assert event == {
        "type": "game_started",
        "players": [{"name": "Ann", "color": "orange"}, {"name": "Ben", "color": "blue"}],
        "rules": {**DEFAULT_RULES, "tiebreak": "reroll"},
        "commitment": t.session.state.commitment, "catalog": "<default>"}
    assert isinstance(event["commitment"], str) and len(event["commitment"]) == 64


def test_one_to_six_players() -> None:
    seated("Solo")
    six = [f"P{i}" for i in range(1, 7)]
    t = seated(*six)
    assert [p["name"] for p in t.state["players"]] == six
    bad_players([{"name": f"P{i}"} for i in range(1, 8)],
                "Gallery Grippers is for 1 to 6 players, not 7.")


def test_free_colours_come_from_the_palette_in_order_skipping_those_chosen() -> None:
    t = seated(*(f"P{i}" for i in range(1, 7)))
    assert [p["color"] for p in t.state["players"]] == list(setup.PALETTE)
    # a chosen palette colour (in any capitals) is not handed out again
    t = seated({"name": "Ann"}, {"name": "Ben", "color": "ORANGE"}, {"name": "Cy"})
    assert [p["color"] for p in t.state["players"]] == ["sky blue", "ORANGE", "bluish green"]
    # a blank colour (the protocol refuses one; the rules read it as none) gets the next free
    state = RULESET.initial_state(RULESET.load_catalog(None))
    [event] = setup.new_game(state, NewGame(
        players=(PlayerSpec("Ann", "  "), PlayerSpec("Ben", "Sky Blue"), PlayerSpec("Cy")),
        commitment="ab" * 32))
    assert [p["color"] for p in event["players"]] == ["orange", "Sky Blue", "bluish green"]


def test_a_name_the_table_could_not_read_is_refused_naming_the_seat() -> None:
    state = RULESET.initial_state(RULESET.load_catalog(None))
    with pytest.raises(Refusal) as err:  # the protocol refuses a blank name before the rules
        setup.new_game(state, NewGame(players=(PlayerSpec("Ann"), PlayerSpec("   ")),
                                      commitment="ab" * 32))
    assert (err.value.code, err.value.args[0]) == ("bad_players", "Player 2's name is empty.")
    bad_players([{"name": "Ann"}, {"name": "B" * 25}],
                "Player 2's name is 25 characters long; at most 24 fit.")
    bad_players([{"name": "A\u0007nn"}],
                "Player 1's name has a control character (U+0007) at position 2; "
                "type it again without it.")
    assert seated("A" * 24, "Ben").state["players"][0]["name"] == "A" * 24


def test_names_that_look_alike_are_refused() -> None:
    bad_players([{"name": "Ann"}, {"name": "Ben"}, {"name": "Ann"}],
                "Players 1 and 3 are called 'Ann': names that look alike or differ only in "
                "capitals count as the same, and each player needs a name of their own.")
    bad_players([{"name": "Cy"}, {"name": "Zoë"}, {"name": "ZOE\u0308"}],
                "Players 2 and 3 are called 'Zoë' and 'ZOË': names that look alike or differ "
                "only in capitals count as the same, and each player needs a name of their "
                "own.")
    # spelt two ways in Unicode, one name once set to NFC
    t = seated("Zoe\u0308")
    assert t.state["players"][0]["name"] == "Zo\u00eb"


def test_colours_the_table_could_not_read_or_tell_apart_are_refused() -> None:
    bad_players([{"name": "Ann"}, {"name": "Ben", "color": "c" * 17}],
                "Player 2's colour is 17 characters long; at most 16 fit.")
    bad_players([{"name": "Ann", "color": "re\u0000d"}],
                "Player 1's colour has a control character (U+0000) at position 3; type it "
                "again without it.")
    bad_players([{"name": "Ann", "color": "Red"}, {"name": "Ben"}, {"name": "Cy", "color": "red"}],
                "Players 1 and 3 both chose red: each player needs their own colour.")
    t = seated({"name": "Ann", "color": "c" * 16}, {"name": "Ben", "color": "  Teal  "})
    assert [p["color"] for p in t.state["players"]] == ["c" * 16, "Teal"]


def test_bad_house_rules_and_a_missing_commitment() -> None:
    t = Table(Session(seed=SEED))
    says(t, "new_game", "bad_rules", None,
         'new_game rules.tiebreak: must be one of "rps", "reroll" (GG-3), not "x"',
         players=[{"name": "Ann"}], rules={"tiebreak": "x"})
    g = Game()
    g.state = RULESET.initial_state(RULESET.load_catalog(None))
    with pytest.raises(Refusal) as err:
        setup.new_game(g.state, NewGame(players=(PlayerSpec("Ann"),)))
    assert err.value.code == "no_commitment"
    assert err.value.args[0] == "A game needs its dice commitment (session error)."


# ---- deal (GG-1) ----------------------------------------------------------------------------

def test_the_hand_dealt_event_in_full_and_what_it_takes_from_the_decks() -> None:
    t = seated("Ann", "Ben")
    specialists = [RARE.name, RARE.name, "Hacker"]
    [event] = t.ok("deal", player="Ann", specialists=specialists, attributes=ATTRS)["events"]
    assert event == {"type": "hand_dealt", "player": "Ann", "specialists": specialists,
                     "attributes": ATTRS}
    # every copy of the rare card is taken: none is left for Ben
    says(t, "deal", "not_enough_copies", "GG-1",
         f"Only 0 {RARE.name} card(s) are left in the deck.",
         player="Ben", specialists=[RARE.name, "Hacker", "Hacker"], attributes=ATTRS)


def test_a_starting_hand_each_refusal() -> None:
    t = Table(Session(seed=SEED))
    says(t, "deal", "no_game", None, "No game is running: start one with new_game.",
         player="Ann", specialists=["Hacker"] * 3, attributes=ATTRS)
    t = seated("Ann", "Ben")
    says(t, "deal", "unknown_player", None, "There is no player called 'Cy' (Ann, Ben).",
         player="Cy", specialists=["Hacker"] * 3, attributes=ATTRS)
    says(t, "deal", "bad_hand", "GG-1", "A starting hand has 3 specialists, not 2.",
         player="Ann", specialists=["Hacker"] * 2, attributes=ATTRS)
    says(t, "deal", "bad_hand", "GG-1", "A starting hand has 3 attributes, not 4.",
         player="Ann", specialists=["Hacker"] * 3, attributes=[*ATTRS, "More Tech"])
    says(t, "deal", "wrong_deck", "GG-1", "More Tech is an attribute card, not a specialist.",
         player="Ann", specialists=["Hacker", "Hacker", "More Tech"], attributes=ATTRS)
    says(t, "deal", "wrong_deck", "GG-1", "Hacker is a specialist card, not an attribute.",
         player="Ann", specialists=["Hacker"] * 3, attributes=["More Tech", "Steroids", "Hacker"])
    says(t, "deal", "unknown_card", "GG-19", "There is no card called 'Nobody'.",
         player="Ann", specialists=["Hacker"] * 3, attributes=["More Tech", "Steroids", "Nobody"])
    says(t, "deal", "not_enough_copies", "GG-1",
         f"Only {RARE.copies} {RARE.name} card(s) are left in the deck.",
         player="Ann", specialists=[RARE.name] * 3, attributes=ATTRS)
    rare_attr = min(CAT.attributes.values(), key=lambda card: card.copies)
    says(t, "deal", "not_enough_copies", "GG-1",
         f"Only {rare_attr.copies} {rare_attr.name} card(s) are left in the deck.",
         player="Ann", specialists=["Hacker"] * 3, attributes=[rare_attr.name] * 3)
    t.ok("deal", player="Ann", specialists=["Hacker"] * 3, attributes=ATTRS)
    says(t, "deal", "already_dealt", "GG-1", "Ann already has a starting hand (undo to change it).",
         player="Ann", specialists=["Hacker"] * 3, attributes=ATTRS)
    t.ok("deal", player="Ben", specialists=["Lookout"] * 3, attributes=ATTRS)
    t.ok("turn_order", rolls={"Ann": 6, "Ben": 1})
    says(t, "deal", "setup_over", "GG-1", "Starting hands are dealt only before play starts.",
         player="Ben", specialists=["Lookout"] * 3, attributes=ATTRS)


def test_a_game_that_is_over_deals_nothing_and_rolls_nothing() -> None:
    t = start(["Ann"], rules={"win_money": 1})
    piece = next(iter(CAT.museums.values()))[0]
    museum = next(iter(CAT.museums))
    t.ok("move", player="Ann", tile="art", museum=museum, roll=2)
    t.ok("steal", player="Ann", art=piece.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ann", tile="exit", roll=1)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    t.ok("sell", player="Ann")
    assert t.state["over"]
    g = Game()
    g.state = t.session.state
    for cmd in (setup.deal, setup.turn_order, setup.tiebreak):
        with pytest.raises(GameOver) as err:
            cmd(g.state, None)  # type: ignore[arg-type]
        assert err.value.rule == "GG-14"
        assert err.value.args[0] == "The game is over (Ann won); nothing can change it now."


# ---- turn order (GG-3) ----------------------------------------------------------------------

def test_turn_order_each_refusal() -> None:
    t = Table(Session(seed=SEED))
    says(t, "turn_order", "no_game", None, "No game is running: start one with new_game.",
         rolls={"Ann": 6})
    t = seated("Ann", "Ben", "Cy")
    says(t, "turn_order", "hands_not_dealt", "GG-1",
         "Deal the starting hands first (missing: Ann, Ben, Cy).")
    t.ok("deal", player="Ben", **hand_for(t.session))
    says(t, "turn_order", "hands_not_dealt", "GG-1",
         "Deal the starting hands first (missing: Ann, Cy).")
    for n in ("Ann", "Cy"):
        t.ok("deal", player=n, **hand_for(t.session))
    says(t, "turn_order", "not_rolling", "GG-3", "Only Ann, Ben, Cy roll now, not Dan, Eve.",
         rolls={"Eve": 3, "Ann": 6, "Dan": 2})
    says(t, "turn_order", "roll_out_of_range", "GG-3", "7 is not a possible d6 roll (1-6).",
         rolls={"Ann": 6, "Ben": 7, "Cy": 1})
    says(t, "turn_order", "roll_out_of_range", "GG-3", "0 is not a possible d6 roll (1-6).",
         rolls={"Ann": 6, "Ben": 1, "Cy": 0})
    t.ok("turn_order", rolls={"Ann": 2, "Ben": 6, "Cy": 1})
    says(t, "turn_order", "turn_order_done", "GG-3", "The turn order is already settled.",
         rolls={"Ann": 6})


def test_the_turn_order_roll_in_full() -> None:
    t = dealt("Ann", "Ben", "Cy")
    events = t.ok("turn_order", rolls={"Ann": 2, "Ben": 6, "Cy": 5})["events"]
    rolls = [{"type": "roll", "player": n, "id": n, "purpose": "turn_order", "die": "d6",
              "value": v, "source": "physical", "via": "typed", "index": None, "sides": None,
              "kept": False} for n, v in (("Ann", 2), ("Ben", 6), ("Cy", 5))]
    assert events == [
        *rolls,
        {"type": "turn_order_rolled", "rolls": {"Ann": 2, "Ben": 6, "Cy": 5},
         "highest": ["Ben"]},
        {"type": "first_player", "player": "Ben"},
        {"type": "turn", "player": "Ben", "number": 1}]


def test_the_first_turn_asks_a_short_hand_to_re_up() -> None:
    t = dealt("Ann", "Ben", rules={"reup_at_or_below": 6})
    events = t.ok("turn_order", rolls={"Ann": 1, "Ben": 3})["events"]
    assert events[-3:] == [
        {"type": "first_player", "player": "Ben"},
        {"type": "turn", "player": "Ben", "number": 1},
        {"type": "pending", "player": "Ben", "decision": "reup", "options": ["reup"],
         "hand": 6}]


def test_the_box_rolls_only_the_dice_not_given() -> None:
    g = Game()
    g.start({"cmd": "new_game", "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]})
    for n, specialist, attribute in (("Ann", "Lookout", "Lock Picks"),
                                     ("Ben", "Getaway Driver", "Smoke Bomb"),
                                     ("Cy", "Con Artist", "Grappling Hook")):
        g.ok("deal", player=n, specialists=[specialist] * 3, attributes=[attribute] * 3)
    need = g.need("turn_order", rolls={"Ben": 4})
    assert need == NeedDice(tuple(
        DieRequest(n, "d6", "turn_order", 6, player=n, deck=None) for n in ("Ann", "Cy")))
    need = g.need("turn_order")
    assert [r.id for r in need.requests] == ["Ann", "Ben", "Cy"]


def test_a_tie_under_rock_paper_scissors_in_full() -> None:
    t = dealt("Ann", "Ben", "Cy")
    events = t.ok("turn_order", rolls={"Ann": 6, "Ben": 3, "Cy": 6})["events"]
    assert events[3:] == [
        {"type": "turn_order_rolled", "rolls": {"Ann": 6, "Ben": 3, "Cy": 6},
         "highest": ["Ann", "Cy"]},
        {"type": "pending", "player": None, "decision": "tiebreak", "options": ["Ann", "Cy"],
         "mode": "rps", "how": "rock-paper-scissors"}]
    says(t, "turn_order", "decision_pending", "GG-3",
         "Ann, Cy tied: record the rock-paper-scissors winner with tiebreak.",
         rolls={"Ann": 2, "Cy": 1})
    says(t, "tiebreak", "not_tied", "GG-3", "Ben is not among the tied players (Ann, Cy).",
         winner="Ben")
    assert t.ok("tiebreak", winner="Cy")["events"] == [
        {"type": "resolved", "player": None, "decision": "tiebreak", "winner": "Cy"},
        {"type": "first_player", "player": "Cy"},
        {"type": "turn", "player": "Cy", "number": 1}]
    says(t, "tiebreak", "no_tiebreak", "GG-3", "There is no tie to settle.", winner="Cy")


def test_a_tie_under_the_reroll_house_rule_in_full() -> None:
    t = dealt("Ann", "Ben", "Cy", rules={"tiebreak": "reroll"})
    says(t, "tiebreak", "no_tiebreak", "GG-3", "There is no tie to settle.", winner="Ann")
    events = t.ok("turn_order", rolls={"Ann": 5, "Ben": 5, "Cy": 5})["events"]
    assert events[3:] == [
        {"type": "turn_order_rolled", "rolls": {"Ann": 5, "Ben": 5, "Cy": 5},
         "highest": ["Ann", "Ben", "Cy"]},
        {"type": "pending", "player": None, "decision": "tiebreak",
         "options": ["Ann", "Ben", "Cy"], "mode": "reroll", "how": "a re-roll"}]
    says(t, "tiebreak", "reroll_required", "GG-3",
         "House rule: ties are re-rolled. Roll the turn-order d6 again for Ann, Ben, Cy.",
         winner="Ann")
    # a tie again among two of them: the first tie is resolved, a new one opened
    events = t.ok("turn_order", rolls={"Ann": 4, "Ben": 2, "Cy": 4})["events"]
    assert [e["player"] for e in events if e["type"] == "roll"] == ["Ann", "Ben", "Cy"]
    assert events[3:] == [
        {"type": "turn_order_rolled", "rolls": {"Ann": 4, "Ben": 2, "Cy": 4},
         "highest": ["Ann", "Cy"]},
        {"type": "resolved", "player": None, "decision": "tiebreak", "by": "reroll"},
        {"type": "pending", "player": None, "decision": "tiebreak", "options": ["Ann", "Cy"],
         "mode": "reroll", "how": "a re-roll"}]
    says(t, "turn_order", "not_rolling", "GG-3", "Only Ann, Cy roll now, not Ben.",
         rolls={"Ann": 1, "Ben": 6, "Cy": 2})
    events = t.ok("turn_order", rolls={"Cy": 3, "Ann": 1})["events"]
    assert [e["player"] for e in events if e["type"] == "roll"] == ["Ann", "Cy"]
    assert events[2:] == [
        {"type": "turn_order_rolled", "rolls": {"Ann": 1, "Cy": 3}, "highest": ["Cy"]},
        {"type": "resolved", "player": None, "decision": "tiebreak", "by": "reroll"},
        {"type": "first_player", "player": "Cy"},
        {"type": "turn", "player": "Cy", "number": 1}]
    assert t.state["pending"] == [] and t.state["current"] == "Cy"
