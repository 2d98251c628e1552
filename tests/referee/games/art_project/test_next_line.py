"""ART-9: the `next` line names each kind of pending team decision in its own words (the
console and the box show it as it is)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.art_project.actions import next_step
from referee.games.art_project.state import Pending
from referee.session import Session
from tests.referee.games.art_project.test_session import SEED, START, ok


@pytest.mark.parametrize(("decision", "words"), [
    ("uncover_order", "which set to uncover first"),
    ("uncover_island", "which island gets the film artwork"),
    ("collect_order", "which artwork to collect first"),
    ("lose_resources", "what the van loses"),
    ("lose_clue", "which clue card is lost"),
    ("effect_health", "who pays the health"),
    ("clue_set", "which cards make the film set"),
])
def test_art_9_the_next_line_names_each_pending_decision(decision: str, words: str) -> None:
    session = Session(seed=SEED)
    ok(session, **START)
    state = replace(session.state, pending=(Pending(decision, ("x", "y"), symbol="film"),))
    assert next_step(state) == f"The team chooses {words}: x or y (choose)."
