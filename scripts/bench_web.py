"""`scripts/bench web`: the page for phones (web/), on loopback, in one run.

This process is the box: a session and the page's server on one asyncio loop, as in
`referee run --web`. A child process is the phones: 20 server-sent-event streams, writing each
update's arrival time (CLOCK_MONOTONIC, the same clock in both processes) to its stdout. Each
accepted command is timed from just before `Session.handle` until all 20 phones have the new
page, one command at a time, and set against the baseline measured in the same run: the same
command with no page at all. The box's RSS is read with the page's server up and 0 phones,
then with 20 phones connected after every command, against the RSS before the server started.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PHONES = 20
COMMANDS = 200
WARM = 40  # commands played before the measured ones (a game in progress)


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


PHONE_SCRIPT = r"""
import asyncio, sys, time, aiohttp
URL, N = sys.argv[1], int(sys.argv[2])
async def phone(http, i):
    async with http.get(URL + "events") as resp:
        while True:
            raw = await resp.content.readuntil(b"\n\n")
            if raw.startswith(b"id: "):
                v = raw[4:raw.index(b"\n")].decode()
                print(v, i, time.monotonic(), flush=True)
async def main():
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        await asyncio.gather(*(phone(http, i) for i in range(N)))
try:
    asyncio.run(main())
except (KeyboardInterrupt, aiohttp.ClientError, asyncio.IncompleteReadError):
    pass
"""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _measure(long_game: Callable[..., Any]) -> None:
    from referee.session import Session
    from web.server import WebServer

    requests: list[dict[str, Any]] = []
    long_game(WARM + COMMANDS, requests)
    warm, measured = requests[:WARM], requests[WARM:WARM + COMMANDS]
    seed = bytes(range(32))

    # the baseline: the same commands, no page
    bare = Session(seed=seed)
    for r in warm:
        bare.handle(r)
    base_times = []
    for r in measured:
        t0 = time.perf_counter()
        assert bare.handle(r)["ok"]
        base_times.append(time.perf_counter() - t0)

    session = Session(seed=seed)
    for r in warm:
        session.handle(r)
    rss_before = _rss_kib()
    server = WebServer(session, "127.0.0.1", 0)
    await server.start()
    assert server.live is not None
    rss_zero = _rss_kib()
    phones = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PHONE_SCRIPT, server.url(), str(PHONES),
        stdout=asyncio.subprocess.PIPE)
    assert phones.stdout is not None
    got: dict[int, list[float]] = {}
    arrived = asyncio.Event()

    async def read() -> None:
        assert phones.stdout is not None
        async for line in phones.stdout:
            v, _, t = line.decode().split()
            got.setdefault(int(v), []).append(float(t))
            arrived.set()

    reader = asyncio.create_task(read())

    async def all_have(version: int) -> None:
        while len(got.get(version, [])) < PHONES:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 30)

    await all_have(server.live.version)  # every phone connected with the current page
    latencies = []
    for r in measured:
        target = server.live.version + 1  # the page this command makes (refreshed on the loop)
        t0 = time.monotonic()
        assert session.handle(r)["ok"]
        await all_have(target)
        latencies += [t - t0 for t in got[target]]
    rss_twenty = _rss_kib()
    phones.terminate()
    await phones.wait()
    reader.cancel()
    await server.stop()

    base = statistics.median(base_times)
    med, p99 = statistics.median(latencies), _pct(latencies, 0.99)
    print(f"web: accepted command -> page updated on all {PHONES} phones (loopback, SSE), "
          f"{COMMANDS} commands of a game in progress:")
    print(f"  median {med * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, worst "
          f"{max(latencies) * 1000:.2f} ms (target: 200 ms)")
    print(f"  baseline, the same command with no page: median {base * 1000:.3f} ms; "
          f"page updated / command alone = {med / base:.1f}x (median), "
          f"{p99 / base:.1f}x (p99)")
    print(f"  box RSS: {rss_before / 1024:.1f} MiB before the server, {rss_zero / 1024:.1f} MiB "
          f"with 0 phones ({rss_zero / rss_before:.3f}x), {rss_twenty / 1024:.1f} MiB with "
          f"{PHONES} phones ({rss_twenty / rss_zero:.3f}x of 0 phones, "
          f"+{(rss_twenty - rss_zero) / PHONES:.0f} KiB a phone)")


def bench_web(long_game: Callable[..., Any]) -> None:
    asyncio.run(_measure(long_game))
    bench_web_long(long_game)


LONG = 10_000  # commands played before the measured ones: a very long evening
LONG_MEASURED = 100


def bench_web_long(long_game: Callable[..., Any]) -> None:
    """The page's own cost per command late in a 10,000-command game kept in a file (as on
    the box): `Session.handle` followed by the page's refresh (what `LivePage` does after
    each command: gather the data, render the HTML), against `Session.handle` alone, on two
    sessions fed the same commands alternately in one run."""
    import tempfile

    from referee.session import Session
    from referee.store import EventStore
    from web import page
    from web.view import Snapshots

    requests: list[dict[str, Any]] = []
    long_game(LONG + LONG_MEASURED, requests)
    warm, measured = requests[:LONG], requests[LONG:LONG + LONG_MEASURED]
    seed = bytes(range(32))
    with tempfile.TemporaryDirectory(prefix="bench-web-", dir="/dev/shm"
                                     if Path("/dev/shm").is_dir() else None) as tmp:
        bare = Session(seed=seed, store=EventStore.open(Path(tmp) / "bare.sqlite"))
        paged = Session(seed=seed, store=EventStore.open(Path(tmp) / "paged.sqlite"))
        snaps = Snapshots()
        for r in warm:
            bare.handle(r)
            paged.handle(r)
        page.body(snaps.snapshot(paged))  # the page was on all evening
        alone, refresh = [], []
        for r in measured:
            t0 = time.perf_counter()
            assert bare.handle(r)["ok"]
            t1 = time.perf_counter()
            assert paged.handle(r)["ok"]
            t2 = time.perf_counter()
            page.body(snaps.snapshot(paged))
            t3 = time.perf_counter()
            alone.append(t1 - t0)
            refresh.append(t3 - t2)
        for s in (bare, paged):
            s.close()
    a, r = statistics.median(alone), statistics.median(refresh)
    print(f"web, late in a {LONG:,}-command game kept in a file ({LONG_MEASURED} commands):")
    print(f"  command alone: median {a * 1000:.3f} ms; the page's refresh after it: median "
          f"{r * 1000:.3f} ms, p99 {_pct(refresh, 0.99) * 1000:.3f} ms")
    print(f"  per command, page on / page off = {(a + r) / a:.2f}x")
