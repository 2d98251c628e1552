"""Dice-tray benchmark: prints figures (it is not a test).

1. Latency from the simulator writing a settled roll line to the driver's result callback,
   over a few hundred armed rolls on a pty (median, p99), one roll per ``ROLL_PACE`` s: back
   to back they would be a flood themselves (about 400 lines/s, over the read budget).
2. This process's CPU time over a window: idle with no driver (baseline), with the driver
   connected to an idle tray, under a flood of lines from the tray (valid heartbeats from a
   firmware stuck in a loop, then bad-checksum junk; reliability.md fault test 16), and
   with the tray unplugged (the driver backing off). The simulator runs in a child process
   for these, so its own CPU is not counted. The flood figures are also given as a ratio
   against the connected-idle figure of the same run, with what the driver counted.

Run: ``python -m device.tray.bench [--rolls N] [--window SECONDS] [--flood LINES_PER_S]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

from device.tray.driver import TrayDriver
from device.tray.link import StatusKind, TrayResult, TrayStatus
from device.tray.sim import TraySimulator


def _wait(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    event = threading.Event()
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"bench: timed out waiting for {what}")
        event.wait(0.005)


ROLL_PACE = 0.04
"""Seconds between rolls in the latency run: 25 rolls/s, about 50 lines/s, under budget."""


def roll_latency(rolls: int = 300) -> list[float]:
    """Seconds from the roll line leaving the simulator to the result callback, per roll."""
    sent: dict[int, float] = {}
    got: dict[int, float] = {}
    done = threading.Event()

    def on_line(line: bytes, at: float) -> None:
        if b" st=settled " in line:
            roll_id = int(line.split(b" id=")[1].split(b" ")[0])
            sent.setdefault(roll_id, at)

    def on_result(result: TrayResult) -> None:
        got[result.roll_id] = time.monotonic()
        done.set()

    with tempfile.TemporaryDirectory() as tmp:
        link = os.path.join(tmp, "dice-tray")
        with TraySimulator(link=link, seed=1, on_line=on_line) as sim, \
                TrayDriver(link, on_result=on_result) as driver:
            _wait(lambda: driver.connected, 10, "the handshake")
            pace = threading.Event()
            for i in range(rolls):
                pace.wait(ROLL_PACE)
                done.clear()
                wanted = (driver.arm("d100"), "d100")

                def armed(wanted: tuple[int, str] = wanted) -> bool:
                    return sim.firmware.armed == wanted

                _wait(armed, 5, "ARMED")
                sim.roll("d100", (i % 10, (i * 7) % 10), rolling_first=False)
                if not done.wait(5):
                    raise TimeoutError("bench: a roll never arrived")
    return [got[k] - sent[k] for k in got if k in sent]


def _cpu_over(window: float) -> float:
    start = time.process_time()
    threading.Event().wait(window)
    return time.process_time() - start


def _command(child: subprocess.Popen[str], line: str) -> str:
    """Send the simulator child one command; its one-line answer."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(line + "\n")
    child.stdin.flush()
    return child.stdout.readline().strip()


def _flood_figures(child: subprocess.Popen[str], driver: TrayDriver, window: float,
                   rate: float, junk: bool) -> dict[str, float]:
    link = driver.link
    names = ("garbage", "dropped_lines", "dropped_bytes", "gaps")

    def count(name: str) -> float:  # (without a read budget there are no drops to count)
        where = getattr(link, "flood", None) if name.startswith("dropped") else link
        return float(getattr(where, name, 0))

    before = {n: count(n) for n in names}
    status = _command(child, "status").split()
    sent0 = int(status[status.index("flood") + 1])
    over0 = int(status[status.index("overflowed") + 1])
    _command(child, f"flood {rate:g}" + (" junk" if junk else ""))
    cpu = _cpu_over(window)
    _command(child, "flood 0")
    status = _command(child, "status").split()
    figures = {"cpu": cpu,
               "written": int(status[status.index("flood") + 1]) - sent0,
               "overflowed": int(status[status.index("overflowed") + 1]) - over0}
    threading.Event().wait(min(window, 2.0))  # let the driver catch up before counting
    for n in names:
        figures[n] = count(n) - before[n]
    return figures


