"""Setup (GAL-1..4): the players, the checklist by player count, the start player (named,
or drawn fairly by the box from the committed stream), starting places in reverse turn order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import RuleViolation, SettingsError
from referee.games.gallerist.catalog import Catalog, catalog_from_json
from referee.games.gallerist.commands import Command, seats
from referee.games.gallerist.rules.common import (
    command_words,
    in_game,
    player_named,
    refuse,
    settle,
)
from referee.games.gallerist.settings import GalleristRules
from referee.games.gallerist.state import State
from referee.inputs import name_problem, same_name
from referee.ruleset import DieRequest, Event, NeedDice

MAX_PLAYERS = 4
START_DIE = "start_player"  # the start-player draw's die id

# GAL-2, by player count 1..4
TICKETS = (10, 10, 15, 20)
EASELS = (1, 1, 2, 3)
REMOVED = (None, 4, 2, 0)  # 1P: the house rule solo_visitor_removal


def setup_for(count: int, rules: GalleristRules) -> dict[str, Any]:
    removed = REMOVED[count - 1]
    return {"visitors_removed_per_type": rules.solo_visitor_removal if removed is None
            else removed, "tickets_per_colour": TICKETS[count - 1],
            "easels": EASELS[count - 1], "middle_column": count >= 3}


def checklist(setup: Mapping[str, Any], catalog: Catalog) -> list[dict[str, str]]:
    """The table's setup steps for this player count, in the box's own words (GAL-2, GAL-3)."""
    k, t, e = (setup["visitors_removed_per_type"], setup["tickets_per_colour"],
               setup["easels"])
    bag = (f"Fill the bag with the visitors, taking out {k} of each kind first." if k
           else "Fill the bag with every visitor (no kind is taken out at this count).")
    middle = ("all three columns are in use" if setup["middle_column"]
              else "the middle column stays empty at this count")
    return [
        {"item": "bag", "words": bag},
        {"item": "tickets", "words": f"Stock the box office: {t} tickets of each colour "
                                     f"({', '.join(catalog.ticket_colours)})."},
        {"item": "contracts", "words": "Shuffle the contracts onto the leftmost space and "
                                       "turn 4 face up beside it."},
        {"item": "artists", "words": "Lay out the 8 artists at random, one per art form and "
                                     "colour; only the first blue one goes face up (record its "
                                     "fame as the artist discovered). Bonus tiles on each; a "
                                     "collector on each red artist; both signature tokens "
                                     "beside each."},
        {"item": "works", "words": "Shuffle each art form's works and put one of each aside; "
                                   "draw visitors onto the works, one per ticket shown "
                                   "(record each as a visitor drawn from the bag)."},
        {"item": "market", "words": f"12 reputation tiles face up on the market's upper four "
                                    f"rows; {middle}. Stack the promotion tiles."},
        {"item": "easels", "words": f"Set up {e} easel{'s' if e > 1 else ''}, each with one of "
                                    "the works put aside."},
        {"item": "visitors", "words": "Draw 4 visitors into the plaza and 1 into each lobby "
                                      "(record each as a visitor drawn from the bag)."},
        {"item": "locations", "words": "4 reputation tiles on each starting location; 3 goal "
                                       "tiles in the intermediate scoring area."},
        {"item": "players", "words": "Each player: a board, 8 assistants in the queue and 2 on "
                                     "desks, 10 money, an art dealer and a curator card."},
    ]


def _players(c: Command, catalog: Catalog) -> list[tuple[str, str]]:
    """Each seat's name and colour (GAL-1): a seat names its colour or takes the first of the
    catalog's player colours that no seat has chosen."""
    given = seats(c.get("players"))
    if not 1 <= len(given) <= MAX_PLAYERS:
        refuse(f"The Gallerist is for 1 to {MAX_PLAYERS} players, not {len(given)}.",
               "bad_players", "GAL-1")
    seen: set[str] = set()
    for i, (name, _) in enumerate(given):
        problem = name_problem(name, 24)
        if problem:
            refuse(f"Player {i + 1}'s name {problem}.", "bad_players", "GAL-1")
        if same_name(name) in seen:
            refuse(f"Two players are called {name!r}; give each a different name.",
                   "bad_players", "GAL-1")
        seen.add(same_name(name))
    spelled = {same_name(col): col for col in catalog.player_colours}
    chosen: list[str | None] = []
    for name, color in given:
        if color is not None and same_name(color) not in spelled:
            refuse(f"{color!r} is not a player colour; {name} can take "
                   f"{', '.join(catalog.player_colours)}.", "unknown_colour", "GAL-1")
        chosen.append(None if color is None else spelled[same_name(color)])
    taken = [col for col in chosen if col is not None]
    for col in taken:
        if taken.count(col) > 1:
            who = [n for (n, _), got in zip(given, chosen, strict=True) if got == col]
            refuse(f"{' and '.join(who)} both chose {col}; each player takes a different "
                   "colour.", "bad_players", "GAL-1")
    free = [col for col in catalog.player_colours if col not in taken]
    return [(name, col if col is not None else free.pop(0))
            for (name, _), col in zip(given, chosen, strict=True)]


