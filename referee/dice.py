"""Fair, checkable electronic dice: a committed seed, an HMAC-SHA256 stream, rejection sampling.

Every electronic roll of a game is numbered (0, 1, 2, ...). Roll number ``index`` reads the
bytes of ``HMAC-SHA256(key=seed, msg=b"roll:<index>:<block>")`` for block 0, 1, 2, ... in
order, keeps the low bits of each byte (``byte & mask``, the smallest all-ones mask that covers
``sides - 1``) and takes the first value below ``sides``. Values at or above ``sides`` are
thrown away, never folded back with ``%``, so every face is exactly equally likely.

The box shows ``commitment(seed)`` when the game starts and reveals the seed when it ends;
``VERIFY_SNIPPET`` is the few lines anyone can run to re-derive every roll from it.
No clock, no OS randomness and no ``random`` module here: the seed is always handed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import hmac

SEED_BYTES = 32
DIE_SIDES: dict[str, int] = {"d6": 6, "d10": 10, "d100": 100}
PERCENTILE_MODES: tuple[str, ...] = ("1-100", "0-99")
MAX_SIDES = 256  # one byte per candidate value


@dataclass(frozen=True, slots=True)
class Roll:
    """A die result and where it came from.

    Attributes:
        die: ``d6``, ``d10``, ``d100`` or ``pick`` (a card drawn by the box).
        value: the face read (for ``pick``: the position in the sorted draw pile).
        source: ``electronic`` (the game's dice stream) or ``physical`` (real dice).
        via: for physical rolls, ``typed`` (entered by hand) or ``tray`` (the dice tray).
        index: for electronic rolls, the roll's number in the game's stream.
        sides: for electronic rolls, how many outcomes the stream draw had.
        kept: an electronic value that an undo left on the table, now reused.
    """

    die: str
    value: int
    source: str
    via: str | None = None
    index: int | None = None
    sides: int | None = None
    kept: bool = False

    @classmethod
    def physical(cls, die: str, value: int, via: str = "typed") -> Roll:
        return cls(die=die, value=value, source="physical", via=via)

    def to_json(self) -> dict[str, Any]:
        # (Field by field, in field order: what asdict gives, without its deep copies, which
        # were a fifth of the time of applying a command.)
        return {"die": self.die, "value": self.value, "source": self.source, "via": self.via,
                "index": self.index, "sides": self.sides, "kept": self.kept}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Roll:
        return cls(**data)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray):
        raise TypeError(f"a dice seed must be bytes, not {type(seed).__name__}")
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a dice seed must be exactly {SEED_BYTES} bytes, got {len(seed)}")


def _check_int(name: str, value: int, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f"..{high}"
        raise ValueError(f"{name} must be in {low}{upper}, got {value}")


def _check_die(die: str) -> int:
    if die not in DIE_SIDES:
        raise ValueError(f"unknown die {die!r}; expected one of {', '.join(DIE_SIDES)}")
    return DIE_SIDES[die]


def _check_percentile(percentile: str) -> None:
    if percentile not in PERCENTILE_MODES:
        raise ValueError(
            f"unknown percentile mode {percentile!r}; expected one of "
            + ", ".join(repr(mode) for mode in PERCENTILE_MODES)
        )


def commitment(seed: bytes) -> str:
    """The hex SHA-256 of the 32 seed bytes: shown at game start, checked at the end."""
    _check_seed(seed)
    import hashlib  # (imported when first used: OpenSSL's _hashlib costs a start ~2.5 ms)

    return hashlib.sha256(bytes(seed)).hexdigest()


def stream_bytes(seed: bytes, index: int) -> Iterator[int]:
    """The bytes roll number ``index`` may use, in order: HMAC blocks 0, 1, 2, ... (endless)."""
    _check_int("roll index", index, 0)
    return _stream(_keyed(seed), index)


def _keyed(seed: bytes) -> hmac.HMAC:
    """HMAC-SHA256 keyed with the seed, before any message (copied for each block)."""
    _check_seed(seed)
    import hashlib  # (as in commitment)
    import hmac

    return hmac.new(bytes(seed), digestmod=hashlib.sha256)


def _stream(keyed: hmac.HMAC, index: int) -> Iterator[int]:
    """HMAC-SHA256(key=seed, msg=f"roll:{index}:{block}") for block 0, 1, 2, ..., byte by byte."""
    block = 0
    while True:
        mac = keyed.copy()
        mac.update(f"roll:{index}:{block}".encode())
        yield from mac.digest()
        block += 1


def mask_for(sides: int) -> int:
    """The smallest all-ones bit mask that covers ``0..sides-1`` (0 for a one-sided die)."""
    _check_int("sides", sides, 1, MAX_SIDES)
    return (1 << (sides - 1).bit_length()) - 1


def draw_from_bytes(data: Iterable[int], sides: int) -> int:
    """The first ``byte & mask`` below ``sides``; a value at or above it moves on to the next byte.

    Raises:
        ValueError: ``data`` ran out before a byte was accepted.
    """
    mask = mask_for(sides)
    for byte in data:
        candidate = byte & mask
        if candidate < sides:
            return candidate
    raise ValueError("the byte source ran out before a value was accepted")


def stream_draw(seed: bytes, index: int, sides: int) -> int:
    """Roll number ``index`` of the game, uniform in ``0..sides-1`` (1 <= sides <= 256)."""
    return draw_from_bytes(stream_bytes(seed, index), sides)


def die_value(die: str, draw: int, percentile: str = "1-100") -> int:
    """The face a draw in ``0..sides-1`` shows: d6/d10 ``draw + 1``; d100 by percentile mode."""
    sides = _check_die(die)
    _check_percentile(percentile)
    _check_int(f"{die} draw", draw, 0, sides - 1)
    if die == "d100" and percentile == "0-99":
        return draw
    return draw + 1


def die_range(die: str, percentile: str = "1-100") -> range:
    """The values a physical ``die`` can show: d6 1..6, d10 1..10, d100 1..100 or 0..99."""
    sides = _check_die(die)
    _check_percentile(percentile)
    if die == "d100" and percentile == "0-99":
        return range(0, sides)
    return range(1, sides + 1)


def percentile_dice(value: int, percentile: str = "1-100") -> tuple[int, int]:
    """The two d10 faces (tens die 0, 10, ... 90; units die 0..9) that read as ``value`` (GG-7).

    In ``"1-100"`` mode the pair (0, 0) reads as 100, so 100 maps to (0, 0).
    """
    _check_percentile(percentile)
    allowed = die_range("d100", percentile)
    _check_int("percentile value", value, allowed.start, allowed.stop - 1)
    if value == 100:
        return (0, 0)
    return (value // 10 * 10, value % 10)


def read_percentile(tens: int, units: int, percentile: str = "1-100") -> int:
    """The value two d10 faces read as; the inverse of ``percentile_dice``."""
    _check_percentile(percentile)
    _check_int("units die", units, 0, 9)
    _check_int("tens die", tens, 0, 90)
    if tens % 10:
        raise ValueError(f"the tens die shows 00, 10, ... 90, not {tens}")
    value = tens + units
    if value == 0 and percentile == "1-100":
        return 100
    return value


def roll_for(seed: bytes, index: int, die: str, percentile: str = "1-100") -> int:
    """The face electronic roll number ``index`` shows on ``die``."""
    return die_value(die, stream_draw(seed, index, _check_die(die)), percentile)


class DiceStream:
    """A cursor over a game's roll stream: each draw uses the next roll index.

    The seed stays private: ``repr`` shows only the commitment and the position.
    """

    __slots__ = ("_keyed", "_position", "_seed")

    def __init__(self, seed: bytes, position: int = 0) -> None:
        _check_seed(seed)
        _check_int("stream position", position, 0)
        self._seed = bytes(seed)
        self._keyed = _keyed(self._seed)
        self._position = position

    @property
    def position(self) -> int:
        """The index the next draw will use (the number of draws made so far)."""
        return self._position

    @property
    def commitment(self) -> str:
        """The SHA-256 commitment of this stream's seed."""
        return commitment(self._seed)

    def next_draw(self, sides: int) -> tuple[int, int]:
        """Draw ``0..sides-1`` at the current index; return ``(index, draw)`` and advance."""
        index = self._position
        draw = draw_from_bytes(_stream(self._keyed, index), sides)
        self._position = index + 1
        return index, draw

    def __repr__(self) -> str:
        return f"DiceStream(commitment={self.commitment[:16]}..., position={self._position})"


VERIFY_SNIPPET = '''\
import hashlib, hmac

def draw(seed_hex, index, sides):
    """Electronic roll number `index` (0, 1, 2, ...) of a game, as a number 0..sides-1."""
    seed, mask, block = bytes.fromhex(seed_hex), (1 << (sides - 1).bit_length()) - 1, 0
    while True:
        for byte in hmac.new(seed, f"roll:{index}:{block}".encode(), hashlib.sha256).digest():
            if byte & mask < sides:
                return byte & mask
        block += 1

# First check the seed: hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == commitment.
# A d6 shows draw(seed_hex, i, 6) + 1; a d100 shows draw(seed_hex, i, 100) + 1
# (or the draw itself when the table reads percentile dice as 0-99).
'''
