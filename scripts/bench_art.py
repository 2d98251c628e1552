"""`scripts/bench art`: The A.R.T. Project's figures beside Gallery Grippers', in one run.

decide+apply throughput and rebuilding a long game from its events, for a long A.R.T. game
and for the core section's Gallery Grippers game of the same length, measured here one
after the other so that the ratio holds on a loaded machine. An A.R.T. game is short by
nature (the final card comes after 60 cards), so the long one is stretched with what a
table does a lot: moves taken back by undo, and battles rolled by the box, undone and
rolled again from the kept dice.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from referee.session import LogEntry, Session

SEED = bytes(range(32))
NAMES = ["Ann", "Ben", "Cy"]


def long_art_game(commands: int) -> Session:
    """A 3-player A.R.T. game of about `commands` accepted commands (refusals stop it)."""
    s = Session(seed=SEED)

    def ok(**req: Any) -> None:
        answer = s.handle(req)
        if not answer["ok"]:
            raise RuntimeError(f"bench game refused {req}: {answer['error']}")

    ok(cmd="new_game", game="art-project", mission="test-board", difficulty="easy",
       players=[{"name": n} for n in NAMES])
    turn = 0
    while len(s.log) < commands and not s.state.over:
        turn += 1
        for n in NAMES:
            while s.state.player(n).draws_owed:
                ok(cmd="draw", player=n)
        for i, n in enumerate(NAMES):
            ok(cmd="play_card", player=n, clues=[["film", "book", "music"][i]],
               agents={"Painting": 1} if turn % 3 == 0 and i == 0 else {},
               gain={"fuel": 1})
        ok(cmd="end_phase")
        ok(cmd="end_phase")
        rounds_left = max(1, 14 - s.state.round)  # the final card comes in round 15
        for _ in range(max(1, (commands - len(s.log)) // (2 * rounds_left) - 20)):
            ok(cmd="move", player="Ann", to="Sculpture")
            ok(cmd="undo")
        ok(cmd="end_phase")
        ok(cmd="end_phase")
        if s.state.agents.get("Start", 0) and "Start" not in s.state.fought:
            for _ in range(20):
                ok(cmd="battle", city="Start", leader="Ann")
                ok(cmd="undo")
            ok(cmd="battle", city="Start", leader="Ann")
            if s.state.battle is not None:
                ok(cmd="concede")
        ok(cmd="end_phase")
        ok(cmd="end_phase")
    return s


def _figures(label: str, build: Any, commands: int) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    s = build(commands)
    elapsed = time.perf_counter() - t0
    n = len(s.log)
    entries = [LogEntry(e.seq, e.command, e.events, e.undone) for e in s.log]
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        rebuilt = Session.resume(entries, seed=s.seed, ruleset=s.ruleset)
        times.append(time.perf_counter() - t0)
    assert rebuilt.state == s.state
    rate = n / elapsed
    print(f"{label}: {n} commands in {elapsed:.3f} s = {rate:,.0f} commands/s; rebuild "
          f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s")
    return rate, statistics.median(times) / n, n


def bench_art(gg_long_game: Any, commands: int = 10_000) -> None:
    print("== art: The A.R.T. Project beside Gallery Grippers (same run, same length) ==")
    art_rate, art_rebuild, n = _figures("A.R.T. (3 players)", long_art_game, commands)
    gg_rate, gg_rebuild, _ = _figures("Gallery Grippers (4 players)", gg_long_game, n)
    print(f"A.R.T. / Gallery Grippers: throughput {art_rate / gg_rate:.2f}x, rebuild time "
          f"per command {art_rebuild / gg_rebuild:.2f}x (target rebuild of the long game "
          "< 0.5 s, as the core's)")
