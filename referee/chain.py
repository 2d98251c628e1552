"""The log's hash chain: canonical JSON and SHA-256 links (docs/store.md).

Every log entry of a game is stored as the canonical JSON of its body
``{"game", "seq", "at", "command", "events"}``; its hash is
``sha256((prev + body).encode("utf-8")).hexdigest()`` where ``prev`` is the hash of the entry
before it in the same game (``GENESIS``, 64 zeros, for the first). Changing, dropping or
reordering any entry changes every hash after it. The ``undone`` mark is not in the body (an
undo does not rewrite history): it is checked against the undo entries, which are.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64
BODY_KEYS = ("game", "seq", "at", "command", "events")


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 text as is, no NaN or infinity."""
    import json  # (here: a start shows its first frame before any entry is written)

    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _sha256() -> Any:
    """SHA-256 without loading OpenSSL: Python's own implementation (`_sha2` from 3.12,
    `_sha256` before), the same digests as `hashlib.sha256` (tests/referee/test_chain_digest.py).
    `hashlib` loads OpenSSL's `_hashlib` (and `_blake2`) first, ~2.5 ms of the processor, and
    a game file's opening (its lock's checksums, on the thread that opens the file beside the
    console's start) paid it in every start, taking the interpreter from the first screen
    being built (issue 41). The entries' own hashes here are short texts, for which OpenSSL is
    no quicker. `hashlib` if neither is there (a Python built without them)."""
    global _sha256_new
    if _sha256_new is None:
        from importlib import import_module

        for module in ("_sha2", "_sha256", "hashlib"):
            with contextlib.suppress(ImportError):
                _sha256_new = import_module(module).sha256
                break
    return _sha256_new


_sha256_new: Any = None


def sha256_hex(data: bytes) -> str:
    """The hex SHA-256 of `data` (as ``hashlib.sha256(data).hexdigest()``)."""
    digest: str = _sha256()(data).hexdigest()
    return digest


def fingerprint(value: Any) -> str:
    """The hex SHA-256 of a value's canonical JSON (UTF-8)."""
    return sha256_hex(canonical(value).encode("utf-8"))


def link(prev: str, body: str) -> str:
    """The hash of an entry whose canonical body is ``body``, after the entry hashed ``prev``."""
    return sha256_hex((prev + body).encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Link:
    """One stored entry as the chain sees it."""

    seq: int
    body: str
    prev: str
    hash: str
    undone: bool


def body_of(game: int, seq: int, at: str, command: dict[str, Any],
            events: list[dict[str, Any]]) -> str:
    return canonical({"game": game, "seq": seq, "at": at, "command": command, "events": events})


def chain_problems(game: int, links: Iterable[Link]) -> list[str]:
    """Everything wrong with one game's chain (empty when it verifies).

    Checks: sequence numbers run 1, 2, 3 ...; each body is canonical JSON naming this game and
    its own seq; each ``prev`` is the hash before it; each hash is right; the undone marks are
    exactly the entries that undo entries undid.
    """
    import json

    problems: list[str] = []
    prev = GENESIS
    undone_marked: set[int] = set()
    undone_by_log: set[int] = set()
    expected = 1
    for ln in links:
        where = f"game {game} entry {ln.seq}"
        if ln.seq != expected:
            problems.append(f"game {game}: entry {expected} is missing (found {ln.seq})")
            expected = ln.seq
        expected += 1
        if ln.prev != prev:
            problems.append(f"{where}: does not follow the entry before it (prev hash differs)")
        if link(ln.prev, ln.body) != ln.hash:
            problems.append(f"{where}: content does not match its hash")
        prev = ln.hash
        try:
            body = json.loads(ln.body)
        except ValueError:
            problems.append(f"{where}: body is not JSON")
            continue
        if not isinstance(body, dict) or canonical(body) != ln.body:
            problems.append(f"{where}: body is not canonical JSON")
            continue
        if body.get("game") != game or body.get("seq") != ln.seq:
            problems.append(f"{where}: body names game {body.get('game')} "
                            f"entry {body.get('seq')}")
        command = body.get("command")
        if isinstance(command, dict) and command.get("cmd") == "undo":
            undone_by_log.add(command.get("undoes", -1))
        if ln.undone:
            undone_marked.add(ln.seq)
    if undone_marked != undone_by_log:
        problems.append(f"game {game}: undo marks {sorted(undone_marked)} do not match the "
                        f"undo entries {sorted(undone_by_log)}")
    return problems


def head_of(links: list[Link]) -> str:
    return links[-1].hash if links else GENESIS
