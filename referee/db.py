"""The game file's schema and reading it: connections, migrations, games and entries.

Every connection gets the settings that are not persistent in the file: ``busy_timeout``,
``synchronous=FULL`` (and WAL, unless read-only). `referee.store` writes; this module reads,
for the store's start-up checks and for `referee games/verify/export`. Schema: docs/store.md.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.chain import GENESIS, Link, chain_problems, fingerprint, link
from referee.errors import StoreError
from referee.session import LogEntry

Clock = Callable[[], datetime]
BUSY_TIMEOUT_MS = 5000
# SQLite copies the -wal into the file (a checkpoint: three syncs) once the -wal holds this many
# pages. Its default, 1000 pages, came every ~300 commands; 4000 pages (4 MiB of 1 KiB pages,
# ~1,700 commands) is longer than a game, whose end checkpoints anyway (`referee.store`), so during
# play a command costs one sync on its path (the commit) and the file is rewritten less.
WAL_AUTOCHECKPOINT_PAGES = 4000
SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26
# A new file's page size. Each command rewrites the last page of the entries table (and now
# and then a new one, its parent and the file's first page as the file grows): with schema 5's
# entries (~440 bytes) 1 KiB pages keep that about 3.2 KB per command with the mark and the
# checkpoint's share (2 KiB pages: 4.0 KB; docs/performance.md); an older file keeps the page
# size it was made with.
PAGE_SIZE = int(os.environ.get("REFEREE_PAGE_SIZE", "1024"))

# MIGRATIONS[n] takes a file from schema version n to n + 1 (forward only; `migrate` runs the
# steps a file needs in one transaction).
MIGRATIONS: list[Sequence[str]] = [
    (
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            ended_at TEXT,
            status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
            players TEXT NOT NULL,
            winner TEXT,
            commitment TEXT NOT NULL,
            seed TEXT NOT NULL,
            revealed_at TEXT,
            catalog_sha256 TEXT NOT NULL,
            catalog TEXT NOT NULL,
            head TEXT NOT NULL,
            entries INTEGER NOT NULL)""",
        """CREATE TABLE entries (
            game INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            cmd TEXT NOT NULL,
            body TEXT NOT NULL,
            prev TEXT NOT NULL,
            hash TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game, seq)) WITHOUT ROWID""",
    ),
    # 1 -> 2: which game (ruleset) each row is, and its result envelope. Files of schema 1
    # hold Gallery Grippers games only (version 1 of its rules), whose result was one winner
    # or none: a finished one gets {outcome, winners, reason, rule} from its winner and the
    # reason and rule of its game_over event.
    (
        "ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'gallery-grippers'",
        "ALTER TABLE games ADD COLUMN ruleset_version TEXT NOT NULL DEFAULT '1'",
        "ALTER TABLE games ADD COLUMN result TEXT",
        """UPDATE games SET result = (
            SELECT json_object(
                'outcome', CASE WHEN games.winner IS NULL THEN 'lost' ELSE 'won' END,
                'winners', CASE WHEN games.winner IS NULL THEN json_array()
                           ELSE json_array(games.winner) END,
                'reason', json_extract(ev.value, '$.reason'),
                'rule', json_extract(ev.value, '$.rule'))
            FROM entries AS e, json_each(e.body, '$.events') AS ev
            WHERE e.game = games.id AND json_extract(ev.value, '$.type') = 'game_over'
            ORDER BY e.seq LIMIT 1)
           WHERE status = 'over'""",
    ),
    # 2 -> 3: snapshots of a game's state every so many entries (so a resume folds only the
    # entries after the newest one), each chained to the hash of the entry it follows.
    (
        """CREATE TABLE snapshots (
            game INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            hash TEXT NOT NULL,
            body TEXT NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (game, seq)) WITHOUT ROWID""",
    ),
    # 3 -> 4: entries keyed by one integer, game * 2**32 + seq, in a table with rowids: an
    # appended entry fills the last page in order (a WITHOUT ROWID table's appends rewrote
    # about 2.4 pages per command), and no separate index is written (docs/performance.md).
    (
        """CREATE TABLE entries_by_id (
            id INTEGER PRIMARY KEY,
            game INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            cmd TEXT NOT NULL,
            body TEXT NOT NULL,
            prev TEXT NOT NULL,
            hash TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            CHECK (seq >= 1 AND seq < 4294967296 AND id = game * 4294967296 + seq))""",
        """INSERT INTO entries_by_id (id, game, seq, at, cmd, body, prev, hash, undone)
           SELECT game * 4294967296 + seq, game, seq, at, cmd, body, prev, hash, undone
           FROM entries ORDER BY game, seq""",
        "DROP TABLE entries",
        "ALTER TABLE entries_by_id RENAME TO entries",
    ),
    # 4 -> 5: an entry keeps only what is not already elsewhere (less written per command):
    # its body (canonical JSON, which holds its game, number and time), its hash as 32 bytes
    # and its undo mark. game, seq, at and cmd are computed from the id and the body when read
    # (VIRTUAL: nothing on disk), and hash shows the bytes as 64 hex digits; prev is the hash
    # of the entry before, read from that row (docs/store.md).
    (
        """CREATE TABLE entries_lean (
            id INTEGER PRIMARY KEY,
            body TEXT NOT NULL,
            h BLOB NOT NULL CHECK (length(h) = 32),
            undone INTEGER NOT NULL DEFAULT 0,
            game INTEGER GENERATED ALWAYS AS (id >> 32) VIRTUAL,
            seq INTEGER GENERATED ALWAYS AS (id & 4294967295) VIRTUAL,
            at TEXT GENERATED ALWAYS AS (json_extract(body, '$.at')) VIRTUAL,
            cmd TEXT GENERATED ALWAYS AS (json_extract(body, '$.command.cmd')) VIRTUAL,
            hash TEXT GENERATED ALWAYS AS (lower(hex(h))) VIRTUAL,
            CHECK (id & 4294967295 >= 1))""",
        """INSERT INTO entries_lean (id, body, h, undone)
           SELECT id, body, referee_unhex(hash), undone FROM entries ORDER BY id""",
        "DROP TABLE entries",
        "ALTER TABLE entries_lean RENAME TO entries",
    ),
]
SEQ_SPAN = 1 << 32  # an entry's id: game * SEQ_SPAN + seq (schema 4)
LEAN = 5  # from this schema on, an entry's prev is the hash of the row before it


