"""`referee headless`: the JSON-lines protocol on stdin/stdout (headless-protocol.md)."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any, TextIO

from referee.errors import BadRequest, Refusal
from referee.session import Session

log = logging.getLogger(__name__)
MAX_LINE = 1 << 20  # a request over 1 MiB is refused, not parsed


def answer_line(session: Session, line: str) -> dict[str, Any]:
    """The answer to one input line; never raises, never changes anything on a refusal."""
    try:
        if len(line) > MAX_LINE:
            raise BadRequest(f"line is over {MAX_LINE} bytes")
        if not line.strip():
            raise BadRequest("empty line: send one JSON object per line")
        try:
            request = json.loads(line)
        except json.JSONDecodeError as err:
            raise BadRequest(f"not JSON: {err.msg} at column {err.colno}") from err
        return session.handle(request)
    except Refusal as refusal:
        return {"ok": False, "error": refusal.as_dict()}
    except Exception as err:  # a bug must not end the session; say so and carry on
        log.exception("internal error on %r", line[:200])
        return {"ok": False, "error": {"code": "internal_error", "rule": None,
                                       "message": f"internal error: {type(err).__name__}: {err}"}}


def serve(session: Session, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer every line of `stdin` with exactly one line on `stdout`, flushed at once."""
    for line in stdin:
        stdout.write(json.dumps(answer_line(session, line.rstrip("\r\n")),
                                separators=(",", ":")) + "\n")
        stdout.flush()
    return 0
