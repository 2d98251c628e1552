"""Kept dice: undo never lets a result be chosen (rules, "What the box never does").

A die an undo left on the table waits for the next roll of the same die by the same player
for the same purpose; while it waits, a typed or tray value for that die is refused
(`die_kept`, `card_kept`); a kept card is dropped, out loud, once its pile is gone.
The property over random play is in test_kept_property.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.games.gallery_grippers.catalog import default_catalog, parse_catalog
from referee.session import LogEntry, Session
from tests.referee.conftest import SEED, Table, hand_for, start

M1 = next(iter(default_catalog().museums))
OLD_LOG = Path(__file__).parent / "games" / "old_undo_log.json"


def rolls(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == "roll"]


def at_obstacle() -> Table:
    t = start()
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    return t


# ---- 1. a typed or tray value never replaces a kept die ----------------------------------

@pytest.mark.parametrize("via", ["typed", "tray"])
def test_a_physical_bypass_value_is_refused_while_the_undone_d100_waits(via: str) -> None:
    t = at_obstacle()
    [first] = rolls(t.ok("bypass", player="Ann"))
    t.ok("undo")
    other = 95 if first["value"] != 95 else 94
    refusal = t.no("bypass", "die_kept", player="Ann", roll=other, via=via)
    assert str(first["value"]) in refusal["error"]["message"]  # names the kept value
    assert refusal["error"]["rule"] == "GG-7"  # the roll's rule (issue 39: a rule, in words)
    [again] = rolls(t.ok("bypass", player="Ann"))
    assert (again["value"], again["index"], again["kept"]) == (first["value"], first["index"],
                                                              True)
    # once the kept die is used, typing is fine again (undo, undo the reuse: typed still refused)
    t.ok("undo")
    t.no("bypass", "die_kept", player="Ann", roll=other)


def move_roll(t: Table, value: int | None = None) -> dict[str, Any]:
    return t.ok("move", player="Ann", tile="plain", **({} if value is None else {"roll": value}))


# (command that rolls electronically, the same command with a typed value) for every purpose
PURPOSES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "move": ({"cmd": "move", "player": "Ann", "tile": "plain"},
             {"cmd": "move", "player": "Ann", "tile": "plain", "roll": 4}),
    "move_roll": ({"cmd": "move_roll", "player": "Ann"},
                  {"cmd": "move_roll", "player": "Ann", "roll": 4}),
    "free": ({"cmd": "roll", "die": "d10"}, {"cmd": "roll", "die": "d10", "value": 4}),
    "reup": ({"cmd": "reup", "player": "Ann"}, {"cmd": "reup", "player": "Ann", "roll": 4}),
}


@pytest.mark.parametrize("purpose", sorted(PURPOSES))
def test_every_die_refuses_a_typed_value_while_its_kept_value_waits(purpose: str) -> None:
    t = start(rules={"reup_at_or_below": 6} if purpose == "reup" else {})
    box, typed = PURPOSES[purpose]
    first = t.session.handle(box)
    assert first["ok"], first
    [roll] = rolls(first)
    t.ok("undo")
    fields = {k: v for k, v in typed.items() if k != "cmd"}  # (PURPOSES is shared: no pop)
    answer = t.no(typed["cmd"], "die_kept", **fields)
    assert f"shows {roll['value']}" in answer["error"]["message"]


def test_turn_order_refuses_typed_values_only_for_players_with_a_kept_die() -> None:
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=["Ann", "Ben"])
    for name in ("Ann", "Ben"):
        st = t.session.state
        t.ok("deal", player=name, specialists=sorted(st.piles["specialist"])[:3],
             attributes=sorted(st.piles["attribute"])[:3])
    t.ok("turn_order", rolls={"Ben": 3})  # Ann's d6 is electronic, Ben's typed
    t.ok("undo")
    t.no("turn_order", "die_kept", rolls={"Ann": 6, "Ben": 3})
    answer = t.ok("turn_order", rolls={"Ben": 2})
    [ann] = [r for r in rolls(answer) if r["player"] == "Ann"]
    assert ann["kept"] is True


def test_two_equal_tray_dice_kept_for_one_player_are_two_dice() -> None:
    """The tray read 2 for Ann's turn-order die and, in the tie's re-roll, 2 again: both
    undone, two kept dice of the same value wait for Ann. The turn-order roll again reuses
    one; the other still waits for the re-roll, so the tray is not asked for Ann's re-roll
    (a kept die lost there would let Ann roll it again: found by test_kept_property, the
    two dice being equal records, and both were taken off the table)."""
    t = Table(Session(seed=SEED))
    t.ok("new_game", players=["Ann", "Ben", "Cy"], rules={"tiebreak": "reroll"})
    for name in ("Ann", "Ben", "Cy"):
        t.ok("deal", player=name, **hand_for(t.session))
    first = rolls(t.ok("turn_order", rolls={"Ann": 6, "Cy": 6}, via="tray"))
    [ben] = [r["value"] for r in first if r["player"] == "Ben"]  # from the box
    assert ben < 6
    t.ok("turn_order", rolls={"Ann": 6, "Cy": 1}, via="tray")  # the re-roll: Ann first
    t.ok("undo")
    t.ok("undo")
    assert sorted((k.player, k.roll.value) for k in t.session.kept) == [
        ("Ann", 6), ("Ann", 6), ("Ben", ben), ("Cy", 1), ("Cy", 6)]
    again = rolls(t.ok("turn_order", rolls={}))
    assert [(r["player"], r["value"], r["kept"]) for r in again if r["player"] != "Ben"] == [
        ("Ann", 6, True), ("Cy", 6, True)]
    assert sorted((k.player, k.roll.value) for k in t.session.kept) == [("Ann", 6), ("Cy", 1)]
    assert Session.resume(list(t.session.log), seed=SEED).kept == t.session.kept  # (the log)
    t.no("turn_order", "die_kept", rolls={"Ann": 5, "Cy": 1}, via="tray")
    rerolled = rolls(t.ok("turn_order", rolls={}))
    assert [(r["player"], r["value"], r["kept"]) for r in rerolled] == [
        ("Ann", 6, True), ("Cy", 1, True)]
    assert t.session.kept == ()
    assert t.session.state.current_player.name == "Ann"


# ---- 2. a free roll is kept only for a free roll -----------------------------------------

def test_an_undone_free_d100_is_never_picked_up_by_a_bypass() -> None:
    t = at_obstacle()
    [free] = rolls(t.ok("roll", die="d100"))
    assert free["player"] == "Ann" and free["purpose"] == "free"
    t.ok("undo")
    [bypass] = rolls(t.ok("bypass", player="Ann"))
    assert bypass["kept"] is False and bypass["index"] == free["index"] + 1
    # the free d100 still waits, for the next free d100 only
    [again] = rolls(t.ok("roll", die="d100"))
    assert again["kept"] and again["value"] == free["value"]


def test_an_undone_free_d6_is_never_picked_up_by_a_move() -> None:
    t = start()
    [free] = rolls(t.ok("roll", die="d6"))
    t.ok("undo")
    [move] = rolls(move_roll(t))
    assert move["kept"] is False and move["index"] == free["index"] + 1
    assert [k.purpose for k in t.session.kept] == ["free"]


def test_an_undone_move_d6_is_never_picked_up_by_a_free_roll() -> None:
    t = start()
    [move] = rolls(move_roll(t))
    t.ok("undo")
    [free] = rolls(t.ok("roll", die="d6"))
    assert free["kept"] is False
    [again] = rolls(move_roll(t))
    assert again["kept"] and again["index"] == move["index"]


# ---- 3. a kept card is dropped once it is back in a pile ---------------------------------

TWO_DECKS = """
[[specialists]]
name = "Hacker"
bonus = 30
copies = 7
[[attributes]]
name = "Rope"
bonus = 10
copies = 3
[[attributes]]
name = "Gloves"
bonus = 5
copies = 3
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


