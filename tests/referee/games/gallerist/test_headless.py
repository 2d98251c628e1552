"""A whole game of The Gallerist through `referee headless` (a real subprocess) from a JSON-
lines script (game.jsonl, written by make_games.py): setup, the clock, the end trigger, the
final round and the final scoring; then the game file resumed and verified."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ROOT = HERE.parents[3]
SEED = "5a" * 32


def headless(lines: list[str], *args: str) -> list[dict[str, Any]]:
    proc = subprocess.run([sys.executable, "-m", "referee", "headless", *args],
                          input="".join(lines), capture_output=True, text=True,
                          timeout=120, check=True, cwd=ROOT)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(lines)  # exactly one answer per line
    return answers


def test_a_whole_game_setup_clock_and_final_scoring(tmp_path: Path) -> None:
    script = (HERE / "game.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    db = tmp_path / "games.sqlite"
    answers = headless(script, "--seed", SEED, "--db", str(db))
    for line, answer in zip(script, answers, strict=True):
        assert answer["ok"], (line, answer)
        state = answer.get("state")
        if state and state.get("players"):
            assert state["next"]
            for p in state["players"]:
                a = p["assistants"]
                assert a["queue"] + a["in_play"] + a["removed"] == 10 and p["money"] >= 0
    events = [e for a in answers for e in a.get("events", [])]
    start = answers[0]["state"]
    assert start["setup"]["easels"] == 1 and start["setup"]["middle_column"] is False
    assert start["tickets"] == {"pink": 10, "brown": 10, "white": 10}
    kicked = [e for e in events if e["type"] == "kicked_out"]
    assert kicked[0] == {"type": "kicked_out", "player": "Ann", "piece": "assistant",
                         "location": "Media Centre"}
    assert kicked[-1]["returned"] == "gallery"  # in the final round, back at once
    assert [e["artist"] for e in events if e["type"] == "celebrity"] == ["BlueA", "RedA"]
    [trig] = [e for e in events if e["type"] == "end_triggered"]
    assert trig["round"] == 2 and trig["conditions"] == ["celebrities", "bag_empty"]
    scoring = answers[-2]["state"]["scoring"]
    figures = {p["name"]: p for p in scoring["players"]}
    ann, ben = figures["Ann"], figures["Ben"]
    assert (ann["money"], ann["market"], ann["exhibited"], ann["auction"]) == (12, 4, 15, 0)
    assert (ben["money"], ben["market"], ben["exhibited"], ben["auction"]) == (24, 4, 0, 15)
    assert ann["reputation"] == 4  # the mis-entry of 40 was undone
    for p in (ann, ben):
        assert p["total"] == p["money"] + sum(p[c] for c in (
            "market", "reputation", "exhibited", "auction", "curator", "dealer", "influence"))
        assert p["table"] == ["reputation", "curator", "dealer", "influence"]
    assert scoring["market"]["1"] == [{"players": ["Ann", "Ben"], "assistants": 1,
                                       "places": [1, 2], "pot": 9, "each": 4}]
    assert ben["terms"]["dealer"] == ["BlueA", "renowned formA"]
    final = answers[-1]["state"]
    assert final["over"] and final["seed"] == SEED
    assert final["result"] == {"outcome": "won", "winners": ["Ben"], "reason": "money",
                               "rule": "GAL-24"}
    # the game file: resumed as it was, and verified (the start draw and the bag draws)
    again = headless(['{"cmd": "state"}\n'], "--db", str(db))
    assert again[0]["state"] == final
    proc = subprocess.run([sys.executable, "-m", "referee", "verify", "--db", str(db)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "VERDICT: GOOD" in proc.stdout, proc.stdout + proc.stderr
    assert "3 box draw(s) match the pile" in proc.stdout
