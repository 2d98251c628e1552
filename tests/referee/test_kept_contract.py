"""referee/kept.py's functions on their own: which kept die a roll must reuse, what undoing a
step leaves on the table, what a reshuffle drops, what a stored step reused, which draw a
kept card binds, and the words of the refusals (`die_kept`, `card_kept`, `draw_bound`). Pinned
from mutation testing of referee/kept.py (issue 28; docs/mutation.md); the session-level rules
are in test_kept_dice.py and test_kept_cards_bound.py."""

from __future__ import annotations

from typing import cast

import pytest

from referee.dice import Roll
from referee.errors import KeptDieWaiting
from referee.kept import (
    KeptDie,
    binding,
    corrections,
    drawable,
    dropped_by,
    dropped_events,
    left_by,
    orphaned_by_undo,
    piles_after,
    refuse_bound_draw,
    refuse_physical_while_kept,
    reused_by,
    stays,
    typed_left_by,
    waiting,
    without,
)
from referee.ruleset import Rolled, Ruleset


class Rules:
    """The four answers kept.py asks a ruleset for."""

    def __init__(self, holds: bool = True) -> None:
        self._holds = holds

    def purpose_words(self, purpose: str) -> str:
        return {"free": "free roll"}.get(purpose, purpose)

    def holds(self, state: object, deck: str, card: str, from_discards: bool) -> bool:
        return self._holds

    def bound_rule(self) -> str | None:
        return "GG-17"

    def kept_rule(self, purpose: str) -> str | None:
        return "GG-7"


def rules(holds: bool = True) -> Ruleset:
    return cast(Ruleset, Rules(holds))


def electronic(value: int, index: int, die: str = "d6", kept: bool = False) -> Roll:
    return Roll(die=die, value=value, source="electronic", index=index, sides=6, kept=kept)


D6 = KeptDie("Ann", "d6", "move", electronic(4, 7), id="Ann")
CARD = KeptDie("Ann", "pick:attribute", "draw", electronic(2, 8), card="Steroids", pile=5,
               from_discards=True, id="Ann")


def test_a_kept_die_fits_only_its_own_id_player_die_and_purpose() -> None:
    assert D6.fits("Ann", "Ann", "d6", "move")
    for other in (("Ben", "Ann", "d6", "move"), ("Ann", "Ben", "d6", "move"),
                  ("Ann", "Ann", "d10", "move"), ("Ann", "Ann", "d6", "free")):
        assert not D6.fits(*other)
    assert D6.deck is None and CARD.deck == "attribute"
    assert CARD.to_json() == {"player": "Ann", "key": "pick:attribute", "purpose": "draw",
                              "roll": CARD.roll.to_json(), "card": "Steroids", "pile": 5,
                              "from_discards": True, "id": "Ann"}


def test_a_kept_card_waits_only_while_its_pile_is_drawn_from_and_holds_it() -> None:
    assert drawable(D6, None, {}, rules(holds=False))  # a die always
    assert drawable(CARD, None, {"attribute": 5}, rules())
    assert not drawable(CARD, None, {"attribute": 6}, rules())  # reshuffled since
    assert not drawable(CARD, None, {}, rules())  # the dealt pile (0), not step 5's
    assert not drawable(CARD, None, {"attribute": 5}, rules(holds=False))
    assert waiting([CARD, D6], "Ann", "Ann", "d6", "move", None, {}, rules()) is D6
    assert waiting([CARD], "Ann", "Ann", "pick:attribute", "draw", None, {"attribute": 6},
                   rules()) is None


def test_piles_after_a_step_name_it_for_the_decks_it_renewed() -> None:
    assert piles_after({"attribute": 2, "specialist": 3}, 9, ["attribute"]) == {
        "attribute": 9, "specialist": 3}


def test_what_a_reshuffle_and_an_undo_drop() -> None:
    assert dropped_by([D6, CARD], {"attribute"}) == [CARD]
    assert dropped_by([D6, CARD], {"specialist"}) == []
    assert orphaned_by_undo([D6, CARD], 5) == [CARD]
    assert orphaned_by_undo([D6, CARD], 4) == []
    dealt = KeptDie("Ann", "pick:specialist", "draw", electronic(1, 2), card="Hacker", pile=0)
    assert orphaned_by_undo([dealt], 0) == []  # the deck as dealt was never a step's
    first = KeptDie("Ann", "pick:specialist", "draw", electronic(1, 2), card="Hacker", pile=1)
    assert orphaned_by_undo([first], 1) == [first]  # any step's pile, the first one's too
    other = KeptDie("Ben", "pick:specialist", "draw", electronic(3, 9), card="Lookout", pile=1)
    assert dropped_events([CARD, dealt, other], "GG-17") == [
        {"type": "kept_dropped", "deck": "attribute", "rule": "GG-17",
         "kept": [CARD.to_json()]},
        {"type": "kept_dropped", "deck": "specialist", "rule": "GG-17",
         "kept": [dealt.to_json(), other.to_json()]}]


