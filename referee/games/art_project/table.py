"""The A.R.T. Project's table and verdicts for a front end that knows no game (the web page):
each agent's health, city and hand, the team's van, agents and artwork track, and a battle term
by term (headless-protocol-games.md, "Battle verdict")."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.art_project.actions import state_json
from referee.games.art_project.state import ArtState, battle_dice
from referee.games.art_project.words import dice_words
from referee.ruleset import Event, Figure, Seat


def table(s: ArtState) -> list[Seat]:
    if s.mission is None:
        return []
    j = state_json(s)
    seats = []
    for p in j["players"]:
        seats.append(Seat(p["name"], p["color"], "must leave" if p["must_leave"] else None, (
            Figure("health", str(p["health"])),
            Figure("city", str(p["city"])),
            Figure("hand", f"{p['hand']} card(s)" + (f", {p['draws_owed']} draw(s) owed"
                                                     if p["draws_owed"] else "")),
            Figure("played", str(p["played"])),
        )))
    art = j["artwork"]
    van = j["van"]
    agents = j["agents"]
    seats.append(Seat("The team", None, None, (
        Figure("van", ", ".join(f"{k} {v}" for k, v in van.items())),
        Figure("artwork track", f"{art['track']} of {art['spaces']}"),
        Figure("threat", str(art["threat"])),
        Figure("agents", f"{sum(agents['cities'].values())} in cities, {agents['hq']} at HQ, "
                         f"{agents['reserve']} in reserve"),
        Figure("round", f"{j['round']}" + (" (final)" if j["final_round"] else "")),
    )))
    return seats


def verdict(events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
    conceded = [e for e in events if e.get("type") == "battle_conceded"]
    if conceded:
        c = conceded[-1]
        return (f"Battle in {c['city']}, led by {c['leader']}: conceded (ART-22)",
                [Figure("verdict", "conceded"),
                 Figure("cost", f"{c['leader']} loses 1 health")])
    found = [e for e in events if e.get("type") == "battle"]
    if not found:
        return None
    e = found[-1]
    dice = dice_words(dict(battle_dice(e)))
    terms = [Figure("dice", f"{dice} = {e['dice_sum']}"),
             Figure(f"weapons ({e['weapons']} x 2)", f"+{e['weapon_bonus']}"),
             Figure("team strength", str(e["strength"])),
             Figure("agents in the city", str(e["city_agents"])),
             Figure("threat", f"+{e['threat']}"),
             Figure("HQ", f"+{e['hq']}"),
             Figure("agents' strength", str(e["agents_strength"])),
             Figure("verdict", "won" if e["won"] else "not yet won")]
    return f"Battle in {e['city']}, led by {e['leader']} (ART-22)", terms
