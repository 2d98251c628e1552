"""Gallery Grippers' shared checks (rules/common.py): every refusal with its code, rule and
words (no game, setup, the game over, an unknown player, a player out, whose turn it is, each
waiting decision), a physical roll off the die under both percentile readings, the draws owed
when the decks are empty, a turn's start and the re-up threshold, the turn passing over a
player who is out. Pinned from the survivors of mutation testing rules/common.py (issue 28;
docs/mutation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.gallery_grippers.catalog import default_catalog, parse_catalog
from referee.games.gallery_grippers.rules.common import describe, die_id, next_active
from referee.games.gallery_grippers.rules.queries import Decision
from referee.games.gallery_grippers.state import Pending
from referee.session import Session
from tests.referee.conftest import SEED, Table, start
from tests.referee.test_gg_cards_rulings import SMALL

CAT = default_catalog()
M1 = next(iter(CAT.museums))
ART = CAT.museums[M1][0]


def says(t: Table, cmd: str, code: str, rule: str | None, message: str, **fields: Any) -> None:
    answer = t.no(cmd, code, rule, **fields)
    assert answer["error"]["rule"] == rule
    assert answer["error"]["message"] == message


def test_before_the_game_and_during_setup() -> None:
    t = Table(Session(seed=SEED))
    says(t, "move", "no_game", None, "No game is running: start one with new_game.",
         player="Ann", tile="plain", roll=1)
    t.ok("new_game", players=["Ann", "Ben"])
    says(t, "move", "setup_not_finished", "GG-3",
         "Setup is not finished: deal every hand, then roll for turn order.",
         player="Ann", tile="plain", roll=1)


def test_who_may_act() -> None:
    t = start()
    says(t, "move", "unknown_player", None, "There is no player called 'Zed' (Ann, Ben).",
         player="Zed", tile="plain", roll=1)
    says(t, "move", "not_your_turn", "GG-3", "It is Ann's turn, not Ben's.",
         player="Ben", tile="plain", roll=1)
    says(t, "end_turn", "not_your_turn", "GG-3", "It is Ann's turn, not Ben's.", player="Ben")


def fail(t: Table, who: str) -> None:
    museum = M1 if t.player(who)["where"] == "outside" else None
    t.ok("move", player=who, tile="security", museum=museum, roll=3)
    t.ok("bypass", player=who, roll=1)


def test_a_player_out_takes_no_turn_and_the_turn_skips_them() -> None:
    """GG-15, GG-3: Ben is out; the turn goes from Ann to Cy and back, never to Ben."""
    t = start(["Ann", "Ben", "Cy"])
    t.ok("move", player="Ann", tile="plain", roll=1)
    t.ok("end_turn", player="Ann")
    for i in range(3):
        fail(t, "Ben")
        if i == 1:
            t.ok("choose", player="Ben", choice="reenter")
        if i < 2:
            t.ok("end_turn", player="Ben")
            for who in ("Cy", "Ann"):
                t.ok("move", player=who, tile="plain", roll=1)
                t.ok("end_turn", player=who)
    assert t.player("Ben")["status"] == "out" and t.state["current"] == "Cy"
    says(t, "move", "player_out", "GG-15", "Ben is out of the game and takes no turns.",
         player="Ben", tile="plain", roll=1)
    t.ok("move", player="Cy", tile="plain", roll=1)
    assert t.ok("end_turn", player="Cy")["events"] == [
        {"type": "turn", "player": "Ann", "number": 10}]
    t.ok("move", player="Ann", tile="plain", roll=1)
    assert t.ok("end_turn", player="Ann")["events"] == [
        {"type": "turn", "player": "Cy", "number": 11}]
    s = t.session.state
    after = [next_active(s, seat) for seat in range(3)]
    assert [p.name if p else None for p in after] == ["Cy", "Cy", "Ann"]


def test_the_game_over_refuses_every_step() -> None:
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=["Solo"])
    t.ok("deal", player="Solo", specialists=["Hacker"] * 3, attributes=["More Tech"] * 3)
    t.ok("turn_order", rolls={"Solo": 3})
    for i in range(3):
        fail(t, "Solo")
        if i == 1:
            t.ok("choose", player="Solo", choice="reenter")
        if i < 2:
            t.ok("end_turn", player="Solo")
    assert t.state["over"] and t.state["winner"] is None
    answer = t.session.handle({"cmd": "move", "player": "Solo", "tile": "plain", "roll": 1})
    assert not answer["ok"]
    assert (answer["error"]["rule"], answer["error"]["message"]) == (
        "GG-14", "The game is over (nobody won); nothing can change it now.")


def test_a_game_won_names_the_winner_when_refusing() -> None:
    t = start()
    for i in range(3):
        fail(t, "Ann")
        if i == 1:
            t.ok("choose", player="Ann", choice="reenter")
        if i < 2:
            t.ok("end_turn", player="Ann")
            t.ok("move", player="Ben", tile="plain", roll=1)
            t.ok("end_turn", player="Ben")
    answer = t.session.handle({"cmd": "end_turn", "player": "Ben"})
    assert (answer["ok"], answer["error"]["rule"], answer["error"]["message"]) == (
        False, "GG-14", "The game is over (Ben won); nothing can change it now.")


def test_each_waiting_decision_named_with_its_rule() -> None:
    t = start(rules={"reup_at_or_below": 6})
    says(t, "end_turn", "decision_pending", "GG-18", "Ann must roll to re-up their hand first.",
         player="Ann")
    t.ok("reup", player="Ann", roll=2)
    says(t, "end_turn", "decision_pending", "GG-17", "Ann must draw 2 card(s) first.",
         player="Ann")
    t = start()
    t.ok("move_roll", player="Ann", roll=3)
    says(t, "end_turn", "decision_pending", "GG-4",
         "Ann must say where the pawn landed (rolled 3) first.", player="Ann")
    t.ok("move", player="Ann", tile="art", museum=M1)
    t.ok("steal", player="Ann", art=ART.name)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="security", roll=3)
    says(t, "end_turn", "decision_pending", "GG-6", "Ann must meet the obstacle (bypass) first.",
         player="Ann")
    t.ok("bypass", player="Ann", roll=1)
    says(t, "end_turn", "decision_pending", "GG-10",
         "Ann must choose to ditch or keep the art first.", player="Ann")
    t.ok("choose", player="Ann", choice="ditch")
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=1)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="alarm", roll=3)
    t.ok("bypass", player="Ann", roll=1)
    says(t, "end_turn", "decision_pending", "GG-10",
         "Ann must choose to leave the premises or re-enter first.", player="Ann")


def test_the_table_s_decision_in_words() -> None:
    """The tie for first player is the table's to settle: no player is named."""
    assert describe(Pending(None, Decision.TIEBREAK, ("Ann", "Ben"), {})) == (
        "The table must settle the tie for first player")
    assert describe(Pending("Ann", Decision.DRAW, ("specialist", "attribute"), {})) == (
        "Ann must draw 1 card(s)")
    assert (die_id(None), die_id("Ann"), die_id("table")) == ("table", "Ann", "table")
    # A decision with no words of its own (a log from another version) is named by its id.
    assert describe(Pending("Ann", "lookout", (), {})) == "Ann must lookout"


