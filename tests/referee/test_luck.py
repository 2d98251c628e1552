"""The luck report (referee/luck.py): counts per player, die and source, chi-square p-values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.luck import LuckFold, Tally, bin_of, chi_square_sf, faces, luck
from referee.running import LogEntry
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream

# Critical values of the chi-square distribution (any statistics table): P(X >= x) = p.
TABLE = [(3.841, 1, 0.05), (6.635, 1, 0.01), (11.070, 5, 0.05), (15.086, 5, 0.01),
         (16.919, 9, 0.05), (21.666, 9, 0.01), (4.351, 5, 0.5), (1.145, 5, 0.95),
         (123.225, 99, 0.05)]


@pytest.mark.parametrize(("x", "dof", "p"), TABLE)
def test_chi_square_tail_matches_the_tables(x: float, dof: int, p: float) -> None:
    assert chi_square_sf(x, dof) == pytest.approx(p, abs=5e-4)


def test_chi_square_tail_edges() -> None:
    assert chi_square_sf(0.0, 5) == 1.0
    assert chi_square_sf(1e6, 5) == 0.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi_square_sf(1.0, 0)


@given(st.floats(0, 400), st.floats(0, 400), st.integers(1, 120))
def test_the_tail_falls_as_the_statistic_grows(a: float, b: float, dof: int) -> None:
    lo, hi = sorted((a, b))
    assert 0.0 <= chi_square_sf(hi, dof) <= chi_square_sf(lo, dof) + 1e-12 <= 1.0 + 1e-12


def test_a_fair_looking_die_and_a_loaded_one() -> None:
    fair = Tally("Ann", "d6", "electronic", [10, 10, 10, 10, 10, 10])
    assert fair.expected == 10 and fair.chi_square == 0 and fair.p_value == 1.0
    loaded = Tally("Ben", "d6", "physical", [2, 2, 2, 2, 2, 50])
    assert loaded.p_value is not None and loaded.p_value < 1e-6
    assert Tally("Cy", "d10", "physical").p_value is None  # no rolls, no verdict


@given(st.sampled_from(["1-100", "0-99"]))
def test_d100_bins_by_its_tens_die_in_both_modes(mode: str) -> None:
    values = range(1, 101) if mode == "1-100" else range(0, 100)
    counts = [0] * 10
    for v in values:
        counts[bin_of("d100", v)] += 1
    assert counts == [10] * 10  # each bin equally likely on a fair die
    assert len(faces("d100")) == 10 and faces("d6") == ["1", "2", "3", "4", "5", "6"]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 220))
def test_every_die_of_the_game_as_it_stands_is_counted_once(n: int) -> None:
    session = Session(seed=SEED)
    for request in long_stream(n):
        assert session.handle(request)["ok"]
    ruleset = session.ruleset
    expected: dict[tuple[str, str, str], int] = {}
    for entry in session.log:
        if entry.undone:
            continue
        for r in ruleset.rolled(entry.command, entry.events):
            if r.roll is not None and r.roll.die != "pick":
                key = (r.player or "table", r.roll.die,
                       "physical" if r.roll.source == "physical" else "electronic")
                expected[key] = expected.get(key, 0) + 1
    report = luck(session.log, ruleset)
    assert {(t.player, t.die, t.source): t.rolls for t in report.tallies} == expected


def test_an_undone_step_is_not_counted() -> None:
    gg = games.default()
    roll = {"type": "roll", "player": "Ann", "die": "d6", "value": 6, "source": "physical",
            "via": "typed", "id": "Ann", "purpose": "move"}
    kept = LogEntry(1, {"cmd": "move", "player": "Ann"}, [roll])
    gone = LogEntry(2, {"cmd": "move", "player": "Ann"}, [{**roll, "value": 1}], undone=True)
    report = luck([kept, gone], gg)
    assert [(t.player, t.source, t.counts) for t in report.tallies] == [
        ("Ann", "physical", [0, 0, 0, 0, 0, 1])]


FOLD_STREAM = long_stream(260)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=40), st.integers(0, 259))
def test_the_fold_gives_what_luck_gives_after_any_steps(gaps: list[int], restart: int) -> None:
    """Looked at after every few steps (undos among them, an undone step sometimes added and
    taken back between two looks), the fold's report is luck()'s over the whole log; a new
    game (a shorter log) starts it again."""
    session = Session(seed=SEED)
    fold = LuckFold(session.ruleset)
    done = 0
    for gap in gaps:
        for request in FOLD_STREAM[done:done + gap]:
            assert session.handle(request)["ok"]
        done = min(done + gap, len(FOLD_STREAM))
        assert fold.update(session.log).to_json() == luck(session.log, session.ruleset).to_json()
    session = Session(seed=SEED)
    for request in FOLD_STREAM[:restart % max(1, done)]:
        assert session.handle(request)["ok"]
    assert fold.update(session.log).to_json() == luck(session.log, session.ruleset).to_json()


def test_the_fold_stream_takes_back_steps_that_rolled() -> None:
    """So the property above sees the fold take rolls back out, not only add them."""
    session = Session(seed=SEED)
    for request in FOLD_STREAM:
        assert session.handle(request)["ok"]
    undone = [e for e in session.log if e.undone]
    assert any(r.roll is not None and r.roll.die in ("d6", "d10", "d100")
               for e in undone for r in session.ruleset.rolled(e.command, e.events))
