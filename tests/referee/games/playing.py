"""Playing any ruleset on pure states in tests, as the session does (decide, then fold), and
checking a stored game end to end. Each game's ``helpers.Game`` adds its own set-up and
"given" states on top of `PureGame`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from referee.app import open_session
from referee.audit import verify
from referee.db import Reader, connect
from referee.errors import BadRequest, Refusal
from referee.export import from_store
from referee.ruleset import NeedDice
from referee.session import Session

COMMIT = "ab" * 32  # a dice commitment for games started without a session


def is_sentence(words: object, *, finished: bool = True, cmd: str = "") -> bool:
    """A refusal says why in words: text that does not open on a plain lower-case word (it
    opens on a capital, a name, an id or the command's own name), is not shouted and, if
    `finished`, ends a sentence (a full stop, or a bracket or quote closing after one)."""
    if not isinstance(words, str) or not words.strip():
        return False
    first = words.split()[0]
    if first.isalpha() and first.islower() and first != cmd:
        return False
    ends = words.rstrip("')\"").endswith((".", "?", "!"))
    return words != words.upper() and (ends or not finished)


class PureGame:
    """A state of `RULESET`'s game, moved on by commands through the ruleset."""

    RULESET: ClassVar[Any]
    state: Any

    def start(self, request: dict[str, Any]) -> None:
        self.state = self.RULESET.initial_state(self.RULESET.load_catalog(None))
        cmd = self.RULESET.start(self.RULESET.parse(request), commitment=COMMIT, settings={})
        self._apply(cmd)

    def _apply(self, cmd: Any) -> list[dict[str, Any]]:
        events = self.RULESET.decide(self.state, cmd)
        if isinstance(events, NeedDice):
            raise AssertionError(f"needs dice: {events}")
        self.state = self.RULESET.fold(self.state, events)
        return list(events)

    def ok(self, cmd: str, **fields: Any) -> list[dict[str, Any]]:
        return self._apply(self.RULESET.parse({"cmd": cmd, **fields}))

    def need(self, cmd: str, **fields: Any) -> NeedDice:
        out = self.RULESET.decide(self.state, self.RULESET.parse({"cmd": cmd, **fields}))
        assert isinstance(out, NeedDice), out
        return out

    def no(self, cmd: str, code: str, rule: str | None = None, **fields: Any) -> Refusal:
        """`cmd` is refused with `code` (and `rule`), in words, and changes nothing."""
        before = self.state
        try:
            self.RULESET.decide(self.state, self.RULESET.parse({"cmd": cmd, **fields}))
        except Refusal as err:
            assert err.code == code, (err.code, err.message)
            if rule is not None:
                assert err.rule == rule, (err.rule, err.message)
            assert is_sentence(err.args[0], finished=not isinstance(err, BadRequest),
                               cmd=cmd), err.args
            assert self.state == before
            return err
        raise AssertionError(f"{cmd} {fields} was accepted")

    @property
    def json(self) -> dict[str, Any]:
        return dict(self.RULESET.state_json(self.state))

    def given(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)


def resumes_and_verifies(session: Session, path: Path, game: str, seed: bytes) -> None:
    """Close a stored `session` (its seed revealed): the game opened again from `path` is the
    one that was live, and `verify` finds the stored game (of ruleset `game`) good."""
    live = session.ruleset.state_json(session.state)
    session.close()
    resumed = open_session(db=path, seed=seed, notify=lambda _: None)
    try:
        assert resumed.ruleset.id == game
        assert resumed.ruleset.state_json(resumed.state) == live
    finally:
        resumed.close()
    reader = Reader(connect(path, readonly=True), path)
    try:
        with reader.snapshot():
            [stored] = reader.games()
            verdict = verify(from_store(reader, stored))
    finally:
        reader.close()
    assert stored.game == game
    assert verdict.good, verdict.problems
