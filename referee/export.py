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

from referee.chain import canonical
from referee.db import GameRecord, Reader, StoredEntry
from referee.games.gallery_grippers.catalog import Art, Card, Catalog
from referee.games.gallery_grippers.state import OUT, GameState, PlayerState
from referee.session import Session

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

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "game": self.game,
                "started_at": self.started_at, "ended_at": self.ended_at,
                "status": self.status, "players": self.players, "winner": self.winner,
                "commitment": self.commitment, "head": self.head, "entries": self.count,
                "catalog": self.catalog}


def from_store(reader: Reader, game: GameRecord) -> GameLog:
    return GameLog(game.id, game.started_at, game.ended_at, game.status, game.players,
                   game.winner, game.commitment, game.catalog, game.head, game.entries,
                   reader.entries(game.id))


def read_jsonl(path: str | Path) -> GameLog:
    """Read an exported game back; raises ValueError naming the line that is wrong."""
    entries: list[StoredEntry] = []
    header: dict[str, Any] | None = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            try:
                item = json.loads(line)
                if header is None:
                    if not isinstance(item, dict) or item.get("format") != FORMAT:
                        raise ValueError(f"not a {FORMAT} export (no header line)")
                    header = item
                    continue
                missing = [k for k in ENTRY_KEYS if k not in item]
                if missing:
                    raise ValueError(f"missing {', '.join(missing)}")
                entries.append(StoredEntry(item["game"], item["seq"], item["at"],
                                           item["command"], item["events"], item["prev"],
                                           item["hash"], bool(item["undone"])))
            except (ValueError, TypeError, AttributeError) as err:
                raise ValueError(f"{path}:{n}: {err}") from err
    if header is None:
        raise ValueError(f"{path} is empty")
    try:
        return GameLog(header["game"], header["started_at"], header["ended_at"],
                       header["status"], header["players"], header["winner"],
                       header["commitment"], header["catalog"], header["head"],
                       header["entries"], entries)
    except KeyError as err:
        raise ValueError(f"{path}:1: the header has no {err}") from err


def catalog_from_json(data: dict[str, Any], source: str = "<stored>") -> Catalog:
    """The catalog a game was played with, from the JSON the store keeps of it."""
    def deck(kind: str, cards: list[dict[str, Any]]) -> dict[str, Card]:
        return {c["name"]: Card(c["name"], kind, c["bonus"], c["copies"]) for c in cards}

    museums = {m: tuple(Art(a["name"], m, a["value"], a["deduction"]) for a in art)
               for m, art in data["museums"].items()}
    return Catalog(deck("specialist", data["specialists"]),
                   deck("attribute", data["attributes"]), museums, source)


def final_state(log: GameLog) -> GameState:
    entries = [e.log_entry() for e in log.entries]
    return Session.resume(entries, seed=None, catalog=catalog_from_json(log.catalog)).state


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
    """A BG Stats play file: players, game, location and one play (docs/store.md)."""
    state = final_state(log)
    game_uuid = str(uuid.uuid5(NAMESPACE, "game:Gallery Grippers"))
    play_uuid = str(uuid.uuid5(NAMESPACE, f"play:{log.commitment}:{log.game}:{log.started_at}"))
    players = [{"id": i, "uuid": str(uuid.uuid5(NAMESPACE, f"player:{p.name}")),
                "name": p.name, "isAnonymous": False} for i, p in enumerate(state.players, 1)]
    rank = ranks(state)
    start, end = _local(log.started_at), _local(log.ended_at or log.entries[-1].at)
    scores = [{"playerRefId": i, "score": str(p.money), "winner": p.name == state.winner,
               "startPlayer": p.name == state.first_player, "seatOrder": i,
               "rank": rank[p.name], "newPlayer": False, "role": p.color}
              for i, p in enumerate(state.players, 1)]
    finished = log.status == "over"
    return {
        "about": "A play of Gallery Grippers refereed by a Tableside Referee box; open or "
                 "import it with BG Stats. Scores are each player's money in dollars.",
        "players": players,
        "locations": [{"id": 1, "uuid": str(uuid.uuid5(NAMESPACE, "location:box")),
                       "name": "Tableside Referee"}],
        "games": [{"id": 1, "uuid": game_uuid, "name": "Gallery Grippers", "bggId": 0,
                   "highestWins": True, "noPoints": False, "cooperative": False,
                   "usesTeams": False}],
        "plays": [{"uuid": play_uuid, "gameRefId": 1, "locationRefId": 1,
                   "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
                   "entryDate": end.strftime("%Y-%m-%d %H:%M:%S"),
                   "durationMin": max(0, round((end - start).total_seconds() / 60)),
                   "ignored": not finished, "manualWinner": True, "usesTeams": False,
                   "rounds": state.round, "scoringSetting": 0, "board": "",
                   "comments": f"Refereed by Tableside Referee (game {log.game}, "
                               f"{'finished' if finished else log.status}"
                               + (f", {state.over_reason}" if state.over_reason else "")
                               + f"). Dice commitment {log.commitment}"
                               + (f", seed {state.seed}" if state.seed else "") + ".",
                   "playerScores": scores}],
    }


def ranks(state: GameState) -> dict[str, int]:
    """Places at the end: the winner first, then players still in before those who are out,
    each group by money; equal money and status share a place (1, 2, 2, 4)."""
    def key(p: PlayerState) -> tuple[bool, bool, int]:
        return (p.name != state.winner, p.status == OUT, -p.money)

    ordered = sorted(state.players, key=key)
    return {p.name: 1 + sum(key(q) < key(p) for q in ordered) for p in ordered}


def _local(at: str) -> datetime:
    return datetime.fromisoformat(at).astimezone()


def render(log: GameLog, fmt: str) -> str:
    if fmt == "jsonl":
        return "".join(line + "\n" for line in jsonl(log))
    if fmt == "csv":
        return csv_text(log)
    if fmt == "bgstats":
        return json.dumps(bgstats(log), indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown export format {fmt!r}; choose jsonl, csv or bgstats")
