"""`referee club games|standings|export|provision --db FILE`: what the club's file holds, and a
new box's credentials, without the broker."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

from club.store import ClubGame, ClubStore
from referee.errors import StoreError


def _open(path: str, *, write: bool = False) -> ClubStore:
    if not write and not Path(path).is_file():
        raise StoreError(f"there is no club file {path}")
    return ClubStore(path, readonly=not write)


def _parser(name: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"referee club {name}")
    p.add_argument("--db", required=True, metavar="FILE", help="the club's SQLite file")
    return p


def of_file(g: ClubGame) -> str:
    """How a game is told from another of its box's with the same number in another file
    (docs/club.md): '' when the club's number is the box's own."""
    return "" if g.box_game == g.game else f" (game {g.box_game} of file {g.file[:8]})"


def describe(g: ClubGame) -> str:
    winners = ", ".join((g.result or {}).get("winners") or []) or "-"
    check = {"good": "GOOD", "pending": "not yet checkable", "tampered": "TAMPERED"}[g.check]
    return (f"{g.box} game {g.game}{of_file(g)}  {g.ruleset or '?'}  "
            f"{', '.join(g.players) or '?'}  {g.status}  winner(s): {winners}  "
            f"{g.entries} entries  {check}")


def run_games(argv: list[str]) -> int:
    args = _parser("games").parse_args(argv)
    store = _open(args.db)
    try:
        games = store.games()
        refused = store.refused()
    finally:
        store.close()
    if not games:
        print("no games yet")
    for g in games:
        print(describe(g))
        for p in g.problems[:10]:
            print(f"    - {p}")
    if refused:
        print(f"{len(refused)} entr{'y' if len(refused) == 1 else 'ies'} refused:")
        for r in refused[-20:]:
            print(f"  from box {r['box']} (game {r['game']}, seq {r['seq']}, {r['at']}): "
                  f"{r['reason']}")
    return 0


def run_standings(argv: list[str]) -> int:
    from club.standings import evening_start, standings

    p = _parser("standings")
    p.add_argument("--game", metavar="ID", help="one game (its id, e.g. gallery-grippers)")
    p.add_argument("--evening", action="store_true", help="only the last 12 hours' games")
    p.add_argument("--json", action="store_true", help="as JSON")
    args = p.parse_args(argv)
    store = _open(args.db)
    try:
        games = store.games()
    finally:
        store.close()
    tables = standings(games, ruleset=args.game,
                       since=evening_start() if args.evening else None)
    if args.json:
        print(json.dumps({t.game: [s.to_json() for s in t.rows] for t in tables}, indent=2,
                         ensure_ascii=False))
        return 0
    if not tables:
        print("no finished, checked games yet")
    for t in tables:
        print(t.game)
        print(f"  {'player':<24} {'plays':>5} {'wins':>5} {'rating':>7}")
        for s in t.rows:
            print(f"  {s.player:<24} {s.plays:>5} {s.wins:>5} {s.ordinal:>7.2f}")
    return 0


def export_text(store: ClubStore, fmt: str) -> str:
    """The club's plays: every game's log (jsonl: the box's export format, one header line per
    game with its box and check), one row per play (csv) or one BG Stats file (bgstats, the
    finished GOOD games)."""
    from referee.chain import canonical
    from referee.export import bgstats, jsonl

    games = store.games()
    if fmt == "jsonl":
        out = []
        for g in games:
            lines = list(jsonl(store.game_log(g.box, g.game)))
            header = json.loads(lines[0])
            header.update({"box": g.box, "check": g.check, "problems": g.problems,
                           "file": g.file, "club_game": g.game})
            out += [canonical(header), *lines[1:]]
        return "".join(line + "\n" for line in out)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("box", "game", "ruleset", "started_at", "ended_at", "status", "players",
                    "winners", "entries", "check", "commitment", "file", "file_game"))
        for g in games:
            w.writerow((g.box, g.game, g.ruleset, g.started_at, g.ended_at, g.status,
                        "; ".join(g.players), "; ".join((g.result or {}).get("winners") or []),
                        g.entries, g.check, g.commitment, g.file, g.box_game))
        return buf.getvalue()
    if fmt == "bgstats":
        merged: dict[str, Any] = {"about": None, "players": [], "locations": [], "games": [],
                                  "plays": []}
        ids: dict[str, dict[str, int]] = {"players": {}, "locations": {}, "games": {}}
        from club.standings import counted

        for g in counted(games):
            one = bgstats(store.game_log(g.box, g.game))
            merged["about"] = merged["about"] or one["about"]
            one["locations"][0]["name"] = f"Tableside Referee {g.box}"
            one["locations"][0]["uuid"] = one["locations"][0]["uuid"] + "-" + g.box
            remap: dict[str, dict[int, int]] = {}
            for kind in ("players", "locations", "games"):
                remap[kind] = {}
                for item in one[kind]:
                    known = ids[kind].get(item["uuid"])
                    if known is None:
                        known = ids[kind][item["uuid"]] = len(ids[kind]) + 1
                        merged[kind].append({**item, "id": known})
                    remap[kind][item["id"]] = known
            for play in one["plays"]:
                play["gameRefId"] = remap["games"][play["gameRefId"]]
                play["locationRefId"] = remap["locations"][play["locationRefId"]]
                for s in play["playerScores"]:
                    s["playerRefId"] = remap["players"][s["playerRefId"]]
                merged["plays"].append(play)
        return json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown export format {fmt!r}; choose jsonl, csv or bgstats")


def run_export(argv: list[str]) -> int:
    p = _parser("export")
    p.add_argument("--format", choices=("jsonl", "csv", "bgstats"), default="jsonl")
    p.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    args = p.parse_args(argv)
    store = _open(args.db)
    try:
        text = export_text(store, args.format)
    finally:
        store.close()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def run_provision(argv: list[str]) -> int:
    from club.provision import box_acl, new_password, password_line, reader_acl
    from club.topics import BOX_ID

    p = _parser("provision")
    p.add_argument("box", metavar="BOX", help="the box's id (letters, digits, -; at most 32)")
    p.add_argument("--club", default="club", metavar="NAME", help="the club's name (topics)")
    p.add_argument("--reader", action="store_true",
                   help="the club process's own account (reads every box) instead of a box's")
    args = p.parse_args(argv)
    if not BOX_ID.fullmatch(args.box):
        print(f"referee club provision: {args.box!r} is not a box id (letters, digits and -, "
              "at most 32)", file=sys.stderr)
        return 2
    password = new_password()
    line = password_line(args.box, password)
    store = _open(args.db, write=True)
    try:
        store.provision(args.box, line)
    finally:
        store.close()
    acl = reader_acl(args.club, args.box) if args.reader else box_acl(args.club, args.box)
    who = "the club's" if args.reader else f"box {args.box}'s"
    print(f"# {who} credentials: put this line in its secret file (shown once, not kept):")
    print(f"{args.box}:{password}")
    print("# the broker's password_file line:")
    print(line)
    print("# the broker's acl_file lines:")
    print("\n".join(acl))
    return 0


COMMANDS = {"games": run_games, "standings": run_standings, "export": run_export,
            "provision": run_provision}


def main(name: str, argv: list[str]) -> int:
    return COMMANDS[name](argv)
