"""The README's `check_rolls.py` (the same block as docs/verify.md's) checks the exports of all
three games: one finished game of each, with electronic rolls, passes; a tampered roll of each
is named; a game whose seed is not revealed gets one line, not a traceback (issue 24, item 5).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.app import open_session
from tests.referee.storehelp import ROOT, Clock, referee

SEED = bytes.fromhex("a5" * 32)
BOARDS = ROOT / "tests" / "referee" / "games" / "art_project" / "boards.toml"
Line = dict[str, Any]


def block(doc: str) -> str:
    text = (ROOT / doc).read_text(encoding="utf-8")
    [found] = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S)
               if "def draw(seed, index, sides)" in b]
    return str(found)


def art_game() -> list[Line]:
    """Two rounds of The A.R.T. Project on a board with catalog dice faces (house rule
    battle_die = "catalog"): a battle the box rolls, a reroll the box rolls, then a card whose
    agents run the reserve out (lost)."""
    two = ["Ann", "Ben"]
    out: list[Line] = [{"cmd": "new_game", "game": "art-project", "mission": "test-usa",
                        "difficulty": "easy", "players": [{"name": n} for n in two],
                        "catalog": str(BOARDS), "rules": {"battle_die": "catalog"}}]
    out += [{"cmd": "draw", "player": n} for n in two for _ in range(2)]
    out += [{"cmd": "play_card", "player": "Ann", "clues": ["film"]},
            {"cmd": "play_card", "player": "Ben"}]
    out += [{"cmd": "end_phase"}] * 2  # A -> A/B -> B
    out += [{"cmd": "move", "player": "Ann", "to": "Boston"},
            {"cmd": "end_phase"}, {"cmd": "end_phase"},  # B -> B/C -> C
            {"cmd": "battle", "city": "Boston", "leader": "Ann"}]
    return out


def art_finish() -> list[Line]:
    out: list[Line] = [{"cmd": "concede"}, {"cmd": "end_phase"}, {"cmd": "end_phase"}]
    out += [{"cmd": "draw", "player": n} for n in ("Ann", "Ben") for _ in range(2)]
    out.append({"cmd": "play_card", "player": "Ann", "agents": {"Denver": 40}})
    return out


def play(path: Path) -> dict[str, int]:
    """One finished game of each game in one game file, then a game left in play."""
    session = open_session(db=path, seed=SEED, clock=Clock())
    games: dict[str, int] = {}

    def run(requests: list[Line]) -> None:
        for request in requests:
            if request["cmd"] in ("state", "catalog", "check"):
                continue
            assert session.handle(request)["ok"], request

    run([json.loads(x) for x in (ROOT / "tests" / "referee" / "games" / "three_players.jsonl")
         .read_text().splitlines()])
    assert session.state.over
    games["gallery-grippers"] = len(games) + 1
    run([json.loads(x) for x in (ROOT / "tests" / "referee" / "games" / "gallerist" /
                                 "game.jsonl").read_text().splitlines()])
    assert session.state.over
    games["gallerist"] = len(games) + 1
    run(art_game())
    if session.state.battle is not None and session.state.chain:  # a reroll the box rolls
        die = next(iter(dict(session.state.battle.dice)))
        run([{"cmd": "reroll", "card": session.state.chain[0].id, "dice": [die]}])
    if session.state.battle is not None:
        run(art_finish())
    else:  # (won at once: the rest of the round, then the card)
        run(art_finish()[1:])
    assert session.state.over
    games["art-project"] = len(games) + 1
    run([{"cmd": "new_game", "players": ["Zoe", "Yan"]}])  # in play: its seed is secret
    games["in play"] = len(games) + 1
    session.close()
    return games


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("check_rolls")
    games = play(folder / "g.sqlite")
    out = {}
    for name, number in games.items():
        done = referee("export", str(number), "--db", str(folder / "g.sqlite"),
                       "--format", "jsonl")
        assert done.returncode == 0, done.stderr
        out[name] = folder / f"{number}.jsonl"
        out[name].write_text(done.stdout, encoding="utf-8")
    return out


def check(tmp_path: Path, export: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check_rolls.py"
    script.write_text(block("README.md"), encoding="utf-8")
    return subprocess.run([sys.executable, "-I", str(script), str(export)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


def electronic(path: Path) -> list[Line]:
    return [e for line in path.read_text().splitlines()
            for e in json.loads(line).get("events", [])
            if e["type"] == "roll" and e["source"] == "electronic"]


def test_the_readme_and_verify_md_hold_the_same_15_lines() -> None:
    assert block("README.md") == block("docs/verify.md")
    assert len(block("README.md").strip().splitlines()) <= 15


@pytest.mark.parametrize("game", ["gallery-grippers", "gallerist", "art-project"])
def test_a_finished_game_of_each_game_checks(exports: dict[str, Path], tmp_path: Path,
                                             game: str) -> None:
    rolls = electronic(exports[game])
    assert rolls, "the game must have electronic rolls to check"
    if game == "art-project":
        assert {e["die"] for e in rolls} == {"face"}  # the catalog's faces, not 1-6
    out = check(tmp_path, exports[game])
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip() == (f"commitment OK; {len(rolls)} of {len(rolls)} electronic "
                                  "rolls follow from the seed")


@pytest.mark.parametrize("game", ["gallery-grippers", "gallerist", "art-project"])
def test_a_tampered_roll_of_each_game_is_named(exports: dict[str, Path], tmp_path: Path,
                                              game: str) -> None:
    lines = [json.loads(x) for x in exports[game].read_text().splitlines()]
    roll = next(e for x in lines for e in x.get("events", [])
                if e["type"] == "roll" and e["source"] == "electronic")
    roll["value"] = roll["value"] + 7
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = check(tmp_path, bad)
    assert out.returncode == 1
    assert f"BAD roll #{roll['index']} " in out.stdout
    assert f"shows {roll['value']}, the seed gives" in out.stdout


def test_a_game_whose_seed_is_secret_gets_one_line_not_a_traceback(
        exports: dict[str, Path], tmp_path: Path) -> None:
    out = check(tmp_path, exports["in play"])
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert out.stderr.strip().count("\n") == 0
    assert "not revealed" in out.stderr
