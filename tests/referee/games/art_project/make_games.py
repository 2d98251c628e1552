"""Writes the headless scripts beside this file.

Run: python -m tests.referee.games.art_project.make_games

Each is a whole cooperative game of The A.R.T. Project as JSON lines, played by a simple
team on the fixture board `test-board` (Rio: the fixture `test-rio` in boards.toml) with
physical battle dice, so that it ends the same way with any seed: `win.jsonl` to a win,
and `lost_<reason>.jsonl` to each kind of loss. The generator checks every line is accepted
as it writes it; `test_headless.py` plays the files through `referee headless`.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

from referee.session import Session

HERE = Path(__file__).parent
BOARDS = "tests/referee/games/art_project/boards.toml"  # relative to the repository


class Script:
    def __init__(self, **new_game: Any) -> None:
        self.session = Session(seed=bytes(32))
        self.lines: list[dict[str, Any]] = []
        self.send(cmd="new_game", game="art-project", **new_game)

    def send(self, **request: Any) -> dict[str, Any]:
        answer = self.session.handle(request)
        assert answer["ok"], (request, answer)
        self.lines.append(request)
        return answer

    @property
    def s(self) -> Any:
        return self.session.state

    def draws(self) -> None:
        while owing := [p.name for p in self.s.players if p.draws_owed]:
            self.send(cmd="draw", player=owing[0])

    def write(self, name: str) -> None:
        assert self.s.over, name
        text = "".join(json.dumps(line) + "\n" for line in self.lines)
        (HERE / name).write_text(text, encoding="utf-8")


def path(s: Any, a: str, b: str) -> list[str]:
    """The cities after `a` on a shortest road path to `b` (the fixture has a map)."""
    roads = s.mission.roads
    came: dict[str, str | None] = {a: None}
    todo = deque([a])
    while todo:
        x = todo.popleft()
        for r in roads:
            for u, v in ((r.a, r.b), (r.b, r.a)):
                if u == x and v not in came and v not in s.lost:
                    came[v] = x
                    todo.append(v)
    out = []
    while b != a:
        out.append(b)
        b = came[b]  # type: ignore[assignment]
    return out[::-1]


def win() -> Script:
    """Ann and Ben: each round both cards complete one set; Ann goes to the artwork, fights
    for it with her die, the allies and weapons, and it goes on the track."""
    g = Script(mission="test-board", difficulty="easy",
               players=[{"name": "Ann"}, {"name": "Ben"}])
    symbols = ["film", "sculpture", "book", "painting", "artifact", "music", "film"]
    for symbol in symbols:
        g.draws()
        g.send(cmd="play_card", player="Ann", clues=[symbol, symbol],
               gain={"fuel": 2, "weapon": 2})
        g.send(cmd="play_card", player="Ben", clues=[symbol], gain={"radio": 2, "weapon": 2})
        g.send(cmd="end_phase")
        if g.s.allies < 5 and g.s.van["radio"] >= (g.s.ally_cost or 99):
            g.send(cmd="unlock_ally")
        city = g.s.artwork[0]
        for step in path(g.s, g.s.player("Ann").city, city):
            g.send(cmd="move", player="Ann", to=step,
                   **({"health": 1} if not g.s.van["fuel"] else {}))
        g.send(cmd="end_phase")
        if g.s.over:
            break
        g.send(cmd="end_phase")
        if g.s.agents[city]:
            rolls = {"Ann": 6, **{f"ally{i}": 6 for i in range(1, g.s.allies + 1)}}
            g.send(cmd="battle", city=city, leader="Ann", rolls=rolls)
            while g.s.battle is not None:
                g.send(cmd="weapon", player="Ann",
                       **({"health": 1} if not g.s.van["weapon"] else {}))
        if g.s.over:
            break
        g.send(cmd="end_phase")
        g.send(cmd="end_phase")
    g.send(cmd="state")
    return g


def _round(g: Script, **cards: dict[str, Any]) -> None:
    g.draws()
    for p in g.s.players:
        for _ in range(g.s.plays_due() - p.played):
            g.send(cmd="play_card", player=p.name, **cards.get(p.name, {}))
            if g.s.over:
                return


def lost_health() -> Script:
    g = Script(mission="test-board", difficulty="impossible",
               players=[{"name": "Ann"}, {"name": "Ben"}])
    _round(g, Ann={"spend": {"fuel": 4}})  # the van holds 3: the 4th is Ann's last health
    return g


def lost_agents() -> Script:
    g = Script(mission="test-board", difficulty="medium",
               players=[{"name": "Ann"}, {"name": "Ben"}])
    _round(g, Ann={"agents": {"Music": 30}, "gain": {"fuel": 1}})
    return g


def lost_markers() -> Script:
    g = Script(mission="test-board", difficulty="medium",
               players=[{"name": "Ann"}, {"name": "Ben"}])
    _round(g, Ann={"agents": {"Book": 3, "Painting": 3}},
           Ben={"agents": {"Artifact": 3, "Music": 3}})
    for _ in range(6):
        g.send(cmd="end_phase")
    return g


def lost_surrounded() -> Script:
    g = Script(mission="test-board", difficulty="medium",
               players=[{"name": "Ann"}, {"name": "Ben"}])
    _round(g, Ann={"agents": {"Film": 3, "Sculpture": 3}}, Ben={"agents": {"Start": 3}})
    for _ in range(6):
        g.send(cmd="end_phase")
    _round(g)
    g.send(cmd="end_phase")
    g.send(cmd="end_phase")  # movement opens: Ann and Ben cannot leave Start
    return g


def lost_final_card() -> Script:
    g = Script(mission="test-board", difficulty="medium", players=[{"name": "Ann"}],
               ally="green")
    while not g.s.over:
        _round(g)
        for _ in range(6):
            g.send(cmd="end_phase")
    return g


def lost_rio_district() -> Script:
    g = Script(mission="test-rio", difficulty="medium", catalog=BOARDS,
               players=[{"name": "Ann"}, {"name": "Ben"}])
    g.send(cmd="place_agents", player="Ann", agents={"Cinema": 2})
    g.send(cmd="place_agents", player="Ben", agents={"Cinema": 1, "Library": 1})
    _round(g, Ann={"agents": {"Cinema": 3}})
    for _ in range(6):
        g.send(cmd="end_phase")
    return g


GAMES = {"win.jsonl": win, "lost_health.jsonl": lost_health,
         "lost_agents.jsonl": lost_agents, "lost_lost_markers.jsonl": lost_markers,
         "lost_surrounded.jsonl": lost_surrounded, "lost_final_card.jsonl": lost_final_card,
         "lost_rio_district.jsonl": lost_rio_district}

if __name__ == "__main__":
    for name, play in GAMES.items():
        play().write(name)
        print(name)
