"""Benchmarks: print figures for speed and size targets. Run through `scripts/bench`."""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.app import open_session
from referee.session import LogEntry, Session

SEED = bytes(range(32))


def long_game(commands: int, accepted: list[dict[str, Any]] | None = None,
              session: Session | None = None) -> Session:
    """A 4-player game of about `commands` accepted commands that never ends.

    Players wander, meet obstacles (electronic rolls), steal, sell, draw, and now and then
    undo; win_money is out of reach so the game goes on. Every accepted request is appended
    to `accepted` (refused ones change nothing, so replaying `accepted` gives the same game).
    """
    s = session or Session(seed=SEED)

    def handle(req: dict[str, Any]) -> dict[str, Any]:
        answer = s.handle(req)
        if answer["ok"] and accepted is not None:
            accepted.append(req)
        return answer

    names = ["Ann", "Ben", "Cy", "Di"]
    handle({"cmd": "new_game", "players": names,
            "rules": {"win_money": 10**15, "reup_at_or_below": 2}})
    for i, n in enumerate(names):
        st = s.state
        sp = [c for c in sorted(st.piles["specialist"]) for _ in range(st.piles["specialist"][c])]
        at = [c for c in sorted(st.piles["attribute"]) for _ in range(st.piles["attribute"][c])]
        handle({"cmd": "deal", "player": n, "specialists": sp[i * 3:i * 3 + 3],
                "attributes": at[i * 3:i * 3 + 3]})
    handle({"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1, "Cy": 2, "Di": 3}})
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
        answer = handle(req)
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


def bench_store() -> None:
    print("== store: durable commands, fsyncs per command, resume from disk ==")
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        path = Path(tmp) / "games.sqlite"
        session = open_session(db=path, seed=SEED, notify=lambda _: None)
        t0 = time.perf_counter()
        long_game(10_000, session=session)
        elapsed = time.perf_counter() - t0
        n = len(session.log)
        session.close()
        print(f"durable (committed before answered): {n} commands in {elapsed:.2f} s = "
              f"{n / elapsed:,.0f} commands/s, {1000 * elapsed / n:.2f} ms each "
              f"(file on {path.parent}, {path.stat().st_size / 1e6:.1f} MB)")
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            resumed = open_session(db=path, seed=SEED, notify=lambda _: None)
            times.append(time.perf_counter() - t0)
            assert len(resumed.log) == n
            resumed.close()
        print(f"resume a {n}-command game from disk (quick_check + hash chain + fold): "
              f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s")
        print(_fsyncs_per_command(Path(tmp)))


def _fsyncs_per_command(tmp: Path) -> str:
    """Counted by strace (SQLite syncs from C, so wrapping os.fsync would see nothing)."""
    strace = shutil.which("strace")
    if strace is None:
        return "fsyncs per command: strace not found (apt-get install strace)"
    calls = []
    for n in (200, 1200):
        out = tmp / f"strace-{n}.txt"
        subprocess.run([strace, "-f", "-c", "-o", str(out), "-e", "trace=fsync,fdatasync",
                        sys.executable, __file__, "_durable", str(n), str(tmp / f"s{n}.sqlite")],
                       check=True, stdout=subprocess.DEVNULL)
        calls.append(sum(int(m[1]) for m in re.finditer(
            r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(?:fsync|fdatasync)$",
            out.read_text(), flags=re.M)))
    per = (calls[1] - calls[0]) / 1000
    return (f"fsyncs per command (strace, fsync+fdatasync, 1200 minus 200 commands): {per:.2f} "
            "(synchronous=FULL in WAL mode: one WAL sync per commit)")


def _durable(n: int, path: str) -> None:
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    long_game(n, session=session)
    session.close()


SECTIONS: dict[str, Callable[[], None]] = {"core": bench_core, "store": bench_store}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_durable"]:  # the child process whose syncs bench_store counts
        _durable(int(argv[1]), argv[2])
        return 0
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
