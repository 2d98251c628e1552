"""Playing The A.R.T. Project on pure states in tests: `Game` wraps a state, decides and
folds commands (through the ruleset, as the session does), and sets up "given" states.

A "given" changes a count by moving tokens between two places, so that the totals (6 per
resource, 25 health, 40 agents) still hold in every state a test starts from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.games.art_project import RULESET
from referee.games.art_project.state import ArtState
from tests.referee.games.playing import COMMIT, PureGame

__all__ = ["COMMIT", "Game", "totals"]


class Game(PureGame):
    RULESET = RULESET
    state: ArtState

    def __init__(self, players: list[str] | None = None, *, mission: str = "test-board",
                 difficulty: str = "medium", **extra: Any) -> None:
        self.start({"cmd": "new_game",
                    "players": [{"name": n} for n in players or ["Ann", "Ben", "Cy"]],
                    "mission": mission, "difficulty": difficulty, **extra})

    # ---- given states ---------------------------------------------------------------------
    def van(self, kind: str, n: int) -> None:
        self.given(van={**self.state.van, kind: n}, reserve={**self.state.reserve, kind: 6 - n})

    def health(self, name: str, n: int) -> None:
        old = self.state.player(name)
        assert old is not None
        self.given(players=tuple(replace(p, health=n) if p.name == name else p
                                 for p in self.state.players),
                   health_reserve=self.state.health_reserve + old.health - n)

    def agents(self, city: str, n: int) -> None:
        old = self.state.agents.get(city, 0) if city != "hq" else self.state.hq
        if city == "hq":
            self.given(hq=n)
        else:
            self.given(agents={**self.state.agents, city: n})
        self.given(agent_reserve=self.state.agent_reserve + old - n)

    def at(self, name: str, city: str) -> None:
        self.given(players=tuple(replace(p, city=city) if p.name == name else p
                                 for p in self.state.players))

    def phase(self, phase: str) -> None:
        """Jump to `phase` with every draw made and card played (hands empty)."""
        self.given(phase=phase, players=tuple(replace(p, draws_owed=0, hand=0, setup_agents=0,
                                                      played=self.state.plays_due())
                                              for p in self.state.players))

    def drawn(self) -> None:
        """Every owed draw made (phase A)."""
        for p in self.state.players:
            for _ in range(p.draws_owed):
                self.ok("draw", player=p.name)


def totals(s: ArtState) -> tuple[dict[str, int], int, int]:
    """(van + reserve per resource, all health, all agents): 6 each, 25 and 40 always."""
    return ({r: s.van[r] + s.reserve[r] for r in s.van},
            sum(p.health for p in s.players) + s.health_reserve,
            sum(s.agents.values()) + s.hq + s.agent_reserve)
