"""`scripts/bench club [--boxes N --commands M]`: club night on this machine, in one run.

One mosquitto on loopback (passwords and ACL on, as tests/club start it), one `referee club`
process, and N boxes: each a `referee headless --db FILE --club URL` process fed one scripted
Gallery Grippers game of M commands, one command at a time, as fast as it answers (a table
never plays that fast: this is the ceiling). Measured:

- club lag: from an entry's time on its box (its `at`, taken as it is recorded) to the club's
  storing it (`received_at`), every entry of every box, median and p99;
- the club process's CPU (user + system seconds over the run) and peak memory (VmHWM);
- the box's extra cost per command, in one process so that both pay for the same machine:
  three durable sessions play the same game, one command each in turn (no club; the club up;
  the broker down: a socket that never answers), each `Session.handle` timed; medians and
  ratios. (The N boxes' own latencies, which share the machine with the broker and the club,
  are printed too.)
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.club.broker import CLUB, READER, Broker, wait_for  # noqa: E402

SEED = bytes(range(32)).hex()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _box(db: Path, requests: list[dict[str, Any]], club: list[str],
         out: list[float]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "headless", "--db", str(db),
                             "--seed", SEED, *club], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    for req in requests:
        line = json.dumps(req).encode() + b"\n"
        t = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        proc.stdout.readline()
        out.append(time.perf_counter() - t)
    proc.stdin.close()
    proc.wait(60)


def _boxes(tmp: Path, tag: str, requests: list[dict[str, Any]], n: int,
           club: Callable[[str], list[str]]) -> list[float]:
    latencies: list[list[float]] = [[] for _ in range(n)]
    threads = [threading.Thread(target=_box, args=(tmp / f"{tag}-{i}.sqlite", requests,
                                                   club(f"box-{i}"), latencies[i]))
               for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [x for one in latencies for x in one[5:]]  # (the first ones start the process)


def _proc_figures(pid: int) -> tuple[float, int]:
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    hwm = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text()
               .splitlines() if line.startswith("VmHWM:"))
    return cpu, hwm


def _paired(tmp: Path, broker: Broker, requests: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each command on three sessions in turn: no club, the club up, the broker down."""
    from referee.app import session_from_args
    from referee.cli import build_parser

    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(8)
    clubs = {"none": [], "up": ["--club", broker.url],
             "down": ["--club", f"mqtt://127.0.0.1:{hole.getsockname()[1]}"]}
    sessions = {}
    for name, extra in clubs.items():
        box = "box-0"
        argv = ["headless", "--db", str(tmp / f"paired-{name}.sqlite"), "--seed", SEED]
        if extra:
            argv += [*extra, "--club-box", box, "--club-secret", str(broker.secret(box))]
        args = build_parser(only="headless").parse_args(argv)
        sessions[name] = session_from_args(args, notify=lambda _: None)
    times: dict[str, list[float]] = {name: [] for name in sessions}
    try:
        for i, req in enumerate(requests):
            order = list(sessions) if i % 2 else list(reversed(sessions))
            for name in order:
                t = time.perf_counter()
                sessions[name].handle(req)
                times[name].append(time.perf_counter() - t)
    finally:
        for s in sessions.values():
            s.close()
        hole.close()
    return {k: v[5:] for k, v in times.items()}


def bench_club(long_game: Callable[..., Any], boxes: int = 5, commands: int = 200) -> None:
    accepted: list[dict[str, Any]] = []
    long_game(commands, accepted)
    print(f"club night: {boxes} boxes x {len(accepted)} commands, one mosquitto, one club "
          "process, on this machine")
    with tempfile.TemporaryDirectory(prefix="bench-club-") as name:
        tmp = Path(name)
        (tmp / "broker").mkdir()
        broker = Broker(tmp / "broker")
        for i in range(boxes):
            broker.add_box(f"box-{i}")
        broker.start()
        try:
            paired = _paired(tmp, broker, accepted)
            baseline = _boxes(tmp, "plain", accepted, boxes, lambda box: [])
            hole = socket.socket()
            hole.bind(("127.0.0.1", 0))
            hole.listen(64)
            down = _boxes(tmp, "down", accepted, boxes, lambda box: [
                "--club", f"mqtt://127.0.0.1:{hole.getsockname()[1]}", "--club-box", box,
                "--club-secret", str(broker.secret(box))])
            hole.close()
            club_db = tmp / "club.sqlite"
            secret = broker.secret(READER)
            club = subprocess.Popen([sys.executable, "-m", "referee", "club", "--broker",
                                     broker.url, "--db", str(club_db), "--secret", str(secret),
                                     "--club", CLUB], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            wait_for(club_db.exists, 30, "the club's file")
            cpu0, _ = _proc_figures(club.pid)
            started = time.perf_counter()
            with_club = _boxes(tmp, "club", accepted, boxes, lambda box: [
                "--club", broker.url, "--club-box", box, "--club-secret",
                str(broker.secret(box))])
            want = boxes * len(accepted)

            def stored() -> int:
                conn = sqlite3.connect(club_db)
                try:
                    return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
                finally:
                    conn.close()

            wait_for(lambda: stored() >= want, 600, "the club storing every entry")
            elapsed = time.perf_counter() - started
            cpu1, hwm = _proc_figures(club.pid)
            club.terminate()
            club.wait(30)
        finally:
            broker.kill()
        conn = sqlite3.connect(club_db)
        lags = [(datetime.fromisoformat(r) - datetime.fromisoformat(a)).total_seconds()
                for a, r in conn.execute("SELECT at, received_at FROM entries")]
        conn.close()
    pb, pu, pd = (statistics.median(paired[k]) * 1000 for k in ("none", "up", "down"))
    print(f"  box's cost per command (one process, interleaved), median: no club {pb:.2f} ms; "
          f"club up {pu:.2f} ms ({pu / pb:.2f}x, goal <= 1.1x); broker down {pd:.2f} ms "
          f"({pd / pb:.2f}x, goal <= 1.2x)")
    base, mid, off = (statistics.median(x) * 1000 for x in (baseline, with_club, down))
    print(f"  club lag (box's entry -> club's stored entry): median "
          f"{statistics.median(lags) * 1000:.1f} ms, "
          f"p99 {_pct(lags, 0.99)*1000:.1f} ms, max {max(lags)*1000:.1f} ms (goal p99 <= 1 s)")
    print(f"  club process: {cpu1 - cpu0:.1f} s CPU for {want} entries in {elapsed:.1f} s "
          f"({want / max(elapsed, 1e-9):.0f} entries/s), peak RSS {hwm / 1024:.1f} MiB")
    print(f"  {boxes} box processes' command latency, median: no club {base:.2f} ms; "
          f"club up {mid:.2f} ms "
          f"({mid / base:.2f}x, goal <= 1.1x); broker down {off:.2f} ms ({off / base:.2f}x, "
          "goal <= 1.2x)")
    print(f"  p99: no club {_pct(baseline, 0.99)*1000:.2f} ms, club up "
          f"{_pct(with_club, 0.99)*1000:.2f} ms, broker down {_pct(down, 0.99)*1000:.2f} ms")
