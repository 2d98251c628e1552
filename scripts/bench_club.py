"""`scripts/bench club [--boxes N --commands M --pace R --box-nice K]`: club night on this
machine, in one run.

One mosquitto on loopback (passwords and ACL on, as tests/club start it), one `referee club`
process, and N boxes: each a `referee headless --db FILE --club URL` process fed one scripted
Gallery Grippers game of M commands, one command at a time. Three nights are played:

- **flat out, the boxes at nice K** (default 10): each command as soon as the last is answered
  (a table never plays that fast: this is the ceiling). On a club night every box is its own
  Pi and the broker and the club have their machine to themselves; here the N boxes share its
  two cores, so they run at a lower priority and the broker and the club are scheduled first,
  as on a machine of their own. The box's own publisher thread runs at the boxes' priority, so
  its part of the lag is still the one of a box sharing two cores with N - 1 others. This is
  the night the goal (p99 <= 1 s) is read on.
- **flat out, every process at one priority**: the N boxes take the club machine's CPU from
  the broker and the club (the worst case: what a club machine that also runs 30 busy boxes
  would see).
- **R commands a second per box** (default 5, `--pace 0` leaves it out), one priority: still
  many times a table's pace (a table makes one every few seconds), the machine not saturated.

Measured, each night:
- club lag: from an entry's time on its box (its `at`, taken as it is recorded) to the club's
  storing it (`received_at`), every entry of every box, median, p99 and max;
- the club process's CPU (user + system seconds over the night) and peak memory (VmHWM).

And the box's extra cost per command, in one process so that both pay for the same machine:
three durable sessions play the same game, one command each in turn (no club; the club up;
the broker down: a socket that never answers), each `Session.handle` timed; medians and
ratios. (The N boxes' own latencies on the first night, beside N boxes at the same priority
with no club and with the broker down, are printed too, and each box process's CPU per
command, start-up included; and one box process alone, flat out, its CPU per command with no
club and with the club up, five runs each in turn.)
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
         out: list[float], cpu: list[float], pace: float = 0.0, nice: int = 0) -> None:
    prefix = ["nice", "-n", str(nice)] if nice else []
    proc = subprocess.Popen([*prefix, sys.executable, "-m", "referee", "headless", "--db",
                             str(db), "--seed", SEED, *club], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    start = time.perf_counter()
    for i, req in enumerate(requests):
        if pace:  # (a table's pace: the next command at its time, not as soon as answered)
            time.sleep(max(0.0, start + i / pace - time.perf_counter()))
        line = json.dumps(req).encode() + b"\n"
        t = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        proc.stdout.readline()
        out.append(time.perf_counter() - t)
    proc.stdin.close()
    _, _, usage = os.wait4(proc.pid, 0)  # (its CPU: user + system, start-up included)
    proc.returncode = 0
    cpu.append(usage.ru_utime + usage.ru_stime)


def _boxes(tmp: Path, tag: str, requests: list[dict[str, Any]], n: int,
           club: Callable[[str], list[str]], pace: float = 0.0,
           nice: int = 0) -> tuple[list[float], float]:
    """Each box's command latencies (all boxes), and the boxes' CPU per command."""
    latencies: list[list[float]] = [[] for _ in range(n)]
    cpu: list[float] = []
    threads = [threading.Thread(target=_box, args=(tmp / f"{tag}-{i}.sqlite", requests,
                                                   club(f"box-{i}"), latencies[i], cpu,
                                                   pace, nice))
               for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return ([x for one in latencies for x in one[5:]],  # (the first ones start the process)
            sum(cpu) / (n * len(requests)))


def _alone(tmp: Path, broker: Broker, requests: list[dict[str, Any]],
           rounds: int = 5) -> dict[str, list[float]]:
    """One box process at a time, flat out, no club and the club up in turn (`rounds` each):
    its CPU per command, start-up included, on a machine the other boxes do not share."""
    cpu: dict[str, list[float]] = {"none": [], "up": []}
    for r in range(rounds):
        for kind in ("none", "up") if r % 2 else ("up", "none"):
            club = [] if kind == "none" else [
                "--club", broker.url, "--club-box", "box-0", "--club-secret",
                str(broker.secret("box-0"))]
            one: list[float] = []
            _box(tmp / f"alone-{kind}-{r}.sqlite", requests, club, [], one)
            cpu[kind].append(one[0] / len(requests))
    return cpu


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


def _night(tmp: Path, broker: Broker, requests: list[dict[str, Any]], boxes: int, tag: str,
           pace: float = 0.0, nice: int = 0) -> dict[str, Any]:
    """One club night: a `referee club` process and `boxes` boxes publishing to it; the
    club's lags, CPU and memory, and the boxes' own latencies."""
    club_db = tmp / f"club-{tag}.sqlite"
    secret = broker.secret(READER)
    club = subprocess.Popen([sys.executable, "-m", "referee", "club", "--broker",
                             broker.url, "--db", str(club_db), "--secret", str(secret),
                             "--club", CLUB], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    want = boxes * len(requests)

    def stored() -> int:
        conn = sqlite3.connect(club_db)
        try:
            return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
        finally:
            conn.close()

    try:
        wait_for(club_db.exists, 30, "the club's file")
        cpu0, _ = _proc_figures(club.pid)
        started = time.perf_counter()
        latencies, cpu = _boxes(tmp, tag, requests, boxes, lambda box: [
            "--club", broker.url, "--club-box", box, "--club-secret",
            str(broker.secret(box))], pace, nice)
        wait_for(lambda: stored() >= want, 600, "the club storing every entry")
        elapsed = time.perf_counter() - started
        cpu1, hwm = _proc_figures(club.pid)
    finally:
        club.terminate()
        club.wait(30)
    conn = sqlite3.connect(club_db)
    lags = [(datetime.fromisoformat(r) - datetime.fromisoformat(a)).total_seconds()
            for a, r in conn.execute("SELECT at, received_at FROM entries")]
    conn.close()
    return {"lags": lags, "cpu": cpu1 - cpu0, "hwm": hwm, "elapsed": elapsed, "want": want,
            "latencies": latencies, "box_cpu": cpu}


def _say_night(title: str, night: dict[str, Any], goal: bool) -> None:
    lags = night["lags"]
    p99 = _pct(lags, 0.99)
    verdict = f" (goal p99 <= 1 s: {'met' if p99 <= 1.0 else 'missed'})" if goal else ""
    print(f"  {title}:")
    print(f"    club lag (box's entry -> club's stored entry): median "
          f"{statistics.median(lags) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
          f"max {max(lags) * 1000:.0f} ms{verdict}")
    print(f"    club process: {night['cpu']:.1f} s CPU for {night['want']} entries in "
          f"{night['elapsed']:.1f} s ({night['want'] / max(night['elapsed'], 1e-9):.0f} "
          f"entries/s), peak RSS {night['hwm'] / 1024:.1f} MiB")


def bench_club(long_game: Callable[..., Any], boxes: int = 5, commands: int = 200,
               pace: float = 5.0, nice: int = 10) -> None:
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
            alone = _alone(tmp, broker, accepted)
            baseline, base_cpu = _boxes(tmp, "plain", accepted, boxes, lambda box: [], nice=nice)
            hole = socket.socket()
            hole.bind(("127.0.0.1", 0))
            hole.listen(64)
            down, down_cpu = _boxes(tmp, "down", accepted, boxes, lambda box: [
                "--club", f"mqtt://127.0.0.1:{hole.getsockname()[1]}", "--club-box", box,
                "--club-secret", str(broker.secret(box))], nice=nice)
            hole.close()
            model = _night(tmp, broker, accepted, boxes, "club", nice=nice)
            shared = _night(tmp, broker, accepted, boxes, "shared")
            paced = _night(tmp, broker, accepted, boxes, "paced", pace=pace) if pace else None
        finally:
            broker.kill()
    pb, pu, pd = (statistics.median(paired[k]) * 1000 for k in ("none", "up", "down"))
    print(f"  box's cost per command (one process, interleaved), median: no club {pb:.2f} ms; "
          f"club up {pu:.2f} ms ({pu / pb:.2f}x, goal <= 1.1x); broker down {pd:.2f} ms "
          f"({pd / pb:.2f}x, goal <= 1.2x)")
    _say_night(f"flat out, the boxes at nice {nice} (the broker and the club scheduled first, "
               "as on a machine of their own)", model, goal=True)
    _say_night("flat out, every process at one priority (the boxes take the club machine's "
               "CPU)", shared, goal=False)
    if paced is not None:
        _say_night(f"{pace:g} commands a second per box, one priority", paced, goal=False)
    with_club = model["latencies"]
    base, mid, off = (statistics.median(x) * 1000 for x in (baseline, with_club, down))
    print(f"  {boxes} box processes' command latency at nice {nice}, median: no club "
          f"{base:.2f} ms; club up {mid:.2f} ms ({mid / base:.2f}x); broker down {off:.2f} ms "
          f"({off / base:.2f}x)")
    print(f"  p99: no club {_pct(baseline, 0.99)*1000:.2f} ms, club up "
          f"{_pct(with_club, 0.99)*1000:.2f} ms, broker down {_pct(down, 0.99)*1000:.2f} ms")
    up_cpu = model["box_cpu"]
    print(f"  box process's CPU per command (its start-up included): no club "
          f"{base_cpu * 1000:.2f} ms; club up {up_cpu * 1000:.2f} ms "
          f"({up_cpu / base_cpu:.2f}x); broker down {down_cpu * 1000:.2f} ms "
          f"({down_cpu / base_cpu:.2f}x): the publisher's own work, on its own thread")
    an, au = (statistics.median(alone[k]) * 1000 for k in ("none", "up"))
    print(f"  one box process alone, flat out, CPU per command (start-up included; median of "
          f"{len(alone['up'])} each): no club {an:.3f} ms; club up {au:.3f} ms "
          f"({au / an:.2f}x)")
