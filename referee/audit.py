"""`referee verify`: is a game's log intact, and did every electronic roll follow from the seed?

Checks, in order: the hash chain (and that it ends where the games table or the export header
says), the facts kept beside the chain (players, start, state, winner, end) against the log's
game_started and game_over events, the commitment (SHA-256 of the revealed seed), and a
replay of the log that re-derives every electronic roll: a fresh roll must be the stream's
next index and show the seed's value there; a kept roll (reused after an undo) must equal the
earlier roll with its index; a box draw must pick, from the sorted draw pile as it stood, the
card the log says. See docs/verify.md for what GOOD proves and what it cannot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee import games
from referee.chain import Link, body_of, canonical, chain_problems
from referee.dice import stream_draw
from referee.errors import BadRequest
from referee.export import GameLog
from referee.ruleset import DieRequest, Result, Rolled, Ruleset, result_of
from referee.words import corrected, corrections


@dataclass
class Verdict:
    """What `verify` found: `problems` (empty when all good) and plain-language `notes`."""

    game: int
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    revealed: bool = False
    abandoned: bool = False  # ended by a new game before its seed was revealed
    # Typed dice given another value after their step's result was shown (the step undone and
    # the die typed again): legal (a typo is fixed so), but public: "Ben's d6 4 → 6 (step 14)".
    corrections: list[str] = field(default_factory=list)

    def corrected(self) -> str:
        """The corrections in one phrase, "" when there are none."""
        return corrected(self.corrections)

    @property
    def good(self) -> bool:
        return not self.problems and self.revealed

    @property
    def settled(self) -> bool:
        """Nothing more will make this verdict change: GOOD, or an intact abandoned game whose
        seed was never shown (a game still being played can become checkable later)."""
        return self.good or (not self.problems and self.abandoned)

    def text(self, title: str) -> str:
        lines = [title, *(f"  {n}" for n in self.notes)]
        if self.problems:
            lines.append(f"  VERDICT: BAD: {len(self.problems)} problem(s):")
            lines += [f"    - {p}" for p in self.problems[:50]]
            if len(self.problems) > 50:
                lines.append(f"    ... and {len(self.problems) - 50} more")
        elif not self.revealed and self.abandoned:
            lines.append("  VERDICT: ABANDONED: the log is intact, but the game was abandoned "
                         "(a new game was started) before its seed was revealed, so its "
                         "electronic rolls can never be re-derived. Nothing is wrong with it.")
        elif not self.revealed:
            lines.append("  VERDICT: NOT YET CHECKABLE: the log is intact, but the seed is not "
                         "revealed (it is, when the game ends or on `reveal`), so the rolls "
                         "cannot be re-derived yet.")
        elif self.corrections:
            lines.append(f"  VERDICT: GOOD — {self.corrected()}. The log is intact and every "
                         "electronic roll follows from the revealed seed.")
        else:
            lines.append("  VERDICT: GOOD: the log is intact and every electronic roll "
                         "follows from the revealed seed.")
        return "\n".join(lines)


@dataclass
class _Tally:
    """How a game's dice came about: fresh from the stream, kept after an undo, draws, physical."""

    fresh: int = 0
    kept: int = 0
    draws: int = 0
    physical: int = 0
    next_index: int = 0
    seen: dict[int, tuple[tuple[Any, ...], str | None]] = field(default_factory=dict)


def verify(log: GameLog) -> Verdict:
    """Check one game's log (from the store or an export)."""
    v = Verdict(log.game, abandoned=log.status == "abandoned")
    links = [Link(e.seq, body_of(e.game, e.seq, e.at, e.command, e.events), e.prev, e.hash,
                  e.undone) for e in log.entries]
    v.problems += chain_problems(log.game, links)
    if any(e.game != log.game for e in log.entries):
        v.problems.append(f"entries of another game are mixed into game {log.game}")
    if not links:
        v.problems.append(f"game {log.game} has no entries")
        return v
    if links[-1].hash != log.head or len(links) != log.count:
        v.problems.append(f"the log has {len(links)} entries ending in {links[-1].hash[:12]}..., "
                          f"but {log.count} ending in {log.head[:12]}... were recorded "
                          "(entries lost or added)")
    v.notes.append(f"chain: {len(links)} entries, each linked to the one before by SHA-256 "
                   f"(head {links[-1].hash[:16]}...)")
    before = len(v.problems)
    _facts(log, v)
    if len(v.problems) == before:
        v.notes.append("facts: the players, start, state and winner recorded beside the log "
                       "agree with it")
    seed = _seed(log, v)
    tally = _Tally()
    try:
        ruleset = games.find(log.ruleset)
    except BadRequest as err:
        v.problems.append(f"the log is of a game this referee does not know: {err}")
        return v
    end: Any = None
    try:
        end = _replay(log, ruleset, seed, v, tally)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        v.problems.append(f"the log cannot be replayed: {type(err).__name__}: {err}")
    _result(log, None if end is None else ruleset.result(end), v)
    _corrections(log, v, ruleset)
    what = "re-derived from the seed" if seed else "in stream order (values not yet checkable)"
    v.notes.append(f"rolls: {tally.fresh} electronic roll(s) {what}, {tally.kept} kept "
                   f"roll(s) equal to their first roll, {tally.draws} box draw(s) match the "
                   f"pile, {tally.physical} physical roll(s) recorded as physical")
    return v


