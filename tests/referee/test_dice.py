"""Fair dice: exact uniformity of the byte-to-value mapping, the stream, die faces, the snippet."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
from collections import Counter
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice import (
    DIE_SIDES,
    SEED_BYTES,
    VERIFY_SNIPPET,
    DiceStream,
    Roll,
    commitment,
    die_range,
    die_value,
    draw_from_bytes,
    mask_for,
    percentile_dice,
    read_percentile,
    roll_for,
    stream_bytes,
    stream_draw,
)
from tests.conftest import MUTATION

SEED = bytes.fromhex("5eed" * 16)
OTHER_SEED = bytes(range(SEED_BYTES))


def hmac_block(seed: bytes, index: int, block: int) -> bytes:
    """The spec's byte source, written independently of the module."""
    return hmac.new(seed, f"roll:{index}:{block}".encode(), hashlib.sha256).digest()


# --- the value mapping is exactly uniform (exhaustive over its whole input space) ---------------

@pytest.mark.parametrize("sides", range(1, 257))
def test_every_outcome_is_accepted_equally_often_over_all_256_bytes(sides: int) -> None:
    accepted: Counter[int] = Counter()
    rejected = 0
    for byte in range(256):
        try:
            accepted[draw_from_bytes([byte], sides)] += 1
        except ValueError:  # rejected, and no further byte to move on to
            rejected += 1
    assert set(accepted) == set(range(sides))
    assert len(set(accepted.values())) == 1, accepted
    per_outcome = accepted[0]
    # the mask keeps the low bits: each of the mask+1 residues is hit 256/(mask+1) times
    assert per_outcome == 256 // (mask_for(sides) + 1)
    assert per_outcome * sides + rejected == 256
    # rejection sampling keeps more than half of the bytes, whatever the die
    assert rejected < 128


@pytest.mark.parametrize("sides", [3, 5, 6, 7, 10, 100, 129, 200])
def test_a_rejected_byte_only_moves_on_to_the_next_byte(sides: int) -> None:
    mask = mask_for(sides)
    rejected = [b for b in range(256) if b & mask >= sides]
    assert rejected, "these dice all have rejected bytes"
    for first in rejected:
        for second in range(256):
            expected = second & mask
            if expected < sides:
                assert draw_from_bytes([first, second], sides) == expected
            else:
                with pytest.raises(ValueError):
                    draw_from_bytes([first, second], sides)
    # an accepted first byte decides the draw; what follows is never read
    for first in range(256):
        if first & mask < sides:
            assert draw_from_bytes(iter([first]), sides) == first & mask


def test_rejection_crosses_from_one_hmac_block_to_the_next() -> None:
    a_whole_rejected_block = [0xFF] * 32  # 255 & 7 == 7 >= 6: every byte rejected for a d6
    assert draw_from_bytes([*a_whole_rejected_block, 0x0B], 6) == 0x0B & 7
    source = stream_bytes(SEED, 4)
    first_two_blocks = bytes(next(source) for _ in range(64))
    assert first_two_blocks == hmac_block(SEED, 4, 0) + hmac_block(SEED, 4, 1)


@pytest.mark.parametrize("sides", [1, 2, 6, 10, 100, 129, 255, 256])
def test_stream_draw_takes_the_first_accepted_byte_of_the_hmac_stream(sides: int) -> None:
    mask = (1 << (sides - 1).bit_length()) - 1
    saw_rejection = False
    for index in range(300):
        data = hmac_block(SEED, index, 0) + hmac_block(SEED, index, 1)
        accepted = [b & mask for b in data if b & mask < sides]
        saw_rejection |= (data[0] & mask) >= sides
        assert stream_draw(SEED, index, sides) == accepted[0]
    assert saw_rejection == any(b & mask >= sides for b in range(256))


def test_mask_is_the_smallest_covering_all_ones_mask() -> None:
    for sides in range(1, 257):
        mask = mask_for(sides)
        assert mask & (mask + 1) == 0  # all ones
        assert mask >= sides - 1
        assert mask // 2 < sides - 1 or sides == 1


# --- the stream ---------------------------------------------------------------------------------