def two_players_two_attributes_left() -> Table:
    """Ann and Ben dealt; the attribute pile holds Torch and Torch; Ann is to play."""
    t = Table(Session(parse_catalog(TWO_DECKS, "two.toml"), seed=SEED))
    t.ok("new_game", players=["Ann", "Ben"], rules={"bypass_target": 1})
    t.ok("deal", player="Ann", specialists=["Hacker"] * 3, attributes=["Rope", "Rope", "Gloves"])
    t.ok("deal", player="Ben", specialists=["Hacker"] * 3, attributes=["Rope", "Gloves", "Gloves"])
    t.ok("turn_order", rolls={"Ann": 6, "Ben": 1})
    assert t.session.state.piles["attribute"] == {"Torch": 2}
    return t


def turn(t: Table, who: str, tile: str, **draw: Any) -> dict[str, Any] | None:
    """One turn: move (typed d6) to `tile`; at recruitment draw an attribute; end the turn."""
    museum = {"museum": "Small Museum"} if tile == "alarm" else {}
    t.ok("move", player=who, tile=tile, roll=1, **museum)
    answer = None
    if tile == "recruitment":
        answer = t.ok("draw", player=who, deck="attribute", **draw)
    elif tile == "alarm":
        t.ok("bypass", player=who, roll=50, **draw)
    t.ok("end_turn", player=who)
    return answer


