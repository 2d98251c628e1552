"""What The A.R.T. Project's console screens share: the state as the ruleset shows it, and
the requests it accepts now (every figure and every action is the ruleset's)."""

from __future__ import annotations

from typing import Any

from referee.session import Session


def shown(session: Session) -> dict[str, Any]:
    """The state as the ruleset shows it (every count and derived figure)."""
    return session.ruleset.state_json(session.state)


def legal(session: Session, cmd: str | None = None) -> list[dict[str, Any]]:
    """The requests the ruleset accepts now (of one command, if named)."""
    found = session.ruleset.legal_actions(session.state, None)
    return [r for r in found if cmd is None or r["cmd"] == cmd]


def pending_of(session: Session, decision: str) -> dict[str, Any] | None:
    return next((p for p in shown(session)["pending"] if p["decision"] == decision), None)
