"""Gallery Grippers' steps in words: the game's `step_words` (`referee.ruleset.DescribesSteps`),
which every front end reads through `referee.words.step_words` (the console's event log, the
page's log, the plain log of `ui.trouble`): one describer (issue 26).

Plain text, no markup: a front end escapes it for its own. Pure: each line is a function of
the logged command and its events alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TILE_LABELS: dict[str, str] = {
    "airport": "Airport (blue)", "recruitment": "Recruitment (green)",
    "security": "Security (black)", "alarm": "Alarm (red)", "trading": "Trading post (yellow)",
    "art": "Art quadrant", "exit": "Exit", "black_market": "Black market",
    "plain": "Plain tile (nothing happens)",
}

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


def money(amount: int) -> str:
    return f"${amount:,}"


def tile_name(tile: str | None) -> str:
    """A tile's name without its colour: ``Security``, ``Trading post``."""
    return TILE_LABELS.get(tile or "plain", str(tile)).split(" (")[0]


def provenance(roll: Mapping[str, Any]) -> str:
    """Where a rolled value came from, in words (a `roll` event or a Roll as JSON)."""
    if roll.get("source") == "electronic":
        return "kept after undo" if roll.get("kept") else "electronic"
    if roll.get("via") == "tray":
        return "physical, dice tray"
    return "physical, typed"


def sum_text(b: Mapping[str, Any]) -> str:
    """The bypass total, term by term: roll + specialist + attribute − art = total vs target."""
    terms = [f"roll {b['roll']}"]
    if b.get("specialist"):
        terms.append(f"+ {b['specialist']} {b['specialist_bonus']}")
    if b.get("attribute"):
        terms.append(f"+ {b['attribute']} {b['attribute_bonus']}")
    terms.append(f"− art {b['art_deduction']}")
    sign = "≥" if b["success"] else "<"
    return f"{' '.join(terms)} = {b['total']} {sign} {b['target']}"


def _of(events: Sequence[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e.get("type") == kind]


def step_words(command: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    """One logged step of Gallery Grippers in a line."""
    cmd = command
    name = str(cmd["cmd"])
    ev = events
    who = cmd.get("player", "")
    if name == "new_game":
        players = ", ".join(p["name"] for p in _of(ev, "game_started")[0]["players"])
        return f"New game: {players}"
    if name == "deal":
        return f"{who} is dealt {', '.join([*cmd['specialists'], *cmd['attributes']])}"
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
        text = f"{who} rolls {m['roll']} → {tile_name(m['tile'])}{place}"
        if _of(ev, "strikes_reset"):
            text += " (strikes reset)"
        return text
    if name == "bypass":
        b = _of(ev, "bypass")[0]
        at = f" at the {tile_name(b['tile'])}" if b.get("tile") else ""
        mark = "✓ bypassed" if b["success"] else "✗ failed"
        return f"{who}{at} {mark}: {sum_text(b)}"
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
        undone = str(ev[0]["cmd"]) if ev else "?"
        return f"Undo of step #{cmd['undoes']} ({COMMAND_WORDS.get(undone, undone)})"
    if name == "roll":
        r = _of(ev, "roll")[0]
        return f"Free {r['die']} roll: {r['value']}"
    if name == "reveal":
        return "The table ends the game"
    return name.replace("_", " ")
