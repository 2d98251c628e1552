"""Gallery Grippers' cards (rules/cards.py): drawing (GG-17) and the re-up roll (GG-18). Every
refusal with its code, rule and words; a draw's events in full (by hand and by the box, from a
reshuffled pile); the draws a re-up forfeits once both decks are empty; the box's pick and
re-up die as the kept dice see them. Pinned from the survivors of mutation testing
rules/cards.py (issue 28; docs/mutation.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.dice import Roll, stream_draw
from referee.errors import RuleViolation
from referee.games.gallery_grippers.catalog import parse_catalog
from referee.games.gallery_grippers.commands import Draw
from referee.games.gallery_grippers.rules import decide
from referee.games.gallery_grippers.state import pile_list
from referee.session import Session
from tests.referee.conftest import SEED, Table, start

# Eight cards: a solo hand of six leaves one Hacker and one Torch to draw.
SMALL = """
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


def says(t: Table, cmd: str, code: str, rule: str, message: str, **fields: Any) -> None:
    answer = t.no(cmd, code, rule, **fields)
    assert answer["error"]["message"] == message


def solo(rules: dict[str, Any] | None = None) -> Table:
    """Solo on the small catalog: the piles hold one Hacker and one Torch, no discards."""
    t = Table(Session(parse_catalog(SMALL, "small.toml"), seed=SEED))
    t.ok("new_game", players=["Solo"], rules=rules or {})
    t.ok("deal", player="Solo", specialists=["Hacker"] * 3,
         attributes=["Rope", "Gloves", "Torch"])
    t.ok("turn_order", rolls={"Solo": 3})
    return t


def drawn(card: str, deck: str, source: str = "physical") -> dict[str, Any]:
    return {"type": "drawn", "player": "Solo", "deck": deck, "card": card, "source": source}


def test_a_draw_s_refusals_and_events_to_the_last_card() -> None:
    t = solo()
    says(t, "draw", "no_draw_due", "GG-17",
         "Solo has no card to draw now (recruitment or a re-up gives draws).",
         player="Solo", deck="attribute", card="Torch")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    says(t, "draw", "card_not_in_deck", "GG-17", "No Rope card is left in the attribute deck.",
         player="Solo", deck="attribute", card="Rope")
    says(t, "draw", "wrong_deck", "GG-17", "Hacker is a specialist card, not an attribute.",
         player="Solo", deck="attribute", card="Hacker")
    says(t, "draw", "unknown_card", "GG-19", "There is no card called 'Jetpack'.",
         player="Solo", deck="attribute", card="Jetpack")
    # One card owed: its draw is the whole answer, however few cards are left after it.
    assert t.ok("draw", player="Solo", deck="attribute", card="Torch")["events"] == [
        drawn("Torch", "attribute")]
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    says(t, "draw", "deck_empty", "GG-17",
         "The attribute deck and its discards are empty; draw from the other deck.",
         player="Solo", deck="attribute")
    says(t, "draw", "deck_empty", "GG-17",
         "The attribute deck and its discards are empty; draw from the other deck.",
         player="Solo", deck="attribute", card="Torch")
    assert t.ok("draw", player="Solo", deck="specialist", card="Hacker")["events"] == [
        drawn("Hacker", "specialist")]  # the very last card: nothing is forfeited
    assert t.state["decks"] == {"specialist": {"draw": 0, "discard": 0},
                                "attribute": {"draw": 0, "discard": 0}}
    assert t.state["pending"] == []


def test_a_re_up_forfeits_the_draws_left_once_both_decks_are_empty() -> None:
    t = solo(rules={"reup_at_or_below": 6})
    assert t.state["pending"] == [
        {"player": "Solo", "decision": "reup", "options": ["reup"], "hand": 6}]
    says(t, "reup", "roll_out_of_range", "GG-18", "7 is not a possible re-up (d6) roll (1-6).",
         player="Solo", roll=7)
    says(t, "reup", "roll_out_of_range", "GG-18", "0 is not a possible re-up (d6) roll (1-6).",
         player="Solo", roll=0)
    assert t.ok("reup", player="Solo", roll=3)["events"] == [
        {"type": "roll", "player": "Solo", "id": "Solo", "purpose": "reup", "die": "d6",
         "value": 3, "source": "physical", "via": "typed", "index": None, "sides": None,
         "kept": False},
        {"type": "resolved", "player": "Solo", "decision": "reup"},
        {"type": "pending", "player": "Solo", "decision": "draw",
         "options": ["specialist", "attribute"], "count": 3, "reason": "reup"}]
    says(t, "reup", "no_reup_due", "GG-18",
         "Solo re-ups only at the start of a turn with 6 or fewer cards.", player="Solo", roll=2)
    # Two cards left for three draws: the first leaves one, so nothing is forfeited yet.
    assert t.ok("draw", player="Solo", deck="specialist", card="Hacker")["events"] == [
        drawn("Hacker", "specialist")]
    assert t.state["pending"][0]["count"] == 2
    # The last card: the third draw cannot be made.
    assert t.ok("draw", player="Solo", deck="attribute", card="Torch")["events"] == [
        drawn("Torch", "attribute"),
        {"type": "draws_forfeited", "player": "Solo", "count": 1, "rule": "GG-17"}]
    assert t.state["pending"] == []
    t.ok("move", player="Solo", tile="plain", roll=1)


