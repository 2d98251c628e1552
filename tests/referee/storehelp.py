"""Helpers for the store's tests: a long valid command stream, a fixed clock, failing
connections, and running the `referee` command."""

from __future__ import annotations

import functools
import importlib.util
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEED_HEX = bytes(range(32)).hex()  # scripts/bench.py's SEED


@functools.cache
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("referee_bench", ROOT / "scripts" / "bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _stream(commands: int) -> tuple[str, ...]:
    import json

    accepted: list[dict[str, Any]] = []
    bench().long_game(commands, accepted)
    return tuple(json.dumps(r) for r in accepted)


def long_stream(commands: int) -> list[dict[str, Any]]:
    """`commands` requests that are all accepted, in order, by a fresh game (seed SEED_HEX)."""
    import json

    return [json.loads(r) for r in _stream(commands)]


class Clock:
    """A clock that ticks one second each time it is read."""

    def __init__(self, start: datetime = datetime(2025, 5, 1, 19, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class Faults:
    """Switches shared with `FailingConnection`: while `failing`, writes raise like a full disk."""

    failing = False
    error = "database or disk is full"
    match: str | None = None  # fail only statements starting with this (default: writes)
    writes_refused = 0


class FailingConnection(sqlite3.Connection):
    """A real connection whose writes fail while `Faults.failing` is set."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        prefixes = (Faults.match,) if Faults.match else ("INSERT", "UPDATE", "COMMIT")
        if Faults.failing and sql.lstrip().startswith(prefixes):
            Faults.writes_refused += 1
            raise sqlite3.OperationalError(Faults.error)
        return super().execute(sql, *args)


def referee(*args: str, stdin: str = "", env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `python -m referee ARGS` and capture its output."""
    return subprocess.run([sys.executable, "-m", "referee", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


def lines(text: str) -> Iterator[dict[str, Any]]:
    import json

    for line in text.splitlines():
        yield json.loads(line)


class Headless:
    """A real `referee headless --db PATH` process, asked one request at a time: `ask` returns
    only once its answer has arrived (so the caller knows the command is committed)."""

    DEADLINE = 30.0  # seconds for one answer; far above the few ms one takes

    def __init__(self, path: Path, *, seed: str = SEED_HEX) -> None:
        import os

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "headless", "--db", str(path), "--seed", seed],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.pid = self.proc.pid
        self._buffer = b""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        import json
        import os
        import select

        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], self.DEADLINE)
            assert ready, "the referee stopped answering"
            chunk = os.read(fd, 65536)
            assert chunk, f"the referee closed its output: {self.stderr()}"
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def play(self, requests: list[dict[str, Any]]) -> None:
        for r in requests:
            answer = self.ask(r)
            assert answer["ok"], (r, answer)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no checkpoint; what was committed stays in the -wal."""
        import signal

        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=self.DEADLINE)

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        assert self.proc.stderr
        return self.proc.stderr.read().decode()

    def close(self) -> int:
        assert self.proc.stdin
        self.proc.stdin.close()
        code = self.proc.wait(timeout=self.DEADLINE)
        return code

    def __enter__(self) -> Headless:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.kill()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()