def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert commitment(OTHER_SEED) == hashlib.sha256(OTHER_SEED).hexdigest()
    assert commitment(SEED) != commitment(OTHER_SEED)


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33)])
def test_a_seed_must_be_exactly_32_bytes(bad: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        commitment(bad)
    with pytest.raises(ValueError, match="32 bytes"):
        stream_draw(bad, 0, 6)
    with pytest.raises(ValueError, match="32 bytes"):
        DiceStream(bad)


@pytest.mark.parametrize("sides", [0, -1, 257, 1000])
def test_sides_must_be_1_to_256(sides: int) -> None:
    with pytest.raises(ValueError, match="sides"):
        stream_draw(SEED, 0, sides)


def test_a_negative_or_non_int_index_is_refused() -> None:
    with pytest.raises(ValueError):
        stream_draw(SEED, -1, 6)
    with pytest.raises(TypeError):
        stream_draw(SEED, True, 6)


def test_draws_are_deterministic() -> None:
    first = [stream_draw(SEED, i, 100) for i in range(500)]
    again = [stream_draw(bytes(SEED), i, 100) for i in range(500)]
    assert first == again
    assert all(0 <= d < 100 for d in first)


def test_different_indexes_and_seeds_give_different_rolls() -> None:
    by_index = [stream_draw(SEED, i, 256) for i in range(200)]
    by_seed = [stream_draw(OTHER_SEED, i, 256) for i in range(200)]
    assert len(set(by_index)) > 100  # not stuck on a few values
    assert sum(a != b for a, b in zip(by_index, by_seed, strict=True)) > 190
    # neighbouring indexes are not shifted copies of each other
    assert sum(a != b for a, b in itertools.pairwise(by_index)) > 190


def test_dice_stream_walks_the_indexes_in_order() -> None:
    stream = DiceStream(SEED)
    assert stream.position == 0
    got = [stream.next_draw(sides) for sides in (6, 100, 6, 10, 256)]
    assert [index for index, _ in got] == [0, 1, 2, 3, 4]
    assert [draw for _, draw in got] == [
        stream_draw(SEED, i, sides) for i, sides in enumerate((6, 100, 6, 10, 256))
    ]
    assert stream.position == 5
    resumed = DiceStream(SEED, position=3)
    assert resumed.next_draw(10) == got[3]
    assert resumed.position == 4


def test_dice_stream_never_shows_its_seed() -> None:
    stream = DiceStream(SEED)
    assert SEED.hex() not in repr(stream)
    assert stream.commitment == commitment(SEED)


# --- chi-square over a million electronic rolls per die -----------------------------------------
# Critical values of the chi-square distribution at upper-tail probability p = 0.001, from the
# NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4 ("Critical Values of the
# Chi-Square Distribution"): 20.515 for 5 degrees of freedom (a d6: 6 faces - 1) and 148.230
# for 99 (a d100: 100 faces - 1). test_the_critical_values_are_right re-derives both.
CHI2_CRITICAL_P001 = {5: 20.515, 99: 148.230}
# Under scripts/mutation (tests/conftest.py MUTATION) every dice mutant runs this through
# mutmut's trampolines: 20,000 rolls (200 a face of a d100) show a biased draw as well.
ROLLS = 20_000 if MUTATION else 1_000_000


def chi2_upper_tail(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square(df): the regularized upper incomplete gamma Q(df/2, x/2)."""
    a, z = df / 2, x / 2
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # series for the lower tail P(a, z)
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / (a + n)
            total += term
        return 1 - total * math.exp(log_front)
    # Lentz's continued fraction for Q(a, z)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def test_the_critical_values_are_right() -> None:
    for df, critical in CHI2_CRITICAL_P001.items():
        assert chi2_upper_tail(critical, df) == pytest.approx(0.001, rel=2e-3)
    # and the tail function itself agrees with closed forms: df=2 gives exp(-x/2)
    assert chi2_upper_tail(7.0, 2) == pytest.approx(math.exp(-3.5), rel=1e-9)
    assert chi2_upper_tail(1.0, 2) == pytest.approx(math.exp(-0.5), rel=1e-9)


@pytest.mark.parametrize("die", ["d6", "d100"])
def test_a_million_electronic_rolls_pass_chi_square_at_p_0_001(die: str) -> None:
    # How fast they are is measured by `scripts/bench core`, never asserted here.
    sides = DIE_SIDES[die]
    stream = DiceStream(hashlib.sha256(f"chi-square {die}".encode()).digest())
    counts = Counter(stream.next_draw(sides)[1] for _ in range(ROLLS))
    assert set(counts) == set(range(sides))
    expected = ROLLS / sides
    statistic = sum((counts[face] - expected) ** 2 / expected for face in range(sides))
    assert statistic < CHI2_CRITICAL_P001[sides - 1], (statistic, counts)


# --- faces ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("die", "percentile", "lowest", "highest"),
    [
        ("d6", "1-100", 1, 6), ("d6", "0-99", 1, 6),
        ("d10", "1-100", 1, 10), ("d10", "0-99", 1, 10),
        ("d100", "1-100", 1, 100), ("d100", "0-99", 0, 99),
    ],
)
def test_die_range_and_die_value_agree(
    die: str, percentile: str, lowest: int, highest: int
) -> None:
    faces = die_range(die, percentile)
    assert (faces[0], faces[-1], len(faces)) == (lowest, highest, DIE_SIDES[die])
    values = [die_value(die, draw, percentile) for draw in range(DIE_SIDES[die])]
    assert values == list(faces)  # every draw gives a distinct valid face: a bijection


def test_die_value_refuses_draws_out_of_range_and_unknown_names() -> None:
    with pytest.raises(ValueError):
        die_value("d6", 6)
    with pytest.raises(ValueError):
        die_value("d6", -1)
    with pytest.raises(ValueError):
        die_value("d20", 0)
    with pytest.raises(ValueError):
        die_value("d100", 0, "0-100")
    with pytest.raises(ValueError):
        die_range("d100", "1-99")


def test_roll_for_is_die_value_of_the_stream_draw() -> None:
    for index in range(200):
        for die, sides in DIE_SIDES.items():
            for mode in ("1-100", "0-99"):
                expected = die_value(die, stream_draw(SEED, index, sides), mode)
                assert roll_for(SEED, index, die, mode) == expected
                assert expected in die_range(die, mode)


@pytest.mark.parametrize("percentile", ["1-100", "0-99"])
def test_percentile_dice_round_trip_for_every_value(percentile: str) -> None:
    pairs = set()
    for value in die_range("d100", percentile):
        tens, units = percentile_dice(value, percentile)
        assert tens in range(0, 100, 10)
        assert units in range(10)
        assert read_percentile(tens, units, percentile) == value
        pairs.add((tens, units))
    assert len(pairs) == 100  # every pair of faces is used exactly once


def test_percentile_dice_read_double_zero_by_mode() -> None:
    assert percentile_dice(100, "1-100") == (0, 0)
    assert percentile_dice(0, "0-99") == (0, 0)
    assert percentile_dice(50) == (50, 0)
    assert read_percentile(0, 0) == 100
    assert read_percentile(0, 0, "0-99") == 0
    with pytest.raises(ValueError):
        percentile_dice(0, "1-100")
    with pytest.raises(ValueError):
        percentile_dice(100, "0-99")
    with pytest.raises(ValueError):
        read_percentile(15, 0)


# --- the verification snippet ---------------------------------------------------------------------

def test_verify_snippet_is_short_and_standard_library_only() -> None:
    lines = VERIFY_SNIPPET.strip().splitlines()
    assert len(lines) <= 15
    imports = [line for line in lines if line.startswith(("import", "from"))]
    assert imports == ["import hashlib, hmac"]


def test_verify_snippet_re_derives_the_stream() -> None:
    namespace: dict[str, Any] = {}
    exec(VERIFY_SNIPPET, namespace)
    draw = namespace["draw"]
    for seed in (SEED, OTHER_SEED):
        for sides in (1, 2, 6, 10, 100, 129, 255, 256):
            for index in range(0, 5000, 7):
                assert draw(seed.hex(), index, sides) == stream_draw(seed, index, sides)


@given(st.builds(Roll, die=st.sampled_from(["d6", "d10", "d100", "pick"]),
                 value=st.integers(0, 100), source=st.sampled_from(["electronic", "physical"]),
                 via=st.none() | st.sampled_from(["typed", "tray"]),
                 index=st.none() | st.integers(0, 10**6), sides=st.none() | st.integers(2, 256),
                 kept=st.booleans()))
def test_a_roll_in_json_is_every_field_in_order_and_reads_back(roll: Roll) -> None:
    """to_json is written out field by field (for speed): a field added to Roll and not to
    to_json fails here."""
    assert list(roll.to_json().items()) == list(asdict(roll).items())
    assert Roll.from_json(roll.to_json()) == roll
