"""Recording what the table did (GAL-9..13, 17, 20): money, influence, tickets, the bag,
visitors, hiring, market placements, artists and works. The box checks what the page makes
checkable and resolves no action."""

from __future__ import annotations

from referee.errors import BadRequest
from referee.games.gallerist.catalog import CELEBRITY_FAME
from referee.games.gallerist.commands import Command
from referee.games.gallerist.rules.common import (
    MARKET_REPUTATION_TILES,
    MAX_INFLUENCE,
    figure_cap,
    in_play,
    money_cap,
    player_named,
    refuse,
    settle,
)
from referee.games.gallerist.state import Player, State
from referee.ruleset import DieRequest, Event, NeedDice

BAG_DIE = "bag"  # the die id of the box's draws from the bag
MAX_DRAW = 256  # the stream's largest draw


def _pay(p: Player, cost: int, what: str) -> None:
    if cost > p.money:
        refuse(f"{p.name} has {p.money} money, not the {cost} {what} costs (influence can "
               "help pay: record it with influence, then the rest).", "not_enough_money",
               "GAL-10")


def money(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    delta = c.get("delta")
    if p.money + delta < 0:
        refuse(f"{p.name} has {p.money} money and cannot pay {-delta}; money never goes "
               "below 0.", "not_enough_money", "GAL-10")
    money_cap(p.name, p.money, p.money + delta)
    return settle(s, [{"type": "money", "player": p.name, "delta": delta,
                       "money": p.money + delta, "reason": c.get("reason") or "entered"}])


def influence(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    to, reason = c.get("to"), c.get("reason")
    if reason not in ("spend", "gain"):
        raise BadRequest(f"'reason' must be \"spend\" or \"gain\", not {reason!r}", rule="GAL-9")
    if to < 0:
        refuse(f"The influence track starts at 0; {p.name}'s marker cannot go to {to}.",
               "negative_influence", "GAL-9")
    if to > MAX_INFLUENCE:
        refuse(f"The influence track goes up to {MAX_INFLUENCE} at most, not {to}.",
               "influence_too_high", "GAL-9")
    if reason == "spend" and to >= p.influence:
        refuse(f"Spending influence moves {p.name}'s marker down from {p.influence}, never to "
               f"{to}.", "influence_not_lower", "GAL-9")
    if reason == "gain" and to <= p.influence:
        refuse(f"A gain moves {p.name}'s marker up from {p.influence}, not to {to}.",
               "influence_not_higher", "GAL-9")
    return settle(s, [{"type": "influence", "player": p.name, "from": p.influence, "to": to,
                       "reason": reason}])


def reputation_tile(s: State, c: Command) -> list[Event]:
    """A reputation tile a player takes in play (to an art space of the board), recorded
    with the table's label for it: final scoring counts every tile on the board (GAL-18);
    what a tile is worth stays the table's to enter."""
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    if s.market_tiles_taken >= MARKET_REPUTATION_TILES:
        refuse(f"The market's {MARKET_REPUTATION_TILES} reputation tiles are all taken already; "
               "there is none left for a player to take.", "no_reputation_tile", "GAL-18")
    return settle(s, [{"type": "reputation_tile", "player": p.name, "tile": c.get("tile")}])


def take_ticket(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    name, colour = player_named(s, c.get("player")), c.get("colour")
    if colour not in s.tickets:
        refuse(f"No {colour!r} tickets; the colours are {', '.join(s.tickets)}.",
               "unknown_colour", "GAL-13")
    if s.tickets[colour] == 0:
        refuse(f"The {colour} stack is empty.", "stack_empty", "GAL-13")
    return settle(s, [{"type": "ticket", "player": name, "colour": colour,
                       "left": s.tickets[colour] - 1}])


def draw_visitor(s: State, c: Command) -> list[Event] | NeedDice:
    in_play(s, c, setup_too=True)
    name = None if c.get("player") is None else player_named(s, c.get("player"))
    colour, bag = c.get("colour"), s.bag
    if s.bag_left == 0:
        refuse("The bag is empty.", "bag_empty", "GAL-13")
    if colour is not None and colour not in s.catalog.colours:
        refuse(f"No {colour!r} visitors; the colours are {', '.join(s.catalog.colours)}.",
               "unknown_colour", "GAL-13")
    events: list[Event] = []
    if isinstance(bag, int) or bag is None:
        left = (s.bag_left or 0) - 1
    else:
        if colour is None and c.roll is None:
            if (s.bag_left or 0) > MAX_DRAW:
                refuse(f"The box draws from at most {MAX_DRAW} visitors; draw by hand and "
                       "send the colour.", "draw_by_hand", "GAL-13")
            # the bag is nobody's: an undone draw's visitor is the next out of it, whoever
            # the next draw is recorded for (no player on the die: referee.kept)
            return NeedDice((DieRequest(BAG_DIE, "pick", "visitor", s.bag_left or 0,
                                        player=None, deck="bag"),))
        if colour is None:
            assert c.roll is not None
            # the colour the box drew (a kept draw brings back its colour, not its index)
            colour = c.data.get("card") or bag_list(s)[c.roll.value]
            events.append({"type": "roll", "player": name, "id": BAG_DIE, "purpose": "visitor",
                           **c.roll.to_json()})
        if bag.get(colour, 0) == 0:
            refuse(f"There is no {colour} visitor left in the bag.", "bag_empty", "GAL-13")
        left = bag[colour] - 1
    events.append({"type": "visitor_drawn", "player": name, "colour": colour, "left": left,
                   "source": "box" if c.roll is not None else "table"})
    return settle(s, events)


def bag_list(s: State) -> list[str]:
    """The bag as the box draws from it: one entry per visitor, colours sorted."""
    bag = s.bag
    if bag is None or isinstance(bag, int):
        return []
    return [colour for colour in sorted(bag) for _ in range(bag[colour])]


def visitor(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    colour, to = c.get("colour"), c.get("to")
    if colour not in s.catalog.colours:
        refuse(f"No {colour!r} visitors; the colours are {', '.join(s.catalog.colours)}.",
               "unknown_colour", "GAL-12")
    if to not in ("gallery", "out"):
        raise BadRequest(f"'to' must be \"gallery\" or \"out\", not {to!r}", rule="GAL-12")
    have = p.visitors.get(colour, 0)
    if to == "gallery" and colour == s.catalog.collector and have >= 1 + len(p.sold):
        refuse(f"{p.name}'s gallery holds {have} collector{'s' if have != 1 else ''}, the limit "
               f"(1 + {len(p.sold)} works sold).", "collector_limit", "GAL-12")
    if to == "out" and have == 0:
        refuse(f"{p.name} has no {colour} visitor in the gallery.", "no_visitor", "GAL-12")
    return settle(s, [{"type": "visitor", "player": p.name, "colour": colour, "to": to}])


def hire(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    if p.queue == 0:
        refuse(f"{p.name}'s unemployment queue is empty.", "queue_empty", "GAL-3")
    if s.catalog.desks is not None and p.desks >= s.catalog.desks:
        refuse(f"All {s.catalog.desks} of {p.name}'s desks are taken.", "no_desk", "GAL-8")
    return settle(s, [{"type": "hired", "player": p.name}])


def market(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    column, row, cost = c.get("column"), c.get("row"), c.get("cost")
    if column not in (1, 2, 3):
        raise BadRequest(f"'column' must be 1, 2 or 3, not {column!r}", rule="GAL-17")
    if row not in ("upper", "lower"):
        raise BadRequest(f"'row' must be \"upper\" or \"lower\", not {row!r}", rule="GAL-17")
    assert s.setup is not None
    if column == 2 and not s.setup.middle_column:
        refuse("The market's middle column is not used with 1 or 2 players.", "column_unused",
               "GAL-17")
    if p.desks == 0:
        refuse(f"{p.name} has no assistant on a desk to send to the market.", "no_assistant",
               "GAL-17")
    if row == "lower" and cost is None:
        refuse("A lower-row placement is paid: send its \"cost\" (it counts for the auction).",
               "value_needed", "GAL-20")
    figure_cap(cost or 0, "A placement's cost")
    _pay(p, cost or 0, "placement")
    return settle(s, [{"type": "market", "player": p.name, "column": column, "row": row,
                       "cost": cost or 0}])


def discover(s: State, c: Command) -> list[Event]:
    in_play(s, c, setup_too=True)
    by = None if c.get("player") is None else player_named(s, c.get("player"))
    name = _artist(s, c.get("artist"))
    if s.artist(name).discovered:
        refuse(f"{name} is face up already.", "already_discovered", "GAL-11")
    printed = s.catalog.artist(name)
    fame, given = (printed.fame if printed else None), c.get("fame")
    if fame is not None and given is not None and given != fame:
        refuse(f"{name}'s tile prints fame {fame}, not {given}.", "contradicts_catalog",
               "GAL-25")
    if fame is None and given is None:
        refuse(f"The catalog does not print {name}'s fame: send the \"fame\" on the tile.",
               "value_needed", "GAL-25")
    value = given if fame is None else fame
    if value >= CELEBRITY_FAME:
        refuse(f"An artist starts below fame {CELEBRITY_FAME}, not at {value}.", "bad_fame",
               "GAL-11")
    return settle(s, [{"type": "discovered", "artist": name, "fame": value, "by": by,
                       "source": "computed" if fame is not None else "table"}])


def _artist(s: State, name: object) -> str:
    if not isinstance(name, str) or name not in s.artists:
        refuse(f"No artist {name!r}; the artists are {', '.join(s.artists)}.",
               "unknown_artist", "GAL-11")
    return name


def commission(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    name = _artist(s, c.get("artist"))
    if name in p.signatures:
        refuse(f"{p.name} already has {name}'s signature on the commission space.",
               "already_commissioned", "GAL-11")
    if sum(q.signatures.count(name) for q in s.players) >= 2:
        refuse(f"Both of {name}'s signature tokens are taken.", "no_signature_left", "GAL-11")
    return settle(s, [{"type": "commissioned", "player": p.name, "artist": name}])


def fame(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    name, by = _artist(s, c.get("artist")), player_named(s, c.get("by"), "by")
    a, steps = s.artist(name), c.get("steps")
    if steps < 1:
        raise BadRequest(f"'steps' must be 1 or more, not {steps}", rule="GAL-11")
    if not a.discovered or a.fame is None:
        refuse(f"{name} is face down: discover the artist first.", "not_discovered", "GAL-11")
    if a.celebrity:
        refuse(f"{name} is a celebrity and retired; fame stays at {CELEBRITY_FAME}.",
               "celebrity_retired", "GAL-11")
    new = min(CELEBRITY_FAME, a.fame + steps)
    events: list[Event] = [{"type": "fame", "artist": name, "by": by, "from": a.fame,
                            "fame": new, "steps": steps}]
    if new == CELEBRITY_FAME:
        p = s.player(by)
        money_cap(by, p.money, p.money + 5)  # (the 5 money a celebrity brings, like a sale)
        events += [{"type": "celebrity", "artist": name, "by": by},
                   {"type": "money", "player": by, "delta": 5, "money": p.money + 5,
                    "reason": f"{name} became a celebrity"}]
    return settle(s, events)


def acquire(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    name = _artist(s, c.get("artist"))
    a = s.artist(name)
    if not a.discovered:
        refuse(f"{name} is face down: discover the artist first.", "not_discovered", "GAL-11")
    signature = a.celebrity and name in p.signatures
    if a.celebrity and not signature:
        refuse(f"{name} is a celebrity and retired: only a player with {name}'s signature on "
               "the commission space may buy a work.", "celebrity_retired", "GAL-11")
    works = len(p.exhibited)
    slots = 4 if works >= 4 or any(w.masterpiece for w in p.exhibited) else 3
    if works >= slots:
        refuse(f"{p.name}'s gallery exhibits {works} works, all its slots"
               + ("" if slots == 4 else " (a masterpiece opens the 4th)") + ".",
               "gallery_full", "GAL-12")
    cost = c.get("cost") or 0
    figure_cap(cost, "A work's cost")
    _pay(p, cost, "work")
    return settle(s, [{"type": "acquired", "player": p.name, "artist": name, "cost": cost,
                       "signature": signature}])


def sell(s: State, c: Command) -> list[Event]:
    in_play(s, c)
    p = s.player(player_named(s, c.get("player")))
    name = _artist(s, c.get("artist"))
    if all(w.artist != name for w in p.exhibited):
        refuse(f"{p.name} exhibits no work by {name}.", "not_exhibited", "GAL-12")
    a = s.artist(name)
    value = None if a.fame is None else s.catalog.value_at(a.fame)
    given = c.get("money")
    if value is not None and given is not None and given != value:
        refuse(f"At fame {a.fame} a work by {name} sells for {value}, not {given}.",
               "contradicts_catalog", "GAL-25")
    if value is None and given is None:
        refuse(f"The catalog has no sale value for {name}'s fame: send the \"money\" it "
               "brought.", "value_needed", "GAL-25")
    amount = given if value is None else value
    money_cap(p.name, p.money, p.money + amount)
    return settle(s, [{"type": "sold", "player": p.name, "artist": name, "money": amount,
                       "source": "computed" if value is not None else "table"}])
