"""A game's log out of the store: JSON lines (verifiable), CSV, and a BG Stats play file.

The JSON-lines export is the game as the store keeps it: a header line (``"format":
"tableside-referee/game-log"``) with the game's facts and its catalog, then one line per log
entry ``{"game", "seq", "at", "command", "events", "undone", "prev", "hash"}``. It holds no
secret: the seed is in it only once the game has revealed it. `read_jsonl` reads it back for
`referee verify`. See docs/store.md and docs/verify.md.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from referee import games
from referee.chain import canonical
from referee.db import GameRecord, Reader, StoredEntry
from referee.errors import StoreError
from referee.games import DEFAULT_GAME
from referee.ruleset import BgStatsScore
from referee.session import Session
from referee.words import corrected, corrections

FORMAT = "tableside-referee/game-log"
FORMAT_VERSION = 1
ENTRY_KEYS = ("game", "seq", "at", "command", "events", "undone", "prev", "hash")
NAMESPACE = uuid.UUID("6f1c0c3e-2b7a-5d8e-9a41-7a0e3b9c5d21")  # this project's uuid5 root


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game: its facts (as the games table or an export header has them) and its log."""

    game: int
    started_at: str
    ended_at: str | None
    status: str
    players: list[str]
    winner: str | None
    commitment: str
    catalog: dict[str, Any]
    head: str
    count: int
    entries: list[StoredEntry]
    ruleset: str = DEFAULT_GAME  # which game (exports before there were several: GG's)
    ruleset_version: str = "1"
    result: dict[str, Any] | None = None  # {outcome, winners, reason, rule}, once over

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "game": self.game,
                "ruleset": self.ruleset, "ruleset_version": self.ruleset_version,
                "started_at": self.started_at, "ended_at": self.ended_at,
                "status": self.status, "players": self.players, "winner": self.winner,
                "result": self.result, "commitment": self.commitment, "head": self.head,
                "entries": self.count, "catalog": self.catalog}


def from_store(reader: Reader, game: GameRecord) -> GameLog:
    return GameLog(game.id, game.started_at, game.ended_at, game.status, game.players,
                   game.winner, game.commitment, game.catalog, game.head, game.entries,
                   reader.entries(game.id), game.game, game.ruleset_version, game.result)


def read_jsonl(path: str | Path) -> GameLog:
    """Read an exported game back; raises ValueError naming the line that is wrong (or, for
    a file of several games, saying so: `read_jsonl_games` reads those)."""
    logs = read_jsonl_games(path)
    if len(logs) > 1:
        raise ValueError(f"{path} holds {len(logs)} games, not one")
    return logs[0]


def read_jsonl_games(path: str | Path) -> list[GameLog]:
    """Read the games of an export back, in order: one game (`referee export`) or several,
    each from its header line on (`referee club export`). Raises ValueError naming the line
    that is wrong."""
    games: list[tuple[int, dict[str, Any], list[StoredEntry]]] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            try:
                item = json.loads(line)
                if isinstance(item, dict) and item.get("format") == FORMAT:
                    games.append((n, item, []))  # a header: a game starts here
                    continue
                if not games:
                    raise ValueError(f"not a {FORMAT} export (no header line)")
                missing = [k for k in ENTRY_KEYS if k not in item]
                if missing:
                    raise ValueError(f"missing {', '.join(missing)}")
                games[-1][2].append(StoredEntry(item["game"], item["seq"], item["at"],
                                                item["command"], item["events"], item["prev"],
                                                item["hash"], bool(item["undone"])))
            except (ValueError, TypeError, AttributeError) as err:
                raise ValueError(f"{path}:{n}: {err}") from err
    if not games:
        raise ValueError(f"{path} is empty")
    return [_game_log(path, n, header, entries) for n, header, entries in games]


def _game_log(path: str | Path, n: int, header: dict[str, Any],
              entries: list[StoredEntry]) -> GameLog:
    try:
        return GameLog(header["game"], header["started_at"], header["ended_at"],
                       header["status"], header["players"], header["winner"],
                       header["commitment"], header["catalog"], header["head"],
                       header["entries"], entries, str(header.get("ruleset", DEFAULT_GAME)),
                       str(header.get("ruleset_version", "1")), header.get("result"))
    except KeyError as err:
        raise ValueError(f"{path}:{n}: the header has no {err}") from err


def final_state(log: GameLog) -> Any:
    """The game's state at the end of its log, by its own ruleset."""
    ruleset = games.find(log.ruleset)
    entries = [e.log_entry() for e in log.entries]
    return Session.resume(entries, seed=None, ruleset=ruleset,
                          catalog=ruleset.catalog_from_json(log.catalog)).state


# ---- formats ---------------------------------------------------------------------------

def jsonl(log: GameLog) -> Iterator[str]:
    yield canonical(log.header())
    for e in log.entries:
        yield canonical({"game": e.game, "seq": e.seq, "at": e.at, "command": e.command,
                         "events": e.events, "undone": e.undone, "prev": e.prev,
                         "hash": e.hash})


CSV_COLUMNS = ("game", "seq", "at", "cmd", "undone", "undoes", "event_no", "type", "player",
               "purpose", "die", "value", "source", "via", "roll_index", "sides", "kept",
               "event", "command", "hash")


