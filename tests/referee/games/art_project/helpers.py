"""Playing The A.R.T. Project on pure states in tests: `Game` wraps a state, decides and
folds commands (through the ruleset, as the session does), and sets up "given" states.

A "given" changes a count by moving tokens between two places, so that the totals (6 per
resource, 25 health, 40 agents) still hold in every state a test starts from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.errors import Refusal
from referee.games.art_project import RULESET
from referee.games.art_project.state import ArtState
from referee.ruleset import NeedDice

COMMIT = "ab" * 32


class Game:
    def __init__(self, players: list[str] | None = None, *, mission: str = "test-board",
                 difficulty: str = "medium", **extra: Any) -> None:
        self.state: ArtState = RULESET.initial_state(RULESET.load_catalog(None))
        req = {"cmd": "new_game", "players": [{"name": n} for n in players or ["Ann", "Ben",
                                                                                "Cy"]],
               "mission": mission, "difficulty": difficulty, **extra}
        cmd = RULESET.start(RULESET.parse(req), commitment=COMMIT, settings={})
        self._apply(cmd)

    def _apply(self, cmd: Any) -> list[dict[str, Any]]:
        events = RULESET.decide(self.state, cmd)
        if isinstance(events, NeedDice):
            raise AssertionError(f"needs dice: {events}")
        self.state = RULESET.fold(self.state, events)
        return events

    def ok(self, cmd: str, **fields: Any) -> list[dict[str, Any]]:
        return self._apply(RULESET.parse({"cmd": cmd, **fields}))

    def need(self, cmd: str, **fields: Any) -> NeedDice:
        out = RULESET.decide(self.state, RULESET.parse({"cmd": cmd, **fields}))
        assert isinstance(out, NeedDice), out
        return out

    def no(self, cmd: str, code: str, rule: str | None = None, **fields: Any) -> Refusal:
        before = self.state
        try:
            RULESET.decide(self.state, RULESET.parse({"cmd": cmd, **fields}))
        except Refusal as err:
            assert err.code == code, (err.code, err.message)
            if rule is not None:
                assert err.rule == rule, (err.rule, err.message)
            assert err.message
            assert self.state == before
            return err
        raise AssertionError(f"{cmd} {fields} was accepted")

    @property
    def json(self) -> dict[str, Any]:
        return RULESET.state_json(self.state)

    # ---- given states ---------------------------------------------------------------------
    def given(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

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