@pytest.mark.parametrize(("percentile", "low", "high"), [("1-100", 1, 100), ("0-99", 0, 99)])
def test_a_percentile_roll_off_the_dice_is_refused(percentile: str, low: int,
                                                   high: int) -> None:
    """GG-7: a typed percentile value must be a face the two d10 can read, never clamped."""
    t = start(rules={"percentile": percentile})
    t.ok("move", player="Ann", tile="security", museum=M1, roll=3)
    for bad in (low - 1, high + 1):
        says(t, "bypass", "roll_out_of_range", "GG-7",
             f"{bad} is not a possible percentile roll ({low}-{high}).", player="Ann", roll=bad)
    [bypass] = t.events(t.ok("bypass", player="Ann", roll=high), "bypass")
    assert bypass["roll"] == high


def small_solo(rules: dict[str, Any] | None = None) -> Table:
    t = Table(Session(parse_catalog(SMALL, "small.toml"), seed=SEED))
    t.ok("new_game", players=["Solo"], rules=rules or {})
    t.ok("deal", player="Solo", specialists=["Hacker"] * 3,
         attributes=["Rope", "Gloves", "Torch"])
    t.ok("turn_order", rolls={"Solo": 3})
    return t


def test_recruitment_with_both_decks_empty_owes_no_draw() -> None:
    """GG-17: nothing left to draw from: the recruitment says so, and no draw is owed."""
    t = small_solo()
    for deck, card in (("specialist", "Hacker"), ("attribute", "Torch")):
        t.ok("move", player="Solo", tile="recruitment", roll=1)
        t.ok("draw", player="Solo", deck=deck, card=card)
        t.ok("end_turn", player="Solo")
    events = t.ok("move", player="Solo", tile="recruitment", roll=1)["events"]
    assert events[1:] == [
        {"type": "moved", "player": "Solo", "roll": 1, "tile": "recruitment", "museum": None},
        {"type": "no_cards_to_draw", "player": "Solo", "rule": "GG-17"}]
    assert t.state["pending"] == []


