"""Benchmarks: print figures for speed and size targets. Run through `scripts/bench`."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from referee.session import LogEntry, Session

SEED = bytes(range(32))


def long_game(commands: int) -> Session:
    """A 4-player game of about `commands` accepted commands that never ends.

    Players wander, meet obstacles (electronic rolls), steal, sell, draw, and now and then
    undo; win_money is out of reach so the game goes on.
    """
    s = Session(seed=SEED)
    names = ["Ann", "Ben", "Cy", "Di"]
    s.handle({"cmd": "new_game", "players": names,
              "rules": {"win_money": 10**15, "reup_at_or_below": 2}})
    for i, n in enumerate(names):
        st = s.state
        sp = [c for c in sorted(st.piles["specialist"]) for _ in range(st.piles["specialist"][c])]
        at = [c for c in sorted(st.piles["attribute"]) for _ in range(st.piles["attribute"][c])]
        s.handle({"cmd": "deal", "player": n, "specialists": sp[i * 3:i * 3 + 3],
                  "attributes": at[i * 3:i * 3 + 3]})
    s.handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1, "Cy": 2, "Di": 3}})
    museums = list(s.catalog.museums)
    step = 0
    while len(s.log) < commands:
        step += 1
        st = s.state
        who = st.current_player
        assert who is not None
        pend = [p for p in st.pending if p.player == who.name]
        if pend:
            p = pend[0]
            req = {"obstacle": {"cmd": "bypass", "player": who.name,
                                **({"roll": 100} if who.strikes >= 1 else {})},
                   "caught": {"cmd": "choose", "player": who.name, "choice": "ditch"},
                   "second_strike": {"cmd": "choose", "player": who.name, "choice": "leave"},
                   "reup": {"cmd": "reup", "player": who.name},
                   "draw": {"cmd": "draw", "player": who.name,
                            "deck": "attribute" if step % 2 else "specialist"}}[p.decision]
        elif not st.turn.moved:
            if who.where is None:
                plan = ["art", "recruitment", "black_market", "plain", "security"][step % 5]
                req = {"cmd": "move", "player": who.name, "tile": plan}
                if plan in ("art", "security"):
                    req["museum"] = museums[step % len(museums)]
            else:
                plan = ["exit", "security", "art", "exit"][step % 4]
                req = {"cmd": "move", "player": who.name, "tile": plan}
        elif st.turn.tile == "art" and not st.turn.stolen and st.museums[st.turn.museum or ""]:
            req = {"cmd": "steal", "player": who.name, "art": st.museums[st.turn.museum or ""][0]}
        elif st.turn.tile == "black_market" and who.art:
            req = {"cmd": "sell", "player": who.name}
        elif step % 13 == 0:
            req = {"cmd": "undo"}
        else:
            req = {"cmd": "end_turn", "player": who.name}
        answer = s.handle(req)
        if not answer["ok"] and req["cmd"] != "undo":
            raise RuntimeError(f"bench game refused {req}: {answer['error']}")
    return s


def bench_core() -> None:
    print("== core: decide + apply, rebuilding a game from its events ==")
    t0 = time.perf_counter()
    s = long_game(10_000)
    elapsed = time.perf_counter() - t0
    n = len(s.log)
    events = sum(len(e.events) for e in s.log)
    print(f"decide+apply: {n} commands ({events} events) in {elapsed:.3f} s "
          f"= {n / elapsed:,.0f} commands/s")
    entries = [LogEntry(e.seq, e.command, e.events, e.undone) for e in s.log]
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        rebuilt = Session.resume(entries, seed=s.seed)
        times.append(time.perf_counter() - t0)
    assert rebuilt.state == s.state
    print(f"rebuild state of a {n}-command game from its events: median "
          f"{statistics.median(times):.3f} s, worst {max(times):.3f} s (target < 0.5 s)")


# ---- console -------------------------------------------------------------------------------

MINIMAL_APP = """
import sys, time
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("hello")

async def stop(pilot):
    print(time.perf_counter() - float(sys.argv[1]))
    pilot.app.exit()

Minimal().run(headless=True, size=(100, 32), auto_pilot=stop)
"""

CONSOLE_APP = """
import sys, time
from referee.session import Session
from ui.app import make_app

async def stop(pilot):
    print(time.perf_counter() - float(sys.argv[1]))
    pilot.app.exit()

make_app(Session()).run(headless=True, size=(100, 32), auto_pilot=stop)
"""


def _first_paint(script: str) -> float:
    """Seconds from launching a fresh Python to the app's first painted screen (the
    auto-pilot runs once the first screen is up), measured inside the child."""
    import subprocess
    import sys

    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, repr(t0)], capture_output=True,
                          text=True, check=True, timeout=120)
    return float(done.stdout.strip().splitlines()[-1])


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def bench_console() -> None:
    import asyncio

    print("== console: cold start and key latency (textual, headless) ==")
    repeats = 5
    minimal = [_first_paint(MINIMAL_APP) for _ in range(repeats)]
    console = [_first_paint(CONSOLE_APP) for _ in range(repeats)]
    ratio = statistics.median(console) / statistics.median(minimal)
    print(f"cold start to first screen: console median {statistics.median(console):.3f} s, "
          f"minimal Textual app {statistics.median(minimal):.3f} s, ratio {ratio:.2f}x "
          f"(target <= 1.5x; {repeats} runs each, separate processes)")

    async def latency() -> list[float]:
        from ui.app import make_app
        from ui.screens.hands import balanced_hands
        from ui.screens.table import TableScreen
        from ui.screens.turn import MoveDialog

        s = Session(seed=SEED)
        s.handle({"cmd": "new_game", "players": ["Ann", "Ben"]})
        for name, hand in balanced_hands(s.state, ["Ann", "Ben"]).items():
            s.handle({"cmd": "deal", "player": name, **hand})
        if not s.handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}})["ok"]:
            raise RuntimeError("bench game did not start")
        app = make_app(s)
        times: list[float] = []
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("r")  # resume
            await pilot.pause()
            for _ in range(40):
                for key, screen in (("r", MoveDialog), ("escape", TableScreen)):
                    t0 = time.perf_counter()
                    await pilot.press(key)
                    while not isinstance(app.screen, screen):
                        await pilot.pause()
                    times.append(time.perf_counter() - t0)
        return times

    times = asyncio.run(latency())
    print(f"key press -> screen updated (open/close the move dialog, run_test, {len(times)} "
          f"presses): median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {_percentile(times, 99) * 1000:.1f} ms")


SECTIONS: dict[str, Callable[[], None]] = {"core": bench_core, "console": bench_console}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help=f"which to run (default all): {', '.join(SECTIONS)}")
    args = parser.parse_args(argv)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    for name in args.sections or SECTIONS:
        SECTIONS[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
