"""What the page shows, as plain data: read from the session and asked of its ruleset.

`snapshot(session)` is the one place the page's content is gathered; `web.page` turns it into
HTML. Nothing here decides a rule: the table and verdicts come from the ruleset
(`referee.ruleset.DescribesTable`, or its state JSON for a game without it), whose turn and
`next` from its state JSON, the dice proof from the state and the core's `verify`, the luck
report from `referee.luck` over the log.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError
from referee.luck import LuckFold
from referee.ruleset import DescribesBoard, DescribesHouseRules, DescribesTable, Figure, Seat
from referee.words import corrections, owner_words, plain, step_words

LOG_LINES = 40  # the newest log lines the page lists
VERDICTS = 12  # the newest verdicts the page lists
TOKEN_LABEL = b"tableside-referee web token v1"


TOKEN_BYTES = 15  # 120 bits: 24 base32 characters, no padding


def token_for(seed: bytes | None) -> str:
    """The page's token for a game: derived from its secret dice seed (random per game, the
    same after a restart; the seed cannot be worked back from it). Before any game: random.

    Upper-case base32 (A-Z, 2-7): with an upper-case address the whole URL is in the QR
    code's alphanumeric mode, so the code stays small enough for the 128x64 OLED
    (`web.qr`)."""
    import base64

    if seed is None:
        digest = secrets.token_bytes(TOKEN_BYTES)
    else:
        digest = hmac.new(seed, TOKEN_LABEL, hashlib.sha256).digest()[:TOKEN_BYTES]
    return base64.b32encode(digest).decode()


@dataclass
class Proof:
    """The dice proof: the commitment now; the seed and the check of every roll at the end."""

    commitment: str | None
    seed: str | None
    check: str | None = None  # "good" | "bad" | "unchecked"
    notes: list[str] = field(default_factory=list)


def seats(ruleset: Any, state: Any, state_json: Mapping[str, Any]) -> list[Seat]:
    """Each player as the ruleset describes them; from the state JSON's scalar fields for a
    game that does not describe its table."""
    if isinstance(ruleset, DescribesTable):
        return ruleset.table(state)
    out = []
    for p in state_json.get("players") or []:
        if not isinstance(p, Mapping):
            continue
        figures = tuple(Figure(str(k), str(v)) for k, v in p.items()
                        if k not in ("name", "color") and isinstance(v, str | int | float)
                        and not isinstance(v, bool))
        out.append(Seat(str(p.get("name", "?")), p.get("color"), None, figures))
    return out


def board(ruleset: Any, state: Any) -> list[dict[str, Any]]:
    """The game's board panels (`DescribesBoard`), as plain data; none for a game without."""
    if not isinstance(ruleset, DescribesBoard):
        return []
    return [{"title": p.title, "rows": [list(r) for r in p.rows], "header": p.header}
            for p in ruleset.board(state)]


def last_verdict(ruleset: Any, log: Sequence[Any]) -> dict[str, Any] | None:
    if not isinstance(ruleset, DescribesTable):
        return None
    for entry in reversed(log):
        if entry.undone:
            continue
        found = ruleset.verdict(entry.events)
        if found is not None:
            title, terms = found
            return {"seq": entry.seq, "title": title,
                    "terms": [[t.label, t.value] for t in terms]}
    return None


def log_line(command: Mapping[str, Any]) -> str:
    """A logged command in a line (`referee.words.plain`; kept for its callers)."""
    return plain(command)


def logged_words(ruleset: Any, entry: Any) -> str:
    """A log entry in the words every front end gives it (`referee.words.step_words`); the
    command as sent if they cannot be found (the page shows whatever the log holds)."""
    try:
        return step_words(ruleset, entry.command, entry.events)
    except Exception:
        return plain(entry.command)


def check_rolls(store: Any, commitment: str | None) -> tuple[str, list[str]]:
    """`referee verify` of this game, read from the game file (read-only)."""
    if store is None or commitment is None:
        return "unchecked", ["this game is not kept in a file, so there is nothing to check"]
    from referee.audit import verify
    from referee.export import from_store
    from referee.records import open_reader

    try:
        reader = open_reader(str(store.path))
    except RefereeError as err:
        return "unchecked", [str(err)]
    try:
        with reader.snapshot():
            game = next((g for g in reversed(reader.games()) if g.commitment == commitment),
                        None)
            if game is None:
                return "unchecked", ["the game is not in the file yet"]
            v = verify(from_store(reader, game))
    except (sqlite3.Error, ValueError, KeyError, TypeError) as err:
        return "bad", [f"the log cannot be read: {err}"]
    finally:
        with contextlib.suppress(sqlite3.Error):
            reader.close()
    if v.problems:
        return "bad", v.problems[:20]
    return ("good" if v.revealed else "unchecked"), v.notes