def _corrections(log: GameLog, v: Verdict, ruleset: Any = None) -> None:
    """Every die corrected after its result, in the steps that stand (an undone step's
    correction was taken back with it), said in the notes and in the verdict."""
    v.corrections = corrections(log.entries, ruleset)
    if v.corrections:
        v.notes.append(f"corrections: {v.corrected()}")


def _facts(log: GameLog, v: Verdict) -> None:
    """The facts kept beside the chain (the export's header, the games row) against the log:
    players and start from its game_started, status, winner and end from its game_over."""
    first = log.entries[0]
    started = next((e for e in first.events if e.get("type") == "game_started"), None)
    if started is None:
        v.problems.append("the log's first entry does not start a game")
        return
    names = [p.get("name") for p in started.get("players", [])]
    if names != log.players:
        v.problems.append(f"the players are recorded as {', '.join(map(str, log.players))}, "
                          f"but the log started the game with {', '.join(map(str, names))}")
    if log.started_at != first.at:
        v.problems.append(f"the start is recorded as {log.started_at}, but the log started the "
                          f"game at {first.at}")
    overs = [(entry, e) for entry in log.entries for e in entry.events
             if e.get("type") == "game_over"]
    if len(overs) > 1:
        v.problems.append("the log ends the game more than once")
    if overs:
        entry, _ = overs[-1]
        if log.status != "over":
            v.problems.append(f"the game is recorded as {log.status}, but the log ends it at "
                              f"entry {entry.seq}")
        if log.ended_at != entry.at:
            v.problems.append(f"the end is recorded as {log.ended_at}, but the log ended the "
                              f"game at {entry.at}")
        return
    if log.status not in ("playing", "abandoned"):
        v.problems.append(f"the game is recorded as {log.status}, but the log never ends it")
    if log.winner is not None:
        v.problems.append(f"the winner is recorded as {log.winner}, but the log never ends "
                          "the game")
    if log.status == "playing" and log.ended_at is not None:
        v.problems.append(f"the game is recorded as still being played, but as ended at "
                          f"{log.ended_at}")


def _result(log: GameLog, derived: Result | None, v: Verdict) -> None:
    """The result kept beside the chain (its one winner, and its envelope where recorded)
    against the log's: the game's result at the end of the replay (or, if the replay failed,
    the one its game_over event carries)."""
    overs = [e for entry in log.entries for e in entry.events if e.get("type") == "game_over"]
    if not overs:
        if log.result is not None:
            v.problems.append("a result is recorded, but the log never ends the game")
        return
    result = derived or result_of(overs[-1])
    winners = result["winners"]
    sole = winners[0] if len(winners) == 1 else None
    if log.winner != sole:
        won = ", ".join(winners) or "nobody"
        v.problems.append(f"the winner is recorded as {log.winner or 'nobody'}, but the log "
                          f"says {won} won")
    if log.result is not None and dict(log.result) != dict(result):
        v.problems.append(f"the result is recorded as {canonical(log.result)}, but the log's "
                          f"is {canonical(dict(result))}")


