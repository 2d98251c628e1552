"""Fuzzing the headless answer path: arbitrary JSON values and arbitrary bytes never get an
`internal_error`, every line gets exactly one answer, and a refusal changes nothing."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.gallery_grippers.commands import _SCHEMA
from referee.games.gallery_grippers.state import state_to_json
from referee.headless import answer_line, serve
from referee.inputs import MAX_DEPTH
from referee.session import Session

from .conftest import start
from .test_input import CONTRACT

FUZZ = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# text with anything in it: lone surrogates, controls, bidi overrides, long runs
texts = st.text(st.characters(exclude_categories=[]), max_size=40) | st.sampled_from(
    ["Ann", "Ben", "d6", "d100", "plain", "trading", "Hacker", "More Tech", "true", "false",
     "", " ", "\ud800", "A\u202e", "x" * 300])
scalars = (st.none() | st.booleans() | st.floats(allow_nan=False)
           | st.integers() | st.integers(-(10**30), 10**30) | texts)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(texts, inner, max_size=4), max_leaves=30)
# a known command with any subset of its fields, each holding any value
FIELDS = sorted({f for required, optional, _ in _SCHEMA.values() for f in (*required, *optional)}
                | {"cmd", "extra"})
commands = st.builds(
    lambda cmd, fields: {"cmd": cmd, **fields},
    st.sampled_from([*_SCHEMA, "state", "catalog"]),
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=5))


# raw JSON text no Python value serialises to: huge integers, deep nesting, non-numbers
raw_values = st.one_of(
    st.integers(17, 6000).map(lambda n: "9" * n),
    st.integers(17, 6000).map(lambda n: "-" + "1" * n),
    st.integers(MAX_DEPTH, 100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(MAX_DEPTH, 50_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.sampled_from(["NaN", "Infinity", "-Infinity", '"\\ud800"', '"a\\udfffb"']))
raw_lines = st.builds(
    lambda cmd, field, raw: f'{{"cmd": "{cmd}", "{field}": {raw}}}',
    st.sampled_from([*_SCHEMA, "state"]), st.sampled_from([f for f in FIELDS if f != "cmd"]),
    raw_values)


def _text(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


KIND_OK = {
    "name": _text, "die": _text, "tile": _text, "choice": _text, "deck": _text,
    "names": lambda v: isinstance(v, list) and all(map(_text, v)),
    "cards": lambda v: _text(v) or (isinstance(v, list) and all(map(_text, v))),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "players": lambda v: isinstance(v, list) and bool(v) and all(
        _text(p) or (isinstance(p, dict) and _text(p.get("name"))) for p in v),
}


def conforms(request: Any) -> bool:
    """Whether an accepted request was one the contract allows: every field of its command's
    kind (a wrong kind, such as "abandon": "false", must never be accepted)."""
    fields = CONTRACT.get(request.get("cmd"), {})
    return all(request.get(name) is None or KIND_OK[kind](request[name])
               for name, (_, kind, _) in fields.items())


def snapshot(session: Session) -> tuple[Any, ...]:
    return (json.dumps(state_to_json(session.state), sort_keys=True), len(session.log),
            session.kept, session.stream_position)


def check(session: Session, line: str | bytes) -> dict[str, Any]:
    before = snapshot(session)
    answer = answer_line(session, line)
    assert set(answer) in ({"ok", "events", "state"}, {"ok", "state"}, {"ok", "catalog"},
                           {"ok", "error"}), answer
    if not answer["ok"]:
        assert answer["error"]["code"] != "internal_error", (line, answer)
        assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
        assert snapshot(session) == before, line
    else:
        assert conforms(json.loads(line)), (line, answer)
    json.dumps(answer, ensure_ascii=False).encode("utf-8")  # no lone surrogate in it
    return answer


@FUZZ
@given(st.one_of(values, commands), st.booleans())
def test_any_json_value_is_answered_without_an_internal_error(request: Any, bytes_: bool) -> None:
    session = start().session
    line = json.dumps(request)  # escapes lone surrogates as \\udxxx, as any JSON sender may
    check(session, line.encode() if bytes_ else line)


@FUZZ
@given(raw_lines)
def test_huge_numbers_deep_nesting_and_non_numbers_are_bad_requests(line: str) -> None:
    answer = check(start().session, line)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request", (line, answer)


@pytest.mark.slow(25)
@FUZZ
@given(st.lists(commands, min_size=1, max_size=8))
def test_a_run_of_commands_keeps_one_answer_per_line_and_no_internal_error(
        requests: list[dict[str, Any]]) -> None:
    session = start().session
    for request in requests:
        check(session, json.dumps(request).encode())


@FUZZ
@given(st.binary(max_size=300)
       | st.lists(st.sampled_from([b"{", b"}", b"[", b"]", b'"cmd"', b":", b",", b'"state"',
                                   b"\xff", b"\xc3", b"\xed\xa0\x80", b"\r", b"\n", b"\x00",
                                   b"9" * 30, b"\\ud800", b'"', b" ", b"NaN"]), max_size=60)
       .map(b"".join))
def test_any_bytes_get_one_answer_per_line_and_no_internal_error(data: bytes) -> None:
    session = start().session
    before = snapshot(session)
    out = io.BytesIO()
    serve(session, io.BytesIO(data), out)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    answers = out.getvalue().decode("ascii").splitlines()
    assert len(answers) == len(lines)
    decoded = [json.loads(a) for a in answers]
    for answer in decoded:
        assert answer.get("error", {}).get("code") != "internal_error", (data, answer)
    if not any(a["ok"] and "events" in a for a in decoded):
        assert snapshot(session) == before