def entry_id(game: int, seq: int) -> int:
    return game * SEQ_SPAN + seq


def utc_now() -> datetime:
    return datetime.now(UTC)


def timestamp(clock: Clock) -> str:
    """ISO 8601 in UTC with milliseconds, e.g. ``2025-05-01T19:04:05.123+00:00``."""
    return clock().astimezone(UTC).isoformat(timespec="milliseconds")


def schema_version() -> int:
    return len(MIGRATIONS)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a file, as the games table keeps it."""

    id: int
    started_at: str
    ended_at: str | None
    status: str  # playing, over, abandoned
    players: list[str]
    winner: str | None  # the result's one winner, if it names exactly one
    commitment: str
    seed: str  # hex: the box's secret until the game reveals it
    revealed_at: str | None
    catalog_sha256: str
    catalog: dict[str, Any]
    head: str  # the hash of the game's last entry (as the log has it)
    entries: int  # how many entries the log has
    game: str = "gallery-grippers"  # the ruleset's id
    ruleset_version: str = "1"
    result: dict[str, Any] | None = None  # {outcome, winners, reason, rule} once over
    # What the row itself says: an entry the log must hold, with this hash (from schema 4
    # the row is written with a game's first entry, each snapshot and its end, not with
    # every command; the mark covers the entries after it).
    saved_head: str = ""
    saved_entries: int = 0

    @property
    def winners(self) -> list[str]:
        return list((self.result or {}).get("winners") or [])


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One log entry as stored: its chain link and its parsed body."""

    game: int
    seq: int
    at: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    prev: str
    hash: str
    undone: bool

    def log_entry(self) -> LogEntry:
        return LogEntry(self.seq, self.command, self.events, self.undone)


