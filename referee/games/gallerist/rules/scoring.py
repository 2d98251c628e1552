"""Final scoring (GAL-16..25): every category in the page's order, computed where the catalog
has the numbers and entered where it does not, each figure marked; the auction; the winner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.errors import GameOver
from referee.games.gallerist.catalog import CELEBRITY_FAME
from referee.games.gallerist.commands import Command
from referee.games.gallerist.rules.common import figure_cap, player_named, refuse
from referee.games.gallerist.state import CATEGORIES, Player, State
from referee.ruleset import Event

REWARDS = {1: (6, 3, 1), 2: (10, 5, 3), 3: (15, 10, 6)}  # GAL-17, money by place
TABLE_ONLY = ("reputation", "curator", "dealer")  # the page gives no numbers for these
CATEGORY_WORDS = {"market": "international market", "reputation": "reputation tiles",
                  "exhibited": "exhibited works", "auction": "renowned work",
                  "curator": "curator card", "dealer": "art dealer card",
                  "influence": "influence"}


def columns(s: State) -> tuple[int, ...]:
    assert s.setup is not None
    return (1, 2, 3) if s.setup.middle_column else (1, 3)


def split(counts: dict[str, int], rewards: tuple[int, ...], needs_one: bool
          ) -> list[dict[str, Any]]:
    """Tie groups in rank order: a group of k tied at place p shares the rewards of places
    p..p+k-1, each getting the floor of their sum / k (GAL-17)."""
    ranked = sorted({n for n in counts.values() if n > 0 or not needs_one}, reverse=True)
    groups, place = [], 1
    for n in ranked:
        members = [name for name, m in counts.items() if m == n]
        pot = sum(rewards[place - 1 + i] for i in range(len(members))
                  if place - 1 + i < len(rewards))
        groups.append({"players": members, "assistants": n,
                       "places": list(range(place, place + len(members))), "pot": pot,
                       "each": pot // len(members)})
        place += len(members)
    return groups


def market_groups(s: State, column: int) -> list[dict[str, Any]]:
    rows = ("upper",) if s.rules.market_majority_rows == "reputation_rows" else (
        "upper", "lower")
    counts = {p.name: sum(1 for m in p.market if m.column == column and m.row in rows)
              for p in s.players}
    return split(counts, REWARDS[column], s.rules.majority_needs_one)


def fame_now(s: State, artist: str) -> int | None:
    a = s.artist(artist)
    return CELEBRITY_FAME if a.celebrity else a.fame


def renowned_fame(s: State, form: str) -> int | None:
    """The most famous artist of an art form (GAL-20): among the discovered, or all."""
    fames = []
    for art in s.catalog.artists:
        if art.form != form:
            continue
        a = s.artist(art.name)
        if a.discovered:
            fames.append(fame_now(s, art.name))
        elif s.rules.auction_fame_from == "all":
            fames.append(art.fame)
    known = [f for f in fames if f is not None]
    return max(known) if known else None


def renowned_artists(s: State, form: str) -> list[str]:
    """The artists of an art form at its renowned fame (GAL-20): those the work is priced by."""
    fame = renowned_fame(s, form)
    out = []
    for art in s.catalog.artists:
        a = s.artist(art.name)
        if art.form != form or not (a.discovered or s.rules.auction_fame_from == "all"):
            continue
        if (fame_now(s, art.name) if a.discovered else art.fame) == fame is not None:
            out.append(art.name)
    return out


def renowned_json(s: State) -> dict[str, Any]:
    """Per art form: the renowned fame, the artists at it and the work's value (None where
    the box cannot price it)."""
    out = {}
    for form in s.catalog.forms:
        fame = renowned_fame(s, form)
        out[form] = {"fame": fame, "artists": renowned_artists(s, form),
                     "value": None if fame is None else s.catalog.value_at(fame)}
    return out


def auction_order(s: State) -> list[str]:
    start = s.first_player or s.names[0]
    seats = list(s.seats_from(start, after=False))
    if s.rules.auction_tie == "reverse_seat_order":
        seats.reverse()
    order = sorted(seats, key=lambda n: -s.player(n).spent)  # stable: ties keep seat order
    if s.rules.auction_needs_spend:
        order = [n for n in order if s.player(n).spent > 0]
    assert s.setup is not None
    return order[: s.setup.easels]


def next_pick(s: State) -> str | None:
    picked = {pk.player for pk in s.picks}
    return next((n for n in auction_order(s) if n not in picked), None)


def _entered(s: State, name: str, category: str) -> int | None:
    return next((m for p, cat, m in s.entries if p == name and cat == category), None)


def figures(s: State, p: Player) -> dict[str, tuple[int | None, str, Any]]:
    """category -> (money or None while owed, computed|table, the terms it is made of)."""
    out: dict[str, tuple[int | None, str, Any]] = {}
    terms = []
    for col in columns(s):
        for g in market_groups(s, col):
            if p.name in g["players"]:
                terms.append({"column": col, "assistants": g["assistants"],
                              "places": g["places"], "money": g["each"]})
    out["market"] = (sum(t["money"] for t in terms), "computed", terms)
    out["reputation"] = (_entered(s, p.name, "reputation"), "table", list(p.tiles))
    works: list[dict[str, Any]] = []
    for w in p.exhibited:
        fame = fame_now(s, w.artist)
        works.append({"artist": w.artist, "fame": fame, "masterpiece": w.masterpiece,
                      "value": None if fame is None else s.catalog.value_at(fame)})
    if all(w["value"] is not None for w in works):
        out["exhibited"] = (sum(int(w["value"]) for w in works), "computed", works)
    else:
        out["exhibited"] = (_entered(s, p.name, "exhibited"), "table", works)
    pick = next((pk for pk in s.picks if pk.player == p.name), None)
    if pick is not None:
        out["auction"] = (pick.value, pick.source, {"easel": pick.easel,
                                                    "counts_as": pick.counts_as})
    else:
        due = p.name in auction_order(s)
        out["auction"] = (None if due else 0, "computed", None)
    for cat, counted, kind in (("curator", [w.artist for w in p.exhibited], "exhibited"),
                               ("dealer", list(p.sold), "sold")):
        # the works that count for the card's sets (GAL-21, GAL-22); the money is entered
        renowned = [f"renowned {pick.easel}"] if pick and pick.counts_as == kind else []
        out[cat] = (_entered(s, p.name, cat), "table", counted + renowned)
    money = s.catalog.influence_value(p.influence)
    out["influence"] = ((money, "computed", {"position": p.influence}) if money is not None
                        else (_entered(s, p.name, "influence"), "table",
                              {"position": p.influence}))
    return out


def works_acquired(s: State, p: Player) -> int:
    renowned = any(pk.player == p.name for pk in s.picks)
    return len(p.exhibited) + len(p.sold) + (renowned and s.rules.renowned_counts_as_acquired)


def total(s: State, p: Player) -> int | None:
    values = [v for v, _, _ in figures(s, p).values()]
    return None if any(v is None for v in values) else p.money + sum(v or 0 for v in values)


def owed(s: State) -> list[str]:
    out = [f"{p.name}'s {CATEGORY_WORDS[cat]} ({cat})" for p in s.players
           for cat, (v, _, _) in figures(s, p).items() if v is None and cat != "auction"]
    nxt = next_pick(s)
    if nxt is not None:
        out.insert(0, f"{nxt}'s auction pick")
    return out


def scoring_json(s: State) -> dict[str, Any] | None:
    if s.phase not in ("final_scoring", "over") or s.setup is None:
        return None
    players = []
    place = places(s, list((s.result or {}).get("winners") or [])) if s.over else {}
    for p in s.players:
        f = figures(s, p)
        players.append({"name": p.name, "money": p.money, **{c: f[c][0] for c in CATEGORIES},
                        "place": place.get(p.name),
                        "total": total(s, p), "table": [c for c in CATEGORIES
                                                       if f[c][1] == "table"],
                        "sources": {c: f[c][1] for c in CATEGORIES},
                        "terms": {c: f[c][2] for c in CATEGORIES},
                        "works_acquired": works_acquired(s, p),
                        "visitors": sum(p.visitors.values()), "assistants_in_play": p.in_play})
    return {"players": players,
            "market": {str(col): market_groups(s, col) for col in columns(s)},
            "auction": {"order": auction_order(s), "next": next_pick(s),
                        "renowned": renowned_json(s),
                        "spent": {p.name: p.spent for p in s.players},
                        "picks": [{"player": pk.player, "easel": pk.easel, "value": pk.value,
                                   "counts_as": pk.counts_as, "source": pk.source}
                                  for pk in s.picks]},
            "owed": owed(s)}


def _scoring_phase(s: State) -> None:
    if s.over:
        raise GameOver("The game is over; its result stands.", rule="GAL-24")
    if s.phase != "final_scoring":
        refuse("Scores are entered in final scoring, after the final round.", "wrong_phase",
               "GAL-16")


def score(s: State, c: Command) -> list[Event]:
    _scoring_phase(s)
    p = s.player(player_named(s, c.get("player")))
    category, money = c.get("category"), c.get("money")
    if category not in CATEGORIES:
        refuse(f"No scoring category {category!r}; the categories are "
               f"{', '.join(CATEGORIES)}.", "unknown_category", "GAL-16")
    figure_cap(money, f"{p.name}'s {CATEGORY_WORDS.get(category, category)} money")
    value, source, _ = figures(s, p)[category]
    if source == "computed" or (category == "auction"):
        if value is None:
            refuse(f"{p.name}'s auction figure comes from the auction pick.", "not_your_pick",
                   "GAL-20")
        if money != value:
            refuse(f"The box computes {p.name}'s {category} as {value}, not {money}.",
                   "contradicts_catalog", "GAL-25")
    elif value is not None:
        refuse(f"{p.name}'s {category} is entered already ({value}); undo to correct it.",
               "already_scored", "GAL-16")
    elif category in ("curator", "dealer") and next_pick(s) == p.name:
        refuse(f"{p.name} picks a renowned work first: it may count for the {category} "
               "card (the auction comes before the cards).", "auction_first", "GAL-16")
    return [{"type": "scored", "player": p.name, "category": category, "money": money,
             "source": source}]


def auction_pick(s: State, c: Command) -> list[Event]:
    _scoring_phase(s)
    name = player_named(s, c.get("player"))
    due = next_pick(s)
    if due != name:
        refuse(f"It is {due}'s pick." if due else "No auction pick is due (the easels are "
               "empty or nobody else spent in the market's lower rows).", "not_your_pick",
               "GAL-20")
    counts_as = c.get("counts_as")
    if isinstance(counts_as, tuple):
        if len(counts_as) != 1:
            refuse("The renowned work counts as an exhibited work or as a sold one, not both.",
                   "counts_as_one", "GAL-20")
        counts_as = counts_as[0]
    if counts_as not in ("exhibited", "sold"):
        refuse(f"The renowned work counts as \"exhibited\" or as \"sold\", not "
               f"{counts_as!r}.", "unknown_counts_as", "GAL-20")
    easel = c.get("easel")
    if easel not in s.catalog.forms:
        refuse(f"No art form {easel!r}; the forms are {', '.join(s.catalog.forms)}.",
               "unknown_art_form", "GAL-20")
    if any(pk.easel == easel for pk in s.picks):
        refuse(f"The {easel} work has been taken.", "easel_taken", "GAL-20")
    fame = renowned_fame(s, easel)
    value = None if fame is None else s.catalog.value_at(fame)
    given = c.get("value")
    if given is not None:
        figure_cap(given, f"The {easel} work's value")
    if value is not None and given is not None and given != value:
        refuse(f"The most famous {easel} artist is at fame {fame}: worth {value}, not "
               f"{given}.", "contradicts_catalog", "GAL-25")
    if value is None and given is None:
        refuse(f"The box cannot price the {easel} work (no sale values, or no {easel} artist "
               "known): send its \"value\".", "value_needed", "GAL-25")
    return [{"type": "auction_pick", "player": name, "easel": easel, "counts_as": counts_as,
             "fame": fame, "value": given if value is None else value,
             "source": "table" if value is None else "computed"}]


TIEBREAKS = (("works_acquired", works_acquired),
             ("visitors", lambda s, p: sum(p.visitors.values())),
             ("assistants", lambda s, p: p.in_play))


def winners(s: State) -> tuple[list[str], str]:
    totals = {p.name: total(s, p) or 0 for p in s.players}
    best = max(totals.values())
    tied = [p for p in s.players if totals[p.name] == best]
    reason = "money"
    for why, key in TIEBREAKS:
        if len(tied) == 1:
            break
        top = max(key(s, p) for p in tied)
        tied, reason = [p for p in tied if key(s, p) == top], why
    if len(tied) > 1:
        reason = "shared"
    return [p.name for p in tied], reason


def final_scoring(s: State, c: Command) -> list[Event]:
    _scoring_phase(s)
    missing = owed(s)
    if missing:
        refuse(f"Final scoring cannot finish: still owed {', '.join(missing)}.",
               "score_incomplete", "GAL-16")
    won, reason = winners(s)
    return [{"type": "game_over", "outcome": "won", "winners": won, "reason": reason,
             "rule": "GAL-24", "totals": {p.name: total(s, p) for p in s.players}}]


def places(state: State, winners: Sequence[str]) -> dict[str, int]:
    """Places at the end: the winners first, then by total and the tiebreakers in their
    order (GAL-24: works acquired, visitors, assistants in play); players equal on all of
    them share a place (1, 2, 2, 4). Before the end: by total (owed counts as 0). The one
    ranking every front end and the export show."""
    def key(p: Player) -> tuple[int, ...]:
        return (p.name not in winners, -(total(state, p) or 0),
                *(-int(f(state, p)) for _, f in TIEBREAKS))

    ranked = sorted(state.players, key=key)
    return {p.name: 1 + sum(key(q) < key(p) for q in ranked) for p in ranked}
