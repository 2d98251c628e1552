"""The club's own SQLite file: every box's entries once, each game's check, the tables.

An entry is kept once per (box, game, seq): the same entry again (the broker delivers at
least once) changes nothing; another entry under a number already kept is refused. Every
entry's hash is checked against its content as it arrives, and each game's chain as its
entries join up (they may arrive out of order after a reconnect: a gap is asked for again,
`Received.missing`). Once a game's seed is revealed its whole log goes through the core's
`referee.audit.verify` (not a copy of it). A game with any problem is marked ``tampered``
with what was wrong and which box sent it, and stays out of the standings; what was refused
is kept in ``refused`` (box, game, seq, why, the payload as sent).

A box's games are kept per game file (the entries' ``file``, docs/club.md): in this file
``games.game`` (and ``entries.game``) is the club's number of a game of its box, unique per
box, while ``games.file`` and ``games.box_game`` say which file and which of its games it is;
the hashes and `verify` use ``box_game``. A box that sends no file is one file (``''``).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee.audit import verify
from referee.chain import GENESIS, body_of, canonical, link
from referee.db import StoredEntry
from referee.export import GameLog
from referee.ruleset import result_of

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS boxes (
        box TEXT PRIMARY KEY,
        online INTEGER NOT NULL DEFAULT 0,
        online_at TEXT,
        seen_at TEXT,
        table_json TEXT,
        password_line TEXT,
        provisioned_at TEXT)""",
    """CREATE TABLE IF NOT EXISTS games (
        box TEXT NOT NULL,
        game INTEGER NOT NULL,
        ruleset TEXT,
        ruleset_version TEXT,
        catalog TEXT,
        players TEXT NOT NULL DEFAULT '[]',
        commitment TEXT,
        started_at TEXT,
        ended_at TEXT,
        status TEXT NOT NULL DEFAULT 'playing',
        result TEXT,
        head_seq INTEGER NOT NULL DEFAULT 0,
        head_hash TEXT NOT NULL DEFAULT '""" + GENESIS + """',
        check_state TEXT NOT NULL DEFAULT 'pending',
        problems TEXT NOT NULL DEFAULT '[]',
        file TEXT NOT NULL DEFAULT '',
        box_game INTEGER,
        PRIMARY KEY (box, game))""",
    """CREATE TABLE IF NOT EXISTS entries (
        box TEXT NOT NULL,
        game INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        command TEXT NOT NULL,
        events TEXT NOT NULL,
        prev TEXT NOT NULL,
        hash TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (box, game, seq)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS refused (
        id INTEGER PRIMARY KEY,
        box TEXT NOT NULL,
        game INTEGER,
        seq INTEGER,
        at TEXT NOT NULL,
        reason TEXT NOT NULL,
        payload TEXT NOT NULL)""",
    # entries, their hashes right, of a game whose first entry has not come (issue 40): not
    # a game until it does (then they join it), at most `HELD_BYTES` per box (the oldest go)
    """CREATE TABLE IF NOT EXISTS held (
        box TEXT NOT NULL,
        file TEXT NOT NULL,
        game INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        payload TEXT NOT NULL,
        UNIQUE (box, file, game, seq))""",
    # how many messages of each box were refused (issue 40): `refused` keeps only the last
    # `REFUSED_KEPT` of each box, so a flood of junk costs a counter, not a row each
    """CREATE TABLE IF NOT EXISTS refusals (
        box TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        first_at TEXT NOT NULL,
        last_at TEXT NOT NULL) WITHOUT ROWID""",
)
# Files made before games had a file identity: the columns are added (an old row is of the
# box's one file, '', and its number is the box's own).
# Files made before issue 40: each account is a box's or the club's own (`kind`: box or
# reader) and a box may be locked out (`revoked_at`); the refusals are counted per box and
# only the last few of each are kept.
# Files made before issue 39's public corrections: a game's corrections start empty (those of
# entries kept before are not read again).
ADDED = (("games", "file", "TEXT NOT NULL DEFAULT ''"), ("games", "box_game", "INTEGER"),
         ("boxes", "kind", "TEXT NOT NULL DEFAULT 'box'"), ("boxes", "revoked_at", "TEXT"),
         ("games", "corrections", "TEXT NOT NULL DEFAULT '[]'"))