def connect(path: str | Path, *, readonly: bool = False,
            factory: type[sqlite3.Connection] = sqlite3.Connection) -> sqlite3.Connection:
    """A connection with the settings every connection needs (they are not persistent)."""
    if readonly:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, factory=factory,
                               check_same_thread=False)
    else:
        conn = sqlite3.connect(str(path), isolation_level=None, factory=factory,
                               check_same_thread=False)
    try:
        # (for the migration to schema 5: SQLite has unhex() only from 3.41)
        conn.create_function("referee_unhex", 1, _unhex, deterministic=True)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not readonly and PAGE_SIZE and not file_version(conn) and not conn.execute(
                "SELECT count(*) FROM sqlite_master").fetchone()[0]:
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file (before WAL)
        if not readonly:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{path}: cannot use WAL mode (journal_mode is {mode})")
            conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _unhex(text: str) -> bytes:
    return bytes.fromhex(text)


def file_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                          "AND name = 'schema_version'").fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection, path: str | Path) -> None:
    """Bring the file forward to this program's schema; refuse a newer file."""
    version = file_version(conn)
    if version > len(MIGRATIONS):
        raise StoreError(f"{path} was written by a newer referee (schema {version}; this one "
                         f"knows up to {len(MIGRATIONS)}): upgrade the referee")
    if version == len(MIGRATIONS):
        return
    # Every step in one transaction: one commit, so one sync, where a step each made a new
    # file (every first start) wait for five (issue 41); a file is at its old version or the
    # newest, never between.
    conn.execute("BEGIN IMMEDIATE")
    try:
        for n in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[n]:
                conn.execute(statement)
            conn.execute("UPDATE schema_version SET version = ?", (n + 1,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    (gid, started, ended, status, players, winner, commitment, seed, revealed, cat_sha, cat,
     head, entries, game, version, result) = row
    return GameRecord(gid, started, ended, status, json.loads(players), winner, commitment, seed,
                      revealed, cat_sha, json.loads(cat), head, entries, game, version,
                      None if result is None else json.loads(result))


_GAME_COLUMNS = ("id, started_at, ended_at, status, players, winner, commitment, seed, "
                 "revealed_at, catalog_sha256, catalog, head, entries, game, ruleset_version, "
                 "result")
# A file of schema 1 (read by the start-up check before it is migrated) has no game,
# ruleset_version or result: its games are Gallery Grippers, version 1 (see MIGRATIONS[1]).
_GAME_COLUMNS_1 = ("id, started_at, ended_at, status, players, winner, commitment, seed, "
                   "revealed_at, catalog_sha256, catalog, head, entries, 'gallery-grippers', "
                   "'1', NULL")


class Reader:
    """Reading games and entries from an open connection (shared by the store and the CLI)."""

    def __init__(self, conn: sqlite3.Connection, path: str | Path) -> None:
        self._conn = conn
        self.path = Path(path)
        self.counted: dict[int, int] = {}  # game -> entries, as `problems` counted them

    def _span(self, game: int, first: int = 1,
              last: int = SEQ_SPAN - 1) -> tuple[str, tuple[int, ...]]:
        """The WHERE clause (and its parameters) for entries `first` .. `last` of `game`:
        by id from schema 4 on (one range of the table), by (game, seq) before."""
        if self._keyed:
            return "id BETWEEN ? AND ?", (entry_id(game, first), entry_id(game, last))
        return "game = ? AND seq BETWEEN ? AND ?", (game, first, last)

    @property
    def _order(self) -> str:
        """The entries' order within a game: by id (the table's own order) from schema 4."""
        return "id" if self._keyed else "seq"

    @functools.cached_property
    def _keyed(self) -> bool:
        cols = {r[1] for r in self._conn.execute("PRAGMA table_info(entries)").fetchall()}
        return "id" in cols

    @functools.cached_property
    def _lean(self) -> bool:
        """Schema 5 on: no prev column (an entry's prev is the hash of the row before)."""
        cols = {r[1] for r in self._conn.execute("PRAGMA table_info(entries)").fetchall()}
        return "prev" not in cols

    @property
    def _prev(self) -> str:
        """The entries' prev as SQL, over a span of one game read in order: the stored column
        before schema 5, the hash of the row before it after (the span's first row: the
        genesis hash; `entries` starts its span one row early when it needs that row's)."""
        if self._lean:
            return f"lag(hash, 1, '{GENESIS}') OVER (ORDER BY id)"
        return "prev"

    @property
    def _columns(self) -> str:
        """The games table's columns as this file has them (any schema from 1 on)."""
        cols = {r[1] for r in self._conn.execute("PRAGMA table_info(games)").fetchall()}
        return _GAME_COLUMNS if "result" in cols else _GAME_COLUMNS_1

    def close(self) -> None:
        self._conn.close()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Reader]:
        """Read inside one transaction, so every read sees the same moment of the file (a
        writer beside it commits meanwhile). Nested uses share the outer one."""
        if self._conn.in_transaction:
            yield self
            return
        self._conn.execute("BEGIN")
        try:
            self._conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # start it now
            yield self
        finally:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")  # it only read

    def games(self) -> list[GameRecord]:
        rows = self._conn.execute(f"SELECT {self._columns} FROM games ORDER BY id").fetchall()
        return [self._with_end(_game(r)) for r in rows]

    def game(self, game_id: int) -> GameRecord | None:
        row = self._conn.execute(f"SELECT {self._columns} FROM games WHERE id = ?",
                                 (game_id,)).fetchone()
        return self._with_end(_game(row)) if row else None

    def latest_game(self) -> GameRecord | None:
        row = self._conn.execute(
            f"SELECT {self._columns} FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return self._with_end(_game(row)) if row else None

    def last_entry(self, game_id: int) -> tuple[int, str]:
        """The number and hash of the game's last entry ((0, GENESIS): none)."""
        where, args = self._span(game_id)
        row = self._conn.execute(f"SELECT seq, hash FROM entries WHERE {where} "
                                 f"ORDER BY {self._order} DESC LIMIT 1", args).fetchone()
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def _with_end(self, g: GameRecord) -> GameRecord:
        """`g` with its head and count from its log, what the row says kept beside."""
        seq, h = self.last_entry(g.id)
        return replace(g, head=h, entries=seq, saved_head=g.head, saved_entries=g.entries)

    def total(self) -> int:
        """How many log entries the file holds, of all its games."""
        return int(self._conn.execute("SELECT count(*) FROM entries").fetchone()[0])

    def hash_at(self, game_id: int, seq: int) -> str | None:
        where, args = self._span(game_id, seq, seq)
        row = self._conn.execute(f"SELECT hash FROM entries WHERE {where}", args).fetchone()
        return str(row[0]) if row else None

    def links(self, game_id: int) -> list[Link]:
        where, args = self._span(game_id)
        rows = self._conn.execute(
            f"SELECT seq, body, {self._prev}, hash, undone FROM entries WHERE {where} "
            f"ORDER BY {self._order}",
            args).fetchall()
        return [Link(seq, body, prev, h, bool(undone)) for seq, body, prev, h, undone in rows]

    def entries(self, game_id: int, *, after: int = 0) -> list[StoredEntry]:
        """The game's entries (those after entry `after`), each body parsed once."""
        early = self._lean and after > 0  # (read entry `after` too, for the next one's prev)
        where, args = self._span(game_id, after if early else after + 1)
        rows = self._conn.execute(
            f"SELECT seq, body, {self._prev}, hash, undone FROM entries WHERE {where} "
            f"ORDER BY {self._order}",
            args).fetchall()
        if early:
            if rows and rows[0][0] == after:
                before = rows.pop(0)[3]
                rows = [(seq, text, before if i == 0 else prev, h, undone)
                        for i, (seq, text, prev, h, undone) in enumerate(rows)]
            else:  # (entry `after` is not there: no prev to give the next one)
                rows = [(seq, text, "" if i == 0 else prev, h, undone)
                        for i, (seq, text, prev, h, undone) in enumerate(rows)]
        out = []
        for seq, text, prev, h, undone in rows:
            body = json.loads(text)
            out.append(StoredEntry(game_id, seq, body["at"], body["command"], body["events"],
                                   prev, h, bool(undone)))
        return out

    def sqlite_check(self, *, full: bool = False) -> list[str]:
        """SQLite's own check of the file: ``["ok"]`` or what is wrong."""
        pragma = "integrity_check" if full else "quick_check"
        return [str(r[0]) for r in self._conn.execute(f"PRAGMA {pragma}").fetchall()]

    def problems(self, *, full: bool = False) -> list[str]:
        """What is wrong with the file: SQLite's own check, then every game's chain (all
        read in one snapshot)."""
        pragma = "integrity_check" if full else "quick_check"
        with self.snapshot():
            found = self.sqlite_check(full=full)
            if found != ["ok"]:
                return [f"{pragma}: {'; '.join(str(f) for f in found[:5])}"]
            out: list[str] = []
            for g in self.games():
                if full:
                    out += game_problems(g, self.links(g.id))
                else:
                    out += self.proof_problems(g)
            if "snapshots" in self._tables:
                out += self.snapshot_problems()
            return out

    @property
    def _tables(self) -> set[str]:
        return {str(r[0]) for r in self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}

    def proof_problems(self, g: GameRecord) -> list[str]:
        """What the start-up check proves of every entry of game `g`, without parsing the
        bodies (so a long game opens fast): each entry's hash of its content, its link to the
        entry before, the numbering, the undo marks against the undo entries (read by
        SQLite), the head and count, and the row's facts against the first entry. `verify`
        (`game_problems`) also re-encodes every body to check it is canonical JSON naming
        its game and number."""
        from hashlib import sha256  # (imported when first used: OpenSSL's costs ~2.5 ms)

        out: list[str] = []
        last, expected = GENESIS, 1
        saved_at = GENESIS if g.saved_entries == 0 else None
        marked: set[int] = set()
        by_log: set[Any] = set()
        where, args = self._span(g.id)
        if self._lean:  # (prev is the row before's hash: chained here; the hash as bytes)
            rows: Iterable[tuple[Any, ...]] = self._conn.execute(
                "SELECT seq, body, h, undone, CASE WHEN instr(body, '\"undoes\":') AND "
                "json_extract(body, '$.command.cmd') = 'undo' THEN json_extract(body, "
                f"'$.command.undoes') END FROM entries WHERE {where} ORDER BY id", args)
        else:
            rows = ((seq, body, h, undone, undoes, prev)
                    for seq, body, prev, h, undone, undoes in self._conn.execute(
                        "SELECT seq, body, prev, hash, undone, CASE WHEN cmd = 'undo' THEN "
                        f"json_extract(body, '$.command.undoes') END FROM entries WHERE "
                        f"{where} ORDER BY {self._order}", args))
        for seq, body, h, undone, undoes, *stored_prev in rows:
            if undone:
                marked.add(seq)
            if undoes is not None:
                by_log.add(undoes)
            if seq != expected:
                out.append(f"game {g.id}: entry {expected} is missing (found {seq})")
                expected = seq
            expected += 1
            if stored_prev and stored_prev[0] != last:
                out.append(f"game {g.id} entry {seq}: does not follow the entry before it "
                           "(prev hash differs)")
            digest = sha256(((stored_prev[0] if stored_prev else last) + body).encode("utf-8"))
            if stored_prev:  # (before schema 5: the hash as hex text)
                right, last = digest.hexdigest() == h, h
            else:
                right, last = digest.digest() == h, h.hex() if isinstance(h, bytes) else ""
            if not right:
                out.append(f"game {g.id} entry {seq}: content does not match its hash")
            if seq == g.saved_entries:
                saved_at = last
            if len(out) > 20:
                return out
        count = expected - 1
        self.counted[g.id] = count
        if marked != by_log:
            out.append(f"game {g.id}: undo marks {sorted(marked)[:10]} do not match the undo "
                       f"entries {sorted(str(u) for u in by_log)[:10]}")
        where, args = self._span(g.id, 1, 1)
        first = self._conn.execute(f"SELECT seq, body, {self._prev}, hash, undone FROM "
                                   f"entries WHERE {where}", args).fetchone()
        if first is None:
            return [*out, f"game {g.id} has no entries"]
        if saved_at != g.saved_head or count < g.saved_entries:
            out.append(f"game {g.id}: the games table expects {g.saved_entries} entries or "
                       f"more, entry {g.saved_entries} hashed {g.saved_head[:12]}..., the log "
                       f"has {count} ending in {last[:12]}...")
        return out + row_problems(g, Link(first[0], first[1], first[2], first[3],
                                          bool(first[4])))

    def snapshots(self, game_id: int) -> dict[int, str]:
        """The game's snapshots as stored: {seq: body} (none before schema 3)."""
        if "snapshots" not in self._tables:
            return {}
        return {int(seq): str(body) for seq, body in self._conn.execute(
            "SELECT seq, body FROM snapshots WHERE game = ?", (game_id,))}

    def snapshot_problems(self) -> list[str]:
        """Every snapshot must hang on its entry's hash and be intact (its digest)."""
        out = []
        for game, seq, h, body, digest, entry_hash in self._conn.execute(
                "SELECT s.game, s.seq, s.hash, s.body, s.digest, e.hash FROM snapshots AS s "
                "LEFT JOIN entries AS e ON "
                + ("e.id = s.game * 4294967296 + s.seq" if self._keyed
                   else "e.game = s.game AND e.seq = s.seq")):
            if h != entry_hash:
                out.append(f"game {game} snapshot {seq}: does not follow its entry")
            elif link(h, body) != digest:
                out.append(f"game {game} snapshot {seq}: content does not match its digest")
        return out


def game_problems(g: GameRecord, links: list[Link]) -> list[str]:
    """A game row against its chain: the chain itself, its head, and the row's facts."""
    out = chain_problems(g.id, links)
    if not links:
        return [*out, f"game {g.id} has no entries"]
    saved = g.saved_entries
    saved_at = GENESIS if saved == 0 else links[saved - 1].hash if saved <= len(links) else None
    if saved_at != g.saved_head:
        out.append(f"game {g.id}: the games table expects {saved} entries or more, entry "
                   f"{saved} hashed {g.saved_head[:12]}..., the log has {len(links)} ending "
                   f"in {links[-1].hash[:12]}...")
    return out + row_problems(g, links[0])


def row_problems(g: GameRecord, first: Link) -> list[str]:
    """A game row's facts against its first entry: players, commitment, seed, catalog."""
    out: list[str] = []
    try:
        started = json.loads(first.body)["events"][0]
        if started["type"] != "game_started":
            raise ValueError
    except (ValueError, KeyError, IndexError, TypeError):
        return [*out, f"game {g.id}: its first entry does not start a game"]
    if [p["name"] for p in started["players"]] != g.players:
        out.append(f"game {g.id}: players differ from the log")
    if started["commitment"] != g.commitment:
        out.append(f"game {g.id}: commitment differs from the log")
    try:
        import hashlib  # (as in proof_problems)

        seed_ok = hashlib.sha256(bytes.fromhex(g.seed)).hexdigest() == g.commitment
    except ValueError:
        seed_ok = False
    if not seed_ok:
        out.append(f"game {g.id}: the stored seed does not match the commitment")
    if fingerprint(g.catalog) != g.catalog_sha256:
        out.append(f"game {g.id}: the stored catalog does not match its fingerprint")
    return out
