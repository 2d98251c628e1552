"""The game file as the club's outbox: which entries the broker has not acknowledged yet.

The box's game file keeps, beside its games, how far each game has been acknowledged by the
club's broker: a table ``club_acks (club, box, game, seq)`` (created when a club is first
used; files without it are read as "nothing acknowledged", and a referee without the club
ignores it). Its only writer is the process that holds the file's writer lock (the referee
playing on it): the publisher, on a connection of its own. An acknowledgement is written
without waiting for the disk (``synchronous = NORMAL``): one lost in a power cut only means
its entries are sent again, and the club keeps each once.

The file also keeps its identity for the club: a table ``club_file (id)`` holding one random
id (16 hex digits), written once, by the first outbox that opens the file (the writer's: a new
file gets one as soon as its publisher opens it). A file moved aside keeps its id; the new file
started in its place gets a new one, so the club tells the new file's game 1 from the old
file's (docs/club.md). The id is sent as ``"file"`` in every entry and table.

No MQTT here: `club.publisher` asks this module what to send and tells it what was acked.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.chain import GENESIS, canonical
from referee.db import SEQ_SPAN, connect, entry_id

ACKS = """CREATE TABLE IF NOT EXISTS club_acks (
    club TEXT NOT NULL,
    box TEXT NOT NULL,
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (club, box, game)) WITHOUT ROWID"""
IDENTITY = "CREATE TABLE IF NOT EXISTS club_file (id TEXT NOT NULL)"


def file_id(conn: sqlite3.Connection) -> str:
    """The file's identity, made (once, in one transaction) if it has none yet."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(IDENTITY)
        row = conn.execute("SELECT id FROM club_file").fetchone()
        if row is None:
            row = (secrets.token_hex(8),)
            conn.execute("INSERT INTO club_file (id) VALUES (?)", row)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return str(row[0])


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One entry to publish: its JSON as published (club.md's ``entries``) and where it is."""

    game: int
    seq: int
    id: int
    text: str

    @property
    def payload(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.text)
        return value


class Outbox:
    """Reads the entries after the acknowledged ones and keeps the ack marks, on its own
    connection (use it from one thread: the publisher's)."""

    def __init__(self, path: str | Path, *, club: str, box: str) -> None:
        self.path = Path(path)
        self.club, self.box = club, box
        self._conn = connect(self.path)
        try:
            self.file = file_id(self._conn)  # (synchronous = FULL: it is never made twice)
        except BaseException:
            self._conn.close()
            raise
        self._conn.execute("PRAGMA synchronous = NORMAL")  # (an ack lost: sent again)
        self._conn.execute(ACKS)
        self.acked: dict[int, int] = dict(self._conn.execute(
            "SELECT game, seq FROM club_acks WHERE club = ? AND box = ?",
            (club, box)).fetchall())
        self._written = dict(self.acked)
        self._games: dict[int, dict[str, Any]] = {}
        self._last: dict[int, tuple[int, str]] = {}  # game -> (seq, hash) of the last one read

    def close(self) -> None:
        self._conn.close()

    # ---- what to send --------------------------------------------------------------------
    def first_unacked(self) -> int:
        """The id of the oldest entry not acknowledged (entries are numbered in the order
        they were written: game * 2**32 + seq)."""
        rows = self._conn.execute(
            "SELECT id >> 32, max(id & 4294967295) FROM entries GROUP BY id >> 32").fetchall()
        for game, last in rows:
            if last > self.acked.get(game, 0):
                return entry_id(game, self.acked.get(game, 0) + 1)
        return entry_id(rows[-1][0], rows[-1][1] + 1) if rows else entry_id(1, 1)

    def batch(self, cursor: int, limit: int) -> tuple[list[Outgoing], int]:
        """Up to `limit` entries from id `cursor` on, in order, skipping acknowledged ones,
        and the id to go on from (past the acknowledged ones skipped: after the club asked
        for entries again, the ones acknowledged meanwhile are not read again and again)."""
        out: list[Outgoing] = []
        while len(out) < limit:
            rows = self._conn.execute(
                "SELECT id, body, lower(hex(h)), undone FROM entries WHERE id >= ? "
                "ORDER BY id LIMIT ?", (cursor, limit)).fetchall()
            if not rows:
                break
            for item in self._outgoing(rows):
                if len(out) < limit:
                    out.append(item)
            cursor = out[-1].id + 1 if len(out) == limit else rows[-1][0] + 1
            if len(rows) < limit:  # (the file's end: no second query to find nothing)
                break
        return out, cursor

    def _outgoing(self, rows: list[tuple[int, str, str, int]]) -> Iterator[Outgoing]:
        prev: dict[int, str] = {}
        for rid, body, digest, undone in rows:
            game, seq = divmod(rid, SEQ_SPAN)
            if seq <= self.acked.get(game, 0):
                prev[game] = digest
                continue
            before = prev.get(game) or self._hash_before(game, seq)
            prev[game] = digest
            self._last[game] = (seq, digest)
            extra = {"undone": bool(undone), "prev": before, "hash": digest, "box": self.box,
                     "file": self.file}
            extra.update(self._about(game, seq))
            # the body is canonical JSON of {at, command, events, game, seq} (the file was
            # proven before it is read: `referee.chain.body_of`), none of them a key of
            # `extra`: the entry is the body and `extra` in one object, without parsing the
            # body (its command and events) and writing it again
            yield Outgoing(game, seq, rid, body[:-1] + "," + canonical(extra)[1:])

    def _hash_before(self, game: int, seq: int) -> str:
        if seq == 1:
            return GENESIS
        last = self._last.get(game)
        if last is not None and last[0] == seq - 1:  # (the entry read just before: no query)
            return last[1]
        row = self._conn.execute("SELECT lower(hex(h)) FROM entries WHERE id = ?",
                                 (entry_id(game, seq - 1),)).fetchone()
        return str(row[0]) if row else GENESIS

    def _about(self, game: int, seq: int) -> dict[str, Any]:
        """What the club needs to check a game that the entry lines do not say: its ruleset
        (on every entry) and, with its first entry, the ruleset's version and the catalog."""
        info = self._games.get(game)
        if info is None:
            row = self._conn.execute("SELECT game, ruleset_version, catalog FROM games "
                                     "WHERE id = ?", (game,)).fetchone()
            info = {"ruleset": row[0], "ruleset_version": row[1],
                    "catalog": json.loads(row[2])} if row else {}
            self._games[game] = info
        if seq == 1:
            return dict(info)
        return {"ruleset": info["ruleset"]} if info else {}

    def latest_game(self) -> int | None:
        row = self._conn.execute("SELECT max(id) FROM games").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    # ---- what was acknowledged -----------------------------------------------------------
    def ack(self, game: int, seq: int) -> None:
        """The broker acknowledged entry `seq` of `game` (and, as entries go in order, all
        before it): remembered now, written by `flush`."""
        if seq > self.acked.get(game, 0):
            self.acked[game] = seq

    def unwritten(self) -> bool:
        """Whether an acknowledgement is remembered and not written yet (see `flush`)."""
        return any(self._written.get(g) != s for g, s in self.acked.items())

    def flush(self) -> None:
        """Write the acknowledgements that changed (one short transaction)."""
        changed = [(g, s) for g, s in self.acked.items() if self._written.get(g) != s]
        if not changed:
            return
        c = self._conn
        c.execute("BEGIN IMMEDIATE")
        try:
            c.executemany("INSERT INTO club_acks (club, box, game, seq) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (club, box, game) DO UPDATE "
                          "SET seq = max(seq, excluded.seq)",
                          [(self.club, self.box, g, s) for g, s in changed])
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        self._written.update(changed)

    def behind(self) -> int:
        """How many entries the broker has not acknowledged."""
        total = 0
        for game, last in self._conn.execute(
                "SELECT id >> 32, max(id & 4294967295) FROM entries GROUP BY id >> 32"):
            total += max(0, last - self.acked.get(game, 0))
        return total


def read_file_id(path: str | Path) -> str | None:
    """A game file's identity for the club (None: no outbox has opened it yet)."""
    conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT id FROM club_file").fetchone()
        return None if row is None else str(row[0])
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()


def read_acks(path: str | Path) -> dict[tuple[str, str, int], int]:
    """Every ack mark in a game file ({(club, box, game): seq}); empty without the table."""
    conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return {(c, b, g): s for c, b, g, s in conn.execute(
            "SELECT club, box, game, seq FROM club_acks")}
    except sqlite3.OperationalError:
        return {}
    finally:
        conn.close()
