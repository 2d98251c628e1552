"""Gallery Grippers' table and verdicts for a front end that knows no game (the web page):
each player's strikes, money, art and hand, and a bypass term by term (GG-8)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.gallery_grippers.state import ACTIVE, GameState
from referee.games.gallery_grippers.words import tile_name
from referee.ruleset import Event, Figure, Seat


def _money(amount: int) -> str:
    return f"${amount:,}"


def table(s: GameState) -> list[Seat]:
    out = []
    current = s.current_player
    for p in s.players:
        art = ", ".join(f"{a.name} ({_money(a.value)})" for a in p.art) or "none"
        status = None if p.status == ACTIVE else p.status
        if status is None and current is not None and current.name == p.name and not s.over:
            status = "to play"
        out.append(Seat(p.name, p.color, status, (
            Figure("strikes", f"{p.strikes} of 3"),
            Figure("money", _money(p.money)),
            Figure("art", art),
            Figure("where", p.where or "outside"),
            Figure("specialists", ", ".join(p.specialists) or "none"),
            Figure("attributes", ", ".join(p.attributes) or "none"),
        )))
    return out


def verdict(events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
    found = [e for e in events if e.get("type") == "bypass"]
    if not found:
        return None
    e = found[-1]
    source = str(e.get("roll_source") or "")
    if e.get("roll_kept"):
        source += ", kept"
    terms = [Figure("roll (d100)", f"{e['roll']} ({source})")]
    if e.get("specialist"):
        terms.append(Figure(f"specialist {e['specialist']}", f"+{e['specialist_bonus']}"))
    if e.get("attribute"):
        terms.append(Figure(f"attribute {e['attribute']}", f"+{e['attribute_bonus']}"))
    if e.get("art_deduction"):
        terms.append(Figure("art carried", f"-{e['art_deduction']}"))
    terms += [Figure("total", str(e["total"])), Figure("needs at least", str(e["target"])),
              Figure("verdict", "bypassed" if e["success"] else "failed")]
    tile = f" at the {tile_name(e['tile'])}" if e.get("tile") else ""
    return f"{e['player']}'s bypass{tile} ({e.get('rule') or 'GG-8'})", terms