def _bag(c: Command, catalog: Catalog, removed: int) -> int | dict[str, int]:
    given = c.get("bag")
    if given is not None:
        if isinstance(given, Mapping):
            for colour in given:
                if colour not in catalog.colours:
                    refuse(f"The bag has no {colour!r} visitors; the colours are "
                           f"{', '.join(catalog.colours)}.", "unknown_colour", "GAL-13")
            return dict(given)
        return int(given)
    if catalog.bag is None:
        refuse("The catalog does not say how many visitors are in the bag: give new_game a "
               "\"bag\" (the visitors in it once those of each kind are taken out, before the "
               "setup draws: a number, or one per colour).", "catalog_incomplete", "GAL-13")
    if isinstance(catalog.bag, int):
        left = catalog.bag - removed * len(catalog.colours)
        if left < 0:
            refuse(f"The catalog's bag of {catalog.bag} is too small to take out {removed} "
                   "of each kind.", "catalog_incomplete", "GAL-2")
        return left
    bag = {c_: n - removed for c_, n in catalog.bag.items()}
    if any(n < 0 for n in bag.values()):
        refuse(f"The catalog's bag has fewer than {removed} visitors of some colour.",
               "catalog_incomplete", "GAL-2")
    return bag


def new_game(s: State, c: Command) -> list[Event] | NeedDice:
    # (A game in progress is left only when the table asks: the session's, for every game.)
    catalog = catalog_from_json(c.data["catalog"]) if "catalog" in c.data else s.catalog
    players = _players(c, catalog)
    names = [n for n, _ in players]
    try:
        rules = GalleristRules.from_overrides(c.data.get("rules", c.get("rules") or {}))
    except SettingsError as err:
        raise RuleViolation(f"House rules: {err}", code="bad_rules") from err
    start = c.get("start_player")
    if start is not None and start not in names:
        refuse(f"The start player {start!r} is not at the table ({', '.join(names)}).",
               "unknown_player", "GAL-1")
    setup = setup_for(len(names), rules)
    bag = _bag(c, catalog, setup["visitors_removed_per_type"])
    events: list[Event] = []
    how = "named"
    if start is None and len(names) == 1:
        start = names[0]
    elif start is None:
        # A fair draw (GAL-1): seat number 1..n from the committed stream, as a die with
        # one face per seat, so that `verify` re-derives it from the seed.
        if c.roll is None:
            return NeedDice((DieRequest(START_DIE, seat_die(len(names)), "start_player",
                                        len(names)),))
        start, how = names[c.roll.value - 1], "drawn"
        events.append({"type": "roll", "player": None, "id": START_DIE,
                       "purpose": "start_player", **c.roll.to_json()})
    return [{"type": "game_started", "game": "gallerist",
             "players": [{"name": n, "color": col} for n, col in players],
             "start_player": start,
             "start_drawn": how == "drawn",
             "commitment": c.data.get("commitment"), "rules": rules.to_json(),
             "catalog": catalog.to_json(), "setup": setup, "bag": bag,
             "checklist": checklist(setup, catalog)}, *events]


def seat_die(players: int) -> str:
    """The die a start-player draw rolls: one face per seat (``d3`` at three players)."""
    return f"d{players}"


def _in_setup(s: State, c: Command) -> None:
    in_game(s, c)
    if s.phase != "setup":
        what = command_words(c.name)
        refuse(f"{what[0].upper()}{what[1:]} is part of setup, which is over.", "wrong_phase",
               "GAL-4")


def check(s: State, c: Command) -> list[Event]:
    _in_setup(s, c)
    item = c.get("item")
    done = {i: d for i, _, d in s.checklist}
    if item not in done:
        refuse(f"No setup step {item!r}; the steps are {', '.join(done)}.", "unknown_item",
               "GAL-2")
    if done[item]:
        refuse(f"The setup step {item!r} is already ticked off.", "already_checked", "GAL-2")
    return [{"type": "checked", "item": item}]


def placement_order(s: State) -> tuple[str, ...]:
    """Reverse turn order: the last seat first, the start player last (GAL-4)."""
    return tuple(reversed(s.seats_from(s.start_player or s.names[0], after=False)))


def place_start(s: State, c: Command) -> list[Event]:
    _in_setup(s, c)
    name = player_named(s, c.get("player"))
    due = next(n for n in placement_order(s) if s.player(n).gallerist is None)
    if name != due:
        refuse(f"Starting places go in reverse turn order: {due} places now, not {name}.",
               "not_your_placement", "GAL-4")
    where = c.get("location")
    if where not in s.catalog.locations:
        refuse(f"No location {where!r}; the starting ones are "
               f"{', '.join(s.catalog.start_locations)}.", "unknown_location", "GAL-4")
    if where not in s.catalog.start_locations:
        refuse(f"{where} is not a starting location ({', '.join(s.catalog.start_locations)}).",
               "not_a_start_location", "GAL-4")
    taken = [p.name for p in s.players if p.gallerist == where]
    if taken:
        refuse(f"{taken[0]}'s gallerist already stands on {where}; choose an empty one.",
               "space_taken", "GAL-4")
    # the tile is always taken (GAL-4), its label when the table gives one; `tile_taken`:
    # one without a label is on the board too (an event stored before it: not counted)
    events: list[Event] = [{"type": "placed_start", "player": name, "location": where,
                            "tile": c.get("tile"), "tile_taken": True}]
    if name == placement_order(s)[-1]:
        start = s.start_player
        events.append({"type": "turn_started", "player": start, "round": 1,
                       "start_player": start, "final_round": False})
    return settle(s, events)