def anns_kept_torch_and_its_pile_gone() -> Table:
    """Ann's box draw of a Torch is undone (kept), and so is her move (the pawn was on a
    plain tile: no draw this turn, and none from the other deck, which her seen Torch binds:
    `draw_bound`, test_kept_cards_bound.py); Ben then takes both Torches by hand and plays
    one: the pile Ann's Torch came from is empty, the discards hold Rope and Torch."""
    t = two_players_two_attributes_left()
    t.ok("move", player="Ann", tile="recruitment", roll=1)
    [drawn] = [e for e in t.ok("draw", player="Ann", deck="attribute")["events"]
               if e["type"] == "drawn"]
    assert drawn["card"] == "Torch"
    t.ok("undo")
    [kept] = t.session.kept
    assert (kept.player, kept.key, kept.purpose, kept.card) == ("Ann", "pick:attribute", "draw",
                                                                "Torch")
    refusal = t.no("draw", "card_kept", player="Ann", deck="attribute", card="Torch")
    assert "Torch" in refusal["error"]["message"]
    t.no("draw", "draw_bound", player="Ann", deck="specialist", card="Hacker")
    t.ok("undo")
    t.ok("move", player="Ann", tile="plain", roll=1)
    t.ok("end_turn", player="Ann")
    turn(t, "Ben", "recruitment", card="Torch")
    turn(t, "Ann", "plain")
    turn(t, "Ben", "recruitment", card="Torch")  # the attribute pile is empty now
    turn(t, "Ann", "alarm", attribute="Rope")
    turn(t, "Ben", "alarm", attribute="Torch")
    turn(t, "Ann", "exit")
    turn(t, "Ben", "exit")
    state = t.session.state
    assert sum(state.piles["attribute"].values()) == 0
    assert state.discards["attribute"] == {"Rope": 1, "Torch": 1}
    assert [k.card for k in t.session.kept] == ["Torch"]
    return t


def test_an_undone_box_draw_never_returns_from_a_reshuffled_pile() -> None:
    t = anns_kept_torch_and_its_pile_gone()
    position = t.session.stream_position
    answer = turn(t, "Ann", "recruitment")  # a box draw: the discards become a new pile
    assert answer is not None
    assert [e["deck"] for e in answer["events"] if e["type"] == "deck_reshuffled"] == [
        "attribute"]
    [pick] = rolls(answer)
    assert pick["kept"] is False and pick["index"] == position  # a fresh draw, not the kept one
    [dropped] = [e for e in answer["events"] if e["type"] == "kept_dropped"]
    assert dropped["deck"] == "attribute"
    assert [(k["player"], k["card"]) for k in dropped["kept"]] == [("Ann", "Torch")]
    assert t.session.kept == ()  # dropped, and not silently: the event says so


def test_anyones_reshuffle_drops_a_kept_card_and_undoing_it_puts_the_card_back() -> None:
    t = anns_kept_torch_and_its_pile_gone()
    turn(t, "Ann", "plain")
    answer = turn(t, "Ben", "recruitment", card="Rope")  # by hand: reshuffles the discards
    assert answer is not None
    [dropped] = [e for e in answer["events"] if e["type"] == "kept_dropped"]
    assert [(k["player"], k["card"]) for k in dropped["kept"]] == [("Ann", "Torch")]
    assert t.session.kept == ()
    t.ok("undo")  # the end of Ben's turn
    undo = t.ok("undo")  # Ben's draw: its reshuffle is undone, so Ann's Torch waits again
    [undone] = undo["events"]
    assert [(k["player"], k["card"]) for k in undone["kept"]] == [("Ann", "Torch")]
    assert [(k.player, k.card) for k in t.session.kept] == [("Ann", "Torch")]
    again = Session.resume(list(t.session.log), seed=SEED,
                           catalog=parse_catalog(TWO_DECKS, "two.toml"))
    assert again.kept == t.session.kept and again.state == t.session.state