def cpu_figures(window: float = 10.0, flood: float = 200000.0) -> dict[str, float]:
    """CPU seconds this process used over ``window``: baseline, connected idle, flooded
    (``flood`` lines/s; keys ``flood hb ...`` and ``flood junk ...``), unplugged."""
    figures = {"baseline idle": _cpu_over(window)}
    with tempfile.TemporaryDirectory() as tmp:
        link = os.path.join(tmp, "dice-tray")
        child = subprocess.Popen(
            [sys.executable, "-m", "device.tray.sim", "--link", link, "--seed", "2"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None and child.stdin is not None
            child.stdout.readline()  # "tray simulator on ..."
            statuses: list[TrayStatus] = []
            driver = TrayDriver(link, on_status=statuses.append)
            with driver:
                _wait(lambda: driver.connected, 10, "the handshake")
                figures["tray connected, idle"] = _cpu_over(window)
                for kind in ("hb", "junk"):
                    for key, value in _flood_figures(child, driver, window, flood,
                                                     kind == "junk").items():
                        figures[f"flood {kind} {key}"] = value
                _wait(lambda: driver.connected, 15, "the tray to be connected after the flood")
                child.stdin.write("unplug\n")
                child.stdin.flush()
                _wait(lambda: any(s.kind is StatusKind.DISCONNECTED for s in statuses), 10,
                      "the unplug to be noticed")
                before = driver.open_attempts
                figures["tray unplugged"] = _cpu_over(window)
                figures["open attempts while unplugged"] = driver.open_attempts - before
        finally:
            if child.stdin is not None:
                child.stdin.close()
            child.wait(10)
    return figures


def _print_flood(figures: dict[str, float], window: float, rate: float) -> None:
    idle = figures["tray connected, idle"]
    for kind, what in (("hb", "valid heartbeats"), ("junk", "bad-checksum lines")):
        f = {k.split()[-1]: v for k, v in figures.items() if k.startswith(f"flood {kind} ")}
        ratio = f"{f['cpu'] / idle:.1f}x" if idle > 0 else "n/a (idle used no CPU)"
        print(f"dice tray: process CPU over {window:.0f} s under a flood of {rate:g} {what}/s:"
              f" {f['cpu'] * 1000:.1f} ms ({f['cpu'] / window * 100:.2f} % of one core),"
              f" {ratio} the connected-idle figure")
        print(f"dice tray:   of {f['written'] + f['overflowed']:.0f} flood lines the tray "
              f"sent {f['written']:.0f} into the port ({f['written'] / window:.0f}/s; "
              f"{f['overflowed']:.0f} overflowed at the tray while the host did not read); "
              f"the driver counted {f['dropped_lines']:.0f} line(s) / {f['dropped_bytes']:.0f}"
              f" bytes dropped unread, {f['garbage']:.0f} bad "
              f"line(s), {f['gaps']:.0f} sequence gap(s)")


def run(rolls: int = 300, window: float = 10.0, flood: float = 200000.0) -> None:
    """Print the dice tray's latency and CPU figures."""
    latencies = sorted(roll_latency(rolls))
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"dice tray: roll line -> result callback over {len(latencies)} rolls on a pty: "
          f"median {statistics.median(latencies) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
          f"max {latencies[-1] * 1000:.2f} ms")
    figures = cpu_figures(window, flood)
    _print_flood(figures, window, flood)
    for name, value in figures.items():
        if name.startswith("flood "):
            continue
        if name.startswith("open attempts"):
            print(f"dice tray: {name} ({window:.0f} s): {value:.0f}")
        else:
            print(f"dice tray: process CPU over {window:.0f} s, {name}: {value * 1000:.1f} ms "
                  f"({value / window * 100:.2f} % of one core)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.tray.bench")
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--window", type=float, default=10.0, help="seconds per CPU window")
    parser.add_argument("--flood", type=float, default=200000.0,
                        help="lines per second the tray floods with (default 200000)")
    args = parser.parse_args(argv)
    if args.rolls < 1 or args.window <= 0 or not 0 < args.flood <= 1_000_000:
        parser.error("--rolls must be >= 1, --window > 0 and --flood 1..1000000")
    run(args.rolls, args.window, args.flood)
    return 0


if __name__ == "__main__":
    sys.exit(main())
