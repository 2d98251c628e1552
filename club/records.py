"""`referee club games|standings|export|provision|revoke --db FILE`: what the club's file holds,
a new box's credentials and locking a box out, without the club process."""

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
        counts = store.refusals()
        refused = store.refused(last=20)
    finally:
        store.close()
    if not games:
        print("no games yet")
    for g in games:
        print(describe(g))
        for p in g.problems[:10]:
            print(f"    - {p}")
        if g.corrections:  # legal, and public (issue 39)
            from referee.words import corrected

            print(f"    {corrected(g.corrections)}")
    total = sum(r["count"] for r in counts)
    if total:
        print(f"{total} message{'' if total == 1 else 's'} refused: "
              + ", ".join(f"{r['count']} from box {r['box']}" for r in counts)
              + "; the last ones:")
        for r in refused:
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


def provision_refusal(box: str, club: str, *, reader: bool, known: str | None) -> str | None:
    """Why `box` may not be provisioned (None: it may): not a box id, a name the club uses
    itself (its reader account, its name: issue 40), or an account of the other kind."""
    from club.topics import BOX_ID, READER, reserved

    if not BOX_ID.fullmatch(box):
        return f"{box!r} is not a box id (letters, digits and -, at most 32)"
    if reader:
        if known == "box":
            return f"{box!r} is a box's account; the club's own account needs a name of its own"
        return None
    if box.lower() in reserved(club) or known == "reader":
        return (f"{box!r} is a name the club uses itself (its own account {READER!r}, its "
                f"name {club!r}); give the box another name")
    return None


def run_provision(argv: list[str]) -> int:
    from club.provision import box_acl, new_password, password_line, reader_acl

    p = _parser("provision")
    p.add_argument("box", metavar="BOX", help="the box's id (letters, digits, -; at most 32; "
                   "not a name the club uses itself)")
    p.add_argument("--club", default="club", metavar="NAME", help="the club's name (topics)")
    p.add_argument("--reader", action="store_true",
                   help="the club process's own account (reads every box) instead of a box's")
    args = p.parse_args(argv)
    store = _open(args.db, write=True)
    try:
        why = provision_refusal(args.box, args.club, reader=args.reader,
                                known=store.kind(args.box))
        if why is not None:
            print(f"referee club provision: {why}", file=sys.stderr)
            return 2
        password = new_password()
        line = password_line(args.box, password)
        store.provision(args.box, line, kind="reader" if args.reader else "box")
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


def run_revoke(argv: list[str]) -> int:
    """Lock a box out at once: its lines out of the broker's password and ACL files, and the
    broker told to read them again (its connection is closed; it cannot log in again)."""
    from club.provision import ACL_FILE, PASSWD_FILE, drop_user, reload_broker
    from club.topics import BOX_ID, READER, reserved

    p = _parser("revoke")
    p.add_argument("box", metavar="BOX", help="the box's id")
    p.add_argument("--club", default="club", metavar="NAME", help="the club's name (topics)")
    p.add_argument("--passwd", default=PASSWD_FILE, metavar="FILE",
                   help=f"the broker's password file (default {PASSWD_FILE})")
    p.add_argument("--acl", default=ACL_FILE, metavar="FILE",
                   help=f"the broker's ACL file (default {ACL_FILE})")
    p.add_argument("--pid", type=int, metavar="PID", help="send mosquitto (this process) "
                   "SIGHUP to reload; default: systemctl reload mosquitto")
    args = p.parse_args(argv)
    box = args.box
    if not BOX_ID.fullmatch(box) or box.lower() in reserved(args.club):
        print(f"referee club revoke: {box!r} is not a box's account (the club's own, "
              f"{READER!r}, is never revoked this way)", file=sys.stderr)
        return 2
    try:
        found = drop_user(Path(args.passwd), Path(args.acl), box)
    except OSError as err:
        print(f"referee club revoke: {err}", file=sys.stderr)
        return 2
    store = _open(args.db, write=True)
    try:
        known = store.revoke(box)
    finally:
        store.close()
    if not found and not known:
        print(f"referee club revoke: box {box!r} has no account in {args.passwd} nor in the "
              "club's file", file=sys.stderr)
        return 2
    done = reload_broker(args.pid)
    if done is not None:
        print(f"referee club revoke: box {box}'s lines are out of {args.passwd} and "
              f"{args.acl}, but the broker was not reloaded ({done}): run `sudo systemctl "
              "reload mosquitto`", file=sys.stderr)
        return 1
    print(f"box {box} revoked: out of {args.passwd} and {args.acl}, the broker reloaded (its "
          f"connection closed). `referee club provision {box}` lets it in again.")
    return 0


COMMANDS = {"games": run_games, "standings": run_standings, "export": run_export,
            "provision": run_provision, "revoke": run_revoke}


def main(name: str, argv: list[str]) -> int:
    return COMMANDS[name](argv)