def test_a_turn_starts_with_a_re_up_only_at_or_below_the_threshold_and_with_cards_left() -> None:
    """GG-18: a hand at the threshold re-ups, one card above it does not; with both decks
    empty nobody re-ups (there is nothing to draw)."""
    t = small_solo(rules={"reup_at_or_below": 6})
    assert t.state["pending"] == [
        {"player": "Solo", "decision": "reup", "options": ["reup"], "hand": 6}]
    t.ok("reup", player="Solo", roll=1)
    t.ok("draw", player="Solo", deck="specialist", card="Hacker")  # 7 cards now
    t.ok("move", player="Solo", tile="plain", roll=1)
    assert t.ok("end_turn", player="Solo")["events"] == [
        {"type": "turn", "player": "Solo", "number": 2}]
    t.ok("move", player="Solo", tile="security", museum="Small Museum", roll=1)
    t.ok("bypass", player="Solo", specialist="Hacker", roll=100)  # 6 cards, Hacker discarded
    assert t.ok("end_turn", player="Solo")["events"] == [
        {"type": "turn", "player": "Solo", "number": 3},
        {"type": "pending", "player": "Solo", "decision": "reup", "options": ["reup"],
         "hand": 6}]


@pytest.mark.parametrize(("hacker_copies", "left", "reup"), [(3, 0, False), (4, 1, True)])
def test_a_short_hand_re_ups_while_any_card_is_left(hacker_copies: int, left: int,
                                                    reup: bool) -> None:
    """GG-18: with nothing left to draw a short hand owes no re-up; one card left is enough
    to owe one (the player deals six of the catalog's six or seven cards)."""
    catalog = SMALL.replace("copies = 4", f"copies = {hacker_copies}").replace(
        "copies = 2", "copies = 1")
    t = Table(Session(parse_catalog(catalog, "six.toml"), seed=SEED))
    t.ok("new_game", players=["Solo"], rules={"reup_at_or_below": 6})
    t.ok("deal", player="Solo", specialists=["Hacker"] * 3,
         attributes=["Rope", "Gloves", "Torch"])
    answer = t.ok("turn_order", rolls={"Solo": 3})
    assert t.state["decks"] == {"specialist": {"draw": left, "discard": 0},
                                "attribute": {"draw": 0, "discard": 0}}
    owed = [{"type": "pending", "player": "Solo", "decision": "reup", "options": ["reup"],
             "hand": 6}] if reup else []
    assert answer["events"][-1 - len(owed):] == [
        {"type": "turn", "player": "Solo", "number": 1}, *owed]
    if reup:
        return
    t.ok("move", player="Solo", tile="plain", roll=1)
    assert t.ok("end_turn", player="Solo")["events"] == [
        {"type": "turn", "player": "Solo", "number": 2}]
