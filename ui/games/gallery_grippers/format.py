"""Gallery Grippers' words and numbers for the console: pure functions of the session's state
and log. (What every game's screens share, `escape` and `refusal_text`, is `ui.format`;
they are re-exported here so a Gallery Grippers screen has one `fmt`.)

Nothing here keeps anything: every line the console shows about the game is computed from
`session.state` or `session.log` by one of these functions, so any widget can be rebuilt from
the session alone. Every figure (a card's bonus, a price, the roll a bypass needs, what undo
takes back) is asked of `queries`: these functions only put it into words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from referee.games.gallery_grippers.rules.queries import Decision, card_bonus
from referee.games.gallery_grippers.rules.setup import PALETTE
from referee.games.gallery_grippers.state import GameState, PlayerState
from referee.session import LogEntry
from ui.format import escape as escape
from ui.format import refusal_text as refusal_text

# The Okabe-Ito colours behind the palette names (colour-blind safe). A colour name that is
# not in the palette (the headless protocol accepts any) is drawn white; the name is always
# written beside it, so the colour is never the only cue.
COLOUR_HEX: dict[str, str] = {
    "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
}
if set(COLOUR_HEX) != set(PALETTE):  # a programming error, caught at import
    raise RuntimeError("COLOUR_HEX must cover the palette of Gallery Grippers (rules.setup)")

TILE_LABELS: dict[str, str] = {
    "airport": "Airport (blue)", "recruitment": "Recruitment (green)",
    "security": "Security (black)", "alarm": "Alarm (red)", "trading": "Trading post (yellow)",
    "art": "Art quadrant", "exit": "Exit", "black_market": "Black market",
    "plain": "Plain tile (nothing happens)",
}


def money(amount: int) -> str:
    return f"${amount:,}"


def short_money(amount: int) -> str:
    """$700M, $1.2B: for tight columns."""
    if amount >= 1_000_000_000:
        return f"${amount / 1_000_000_000:.3g}B"
    if amount >= 1_000_000:
        return f"${amount / 1_000_000:.3g}M"
    return money(amount)


def pips(strikes: int, of: int = 3) -> str:
    return "●" * min(strikes, of) + "○" * max(of - strikes, 0)


def bar(value: int, target: int, width: int = 10) -> str:
    filled = 0 if target <= 0 else min(width, value * width // target)
    return "█" * filled + "░" * (width - filled)


def colour_hex(name: str) -> str:
    return COLOUR_HEX.get(name.casefold(), "#FFFFFF")


def swatch(player: PlayerState) -> str:
    """Rich markup: a coloured square and the name, with the colour's name when asked."""
    return f"[{colour_hex(player.color)}]■[/] [b]{escape(player.name)}[/b]"


def where(player: PlayerState) -> str:
    if player.where is None:
        return "outside"
    return f"in {player.where}"


def hand_lines(state: GameState, player: PlayerState) -> tuple[str, str]:
    """The specialists and the attributes in a player's hand, each with its bonus."""

    def cards(names: Iterable[str]) -> str:
        return ", ".join(f"{n} +{card_bonus(state, n)}" for n in names) or "–"

    return cards(player.specialists), cards(player.attributes)


def art_text(player: PlayerState) -> str:
    if not player.art:
        return "no art"
    pieces = ", ".join(f"{a.name} {short_money(a.value)} −{a.deduction}" for a in player.art)
    return f"{pieces}  (−{player.deduction}% on every bypass)"


def status_text(player: PlayerState) -> str:
    return {"active": "active", "out": "OUT", "winner": "WINNER"}.get(player.status,
                                                                       player.status)


def turn_step(state: GameState, player: str) -> str:
    """What the player whose turn it is does next (or has done), in a few words."""
    t = state.turn
    pend = next((q for q in state.pending if q.player == player), None)
    if pend is not None and pend.decision in WAITING:
        text = WAITING[pend.decision]
        if pend.decision == Decision.DRAW:
            count = int(pend.info.get("count", 1))
            text = text.format(count=count, s="s" if count != 1 else "")
        if pend.decision == Decision.TILE or not t.moved:
            return f"rolled {t.rolled}: {text}" if t.rolled else text
        return f"on {_tile_place(t.tile, t.museum)}: {text}"
    if not t.moved:
        return "roll to move (R)"
    return f"on {_tile_place(t.tile, t.museum)}"


