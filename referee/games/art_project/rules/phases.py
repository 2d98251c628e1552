"""The round and its phases (ART-9): moving on, the windows, collecting artwork at the end of
movement (ART-17), the end of the round (ART-24, ART-25) and being surrounded."""

from __future__ import annotations

from referee.games.art_project import commands as c
from referee.games.art_project.rules.common import (
    Steps,
    check_win,
    gain,
    mission,
    place_agents,
    refuse,
    require_free,
    wrong_phase,
)
from referee.games.art_project.rules.effects import apply_effect
from referee.games.art_project.state import ArtState
from referee.ruleset import Event

# Boards where the order of several collections changes the game (ART-17): Scandinavia's city
# effects (ART-31) and Rio's track, whose next space decides what may be collected (ART-33).
ORDER_MATTERS = ("scandinavia", "rio")
CLOSES = {"A/B": "B", "B/C": "C", "D/A": "A"}  # a window, and the phase its next command opens


def enter(s: ArtState, home: str, what: str) -> Steps:
    """Steps starting in `home`: a command of the phase after a window closes the window
    first (ART-9); outside its phase a command is `wrong_phase`. Check `steps.over` after:
    opening movement may find a pawn surrounded."""
    require_free(s)
    steps = Steps(s)
    if s.phase == home:
        return steps
    if CLOSES.get(s.phase) == home:
        advance(steps)
        return steps
    raise wrong_phase(s, home, what)


def end_phase(s: ArtState, cmd: c.EndPhase) -> list[Event]:
    require_free(s)
    steps = Steps(s)
    advance(steps)
    return steps.events


def _phase(steps: Steps, phase: str) -> None:
    steps.add({"type": "phase", "phase": phase})


def advance(steps: Steps) -> None:
    """One step on from the current phase, with everything the step itself does."""
    st = steps.state
    phase = st.phase
    if phase == "A":
        if any(p.setup_agents for p in st.players):
            raise refuse("setup_agents_owed", "ART-33", "First every player places their 2 "
                         "agents in any district.")
        owing = [p for p in st.players if p.draws_owed]
        if owing:
            raise refuse("draws_outstanding", "ART-10", "Draws still owed: " + ", ".join(
                f"{p.name} {p.draws_owed}" for p in owing) + ".")
        unplayed = [p.name for p in st.players if p.hand and p.played < st.plays_due()]
        if unplayed:
            raise refuse("cards_unplayed", "ART-13", f"{' and '.join(unplayed)} still owe"
                         f"{'s' if len(unplayed) == 1 else ''} a mission card.")
        steps.add({"type": "hands_discarded", "cards": sum(p.hand for p in st.players)})
        _phase(steps, "A/B")
    elif phase == "A/B":
        _phase(steps, "B")
        if st.rules.surrounded_check == "at_movement":
            surrounded(steps)
    elif phase == "B":
        crowded = sorted({x for x in st.artwork if st.artwork.count(x) > 1})
        if crowded:
            raise refuse("two_artworks", "ART-33", f"{' and '.join(crowded)} hold"
                         f"{'s' if len(crowded) == 1 else ''} two artworks: a district "
                         "holds one when movement ends.")
        stuck = [n for n, city, leave in pawns(st) if leave and city in st.lost]
        if stuck:
            raise refuse("must_leave", "ART-24", f"{' and '.join(stuck)} must leave a lost "
                         "city before movement ends.")
        finish_movement(steps)
    elif phase == "B/C":
        _phase(steps, "C")
    elif phase == "C":
        _phase(steps, "C/D")
    elif phase == "C/D":
        end_of_round(steps)
    elif phase == "D/A":
        new_round(steps)
    else:  # pragma: no cover - every phase is above
        raise AssertionError(phase)


def pawns(st: ArtState) -> list[tuple[str, str, bool]]:
    """(pawn, city, must_leave) for every pawn: players', and solo's ally (by colour)."""
    out = [(p.name, p.city, p.must_leave) for p in st.players]
    if st.ally is not None:
        out.append((st.ally.color, st.ally.city, st.ally.must_leave))
    return out


def exits(st: ArtState, city: str) -> list[str]:
    """Where a pawn in `city` can go that is not lost (the whole map on Polynesia, and any
    city in trusted mode: the box cannot know the roads)."""
    m = mission(st)
    if m.board == "polynesia" or m.roads is None:
        return [x.name for x in m.cities if x.name != city and x.name not in st.lost]
    out = []
    for r in m.roads:
        if city in (r.a, r.b):
            other = r.b if r.a == city else r.a
            if other not in st.lost:
                out.append(other)
    return out


