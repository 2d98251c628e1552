"""What the team must do now (the `next` line), what may be sent (asked of `decide`), the
state as the protocol shows it, and what undo would take back, in words."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from referee.errors import Refusal
from referee.games.art_project.commands import parse_command
from referee.games.art_project.rules import decide
from referee.games.art_project.state import RESOURCES, ArtState
from referee.games.art_project.words import card_no, choice_said
from referee.ruleset import Event

Request = dict[str, Any]
_REASONS = {
    "track_full": "the last artwork is on the track", "health": "a player lost their last "
    "health token", "agents": "no agent token was left to place", "lost_markers": "no "
    "lost-city marker was left", "surrounded": "a pawn could not leave a lost city",
    "final_card": "the final round ended with the track unfilled", "rio_district": "a district "
    "whose artwork was still due was lost",
}


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def next_step(s: ArtState) -> str:
    """One line in words: what the table must do now, naming whom it waits on (ART-9)."""
    if s.phase == "no_game":
        return "Start a game: name the players, then choose the mission and the difficulty."
    if s.over:
        return (f"The game is over: the team {'won' if s.outcome == 'won' else 'lost'} - "
                f"{_REASONS.get(s.reason or '', s.reason)}.")
    if s.pending:
        p = s.pending[0]
        what = {"uncover_order": "which set to uncover first",
                "uncover_island": f"which island gets the {p.symbol} artwork",
                "collect_order": "which artwork to collect first",
                "lose_resources": "what the van loses",
                "lose_clue": "which clue card is lost",
                "effect_health": "who pays the health",
                "clue_set": f"which clue cards make the {p.symbol} set"}.get(
                    p.decision, p.decision.replace("_", " "))
        return f"The team chooses {what}: {' or '.join(choice_said(o) for o in p.options)}."
    b = s.battle
    if b is not None:
        return (f"Battle in {b.city}: {b.strength} against {b.agents_strength}. "
                f"{b.leader}'s team rerolls (a clue card), adds a weapon, or concedes.")
    if s.phase == "A":
        owing = [p for p in s.players if p.draws_owed]
        if owing:
            return ("Draw: " + ", ".join(f"{p.name} owes {p.draws_owed}" for p in owing) + ".")
        due = [p.name for p in s.players if p.hand and p.played < s.plays_due()]
        if due:
            return (f"{_names(due)} still owe{'s' if len(due) == 1 else ''} a mission card "
                    "to play.")
        return "Every card is played: end the phase to close the mission phase."
    if s.phase == "B":
        stuck = [p.name for p in s.players if p.must_leave and p.city in s.lost]
        if s.ally is not None and s.ally.must_leave and s.ally.city in s.lost:
            stuck.append(f"the ally pawn ({s.ally.color})")
        if stuck:
            return f"{_names(stuck)} must leave a lost city before the phase ends."
        return ("Movement: move pawns (a fuel per road, or a health token when the van has "
                "none), then end the phase: artwork is collected where a pawn stands with no "
                "agent.")
    if s.phase == "C":
        cities = [x.name for x in s.mission.cities if x.name not in s.fought  # type: ignore[union-attr]
                  and s.agents.get(x.name, 0) and any(p.city == x.name for p in s.players)]
        if cities:
            return f"Battles may be fought in {_names(cities)}; or end the phase."
        return "No battle to fight: end the phase."
    nxt = {"A/B": "movement", "B/C": "battles", "C/D": "the end of the round",
           "D/A": "the next round"}[s.phase]
    if not _unlockable(s):
        return f"Between phases: end the phase for {nxt}."
    short = s.van.get("radio", 0) < (s.ally_cost or 0)
    return (f"Between phases: unlock an ally die for {s.ally_cost} radio"
            + (" (health tokens pay for the radio the van lacks)" if short else "")
            + f", or end the phase for {nxt}.")


def _unlockable(s: ArtState) -> bool:
    """Whether an ally die may be unlocked now in any way (the rules are asked)."""
    req: Request = {"cmd": "unlock_ally"}
    refusal = _accepted(s, req)
    if refusal is None:
        return True
    return refusal.code == "not_enough_radio" and any(
        _accepted(s, r) is None for r in _health_paid(s, req))


def state_json(s: ArtState) -> dict[str, Any]:
    """The protocol's state (headless-protocol-games.md, "The A.R.T. Project")."""
    if s.mission is None:
        return {"phase": s.phase, "pending": [], "over": False, "commitment": None,
                "seed": None, "hall_of_fame": hall_of_fame(s)}
    m = s.mission
    b = s.battle
    return {
        "phase": s.phase if not s.over else "over",
        "pending": ([{"player": p.player, "decision": p.decision, "options": list(p.options)}
                     for p in s.pending]
                    + ([{"player": b.leader, "decision": "battle",
                         "options": ["reroll", "weapon", "concede"]}] if b else [])),
        "over": s.over, "commitment": s.commitment, "seed": s.seed,
        "mission": m.id, "board": m.board, "difficulty": s.difficulty,
        "map": "checked" if m.roads is not None else "trusted",
        "round": s.round, "final_round": s.final_round,
        "players": [{"name": p.name, "color": p.color, "health": p.health, "city": p.city,
                     "must_leave": p.must_leave, "hand": p.hand, "draws_owed": p.draws_owed,
                     "played": p.played} for p in s.players],
        "ally": None if s.ally is None else {"color": s.ally.color, "city": s.ally.city,
                                              "must_leave": s.ally.must_leave},
        "van": {r: s.van[r] for r in RESOURCES}, "reserve": {r: s.reserve[r] for r in RESOURCES},
        "health_reserve": s.health_reserve,
        "agents": {"cities": dict(s.agents), "hq": s.hq, "reserve": s.agent_reserve},
        "lost": list(s.lost), "markers": s.markers,
        "artwork": {"cities": list(s.artwork), "track": s.track, "spaces": len(m.track),
                    "threat": s.threat, "ally_cost": s.ally_cost},
        "allies": s.allies,
        "chain": [{"id": x.id, "symbols": list(x.symbols), "player": x.player}
                  for x in s.chain],
        "deck": {"above": s.deck.above, "final": s.deck.final, "below": s.deck.below,
                 "discard": s.deck.discard},
        "battle": None if b is None else b.verdict(), "fought": list(s.fought),
        "rules": s.rules.to_json(), "hall_of_fame": hall_of_fame(s),
    }