def test_the_box_draws_from_the_sorted_pile_by_its_pick() -> None:
    """GG-17: a box draw rolls a pick among the pile's cards (one side a copy) and gives the
    card at that place in the sorted pile."""
    t = start(rules={"reup_at_or_below": 6})
    t.ok("reup", player="Ann", roll=4)
    for deck in ("specialist", "attribute", "specialist", "attribute"):
        pile = pile_list(t.session.state.piles[deck])
        answer = t.ok("draw", player="Ann", deck=deck)
        [roll, event] = answer["events"]
        assert roll == {"type": "roll", "player": "Ann", "id": "Ann", "purpose": "draw",
                        "die": "pick", "value": roll["value"], "source": "electronic",
                        "via": None, "index": roll["index"], "sides": len(pile),
                        "kept": False}
        assert roll["value"] == stream_draw(SEED, roll["index"], len(pile))
        assert event == {"type": "drawn", "player": "Ann", "deck": deck,
                         "card": pile[roll["value"]], "source": "box"}


def test_a_box_draw_from_the_reshuffled_discards() -> None:
    t = solo()
    t.ok("move", player="Solo", tile="alarm", museum="Small Museum", roll=3)
    t.ok("bypass", player="Solo", attribute="Rope", roll=100)  # Rope to the discards
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="exit", roll=1)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    t.ok("draw", player="Solo", deck="attribute", card="Torch")
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="recruitment", roll=1)
    [reshuffled, roll, event] = t.ok("draw", player="Solo", deck="attribute")["events"]
    assert reshuffled == {"type": "deck_reshuffled", "deck": "attribute", "cards": 1,
                          "rule": "GG-17"}
    assert (roll["die"], roll["purpose"], roll["sides"], roll["value"]) == ("pick", "draw", 1, 0)
    assert event == drawn("Rope", "attribute", "box")
    assert t.state["decks"]["attribute"] == {"draw": 0, "discard": 0}


@pytest.mark.parametrize(("cmd", "fields", "purpose"), [
    ("reup", {"player": "Ann"}, "reup"),
    ("draw", {"player": "Ann", "deck": "attribute"}, "draw")])
def test_an_undone_box_reup_or_draw_waits_for_the_same_roll(cmd: str, fields: dict[str, Any],
                                                           purpose: str) -> None:
    """Kept dice: the box's re-up die and its pick for a draw, once undone, are reused by the
    next re-up (or draw from the same deck) of the same player, shown as kept."""
    t = start(rules={"reup_at_or_below": 6})
    if cmd == "draw":
        t.ok("reup", player="Ann", roll=2)
    [first] = t.events(t.ok(cmd, **fields), "roll")
    assert (first["purpose"], first["sides"]) == (
        purpose, 6 if cmd == "reup" else first["sides"])
    t.ok("undo")
    [again] = t.events(t.ok(cmd, **fields), "roll")
    assert (again["index"], again["value"], again["kept"], again["purpose"]) == (
        first["index"], first["value"], True, purpose)


def test_a_box_draw_that_names_no_card_is_refused_by_the_rules() -> None:
    """The session fills in the card a box draw picked; a command carrying a pick and no card
    is refused (`bad_pick`), never drawn blind."""
    t = start(rules={"reup_at_or_below": 6})
    t.ok("reup", player="Ann", roll=2)
    pick = Roll(die="pick", value=0, source="electronic", index=9, sides=20)
    with pytest.raises(RuleViolation) as refused:
        decide(t.session.state, Draw(player="Ann", deck="attribute", pick=pick))
    assert (refused.value.code, refused.value.rule, str(refused.value)) == (
        "bad_pick", "GG-17", "A box draw must name the card it drew (session).")
