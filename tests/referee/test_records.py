"""`referee games`' one-line state of a game, read from the result envelope."""

from __future__ import annotations

from typing import Any

import pytest

from referee.db import GameRecord
from referee.records import describe


def record(status: str, result: dict[str, Any] | None, winner: str | None = None) -> GameRecord:
    return GameRecord(id=1, started_at="2026-01-01T00:00:00", ended_at=None, status=status,
                      players=["Ann", "Ben", "Cy"], winner=winner, commitment="c", seed="s",
                      revealed_at=None, catalog_sha256="x", catalog={}, head="h", entries=3,
                      game="art-project", result=result)


@pytest.mark.parametrize(("status", "result", "winner", "said"), [
    ("over", {"outcome": "won", "winners": ["Ann", "Ben", "Cy"], "reason": "track_full",
              "rule": "ART-26"}, None, "over: Ann, Ben and Cy won"),
    ("over", {"outcome": "won", "winners": ["Ann"], "reason": "most_money", "rule": "GG-30"},
     "Ann", "over: Ann won"),
    ("over", {"outcome": "won", "winners": ["Ann", "Ben"], "reason": "tie", "rule": None},
     None, "over: Ann and Ben won"),
    ("over", {"outcome": "lost", "winners": [], "reason": "health", "rule": "ART-27"}, None,
     "over: lost (health)"),
    ("over", None, "Ann", "over: Ann won"),  # a file written before the result envelope
    ("over", None, None, "over: nobody won"),
    ("abandoned", None, None, "abandoned"),
    ("playing", None, None, "playing"),
])
def test_describe_reads_the_result_envelope(status: str, result: dict[str, Any] | None,
                                            winner: str | None, said: str) -> None:
    assert describe(record(status, result, winner)) == said