def hall_of_fame(s: ArtState) -> list[dict[str, Any]]:
    """The record per mission and difficulty (ART-35) of the games this state has seen."""
    return [{"mission": m, "difficulty": d, "won": w, "lost": lo} for m, d, w, lo in s.hall]


def _candidates(s: ArtState) -> Iterator[Request]:
    names = [p.name for p in s.players]
    for pend in s.pending:
        for option in pend.options:
            yield {"cmd": "choose", "choice": option}
    rio = s.mission is not None and s.mission.board == "rio"
    for n in names:
        yield {"cmd": "draw", "player": n}
        for pay in ("fuel", "radio", "weapon", "health"):
            yield {"cmd": "extra_draw", "player": n, "pay": pay}
        yield {"cmd": "play_card", "player": n}
        cities = s.mission.cities if s.mission else ()
        # moves in one fixed order on every surface: each pawn (the player's, then solo's
        # ally pawn), every city in the board's order (issue 39: the list reordered)
        for ally in (False, True) if s.ally is not None else (False,):
            for city in cities:
                for carry in (False, True) if rio else (False,):
                    yield {"cmd": "move", "player": n, "to": city.name,
                           **({"ally": True} if ally else {}),
                           **({"carry": True} if carry else {})}
        for city in cities:
            yield {"cmd": "battle", "city": city.name, "leader": n}
        yield {"cmd": "weapon", "player": n}
    if s.battle is not None:
        yield from _rerolls(s)
        yield {"cmd": "concede"}
    yield {"cmd": "unlock_ally"}
    yield {"cmd": "end_phase"}
    m = s.mission
    if m is not None and m.board == "rio":  # setup agents, all in one district (ART-33)
        for p in s.players:
            for city in m.cities:
                yield {"cmd": "place_agents", "player": p.name,
                       "agents": {city.name: p.setup_agents or 1}}
    if m is not None and m.board == "usa":  # a clue card changes hands (ART-30)
        for x in s.chain:
            for taker in names:
                yield {"cmd": "give_clue", "from": x.player, "to": taker, "card": x.id}