class StepFold:
    """What the steps that stand say, folded a step at a time: `find(entry)` is asked once of
    each new entry that is not undone, and an ``undo`` drops what its target said; so it never
    reads old entries back from the store. A shorter log is a new game."""

    def __init__(self, find: Callable[[Any], Sequence[Any]]) -> None:
        self.seen = 0
        self.found: list[tuple[int, Any]] = []  # (seq, what it said), in order
        self._find = find

    def update(self, log: Sequence[Any]) -> list[tuple[int, Any]]:
        if len(log) < self.seen:
            self.seen, self.found = 0, []
        for index in range(self.seen, len(log)):
            entry = log[index]
            if entry.command.get("cmd") == "undo":
                undoes = entry.command.get("undoes")
                self.found = [f for f in self.found if f[0] != undoes]
            if not entry.undone:
                self.found += [(entry.seq, said) for said in self._find(entry)]
        self.seen = len(log)
        return self.found


class Verdicts:
    """`last_verdict` kept up to date a step at a time (a `StepFold` of the ruleset's
    verdicts)."""

    def __init__(self) -> None:
        self._ruleset: Any = None
        self._fold = StepFold(self._verdict)

    def _verdict(self, entry: Any) -> Sequence[Any]:
        found = self._ruleset.verdict(entry.events)
        return () if found is None else (found,)

    @property
    def _found(self) -> list[tuple[int, tuple[str, Sequence[Any]]]]:
        return self._fold.found

    def update(self, ruleset: Any, log: Sequence[Any]) -> dict[str, Any] | None:
        if not isinstance(ruleset, DescribesTable):
            return None
        self._ruleset = ruleset
        self._fold.update(log)
        if not self._found:
            return None
        seq, (title, terms) = self._found[-1]
        return {"seq": seq, "title": title, "terms": [[t.label, t.value] for t in terms]}

    def history(self, limit: int = VERDICTS) -> list[dict[str, Any]]:
        """The verdicts that stand, newest first (after `update`)."""
        return [{"seq": seq, "title": title, "terms": [[t.label, t.value] for t in terms]}
                for seq, (title, terms) in reversed(self._found[-limit:])]


def _newest_rolled(ruleset: Any, log: Sequence[Any]) -> Iterator[tuple[Any, Sequence[Any]]]:
    """The steps that stand, newest first (of the last 200), each with what it rolled and
    drew as the ruleset reports it (`Ruleset.rolled`); a step it cannot read is passed over
    (the page never fails on one step)."""
    for entry in reversed(log[-200:]):
        if entry.undone:
            continue
        try:
            rolled = ruleset.rolled(entry.command, entry.events)
        except Exception:
            continue
        yield entry, rolled


def last_dice(ruleset: Any, log: Sequence[Any]) -> dict[str, Any] | None:
    """The dice of the newest step that stands and rolled any (a turn-order roll: each
    player's), as the ruleset reports them (`Ruleset.rolled`): {seq, dice: [{player, die,
    value, source, purpose}]}."""
    for entry, rolled in _newest_rolled(ruleset, log):
        was = {(e.get("id"), e.get("player"), e.get("purpose")): e.get("was")
               for e in entry.events if e.get("type") == "die_corrected"}
        # (a die no player rolls is named in the game's words: "the table", "ally die 1")
        dice = [{"player": owner_words(ruleset, r.player, r.id), "die": r.roll.die,
                 "value": r.roll.value,
                 "source": ("kept after undo" if r.roll.kept else r.roll.source)
                 if r.roll.source == "electronic" else f"physical, {r.roll.via or 'typed'}",
                 "purpose": ruleset.purpose_words(r.purpose),
                 "corrected_from": was.get((r.id, r.player, r.purpose))}
                for r in rolled if r.roll is not None and r.roll.die != "pick"]
        if dice:
            return {"seq": entry.seq, "dice": dice}
    return None


