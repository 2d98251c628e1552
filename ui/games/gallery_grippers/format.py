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

from referee.games import find
from referee.games.gallery_grippers.rules.queries import Decision, card_bonus
from referee.games.gallery_grippers.rules.setup import PALETTE
from referee.games.gallery_grippers.state import GameState, PlayerState
from referee.games.gallery_grippers.words import CHOICE_WORDS as CHOICE_WORDS
from referee.games.gallery_grippers.words import COMMAND_WORDS as COMMAND_WORDS
from referee.games.gallery_grippers.words import TILE_LABELS as TILE_LABELS
from referee.games.gallery_grippers.words import money as money
from referee.games.gallery_grippers.words import provenance as provenance
from referee.games.gallery_grippers.words import sum_text as sum_text
from referee.session import LogEntry
from referee.words import step_words
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


OVER_WORDS: dict[str, str] = {
    "money": "reached the win money", "third_strike": "the only player's third strike",
    "last_player_standing": "last player standing",
}


def describe(entry: LogEntry) -> str:
    """One line for the event log: the words every front end gives this step
    (`referee.words.step_words`, the game's own in `referee.games.gallery_grippers.words`)."""
    return step_words(find("gallery-grippers"), entry.command, entry.events)
