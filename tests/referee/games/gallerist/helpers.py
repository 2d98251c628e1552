"""Playing The Gallerist on pure states in tests: `Game` decides and folds commands through
the ruleset (as the session does) and walks setup and turns quickly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.games.gallerist import RULESET
from referee.games.gallerist.state import State
from tests.referee.games.playing import COMMIT, PureGame

__all__ = ["COMMIT", "FIXTURE", "PLACES", "Game"]
FIXTURE = str(Path(__file__).with_name("fixture.toml"))
PLACES = ["Media Centre", "Artists Colony", "International Market", "Fourth Location"]


class Game(PureGame):
    RULESET = RULESET
    state: State

    def __init__(self, players: list[str] | None = None, *, start: str | None = "Ann",
                 catalog: str | None = FIXTURE, rules: dict[str, Any] | None = None,
                 **extra: Any) -> None:
        req: dict[str, Any] = {"cmd": "new_game", "players": players or ["Ann", "Ben", "Cy"],
                               **extra}
        if start is not None:
            req["start_player"] = start
        if catalog is not None:
            req["catalog"] = catalog
        if rules:
            req["rules"] = rules
        self.start(req)

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

    def given_player(self, name: str, **changes: Any) -> None:
        self.state = self.state.with_player(name, **changes)
