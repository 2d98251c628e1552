"""Whole cooperative games of The A.R.T. Project played through `referee headless` (a real
subprocess) from JSON-lines scripts: one to a win, one to each kind of loss (ART-26, ART-27).
The scripts are written by make_games.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[3]
SEED = "5a" * 32


def play(name: str) -> tuple[list[str], list[dict[str, Any]]]:
    script = (HERE / name).read_text(encoding="utf-8").splitlines(keepends=True)
    proc = subprocess.run([sys.executable, "-m", "referee", "headless", "--seed", SEED],
                          input="".join(script), capture_output=True, text=True,
                          timeout=120, check=True, cwd=ROOT)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(script)  # exactly one answer per line
    for line, answer in zip(script, answers, strict=True):
        assert answer["ok"], (line, answer)
    return script, answers


def test_a_whole_game_to_a_win() -> None:
    _, answers = play("win.jsonl")
    final = answers[-1]["state"]
    assert final["game"] == "art-project" and final["over"]
    assert final["result"] == {"outcome": "won", "winners": ["Ann", "Ben"],
                               "reason": "track_full", "rule": "ART-26"}
    assert final["artwork"]["track"] == final["artwork"]["spaces"] == 7
    assert final["seed"] == SEED and final["hall_of_fame"] == [
        {"mission": "test-board", "difficulty": "easy", "won": 1, "lost": 0}]
    events = [e for a in answers for e in a.get("events", [])]
    kinds = {e["type"] for e in events}
    assert {"battle", "collected", "uncovered", "ally_unlocked", "paid", "gained"} <= kinds
    battles = [e for e in events if e["type"] == "battle"]
    assert all(b["strength"] == b["dice_sum"] + b["weapon_bonus"] for b in battles)
    assert all(b["agents_strength"] == b["city_agents"] + b["threat"] + b["hq"]
               for b in battles)
    assert [b["won"] for b in battles].count(True) >= 1
    for a in answers:  # the counts hold on every line
        s = a.get("state")
        if s and "van" in s:
            assert all(s["van"][r] + s["reserve"][r] == 6 for r in s["van"])
            assert sum(p["health"] for p in s["players"]) + s["health_reserve"] == 25
            ag = s["agents"]
            assert sum(ag["cities"].values()) + ag["hq"] + ag["reserve"] == 40


@pytest.mark.parametrize("reason", ["health", "agents", "lost_markers", "surrounded",
                                    "final_card", "rio_district"])
def test_a_whole_game_to_each_kind_of_loss(reason: str) -> None:
    _, answers = play(f"lost_{reason}.jsonl")
    final = answers[-1]["state"]
    assert final["result"] == {"outcome": "lost", "winners": [], "reason": reason,
                               "rule": "ART-27"}
    assert final["over"] and final["next"].startswith("The game is over")
    over = [e for a in answers for e in a.get("events", []) if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["reason"] == reason
