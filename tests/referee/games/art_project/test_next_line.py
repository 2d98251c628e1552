"""ART-9: the `next` line names each kind of pending team decision in its own words (the
console and the box show it as it is)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.art_project import RULESET
from referee.games.art_project.actions import next_step
from referee.games.art_project.state import Clue, Pending
from referee.session import Session
from tests.referee.games.art_project.test_session import SEED, START, ok


@pytest.mark.parametrize(("decision", "words"), [
    ("uncover_order", "which set to uncover first"),
    ("uncover_island", "which island gets the film artwork"),
    ("collect_order", "which artwork to collect first"),
    ("lose_resources", "what the van loses"),
    ("lose_clue", "which clue card is lost"),
    ("effect_health", "who pays the health"),
    ("clue_set", "which clue cards make the film set"),
])
def test_art_9_the_next_line_names_each_pending_decision(decision: str, words: str) -> None:
    session = Session(seed=SEED)
    ok(session, **START)
    state = replace(session.state, pending=(Pending(decision, ("x", "y"), symbol="film"),))
    assert next_step(state) == f"The team chooses {words}: x or y."


def test_rio_setup_agents_and_usa_clue_exchanges_are_legal_actions() -> None:
    """ART-33, ART-30: the legal list offers them (so front ends can), and each is accepted."""
    from tests.referee.games.art_project.test_rules import board

    rio = board("test-rio")
    offered = [a for a in RULESET.legal_actions(rio.state, "Ann")
               if a["cmd"] == "place_agents"]
    assert offered and all(a["player"] == "Ann" for a in offered)
    assert {tuple(a["agents"].values()) for a in offered} == {(2,)}
    rio.ok(**offered[0])
    assert not [a for a in RULESET.legal_actions(rio.state, "Ann") if a["cmd"] == "place_agents"]
    usa = board("test-usa")
    usa.given(chain=(Clue("c1", ("film",), "Ann"),))
    assert not [a for a in RULESET.legal_actions(usa.state, None) if a["cmd"] == "give_clue"]
    usa.phase("C/D")
    usa.given(agents={**usa.state.agents, usa.state.player("Ann").city: 0})
    given = [a for a in RULESET.legal_actions(usa.state, None) if a["cmd"] == "give_clue"]
    assert given == [{"cmd": "give_clue", "from": "Ann", "to": "Ben", "card": "c1"}]
    usa.no("give_clue", "same_player", "ART-30", **{"from": "Ann", "to": "Ann", "card": "c1"})
    usa.ok(**given[0])
    assert [(x.id, x.player) for x in usa.state.chain] == [("c1", "Ben")]
