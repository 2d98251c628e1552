"""The page under a slow-connection siege (issue 26), on loopback, for the test and the bench.

The box is a child process with ``ulimit -n 1024`` (what a service gets unless its unit says
otherwise): a session and the page's server on one loop, playing a game when told. Its
command latency is what a key press sees: each command is due at a time on the box's loop
and the latency is from then until `Session.handle` has returned (so a loop kept busy by
strangers shows). The strangers are this process: `SLOW` connections from `ADDRESSES`
loopback addresses, half silent, half trickling a request head a line at a time, each coming
back (after `PACE`) whenever the box closes it. They run in a child process of their own at a
lower priority (``nice 10``): on a real table they are another machine's load, so on a shared
test machine they should not take the box's CPU to show what the box itself does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
FILE_LIMIT = 1024
SLOW = 1200
ADDRESSES = 48  # 25 a address: under the per-address cap, so the cap in all is what holds
PACE = 2.0  # seconds between a trickler's header lines, and before it comes back
WAIT = 30.0

BOX = r"""
import asyncio, json, os, resource, sys, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))
from web import server as web_server
web_server.HEAD_TIMEOUT = float(sys.argv[2])
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream

async def main():
    loop = asyncio.get_running_loop()
    stream = long_stream(int(sys.argv[3]))
    session = Session(seed=SEED)
    session.handle(stream[0])
    played = 1
    srv = web_server.WebServer(session, "127.0.0.1", 0)
    await srv.start()
    print(json.dumps({"url": srv.url()}), flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        word, *rest = line.split()
        if word == b"fds":
            t = os.times()
            answer = {"fds": len(os.listdir("/proc/self/fd")), "open": len(srv.gate.open),
                      "cpu": t.user + t.system, "at": time.monotonic()}
        elif word == b"play":
            latencies = []
            for _ in range(int(rest[0])):
                done = loop.create_future()
                due = loop.time() + 0.02
                def run(request=stream[played], due=due, done=done):
                    ok = session.handle(request)["ok"]
                    done.set_result((ok, loop.time() - due))
                loop.call_at(due, run)
                ok, took = await done
                assert ok
                latencies.append(took)
                played += 1
            t = os.times()
            answer = {"latencies": latencies, "cpu": t.user + t.system, "at": time.monotonic()}
        else:
            break
        print(json.dumps(answer), flush=True)
    await srv.stop()

asyncio.run(main())
"""


@dataclass
class Box:
    process: asyncio.subprocess.Process
    url: str

    async def ask(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        answer = await asyncio.wait_for(self.process.stdout.readline(), 300)
        if not answer:
            raise RuntimeError("the box stopped")
        result: dict[str, Any] = json.loads(answer)
        return result

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"quit\n")
        with contextlib.suppress(ConnectionError):
            await self.process.stdin.drain()
        try:
            await asyncio.wait_for(self.process.wait(), WAIT)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


async def start_box(commands: int, head_timeout: float) -> Box:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", BOX, str(FILE_LIMIT), str(head_timeout), str(commands + 1),
        cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    first = await asyncio.wait_for(process.stdout.readline(), 120)
    return Box(process, json.loads(first)["url"])


STRANGERS = r"""
import asyncio, os, sys
os.nice(10)
from tests.web.siege import Siege, room_for_strangers
room_for_strangers()
async def main():
    siege = Siege(sys.argv[1], int(sys.argv[2]))
    siege.start()
    while siege.connects < siege.count:
        await asyncio.sleep(0.05)
    print("ready", flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.read()
    await siege.end()
    print(siege.connects, flush=True)
asyncio.run(main())
"""


@dataclass
class Siege:
    """The strangers: `count` slow connections kept up until `stop`."""

    host: str
    port: int
    count: int = SLOW
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    connects: int = 0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._one(i)) for i in range(self.count)]

    async def _one(self, i: int) -> None:
        local = f"127.0.0.{2 + i % ADDRESSES}"
        trickles = i % 2 == 1
        while not self.stop.is_set():
            writer = None
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port,
                                                               local_addr=(local, 0))
                self.connects += 1
                if trickles:
                    writer.write(b"GET / HTTP/1.1\r\n")
                while not self.stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        if not await asyncio.wait_for(reader.read(4096), PACE):
                            break  # the box closed it
                    if trickles:
                        writer.write(b"X-Slow: yes\r\n")
                        await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), PACE)

    async def end(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def room_for_strangers() -> None:
    """This process needs a file descriptor per stranger."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = SLOW + 512
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


async def page_load(http: aiohttp.ClientSession, url: str) -> tuple[int, float]:
    t0 = time.monotonic()
    async with http.get(url, timeout=aiohttp.ClientTimeout(total=WAIT)) as r:
        await r.read()
        return r.status, time.monotonic() - t0


@dataclass
class Outcome:
    quiet: list[float]
    besieged: list[float]
    loads: list[tuple[int, float]]
    fds_before: int
    fds_after: int
    open_after: int
    connects: int
    quiet_after: list[float] = field(default_factory=list)
    cpu_quiet: float = 0.0  # the box's CPU seconds while the quiet commands were played
    cpu_besieged: float = 0.0  # ... and while the besieged ones were (the same number)

    @staticmethod
    def p99(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


async def run(commands: int = 200, loads: int = 10, head_timeout: float = 2.0,
              settle: float = 0.0) -> Outcome:
    """Quiet: `commands` played; then the same number under the siege, with `loads` page
    loads among them; then the strangers go and the box's descriptors are counted again.
    `settle`: seconds the siege runs before the measured commands (the bench lets the head
    deadline cycle a few times)."""
    room_for_strangers()
    box = await start_box(3 * commands, head_timeout)
    try:
        counted = await box.ask("fds")
        fds_before = counted["fds"]
        played = await box.ask(f"play {commands}")
        quiet, cpu_quiet = played["latencies"], played["cpu"] - counted["cpu"]
        from urllib.parse import urlsplit

        where = urlsplit(box.url)
        assert where.hostname is not None and where.port is not None
        strangers = await asyncio.create_subprocess_exec(
            sys.executable, "-c", STRANGERS, where.hostname, str(where.port), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert strangers.stdin is not None and strangers.stdout is not None
        assert await asyncio.wait_for(strangers.stdout.readline(), 120) == b"ready\n"
        got: list[tuple[int, float]] = []
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)
                                         ) as http:
            if settle:
                await asyncio.sleep(settle)
            cpu_start = (await box.ask("fds"))["cpu"]
            playing = asyncio.create_task(box.ask(f"play {commands}"))
            for _ in range(loads):
                got.append(await page_load(http, box.url))
            played = await playing
            besieged, cpu_besieged = played["latencies"], played["cpu"] - cpu_start
        strangers.stdin.close()
        connects = int(await asyncio.wait_for(strangers.stdout.readline(), 120))
        await strangers.wait()
        fds_after, open_after = fds_before + 1, -1
        for _ in range(int(WAIT / 0.05)):  # until the box has let every stranger go
            counted = await box.ask("fds")
            fds_after, open_after = counted["fds"], counted["open"]
            if fds_after <= fds_before and open_after == 0:
                break
            await asyncio.sleep(0.05)
        quiet_after = (await box.ask(f"play {commands}"))["latencies"]
        return Outcome(quiet, besieged, got, fds_before, fds_after, open_after, connects,
                       quiet_after, cpu_quiet, cpu_besieged)
    finally:
        await box.close()


def report(o: Outcome) -> str:
    # quiet before and after the siege, against it in between (the machine's own noise
    # shows as the difference between the two quiet runs)
    q1, q2, b = Outcome.p99(o.quiet), Outcome.p99(o.quiet_after), Outcome.p99(o.besieged)
    q = (q1 + q2) / 2
    ok = sum(1 for s, _ in o.loads if s == 200)
    return "\n".join([
        f"web siege: {SLOW} slow connections from {ADDRESSES} loopback addresses, the box "
        f"under ulimit -n {FILE_LIMIT} ({o.connects} connections made in all):",
        f"  command latency (due on the box's loop -> handled), {len(o.quiet)} commands "
        f"each: quiet before p99 {q1 * 1000:.2f} ms, after {q2 * 1000:.2f} ms (median "
        f"{statistics.median(o.quiet) * 1000:.2f} ms); besieged median "
        f"{statistics.median(o.besieged) * 1000:.2f} ms, p99 {b * 1000:.2f} ms; p99 "
        f"besieged / quiet = {b / q:.2f}x (target <= 1.5x)",
        f"  the box's own CPU over those commands: {o.cpu_quiet:.2f} s quiet, "
        f"{o.cpu_besieged:.2f} s besieged ({o.cpu_besieged / max(o.cpu_quiet, 1e-9):.2f}x; "
        "the latency ratio above also carries the machine's other load, the strangers' "
        "process included)",
        f"  new page loads during the siege: {ok} of {len(o.loads)} answered 200, slowest "
        f"{max(t for _, t in o.loads) * 1000:.0f} ms",
        f"  the box's file descriptors: {o.fds_before} before, {o.fds_after} after the "
        f"strangers went ({o.open_after} connections still open)",
    ])


if __name__ == "__main__":
    print(report(asyncio.run(run(commands=400, settle=5.0))))
