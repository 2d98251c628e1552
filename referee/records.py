"""`referee games`, `referee verify` and `referee export`: reading the game file.

These only read: the file is opened read-only and everything is read inside one transaction,
so they see one moment of the file even beside a running box that commits meanwhile. They
take no lock and never move or change a file; a file that needs repair or an upgrade is left
to the referee itself, which checks it at start (holding the file's writer lock).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from referee.audit import Verdict, verify
from referee.db import GameRecord, Reader, connect, file_version, game_problems, schema_version
from referee.errors import BadRequest, StoreError
from referee.export import from_store, read_jsonl_games, render

FORMATS = ("jsonl", "csv", "bgstats")
EXIT_GOOD, EXIT_BAD, EXIT_UNCHECKED = 0, 1, 3


def open_reader(db: str | None) -> Reader:
    """The game file, read-only; `db` None means the default path."""
    from referee.app import default_db_path

    path = Path(db).expanduser() if db else default_db_path()
    if not path.is_file():
        raise StoreError(f"no game file at {path} (give one with --db PATH or $REFEREE_DB)")
    try:
        conn = connect(path, readonly=True)
        version = file_version(conn)
    except sqlite3.Error as err:
        raise StoreError(f"cannot read {path}: {err}") from err
    if version != schema_version():
        conn.close()
        raise StoreError(f"{path} has schema version {version}, this referee reads "
                         f"{schema_version()}: start the referee on it once to upgrade it"
                         if version < schema_version() else
                         f"{path} was written by a newer referee (schema {version})")
    return Reader(conn, path)


def describe(g: GameRecord) -> str:
    """A game's state in a few words, from its result envelope (`result.winners`,
    `result.outcome`): a cooperative win names the whole team, a loss says why."""
    if g.status != "over":
        return g.status
    result = g.result or {}
    winners = g.winners or ([g.winner] if g.winner else [])
    if winners:
        names = winners[0] if len(winners) == 1 else \
            ", ".join(winners[:-1]) + " and " + winners[-1]
        return f"over: {names} won"
    if result.get("outcome") == "lost":
        reason = result.get("reason")
        return f"over: lost ({reason})" if reason else "over: lost"
    return "over: nobody won"


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH",
                   help="the game file (default: $REFEREE_DB or "
                        "~/.local/share/tableside-referee/games.sqlite)")


def setup_games(p: argparse.ArgumentParser) -> None:
    _db_arg(p)


def run_games(args: argparse.Namespace) -> int:
    reader = open_reader(args.db)
    try:
        with reader.snapshot():
            games = reader.games()
    except sqlite3.Error as err:
        raise StoreError(f"cannot read {reader.path}: {err}") from err
    finally:
        reader.close()
    if not games:
        print(f"No games in {reader.path}.")
        return 0
    rows = [("id", "players", "started (UTC)", "commands", "state")]
    rows += [(str(g.id), ", ".join(g.players), g.started_at[:16].replace("T", " "),
              str(g.entries), describe(g)) for g in games]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[4])
    return 0


def setup_verify(p: argparse.ArgumentParser) -> None:
    _db_arg(p)
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="a game id in the file (default: every game), or an exported .jsonl")


def run_verify(args: argparse.Namespace) -> int:
    if args.game is not None and not args.game.isdigit():
        try:
            logs = read_jsonl_games(args.game)
        except OSError as err:
            raise StoreError(f"cannot read {args.game}: {err.strerror or err}") from err
        except ValueError as err:
            print(f"referee verify: {err}", file=sys.stderr)
            return EXIT_BAD
        verdicts = []
        for log in logs:  # (one game from `referee export`, several from `referee club export`)
            v = verify(log)
            verdicts.append(v)
            print(v.text(f"Game {log.game} ({', '.join(log.players)}), exported, {log.status}"))
        return _exit(verdicts)
    reader = open_reader(args.db)
    try:
        return _verify_file(reader, None if args.game is None else int(args.game))
    finally:
        reader.close()


def _verify_file(reader: Reader, only: int | None) -> int:
    """Verify the file's games as they stand at one moment (one read transaction)."""
    try:
        with reader.snapshot():
            return _verify_snapshot(reader, only)
    except sqlite3.Error as err:
        print(f"{reader.path}: VERDICT: BAD: the file cannot be read ({err})")
        return EXIT_BAD