def csv_text(log: GameLog) -> str:
    """One row per event (roll provenance in its own columns), every row with its entry."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for e in log.entries:
        for n, ev in enumerate(e.events or [{}]):
            w.writerow([e.game, e.seq, e.at, e.command.get("cmd"), int(e.undone),
                        e.command.get("undoes", ""), n, ev.get("type", ""),
                        ev.get("player", ""), ev.get("purpose", ""), ev.get("die", ""),
                        _cell(ev.get("value")) if ev.get("type") == "roll" else "",
                        ev.get("source", ""), _cell(ev.get("via")), _cell(ev.get("index")),
                        _cell(ev.get("sides")), _cell(ev.get("kept")), canonical(ev),
                        canonical(e.command), e.hash])
    return out.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def bgstats(log: GameLog) -> dict[str, Any]:
    """A BG Stats play file: players, game, location and one play (docs/store.md); the
    scores, winners, places and rounds are the game's (`Ruleset.bgstats`). Every die
    corrected after its result is named in the play's `comments` (`referee.words.corrected`,
    as `referee verify` says it): the file's shape is BG Stats', unchanged."""
    play = games.find(log.ruleset).bgstats(final_state(log))
    game_uuid = str(uuid.uuid5(NAMESPACE, f"game:{play['name']}"))
    play_uuid = str(uuid.uuid5(NAMESPACE, f"play:{log.commitment}:{log.game}:{log.started_at}"))
    players = [{"id": i, "uuid": str(uuid.uuid5(NAMESPACE, f"player:{p['name']}")),
                "name": p["name"], "isAnonymous": False}
               for i, p in enumerate(play["scores"], 1)]
    start, end = _local(log.started_at), _local(log.ended_at or log.entries[-1].at)
    scores = [{"playerRefId": i, "score": p["score"], "winner": p["winner"],
               "startPlayer": p["start"], "seatOrder": i, "rank": rank(p, play["scores"]),
               "newPlayer": False, "role": p["role"]}
              for i, p in enumerate(play["scores"], 1)]
    finished = log.status == "over"
    seed = next((e["seed"] for entry in log.entries for e in entry.events
                 if e.get("type") == "seed_revealed"), None)
    fixed = corrected(corrections(log.entries))  # public: said with the play (issue 39)
    return {
        "about": play["about"],
        "players": players,
        "locations": [{"id": 1, "uuid": str(uuid.uuid5(NAMESPACE, "location:box")),
                       "name": "Tableside Referee"}],
        "games": [{"id": 1, "uuid": game_uuid, "name": play["name"],
                   **({"bggId": play["bgg_id"]} if "bgg_id" in play else {}),
                   "highestWins": play["highest_wins"], "noPoints": False,
                   "cooperative": play["cooperative"], "usesTeams": False}],
        "plays": [{"uuid": play_uuid, "gameRefId": 1, "locationRefId": 1,
                   "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
                   "entryDate": end.strftime("%Y-%m-%d %H:%M:%S"),
                   "durationMin": max(0, round((end - start).total_seconds() / 60)),
                   "ignored": not finished, "manualWinner": True, "usesTeams": False,
                   "rounds": play["rounds"], "scoringSetting": 0, "board": "",
                   "comments": f"Refereed by Tableside Referee (game {log.game}, "
                               f"{'finished' if finished else log.status}"
                               + "".join(f", {n}" for n in play["notes"])
                               + f"). Dice commitment {log.commitment}"
                               + (f", seed {seed}" if seed else "") + "."
                               + (f" {fixed[:1].upper()}{fixed[1:]}." if fixed else ""),
                   "playerScores": scores}],
    }


def rank(score: BgStatsScore, scores: list[BgStatsScore]) -> int:
    """A player's place as exported: the game's, held to its result — a winner is 1st, and
    while anyone won, a player who did not is never 1st (a tie lost on a tiebreaker)."""
    if score["winner"] or not any(s["winner"] for s in scores):
        return 1 if score["winner"] else score["rank"]
    return max(score["rank"], 2)


def _local(at: str) -> datetime:
    return datetime.fromisoformat(at).astimezone()


class ExportError(StoreError):
    """An export that cannot be written (a bug, a log it did not expect): `referee export`
    says it and exits 2; nothing else is affected (the file is only read)."""


def render(log: GameLog, fmt: str) -> str:
    """The export as text (UTF-8 when written: names in any script round-trip). Raises
    `ExportError`, naming the game and the format, if it cannot be made."""
    if fmt not in ("jsonl", "csv", "bgstats"):
        raise ValueError(f"unknown export format {fmt!r}; choose jsonl, csv or bgstats")
    try:
        if fmt == "jsonl":
            return "".join(line + "\n" for line in jsonl(log))
        if fmt == "csv":
            return csv_text(log)
        return json.dumps(bgstats(log), indent=2, ensure_ascii=False) + "\n"
    except Exception as err:
        raise ExportError(f"game {log.game} cannot be exported as {fmt} "
                          f"({type(err).__name__}: {err}); nothing was changed") from err
