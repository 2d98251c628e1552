"""`referee headless`: the JSON-lines protocol on stdin/stdout (headless-protocol.md).

Input is bounded and read per line, as bytes, whatever the locale: a line over `MAX_LINE`
bytes is read through to its newline and dropped (never held whole), a line that is not UTF-8
or not plain JSON within `referee.inputs`' limits is refused with ``bad_request``, and the next
line is read as if nothing happened. Answers are ASCII JSON, so valid UTF-8 under any locale.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from referee.errors import BadRequest, Refusal
from referee.inputs import MAX_INT, RequestProblem, check_request, show
from referee.session import Session

log = logging.getLogger(__name__)
MAX_LINE = 1 << 20  # bytes in a request line (without its newline); a longer one is refused
_SKIP = 1 << 16  # bytes read at a time while dropping the rest of an overlong line
_INT_DIGITS = len(str(MAX_INT))


@dataclass(frozen=True, slots=True)
class Overlong:
    """A line that was over `MAX_LINE` bytes: only its size was kept."""

    size: int


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes | Overlong]:
    """Each line of ``stream`` without its line end (``\\n`` or ``\\r\\n``), or `Overlong`.

    Never holds more than ``limit + 2`` bytes of a line (plus the stream's own buffer).
    """
    while True:
        chunk = stream.readline(limit + 2)
        if not chunk:
            return
        if chunk.endswith(b"\n"):
            line = chunk[:-1].removesuffix(b"\r")
            yield line if len(line) <= limit else Overlong(len(line))
            continue
        if len(chunk) <= limit + 1:  # the last line, with no newline
            line = chunk.removesuffix(b"\r")
            yield line if len(line) <= limit else Overlong(len(line))
            continue
        size = len(chunk)
        del chunk
        while True:  # drop the rest of the line, a little at a time
            rest = stream.readline(_SKIP)
            size += len(rest)
            if not rest or rest.endswith(b"\n"):
                break
        yield Overlong(size - 1 if rest.endswith(b"\n") else size)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _INT_DIGITS or abs(value := int(text)) > MAX_INT:
        raise BadRequest(f"a number in the line is too large (whole numbers go up to "
                         f"{MAX_INT:,})")
    return value


def _no_constant(text: str) -> None:
    raise BadRequest(f"not JSON: {text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadRequest(f"the field {show(key)} is given twice in one object")
        out[key] = value
    return out


def decode_request(line: bytes | str) -> Any:
    """The request a line holds; raises `BadRequest` saying what is wrong with it."""
    if isinstance(line, str):
        size = len(line.encode("utf-8", "surrogatepass"))
        if size > MAX_LINE:
            raise BadRequest(f"the line is {size:,} bytes, over the {MAX_LINE:,}-byte limit")
        text = line
    else:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as err:
            raise BadRequest(f"the line is not UTF-8 text (byte 0x{line[err.start]:02x} at "
                             f"position {err.start + 1}); send JSON in UTF-8") from err
    if not text.strip():
        raise BadRequest("empty line: send one JSON object per line")
    try:
        request = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant,
                             object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        raise BadRequest(f"not JSON: {err.msg} at column {err.colno}") from err
    except RecursionError as err:
        raise BadRequest("the line is nested too deeply to be a request") from err
    try:
        check_request(request)
    except RequestProblem as err:
        raise BadRequest(str(err)) from err
    return request


def answer_line(session: Session, line: bytes | str | Overlong) -> dict[str, Any]:
    """The answer to one input line; never raises, never changes anything on a refusal."""
    try:
        if isinstance(line, Overlong):
            raise BadRequest(f"the line is {line.size:,} bytes, over the {MAX_LINE:,}-byte "
                             "limit; it was not read")
        return session.handle(decode_request(line))
    except Refusal as refusal:
        return {"ok": False, "error": refusal.as_dict()}
    except Exception as err:  # a bug must not end the session; say so and carry on
        log.exception("internal error on %r", line if isinstance(line, Overlong) else line[:200])
        return {"ok": False, "error": {"code": "internal_error", "rule": None,
                                       "message": f"internal error: {type(err).__name__}: {err}"}}


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One answer line: compact ASCII JSON (non-ASCII text as \\u escapes) and a newline."""
    return json.dumps(answer, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


def serve(session: Session, stdin: BinaryIO | None = None,
          stdout: BinaryIO | None = None) -> int:
    """Answer every line of ``stdin`` with exactly one line on ``stdout``, flushed at once.

    Both are byte streams (default: the binary buffers under ``sys.stdin``/``sys.stdout``), so
    the locale's encoding and error handler play no part.
    """
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout.buffer if stdout is None else stdout
    for line in read_lines(source):
        sink.write(encode_answer(answer_line(session, line)))
        sink.flush()
    return 0