def _verify_snapshot(reader: Reader, only: int | None) -> int:
    try:
        found = reader.sqlite_check(full=True)
        games = reader.games()
    except (sqlite3.Error, ValueError) as err:
        print(f"{reader.path}: VERDICT: BAD: the file cannot be read ({err})")
        return EXIT_BAD
    if found != ["ok"]:
        print(f"{reader.path}: VERDICT: BAD: SQLite integrity_check: {'; '.join(found[:5])}")
        return EXIT_BAD
    print(f"{reader.path}: SQLite integrity_check ok")
    if only is not None:
        games = [g for g in games if g.id == only]
        if not games:
            raise StoreError(f"there is no game {only} in {reader.path} "
                             "(`referee games` lists them)")
    verdicts = []
    for g in games:
        try:
            v = verify(from_store(reader, g))
        except (ValueError, KeyError, TypeError) as err:
            v = Verdict(g.id, problems=[f"the log cannot be read: {err}"])
        v.problems += [p for p in game_problems(g, reader.links(g.id)) if p not in v.problems]
        v.problems += snapshot_mismatches(reader, g)
        verdicts.append(v)
        print(v.text(f"Game {g.id} ({', '.join(g.players)}), started {g.started_at[:16]}, "
                     f"{describe(g)}"))
    return _exit(verdicts)


def _exit(verdicts: list[Verdict]) -> int:
    if any(v.problems for v in verdicts):
        return EXIT_BAD
    return EXIT_GOOD if all(v.settled for v in verdicts) else EXIT_UNCHECKED


def setup_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", type=int, help="the game's id (`referee games`)")
    _db_arg(p)
    p.add_argument("--format", choices=FORMATS, default="jsonl",
                   help="jsonl: the whole verifiable log; csv: one row per event; bgstats: a "
                        "play record for BG Stats")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def run_export(args: argparse.Namespace) -> int:
    reader = open_reader(args.db)
    try:
        with reader.snapshot():
            g = reader.game(args.game)
            if g is None:
                raise StoreError(f"there is no game {args.game} in {reader.path} "
                                 "(`referee games` lists them)")
            log = from_store(reader, g)
        text = render(log, args.format)
    except sqlite3.Error as err:
        raise StoreError(f"cannot read {reader.path}: {err}") from err
    finally:
        reader.close()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def snapshot_mismatches(reader: Reader, g: GameRecord) -> list[str]:
    """Each stored snapshot against the game folded from its log up to that entry: a
    snapshot says exactly what its entries give, or it is reported. Snapshots of another
    version of the rules (which a resume does not use) are not compared."""
    from referee import games
    from referee.running import fresh

    kept = reader.snapshots(g.id)
    if not kept:
        return []
    try:
        ruleset = games.find(g.game)
    except BadRequest:  # a game this referee does not know: verify says so elsewhere
        return []
    if ruleset.version != g.ruleset_version:
        return []
    out: list[str] = []
    try:
        catalog = ruleset.catalog_from_json(g.catalog)
        game = fresh(ruleset, catalog)
        for stored in reader.entries(g.id):
            game.replay(stored.log_entry())
            body = kept.pop(stored.seq, None)
            if body is None:
                continue
            # The state is compared as a state (a mapping's order is not part of it: the
            # live game's events kept their keys' order, the stored ones are sorted).
            core, mine = json.loads(body), game.snapshot()
            same = ({**core, "state": None} == {**mine, "state": None}
                    and ruleset.state_from_snapshot(core["state"], catalog) == game.state)
            if not same:
                out.append(f"game {g.id} snapshot {stored.seq}: differs from the game its "
                           "entries give")
    except (ValueError, KeyError, TypeError, IndexError) as err:
        return [f"game {g.id}: its snapshots could not be checked ({err})"]
    out += [f"game {g.id} snapshot {seq}: no entry {seq} stands for it" for seq in sorted(kept)]
    return out