def test_undoing_a_step_leaves_its_electronic_dice_then_the_cards_it_dropped() -> None:
    rolled = [Rolled("Ann", "Ann", "d6", "move", electronic(4, 7, kept=True)),
              Rolled("Ann", "Ann", "d6", "free", Roll.physical("d6", 2)),
              Rolled("Ann", "Ann", "pick:attribute", "draw", None, card="Steroids"),
              Rolled("Ann", "Ann", "pick:attribute", "draw", electronic(2, 8), card="Lock Picks",
                     from_discards=True)]
    assert left_by(rolled, {"attribute": 3}, [CARD]) == [
        KeptDie("Ann", "d6", "move", electronic(4, 7), id="Ann"),  # no longer marked kept
        KeptDie("Ann", "pick:attribute", "draw", electronic(2, 8), card="Lock Picks", pile=3,
                from_discards=True, id="Ann"),
        CARD]


def test_a_stored_step_reuses_the_kept_die_of_its_player_id_and_index() -> None:
    ben = KeptDie("Ben", "d6", "move", electronic(4, 7), id="Ben")
    ann_later = KeptDie("Ann", "d6", "move", electronic(5, 9), id="Ann")
    kept = [ben, ann_later, D6]
    step = [Rolled("Ann", "Ann", "d6", "move", electronic(4, 7, kept=True)),
            Rolled("Ann", "Ann", "d6", "move", electronic(1, 10))]  # a fresh roll
    assert reused_by(kept, step) == [D6]
    assert reused_by(kept, [Rolled("Ben", "Ben", "d6", "move", electronic(4, 7, kept=True))]) \
        == [ben]
    event = {"type": "roll", "player": "Cy", "index": 7}
    with pytest.raises(ValueError) as err:
        reused_by(kept, [Rolled("Cy", "Cy", "d6", "move", electronic(4, 7, kept=True),
                                event=event)])
    assert str(err.value) == f"the log reuses a kept roll that is not on the table: {event}"
    with pytest.raises(ValueError) as err:  # one kept die is reused once
        reused_by([D6], [Rolled("Ann", "Ann", "d6", "move", electronic(4, 7, kept=True))] * 2)
    assert str(err.value) == "the log reuses a kept roll that is not on the table: {}"


def refusal(kept: list[KeptDie], rolled: Rolled) -> KeptDieWaiting:
    with pytest.raises(KeptDieWaiting) as err:
        refuse_physical_while_kept(kept, [rolled], None, {"attribute": 5}, rules())
    return err.value


def test_a_typed_or_tray_value_is_refused_while_the_kept_die_waits_and_says_why() -> None:
    err = refusal([D6], Rolled("Ann", "Ann", "d6", "move", Roll.physical("d6", 2)))
    assert err.code == "die_kept"
    assert str(err) == ("Ann's d6 for the move is still on the table from an undone step: it "
                        "shows 4. Send the command without it: the box uses 4 again; a typed "
                        "value cannot take its place.")
    table = KeptDie(None, "d100", "free", electronic(42, 3, "d100"), id="table")
    err = refusal([table], Rolled("table", None, "d100", "free",
                                  Roll.physical("d100", 42, "tray")))
    assert str(err) == ("The table's d100 for the free roll is still on the table from an "
                        "undone step: it shows 42. Send the command without it: the box uses 42 "
                        "again; a tray value cannot take its place.")
    untold = Roll(die="d6", value=2, source="physical")  # no `via`: said as typed
    err = refusal([D6], Rolled("Ann", "Ann", "d6", "move", untold))
    assert "a typed value cannot take its place" in str(err)


def test_a_card_named_by_hand_is_refused_while_the_box_draw_waits_and_says_why() -> None:
    err = refusal([CARD], Rolled("Ann", "Ann", "pick:attribute", "draw", None, card="Lock Picks"))
    assert err.code == "card_kept"
    assert str(err) == ("Ann's box draw from the attribute deck was undone and its card, "
                        "Steroids, is still on the table. Let the box draw (it gives Steroids "
                        "again); a card named by hand cannot take its place.")