HELD_BYTES = 1024 * 1024  # entries held per box for games not started yet, at most
REFUSED_KEPT = 5  # refused messages kept per box, the newest (with the count of all)
PAYLOAD_KEPT = 2048  # characters of a refused message kept (enough to see what it was)
AFTER = ("UPDATE games SET box_game = game WHERE box_game IS NULL",
         "CREATE UNIQUE INDEX IF NOT EXISTS games_by_file ON games (box, file, box_game)",
         "CREATE INDEX IF NOT EXISTS refused_by_box ON refused (box, id)",
         "INSERT OR IGNORE INTO refusals (box, count, first_at, last_at) SELECT box, count(*), "
         "min(at), max(at) FROM refused GROUP BY box",
         "DELETE FROM refused WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
         f"(PARTITION BY box ORDER BY id DESC) AS n FROM refused) WHERE n > {REFUSED_KEPT})")
HEX = frozenset("0123456789abcdef")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Received:
    """What became of one entry: ``stored``, ``duplicate``, ``refused`` (with why) or
    ``held`` (of a game whose first entry has not come: no game yet), and the first entry
    of its game still missing, if the chain has a gap (ask for it again)."""

    outcome: str
    reason: str = ""
    missing: tuple[tuple[int, int], ...] = ()  # (game, seq) of each first entry missing
    file: str = ""  # the box's file those games are in (its `file` field; '': none given)


@dataclass(frozen=True)
class ClubGame:
    box: str
    game: int
    ruleset: str | None
    players: list[str]
    started_at: str | None
    ended_at: str | None
    status: str
    result: dict[str, Any] | None
    entries: int
    check: str  # pending | good | tampered
    problems: list[str]
    commitment: str | None
    file: str = ""  # the box's game file it was played in ('': the box sent no file id)
    box_game: int = 0  # its number in that file (what its hashes hold); `game` is the club's
    # every die corrected after its result in the steps that stand, in words with its step
    # ("Ann's d6 4 → 6 (step 14)", `referee.words.corrections`), as the entries joined up
    corrections: list[str] = field(default_factory=list)


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= HEX


