"""Setup: a new game, the starting hands (GG-1, GG-2) and the turn-order roll (GG-3)."""

from __future__ import annotations

from collections import Counter

from referee.errors import SettingsError
from referee.games.gallery_grippers.commands import Deal, NewGame, Tiebreak, TurnOrder
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.rules.common import (
    NeedDice,
    catalog_card,
    check_roll,
    die_request,
    known_player,
    pending_event,
    pending_of,
    refuse,
    require_game,
    resolved_event,
    roll_event,
    turn_start_events,
)
from referee.games.gallery_grippers.rules.queries import Decision
from referee.games.gallery_grippers.settings import HouseRules
from referee.games.gallery_grippers.state import GameState, Phase
from referee.inputs import name_problem, nfc, same_name

# Okabe-Ito: distinguishable with the common colour-vision deficiencies. Names are always shown
# beside the colour, so colour is never the only cue.
PALETTE = ("orange", "sky blue", "bluish green", "yellow", "blue", "vermillion")
MAX_PLAYERS = 6
MAX_NAME = 24  # characters: what the console's name field holds and the OLED can scroll
MAX_COLOUR = 16  # characters: the palette's longest is 12 ("bluish green")
HAND = {"specialists": 3, "attributes": 3}


def new_game(s: GameState, c: NewGame) -> list[Event]:
    # (A game in progress is left only when the table asks: the session's, for every game.)
    if not 1 <= len(c.players) <= MAX_PLAYERS:
        raise refuse("bad_players", None,
                     f"Gallery Grippers is for 1 to {MAX_PLAYERS} players, not {len(c.players)}.")
    players = _seats(c)
    try:
        rules = HouseRules.from_overrides(c.rules, source="new_game rules")
    except SettingsError as err:
        raise refuse("bad_rules", None, str(err)) from err
    if c.commitment is None:
        raise refuse("no_commitment", None, "A game needs its dice commitment (session error).")
    return [{"type": "game_started", "players": players, "rules": rules.to_json(),
             "commitment": c.commitment, "catalog": s.catalog.source}]


def _seats(c: NewGame) -> list[dict[str, str]]:
    """Each player's name and colour, spelt one way (NFC); refuses names a table could not
    tell apart or read: invisible or control characters, too long, or the same as another's
    once case and Unicode spelling are set aside (``Zoë`` and ``ZOË``)."""
    seen: dict[str, tuple[int, str]] = {}
    colours: dict[str, int] = {}
    seats: list[tuple[str, str | None]] = []
    for seat, p in enumerate(c.players, 1):
        name, colour = nfc(p.name.strip()), nfc((p.color or "").strip()) or None
        problem = name_problem(name, MAX_NAME)
        if problem is not None:
            raise refuse("bad_players", None, f"Player {seat}'s name {problem}.")
        first, spelt = seen.setdefault(same_name(name), (seat, name))
        if first != seat:
            called = repr(name) if spelt == name else f"{spelt!r} and {name!r}"
            raise refuse("bad_players", None,
                         f"Players {first} and {seat} are called {called}: names that look "
                         "alike or differ only in capitals count as the same, and each "
                         "player needs a name of their own.")
        if colour is not None:
            problem = name_problem(colour, MAX_COLOUR)
            if problem is not None:
                raise refuse("bad_players", None, f"Player {seat}'s colour {problem}.")
            first = colours.setdefault(same_name(colour), seat)
            if first != seat:
                raise refuse("bad_players", None, f"Players {first} and {seat} both chose "
                             f"{colour}: each player needs their own colour.")
        seats.append((name, colour))
    free = iter(col for col in PALETTE if same_name(col) not in colours)
    return [{"name": name, "color": colour or next(free)} for name, colour in seats]


