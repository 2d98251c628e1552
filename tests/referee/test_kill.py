"""Reliability #1: SIGKILL a real `referee headless --db` at random moments, >= 200 times.

Two lanes run side by side, each with its own game file and a long valid command stream.
Each round starts the referee on the file (it resumes), writes a batch of the commands not yet
stored, reads a random number of answers (or none, to kill during start-up and resume), and
kills it. Then: every command answered ok is in the file, in order; the file passes
`integrity_check` and every hash chain. Every answer must be ok: a resume that were not exact
would make the pre-computed stream go wrong. At the end the seed is revealed and
`referee verify` re-derives every roll, across all the restarts.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from referee.db import Reader, connect, file_version
from tests.referee.storehelp import ROOT, SEED_HEX, long_stream, referee

KILLS = 200
LANES = 2
STREAM = 2400
DEADLINE = 30.0  # seconds for any one answer; far above the few ms one takes


class Lane:
    def __init__(self, path: Path, stream: list[str], rng: random.Random) -> None:
        self.path, self.stream, self.rng = path, stream, rng
        self.kills_in_startup = 0
        self.kills_mid_stream = 0

    def stored(self) -> int:
        """Entries in the file, after checking it as a restarted box would (and more)."""
        conn = connect(self.path)
        try:
            reader = Reader(conn, self.path)
            assert reader.sqlite_check(full=True) == ["ok"]
            if file_version(conn) == 0:
                return 0  # killed before the schema was made: nothing was acknowledged
            assert reader.problems() == []
            games = reader.games()
            if not games:
                return 0
            assert len(games) == 1
            entries = reader.entries(games[0].id)
            for stored, sent in zip(entries, self.stream, strict=False):
                assert stored.command["cmd"] == json.loads(sent)["cmd"]
            return len(entries)
        finally:
            conn.close()

    def round(self) -> None:
        done = self.stored()
        batch = self.stream[done:done + self.rng.randint(1, 40)]
        proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "headless", "--db", str(self.path),
             "--seed", SEED_HEX], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        assert proc.stdin and proc.stdout
        want = self.rng.randint(0, len(batch))
        answered = 0
        try:
            if want == 0 and self.rng.random() < 0.5:
                # die somewhere in start-up: imports, the file check, the resume
                time.sleep(self.rng.uniform(0, 0.25))
                self.kills_in_startup += 1
            else:
                proc.stdin.write("".join(line + "\n" for line in batch).encode())
                proc.stdin.flush()
                for answer in read_answers(proc, want):
                    assert answer["ok"], answer
                    answered += 1
                self.kills_mid_stream += 1
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=DEADLINE)
            proc.stdin.close()
            proc.stdout.close()
        after = self.stored()
        assert done + answered <= after <= done + len(batch), (done, answered, after)


def read_answers(proc: subprocess.Popen[bytes], count: int) -> list[dict[str, Any]]:
    """At least `count` answer lines (all that arrived), each within DEADLINE."""
    assert proc.stdout
    fd = proc.stdout.fileno()
    buffer, out = b"", []
    while len(out) < count:
        ready, _, _ = select.select([fd], [], [], DEADLINE)
        assert ready, "the referee stopped answering"
        chunk = os.read(fd, 65536)
        assert chunk, "the referee closed its output"
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        out += [json.loads(line) for line in lines]
    return out


@pytest.mark.slow(150)
def test_sigkill_at_random_moments_never_loses_an_acknowledged_command(tmp_path: Path) -> None:
    stream = [json.dumps(r) for r in long_stream(STREAM)]
    lanes = [Lane(tmp_path / f"lane{i}.sqlite", stream, random.Random(2024 + i))
             for i in range(LANES)]

    def run(lane: Lane) -> None:
        for _ in range(KILLS // LANES):
            lane.round()

    with ThreadPoolExecutor(LANES) as pool:
        for f in [pool.submit(run, lane) for lane in lanes]:
            f.result()
    assert sum(la.kills_in_startup + la.kills_mid_stream for la in lanes) >= KILLS
    assert all(la.kills_in_startup and la.kills_mid_stream > la.kills_in_startup for la in lanes)
    for lane in lanes:
        stored = lane.stored()
        assert stored > 300
        tail = referee("headless", "--db", str(lane.path),
                       stdin="\n".join([*stream[stored:stored + 50], '{"cmd":"reveal"}']) + "\n")
        assert all(json.loads(line)["ok"] for line in tail.stdout.splitlines()), tail.stdout
        verdict = referee("verify", "--db", str(lane.path))
        assert verdict.returncode == 0, verdict.stdout
        assert "VERDICT: GOOD" in verdict.stdout
