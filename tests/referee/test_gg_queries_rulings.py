"""Gallery Grippers' queries (rules/queries.py): the figures the console and the box show (a
card's bonus, the cards left, a sale, a bypass sum and the roll it needs), what a player may
do now (`legal_actions`, `can`, `landings`) and what an undo would take back, each pinned in
full: a screen shows these figures as they are, and the rules compute the sale and the bypass
with the same functions. Pinned from the survivors of mutation testing rules/queries.py
(issue 28; docs/mutation.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.catalog import default_catalog
from referee.games.gallery_grippers.rules import queries as q
from referee.games.gallery_grippers.state import GameState
from referee.session import Session
from tests.referee.conftest import SEED, Table, hand_for, start

CAT = default_catalog()
MUSEUMS = list(CAT.museums)  # The Louvre, The Metropolitan Museum of Art, ...
UFFIZI = "The Uffizi Gallery"


def state_of(t: Table) -> GameState:
    return t.session.state


def with_art(t: Table) -> Table:
    """Ann holds Primavera (25 deduction), still inside the Uffizi; her turn again."""
    t.ok("move", player="Ann", tile="art", museum=UFFIZI, roll=3)
    t.ok("steal", player="Ann", art="Primavera")
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=2)
    t.ok("end_turn", player="Ben")
    return t


# ---- figures -------------------------------------------------------------------------------


def test_a_card_s_bonus_is_the_catalog_s_and_an_unknown_card_s_is_nothing() -> None:
    s = state_of(start())
    assert q.card_bonus(s, "Hacker") == CAT.specialists["Hacker"].bonus == 30
    assert q.card_bonus(s, "Steroids") == CAT.attributes["Steroids"].bonus == 25
    assert q.card_bonus(s, "Nobody") == 0


def test_cards_left_count_each_deck_s_pile_and_discards() -> None:
    s = state_of(start())
    piles = {d: sum(s.piles[d].values()) for d in q.DECKS}
    assert piles["specialist"] > 0 and piles["attribute"] > 0
    assert q.cards_left(s, "specialist") == piles["specialist"]
    assert q.cards_left(s, "attribute") == piles["attribute"]
    assert q.cards_left(s) == piles["specialist"] + piles["attribute"]
    assert q.cards_left(s, "nothing") == 0  # a deck no pile is kept for
    s = replace(
        s, discards={"specialist": {"Hacker": 2, "Lookout": 1}, "attribute": {"Steroids": 4}}
    )
    assert q.cards_left(s, "specialist") == piles["specialist"] + 3
    assert q.cards_left(s, "attribute") == piles["attribute"] + 4
    assert q.cards_left(s) == piles["specialist"] + piles["attribute"] + 7
    s = replace(s, piles={}, discards={"attribute": {"Steroids": 4}})
    assert (q.cards_left(s, "specialist"), q.cards_left(s, "attribute"), q.cards_left(s)) == (
        0,
        4,
        4,
    )


def test_a_draw_comes_from_the_pile_or_once_it_is_empty_from_its_discards() -> None:
    s = state_of(start())
    discards = {"specialist": {"Hacker": 2}, "attribute": {"Steroids": 1}}
    s = replace(s, discards=discards)
    assert q.draw_counts(s, "specialist") == s.piles["specialist"]
    emptied = {n: 0 for n in s.piles["specialist"]}
    s = replace(s, piles={**s.piles, "specialist": emptied})
    assert q.draw_counts(s, "specialist") == {"Hacker": 2}  # reshuffled (GG-17)
    assert q.draw_counts(s, "attribute") == s.piles["attribute"]
    s = replace(s, piles={}, discards={})
    assert q.draw_counts(s, "specialist") == {}


def test_a_sale_s_figures() -> None:
    sale = q.Sale(("A", "B", "C"), face=300, bonus=400, money_before=50, win_money=750)
    assert (sale.extra, sale.price, sale.money_after, sale.wins) == (2, 700, 750, True)
    short = q.Sale(("A", "B", "C"), face=300, bonus=400, money_before=49, win_money=750)
    assert (short.money_after, short.wins) == (749, False)
    assert q.Sale(("A",), 100, 0, 0, 1000).extra == 0
    assert q.Sale((), 0, 0, 0, 1000).extra == 0
    assert q.Sale(("A", "B"), 100, 0, 0, 1000).extra == 1


def test_the_sale_price_of_held_art() -> None:
    t = with_art(start())
    s = state_of(t)
    rules = s.rules
    primavera = next(a for a in CAT.museums[UFFIZI] if a.name == "Primavera")
    sale = q.sale_price(s, "Ann")
    assert sale == q.Sale(("Primavera",), primavera.value, 0, 0, rules.win_money)
    assert q.sale_price(s, "Ann", ["Primavera"]) == sale
    assert q.sale_price(s, "Ann", []) == q.Sale((), 0, 0, 0, rules.win_money)
    # a name not held adds no face value (the rules refuse it before a sale)
    two = q.sale_price(s, "Ann", ["Primavera", "Mona Lisa"])
    assert (two.pieces, two.face) == (("Primavera", "Mona Lisa"), primavera.value)
    assert two.bonus == rules.fence_bonus_per_extra_piece
    # two pieces held: face values summed, one fence bonus, from the money already made
    art = (*s.player("Ann").art, next(a for a in CAT.museums[UFFIZI] if a.name == "Bacchus"))
    ann = replace(s.player("Ann"), art=art, money=7)
    s2 = replace(s, players=(ann, *s.players[1:]))
    sale = q.sale_price(s2, "Ann")
    assert sale == q.Sale(
        ("Primavera", "Bacchus"),
        sum(a.value for a in art),
        rules.fence_bonus_per_extra_piece,
        7,
        rules.win_money,
    )
    three = replace(ann, art=(*art, CAT.museums["The Louvre"][0]))
    s3 = replace(s, players=(three, *s.players[1:]))
    assert q.sale_price(s3, "Ann").bonus == 2 * rules.fence_bonus_per_extra_piece


def terms(
    bonus: int = 0,
    attr: int = 0,
    deduction: int = 0,
    target: int = 100,
    low: int = 1,
    high: int = 100,
) -> q.BypassTerms:
    return q.BypassTerms("S", bonus, "A", attr, deduction, target, low, high)


def test_a_bypass_sum_and_the_roll_it_needs() -> None:
    t = terms(30, 25, 5)
    assert t.base == 50
    assert (t.total(49), t.total(50)) == (99, 100)
    assert (t.succeeds(49), t.succeeds(50), t.succeeds(51)) == (False, True, True)
    assert (t.need, t.certain) == (50, False)
    # the need at the top face, and one past it
    assert (terms(0, 0, 0).need, terms(0, 0, 0).certain) == (100, False)
    assert terms(0, 0, 1).need is None
    assert terms(0, 0, 1).certain is False
    # the need at the lowest face, or below it: every face bypasses
    assert (terms(99, 0, 0).need, terms(99, 0, 0).certain) == (1, True)
    assert (terms(98, 0, 0).need, terms(98, 0, 0).certain) == (2, False)
    assert (terms(150, 0, 0).need, terms(150, 0, 0).certain) == (1, True)
    # 0-99 dice
    assert (terms(100, 0, 0, low=0, high=99).need, terms(100, 0, 0, low=0, high=99).certain) == (
        0,
        True,
    )
    assert terms(0, 0, 0, low=0, high=99).need is None
    assert terms(1, 0, 0, low=0, high=99).need == 99


def test_the_bypass_terms_of_a_player_and_the_cards_played() -> None:
    t = with_art(start(rules={"bypass_target": 120}))
    s = state_of(t)
    full = q.bypass_terms(s, "Ann", "Hacker", "Steroids")
    assert full == q.BypassTerms("Hacker", 30, "Steroids", 25, 25, 120, 1, 100)
    assert (full.base, full.need) == (30, 90)
    assert q.bypass_need(s, "Ann", "Hacker", "Steroids") == 90
    assert q.bypass_terms(s, "Ann", None, None) == q.BypassTerms(None, 0, None, 0, 25, 120, 1, 100)
    assert q.bypass_need(s, "Ann", None, None) is None  # 145 is past the dice
    assert q.bypass_terms(s, "Ben", "Hacker", None) == q.BypassTerms(
        "Hacker", 30, None, 0, 0, 120, 1, 100
    )
    assert (
        q.bypass_terms(s, "Ben", None, "More Tech").attribute_bonus
        == CAT.attributes["More Tech"].bonus
    )
    s = state_of(start(rules={"percentile": "0-99"}))
    assert q.bypass_terms(s, "Ann", None, None) == q.BypassTerms(None, 0, None, 0, 0, 100, 0, 99)
    assert q.bypass_need(s, "Ann", None, None) is None
    assert q.bypass_need(s, "Ann", "Hacker", None) == 70


# ---- what a player may do now --------------------------------------------------------------


def _outside_moves(p: str) -> list[c.Command]:
    out: list[c.Command] = [c.MoveRoll(p)]
    for tile in (
        "airport",
        "recruitment",
        "security",
        "alarm",
        "trading",
        "art",
        "exit",
        "black_market",
        "plain",
    ):
        if tile in ("airport", "recruitment", "trading", "black_market", "plain"):
            out.append(c.Move(p, tile))
        if tile in ("security", "alarm", "art", "plain"):
            out += [c.Move(p, tile, m) for m in MUSEUMS]
    return out


def test_at_the_start_of_a_turn_the_player_moves_and_nobody_else_acts() -> None:
    s = state_of(start())
    assert q.legal_actions(s, "Ann") == _outside_moves("Ann")
    assert q.legal_actions(s, "Ben") == []
    assert q.legal_actions(s, None) == []
    assert q.legal_actions(s, "Zed") == []
    assert q.can(s, "Ann", c.MoveRoll) and q.can(s, "Ann", c.Move)
    assert not q.can(s, "Ann", c.EndTurn) and not q.can(s, "Ben", c.MoveRoll)


def test_the_answer_is_kept_per_state_and_player_and_handed_out_as_a_copy() -> None:
    s = state_of(start())
    first = q.legal_actions(s, "Ann")
    first.clear()
    again = q.legal_actions(s, "Ann")
    assert again == _outside_moves("Ann") and isinstance(again, list)
    assert q.legal_actions(s, None) == []  # the same state, another player, or the table
    assert q.legal_actions(s, "Ann") == _outside_moves("Ann")
    assert q.legal_actions(s, "Ben") == []
    assert q.legal_actions(s, "Ann") == _outside_moves("Ann")
    other = state_of(start(["Ann", "Ben"], rolls={"Ann": 1, "Ben": 6}))
    assert q.legal_actions(other, "Ann") == []  # another state, the same player
    assert q.legal_actions(other, "Ben") == _outside_moves("Ben")


def test_the_first_question_with_nothing_kept_is_answered() -> None:
    """As in a console or a box just started: no answer kept yet."""
    s = state_of(start())
    q._last_asked[0] = None
    assert q.legal_actions(s, "Ann") == _outside_moves("Ann")
    q._last_asked[0] = None
    assert q.can(s, "Ann", c.MoveRoll)


def test_the_table_s_own_steps_in_setup() -> None:
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=[{"name": n} for n in ("Ann", "Ben", "Cy")])
    assert q.legal_actions(state_of(t), None) == []  # the hands first
    assert q.legal_actions(state_of(t), "Ann") == []  # a hand is not listed
    for n in ("Ann", "Ben", "Cy"):
        t.ok("deal", player=n, **hand_for(t.session))
    assert q.legal_actions(state_of(t), None) == [c.TurnOrder()]
    t.ok("turn_order", rolls={"Ann": 6, "Ben": 2, "Cy": 6})
    # rock-paper-scissors: the table names a winner among the tied
    assert q.legal_actions(state_of(t), None) == [c.Tiebreak("Ann"), c.Tiebreak("Cy")]
    t.ok("tiebreak", winner="Cy")
    assert q.legal_actions(state_of(t), None) == []
    assert q.legal_actions(state_of(t), "Cy") == _outside_moves("Cy")


def test_a_tie_under_the_reroll_house_rule_is_rolled_again() -> None:
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=[{"name": "Ann"}, {"name": "Ben"}], rules={"tiebreak": "reroll"})
    for n in ("Ann", "Ben"):
        t.ok("deal", player=n, **hand_for(t.session))
    t.ok("turn_order", rolls={"Ann": 3, "Ben": 3})
    assert q.legal_actions(state_of(t), None) == [c.TurnOrder()]


def test_what_a_tile_offers() -> None:
    t = start()
    t.ok("move", player="Ann", tile="trading", roll=3)
    s = state_of(t)
    # each attribute that could change hands once, per partner (never oneself)
    assert q.legal_actions(s, "Ann") == [
        c.Trade("Ann", "Ben", give=(s.player("Ann").attributes[0],)),
        c.Trade("Ann", "Ben", get=(s.player("Ben").attributes[0],)),
        c.EndTurn("Ann"),
    ]
    assert q.can(s, "Ann", c.Trade) and not q.can(s, "Ann", c.Steal)

    t = start()
    t.ok("move", player="Ann", tile="recruitment", roll=3)
    s = state_of(t)
    assert q.legal_actions(s, "Ann") == [
        c.Draw("Ann", "specialist"),
        *(c.Draw("Ann", "specialist", n) for n in sorted(s.piles["specialist"])),
        c.Draw("Ann", "attribute"),
        *(c.Draw("Ann", "attribute", n) for n in sorted(s.piles["attribute"])),
    ]

    t = start()
    t.ok("move", player="Ann", tile="art", museum=UFFIZI, roll=3)
    s = state_of(t)
    assert q.legal_actions(s, "Ann") == [
        *(c.Steal("Ann", a) for a in ("The Birth of Venus", "Primavera", "Bacchus")),
        c.EndTurn("Ann"),
    ]
    assert q.landings(s, "Ann") == []  # moved already
    t.ok("steal", player="Ann", art="Primavera")
    assert q.legal_actions(state_of(t), "Ann") == [c.EndTurn("Ann")]


def test_inside_a_museum_its_tiles_are_listed_once() -> None:
    t = start()
    t.ok("move", player="Ann", tile="art", museum=UFFIZI, roll=3)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=2)
    t.ok("end_turn", player="Ben")
    s = state_of(t)
    tiles = ("security", "alarm", "art", "exit", "plain")
    assert q.legal_actions(s, "Ann") == [
        c.MoveRoll("Ann"),
        *(m for tile in tiles for m in (c.Move("Ann", tile), c.Move("Ann", tile, UFFIZI))),
    ]
    assert q.landings(s, "Ann") == [q.Landing(tile) for tile in tiles]


def test_outside_the_landings_name_the_museums_a_tile_may_be_in() -> None:
    s = state_of(start())
    assert q.landings(s, "Ann") == [
        *(
            q.Landing(tile)
            for tile in ("airport", "recruitment", "trading", "black_market", "plain")
        ),
        *(q.Landing(tile, tuple(MUSEUMS)) for tile in ("security", "alarm", "art", "plain")),
    ]
    assert q.landings(s, "Ben") == []
    assert q.landings(s, "Zed") == []


def test_at_the_black_market_all_the_art_and_each_piece_alone() -> None:
    t = with_art(start())
    t.ok("move", player="Ann", tile="exit", roll=2)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="plain", roll=2)
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="black_market", roll=2)
    s = state_of(t)
    assert q.legal_actions(s, "Ann") == [
        c.Sell("Ann"),
        c.Sell("Ann", ("Primavera",)),
        c.EndTurn("Ann"),
    ]
    assert q.can(s, "Ann", c.Sell)


def test_an_obstacle_offers_each_card_held_once_or_none() -> None:
    t = start(
        hands={
            "Ann": {
                "specialists": ["Lookout", "Hacker", "Lookout"],
                "attributes": ["Steroids", "More Tech", "More Tech"],
            }
        }
    )
    t.ok("move", player="Ann", tile="alarm", museum="The Louvre", roll=3)
    s = state_of(t)
    assert q.legal_actions(s, "Ann") == [
        c.Bypass("Ann", sp, at)
        for sp in ((), ("Lookout",), ("Hacker",))
        for at in ((), ("Steroids",), ("More Tech",))
    ]
    assert not q.can(s, "Ann", c.EndTurn)


def test_a_decision_offers_its_answers() -> None:
    t = with_art(start())
    t.ok("move", player="Ann", tile="security", roll=2)
    t.ok("bypass", player="Ann", roll=1)  # caught with art, no strike before (GG-10)
    assert q.legal_actions(state_of(t), "Ann") == [
        c.Choose("Ann", "ditch"),
        c.Choose("Ann", "keep"),
    ]
    s = state_of(start(rules={"reup_at_or_below": 6}))
    assert q.legal_actions(s, "Ann") == [c.Reup("Ann")]


def test_a_game_over_offers_nothing() -> None:
    t = start(["Ann"], rules={"win_money": 1})
    t.ok("move", player="Ann", tile="art", museum=UFFIZI, roll=2)
    t.ok("steal", player="Ann", art="Primavera")
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ann", tile="exit", roll=1)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ann", tile="black_market", roll=4)
    t.ok("sell", player="Ann")
    s = state_of(t)
    assert s.over
    assert (q.legal_actions(s, "Ann"), q.legal_actions(s, None)) == ([], [])
    assert q.landings(s, "Ann") == []


# ---- undo ----------------------------------------------------------------------------------


@dataclass
class Step:
    seq: int
    command: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    undone: bool = False


ROLL = {"type": "roll", "player": "Ann", "source": "electronic"}


def test_nothing_to_undo() -> None:
    assert q.undo_preview(None) is None


def test_each_step_in_words() -> None:
    cases = [
        ({"cmd": "move", "player": "Ann", "tile": "black_market"}, "move", "to black market"),
        ({"cmd": "bypass", "player": "Ann", "roll": {"value": 57}}, "bypass", "roll 57"),
        ({"cmd": "bypass", "player": "Ann", "roll": None}, "bypass", ""),
        ({"cmd": "deal", "player": "Ann"}, "deal", "starting hand"),
        (
            {"cmd": "draw", "player": "Ann", "deck": "specialist", "card": "Hacker"},
            "draw",
            "Hacker",
        ),
        ({"cmd": "draw", "player": "Ann", "deck": "attribute", "card": None}, "draw", "attribute"),
        ({"cmd": "steal", "player": "Ann", "art": "Primavera"}, "steal", "Primavera"),
        ({"cmd": "choose", "player": "Ann", "choice": "keep"}, "choose", "keep"),
        ({"cmd": "tiebreak", "winner": "Cy"}, "tiebreak", "winner Cy"),
        ({"cmd": "end_turn", "player": "Ann"}, "end turn", "passing the turn"),
        ({"cmd": "move_roll", "player": "Ann"}, "move roll", ""),
        ({"cmd": "sell", "player": "Ann"}, "sell", ""),
    ]
    for command, what, detail in cases:
        step = Step(3, command)
        preview = q.undo_preview(step)
        assert preview == q.UndoPreview(step, what, command.get("player"), detail, False), command
    # a command naming no player as `player` (a trade names a giver)
    step = Step(4, {"cmd": "trade", "giver": "Ann", "taker": "Ben", "player": ["Ann"]})
    assert q.undo_preview(step) == q.UndoPreview(step, "trade", None, "", False)


def test_the_box_s_dice_of_a_step_stay_for_its_redo() -> None:
    cmd = {"cmd": "move_roll", "player": "Ann"}
    assert q.undo_preview(Step(1, cmd, [ROLL])).dice_stay is True  # type: ignore[union-attr]
    typed = {**ROLL, "source": "physical"}
    assert q.undo_preview(Step(1, cmd, [typed])).dice_stay is False  # type: ignore[union-attr]
    # an electronic source on an event that is no roll
    other = {"type": "drawn", "player": "Ann", "source": "electronic"}
    assert q.undo_preview(Step(1, cmd, [other])).dice_stay is False  # type: ignore[union-attr]
    assert q.undo_preview(Step(1, cmd, [typed, ROLL])).dice_stay is True  # type: ignore[union-attr]
    # a session's own step: a bypass the box rolled
    t = start()
    t.ok("move", player="Ann", tile="alarm", museum="The Louvre", roll=3)
    t.ok("bypass", player="Ann")
    preview = q.undo_preview(t.session.undo_target())
    assert preview is not None
    value = preview.step.command["roll"]["value"]
    assert (preview.what, preview.player, preview.detail, preview.dice_stay) == (
        "bypass",
        "Ann",
        f"roll {value}",
        True,
    )
