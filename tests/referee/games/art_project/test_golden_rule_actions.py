"""ART-7 (the GOLDEN RULE) in `legal_actions`: where the van lacks the fuel, radio or weapon an
action costs, health may pay for it, and the legal list offers every such payment `decide`
accepts (who pays, how much) and nothing it refuses (issue 24, item 1: the console and the
box offer exactly this list)."""

from __future__ import annotations

from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import Refusal
from referee.games.art_project import RULESET
from referee.games.art_project.actions import next_step
from tests.referee.games.art_project.helpers import Game

PLAYERS = [["Ann"], ["Ann", "Ben"], ["Ann", "Ben", "Cy"]]


def accepted(g: Game, request: dict[str, Any]) -> bool:
    try:
        RULESET.decide(g.state, RULESET.parse(request))
    except Refusal:
        return False
    return True


def paid(request: dict[str, Any]) -> dict[str, Any]:
    """A request as legal_actions writes it: no field for a payment of nothing."""
    health = request.get("health")
    if isinstance(health, dict):
        health = {k: v for k, v in health.items() if v}
    return {k: v for k, v in {**request, "health": health}.items() if v or k == "cmd"}


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from(PLAYERS), fuel=st.integers(0, 2), radio=st.integers(0, 3),
       weapon=st.integers(0, 1), health=st.lists(st.integers(1, 3), min_size=3, max_size=3),
       phase=st.sampled_from(["A/B", "B", "B/C", "C/D"]))
def test_every_health_payment_decide_accepts_is_a_legal_action(
        players: list[str], fuel: int, radio: int, weapon: int, health: list[int],
        phase: str) -> None:
    g = Game(players, ally="orange") if len(players) == 1 else Game(players)
    g.phase(phase)
    g.van("fuel", fuel)
    g.van("radio", radio)
    g.van("weapon", weapon)
    for name, n in zip(players, health, strict=False):
        g.health(name, n)
    found = RULESET.legal_actions(g.state, None)
    tried: list[dict[str, Any]] = []
    for name in players:
        for city in g.state.mission.cities:  # type: ignore[union-attr]
            for n, ally in product(range(3), (False, True) if len(players) == 1 else (False,)):
                tried.append({"cmd": "move", "player": name, "to": city.name, "health": n,
                              "ally": ally})
    for split in product(range(3), repeat=len(players)):
        tried.append({"cmd": "unlock_ally", "health": dict(zip(players, split, strict=True))})
    for request in tried:
        if accepted(g, request):
            assert paid(request) in found, request
    for action in found:
        assert accepted(g, action), action
    # the next line offers an ally die exactly when one may be unlocked in some way
    unlockable = any(a["cmd"] == "unlock_ally" for a in found)
    assert ("unlock an ally die" in next_step(g.state)) == unlockable


def test_fuel_0_a_move_is_legal_paid_in_health_by_the_mover() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("B")
    g.van("fuel", 0)
    moves = [a for a in RULESET.legal_actions(g.state, "Ann") if a["cmd"] == "move"]
    assert moves and all(a["health"] == 1 for a in moves)
    g.ok(**moves[0])
    assert g.state.player("Ann").health == 2


def test_radio_0_every_way_the_team_shares_the_health_for_an_ally_die() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.phase("A/B")
    g.given(allies=3)  # (what the next die costs is the state's figure)
    cost = g.state.ally_cost
    assert cost is not None
    g.van("radio", 0)
    unlocks = [a["health"] for a in RULESET.legal_actions(g.state, None)
               if a["cmd"] == "unlock_ally"]
    assert unlocks and all(sum(h.values()) == cost for h in unlocks)
    assert len(unlocks) == len({tuple(sorted(h.items())) for h in unlocks})


def test_no_ally_die_left_the_next_line_offers_none() -> None:
    g = Game(["Ann", "Ben"])
    g.phase("A/B")
    g.given(allies=5)
    assert "ally die" not in next_step(g.state)
    assert not [a for a in RULESET.legal_actions(g.state, None) if a["cmd"] == "unlock_ally"]