def test_a_kept_card_drawn_from_the_discards_waits_for_the_same_reshuffle() -> None:
    t = two_players_two_attributes_left()
    turn(t, "Ann", "recruitment", card="Torch")
    turn(t, "Ben", "recruitment", card="Torch")
    turn(t, "Ann", "alarm", attribute="Rope")
    turn(t, "Ben", "alarm", attribute="Gloves")
    turn(t, "Ann", "exit")
    turn(t, "Ben", "exit")
    t.ok("move", player="Ann", tile="recruitment", roll=1)
    [first] = [e for e in t.ok("draw", player="Ann", deck="attribute")["events"]
               if e["type"] == "drawn"]
    t.ok("undo")
    [kept] = t.session.kept
    assert kept.from_discards
    t.no("draw", "card_kept", player="Ann", deck="attribute", card="Rope")
    answer = t.ok("draw", player="Ann", deck="attribute")
    [again] = [e for e in answer["events"] if e["type"] == "drawn"]
    assert again["card"] == first["card"] and rolls(answer)[0]["kept"] is True
    assert not [e for e in answer["events"] if e["type"] == "kept_dropped"]


def test_undoing_the_reshuffle_a_kept_card_came_from_drops_it_for_good() -> None:
    t = two_players_two_attributes_left()
    turn(t, "Ann", "recruitment", card="Torch")
    turn(t, "Ben", "recruitment", card="Torch")
    turn(t, "Ann", "alarm", attribute="Rope")
    turn(t, "Ben", "alarm", attribute="Gloves")
    turn(t, "Ann", "exit")
    turn(t, "Ben", "exit")
    turn(t, "Ann", "plain")
    reshuffle = turn(t, "Ben", "recruitment", card="Rope")  # a new pile: Gloves
    assert reshuffle is not None and t.events(reshuffle, "deck_reshuffled")
    t.ok("move", player="Ann", tile="recruitment", roll=1)
    [drawn] = t.events(t.ok("draw", player="Ann", deck="attribute"), "drawn")
    assert drawn["card"] == "Gloves"
    t.ok("undo")
    [kept] = t.session.kept
    assert kept.card == "Gloves" and not kept.from_discards
    for _ in range(2):  # Ann's move, Ben's end of turn
        [undone] = t.ok("undo")["events"]
        assert undone["dropped"] == []
    [undone] = t.ok("undo")["events"]  # Ben's draw: the pile the Gloves came from never was
    assert undone["cmd"] == "draw"
    assert [(k["player"], k["card"]) for k in undone["dropped"]] == [("Ann", "Gloves")]
    assert t.session.kept == ()
    again = Session.resume(list(t.session.log), seed=SEED,
                           catalog=parse_catalog(TWO_DECKS, "two.toml"))
    assert again.kept == () and again.state == t.session.state


# ---- games stored before kept dice had a purpose -----------------------------------------

def old_log() -> tuple[list[LogEntry], bytes]:
    data = json.loads(OLD_LOG.read_text(encoding="utf-8"))
    entries = [LogEntry(e["seq"], e["command"], e["events"], e["undone"])
               for e in data["entries"]]
    return entries, bytes.fromhex(data["seed"])


def test_the_old_log_really_is_in_the_old_format() -> None:
    entries, _ = old_log()
    undone = [e.events[0] for e in entries if e.command["cmd"] == "undo"]
    items = [k for u in undone for k in u["kept"]]
    assert len(items) == 3 and all("purpose" not in k for k in items)


def test_a_game_stored_before_kept_dice_had_a_purpose_resumes_with_the_purpose_derived() -> None:
    entries, seed = old_log()
    session = Session.resume(entries, seed=seed)
    assert sorted((k.player, k.key, k.purpose) for k in session.kept) == [
        ("Ann", "d100", "bypass"), ("Ann", "d6", "free"), ("Ann", "pick:specialist", "draw")]
    t = Table(session)
    old = {k.purpose: k.roll for k in session.kept}
    # the free d6 is not the bypass's or a move's; the bypass d100 is the bypass's
    t.no("bypass", "die_kept", player="Ann", roll=99)
    [bypass] = rolls(t.ok("bypass", player="Ann"))
    assert bypass["kept"] and bypass["index"] == old["bypass"].index
    [free] = rolls(t.ok("roll", die="d6"))
    assert free["kept"] and free["value"] == old["free"].value
    # and it goes on being resumable, old entries and new together
    again = Session.resume(list(t.session.log), seed=seed)
    assert again.state == t.session.state and again.kept == t.session.kept
    assert again.stream_position == t.session.stream_position
