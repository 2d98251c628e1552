"""Undo and the dice of the step it takes back, for every game (issue 24, item 2):

- a value the tray read stays on the table exactly like an electronic one: the next roll of
  that die reuses it (marked kept), a typed or tray value for it is refused (`die_kept`), and
  it survives a resume from the game file;
- a typed value is not kept (undo is how a mistyped number is fixed), but never silently:
  a different value for the same die after the undo is a `die_corrected` event in that step,
  worded "corrected: 4 → 6" by `referee.words.core_words` for every front end;
- the undo prompt's words say which of the two each die of the step is
  (`referee.words.undo_dice_words`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.app import open_session
from referee.dice import Roll
from referee.session import Session
from referee.words import core_words, step_words, undo_dice_lines, undo_dice_words
from tests.referee.games.art_project.test_session import SEED, to_battle
from tests.referee.games.playing import resumes_and_verifies


def ok(session: Session, **request: Any) -> dict[str, Any]:
    answer = session.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def rolls(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in answer["events"] if e["type"] == "roll"}


def gg_playing(session: Session) -> Session:
    for request in (
        {"cmd": "new_game", "players": ["Ann", "Ben"]},
        {"cmd": "deal", "player": "Ann", "specialists": ["Hacker"] * 3,
         "attributes": ["More Tech"] * 3},
        {"cmd": "deal", "player": "Ben", "specialists": ["Lookout"] * 3,
         "attributes": ["Smoke Bomb"] * 3},
        {"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}},
    ):
        assert session.handle(request)["ok"], request
    return session


# ---- the tray's dice stay ---------------------------------------------------------------------

def test_a_gallery_grippers_tray_roll_stays_on_the_table_through_undo() -> None:
    s = gg_playing(Session(seed=SEED))
    first = ok(s, cmd="move_roll", player="Ann", roll=4, via="tray")
    assert rolls(first)["Ann"]["via"] == "tray"
    undone = ok(s, cmd="undo")["events"][0]
    assert [(k["roll"]["value"], k["roll"]["via"]) for k in undone["kept"]] == [(4, "tray")]
    refused = s.handle({"cmd": "move_roll", "player": "Ann", "roll": 6, "via": "tray"})
    assert refused["error"]["code"] == "die_kept" and "4" in refused["error"]["message"]
    again = rolls(ok(s, cmd="move_roll", player="Ann"))["Ann"]  # no value: the kept one
    assert (again["value"], again["source"], again["via"], again["kept"]) == (
        4, "physical", "tray", True)
    assert s.kept == ()


def test_an_art_project_battle_s_tray_dice_stay_and_survive_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    s = open_session(db=path, seed=SEED, notify=lambda _: None)
    to_battle(s)
    read = {"Ann": 4, "ally1": 2, "Ben": 5}
    s.apply(replace(s.ruleset.parse({"cmd": "battle", "city": "Film", "leader": "Ann"}),
                    rolls={d: Roll.physical("d6", v, via="tray") for d, v in read.items()}))
    ok(s, cmd="undo")
    s.close()
    s = open_session(db=path, seed=SEED, notify=lambda _: None)  # the box restarted
    assert sorted((k.id, k.roll.value, k.roll.via) for k in s.kept) == sorted(
        (d, v, "tray") for d, v in read.items())
    again = rolls(ok(s, cmd="battle", city="Film", leader="Ann"))
    assert {d: (e["value"], e["via"], e["kept"]) for d, e in again.items()} == {
        d: (v, "tray", True) for d, v in read.items()}
    ok(s, cmd="reveal")
    resumes_and_verifies(s, path, "art-project", SEED)


def test_typed_dice_are_still_not_kept() -> None:
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    assert s.kept == ()
    assert rolls(ok(s, cmd="move_roll", player="Ann", roll=5))["Ann"]["value"] == 5


# ---- typed dice: a correction is said ---------------------------------------------------------

def test_typed_battle_dice_typed_again_differently_are_a_correction() -> None:
    s = Session(seed=SEED)
    to_battle(s)
    ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 4, "ally1": 3, "Ben": 2})
    undone = ok(s, cmd="undo")["events"][0]
    assert [(k["id"], k["roll"]["value"]) for k in undone["typed"]] == [
        ("Ann", 4), ("ally1", 3), ("Ben", 2)]
    answer = ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 6, "ally1": 3,
                                                                   "Ben": 6})
    fixed = [e for e in answer["events"] if e["type"] == "die_corrected"]
    assert [(e["id"], e["player"], e["purpose"], e["was"], e["now"]) for e in fixed] == [
        ("Ann", "Ann", "battle", 4, 6), ("Ben", "Ben", "battle", 2, 6)]  # ally1: unchanged
    assert core_words(answer["events"]) == ["corrected: Ann's d6 4 → 6, Ben's d6 2 → 6"]
    entry = s.log[-1]
    assert "corrected: Ann's d6 4 → 6" in step_words(s.ruleset, entry.command, entry.events)
    [verdict] = [e for e in answer["events"] if e["type"] == "battle"]
    assert verdict["won"] and "Film" in s.state.fought  # folded: every evolve takes it


def test_a_correction_is_said_once_and_the_same_value_says_nothing() -> None:
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    same = ok(s, cmd="move_roll", player="Ann", roll=4)
    assert not [e for e in same["events"] if e["type"] == "die_corrected"]
    ok(s, cmd="undo")
    fixed = ok(s, cmd="move_roll", player="Ann", roll=6)
    assert [(e["was"], e["now"]) for e in fixed["events"] if e["type"] == "die_corrected"] \
        == [(4, 6)]
    ok(s, cmd="move", player="Ann", tile="plain")
    ok(s, cmd="end_turn", player="Ann")
    later = ok(s, cmd="move_roll", player="Ben", roll=2)
    assert not [e for e in later["events"] if e["type"] == "die_corrected"]


def test_a_correction_survives_a_resume_and_is_not_said_twice(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    s = open_session(db=path, seed=SEED, notify=lambda _: None)
    gg_playing(s)
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    s.close()
    s = open_session(db=path, seed=SEED, notify=lambda _: None)
    fixed = ok(s, cmd="move_roll", player="Ann", roll=6)
    assert [(e["was"], e["now"]) for e in fixed["events"] if e["type"] == "die_corrected"] \
        == [(4, 6)]
    live = s.ruleset.state_json(s.state)
    s.close()
    s = open_session(db=path, seed=SEED, notify=lambda _: None)
    assert s.ruleset.state_json(s.state) == live
    ok(s, cmd="move", player="Ann", tile="plain")
    s.close()


def test_a_typed_die_rolled_by_the_box_instead_is_said_too() -> None:
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move_roll", player="Ann", roll=1)
    ok(s, cmd="undo")
    boxed = ok(s, cmd="move_roll", player="Ann")
    value = rolls(boxed)["Ann"]["value"]
    said = [(e["was"], e["now"], e["source"]) for e in boxed["events"]
            if e["type"] == "die_corrected"]
    assert said == ([] if value == 1 else [(1, value, "electronic")])


# ---- the undo prompt's words ------------------------------------------------------------------

def test_the_undo_prompt_says_what_happens_to_each_kind_of_die() -> None:
    s = Session(seed=SEED)
    to_battle(s)
    ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 4, "ally1": 3})  # Ben: box
    target = s.undo_target()
    assert target is not None
    words = undo_dice_words(target.events) or ""
    box = rolls({"events": target.events})["Ben"]["value"]
    assert f"({box}) stay on the table" in words
    assert "Typed dice (4, 3) are not kept" in words and "correction" in words
    assert "undo never rerolls" not in words
    assert undo_dice_lines(target.events) == (
        f"The die stays ({box}): the next roll gives it again.",
        "Typed dice (4, 3): type them again; a change is logged.")


def test_a_step_without_dice_says_nothing_of_dice() -> None:
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move_roll", player="Ann", roll=4, via="tray")
    target = s.undo_target()
    assert target is not None
    assert undo_dice_words(target.events) == ("The dice the box rolled or the tray read (4) "
                                              "stay on the table: the next roll of the same "
                                              "die gives them again.")
    ok(s, cmd="move", player="Ann", tile="plain")
    target = s.undo_target()
    assert target is not None and undo_dice_words(target.events) is None
    assert undo_dice_lines(target.events) == ()


def test_the_issue_s_table_typed_4_3_2_1_undone_then_6_6_6_6_says_each_correction() -> None:
    """Issue 24's table: four typed dice of a lost battle, undo, the same battle typed 6 6 6 6:
    won, and every changed die said, never silently."""
    s = Session(seed=SEED)
    for request in ({"cmd": "new_game", "game": "art-project", "mission": "test-board",
                     "difficulty": "hard", "players": [{"name": "Ann"}, {"name": "Ben"}]},
                    *[{"cmd": "draw", "player": n} for n in ("Ann", "Ann", "Ben", "Ben")],
                    {"cmd": "play_card", "player": "Ann"}, {"cmd": "play_card", "player": "Ben"},
                    {"cmd": "end_phase"}, {"cmd": "unlock_ally"}, {"cmd": "unlock_ally"},
                    {"cmd": "end_phase"}, {"cmd": "move", "player": "Ann", "to": "Film"},
                    {"cmd": "move", "player": "Ben", "to": "Film"}, {"cmd": "end_phase"},
                    {"cmd": "end_phase"}):
        ok(s, **request)
    dice = ["Ann", "ally1", "ally2", "Ben"]
    lost = ok(s, cmd="battle", city="Film", leader="Ann", rolls=dict(zip(dice, (4, 3, 2, 1),
                                                                          strict=True)))
    assert s.state.battle is not None and rolls(lost)["Ann"]["via"] == "typed"
    ok(s, cmd="undo")
    won = ok(s, cmd="battle", city="Film", leader="Ann", rolls=dict.fromkeys(dice, 6))
    [verdict] = [e for e in won["events"] if e["type"] == "battle"]
    assert verdict["won"]
    assert core_words(won["events"]) == [
        "corrected: Ann's d6 4 → 6, ally1's d6 3 → 6, ally2's d6 2 → 6, Ben's d6 1 → 6"]


def test_verify_counts_every_correction_in_its_verdict(tmp_path: Path) -> None:
    """A correction is public in `referee verify` too: the verdict names each die corrected
    after its result, and one taken back with its undone step is not counted."""
    from tests.referee.storehelp import referee

    path = tmp_path / "g.sqlite"
    s = gg_playing(open_session(db=path, seed=SEED, notify=lambda _: None))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ann", roll=6)  # corrected: 4 -> 6, and it stands
    step = len(s.log)
    ok(s, cmd="move", player="Ann", tile="plain")
    ok(s, cmd="end_turn", player="Ann")
    ok(s, cmd="move_roll", player="Ben", roll=2)
    ok(s, cmd="undo")
    ok(s, cmd="move_roll", player="Ben", roll=3)  # corrected: 2 -> 3 ...
    ok(s, cmd="undo")  # ... and that step taken back with its correction
    ok(s, cmd="reveal")
    s.close()
    out = referee("verify", "--db", str(path), "1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("VERDICT: GOOD — 1 die corrected after its result: Ann's d6 4 → 6 (step "
            f"{step}).") in out.stdout, out.stdout
    assert out.stdout.count("→") == 2  # the note and the verdict; Ben's, taken back: never