LOOKOUT = KeptDie("Ann", "pick:specialist", "draw", electronic(3, 9), card="Lookout", id="Ann")


def test_a_kept_card_binds_only_its_players_draws_for_its_purpose_from_another_pile() -> None:
    piles = {"attribute": 5}
    assert binding([D6, LOOKOUT], "Ann", "draw", "attribute", None, piles, rules()) is LOOKOUT
    for other in (("Ann", "draw", "specialist"),  # its own pile: the draw that gives it
                  ("Ben", "draw", "attribute"),  # another player's draw
                  ("Ann", "reup", "attribute")):  # another purpose
        assert binding([LOOKOUT], *other, None, piles, rules()) is None
    assert binding([LOOKOUT], "Ann", "draw", "attribute", None, piles,
                   rules(holds=False)) is None  # no longer where it was seen
    assert binding([D6], "Ann", "draw", "attribute", None, piles, rules()) is None
    # kept cards in both decks: a draw from either gives one of them, so neither binds it
    assert binding([LOOKOUT, CARD], "Ann", "draw", "attribute", None, piles, rules()) is None
    assert binding([CARD, LOOKOUT], "Ann", "draw", "specialist", None, piles,
                   rules()) is None
    assert binding([CARD, LOOKOUT], "Ann", "draw", "specialist", None, {},
                   rules()) is None  # CARD's pile is gone: LOOKOUT's deck is drawn from
    assert binding([CARD, LOOKOUT], "Ann", "draw", "attribute", None, {},
                   rules()) is LOOKOUT


def test_a_bound_draw_is_refused_with_the_games_rule_and_says_why() -> None:
    refuse_bound_draw([LOOKOUT], "Ann", "draw", "specialist", None, {}, rules())
    with pytest.raises(KeptDieWaiting) as err:
        refuse_bound_draw([LOOKOUT], "Ann", "draw", "attribute", None, {}, rules())
    assert (err.value.code, err.value.rule) == ("draw_bound", "GG-17")
    assert str(err.value) == (
        "Ann's undone draw showed Lookout, the top of the specialist deck: Ann's next draw "
        "must be from that deck (it gives Lookout again). Undo corrects a mis-entry; it never "
        "lets a seen card be avoided.")
    nobody = KeptDie(None, "pick:bag", "visitor", electronic(1, 2), card="pink", id="bag")
    with pytest.raises(KeptDieWaiting) as err:
        refuse_bound_draw([nobody], None, "visitor", "box", None, {}, rules())
    assert str(err.value).startswith("The table's undone draw showed pink, the top of the "
                                     "bag deck: the table's next draw")
    # a card named by hand from the other deck is refused the same way
    err2 = refusal([LOOKOUT], Rolled("Ann", "Ann", "pick:attribute", "draw", None,
                                     card="Steroids"))
    assert (err2.code, err2.rule) == ("draw_bound", "GG-17")


def test_a_card_named_by_hand_for_the_tables_kept_draw_says_the_table() -> None:
    nobody = KeptDie(None, "pick:bag", "visitor", electronic(1, 2), card="pink", id="bag")
    err = refusal([nobody], Rolled("bag", None, "pick:bag", "visitor", None, card="white"))
    assert err.code == "card_kept"
    assert str(err).startswith("The table's box draw from the bag deck was undone and its "
                               "card, pink, is still on the table.")


@pytest.mark.parametrize("rolled", [
    Rolled("Ann", "Ann", "d6", "free", Roll.physical("d6", 2)),  # another purpose
    Rolled("Ann", "Ann", "d6", "move", electronic(4, 7)),  # the box's own roll
    Rolled("Ben", "Ben", "pick:attribute", "draw", None, card="Steroids")])  # another player
def test_nothing_is_refused_where_no_kept_die_waits(rolled: Rolled) -> None:
    refuse_physical_while_kept([D6, CARD], [rolled], None, {"attribute": 5}, rules())



def tray(value: int, die: str = "d6", kept: bool = False) -> Roll:
    return Roll(die=die, value=value, source="physical", via="tray", kept=kept)


