"""A die typed again with another value after its step's result was shown is legal (a typo is
fixed so) and public: the page marks the die ("corrected from 4 after its result") and lists
every correction that stands; one taken back with its undone step goes (issue 39)."""

from __future__ import annotations

from typing import Any

from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.test_undo_dice import gg_playing
from web import page
from web.view import Snapshots


def ok(session: Session, **request: Any) -> dict[str, Any]:
    answer = session.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def test_the_page_marks_a_corrected_die_and_lists_every_correction() -> None:
    s = gg_playing(Session(seed=SEED))
    snapshots = Snapshots()
    ok(s, cmd="move_roll", player="Ann", roll=4)
    assert snapshots.snapshot(s)["corrections"] == []
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ann", roll=6)
    step = len(s.log)
    data = snapshots.snapshot(s)
    assert data["corrections"] == [f"Ann's d6 4 → 6 (step {step})"]
    [die] = data["dice"]["dice"]
    assert (die["value"], die["corrected_from"]) == (6, 4)
    html = page.body(data)
    assert "corrected from 4 after its result" in html
    assert f"1 die corrected after its result: Ann&#x27;s d6 4 → 6 (step {step})" in html
    # a fresh page on the same game finds it too (folded from the start)
    assert Snapshots().snapshot(s)["corrections"] == data["corrections"]
    ok(s, cmd="undo")  # the correcting step taken back: its correction goes with it
    again = snapshots.snapshot(s)
    html = page.body(again)
    assert again["corrections"] == [] and "after its result" not in html  # (the log still
    # shows the undone step, marked undone)


def test_the_luck_report_says_every_correction(tmp_path: Any) -> None:
    from referee.app import open_session
    from tests.referee.storehelp import referee

    path = tmp_path / "g.sqlite"
    s = gg_playing(open_session(db=path, seed=SEED, notify=lambda _: None))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ann", roll=6)
    step = len(s.log)
    s.close()
    out = referee("report", "--db", str(path), "1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"1 die corrected after its result: Ann's d6 4 → 6 (step {step})" in out.stdout
    every = referee("report", "--db", str(path), "all")
    assert f"1 die corrected after its result: game 1: Ann's d6 4 → 6 (step {step})" \
        in every.stdout, every.stdout


def test_the_count_of_commands_is_said_in_words() -> None:
    """"1 command so far", "43 commands so far": never "command(s)"."""
    s = gg_playing(Session(seed=SEED))
    html = page.body(Snapshots().snapshot(s))
    assert f"{len(s.log)} commands so far" in html and "command(s)" not in html
    one = Session(seed=SEED)
    ok(one, cmd="new_game", players=["Ann", "Ben"])
    assert "1 command so far" in page.body(Snapshots().snapshot(one))
