"""Phase B and the windows: moving pawns (ART-16, ART-29, ART-31..34), unlocking ally dice
(ART-18) and, on USA, exchanging clue cards (ART-30)."""

from __future__ import annotations

from referee.games.art_project import commands as c
from referee.games.art_project.catalog import Road
from referee.games.art_project.rules.common import (
    Steps,
    health_named,
    known_city,
    known_player,
    mission,
    pay_optional,
    refuse,
    require_free,
    wrong_phase,
)
from referee.games.art_project.rules.mission import settle_clues
from referee.games.art_project.rules.phases import enter
from referee.games.art_project.settings import house_rule
from referee.games.art_project.state import ALLY_DICE, WINDOWS, ArtState
from referee.games.art_project.words import card_no
from referee.ruleset import Event

_OPPOSITE = {"north": "south", "south": "north", "level": "level"}


def _road(st: ArtState, a: str, b: str) -> Road | None:
    roads = mission(st).roads or ()
    return next((r for r in roads if {r.a, r.b} == {a, b}), None)


def step_cost(st: ArtState, a: str, b: str) -> int:
    """Fuel for one step from `a` to `b` on this mission's board."""
    m = mission(st)
    road = _road(st, a, b)
    if road is None:
        return 1  # Polynesia's any-island move, or a trusted map's step
    if m.board == "egypt" and road.dir is not None:
        way = road.dir if road.a == a else _OPPOSITE[road.dir]
        return {"north": 0, "south": 1, "level": st.rules.egypt_level_road_fuel}[way]
    if m.board == "scandinavia" and road.thread is not None:
        return 2 if road.thread == "red" else 1
    if m.board == "rio" and road.free:
        return 0
    return 1


def move(s: ArtState, cmd: c.Move) -> list[Event]:
    steps = enter(s, "B", "Moving a pawn")
    if steps.over:
        return steps.events
    st = steps.state
    p = known_player(st, cmd.player)
    if cmd.ally and st.ally is None:
        raise refuse("no_ally_pawn", "ART-34", "Only solo has an ally pawn to move.")
    if cmd.carry and mission(st).board != "rio":
        raise refuse("not_rio", "ART-33", "Artwork travels with a pawn only on Rio.")
    pawn = st.ally.color if cmd.ally and st.ally else p.name
    here = st.ally.city if cmd.ally and st.ally else p.city
    to = known_city(st, cmd.to, "ART-16")
    if cmd.carry and here not in st.artwork:
        raise refuse("no_artwork", "ART-33", f"There is no artwork in {here} to carry.")
    if to == here:
        raise refuse("same_city", "ART-16", f"{pawn} is already in {to}.")
    if to in st.lost:
        raise refuse("city_lost", "ART-16", f"{to} is lost: no pawn may enter or pass "
                     "through it.")
    m = mission(st)
    if m.roads is not None and m.board != "polynesia" and _road(st, here, to) is None:
        raise refuse("no_road", "ART-16", f"No road joins {here} and {to}; move one road "
                     "at a time.")
    cost = step_cost(st, here, to)
    shortfall = max(0, cost - st.van.get("fuel", 0))
    health_named(st, {p.name: cmd.health} if cmd.health else {}, shortfall, "fuel", "ART-16")
    pay_optional(steps, p.name, "fuel", cost, {p.name: cmd.health})
    if steps.over:
        return steps.events
    steps.add({"type": "moved", "pawn": pawn, "player": p.name, "from": here, "to": to,
               "fuel": cost - shortfall, "map": "checked" if m.roads is not None
               else "trusted", **({"carry": True} if cmd.carry else {})})
    return steps.events


def unlock_ally(s: ArtState, cmd: c.UnlockAlly) -> list[Event]:
    require_free(s)
    windows = WINDOWS if s.rules.ally_windows == "every_boundary" else WINDOWS[:3]
    if s.phase not in windows:
        raise refuse("wrong_phase", "ART-18", "Ally dice are unlocked between phases ("
                     + ", ".join(windows) + f"), not in phase {s.phase}.")
    if s.allies >= ALLY_DICE:
        raise refuse("no_ally_dice", "ART-18", f"All {ALLY_DICE} ally dice are unlocked.")
    if s.rules.unlocks_per_window == "one" and s.unlocked_here:
        raise refuse("one_unlock_per_window", "ART-18", "One ally die between two phases "
                     f"({house_rule('unlocks_per_window', 'one')}).")
    cost = s.ally_cost
    assert cost is not None  # a full track has won the game
    for name in cmd.health:
        known_player(s, name)
    shortfall = max(0, cost - s.van.get("radio", 0))
    health_named(s, {k: v for k, v in cmd.health.items() if v}, shortfall, "radio", "ART-18")
    steps = Steps(s)
    pay_optional(steps, None, "radio", cost, cmd.health)  # the team's spend (ART-7)
    if not steps.over:
        steps.add({"type": "ally_unlocked", "allies": s.allies + 1, "cost": cost})
    return steps.events


def give_clue(s: ArtState, cmd: c.GiveClue) -> list[Event]:
    require_free(s)
    if mission(s).board != "usa":
        raise refuse("not_usa", "ART-30", "Clue cards are exchanged only on the USA board.")
    if s.phase != "C/D":
        raise wrong_phase(s, "C/D", "Exchanging clue cards")
    giver, taker = known_player(s, cmd.giver), known_player(s, cmd.taker)
    if giver.name == taker.name:
        raise refuse("same_player", "ART-30", "A clue card changes hands between two players.")
    card = next((x for x in s.chain if x.id == cmd.card), None)
    if card is None or card.player != giver.name:
        raise refuse("not_in_chain", "ART-30", f"Card {card_no(cmd.card)} is not in {giver.name}'s "
                     "chain.")
    if giver.city != taker.city or s.agents.get(giver.city, 0):
        raise refuse("not_together", "ART-30", "Clue cards change hands only between players "
                     "in the same city with no agent there.")
    steps = Steps(s)
    steps.add({"type": "clue_given", "card": card.id, "from": giver.name, "to": taker.name})
    settle_clues(steps, taker.name)
    return steps.events