def _rerolls(s: ArtState) -> Iterator[Request]:
    """Every reroll a chain card may pay for (ART-23): one die per clue symbol, any die of
    the battle (the leader's, an ally die, another participant's, solo's ally pawn's), one
    to as many as the card's symbols, each choice once, its dice in the battle's order.
    `decide` judges each (USA: a player's own card rerolls only their own dice, ART-30)."""
    assert s.battle is not None
    ids = [d for d, _ in s.battle.dice]
    for x in s.chain:
        for k in range(1, len(x.symbols) + 1):
            for dice in combinations(ids, k):
                yield {"cmd": "reroll", "card": x.id, "dice": list(dice)}


def _splits(total: int, names: Sequence[str]) -> Iterator[dict[str, int]]:
    """Every way `names` can share `total` health tokens (who pays how many)."""
    if not names:
        return
    if len(names) == 1:
        yield {names[0]: total}
        return
    for n in range(total, -1, -1):
        for rest in _splits(total - n, names[1:]):
            yield {k: v for k, v in {names[0]: n, **rest}.items() if v}


def _health_paid(s: ArtState, req: Request) -> Iterator[Request]:
    """The request with each health payment that could stand in for a token the van lacks
    (the GOLDEN RULE, ART-7): for a move or a weapon the player pays; an ally die is the
    team's spend, shared any way among the players. `decide` judges every one."""
    if req["cmd"] in ("move", "weapon"):
        for n in (1, 2):  # a step costs at most 2 fuel (Scandinavia's red thread)
            yield {**req, "health": n}
    elif req["cmd"] == "unlock_ally" and s.ally_cost:
        names = [p.name for p in s.players if p.health]
        for total in range(1, s.ally_cost + 1):
            for split in _splits(total, names):
                yield {**req, "health": split}


def _accepted(s: ArtState, req: Request) -> Refusal | None:
    try:
        decide(s, parse_command(req))
    except Refusal as refusal:
        return refusal
    return None


def legal_actions(s: ArtState, player: str | None) -> list[Request]:
    """Requests `decide` accepts now, health payments included: where the van lacks the
    fuel, radio or weapon an action costs, each way health may pay for it (ART-7)."""
    out = []
    for req in _candidates(s):
        if player is not None and req.get("player", req.get("leader")) not in (player, None):
            continue
        refusal = _accepted(s, req)
        if refusal is None:
            out.append(req)
        elif refusal.code in ("not_enough_fuel", "not_enough_radio",
                                              "not_enough_weapon"):
            out.extend(r for r in _health_paid(s, req) if _accepted(s, r) is None)
    return out


def undo_words(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    cmd = str(command.get("cmd"))
    who = command.get("player") or command.get("leader")
    what = {"draw": "the draw", "extra_draw": "the paid extra draw",
            "play_card": "the mission card", "move": f"the move to {command.get('to')}",
            "unlock_ally": "the ally die unlocked", "battle": f"the battle in "
            f"{command.get('city')}",
            "reroll": f"the reroll with card {card_no(command.get('card'))}",
            "weapon": "the weapon added", "concede": "the concession",
            "end_phase": "the end of the phase", "give_clue": "the clue card given",
            "choose": f"the choice of {choice_said(command.get('choice'))}",
            "new_game": "the new game",
            "place_agents": "the agents placed at the start", "undo": "the undo",
            }.get(cmd, cmd.replace("_", " "))
    return f"Undo {what}" + (f" ({who})" if who else "") + "."
