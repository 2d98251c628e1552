"""The pages of games no longer being played (issue 26): each game keeps its own address
(`web.view.token_for` of its seed) for as long as the game file has it, showing its result,
its dice proof and the check of every roll; the box's front address follows the game being
played (`web.server.LivePage`).

A past game's page is its state rebuilt from the file (read-only: `Session.resume` of its
log, with no store to write to) and gathered as the live page is (`web.view.Snapshots`), so
it reads the same as it did at the end, with the seed the game revealed (a finished game, or
one left unfinished for a new one, `referee.session`).
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import Any

from web.view import Snapshots, token_for


@dataclass(frozen=True)
class PastGame:
    """A game of the file as the page finds it: its id there, its commitment and status."""

    id: int
    commitment: str
    status: str  # playing, over, abandoned


def index(store: Any) -> dict[str, PastGame]:
    """Every game in `store`'s file, by its page's token (empty without a file). Only the
    games table's few columns are read (not their catalogs): this runs with each new game."""
    path = getattr(store, "path", None)
    if path is None:
        return {}
    from referee.db import connect

    try:
        conn = connect(path, readonly=True)
    except (sqlite3.Error, OSError):
        return {}
    try:
        rows = conn.execute("SELECT id, seed, commitment, status FROM games").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
    found = {}
    for gid, seed, commitment, status in rows:
        try:
            found[token_for(bytes.fromhex(str(seed)))] = PastGame(int(gid), str(commitment),
                                                                  str(status))
        except ValueError:
            continue
    return found


@dataclass
class _View:
    """What `Snapshots.snapshot` reads of a session, for a game rebuilt from the file."""

    ruleset: Any
    state: Any
    log: Any
    store: Any
    seed: bytes | None


def snapshot(store: Any, game: PastGame) -> dict[str, Any]:
    """The page's data for a past game, rebuilt from `store`'s file (raises if it cannot
    be: the game is gone from the file, or its log cannot be read)."""
    from referee import games
    from referee.records import open_reader
    from referee.session import Session

    reader = open_reader(str(store.path))
    try:
        with reader.snapshot():
            g = reader.game(game.id)
            if g is None or g.commitment != game.commitment:
                raise LookupError("the game is no longer in the file")
            entries = [e.log_entry() for e in reader.entries(game.id)]
    finally:
        with contextlib.suppress(sqlite3.Error):
            reader.close()
    ruleset = games.find(g.game)
    catalog = ruleset.catalog_from_json(g.catalog)
    session = Session.resume(entries, seed=bytes.fromhex(g.seed), game=(ruleset, catalog))
    view = _View(session.ruleset, session.state, session.log, store, session.seed)
    data = Snapshots().snapshot(view)
    data["past"] = {"status": g.status}
    return data
