"""A typed die given another value after an undo is asked about first, naming what it changes
(issue 39: corrections are public): `Session.retype` says it in the ruleset's words, changes
nothing, and asks nothing of a die the table does not give."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.session import Session
from tests.referee.games.art_project.test_session import to_battle
from tests.referee.test_undo_dice import SEED, gg_playing, ok

BYPASS = {"cmd": "bypass", "player": "Ann", "specialist": ["Hacker"],
          "attribute": ["More Tech"]}


def at_the_alarm() -> Session:
    """Ann at the Alarm of the Louvre (needs 100; her cards add 50), her typed bypass of 3
    failed (a strike) and taken back."""
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move", player="Ann", tile="alarm", museum="The Louvre", roll=2)
    ok(s, **BYPASS, roll=3)
    ok(s, cmd="undo")
    return s


def retype(s: Session, request: dict[str, Any]) -> str | None:
    found = s.retype(s.ruleset.parse(request))
    return None if found is None else found.words()


def test_a_retyped_bypass_names_the_verdict_and_the_strike_it_changes() -> None:
    s = at_the_alarm()
    assert retype(s, {**BYPASS, "roll": 95}) == (
        "This changes Ann's d100 from 3 to 95. Ann's bypass at the Alarm: the verdict goes "
        "from failed to bypassed; Ann's strikes from 1 of 3 to 0 of 3. Record it?")


def test_a_retype_that_changes_nothing_says_so() -> None:
    s = at_the_alarm()
    assert retype(s, {**BYPASS, "roll": 4}) == (
        "This changes Ann's d100 from 3 to 4: the outcome does not change. Record it?")


def test_the_same_value_or_a_box_roll_asks_nothing() -> None:
    s = at_the_alarm()
    assert retype(s, {**BYPASS, "roll": 3}) is None  # not a correction
    assert retype(s, BYPASS) is None  # the box rolls: not known before it is rolled


def test_asking_changes_nothing_and_the_roll_after_it_is_the_same() -> None:
    s = at_the_alarm()
    log, state, position = len(s.log), s.ruleset.state_json(s.state), s.stream_position
    assert retype(s, {**BYPASS, "roll": 95}) is not None
    assert (len(s.log), s.ruleset.state_json(s.state), s.stream_position) == (
        log, state, position)
    fixed = ok(s, **BYPASS, roll=95)
    assert [(e["was"], e["now"]) for e in fixed["events"] if e["type"] == "die_corrected"] \
        == [(3, 95)]
    assert retype(s, {"cmd": "end_turn", "player": "Ann"}) is None  # answered: forgotten


def test_a_lost_battle_retyped_to_a_win_names_the_verdict() -> None:
    s = Session(seed=SEED)
    to_battle(s)
    ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1, "ally1": 1, "Ben": 1})
    assert s.state.battle is not None  # not won
    ok(s, cmd="undo")
    said = retype(s, {"cmd": "battle", "city": "Film", "leader": "Ann",
                      "rolls": {"Ann": 6, "ally1": 6, "Ben": 6}}) or ""
    assert said.startswith("This changes Ann's d6 from 1 to 6, ally1's d6 from 1 to 6 and "
                           "Ben's d6 from 1 to 6. Battle in Film, led by Ann: the verdict goes "
                           "from not yet won to won"), said
    assert said.endswith("Record it?")


def test_a_battle_that_leaves_dice_to_the_box_says_what_it_changes_is_not_known() -> None:
    s = Session(seed=SEED)
    to_battle(s)
    ok(s, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1, "ally1": 1, "Ben": 1})
    ok(s, cmd="undo")
    position = s.stream_position
    assert retype(s, {"cmd": "battle", "city": "Film", "leader": "Ann",
                      "rolls": {"Ann": 6}}) == (
        "This changes Ann's d6 from 1 to 6: the box rolls the step's other dice, so what it "
        "changes is known only once they are rolled. Record it?")
    assert s.stream_position == position  # nothing drawn to say it


def test_a_movement_roll_says_what_comes_next_in_the_ruleset_s_words() -> None:
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move_roll", player="Ann", roll=4)
    ok(s, cmd="undo")
    assert retype(s, {"cmd": "move_roll", "player": "Ann", "roll": 6}) == (
        "This changes Ann's d6 from 4 to 6. Next: Ann must say where the pawn landed "
        "(rolled 6). Record it?")


def test_on_another_base_only_the_verdict_is_compared() -> None:
    """The bypass taken back, and the step before it too, then the move made again: the
    state the new bypass applies to is not the one the undone bypass did (another step
    stands below it), so only the verdicts are compared (no figure of another base)."""
    s = at_the_alarm()
    ok(s, cmd="undo")  # the move
    ok(s, cmd="move", player="Ann", tile="alarm", museum="The Louvre", roll=2)
    assert retype(s, {**BYPASS, "roll": 95}) == (
        "This changes Ann's d100 from 3 to 95. Ann's bypass at the Alarm: the verdict goes "
        "from failed to bypassed. Record it?")


def test_undo_and_reveal_ask_nothing_while_a_typed_die_waits() -> None:
    """Undo again (or reveal) after a typed step was taken back is no correction: asked
    nothing (a front end asks before every command it sends)."""
    from referee.ruleset import Reveal, Undo

    for s in (at_the_alarm(), gg_playing(Session(seed=SEED))):
        assert s.retype(Undo()) is None and s.retype(Reveal()) is None


@settings(max_examples=40, deadline=None)
@given(first=st.integers(1, 100), second=st.integers(1, 100))
def test_what_is_asked_is_what_is_recorded(first: int, second: int) -> None:
    """For any two typed bypass values: asked only when they differ; the verdict named is
    the one the recorded step holds, and "does not change" only when it is the same; asking
    changes nothing (the state, the log and the dice stream as they were)."""
    s = gg_playing(Session(seed=SEED))
    ok(s, cmd="move", player="Ann", tile="alarm", museum="The Louvre", roll=2)
    was = ok(s, **BYPASS, roll=first)["events"]
    ok(s, cmd="undo")
    before = (len(s.log), s.ruleset.state_json(s.state), s.stream_position)
    asked = s.retype(s.ruleset.parse({**BYPASS, "roll": second}))
    assert (len(s.log), s.ruleset.state_json(s.state), s.stream_position) == before
    now = ok(s, **BYPASS, roll=second)["events"]
    assert (asked is None) == (first == second)
    old, new = s.ruleset.verdict(was)[1][-1].value, s.ruleset.verdict(now)[1][-1].value
    if asked is not None:
        said = asked.words()
        assert (f"the verdict goes from {old} to {new}" in said) == (old != new)
        assert ("the outcome does not change" in said) == (not asked.changes)
        if old != new:
            assert asked.changes