def deal(s: GameState, c: Deal) -> list[Event]:
    require_game(s)
    if s.phase is not Phase.SETUP:
        raise refuse("setup_over", "GG-1", "Starting hands are dealt only before play starts.")
    p = known_player(s, c.player)
    if p.dealt:
        raise refuse("already_dealt", "GG-1",
                     f"{p.name} already has a starting hand (undo to change it).")
    for field, kind in (("specialists", "specialist"), ("attributes", "attribute")):
        names: tuple[str, ...] = getattr(c, field)
        if len(names) != HAND[field]:
            raise refuse("bad_hand", "GG-1",
                         f"A starting hand has {HAND[field]} {field}, not {len(names)}.")
        for name, wanted in Counter(names).items():
            catalog_card(s, name, kind, code="wrong_deck", rule="GG-1")
            left = s.piles[kind].get(name, 0)
            if wanted > left:
                raise refuse("not_enough_copies", "GG-1",
                             f"Only {left} {name} card(s) are left in the deck.")
    return [{"type": "hand_dealt", "player": p.name, "specialists": list(c.specialists),
             "attributes": list(c.attributes)}]


def turn_order(s: GameState, c: TurnOrder) -> list[Event] | NeedDice:
    require_game(s)
    if s.phase is not Phase.SETUP:
        raise refuse("turn_order_done", "GG-3", "The turn order is already settled.")
    undealt = [p.name for p in s.players if not p.dealt]
    if undealt:
        raise refuse("hands_not_dealt", "GG-1",
                     f"Deal the starting hands first (missing: {', '.join(undealt)}).")
    tie = pending_of(s, None, Decision.TIEBREAK)
    if tie is not None and s.rules.tiebreak == "rps":
        raise refuse("decision_pending", "GG-3",
                     f"{', '.join(tie.options)} tied: record the rock-paper-scissors winner "
                     "with tiebreak.")
    rolling = list(tie.options) if tie else [p.name for p in s.players]
    extra = sorted(set(c.rolls) - set(rolling))
    if extra:
        raise refuse("not_rolling", "GG-3", f"Only {', '.join(rolling)} roll now, not "
                     f"{', '.join(extra)}.")
    for name in rolling:
        check_roll(s, c.rolls.get(name), "d6", "GG-3", "d6")
    missing = [n for n in rolling if n not in c.rolls]
    if missing:
        return NeedDice(tuple(die_request(n, "d6", "turn_order", 6) for n in missing))
    events: list[Event] = [roll_event(n, c.rolls[n], "turn_order") for n in rolling]
    values = {n: c.rolls[n].value for n in rolling}
    top = max(values.values())
    highest = [n for n in rolling if values[n] == top]
    events.append({"type": "turn_order_rolled", "rolls": values, "highest": highest})
    if tie is not None:
        events.append(resolved_event(None, Decision.TIEBREAK, by="reroll"))
    if len(highest) > 1:
        how = "rock-paper-scissors" if s.rules.tiebreak == "rps" else "a re-roll"
        events.append(pending_event(None, Decision.TIEBREAK, highest, mode=s.rules.tiebreak,
                                    how=how))
        return events
    return events + _start(s, highest[0])


def tiebreak(s: GameState, c: Tiebreak) -> list[Event]:
    require_game(s)
    tie = pending_of(s, None, Decision.TIEBREAK)
    if tie is None:
        raise refuse("no_tiebreak", "GG-3", "There is no tie to settle.")
    if s.rules.tiebreak == "reroll":
        raise refuse("reroll_required", "GG-3", "House rule: ties are re-rolled. "
                     f"Roll the turn-order d6 again for {', '.join(tie.options)}.")
    if c.winner not in tie.options:
        raise refuse("not_tied", "GG-3",
                     f"{c.winner} is not among the tied players ({', '.join(tie.options)}).")
    return [resolved_event(None, Decision.TIEBREAK, winner=c.winner), *_start(s, c.winner)]


def _start(s: GameState, first: str) -> list[Event]:
    return [{"type": "first_player", "player": first},
            *turn_start_events(s, s.player(first), 1)]
