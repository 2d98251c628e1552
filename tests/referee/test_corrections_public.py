"""Every die corrected after its result is named wherever the game is read afterwards
(issue 39: corrections are public): the BG Stats export's play, beside `referee verify`
(tests/referee/test_undo_dice.py) and the luck report (tests/web/test_corrections.py)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.app import open_session
from tests.referee.storehelp import referee
from tests.referee.test_undo_dice import SEED, gg_playing, ok


def corrected_game(path: Path) -> int:
    """A game whose typed d6 was corrected 4 -> 6 (it stands) and 2 -> 3 (taken back with its
    step); the step of the correction that stands."""
    s = gg_playing(open_session(db=path, seed=SEED, notify=lambda _: None))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ann", roll=6)
    step = len(s.log)
    ok(s, cmd="move", player="Ann", tile="plain")
    ok(s, cmd="end_turn", player="Ann")
    ok(s, cmd="move_roll", player="Ben", roll=2)
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ben", roll=3)
    ok(s, cmd="undo")
    s.close()
    return step


def test_the_bgstats_play_names_each_correction_that_stands(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    step = corrected_game(path)
    out = referee("export", "1", "--db", str(path), "--format", "bgstats")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"about", "players", "locations", "games", "plays"}  # BG Stats'
    [play] = data["plays"]
    assert play["comments"].endswith(
        f". 1 die corrected after its result: Ann's d6 4 → 6 (step {step}).")
    assert "2 → 3" not in play["comments"]  # taken back with its step


def test_a_play_without_corrections_says_nothing_of_them(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    s = gg_playing(open_session(db=path, seed=SEED, notify=lambda _: None))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    s.close()
    out = referee("export", "1", "--db", str(path), "--format", "bgstats")
    assert "corrected" not in json.loads(out.stdout)["plays"][0]["comments"]
