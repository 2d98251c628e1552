"""Playing The Gallerist on pure states in tests: `Game` decides and folds commands through
the ruleset (as the session does) and walks setup and turns quickly."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.errors import Refusal
from referee.games.gallerist import RULESET
from referee.games.gallerist.state import State
from referee.ruleset import NeedDice

COMMIT = "ab" * 32
FIXTURE = str(Path(__file__).with_name("fixture.toml"))
PLACES = ["Media Centre", "Artists Colony", "International Market", "Fourth Location"]


class Game:
    def __init__(self, players: list[str] | None = None, *, start: str | None = "Ann",
                 catalog: str | None = FIXTURE, rules: dict[str, Any] | None = None,
                 **extra: Any) -> None:
        self.state: State = RULESET.initial_state(RULESET.load_catalog(None))
        req: dict[str, Any] = {"cmd": "new_game", "players": players or ["Ann", "Ben", "Cy"],
                               **extra}
        if start is not None:
            req["start_player"] = start
        if catalog is not None:
            req["catalog"] = catalog
        if rules:
            req["rules"] = rules
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

    @property
    def next(self) -> str:
        return str(self.json["next"])

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.json["players"] if p["name"] == name)

    # ---- walking ------------------------------------------------------------------------
    def place_all(self, places: dict[str, str] | None = None) -> None:
        """Every starting place in the order the box asks (default: seat i on PLACES[i])."""
        names = list(self.state.names)
        while self.state.phase == "setup":
            due = self.json["pending"][0]["player"]
            where = (places or {}).get(due, PLACES[names.index(due)])
            self.ok("place_start", player=due, location=where, tile=f"tile-{due}")

    def turn(self, player: str, to: str, **move: Any) -> list[dict[str, Any]]:
        """A whole plain turn: move, location action, end."""
        events = self.ok("move", player=player, to=to, **move)
        events += self.ok("location_action", player=player)
        events += self.ok("end_turn", player=player)
        return events

    def given(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def given_player(self, name: str, **changes: Any) -> None:
        self.state = self.state.with_player(name, **changes)
