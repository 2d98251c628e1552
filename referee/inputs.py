"""Limits on what comes in from outside: request values, and the names people type.

Two kinds of check live here, both pure (no I/O):

- `check_request`: a decoded protocol request must be plain JSON data within bounds: nesting at
  most `MAX_DEPTH`, integers within ``±MAX_INT`` (what every JSON reader holds exactly), text
  of valid Unicode scalar values (no lone surrogates) and at most `MAX_TEXT` characters.
- Names (players, colours, cards, museums, art): `nfc` spells them one way, `name_problem`
  says what is wrong with one (control or invisible characters, too long), and `same_name`
  is the key two names must not share (normalised and case-folded: ``Zoë`` = ``ZOË``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_DEPTH = 10  # the deepest request the protocol has is 3 ({"players": [{"name"}]})
MAX_INT = 2**53 - 1  # the largest integer every JSON reader keeps exactly
MAX_TEXT = 200  # characters in any one text of a request (names are far shorter)

# Unicode general categories a name may not contain: controls, format characters (zero-width
# spaces and joiners, bidi overrides, soft hyphens), surrogates, private use, unassigned, and
# line/paragraph separators.
_BAD_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character",
                   "Cs": "an invalid character", "Co": "a private-use character",
                   "Cn": "an unassigned character", "Zl": "a line break",
                   "Zp": "a paragraph break"}


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
    full-width ``Ａ`` is ``A``) and case-folded (``ß`` is ``ss``, ``Ann`` is ``ann``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def name_problem(text: str, limit: int) -> str | None:
    """What is wrong with a name (already NFC and stripped), in words for the table, or None.

    The answer completes a sentence that starts with what the name is ("Player 2's name ...").
    """
    if not text:
        return "is empty"
    for position, char in enumerate(text, 1):
        category = unicodedata.category(char)
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
