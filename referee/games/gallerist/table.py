"""The Gallerist's table, board and verdicts for a front end that knows no game (the web page;
`referee.ruleset.DescribesTable`, `DescribesBoard`): each player's money, influence, pieces,
gallery and visitors; the clock (round, whose turn, the `next` line, what is pending, the end
trigger), the box office and the bag, the artists, the setup checklist while setting up, and
the final scoring term by term; an intermediate scoring's and the final scoring's verdicts.

Every figure is the ruleset's own (`actions.state_json`, `actions.next_step`, the scoring's
terms, `end_conditions`): this module works no rule out again. A seat's colour is the one
new_game gave it (None in a game stored before the Gallerist kept colours)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.gallerist.actions import next_step, state_json
from referee.games.gallerist.rules.common import end_conditions
from referee.games.gallerist.rules.scoring import CATEGORY_WORDS
from referee.games.gallerist.state import CATEGORIES, GALLERY, KICKED, State
from referee.ruleset import Event, Figure, Panel, Seat

CONDITION_WORDS = {"box_office_empty": "the box office is empty",
                   "celebrities": "two or more celebrities", "bag_empty": "the bag is empty"}
REASON_WORDS = {"money": "the most money", "works_acquired": "works of art acquired",
                "visitors": "visitors in the gallery", "assistants": "assistants in play",
                "shared": "a tie no tiebreaker breaks: shared"}
OWED = "…"  # a figure final scoring still waits for


def _money(n: int) -> str:
    return f"${n}"


def _names(names: Sequence[str]) -> str:
    names = list(names)
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "none"


def _where(gallerist: str | None) -> str:
    if gallerist is None:
        return "not placed yet"
    return {GALLERY: "in the gallery", KICKED: "kicked out (action due)"}.get(gallerist,
                                                                           gallerist)


def _assistants(a: Mapping[str, Any]) -> str:
    parts = [f"{a['desks']} on desks"]
    on = sum(a["locations"].values())
    if on:
        parts.append(f"{on} on locations ({_counts(a['locations'])})")
    if a["market"]:
        parts.append(f"{len(a['market'])} in the market")
    parts.append(f"{a['queue']} in the queue")
    if a["removed"]:
        parts.append(f"{a['removed']} out of the game")
    return ", ".join(parts)


def _gallery(works: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(w["artist"] + (" (masterpiece)" if w["masterpiece"] else "")
                     for w in works) or "empty"


def table(s: State) -> list[Seat]:
    """Each player, in seat order."""
    if s.phase == "no_game":
        return []
    j = state_json(s)
    due = {p.get("player") for p in j["pending"] if p.get("player")}
    totals = {p["name"]: p["total"] for p in (j["scoring"] or {}).get("players") or []}
    winners = set((s.result or {}).get("winners") or [])
    seats = []
    for p in j["players"]:
        name = p["name"]
        if s.over:
            status = "won" if name in winners else None
        elif name in due:
            status = "to act"
        elif s.phase == "play" and name == j["current"]:
            status = "to play"
        else:
            status = None
        figures = [Figure("money", _money(p["money"])),
                   Figure("influence", str(p["influence"])),
                   Figure("gallerist", _where(p["gallerist"])),
                   Figure("assistants", _assistants(p["assistants"])),
                   Figure("gallery", _gallery(p["exhibited"])),
                   Figure("sold", ", ".join(p["sold"]) or "none"),
                   Figure("visitors in the gallery", _counts(p["visitors"])),
                   Figure("reputation tiles", ", ".join(p["reputation_tiles"]) or "none")]
        if p["signatures"]:
            figures.append(Figure("commissions", ", ".join(p["signatures"])))
        if name in totals:
            t = totals[name]
            figures.append(Figure("final total", OWED if t is None else _money(t)))
        seats.append(Seat(name, p.get("color"), status, tuple(figures)))
    return seats


# ---- the board -----------------------------------------------------------------------------

def _pending_words(p: Mapping[str, Any]) -> str:
    d, who = p["decision"], p.get("player")
    if d == "kickout":
        pieces = " and ".join(p.get("pieces") or [str(p.get("piece"))])
        return f"{who}: kicked-out {pieces} from {p.get('location')}"
    if d == "intermediate":
        return f"intermediate scoring ({p.get('stack')} tickets ran out)"
    if d == "start_place":
        return f"{who}: place the gallerist"
    if d == "auction_pick":
        return f"{who}: pick a renowned work"
    if d == "score":
        return f"{who}: {', '.join(CATEGORY_WORDS.get(c, c) for c in p.get('options') or [])}"
    return f"{who or 'the table'}: {d}"


def _trigger(s: State, j: Mapping[str, Any]) -> str:
    t = j["end_triggered"]
    if t is not None:
        said = _names([CONDITION_WORDS.get(c, c) for c in t["conditions"]])
        last = ("this is the final round" if s.in_final_round else
                f"round {j['final_round']} is the final round")
        return f"triggered in round {t['round']} ({said}); {last}"
    holding = [CONDITION_WORDS.get(c, c) for c in end_conditions(s)]
    return ("two of: " + ", ".join(CONDITION_WORDS.values()) + "; holding now: "
            + (_names(holding) if holding else "none"))


def clock(s: State, j: Mapping[str, Any]) -> Panel:
    rows: list[tuple[str, str]] = []
    if s.phase == "setup":
        rows.append(("phase", "setup"))
    elif s.phase == "final_scoring":
        rows.append(("phase", "final scoring"))
    if s.round:
        rows.append(("round", str(j["round"]) + (" (the final round)"
                                                  if j["in_final_round"] else "")))
    if s.phase == "play" and j["current"]:
        rows.append(("whose turn", j["current"]))
    if j["start_player"]:
        rows.append(("start player", j["start_player"]))
    rows.append(("next", next_step(s)))
    for p in j["pending"]:
        rows.append(("pending", _pending_words(p)))
    if s.phase in ("play", "final_scoring") or s.over:
        rows.append(("celebrities", str(j["celebrities"])))
        rows.append(("end of the game", _trigger(s, j)))
    if s.over and s.result is not None:
        r = s.result
        rows.append(("result", f"{_names(r.get('winners') or [])} "
                     f"{'wins' if len(r.get('winners') or []) == 1 else 'win'}: "
                     f"{REASON_WORDS.get(str(r.get('reason')), str(r.get('reason')))}"))
    return Panel("The clock", tuple(rows))


def supply(s: State, j: Mapping[str, Any]) -> Panel:
    bag = j["bag"]
    colours = list(dict.fromkeys([*j["tickets"], *(bag if isinstance(bag, dict) else {})]))
    rows: list[tuple[str, ...]] = [("colour", "tickets left", "visitors in the bag")]
    for c in colours:
        tickets = j["tickets"].get(c)
        in_bag = str(bag.get(c, 0)) if isinstance(bag, dict) else "-"
        rows.append((c, "-" if tickets is None else str(tickets), in_bag))
    # the totals: how many visitors the bag holds (every draw recorded, GAL-13) whatever
    # it is known by
    rows.append(("all colours", str(sum(j["tickets"].values())),
                 "not known" if bag is None else
                 str(sum(bag.values())) if isinstance(bag, dict) else str(bag)))
    return Panel("Box office and bag", tuple(rows), header=True)


def artists(s: State, j: Mapping[str, Any]) -> Panel:
    rows: list[tuple[str, ...]] = [("artist", "art form", "colour", "state")]
    for name, a in j["artists"].items():
        if a["celebrity"]:
            state = "celebrity"
        elif a["discovered"]:
            state = "fame " + ("?" if a["fame"] is None else str(a["fame"]))
        else:
            state = "face down"
        rows.append((name, a["form"], a["colour"], state))
    return Panel("Artists", tuple(rows), header=True)


def checklist(s: State, j: Mapping[str, Any]) -> Panel:
    setup = j["setup"] or {}
    rows: list[tuple[str, ...]] = [("step", "what the table does", "done")]
    rows += [(c["item"], c["words"], "yes" if c["done"] else "no")
             for c in setup.get("checklist") or []]
    return Panel("Setup checklist", tuple(rows), header=True)


def _places(places: Sequence[int]) -> str:
    if len(places) == 1:
        return f"place {places[0]}"
    return f"places {places[0]}-{places[-1]} shared"


def _terms(category: str, terms: Any) -> str:
    """What a final-scoring figure is made of, in words."""
    if category == "market":
        return "; ".join(
            f"column {t['column']}: {t['assistants']} assistant(s), "
            + _places(t["places"]) + f", {_money(t['money'])}" for t in terms
        ) or "no majority"
    if category == "exhibited":
        return "; ".join(
            f"{w['artist']} (fame {'?' if w['fame'] is None else w['fame']}"
            + (", masterpiece" if w["masterpiece"] else "") + ")"
            + ("" if w["value"] is None else f" {_money(w['value'])}") for w in terms
        ) or "no works exhibited"
    if category == "auction":
        if not terms:
            return "no renowned work"
        return f"renowned {terms['easel']}, counted as {terms['counts_as']}"
    if category == "influence":
        return f"marker at {terms['position']}"
    if category in ("curator", "dealer"):
        return ", ".join(terms) or "no works count"
    return ", ".join(terms) or "none"  # reputation: the tiles


def scoring(s: State, j: Mapping[str, Any]) -> list[Panel]:
    """The final scoring, term by term: a figure per category and player (entered by the table
    marked "entered", owed as "…"), the money, the total and the tiebreaks; then what each
    figure is made of, the market's majorities and the auction."""
    sc = j["scoring"]
    if sc is None:
        return []
    players = sc["players"]
    head = ("", *(p["name"] for p in players))
    rows: list[tuple[str, ...]] = [head, ("money", *(_money(p["money"]) for p in players))]
    for c in CATEGORIES:
        cells = []
        for p in players:
            v = p[c]
            cell = OWED if v is None else _money(v)
            if v is not None and p["sources"][c] == "table":
                cell += " (entered)"
            cells.append(cell)
        rows.append((CATEGORY_WORDS.get(c, c), *cells))
    rows.append(("total", *(OWED if p["total"] is None else _money(p["total"])
                            for p in players)))
    rows.append(("works acquired", *(str(p["works_acquired"]) for p in players)))
    rows.append(("visitors", *(str(p["visitors"]) for p in players)))
    rows.append(("assistants in play", *(str(p["assistants_in_play"]) for p in players)))
    out = [Panel("Final scoring", tuple(rows), header=True)]
    terms: list[tuple[str, ...]] = [("", *(p["name"] for p in players))]
    for c in CATEGORIES:
        terms.append((CATEGORY_WORDS.get(c, c), *(_terms(c, p["terms"][c]) for p in players)))
    out.append(Panel("What each figure is made of", tuple(terms), header=True))
    market: list[tuple[str, ...]] = [("column", "players", "assistants", "places", "pot",
                                      "each")]
    for col, groups in sc["market"].items():
        for g in groups:
            market.append((col, _names(g["players"]), str(g["assistants"]),
                           ", ".join(map(str, g["places"])), _money(g["pot"]),
                           _money(g["each"])))
        if not groups:
            market.append((col, "nobody", "0", "-", "-", "-"))
    out.append(Panel("International market majorities", tuple(market), header=True))
    auction = sc["auction"]
    rows_a: list[tuple[str, ...]] = [("order", ", ".join(auction["order"]) or "nobody spent")]
    if auction["next"]:
        rows_a.append(("to pick", auction["next"]))
    rows_a += [(f"{pk['player']}'s pick", f"renowned {pk['easel']}, counted as "
                f"{pk['counts_as']}: {_money(pk['value'])}"
                + (" (entered)" if pk["source"] == "table" else "")) for pk in auction["picks"]]
    out.append(Panel("Auction", tuple(rows_a)))
    return out


