"""Issue 40, attack 5: the club's page starved. Hundreds of slow connections (a request head
never finished, or nothing at all) from many addresses against `referee club --web` run with
a small file limit: every load of the page still succeeds, the club still reaches the broker
after the broker restarts, its answers name no server, and its log says the refused
connections once, with no traceback."""

from __future__ import annotations

import contextlib
import http.client
import resource
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from club.store import ClubStore
from tests.club.broker import READER, Broker, free_port, wait_for
from tests.club.test_night import Client, presence

FILE_LIMIT = 256  # the club's: its page takes connection_cap(256) = 64 at once
ADDRESSES = 20  # the flood's loopback addresses, 127.0.0.10 and on
PER_ADDRESS = 30  # connections from each (under the page's 32 from one address)


def small_limit() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, hard))


def room_for(n: int) -> None:
    """This test's own file limit raised, if it can be, for `n` sockets and the rest."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = n + 256
    if soft < want and (hard == resource.RLIM_INFINITY or hard >= want):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def load(port: int) -> tuple[int, str | None, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/")
        resp = conn.getresponse()
        return resp.status, resp.getheader("Server"), resp.read()
    finally:
        conn.close()


def test_slow_connections_never_starve_the_club_page(broker: Broker, tmp_path: Path) -> None:
    room_for(ADDRESSES * PER_ADDRESS)
    port = free_port()
    db = tmp_path / "club.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "club", "--broker", broker.url, "--db", str(db),
         "--web", f"127.0.0.1:{port}", "--secret", str(broker.secret(READER))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=small_limit)
    err: list[str] = []
    reading = threading.Thread(target=lambda: err.extend(proc.stderr or []), daemon=True)
    reading.start()
    flood: list[socket.socket] = []
    try:
        assert "the club's page is at" in (proc.stdout.readline() if proc.stdout else "")
        wait_for(lambda: any("subscribed to" in line for line in err), 20, "the club online",
                 state=lambda: err)
        for i in range(ADDRESSES * PER_ADDRESS):
            s = socket.socket()
            s.bind((f"127.0.0.{10 + i % ADDRESSES}", 0))
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                s.connect(("127.0.0.1", port))
            flood.append(s)
        for s in flood[::2]:  # half of them start a request head and never finish it
            with contextlib.suppress(OSError):
                s.send(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for _ in range(5):
            status, server, page = load(port)
            assert (status, server) == (200, None)
            assert b"<h1>Club night</h1>" in page
        broker.restart()  # the club reconnects (room is kept for the broker's connection)
        box = Client(broker, "box-1")
        try:
            box.send("online", presence("flooded"))
        finally:
            box.close()

        def heard() -> bool:
            store = ClubStore(db, readonly=True)
            try:
                return any(b["online_at"] == "flooded" for b in store.boxes())
            finally:
                store.close()

        wait_for(heard, 30, "the club back on the broker under the flood", state=lambda: err)
        assert load(port)[0] == 200
    finally:
        for s in flood:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        reading.join(10)
    log = "".join(err)
    assert "Traceback" not in log and "Too many open files" not in log, log[-3000:]
    said = [line for line in err if "the page refused" in line]
    assert 1 <= len(said) <= 2, log[-3000:]
