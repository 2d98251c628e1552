"""Dice-tray benchmark: prints figures (it is not a test).

1. Latency from the simulator writing a settled roll line to the driver's result callback,
   over a few hundred armed rolls on a pty (median, p99).
2. This process's CPU time over a window: idle with no driver (baseline), with the driver
   connected to an idle tray, and with the tray unplugged (the driver backing off). The
   simulator runs in a child process for these, so its own CPU is not counted.

Run: ``python -m device.tray.bench [--rolls N] [--window SECONDS]``.
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
            for i in range(rolls):
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


def cpu_figures(window: float = 10.0) -> dict[str, float]:
    """CPU seconds this process used over ``window``: baseline, connected idle, unplugged."""
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


def run(rolls: int = 300, window: float = 10.0) -> None:
    """Print the dice tray's latency and CPU figures."""
    latencies = sorted(roll_latency(rolls))
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"dice tray: roll line -> result callback over {len(latencies)} rolls on a pty: "
          f"median {statistics.median(latencies) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
          f"max {latencies[-1] * 1000:.2f} ms")
    for name, value in cpu_figures(window).items():
        if name.startswith("open attempts"):
            print(f"dice tray: {name} ({window:.0f} s): {value:.0f}")
        else:
            print(f"dice tray: process CPU over {window:.0f} s, {name}: {value * 1000:.1f} ms "
                  f"({value / window * 100:.2f} % of one core)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.tray.bench")
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--window", type=float, default=10.0, help="seconds per CPU window")
    args = parser.parse_args(argv)
    if args.rolls < 1 or args.window <= 0:
        parser.error("--rolls must be >= 1 and --window > 0")
    run(args.rolls, args.window)
    return 0


if __name__ == "__main__":
    sys.exit(main())
