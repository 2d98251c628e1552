"""Each of The Gallerist's fourteen house rules (the-gallerist-scoring.md, "House-rule
settings"; referee/games/gallerist/settings.py), one test each: the same table ruled with the
default and with the other value, so the test fails if the setting stops deciding its point."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.games.gallerist.settings import CHOICES
from referee.games.gallerist.state import frozen
from tests.referee.games.gallerist.helpers import FIXTURE, Game

TABLE = ("reputation", "curator", "dealer", "influence")


def final(g: Game) -> None:
    g.given(phase="final_scoring", current=None, queue=())


def spend(g: Game, name: str, cost: int) -> None:
    g.ok("market", player=name, column=1, row="lower", cost=cost)


def test_every_setting_has_a_test_here() -> None:
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(CHOICES) <= tested


@pytest.mark.parametrize(("value", "removed"), [(4, 4), (0, 0)])
def test_solo_visitor_removal(value: int, removed: int) -> None:
    g = Game(["Ann"], start=None, rules={"solo_visitor_removal": value})
    assert g.json["setup"]["visitors_removed_per_type"] == removed


@pytest.mark.parametrize(("value", "second_round"), [("fixed", "Ben"), ("rotating", "Cy")])
def test_start_player(value: str, second_round: str) -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ben", rules={"start_player": value})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    for who, to in (("Ben", "International Market"), ("Cy", "Artists Colony"),
                    ("Ann", "Fourth Location")):
        assert g.json["current"] == who
        g.turn(who, to)
        while g.json["pending"]:
            p = g.json["pending"][0]
            g.ok("kickout_action", player=p["player"], kind="pass")
    assert g.json["round"] == 2 and g.json["current"] == second_round


@pytest.mark.parametrize(("value", "order"), [("seat_after_mover", ["Cy", "Ann"]),
                                              ("seat_from_start_player", ["Ann", "Cy"])])
def test_kickout_order(value: str, order: list[str]) -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ann", rules={"kickout_order": value})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    g.turn("Ann", "International Market")
    g.given_player("Ann", locations=("Fourth Location",))
    g.ok("move", player="Ben", to="Fourth Location")  # Cy's gallerist, Ann's assistant
    g.ok("location_action", player="Ben")
    g.ok("end_turn", player="Ben")
    assert [p["player"] for p in g.json["pending"]] == order


def test_kickout_location() -> None:
    """Recorded only (docs/gallerist.md): the box does not know the locations' actions, so a
    kicked-out location action is ruled the same way under either reading."""
    ruled = []
    for value in ("kicked_from", "any"):
        g = Game(["Ann", "Ben"], rules={"kickout_location": value})
        g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
        g.turn("Ann", "Artists Colony")
        ruled.append(g.ok("kickout_action", player="Ben", kind="location"))
        assert g.json["rules"]["kickout_location"] == value
    assert ruled[0] == ruled[1]


@pytest.mark.parametrize(("value", "after"), [("strictly_below", 5), ("at_or_below", 9)])
def test_previous_icon(value: str, after: int) -> None:
    g = Game(["Ann", "Ben"], rules={"previous_icon": value})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ben", influence=9)  # on an icon (2, 5, 9, 14)
    g.turn("Ann", "Artists Colony")
    g.ok("kickout_action", player="Ben", kind="location")
    assert g.player("Ben")["influence"] == after


def _two_tiles_due(rules: dict[str, Any]) -> Game:
    g = Game(["Ann", "Ben"], rules=rules)
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    return g


@pytest.mark.parametrize(("value", "after_one"), [("one_named", []),
                                                  ("all", ["intermediate"])])
def test_intermediate_tiles(value: str, after_one: list[str]) -> None:
    g = _two_tiles_due({"intermediate_tiles": value})
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate", "kickout"]
    g.ok("intermediate", tile=1, qualifying=["Ann"], benefit={"money": 1})
    assert [p["decision"] for p in g.json["pending"]][:-1] == after_one


@pytest.mark.parametrize(("value", "due"), [(True, 2), (False, 1)])
def test_intermediate_per_stack(value: bool, due: int) -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_per_stack": value})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 1, "white": 5}))
    g.ok("move", player="Ann", to="Fourth Location")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("take_ticket", player="Ann", colour="brown")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate"] * due


@pytest.mark.parametrize(("value", "first"), [("before_kickout", ["intermediate", "kickout"]),
                                              ("after_kickout", ["kickout", "intermediate"])])
def test_intermediate_timing(value: str, first: list[str]) -> None:
    g = _two_tiles_due({"intermediate_timing": value})
    assert [p["decision"] for p in g.json["pending"]] == first


@pytest.mark.parametrize(("value", "ann", "ben"), [(True, 0, 15), (False, 14, 19)])
def test_majority_needs_one(value: bool, ann: int, ben: int) -> None:
    g = Game(["Ann", "Ben"], rules={"majority_needs_one": value})
    g.place_all()
    g.ok("market", player="Ben", column=3, row="upper")
    final(g)
    col3 = {n: gr["each"] for gr in g.json["scoring"]["market"]["3"] for n in gr["players"]}
    assert col3 == ({"Ben": 15} if value else {"Ben": 15, "Ann": 10})  # Ann has none there
    money = {p["name"]: p["market"] for p in g.json["scoring"]["players"]}
    assert money == {"Ann": ann, "Ben": ben}  # without: column 1's 0-0 tie pays 4 each


@pytest.mark.parametrize(("value", "ann", "ben"), [("reputation_rows", 15, 0),
                                                   ("all_rows", 12, 12)])
def test_market_majority_rows(value: str, ann: int, ben: int) -> None:
    g = Game(["Ann", "Ben"], rules={"market_majority_rows": value})
    g.place_all()
    g.ok("market", player="Ann", column=3, row="upper")
    g.ok("market", player="Ben", column=3, row="lower", cost=2)
    final(g)
    money = {p["name"]: p["market"] for p in g.json["scoring"]["players"]}
    assert money == {"Ann": ann, "Ben": ben}
    assert next(gr["players"] for gr in g.json["scoring"]["market"]["3"]) == (
        ["Ann"] if value == "reputation_rows" else ["Ann", "Ben"])


@pytest.mark.parametrize(("value", "order"), [("seat_order", ["Ann", "Ben"]),
                                              ("reverse_seat_order", ["Cy", "Ben"])])
def test_auction_tie(value: str, order: list[str]) -> None:
    g = Game(["Ann", "Ben", "Cy"], rules={"auction_tie": value})
    g.place_all()
    for n in ("Ann", "Ben", "Cy"):
        spend(g, n, 2)
    final(g)
    assert g.json["scoring"]["auction"]["order"] == order  # 2 easels


@pytest.mark.parametrize(("value", "order"), [(True, ["Ben"]), (False, ["Ben", "Ann"])])
def test_auction_needs_spend(value: bool, order: list[str]) -> None:
    g = Game(["Ann", "Ben", "Cy"], rules={"auction_needs_spend": value})
    g.place_all()
    spend(g, "Ben", 1)
    final(g)
    assert g.json["scoring"]["auction"]["order"] == order
    ann_due = g.json["scoring"]["players"][0]["auction"]
    assert ann_due == (0 if value else None)  # owed only when Ann chooses


@pytest.mark.parametrize(("value", "fame", "worth"), [("discovered", 3, 3), ("all", 11, 10)])
def test_auction_fame_from(tmp_path: Path, value: str, fame: int, worth: int) -> None:
    text = Path(FIXTURE).read_text(encoding="utf-8")
    text = text.replace('name = "RedB"\n', 'name = "RedB"\nfame = 3\n')
    text = text.replace('name = "BlueB"\n', 'name = "BlueB"\nfame = 11\n')
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    g = Game(["Ann", "Ben"], catalog=str(path), rules={"auction_fame_from": value})
    g.place_all()
    g.ok("discover", artist="RedB")  # printed fame 3; BlueB stays face down at 11
    spend(g, "Ann", 2)
    final(g)
    events = g.ok("auction_pick", player="Ann", easel="formB", counts_as="sold")
    assert (events[0]["fame"], events[0]["value"]) == (fame, worth)


@pytest.mark.parametrize(("value", "winners", "reason"), [
    (True, ["Ann"], "works_acquired"), (False, ["Ben"], "visitors")])
def test_renowned_counts_as_acquired(value: bool, winners: list[str], reason: str) -> None:
    g = Game(["Ann", "Ben"], rules={"renowned_counts_as_acquired": value})
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    g.ok("auction_pick", player="Ann", easel="formA", counts_as="sold", value=5)
    money = g.json["scoring"]["players"][0]["money"]
    g.given_player("Ann", sold=("RedA",))
    g.given_player("Ben", sold=("RedB",), money=money + 5, visitors=frozen({"pink": 1}))
    g.given(entries=tuple((n, c, 0) for n in ("Ann", "Ben") for c in TABLE))
    acquired = {p["name"]: p["works_acquired"] for p in g.json["scoring"]["players"]}
    assert acquired == {"Ann": 2 if value else 1, "Ben": 1}
    over = g.ok("final_scoring")[-1]
    assert over["totals"]["Ann"] == over["totals"]["Ben"]
    assert (over["winners"], over["reason"]) == (winners, reason)
