"""Which invisible characters a name may hold (issue 22): a ZWJ inside an emoji sequence and a
ZWJ/ZWNJ between letters are part of a name; bidi controls and every other format character
stay refused, wherever they are (`referee.inputs.name_problem`, used by every game)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.inputs import ZWJ, ZWNJ, name_problem, same_name
from tests.names import CORPUS

LIMIT = 60
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
BIDI = [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e",
        "\u200f", "\u061c"]
OTHER_FORMAT = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u2061", "\U000e0001"]
EMOJI = st.sampled_from(["👩", "🎨", "👍🏽", "🏳️", "🌈", "❤️", "🧑🏿", "🔥"])
LETTERS = st.characters(categories=("Lu", "Ll", "Lo"))


@pytest.mark.parametrize("name", CORPUS)
def test_every_corpus_name_is_accepted(name: str) -> None:
    assert name_problem(unicodedata.normalize("NFC", name), LIMIT) is None


@pytest.mark.parametrize("name", [
    "👩\u200d🎨", "👩\u200d👩\u200d👧", "🏳️\u200d🌈", "👍🏽\u200d🎨", ENGLAND,
    "می\u200cخواهم",  # Persian: a ZWNJ keeps two letters unjoined
    "क्\u200dष",  # Devanagari: a ZWJ after a virama asks for the half form
])
def test_joiners_a_name_needs(name: str) -> None:
    assert name_problem(name, LIMIT) is None


@given(st.lists(EMOJI, min_size=2, max_size=4))
def test_any_emoji_zwj_sequence_is_a_name(parts: list[str]) -> None:
    assert name_problem(ZWJ.join(parts), LIMIT) is None


@given(LETTERS, LETTERS, st.sampled_from([ZWJ, ZWNJ]))
def test_a_joiner_between_letters_is_a_name(a: str, b: str, joiner: str) -> None:
    assert name_problem(a + joiner + b, LIMIT) is None


@given(st.text(max_size=8), st.sampled_from(BIDI + OTHER_FORMAT), st.text(max_size=8))
def test_bidi_controls_and_other_format_characters_are_refused_anywhere(
        before: str, bad: str, after: str) -> None:
    problem = name_problem(before + bad + after, LIMIT)
    assert problem is not None


@pytest.mark.parametrize("name", [
    ZWJ + "Ann", "Ann" + ZWJ, "An" + ZWJ + " n", "🎨" + ZWJ + "a", "a" + ZWJ + "🎨",
    ZWNJ + "🎨", "🏴\U000e0067", "🏴\U000e007f", "x\U000e0067\U000e007f",
])
def test_joiners_out_of_place_are_refused(name: str) -> None:
    problem = name_problem(name, LIMIT)
    assert problem is not None and "U+" in problem


def test_a_joiner_does_not_make_two_names_different() -> None:
    assert same_name("An" + ZWJ + "n") == same_name("Ann")
    assert same_name("An" + ZWNJ + "n") == same_name("ANN")


@given(st.text(max_size=30))
def test_any_text_gets_an_answer_and_a_name_taken_holds_only_joiners_that_join(
        text: str) -> None:
    problem = name_problem(text, LIMIT)  # never raises
    if problem is None:
        invisible = {ch for ch in text if unicodedata.category(ch) == "Cf"}
        assert invisible <= {ZWJ, ZWNJ, *map(chr, range(0xE0020, 0xE0080))}
        assert not text.startswith((ZWJ, ZWNJ)) and not text.endswith((ZWJ, ZWNJ))