def _tile_place(tile: str | None, museum: str | None) -> str:
    place = f" in {museum}" if museum else ""
    return f"{TILE_LABELS[tile or 'plain'].split(' (')[0]}{place}"


# What the table waits for while a decision is pending (the dialog for it is open).
WAITING: dict[str, str] = {
    Decision.TILE: "say where the pawn landed",
    Decision.OBSTACLE: "meet the obstacle",
    Decision.CAUGHT: "caught with art: ditch it or keep it",
    Decision.SECOND_STRIKE: "second strike: leave or go back in",
    Decision.DRAW: "draw {count} card{s}",
    Decision.REUP: "re-up: roll a d6, draw that many",
}


# ---- dice ---------------------------------------------------------------------------------

def provenance(roll: dict[str, Any]) -> str:
    """Where a rolled value came from, in words (a `roll` event or a Roll as JSON)."""
    if roll.get("source") == "electronic":
        return "kept after undo" if roll.get("kept") else "electronic"
    if roll.get("via") == "tray":
        return "physical, dice tray"
    return "physical, typed"


def last_roll(log: Sequence[LogEntry]) -> dict[str, Any] | None:
    """The most recent die rolled in a step that still stands (undone steps skipped)."""
    for entry in reversed(log):
        if entry.undone:
            continue
        for event in reversed(entry.events):
            if event["type"] == "roll" and event["die"] != "pick":
                return event
    return None


PURPOSES = {"move": "to move", "bypass": "bypass", "reup": "re-up", "turn_order": "turn order",
            "free": "free roll"}


# ---- the log ------------------------------------------------------------------------------

def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def sum_text(b: dict[str, Any]) -> str:
    """The bypass total, term by term: roll + specialist + attribute − art = total vs target."""
    terms = [f"roll {b['roll']}"]
    if b.get("specialist"):
        terms.append(f"+ {b['specialist']} {b['specialist_bonus']}")
    if b.get("attribute"):
        terms.append(f"+ {b['attribute']} {b['attribute_bonus']}")
    terms.append(f"− art {b['art_deduction']}")
    sign = "≥" if b["success"] else "<"
    return f"{' '.join(terms)} = {b['total']} {sign} {b['target']}"


def consequences(events: list[dict[str, Any]]) -> list[str]:
    """What a step set off, in plain words (strikes, art returned, pending choices, the end)."""
    lines: list[str] = []
    for e in events:
        t = e["type"]
        if t == "strike":
            lines.append(f"{e['player']}: strike {e['strikes']} of 3.")
        elif t == "caught":
            lines.append(f"{e['player']} is caught carrying art: ditch it (1 strike) or keep "
                         "it (2 strikes).")
        elif t == "art_returned":
            names = ", ".join(p["name"] for p in e["pieces"])
            lines.append(f"Art goes back to its museum: {names}.")
        elif t == "pending" and e["decision"] == Decision.SECOND_STRIKE:
            lines.append(f"{e['player']} goes back to the nearest exit, then chooses: leave "
                         "the premises or go back in with 2 strikes.")
        elif t == "hand_discarded":
            lines.append(f"{e['player']}'s hand goes to the discard piles.")
        elif t == "out":
            lines.append(f"{e['player']} is OUT ({e.get('rule', 'GG-15')}).")
        elif t == "game_over":
            who = e["winner"] or "nobody"
            why = OVER_WORDS.get(e["reason"], str(e["reason"]).replace("_", " "))
            lines.append(f"Game over: {who} wins ({why}).")
        elif t == "turn":
            lines.append(f"Turn {e['number']}: {e['player']} plays.")
    return lines


