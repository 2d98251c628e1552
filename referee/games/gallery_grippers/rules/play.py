"""A turn: the movement roll and tiles (GG-4, GG-5, GG-12), art (GG-11, GG-13, GG-14), trades,
passing the turn, and free rolls."""

from __future__ import annotations

from collections import Counter

from referee.dice import DIE_SIDES
from referee.games.gallery_grippers.commands import (
    EndTurn,
    FreeRoll,
    Move,
    MoveRoll,
    Roll,
    Sell,
    Steal,
    Trade,
)
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.rules.common import (
    NeedDice,
    check_roll,
    die_request,
    draws_due_events,
    game_over_event,
    next_active,
    pending_event,
    refuse,
    require_active,
    require_game,
    require_no_pending,
    require_turn,
    resolved_event,
    roll_event,
    turn_start_events,
)
from referee.games.gallery_grippers.rules.queries import (
    ENTERING_TILES,
    INSIDE_TILES,
    OBSTACLE_TILES,
    ONLY_INSIDE,
    Decision,
    sale_price,
)
from referee.games.gallery_grippers.state import GameState, PlayerState

TILE_NAMES = {
    "airport": "an airport", "recruitment": "a recruitment tile", "security": "a security tile",
    "alarm": "an alarm tile", "trading": "a trading post", "art": "an art quadrant",
    "exit": "an exit", "black_market": "the black market", "plain": "a plain tile",
}


def _where(s: GameState, p: PlayerState, c: Move) -> str | None:
    """The museum the move takes place in (None: outside), checking the tile fits (GG-5)."""
    if p.where is not None:
        if c.museum is not None and c.museum != p.where:
            raise refuse("wrong_museum", "GG-12",
                         f"{p.name} is inside {p.where}; leave through an exit first.")
        if c.tile not in INSIDE_TILES:
            raise refuse("inside_museum", "GG-12",
                         f"{p.name} is inside {p.where}: {TILE_NAMES[c.tile]} is outside. "
                         "Leave through an exit first.")
        return p.where
    if c.tile == "exit":
        raise refuse("not_inside", "GG-12",
                     f"{p.name} is outside; an exit only matters on the way out (say 'plain').")
    if c.tile in ONLY_INSIDE and c.museum is None:
        raise refuse("museum_required", "GG-5",
                     f"Which museum is {TILE_NAMES[c.tile]} in? Name the museum.")
    if c.museum is not None:
        if c.museum not in s.museums:
            raise refuse("unknown_museum", "GG-5",
                         f"There is no museum called {c.museum!r} ({', '.join(s.museums)}).")
        if c.tile not in ENTERING_TILES:
            raise refuse("not_a_museum_tile", "GG-5",
                         f"{TILE_NAMES[c.tile].capitalize()} is not inside a museum.")
    return c.museum


def _movement_roll(s: GameState, p: PlayerState) -> None:
    if s.turn.moved or s.turn.rolled is not None:
        raise refuse("already_moved", "GG-4", f"{p.name} has already rolled to move this turn.")


def _rolled_to_move(p: PlayerState, roll: Roll) -> list[Event]:
    """The movement die's events; a player who left the premises resets strikes now (GG-10)."""
    events: list[Event] = [roll_event(p.name, roll, "move")]
    if p.reset_on_roll:
        events.append({"type": "strikes_reset", "player": p.name, "rule": "GG-10"})
    return events


def move_roll(s: GameState, c: MoveRoll) -> list[Event] | NeedDice:
    """The d6 on its own: the table sees it, moves the pawn, then says where it landed."""
    p = require_turn(s, c.player)
    require_no_pending(s)
    _movement_roll(s, p)
    check_roll(s, c.roll, "d6", "GG-4", "movement (d6)")
    if c.roll is None:
        return NeedDice((die_request(p.name, "d6", "move", 6),))
    events = _rolled_to_move(p, c.roll)
    events += [{"type": "move_rolled", "player": p.name, "roll": c.roll.value},
               pending_event(p.name, Decision.TILE, ["move"], roll=c.roll.value)]
    return events


def move(s: GameState, c: Move) -> list[Event] | NeedDice:
    p = require_turn(s, c.player)
    require_no_pending(s, allowed=(Decision.TILE,))
    rolled = s.turn.rolled if not s.turn.moved else None
    if rolled is None:
        _movement_roll(s, p)
    elif c.roll is not None:
        raise refuse("already_rolled", "GG-4",
                     f"{p.name} already rolled {rolled} to move; say where the pawn landed.")
    museum = _where(s, p, c)
    events: list[Event] = []
    if rolled is None:
        check_roll(s, c.roll, "d6", "GG-4", "movement (d6)")
        if c.roll is None:
            return NeedDice((die_request(p.name, "d6", "move", 6),))
        rolled = c.roll.value
        events += _rolled_to_move(p, c.roll)
    else:
        events.append(resolved_event(p.name, Decision.TILE))
    events.append({"type": "moved", "player": p.name, "roll": rolled, "tile": c.tile,
                   "museum": museum})
    if museum is not None and p.where is None:
        events.append({"type": "entered", "player": p.name, "museum": museum})
    if c.tile == "exit":
        events.append({"type": "left", "player": p.name, "museum": museum, "art_kept":
                       [a.name for a in p.art]})
    elif c.tile in OBSTACLE_TILES:
        events.append(pending_event(p.name, Decision.OBSTACLE, ["bypass"], tile=c.tile,
                                    museum=museum))
    elif c.tile == "recruitment":
        events += draws_due_events(s, p.name, 1, "recruitment")
    return events


