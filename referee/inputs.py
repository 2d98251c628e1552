"""Limits on what comes in from outside: request values, and the names people type.

Two kinds of check live here, both pure (no I/O):

- `check_request`: a decoded protocol request must be plain JSON data within bounds: nesting at
  most `MAX_DEPTH`, integers within ``±MAX_INT`` (what every JSON reader holds exactly), text
  of valid Unicode scalar values (no lone surrogates) and at most `MAX_TEXT` characters.
- Names (players, colours, cards, museums, art): `nfc` spells them one way, `name_problem`
  says what is wrong with one (control or invisible characters, too long; a joiner inside an
  emoji sequence or between letters is part of a name), and `same_name`
  is the key two names must not share (normalised and case-folded: ``Zoë`` = ``ZOË``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_DEPTH = 10  # the deepest request the protocol has is 3 ({"players": [{"name"}]})
MAX_INT = 2**53 - 1  # the largest integer every JSON reader keeps exactly
MAX_TEXT = 200  # characters in any one text of a request (names are far shorter)

# Unicode general categories a name may not contain: controls, format characters (zero-width
# spaces, bidi overrides and isolates, soft hyphens; a joiner only where `_joins` allows it),
# surrogates, private use, unassigned, and line/paragraph separators.
_BAD_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character",
                   "Cs": "an invalid character", "Co": "a private-use character",
                   "Cn": "an unassigned character", "Zl": "a line break",
                   "Zp": "a paragraph break"}

ZWNJ, ZWJ = "\u200c", "\u200d"  # the joiners a name may hold, where `_joins` says
_CANCEL_TAG = "\U000e007f"
_BLACK_FLAG = "\U0001f3f4"


class RequestProblem(ValueError):
    """What is wrong with a request value, naming the field (``players[0].name``)."""


def _where(path: str) -> str:
    return f"'{path}'" if path else "the request"


def text_problem(text: str) -> str | None:
    """Why ``text`` is not valid Unicode text (a lone surrogate), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        return f"has a character that is not valid Unicode at position {err.start + 1}"
    return None


def check_request(value: Any) -> None:
    """Raise `RequestProblem` unless ``value`` is plain JSON data within the limits above."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        if isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                raise RequestProblem(f"{_where(path)} is a number too large "
                                     f"(whole numbers go up to {MAX_INT:,})")
        elif isinstance(item, str):
            _check_text(item, _where(path))
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise RequestProblem(f"{_where(path)} is nested too deeply (at most "
                                     f"{MAX_DEPTH} levels of lists and objects)")
            if isinstance(item, list):
                stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item))
                continue
            for key, v in item.items():
                if not isinstance(key, str):
                    raise RequestProblem(f"{_where(path)} has a key that is not text")
                _check_text(key, f"a field name in {_where(path)}" if path else "a field name")
                stack.append((v, f"{path}.{key}" if path else key, depth + 1))
        else:
            raise RequestProblem(f"{_where(path)} is not JSON data ({type(item).__name__})")


def _check_text(text: str, what: str) -> None:
    problem = text_problem(text)
    if problem is None and len(text) > MAX_TEXT:
        problem = f"is {len(text):,} characters long (at most {MAX_TEXT})"
    if problem is not None:
        raise RequestProblem(f"{what} {problem}")


# ---- names -----------------------------------------------------------------------------------

def nfc(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): ``e`` + combining acute becomes ``é``."""
    return unicodedata.normalize("NFC", text)


def same_name(text: str) -> str:
    """The key under which two names are the same: compatibility-normalised (NFKC, so a
    full-width ``Ａ`` is ``A``) and case-folded (``ß`` is ``ss``, ``Ann`` is ``ann``), with
    the joiners a name may hold (ZWJ, ZWNJ) left out: they are invisible."""
    key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return key.replace(ZWJ, "").replace(ZWNJ, "")  # invisible: "a\u200db" is "ab"



def _emoji(char: str) -> bool:
    """A pictographic symbol (an emoji's base) or a skin-tone modifier: general category So,
    or the modifiers U+1F3FB-U+1F3FF (Sk)."""
    return unicodedata.category(char) == "So" or 0x1F3FB <= ord(char) <= 0x1F3FF


def _lettered(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def _joins(text: str, i: int) -> bool:
    """Whether the format character at ``text[i]`` is a legitimate part of a name:

    - ZWJ (U+200D) inside an emoji ZWJ sequence: an emoji (with any modifier or variation
      selector) before it and an emoji after (``👩‍🎨``, ``🏳️‍🌈``);
    - ZWJ or ZWNJ (U+200C) between two letters (or a letter's marks), as Persian, Arabic and
      the Indic scripts spell words (``می‌خواهم``, a Devanagari half form);
    - a tag character (U+E0020-U+E007F) in an emoji tag sequence: the black flag, tag letters,
      the cancel tag (the flags of England, Scotland, Wales).

    Everything else in category Cf stays refused: bidi overrides and isolates (which can make
    one name look like another), zero-width spaces, soft hyphens, word joiners."""
    char = text[i]
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if char in (ZWJ, ZWNJ):
        if not before or not after:
            return False
        if char == ZWJ:
            j = i - 1
            while j > 0 and unicodedata.category(text[j]) in ("Mn", "Me"):
                j -= 1  # past a variation selector (U+FE0F) to the emoji it dresses
            if _emoji(text[j]) and _emoji(after):
                return True
        return _lettered(before) and _lettered(after)
    if 0xE0020 <= ord(char) <= 0xE007F:
        j = i
        while j > 0 and 0xE0020 <= ord(text[j - 1]) <= 0xE007E:
            j -= 1
        letters_before = i - j  # tag letters between the flag and this character
        opened = j > 0 and text[j - 1] == _BLACK_FLAG and (
            char != _CANCEL_TAG or letters_before > 0)
        k = i
        while k < len(text) and 0xE0020 <= ord(text[k]) <= 0xE007E:
            k += 1
        return opened and k < len(text) and text[k] == _CANCEL_TAG
    return False


def name_problem(text: str, limit: int) -> str | None:
    """What is wrong with a name (already NFC and stripped), in words for the table, or None.

    The answer completes a sentence that starts with what the name is ("Player 2's name ...").
    Format characters (Cf) are refused except where a name needs them (`_joins`: a ZWJ in an
    emoji sequence, ZWJ/ZWNJ between letters, an emoji flag's tags).
    """
    if not text:
        return "is empty"
    for position, char in enumerate(text, 1):
        category = unicodedata.category(char)
        if category == "Cf" and _joins(text, position - 1):
            continue
        if category in _BAD_CATEGORIES:
            code = f"U+{ord(char):04X}"
            label = f"{unicodedata.name(char, '').title()}, {code}".lstrip(", ")
            return (f"has {_BAD_CATEGORIES[category]} ({label}) at position {position}; "
                    "type it again without it")
    if len(text) > limit:
        return f"is {len(text)} characters long; at most {limit} fit"
    return None


def show(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for echoing input in a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