def board(s: State) -> list[Panel]:
    """The board's panels in the order to show them (none before a game)."""
    if s.phase == "no_game":
        return []
    j = state_json(s)
    if s.phase == "setup":
        return [clock(s, j), checklist(s, j), supply(s, j), artists(s, j)]
    if s.phase == "play":
        return [clock(s, j), supply(s, j), artists(s, j)]
    return [clock(s, j), *scoring(s, j), supply(s, j), artists(s, j)]


# ---- verdicts ------------------------------------------------------------------------------

def verdict(events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
    """The final scoring's result, or an intermediate scoring, term by term."""
    for e in reversed(events):
        if e.get("type") == "game_over":
            totals = dict(e.get("totals") or {})
            terms = [Figure(name, _money(int(t))) for name, t in
                     sorted(totals.items(), key=lambda kv: -int(kv[1]))]
            terms.append(Figure("decided by", REASON_WORDS.get(str(e.get("reason")),
                                                               str(e.get("reason")))))
            winners = list(e.get("winners") or [])
            terms.append(Figure("winner" if len(winners) == 1 else "winners",
                                _names(winners)))
            return f"Final scoring ({e.get('rule') or 'GAL-24'})", terms
        if e.get("type") == "intermediate":
            benefit = dict(e.get("benefit") or {})
            each = ", ".join(f"+{v} {k}" for k, v in benefit.items() if v) or "nothing"
            terms = [Figure("stack run out", str(e.get("stack"))),
                     Figure("goal tile", str(e.get("tile"))),
                     Figure("each qualifying player gets", each),
                     Figure("qualifying", _names(list(e.get("qualifying") or [])))]
            return f"Intermediate scoring, goal tile {e.get('tile')} (GAL-14)", terms
    return None
