"""Each of Gallery Grippers' seven house rules (referee/games/gallery_grippers/settings.py;
docs/house-rules.md), one test each: the same table ruled with the default and with another
value, so the test fails if the setting stops deciding its point."""

from __future__ import annotations

import pytest

from referee.games.gallery_grippers.settings import HouseRules
from tests.referee.conftest import start
from tests.referee.test_rules import BIG, CAT, M1, _carry, _caught, ann_and_ben


def test_every_setting_has_a_test_here() -> None:
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(HouseRules().to_json()) <= tested


@pytest.mark.parametrize("value", ["rps", "reroll"])
def test_tiebreak(value: str) -> None:
    t = start(["Ann", "Ben", "Cy"], rolls={"Ann": 6, "Ben": 6, "Cy": 3},
              rules={"tiebreak": value})
    if value == "rps":
        t.ok("tiebreak", winner="Ben")
    else:
        t.no("tiebreak", "reroll_required", "GG-3", winner="Ben")
        t.ok("turn_order", rolls={"Ann": 2, "Ben": 4})
    assert t.state["current"] == "Ben"


@pytest.mark.parametrize(("value", "ok", "refused"), [("1-100", 100, 0), ("0-99", 0, 100)])
def test_percentile(value: str, ok: int, refused: int) -> None:
    t = ann_and_ben(percentile=value)
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    t.no("bypass", "roll_out_of_range", "GG-7", player="Ann", roll=refused)
    [bypass] = t.events(t.ok("bypass", player="Ann", roll=ok), "bypass")
    assert bypass["roll"] == ok


@pytest.mark.parametrize(("value", "success"), [(100, False), (90, True)])
def test_bypass_target(value: int, success: bool) -> None:
    t = ann_and_ben(bypass_target=value)
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    [b] = t.events(t.ok("bypass", player="Ann", specialist="Hacker", roll=65), "bypass")
    assert b["total"] == 65 + 30 and b["target"] == value and b["success"] is success


@pytest.mark.parametrize(("value", "pending"), [(True, ["second_strike"]), (False, [])])
def test_caught_keep_forces_exit(value: bool, pending: list[str]) -> None:
    t = start(rules={"caught_keep_forces_exit": value})
    _caught(t, 0)
    t.ok("choose", player="Ann", choice="keep")
    assert t.player("Ann")["strikes"] == 2
    assert [p["decision"] for p in t.state["pending"]] == pending


@pytest.mark.parametrize(("value", "bonus"), [(None, 200_000_000), (0, 0), (5, 5)])
def test_fence_bonus_per_extra_piece(value: int | None, bonus: int) -> None:
    rules: dict[str, int] = {"win_money": 10**12}
    if value is not None:
        rules["fence_bonus_per_extra_piece"] = value
    t = start(rules=rules)
    pieces = sorted(CAT.museums[M1], key=lambda a: a.value)[:2]
    _carry(t, pieces)
    t.ok("move", player="Ann", tile="black_market", roll=4)
    [sold] = t.events(t.ok("sell", player="Ann"), "sold")
    assert sold["fence_bonus"] == bonus
    assert t.player("Ann")["money"] == sum(a.value for a in pieces) + bonus


@pytest.mark.parametrize(("value", "won"), [(None, False), (BIG.value, True)])
def test_win_money(value: int | None, won: bool) -> None:
    t = start(rules={} if value is None else {"win_money": value})
    _carry(t, [BIG])
    t.ok("move", player="Ann", tile="black_market", roll=4)
    answer = t.ok("sell", player="Ann")
    assert bool(t.events(answer, "game_over")) is won
    assert t.state["over"] is won


@pytest.mark.parametrize(("value", "pending"), [(None, []), (6, ["reup"])])
def test_reup_at_or_below(value: int | None, pending: list[str]) -> None:
    t = start(["Ann", "Ben"], rules={} if value is None else {"reup_at_or_below": value})
    assert [p["decision"] for p in t.state["pending"]] == pending
