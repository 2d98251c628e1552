"""A battle's dice read in one order, live and after a resume (issue 39: after a resume one
battle's dice were listed in another order). The log keeps each verdict as canonical JSON,
whose keys are sorted ("Ann", "Ben", "ally1"); the dice were rolled "Ann", "ally1", "Ben"
(the leader, the ally dice, the other participants: ART-20). Every reader orders them as
rolled: the open battle's state, the legal rerolls, the step's words and the verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.app import open_session
from referee.games.art_project.state import battle_dice
from referee.session import Session
from referee.words import step_words
from tests.referee.games.art_project.test_session import SEED, ok, to_battle


def readings(s: Session) -> dict[str, Any]:
    """Everything that lists the open battle's dice, in the order each lists them."""
    entry = next(e for e in reversed(s.log) if e.command["cmd"] == "battle")
    _title, figures = s.ruleset.verdict(entry.events)  # type: ignore[attr-defined, misc]
    return {
        "state": [d for d, _ in s.state.battle.dice],
        "shown": list(s.ruleset.state_json(s.state)["battle"]["dice"]),
        "rerolls": [r["dice"] for r in s.ruleset.legal_actions(s.state, None)
                    if r["cmd"] == "reroll"],
        "words": step_words(s.ruleset, entry.command, entry.events),
        "verdict": [f.value for f in figures if f.label == "dice"],
    }


def test_a_battles_dice_read_the_same_live_and_after_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    s = open_session(db=path, seed=SEED, notify=lambda _: None)
    to_battle(s)
    ok(s, cmd="end_phase")  # B/C -> C
    ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1, "ally1": 1, "Ben": 1})
    live = readings(s)
    assert live["state"] == ["Ann", "ally1", "Ben"]
    s.close()
    resumed = open_session(db=path, seed=SEED, notify=lambda _: None)
    try:
        assert readings(resumed) == live
    finally:
        resumed.close()


@given(st.permutations(["Ann", "ally2", "Ben", "ally1", "green", "Cy", "ally10"]))
def test_battle_dice_orders_any_key_order_as_rolled(keys: list[str]) -> None:
    verdict = {"leader": "Ben", "participants": ["Ben", "Ann", "Cy"],
               "dice": {k: i for i, k in enumerate(keys)}}
    assert [d for d, _ in battle_dice(verdict)] == [
        "Ben", "ally1", "ally2", "ally10", "Ann", "Cy", "green"]
    assert dict(battle_dice(verdict)) == verdict["dice"]
