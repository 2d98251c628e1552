"""referee/dice.py's contract, exactly: each function's refusals (the error's type and words:
they name what was wrong and what was expected) and its edge values. Pinned from mutation
testing of referee/dice.py (issue 28; docs/mutation.md)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from itertools import islice
from typing import Any

import pytest

from referee.dice import (
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

SEED = bytes(range(32))
MODES = "expected one of '1-100', '0-99'"


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: commitment("ab"), TypeError, "a dice seed must be bytes, not str"),
    (lambda: commitment(b"ab"), ValueError, "a dice seed must be exactly 32 bytes, got 2"),
    (lambda: DiceStream(bytes(33)), ValueError, "a dice seed must be exactly 32 bytes, got 33"),
    (lambda: stream_bytes(SEED, -1), ValueError, "roll index must be in 0, got -1"),
    (lambda: stream_bytes(SEED, True), TypeError, "roll index must be an int, not bool"),
    (lambda: stream_bytes(SEED, 1.0), TypeError, "roll index must be an int, not float"),
    (lambda: mask_for(0), ValueError, "sides must be in 1..256, got 0"),
    (lambda: mask_for(257), ValueError, "sides must be in 1..256, got 257"),
    (lambda: draw_from_bytes([], 6), ValueError,
     "the byte source ran out before a value was accepted"),
    (lambda: draw_from_bytes([6, 7, 0xFE], 6), ValueError,
     "the byte source ran out before a value was accepted"),
    (lambda: die_value("d7", 0), ValueError, "unknown die 'd7'; expected one of d6, d10, d100"),
    (lambda: die_value("d6", 0, "1-99"), ValueError, f"unknown percentile mode '1-99'; {MODES}"),
    (lambda: die_value("d6", 6), ValueError, "d6 draw must be in 0..5, got 6"),
    (lambda: die_value("d100", -1), ValueError, "d100 draw must be in 0..99, got -1"),
    (lambda: die_range("d8"), ValueError, "unknown die 'd8'; expected one of d6, d10, d100"),
    (lambda: die_range("d6", "0-100"), ValueError, f"unknown percentile mode '0-100'; {MODES}"),
    (lambda: percentile_dice(50, "x"), ValueError, f"unknown percentile mode 'x'; {MODES}"),
    (lambda: percentile_dice(0), ValueError, "percentile value must be in 1..100, got 0"),
    (lambda: percentile_dice(100, "0-99"), ValueError,
     "percentile value must be in 0..99, got 100"),
    (lambda: read_percentile(0, 0, "x"), ValueError, f"unknown percentile mode 'x'; {MODES}"),
    (lambda: read_percentile(0, 10), ValueError, "units die must be in 0..9, got 10"),
    (lambda: read_percentile(100, 0), ValueError, "tens die must be in 0..90, got 100"),
    (lambda: read_percentile(15, 0), ValueError, "the tens die shows 00, 10, ... 90, not 15"),
    (lambda: roll_for(SEED, 0, "d20"), ValueError,
     "unknown die 'd20'; expected one of d6, d10, d100"),
    (lambda: DiceStream(SEED, -1), ValueError, "stream position must be in 0, got -1"),
])
def test_each_refusal_names_what_was_wrong(call: Callable[[], Any], error: type[Exception],
                                           words: str) -> None:
    with pytest.raises(error) as err:
        call()
    assert type(err.value) is error and str(err.value) == words


def test_a_bytearray_seed_is_the_same_seed() -> None:
    assert commitment(bytearray(SEED)) == commitment(SEED)
    assert stream_draw(SEED, 4, 6) == draw_from_bytes(stream_bytes(bytes(SEED), 4), 6)


@pytest.mark.parametrize(("sides", "mask"), [(1, 0), (2, 1), (3, 3), (6, 7), (8, 7), (9, 15),
                                              (100, 127), (128, 127), (129, 255), (256, 255)])
def test_the_mask_is_the_smallest_covering_every_face(sides: int, mask: int) -> None:
    assert mask_for(sides) == mask


def test_a_byte_at_or_above_the_sides_moves_on_to_the_next() -> None:
    assert draw_from_bytes([6, 7, 5], 6) == 5  # 6 and 7 (masked by 7) thrown away
    assert draw_from_bytes([0xFD], 6) == 5  # only the low bits count
    assert draw_from_bytes([0], 1) == 0


@pytest.mark.parametrize(("die", "draw", "mode", "face"), [
    ("d6", 0, "1-100", 1), ("d6", 5, "1-100", 6), ("d10", 9, "0-99", 10), ("d10", 0, "0-99", 1),
    ("d100", 0, "1-100", 1), ("d100", 99, "1-100", 100), ("d100", 0, "0-99", 0),
    ("d100", 99, "0-99", 99)])
def test_the_face_a_draw_shows(die: str, draw: int, mode: str, face: int) -> None:
    assert die_value(die, draw, mode) == face


@pytest.mark.parametrize(("die", "mode", "faces"), [
    ("d6", "1-100", range(1, 7)), ("d10", "0-99", range(1, 11)), ("d100", "1-100", range(1, 101)),
    ("d100", "0-99", range(0, 100))])
def test_the_faces_a_physical_die_shows(die: str, mode: str, faces: range) -> None:
    assert die_range(die, mode) == faces


@pytest.mark.parametrize(("value", "mode", "pair"), [
    (100, "1-100", (0, 0)), (1, "1-100", (0, 1)), (57, "1-100", (50, 7)), (99, "1-100", (90, 9)),
    (10, "1-100", (10, 0)), (0, "0-99", (0, 0)), (5, "0-99", (0, 5)), (90, "0-99", (90, 0))])
def test_percentile_faces_and_back(value: int, mode: str, pair: tuple[int, int]) -> None:
    assert percentile_dice(value, mode) == pair
    assert read_percentile(*pair, mode) == value


def test_a_stream_draws_each_index_once_in_order() -> None:
    stream = DiceStream(SEED, position=5)
    assert stream.position == 5 and stream.commitment == commitment(SEED)
    draws = [stream.next_draw(sides) for sides in (6, 100, 6)]
    assert draws == [(5, stream_draw(SEED, 5, 6)), (6, stream_draw(SEED, 6, 100)),
                     (7, stream_draw(SEED, 7, 6))]
    assert stream.position == 8
    assert DiceStream(SEED).position == 0
    assert [roll_for(SEED, i, "d6") for i in range(3)] == [stream_draw(SEED, i, 6) + 1
                                                           for i in range(3)]


def test_a_physical_roll_is_typed_unless_said() -> None:
    assert Roll.physical("d6", 3) == Roll(die="d6", value=3, source="physical", via="typed")
    assert Roll.physical("d100", 42, "tray") == Roll(die="d100", value=42, source="physical",
                                                     via="tray")


def test_the_stream_reads_block_after_block() -> None:
    """Roll `index` reads HMAC(seed, "roll:<index>:<block>") for block 0, 1, 2, ... in turn."""
    blocks = b"".join(hmac.new(SEED, f"roll:7:{b}".encode(), hashlib.sha256).digest()
                      for b in range(4))
    assert bytes(islice(stream_bytes(SEED, 7), 128)) == blocks


def test_a_percentile_die_reads_1_to_100_by_default() -> None:
    assert die_range("d100") == range(1, 101)
    assert die_value("d100", 0) == 1