def surrounded(steps: Steps) -> None:
    st = steps.state
    for _, city, leave in pawns(st):
        if leave and city in st.lost and not exits(st, city):
            steps.lose("surrounded")
            return


def collectable(steps: Steps, city: str) -> bool:
    """An artwork where a pawn stands and no agent does (ART-17); on Rio only in the district
    the first free space shows (ART-33)."""
    st = steps.state
    m = mission(st)
    if steps.over or city not in st.artwork or city in st.lost or st.agents.get(city, 0):
        return False
    if not any(c == city for _, c, _ in pawns(st)) or st.space is None:
        return False
    if m.board == "rio":
        want = m.track[st.space].symbol
        here = m.city(city)
        return want is None or (here is not None and here.symbol == want)
    return True


def collect(steps: Steps, city: str, then: str | None = None) -> None:
    """Collect the artwork in `city` if it may be: to the first free track space, checking
    the win at once (ART-26); Rio adds 2 agents to its Central District, Scandinavia applies
    the city's effect (ART-31, ART-33)."""
    if not collectable(steps, city):
        return
    m = mission(steps.state)
    space = steps.state.space
    assert space is not None
    steps.add({"type": "collected", "city": city, "space": space + 1,
               "threat": m.track[space].threat, "ally_cost": m.track[space].ally_cost})
    check_win(steps)
    if not steps.over and m.board == "rio" and m.start is not None:
        place_agents(steps, m.start, 2, "collection")  # ART-33
    apply_effect(steps, city, then)


def collect_all(steps: Steps, then: str | None) -> bool:
    """Every collectable artwork, one at a time; where the mission makes the order matter
    (Scandinavia's effects, Rio's track, ART-17) and several are waiting, the team chooses
    (collect_order); elsewhere they go in catalog order. False while a
    team decision waits (it carries on with `then` once answered)."""
    while not steps.over:
        if steps.state.pending:
            return False
        ready = [c.name for c in mission(steps.state).cities if collectable(steps, c.name)]
        if not ready:
            return True
        if len(ready) > 1 and mission(steps.state).board in ORDER_MATTERS:
            steps.add({"type": "pending", "decisions": [
                {"decision": "collect_order", "options": ready, "player": None,
                 "then": then}]})
            return False
        collect(steps, ready[0], then)
    return False


def finish_movement(steps: Steps) -> None:
    """The end of phase B once every pawn has left a lost city: collection, Dallas, B/C."""
    if collect_all(steps, "end_of_movement") and not steps.over:
        dallas(steps)
        _phase(steps, "B/C")


def dallas(steps: Steps) -> None:
    """USA: a weapon for pawns in Dallas at the end of movement (ART-30, dallas_weapon)."""
    st = steps.state
    m = mission(st)
    if m.board != "usa" or m.start is None:
        return
    there = [n for n, city, _ in pawns(st) if city == m.start]
    rule = st.rules.dallas_weapon
    if rule == "each_pawn_that_moved":
        there = [n for n in there if n in st.moved]
    n = min(len(there), 1) if rule == "once" else len(there)
    if n:
        gain(steps, {"weapon": n}, {})


def end_of_round(steps: Steps) -> None:
    """D, run by the box: cities lost (ART-24), the final round (ART-25), the next round."""
    m = mission(steps.state)
    for city in m.cities:
        st = steps.state
        if city.name in st.lost or st.agents.get(city.name, 0) < 5:
            continue
        if st.markers <= 0:
            steps.lose("lost_markers")
            return
        steps.add({"type": "city_lost", "city": city.name, "agents": st.agents[city.name],
                   "artwork_removed": (st.rules.artwork_on_lost_city == "removed"
                                       and city.name in st.artwork)})
        if m.board == "rio" and city.symbol in {
                sp.symbol for sp in m.track[steps.state.track:]}:
            steps.lose("rio_district")
            return
    if steps.state.rules.surrounded_check == "at_end_of_round":
        surrounded(steps)
        if steps.over:
            return
    if steps.state.final_round:
        steps.lose("final_card")
        return
    if steps.state.rules.ally_windows == "every_boundary":
        _phase(steps, "D/A")
    else:
        new_round(steps)


def new_round(steps: Steps) -> None:
    steps.add({"type": "round_started", "round": steps.state.round + 1,
               "draws": 3 if steps.state.solo else 2})