def _seed(log: GameLog, v: Verdict) -> bytes | None:
    revealed = [e["seed"] for entry in log.entries for e in entry.events
                if e.get("type") == "seed_revealed"]
    if not revealed:
        v.notes.append(f"commitment: {log.commitment[:16]}... (seed not revealed yet)")
        return None
    if len(set(revealed)) > 1:
        v.problems.append("the log reveals more than one seed")
    try:
        seed = bytes.fromhex(revealed[0])
    except ValueError:
        v.problems.append("the revealed seed is not hex")
        return None
    import hashlib  # (imported when first used: OpenSSL's _hashlib costs a start ~2.5 ms)

    if hashlib.sha256(seed).hexdigest() != log.commitment:
        v.problems.append("the revealed seed does not match the commitment made at the start")
        return None
    v.revealed = True
    v.notes.append(f"commitment: SHA-256 of the revealed seed is {log.commitment[:16]}..., "
                   "as committed at the start")
    return seed


def _replay(log: GameLog, ruleset: Ruleset, seed: bytes | None, v: Verdict,
            t: _Tally) -> Any:
    """Fold the log by its game's rules, checking every roll; the state at the end (None if
    the log does not apply)."""
    initial = ruleset.initial_state(ruleset.catalog_from_json(log.catalog))
    stack: list[tuple[int, Any]] = []
    state = initial
    for entry in log.entries:
        where = f"entry {entry.seq} ({entry.command.get('cmd')})"
        if entry.command.get("cmd") == "undo":
            if not stack or stack[-1][0] != entry.command.get("undoes"):
                v.problems.append(f"{where}: undoes an entry that is not the last one standing")
                return None
            stack.pop()
            state = stack[-1][1] if stack else initial
            continue
        for r in ruleset.rolled(entry.command, entry.events):
            if r.roll is None:  # a card named by hand: no die
                continue
            if r.roll.source != "electronic":
                t.physical += 1
                continue
            _check_roll(r, state, ruleset, seed, where, v, t)
        try:
            state = ruleset.fold(state, entry.events)
        except (ValueError, KeyError, TypeError) as err:
            v.problems.append(f"{where}: its events do not apply to the game ({err})")
            return None
        if entry.seq == 1 and getattr(state, "commitment", log.commitment) != log.commitment:
            v.problems.append("the game started with another commitment than the header's")
        stack.append((entry.seq, state))
    return state


def _check_roll(r: Rolled, before: Any, ruleset: Ruleset, seed: bytes | None, where: str,
                v: Verdict, t: _Tally) -> None:
    e = dict(r.event or {})
    index, sides, die, value = e["index"], e["sides"], e["die"], e["value"]
    card, deck = r.card, r.deck
    who = f"{where}: {e.get('player') or 'the table'}'s {e.get('purpose')} {die} #{index}"
    if e["kept"]:
        first = t.seen.get(index)
        if first is None or first[0] != _key(r) or first[1] != card:
            v.problems.append(f"{who} is marked kept but no earlier roll #{index} matches it")
        t.kept += 1
        return
    if index != t.next_index:
        v.problems.append(f"{who}: the stream's next roll was #{t.next_index} "
                          "(rolls may not be skipped or repeated)")
    t.next_index = max(t.next_index, index + 1)
    t.seen[index] = (_key(r), card)
    if before.seed is not None:
        v.problems.append(f"{who}: rolled by the box after the seed was revealed")
    request = DieRequest(r.id, die, r.purpose, sides, player=r.player, deck=deck)
    try:
        want_sides: int | None = ruleset.sides(before, die, deck)
    except (KeyError, ValueError):
        want_sides = None
    if deck is not None:
        t.draws += 1
        there = (ruleset.read_die(before, request, value)[1]
                 if want_sides is not None and 0 <= value < want_sides else None)
        if sides != want_sides or there != card:
            v.problems.append(f"{who}: drew {card!r}, but entry {value} of the sorted "
                              f"{deck} pile of {want_sides} is {there or 'nothing'!r}")
    elif sides != want_sides:
        v.problems.append(f"{who}: a {die} has {want_sides} sides, not {sides}")
        return
    t.fresh += 1
    if seed is None:
        return
    want = ruleset.read_die(before, request, stream_draw(seed, index, sides))[0]
    if value != want:
        v.problems.append(f"{who} shows {value}, but the seed gives {want}")


def _key(r: Rolled) -> tuple[Any, ...]:
    """What a kept roll must share with the roll it reuses: the die and its id, the value, the
    player and the purpose (a free roll's value is never a bypass's: docs/protocol.md, "Kept
    dice"), as the game's `Ruleset.rolled` reads them (a draw from The Gallerist's bag is
    nobody's, whoever its event says it was recorded for)."""
    assert r.roll is not None
    return (r.roll.die, r.roll.sides, r.roll.value, r.id, r.player, r.purpose)