class ClubStore:
    """The club's file (one writer: the club process; readers open it read-only)."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        if readonly:
            self._conn = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True,
                                         isolation_level=None, check_same_thread=False)
            have = {r[1] for r in self._conn.execute("PRAGMA table_info(games)")}
            # (a file the club process has not opened since: the columns added later read
            # as their defaults)
            missing = [f"{default} AS {column}" for column, default in (
                ("file", "''"), ("box_game", "game"), ("corrections", "'[]'"))
                if column not in have]
            if have and missing:
                self._conn.execute(f"CREATE TEMP VIEW games AS SELECT *, {', '.join(missing)} "
                                   "FROM main.games")
            have = {r[1] for r in self._conn.execute("PRAGMA table_info(boxes)")}
            if have and "kind" not in have:  # (nor since issue 40)
                self._conn.execute("CREATE TEMP VIEW boxes AS SELECT *, 'box' AS kind, "
                                   "NULL AS revoked_at FROM main.boxes")
            if have and not self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = "
                                               "'table' AND name = 'refusals'").fetchone():
                self._conn.execute("CREATE TEMP VIEW refusals AS SELECT box, count(*) AS "
                                   "count, min(at) AS first_at, max(at) AS last_at FROM "
                                   "main.refused GROUP BY box")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")  # (a batch on disk before its acks)
            for statement in SCHEMA:
                self._conn.execute(statement)
            for table, column, kind in ADDED:
                have = {r[1] for r in self._conn.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self._conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            for statement in AFTER:
                self._conn.execute(statement)
        self._conn.execute("PRAGMA busy_timeout = 5000")

    def close(self) -> None:
        self._conn.close()

    # ---- boxes ---------------------------------------------------------------------------
    def presence(self, box: str, online: bool, at: str | None) -> None:
        self._conn.execute(
            "INSERT INTO boxes (box, online, online_at, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (box) DO UPDATE SET online = excluded.online, "
            "online_at = excluded.online_at, seen_at = excluded.seen_at",
            (box, int(online), at, now()))

    def table(self, box: str, table: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO boxes (box, table_json, seen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (box) DO UPDATE SET table_json = excluded.table_json, "
            "seen_at = excluded.seen_at", (box, canonical(table), now()))

    def provision(self, box: str, password_line: str, *, kind: str = "box") -> None:
        """An account (`kind`: a box's, or the club's own ``reader``) and its broker line; a
        box revoked before is let in again."""
        self._conn.execute(
            "INSERT INTO boxes (box, password_line, provisioned_at, kind) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (box) DO UPDATE SET password_line = excluded.password_line, "
            "provisioned_at = excluded.provisioned_at, kind = excluded.kind, "
            "revoked_at = NULL", (box, password_line, now(), kind))

    def kind(self, user: str) -> str | None:
        """What account `user` is: ``box`` or ``reader`` (the club's own); None: unknown."""
        row = self._conn.execute("SELECT kind FROM boxes WHERE box = ? AND password_line IS "
                                 "NOT NULL", (user,)).fetchone()
        return None if row is None else str(row[0])

    def revoke(self, box: str) -> bool:
        """Lock box `box` out (its broker line forgotten, the time kept); whether the club
        knew it."""
        found = self._conn.execute("UPDATE boxes SET revoked_at = ?, password_line = NULL "
                                   "WHERE box = ? AND kind = 'box'", (now(), box)).rowcount
        return bool(found)

    def boxes(self) -> list[dict[str, Any]]:
        """The boxes (never the club's own accounts: issue 40), each with how many of its
        messages were refused and when it was revoked, if it was."""
        from club.topics import READER

        rows = self._conn.execute(
            "SELECT b.box, b.online, b.online_at, b.seen_at, b.table_json, b.password_line, "
            "coalesce(r.count, 0), b.revoked_at FROM boxes AS b LEFT JOIN refusals AS r "
            "ON r.box = b.box WHERE b.kind = 'box' AND b.box != ? ORDER BY b.box",
            (READER,)).fetchall()
        return [{"box": b, "online": bool(o), "online_at": oa, "seen_at": s,
                 "table": json.loads(t) if t else None, "password_line": pw,
                 "refused": n, "revoked_at": rv}
                for b, o, oa, s, t, pw, n, rv in rows]

    def head(self, box: str, game: int, file: str = "") -> int:
        """How far game `game` (the box's own number) of the box's file `file` is joined up."""
        row = self._conn.execute("SELECT head_seq FROM games WHERE box = ? AND file = ? AND "
                                 "box_game = ?", (box, file, game)).fetchone()
        return int(row[0]) if row else 0

    def _number(self, box: str, file: str, game: int, payload: dict[str, Any]) -> int:
        """The club's number for game `game` of the box's file `file` (docs/club.md): its own
        number, unless another file of the box has a game by that number (a file moved aside
        and a new one started, which numbers its games from 1 again): then the box's next
        free number. The row is made here, on first sight."""
        c = self._conn
        known = self._known(box, file, game, payload)
        if known is not None:
            return known
        taken = c.execute("SELECT 1 FROM games WHERE box = ? AND game = ?",
                          (box, game)).fetchone()
        number = game if taken is None else int(c.execute(
            "SELECT max(game) + 1 FROM games WHERE box = ?", (box,)).fetchone()[0])
        ruleset = payload.get("ruleset")
        c.execute("INSERT INTO games (box, game, file, box_game, ruleset) VALUES (?, ?, ?, ?, ?)",
                  (box, number, file, game, ruleset if isinstance(ruleset, str) else None))
        return number

    def _known(self, box: str, file: str, game: int, payload: dict[str, Any]) -> int | None:
        """The club's number for game `game` of the box's file `file`, if it has the game
        (taking the box's games without a file as this file's, `_adopts`); None: it has not."""
        row = self._conn.execute("SELECT game FROM games WHERE box = ? AND file = ? AND "
                                 "box_game = ?", (box, file, game)).fetchone()
        if row is not None:
            return int(row[0])
        if file and self._adopts(box, file, game, payload):
            return self._known(box, file, game, payload)
        return None

    def _adopts(self, box: str, file: str, game: int, payload: dict[str, Any]) -> bool:
        """A box that now names its file sends more of a game the club has without a file
        (the box was upgraded): if the entry is one the club holds, or follows one, the box's
        games without a file are that file's."""
        c = self._conn
        row = c.execute("SELECT game FROM games WHERE box = ? AND file = '' AND box_game = ?",
                        (box, game)).fetchone()
        if row is None:
            return False
        seq = payload["seq"]
        kept = dict(c.execute("SELECT seq, hash FROM entries WHERE box = ? AND game = ? AND "
                              "seq IN (?, ?)", (box, row[0], seq - 1, seq)).fetchall())
        if kept.get(seq) != payload["hash"] and kept.get(seq - 1) != payload["prev"]:
            return False
        c.execute("UPDATE games SET file = ? WHERE box = ? AND file = ''", (file, box))
        return True

    # ---- entries -------------------------------------------------------------------------
    def refuse(self, box: str, payload: Any, reason: str, *, times: int = 1) -> None:
        """A message from `box` that holds no entry the club can read (or `times` such
        messages, alike): counted and kept as refused, with `reason`, for the page to show
        (durable as `receive`'s answers are)."""
        with self.batch():
            self._refuse(box, payload, reason, times=times)

    def _refuse(self, box: str, payload: Any, reason: str, *,
                tainted: int | None = None, times: int = 1) -> Received:
        game = payload.get("game") if isinstance(payload, dict) else None
        seq = payload.get("seq") if isinstance(payload, dict) else None
        game = game if isinstance(game, int) else None
        seq = seq if isinstance(seq, int) else None
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        if len(text) > PAYLOAD_KEPT:
            text = text[:PAYLOAD_KEPT] + f"... ({len(text)} characters)"
        at, c = now(), self._conn
        c.execute("INSERT INTO refused (box, game, seq, at, reason, payload) "
                  "VALUES (?, ?, ?, ?, ?, ?)", (box, game, seq, at, reason, text))
        c.execute("INSERT INTO refusals (box, count, first_at, last_at) VALUES (?, ?, ?, ?) "
                  "ON CONFLICT (box) DO UPDATE SET count = count + excluded.count, "
                  "last_at = excluded.last_at", (box, times, at, at))
        c.execute("DELETE FROM refused WHERE box = ? AND id <= (SELECT id FROM refused WHERE "
                  "box = ? ORDER BY id DESC LIMIT 1 OFFSET ?)", (box, box, REFUSED_KEPT))
        if tainted is not None:  # (the club's number of the game)
            self._taint(box, tainted, [f"box {box} sent {reason}"])
        return Received("refused", reason)

    def _taint(self, box: str, game: int, problems: list[str]) -> None:
        row = self._conn.execute("SELECT problems FROM games WHERE box = ? AND game = ?",
                                 (box, game)).fetchone()
        known = json.loads(row[0])
        known += [p for p in problems if p not in known]
        self._conn.execute("UPDATE games SET check_state = 'tampered', problems = ? "
                           "WHERE box = ? AND game = ?", (canonical(known), box, game))

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one commit) for everything written inside: what `receive`
        answers inside a batch is durable once the batch has returned (nested: the outer
        batch's). Raises, having written nothing of it, if the commit fails."""
        c = self._conn
        if c.in_transaction:
            yield
            return
        c.execute("BEGIN IMMEDIATE")
        try:
            yield
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def one(self) -> Iterator[None]:
        """Inside a batch, one message's writes: kept together, or (on an exception)
        undone without undoing the rest of the batch."""
        c = self._conn
        c.execute("SAVEPOINT one")
        try:
            yield
        except BaseException:
            c.execute("ROLLBACK TO one")
            c.execute("RELEASE one")
            raise
        c.execute("RELEASE one")

    def receive(self, box: str, payload: Any) -> Received:
        """One entry as a box published it (club.md's ``entries`` payload); durable when
        this returns (or, inside `batch`, when the batch does)."""
        with self.batch():
            return self._receive(box, payload)

    def _receive(self, box: str, payload: Any) -> Received:
        if not isinstance(payload, dict):
            return self._refuse(box, payload, "an entry that is not a JSON object")
        game, seq = payload.get("game"), payload.get("seq")
        at, command, events = payload.get("at"), payload.get("command"), payload.get("events")
        prev, digest = payload.get("prev"), payload.get("hash")
        file = payload.get("file", "")
        if not (isinstance(game, int) and isinstance(seq, int) and seq >= 1
                and isinstance(at, str) and isinstance(command, dict)
                and isinstance(events, list) and _is_hash(prev) and _is_hash(digest)
                and isinstance(file, str) and len(file) <= 64):
            return self._refuse(box, payload, "an entry without its game, seq, at, command, "
                                "events, prev and hash")
        number = self._known(box, file, game, payload)
        wrong = self._wrong(box, payload)
        if wrong is not None:  # (a game the club has: it is marked; another: nothing made)
            return self._refuse(box, payload, wrong, tainted=number)
        if number is None:  # (a game the club has not seen: only its first entry makes it)
            return self._new_game(box, file, game, payload)
        return self._store(box, number, game, payload)

    @staticmethod
    def _wrong(box: str, payload: dict[str, Any]) -> str | None:
        """What is wrong with an entry of `box` that has every field (None: nothing)."""
        game, seq = payload["game"], payload["seq"]
        if payload.get("box", box) != box:
            return f"an entry naming another box ({payload.get('box')!r})"
        try:
            body = body_of(game, seq, payload["at"], payload["command"], payload["events"])
        except (TypeError, ValueError) as err:
            return f"entry {seq} of game {game} that is not plain JSON ({err})"
        if link(str(payload["prev"]), body) != payload["hash"]:
            return (f"entry {seq} of game {game} whose content does not match its hash "
                    "(forged or damaged)")
        return None

    def _new_game(self, box: str, file: str, game: int, payload: dict[str, Any]) -> Received:
        """An entry, its hash right, of a game the club does not have (issue 40). Only a
        game's first entry (seq 1, after the genesis hash) makes a game and takes a number:
        a forged entry of a game the box never had makes nothing. A later entry (its game's
        start lost by the broker, or still to come) is held, out of every game and of the
        numbering, at most `HELD_BYTES` of them per box, and joins its game when the first
        entry comes; the box is asked for the game from its start if it is the box's next
        game of that file (a forger's game 99 asks for nothing)."""
        seq, c = payload["seq"], self._conn
        if seq != 1:
            c.execute("INSERT OR REPLACE INTO held (box, file, game, seq, payload) VALUES "
                      "(?, ?, ?, ?, ?)", (box, file, game, seq, canonical(payload)))
            while c.execute("SELECT sum(length(payload)) > ? FROM held WHERE box = ?",
                            (HELD_BYTES, box)).fetchone()[0]:
                c.execute("DELETE FROM held WHERE rowid = (SELECT min(rowid) FROM held WHERE "
                          "box = ?)", (box,))
            top = c.execute("SELECT max(box_game) FROM games WHERE box = ? AND file = ?",
                            (box, file)).fetchone()[0]
            ask = ((game, 1),) if 1 <= game <= (top or 0) + 1 else ()
            return Received("held", f"entry {seq} of game {game}, whose first entry has not "
                            "come", missing=ask, file=file)
        if payload["prev"] != GENESIS:
            return self._refuse(box, payload, f"entry 1 of game {game} that does not start a "
                                "game (a game's first entry follows the genesis hash)")
        number = self._number(box, file, game, payload)
        got = self._store(box, number, game, payload)
        held = c.execute("SELECT payload FROM held WHERE box = ? AND file = ? AND game = ? "
                         "ORDER BY seq", (box, file, game)).fetchall()
        if not held:
            return got
        c.execute("DELETE FROM held WHERE box = ? AND file = ? AND game = ?", (box, file, game))
        for (text,) in held:
            self._receive(box, json.loads(text))
        missing = tuple(m for m in got.missing if m[0] != game)
        return Received("stored", missing=missing + self._gaps(box, number, game), file=file)

    def _store(self, box: str, number: int, game: int, payload: dict[str, Any]) -> Received:
        """Keep an entry whose hash is right, of the club's game `number` (the box's
        `game`), and join it up."""
        seq, digest, file = payload["seq"], payload["hash"], payload.get("file", "")
        at, command, events, prev = (payload["at"], payload["command"], payload["events"],
                                     payload["prev"])
        c = self._conn
        kept = c.execute("SELECT hash FROM entries WHERE box = ? AND game = ? AND seq = ?",
                         (box, number, seq)).fetchone()
        if kept is not None:
            if kept[0] == digest:
                return Received("duplicate", missing=self._gaps(box, number, game), file=file)
            return self._refuse(box, payload, f"entry {seq} of game {game} again with "
                                "another content (a rewritten entry)", tainted=number)
        c.execute("INSERT INTO entries (box, game, seq, at, command, events, prev, hash, "
                  "received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (box, number, seq, at, canonical(command), canonical(events), prev,
                   digest, now()))
        left: list[tuple[int, int]] = []
        if seq == 1:
            left = self._first(box, number, payload, events, at)
        self._advance(box, number)
        return Received("stored", missing=tuple(left) + self._gaps(box, number, game),
                        file=file)

    def _first(self, box: str, game: int, payload: dict[str, Any], events: list[Any],
               at: str) -> list[tuple[int, int]]:
        """A game's first entry: its facts. The box's earlier games still being played were
        left for this one (abandoned), unless their ends were lost on the way: each is asked
        for again from its head (what comes, if anything, is joined as usual)."""
        started = next((e for e in events if isinstance(e, dict)
                        and e.get("type") == "game_started"), {})
        players = [p.get("name") for p in started.get("players", []) if isinstance(p, dict)]
        catalog = payload.get("catalog")
        self._conn.execute(
            "UPDATE games SET ruleset = coalesce(?, ruleset), ruleset_version = ?, catalog = ?, "
            "players = ?, commitment = ?, started_at = ? WHERE box = ? AND game = ?",
            (payload.get("ruleset"), str(payload.get("ruleset_version", "1")),
             canonical(catalog) if isinstance(catalog, dict) else None, canonical(players),
             started.get("commitment"), at, box, game))
        # (the box's own order, in the same file: a game the broker lost and the box sent
        # again comes after the club numbered the box's later ones)
        own, file = payload["game"], payload.get("file", "")
        left = [(int(g), int(h) + 1) for g, h in self._conn.execute(
            "SELECT box_game, head_seq FROM games WHERE box = ? AND file = ? AND box_game < ? "
            "AND status = 'playing'", (box, file, own))]
        self._conn.execute("UPDATE games SET status = 'abandoned' WHERE box = ? AND status = "
                           "'playing' AND ((file = ? AND box_game < ?) OR (file != ? AND "
                           "game < ?))", (box, file, own, file, game))  # (another file: older)
        if self._conn.execute("SELECT 1 FROM games WHERE box = ? AND file = ? AND box_game > ?",
                              (box, file, own)).fetchone() is not None:
            # a game sent again late: the box had already left it for a later one
            self._conn.execute("UPDATE games SET status = 'abandoned' WHERE box = ? AND game = ? "
                               "AND status = 'playing'", (box, game))
        # The box's game before this one, if the club has none of it: a broker restarted
        # while the club was away may have lost all of it, and the box, whose entries the
        # broker acknowledged, sends it again only when asked (a box that never had it, or
        # never published it, sends nothing back).
        if own > 1 and (own - 1, 1) not in left and self._conn.execute(
                "SELECT 1 FROM games WHERE box = ? AND file = ? AND box_game = ?",
                (box, file, own - 1)).fetchone() is None:
            left.append((own - 1, 1))
        return left

    def _advance(self, box: str, game: int) -> None:
        """Join the entries that follow the chain's head; check the dice once revealed."""
        c = self._conn
        head_seq, head_hash, state = c.execute(
            "SELECT head_seq, head_hash, check_state FROM games WHERE box = ? AND game = ?",
            (box, game)).fetchone()
        check = False
        problems: list[str] = []
        fixed: list[list[Any]] | None = None  # the game's corrections, once one is read
        while True:
            row = c.execute("SELECT prev, hash, events, at FROM entries WHERE box = ? AND "
                            "game = ? AND seq = ?", (box, game, head_seq + 1)).fetchone()
            if row is None:
                break
            prev, digest, events_text, at = row
            if prev != head_hash:
                problems.append(f"box {box} sent entry {head_seq + 1} of game {game}, which "
                                "does not follow the entry before it (prev hash differs)")
            head_seq, head_hash = head_seq + 1, digest
            if '"die_corrected"' in events_text or '"undone"' in events_text:
                fixed = self._corrected(box, game, head_seq, events_text, fixed)
            if '"game_over"' not in events_text and '"seed_revealed"' not in events_text:
                continue  # (most entries: nothing to parse for)
            for e in json.loads(events_text):
                if e.get("type") == "game_over":
                    result = result_of(e)
                    c.execute("UPDATE games SET status = 'over', result = ?, ended_at = ? "
                              "WHERE box = ? AND game = ?", (canonical(result), at, box, game))
                    check = True
                elif e.get("type") == "seed_revealed":
                    check = True
        c.execute("UPDATE games SET head_seq = ?, head_hash = ? WHERE box = ? AND game = ?",
                  (head_seq, head_hash, box, game))
        if fixed is not None:
            c.execute("UPDATE games SET corrections = ? WHERE box = ? AND game = ?",
                      (canonical(fixed), box, game))
        if problems:
            self._taint(box, game, problems)
        elif check and state != "tampered":
            verdict = verify(self.game_log(box, game))
            if verdict.problems:
                self._taint(box, game, [f"box {box}, game {game}: {p}"
                                        for p in verdict.problems])
            elif verdict.revealed:
                c.execute("UPDATE games SET check_state = 'good' WHERE box = ? AND game = ?",
                          (box, game))

    def _corrected(self, box: str, game: int, seq: int, events_text: str,
                   fixed: list[list[Any]] | None) -> list[list[Any]]:
        """The game's corrections ([seq, words] each) once entry `seq` joins: its own
        (`referee.words.corrections`), less those of the step an undo takes back."""
        from types import SimpleNamespace

        from referee.words import corrections

        if fixed is None:
            row = self._conn.execute("SELECT corrections FROM games WHERE box = ? AND "
                                     "game = ?", (box, game)).fetchone()
            fixed = json.loads(row[0]) if row and row[0] else []
        events = json.loads(events_text)
        gone = {e.get("seq") for e in events if e.get("type") == "undone"}
        kept = [f for f in fixed if f[0] not in gone]
        step = SimpleNamespace(seq=seq, events=events, undone=False)
        return kept + [[seq, words] for words in corrections([step])]

    def _gaps(self, box: str, number: int, game: int) -> tuple[tuple[int, int], ...]:
        """The first entry of the club's game `number` (the box's `game`) missing below the
        newest one kept, if any (in the box's numbers: what it is asked for)."""
        head, top = self._conn.execute(
            "SELECT g.head_seq, (SELECT max(seq) FROM entries WHERE box = g.box AND "
            "game = g.game) FROM games AS g WHERE g.box = ? AND g.game = ?",
            (box, number)).fetchone()
        return ((game, head + 1),) if top is not None and top > head else ()

    # ---- reading -------------------------------------------------------------------------
    def entries(self, box: str, game: int) -> list[StoredEntry]:
        """The game's joined-up entries (1 .. head), with the undo marks its undos say; `game`
        is the club's number, the entries carry the box's (what their hashes hold)."""
        row = self._conn.execute("SELECT box_game FROM games WHERE box = ? AND game = ?",
                                 (box, game)).fetchone()
        own = game if row is None or row[0] is None else int(row[0])
        rows = self._conn.execute(
            "SELECT e.seq, e.at, e.command, e.events, e.prev, e.hash FROM entries AS e "
            "JOIN games AS g ON g.box = e.box AND g.game = e.game WHERE e.box = ? AND "
            "e.game = ? AND e.seq <= g.head_seq ORDER BY e.seq", (box, game)).fetchall()
        parsed = [(s, at, json.loads(cmd), json.loads(ev), p, h)
                  for s, at, cmd, ev, p, h in rows]
        undone = {cmd.get("undoes") for _, _, cmd, _, _, _ in parsed if cmd.get("cmd") == "undo"}
        return [StoredEntry(own, s, at, cmd, ev, p, h, s in undone)
                for s, at, cmd, ev, p, h in parsed]

    def game_log(self, box: str, game: int) -> GameLog:
        """The game (the club's number) as `referee.audit.verify` reads it; its facts are
        the log's own, its number the box's."""
        row = self._conn.execute(
            "SELECT ruleset, ruleset_version, catalog, players, commitment, started_at, "
            "ended_at, status, result, box_game FROM games WHERE box = ? AND game = ?",
            (box, game)).fetchone()
        (ruleset, version, catalog, players, commitment, started, ended, status, result,
         own) = row
        entries = self.entries(box, game)
        res = json.loads(result) if result else None
        winners = (res or {}).get("winners") or []
        return GameLog(game if own is None else own, started or "", ended, status,
                       json.loads(players),
                       winners[0] if len(winners) == 1 else None, commitment or "",
                       json.loads(catalog) if catalog else {},
                       entries[-1].hash if entries else GENESIS, len(entries), entries,
                       ruleset or "", version or "1", res)

    def games(self) -> list[ClubGame]:
        rows = self._conn.execute(
            "SELECT box, game, ruleset, players, started_at, ended_at, status, result, "
            "head_seq, check_state, problems, commitment, file, box_game, corrections "
            "FROM games ORDER BY started_at, box, game").fetchall()
        return [ClubGame(b, g, r, json.loads(p), s, e, st, json.loads(res) if res else None,
                         n, ch, json.loads(pr), cm, f, g if bg is None else bg,
                         [str(w) for _, w in json.loads(fx or "[]")])
                for b, g, r, p, s, e, st, res, n, ch, pr, cm, f, bg, fx in rows]

    def seed(self, box: str, game: int) -> str | None:
        """The game's dice seed as its joined-up log revealed it (hex; None: not yet)."""
        row = self._conn.execute(
            "SELECT e.events FROM entries AS e JOIN games AS g ON g.box = e.box AND "
            "g.game = e.game WHERE e.box = ? AND e.game = ? AND e.seq <= g.head_seq AND "
            "e.events LIKE '%\"seed_revealed\"%' ORDER BY e.seq DESC LIMIT 1",
            (box, game)).fetchone()
        if row is None:
            return None
        found = [e.get("seed") for e in json.loads(row[0]) if isinstance(e, dict)
                 and e.get("type") == "seed_revealed"]
        return str(found[0]) if found and isinstance(found[0], str) else None

    def refused(self, last: int | None = None) -> list[dict[str, Any]]:
        """The refused messages kept (the newest `REFUSED_KEPT` of each box; of them the
        `last` newest), oldest first."""
        rows = self._conn.execute(
            "SELECT box, game, seq, at, reason, payload FROM (SELECT * FROM refused ORDER BY "
            "id DESC LIMIT ?) ORDER BY id", (-1 if last is None else last,)).fetchall()
        return [{"box": b, "game": g, "seq": s, "at": a, "reason": r, "payload": p}
                for b, g, s, a, r, p in rows]

    def refusals(self) -> list[dict[str, Any]]:
        """How many messages of each box were refused, most first."""
        rows = self._conn.execute("SELECT box, count, first_at, last_at FROM refusals "
                                  "ORDER BY count DESC, box").fetchall()
        return [{"box": b, "count": n, "first_at": f, "last_at": t} for b, n, f, t in rows]

    def count(self, box: str | None = None) -> int:
        if box is None:
            return int(self._conn.execute("SELECT count(*) FROM entries").fetchone()[0])
        return int(self._conn.execute("SELECT count(*) FROM entries WHERE box = ?",
                                      (box,)).fetchone()[0])

    def rows(self, box: str) -> Iterator[tuple[int, int, str]]:
        """(game, seq, hash) of every entry of a box, in order."""
        yield from self._conn.execute("SELECT game, seq, hash FROM entries WHERE box = ? "
                                      "ORDER BY game, seq", (box,))