# The log in words, never the protocol's tokens.
CHOICE_WORDS: dict[str, str] = {
    "ditch": "ditches the art (1 strike)", "keep": "keeps the art (2 strikes)",
    "leave": "leaves the premises", "reenter": "goes back into the museum",
}
COMMAND_WORDS: dict[str, str] = {
    "new_game": "new game", "deal": "a starting hand", "turn_order": "the turn-order roll",
    "tiebreak": "the tie-break", "move_roll": "the roll to move", "move": "a move",
    "bypass": "an obstacle", "choose": "a choice", "steal": "a theft", "sell": "a sale",
    "draw": "a card drawn", "reup": "a re-up", "trade": "a trade", "end_turn": "an end of turn",
    "roll": "a free roll",
}
OVER_WORDS: dict[str, str] = {
    "money": "reached the win money", "third_strike": "the only player's third strike",
    "last_player_standing": "last player standing",
}


def describe(entry: LogEntry) -> str:
    """One line for the event log; a typed die given another value after an undo says so
    (the core's words, `referee.words.core_words`: "corrected: Ann's d6 4 → 6")."""
    from referee.words import core_words

    fixed = [e for e in entry.events if e.get("type") == "die_corrected"]
    return "; ".join([_describe(entry), *core_words(fixed)])


def _describe(entry: LogEntry) -> str:
    cmd = entry.command
    name = str(cmd["cmd"])
    ev = entry.events
    who = cmd.get("player", "")
    if name == "new_game":
        players = ", ".join(p["name"] for p in _of(ev, "game_started")[0]["players"])
        return f"New game: {players}"
    if name == "deal":
        return f"{who} is dealt {', '.join(cmd['specialists'] + cmd['attributes'])}"
    if name == "turn_order":
        rolled = _of(ev, "turn_order_rolled")[0]
        rolls = ", ".join(f"{n} {v}" for n, v in rolled["rolls"].items())
        first = _of(ev, "first_player")
        tail = f" → {first[0]['player']} goes first" if first else " → tie"
        return f"Turn-order roll: {rolls}{tail}"
    if name == "tiebreak":
        return f"{cmd['winner']} wins the tie-break and goes first"
    if name == "move_roll":
        r = _of(ev, "roll")[0]
        return f"{who} rolls {r['value']} to move ({provenance(r)})"
    if name == "move":
        m = _of(ev, "moved")[0]
        place = f" in {m['museum']}" if m.get("museum") else ""
        text = f"{who} rolls {m['roll']} → {TILE_LABELS[m['tile']].split(' (')[0]}{place}"
        if _of(ev, "strikes_reset"):
            text += " (strikes reset)"
        return text
    if name == "bypass":
        b = _of(ev, "bypass")[0]
        mark = "✓ bypassed" if b["success"] else "✗ failed"
        return f"{who} {mark}: {sum_text(b)}"
    if name == "choose":
        return f"{who} {CHOICE_WORDS.get(cmd['choice'], 'chooses ' + str(cmd['choice']))}"
    if name == "steal":
        art = _of(ev, "stolen")[0]["art"]
        return f"{who} steals {art['name']} ({money(art['value'])}, −{art['deduction']}%)"
    if name == "sell":
        s = _of(ev, "sold")[0]
        text = f"{who} sells {len(s['pieces'])} piece(s) for {money(s['price'])}"
        return text + (" — WINS" if _of(ev, "game_over") else "")
    if name == "draw":
        d = _of(ev, "drawn")
        return f"{who} draws {d[0]['card']} ({d[0]['deck']})" if d else f"{who} draws"
    if name == "reup":
        r = _of(ev, "roll")[0]
        return f"{who} re-ups: rolls {r['value']}, draws that many"
    if name == "trade":
        return (f"{cmd['from']} trades {', '.join(cmd['give']) or 'nothing'} to {cmd['to']} "
                f"for {', '.join(cmd['get']) or 'nothing'}")
    if name == "end_turn":
        t = _of(ev, "turn")
        return f"{who} ends the turn" + (f" → {t[0]['player']}" if t else "")
    if name == "undo":
        undone = str(ev[0]["cmd"])
        return f"Undo of step #{cmd['undoes']} ({COMMAND_WORDS.get(undone, undone)})"
    if name == "roll":
        r = _of(ev, "roll")[0]
        return f"Free {r['die']} roll: {r['value']}"
    return name

