"""Dice rulings that mutation testing of referee/dice.py found unpinned (issue 28;
docs/mutation.md): each test fails on a mutant that survived the dice tests."""

from __future__ import annotations

import re

import pytest

from referee.dice import DiceStream, commitment, percentile_dice, read_percentile, roll_for

SEED = bytes(range(32))


@pytest.mark.parametrize(("tens", "units", "named"), [
    (0, 10, "units die"), (0, -1, "units die"), (100, 0, "tens die"), (-10, 0, "tens die")])
def test_a_face_no_d10_shows_is_refused_naming_the_die(tens: int, units: int,
                                                       named: str) -> None:
    with pytest.raises(ValueError, match=rf"^{named} must be in "):
        read_percentile(tens, units)


def test_the_highest_faces_read() -> None:
    assert read_percentile(90, 9) == 99
    assert read_percentile(90, 9, "0-99") == 99


def test_a_tens_face_between_the_tens_is_named() -> None:
    with pytest.raises(ValueError, match=re.escape("tens die shows 00, 10, ... 90, not 15")):
        read_percentile(15, 0)


@pytest.mark.parametrize(("value", "percentile"), [(0, "1-100"), (100, "0-99"), (101, "1-100")])
def test_a_value_out_of_the_mode_is_refused_naming_it(value: int, percentile: str) -> None:
    with pytest.raises(ValueError, match=r"^percentile value must be in "):
        percentile_dice(value, percentile)


def test_roll_for_reads_percentile_rolls_1_to_100_by_default() -> None:
    rolls = [roll_for(SEED, i, "d100") for i in range(300)]
    assert rolls == [roll_for(SEED, i, "d100", "1-100") for i in range(300)]
    assert all(1 <= r <= 100 for r in rolls)


def test_a_streams_repr_shows_the_commitments_first_16_digits() -> None:
    stream = DiceStream(SEED, position=3)
    assert repr(stream) == f"DiceStream(commitment={commitment(SEED)[:16]}..., position=3)"
