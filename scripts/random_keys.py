"""Random keys and button presses on the whole `referee run` (tests/whole_app.py), for N keys
or M minutes: crashes per 10,000 keys, and each crash's signature with the keys that
reproduce it. See docs/testing.md."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import whole_app as w


def main() -> int:
    p = argparse.ArgumentParser(prog="scripts/random-keys", description=__doc__)
    p.add_argument("--keys", type=int, default=None, help="stop after this many keys")
    p.add_argument("--minutes", type=float, default=None, help="stop after this long")
    p.add_argument("--seed", type=int, default=None, help="the generator's seed (default: "
                   "random, printed)")
    p.add_argument("--per-table", type=int, default=150,
                   help="actions on one game file before a fresh one (default 150)")
    p.add_argument("--shrink", type=int, default=30,
                   help="replays spent shortening each new signature's keys (0: none)")
    args = p.parse_args()
    if args.keys is None and args.minutes is None:
        args.minutes = 10.0
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    print(f"random-keys: seed {seed}", flush=True)
    end = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    keys = tables = 0
    crashes: Counter[str] = Counter()
    first: dict[str, tuple[w.Report, list[w.Action]]] = {}
    while (args.keys is None or keys < args.keys) and (end is None or time.monotonic() < end):
        start = w.random_start(rng)
        actions = [w.random_action(rng) for _ in range(args.per_table)]
        report = w.play(start, actions)
        tables += 1
        keys += len(report.keys)
        if report.failure is not None:
            sig = report.failure.signature
            crashes[sig] += 1
            print(f"[{keys} keys] {sig}", flush=True)
            if sig not in first:
                done = list(report.actions)
                if args.shrink:
                    done = w.shrink(start, done, sig, args.shrink)
                again = w.play(start, done)
                first[sig] = (again if again.failure else report, done)
                w.print_report(first[sig][0])
                print(report.failure.details[-1500:], flush=True)
    total = sum(crashes.values())
    print(f"\nrandom-keys: {keys} keys on {tables} game files, seed {seed}: {total} failures, "
          f"{10_000 * total / max(keys, 1):.1f} per 10,000 keys")
    for sig, n in crashes.most_common():
        rep, done = first[sig]
        print(f"  {n:4d}  {sig}\n        start {rep.start}\n        keys  {rep.repro()}\n"
              f"        actions {done!r}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