def steal(s: GameState, c: Steal) -> list[Event]:
    p = require_turn(s, c.player)
    require_no_pending(s)
    if s.turn.tile != "art" or s.turn.museum is None or p.where != s.turn.museum:
        raise refuse("not_at_art", "GG-11", "Art can only be stolen on an art quadrant, "
                     "in the turn the pawn lands there.")
    if s.turn.stolen:
        raise refuse("already_stole", "GG-11", "One piece per art quadrant landing.")
    here = s.museums[s.turn.museum]
    if not here:
        raise refuse("empty_museum", "GG-11", f"{s.turn.museum} has no art left to steal.")
    if c.art not in here:
        raise refuse("art_not_here", "GG-11",
                     f"{c.art!r} is not in {s.turn.museum} (there: {', '.join(here)}).")
    art = s.catalog.art(c.art)
    assert art is not None  # a museum lists only catalog art (checked above: c.art is here)
    return [{"type": "stolen", "player": p.name, "art": {
        "name": art.name, "museum": art.museum, "value": art.value, "deduction": art.deduction}}]


def sell(s: GameState, c: Sell) -> list[Event]:
    p = require_turn(s, c.player)
    require_no_pending(s)
    if s.turn.tile != "black_market":
        raise refuse("not_at_black_market", "GG-13", "Art is sold only at the black market.")
    if not p.art:
        raise refuse("nothing_to_sell", "GG-13", f"{p.name} carries no art.")
    held = {a.name: a for a in p.art}
    names = list(c.art) if c.art is not None else list(held)
    if not names:
        raise refuse("nothing_to_sell", "GG-13", "Name at least one piece to sell.")
    for name, n in Counter(names).items():
        if name not in held or n > 1:
            raise refuse("art_not_held", "GG-13", f"{p.name} does not carry {name!r} "
                         f"(carrying: {', '.join(held)}).")
    sale = sale_price(s, p.name, names)
    events: list[Event] = [{"type": "sold", "player": p.name, "pieces": names,
                            "face_value": sale.face, "fence_bonus": sale.bonus,
                            "price": sale.price, "money": sale.money_after}]
    if sale.wins:
        events.append(game_over_event(p.name, "money", "GG-14"))
    return events


def trade(s: GameState, c: Trade) -> list[Event]:
    giver = require_turn(s, c.giver)
    require_no_pending(s)
    if s.turn.tile != "trading":
        raise refuse("not_at_trading_post", "GG-4", "Cards are traded only at a trading post.")
    taker = require_active(s, c.taker)
    if taker.name == giver.name:
        raise refuse("bad_trade", "GG-4", "A trade needs two different players.")
    if not c.give and not c.get:
        raise refuse("bad_trade", "GG-4", "Name the cards that change hands.")
    for who, names in ((giver, c.give), (taker, c.get)):
        for name, n in Counter(names).items():
            card = s.catalog.card(name)
            if card is None or card.kind != "attribute":
                raise refuse("not_an_attribute", "GG-4",
                             f"Only attribute cards are traded ({name!r} is not one).")
            if who.attributes.count(name) < n:
                raise refuse("card_not_in_hand", "GG-4", f"{who.name} does not hold {name}.")
    return [{"type": "traded", "from": giver.name, "to": taker.name, "give": list(c.give),
             "get": list(c.get)}]


def end_turn(s: GameState, c: EndTurn) -> list[Event]:
    p = require_turn(s, c.player)
    require_no_pending(s)
    if not s.turn.moved:
        raise refuse("must_move", "GG-4", f"{p.name} must roll to move before ending the turn.")
    nxt = next_active(s, s.current or 0)
    assert nxt is not None  # the player ending the turn is active (require_turn): next at least
    return turn_start_events(s, nxt, s.turn_number + 1)


def free_roll(s: GameState, c: FreeRoll) -> list[Event] | NeedDice:
    require_game(s)
    check_roll(s, c.roll, c.die, "GG-7" if c.die == "d100" else "GG-4", c.die)
    who = s.current_player.name if s.current_player else None
    if c.roll is None:
        return NeedDice((die_request(who, c.die, "free", DIE_SIDES[c.die]),))
    return [roll_event(who, c.roll, "free")]