def test_a_stored_step_reuses_by_id_and_player_both_and_an_electronic_die_by_index() -> None:
    ally = KeptDie("Ann", "d6", "battle", electronic(4, 7), id="ally1")  # Ann rolls ally1
    with pytest.raises(ValueError):  # Ann's own die is not the ally's
        reused_by([ally], [Rolled("Ann", "Ann", "d6", "battle", electronic(4, 7, kept=True))])
    first = KeptDie("Ann", "d6", "move", electronic(4, 3), id="Ann")
    later = KeptDie("Ann", "d6", "move", electronic(4, 5), id="Ann")  # the same value
    assert reused_by([first, later], [
        Rolled("Ann", "Ann", "d6", "move", electronic(4, 5, kept=True))]) == [later]


def test_a_stored_step_reuses_a_tray_die_of_the_same_value_die_and_purpose_only() -> None:
    on_table = KeptDie("Ann", "d6", "move", tray(4), id="Ann")
    for other in (Rolled("Ann", "Ann", "d6", "move", tray(5, kept=True)),  # another value
                  Rolled("Ann", "Ann", "d10", "move", tray(4, "d10", kept=True)),
                  Rolled("Ann", "Ann", "d6", "free", tray(4, kept=True))):  # another purpose
        with pytest.raises(ValueError):
            reused_by([on_table], [other])
    twin = KeptDie("Ann", "d6", "move", tray(4), id="Ann")  # equal, but another die
    assert twin == on_table and twin is not on_table
    step = [Rolled("Ann", "Ann", "d6", "move", tray(4, kept=True))] * 2
    used = reused_by([on_table, twin], step)
    assert len(used) == 2 and used[0] is on_table and used[1] is twin


def test_two_equal_dice_are_taken_off_the_table_one_at_a_time() -> None:
    on_table = KeptDie("Ann", "d6", "move", tray(4), id="Ann")
    twin = KeptDie("Ann", "d6", "move", tray(4), id="Ann")
    left = without([on_table, twin, D6], [on_table])
    assert len(left) == 2 and left[0] is twin and left[1] is D6
    assert without([on_table, twin], []) == [on_table, twin]


def test_what_stays_on_the_table_after_an_undo() -> None:
    assert stays(electronic(4, 7)) and stays(tray(4))
    assert not stays(Roll.physical("d6", 4)) and not stays(None)  # typed; a card by hand


def test_a_die_kept_from_the_tray_is_said_to_be_from_the_tray() -> None:
    from_tray = KeptDie("Ann", "d6", "move", tray(4), id="Ann")
    err = refusal([from_tray], Rolled("Ann", "Ann", "d6", "move", Roll.physical("d6", 2)))
    assert "it shows 4 (read by the tray). Send" in str(err)
    err = refusal([D6], Rolled("Ann", "Ann", "d6", "move", Roll.physical("d6", 2)))
    assert "it shows 4. Send" in str(err)


def test_undoing_a_typed_die_remembers_it_as_typed_for_its_correction() -> None:
    untold = Roll(die="d10", value=2, source="physical")  # no `via`: typed
    left = typed_left_by([Rolled("Ann", "Ann", "d10", "free", untold),
                          Rolled("Ann", "Ann", "d6", "move", Roll.physical("d6", 3)),
                          Rolled("Ann", "Ann", "d6", "move", tray(4)),  # kept, not typed
                          Rolled("Ann", "Ann", "d6", "move", electronic(5, 2))])
    assert [(k.key, k.purpose, k.roll) for k in left] == [
        ("d10", "free", Roll.physical("d10", 2, via="typed")),
        ("d6", "move", Roll.physical("d6", 3, via="typed"))]


def test_a_typed_die_rolled_again_with_another_value_is_corrected_once_in_full() -> None:
    was = KeptDie("Ann", "d6", "move", Roll.physical("d6", 3), id="Ann")
    events, answered = corrections([was], [
        Rolled("Ann", "Ann", "pick:attribute", "draw", None, card="Rope"),  # no die
        Rolled("Ann", "Ann", "d6", "move", tray(5)),
        Rolled("Ann", "Ann", "d6", "move", electronic(6, 4))])  # nothing typed left for it
    assert events == [{"type": "die_corrected", "id": "Ann", "player": "Ann", "die": "d6",
                       "purpose": "move", "was": 3, "now": 5, "source": "physical",
                       "via": "tray"}]
    assert len(answered) == 1 and answered[0] is was
    events, answered = corrections([was], [Rolled("Ann", "Ann", "d6", "move", tray(3))])
    assert events == [] and answered == [was]  # the same value: answered, no correction