def last_draw(ruleset: Any, log: Sequence[Any]) -> dict[str, Any] | None:
    """What the newest step that stands drew by the box from a pile that is nobody's (the
    Gallerist's bag: its draws name no player), as the ruleset reports it
    (`Ruleset.rolled`: a ``pick`` with its card): {seq, draws: [{player, card, purpose,
    source}]}. Shown beside the last roll: a game that draws and rolls nothing said "No
    dice rolled yet" beside its draws (issue 39). A card a player draws (Gallery
    Grippers') is that player's step, in the log."""
    for entry, rolled in _newest_rolled(ruleset, log):
        draws = [{"player": r.player, "card": r.card,
                  "purpose": ruleset.purpose_words(r.purpose),
                  "source": "the box's draw, kept after undo" if r.roll.kept
                  else "the box's draw"}
                 for r in rolled if r.roll is not None and r.roll.die == "pick"
                 and r.card is not None and r.player is None]
        if draws:
            return {"seq": entry.seq, "draws": draws}
    return None


class Corrections:
    """The dice corrected after their result (`referee.words.corrections`), a `StepFold`."""

    def __init__(self, ruleset: Any = None) -> None:
        self._fold = StepFold(lambda entry: corrections([entry], ruleset))

    def update(self, log: Sequence[Any]) -> list[str]:
        return [text for _, text in self._fold.update(log)]


def house_rules(ruleset: Any, state: Any, phase: str) -> list[dict[str, str]]:
    """The house rules in force, each in the table's words (`DescribesHouseRules`): none
    before a game, or for a game that does not word them."""
    if phase == "no_game" or not isinstance(ruleset, DescribesHouseRules):
        return []
    return [{"name": rule.name, "value": rule.says(value), "explain": rule.explain(value),
             "rule": rule.rule} for rule, value in ruleset.house_rules(state)]


class Snapshots:
    """The page's data after each accepted command. What depends on the whole log (the luck
    report, the last verdict) is folded in a step at a time; the check of every roll is made
    once per revealed game (it reads the whole file)."""

    def __init__(self) -> None:
        self._checked: tuple[str, str, list[str]] | None = None  # seed, result, notes
        self._game: tuple[int, str | None] | None = None  # (id of the ruleset, commitment)
        self._log: Any = None  # the game's log object (a new game has a new one)
        self._luck: LuckFold | None = None
        self._verdicts = Verdicts()
        self._corrections = Corrections()

    def snapshot(self, session: Any) -> dict[str, Any]:
        ruleset = session.ruleset
        state = session.state
        sj = ruleset.state_json(state)
        log = session.log
        proof = Proof(sj.get("commitment"), sj.get("seed"))
        game = (id(ruleset), proof.commitment)
        if self._luck is None or game != self._game or log is not self._log:
            # a new game (or the first look at one): fold its log from the start
            self._game, self._log = game, log
            self._luck = LuckFold(ruleset)
            self._verdicts = Verdicts()
            self._corrections = Corrections(ruleset)
        if proof.seed:
            if self._checked is None or self._checked[0] != proof.seed:
                result, notes = check_rolls(session.store, proof.commitment)
                self._checked = (proof.seed, result, notes)
            proof.check, proof.notes = self._checked[1], list(self._checked[2])
        current = sj.get("current")
        pending = [p for p in sj.get("pending") or [] if isinstance(p, Mapping)]
        waiting = sorted({str(p["player"]) for p in pending if p.get("player")})
        return {
            "game": ruleset.name, "game_id": ruleset.id,
            "phase": str(sj.get("phase", "")), "over": bool(sj.get("over")),
            "result": sj.get("result"), "round": sj.get("round"),
            "current": current, "waiting": waiting,
            "pending": [str(p.get("decision", "")) for p in pending],
            "next": sj.get("next"),
            "seats": [{"name": s.name, "color": s.color, "status": s.status,
                       "figures": [[f.label, f.value] for f in s.figures]}
                      for s in seats(ruleset, state, sj)],
            "verdict": self._verdicts.update(ruleset, log),
            "verdicts": self._verdicts.history(),
            "dice": last_dice(ruleset, log),
            "draw": last_draw(ruleset, log),
            "turn": sj.get("turn_number"),
            "board": board(ruleset, state),
            "house_rules": house_rules(ruleset, state, str(sj.get("phase", ""))),
            "log": [{"seq": e.seq, "text": logged_words(ruleset, e), "undone": e.undone}
                    for e in reversed(log[-LOG_LINES:])],
            "commands": len(log),
            "proof": {"commitment": proof.commitment, "seed": proof.seed,
                      "check": proof.check, "notes": proof.notes},
            "luck": self._luck.update(log).to_json(),
            "corrections": self._corrections.update(log),
        }
