"""Obstacles and their consequences: the bypass total (GG-6..GG-9), strikes and the
caught-with-art branches (GG-10), elimination and the end of the game (GG-15, GG-16)."""

from __future__ import annotations

from referee.games.gallery_grippers.commands import Bypass, Choose
from referee.games.gallery_grippers.evolve import Event, fold
from referee.games.gallery_grippers.rules.common import (
    NeedDice,
    catalog_card,
    check_roll,
    die_request,
    game_over_event,
    next_active,
    pending_event,
    pending_of,
    refuse,
    require_turn,
    resolved_event,
    roll_event,
    turn_start_events,
)
from referee.games.gallery_grippers.rules.queries import CHOICE_DECISIONS, Decision, bypass_terms
from referee.games.gallery_grippers.state import ACTIVE, GameState, PlayerState


def _card(s: GameState, p: PlayerState, names: tuple[str, ...], kind: str) -> str:
    """The one card of `kind` played (GG-6), checked; "" for none."""
    if len(names) > 1:
        raise refuse(f"two_{kind}s", "GG-6", f"At most one {kind} card per obstacle.")
    if not names:
        return ""
    card = catalog_card(s, names[0], kind, code=f"not_a_{kind}", rule="GG-6")
    hand = p.specialists if kind == "specialist" else p.attributes
    if card.name not in hand:
        raise refuse("card_not_in_hand", "GG-6", f"{p.name} does not hold {card.name}.")
    return card.name


def bypass(s: GameState, c: Bypass) -> list[Event] | NeedDice:
    p = require_turn(s, c.player)
    obstacle = pending_of(s, p.name, Decision.OBSTACLE)
    if obstacle is None:
        raise refuse("no_obstacle", "GG-6",
                     f"{p.name} is not facing an obstacle (land on security or alarm first).")
    specialist = _card(s, p, c.specialist, "specialist")
    attribute = _card(s, p, c.attribute, "attribute")
    check_roll(s, c.roll, "d100", "GG-7", "percentile")
    if c.roll is None:
        return NeedDice((die_request(p.name, "d100", "bypass", 100),))
    terms = bypass_terms(s, p.name, specialist or None, attribute or None)
    deduction, target = terms.deduction, terms.target
    total = terms.total(c.roll.value)
    success = terms.succeeds(c.roll.value)
    events: list[Event] = [
        roll_event(p.name, c.roll, "bypass"),
        resolved_event(p.name, Decision.OBSTACLE),
        {"type": "bypass", "player": p.name, "tile": obstacle.info.get("tile"),
         "roll": c.roll.value, "roll_source": c.roll.source, "roll_via": c.roll.via,
         "roll_kept": c.roll.kept, "specialist": specialist or None,
         "specialist_bonus": terms.specialist_bonus, "attribute": attribute or None,
         "attribute_bonus": terms.attribute_bonus,
         "art_deduction": deduction, "art": [a.name for a in p.art], "total": total,
         "target": target, "success": success, "rule": "GG-8"},
    ]
    if not success:
        after = fold(s, events)  # the played cards are gone (GG-9), the obstacle answered
        events += failure_events(after, after.player(p.name))
    return events


def failure_events(s: GameState, p: PlayerState) -> list[Event]:
    """What a failed bypass sets off (GG-10)."""
    if p.strikes >= 2:
        return elimination_events(s, p)
    if p.art and p.strikes == 0:
        return [{"type": "caught", "player": p.name, "strikes_before": 0,
                 "art": [a.name for a in p.art]},
                pending_event(p.name, Decision.CAUGHT, ["ditch", "keep"], museum=p.where)]
    if p.art:  # one strike before: the art is lost and it is the 2nd strike
        return [_art_returned(p), {"type": "strike", "player": p.name, "strikes": 2},
                *_second_strike(p)]
    strikes = p.strikes + 1
    events: list[Event] = [{"type": "strike", "player": p.name, "strikes": strikes}]
    if strikes == 2:
        events += _second_strike(p)
    return events


def _art_returned(p: PlayerState) -> Event:
    return {"type": "art_returned", "player": p.name,
            "pieces": [{"name": a.name, "museum": a.museum} for a in p.art]}


def _second_strike(p: PlayerState) -> list[Event]:
    return [pending_event(p.name, Decision.SECOND_STRIKE, ["leave", "reenter"], museum=p.where)]


def elimination_events(s: GameState, p: PlayerState) -> list[Event]:
    """The 3rd strike: out (GG-15); the game may end (GG-16) or the turn passes."""
    events: list[Event] = [{"type": "strike", "player": p.name, "strikes": 3}]
    if p.art:
        events.append(_art_returned(p))
    if p.hand_size:
        events.append({"type": "hand_discarded", "player": p.name,
                       "specialists": list(p.specialists), "attributes": list(p.attributes)})
    events.append({"type": "out", "player": p.name, "rule": "GG-15"})
    others = [q for q in s.players if q.status == ACTIVE and q.name != p.name]
    if len(s.players) == 1:
        events.append(game_over_event(None, "third_strike", "GG-16"))
    elif len(others) == 1:
        events.append(game_over_event(others[0].name, "last_player_standing", "GG-16"))
    elif s.current is not None and s.players[s.current].name == p.name:
        after = fold(s, events)
        nxt = next_active(after, s.current)
        if nxt is not None:
            events += turn_start_events(after, nxt, s.turn_number + 1)
    return events


def choose(s: GameState, c: Choose) -> list[Event]:
    p = require_turn(s, c.player)
    open_ = [d for d in CHOICE_DECISIONS if pending_of(s, p.name, d)]
    if not open_:
        raise refuse("no_choice_pending", "GG-10", f"{p.name} has no choice to make.")
    decision = open_[0]
    pend = next(q for q in s.pending if q.player == p.name and q.decision == decision)
    if c.choice not in pend.options:
        raise refuse("bad_choice", "GG-10",
                     f"Choose {' or '.join(pend.options)} (not {c.choice}).")
    events: list[Event] = [resolved_event(p.name, decision, choice=c.choice)]
    museum = pend.info.get("museum")
    if c.choice == "ditch":
        events += [_art_returned(p), {"type": "strike", "player": p.name, "strikes": 1}]
    elif c.choice == "keep":
        events.append({"type": "strike", "player": p.name, "strikes": 2})
        if s.rules.caught_keep_forces_exit:
            events += _second_strike(p)
    elif c.choice == "leave":
        events.append({"type": "left_premises", "player": p.name, "museum": museum,
                       "art_kept": [a.name for a in p.art]})
    else:
        events.append({"type": "reentered", "player": p.name, "museum": museum})
    return events
