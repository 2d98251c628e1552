"""The Gallerist's house rules: the fourteen points where the page is open to reading
(the-gallerist-scoring.md, "House-rule settings"). Each names the GAL rule it changes; a bad
value raises ``SettingsError`` naming the field and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from referee.errors import SettingsError
from referee.ruleset import HouseRule, choice_rule
from referee.tomlfile import locate_line, read_text_file, toml_loads

# name: (rule, allowed values)
CHOICES: dict[str, tuple[str, tuple[object, ...]]] = {
    "solo_visitor_removal": ("GAL-2", (4, 0)),
    "start_player": ("GAL-5", ("fixed", "rotating")),
    "kickout_order": ("GAL-8", ("seat_after_mover", "seat_from_start_player")),
    "kickout_location": ("GAL-8", ("kicked_from", "any")),
    "previous_icon": ("GAL-9", ("strictly_below", "at_or_below")),
    "intermediate_tiles": ("GAL-14", ("one_named", "all")),
    "intermediate_per_stack": ("GAL-14", (True, False)),
    "intermediate_timing": ("GAL-14", ("before_kickout", "after_kickout")),
    "majority_needs_one": ("GAL-17", (True, False)),
    "market_majority_rows": ("GAL-17", ("reputation_rows", "all_rows")),
    "auction_tie": ("GAL-20", ("seat_order", "reverse_seat_order")),
    "auction_needs_spend": ("GAL-20", (True, False)),
    "auction_fame_from": ("GAL-20", ("discovered", "all")),
    "renowned_counts_as_acquired": ("GAL-24", (True, False)),
}


# Each setting in the table's words (issue 39): its name, each value's words and what the
# table does under it. The console's new-game form, its help and the page read them here.
HOUSE_RULES: dict[str, HouseRule] = {r.key: r for r in (
    choice_rule("solo_visitor_removal", "GAL-2", "Visitors taken out for a solo game", {
        4: ("4 of each kind", "With one player, 4 visitors of each kind leave the bag before "
            "setup, as in a two-player game."),
        0: ("none", "With one player, every visitor stays in the bag."),
    }),
    choice_rule("start_player", "GAL-5", "Start player from round to round", {
        "fixed": ("stays", "The same player starts every round."),
        "rotating": ("passes left", "The start player token passes to the left after each "
                     "round."),
    }),
    choice_rule("kickout_order", "GAL-8", "Order of several kicked-out actions", {
        "seat_after_mover": ("from the mover's left", "When one move kicks out several "
                             "players, they act in seat order from the player after the "
                             "mover."),
        "seat_from_start_player": ("from the start player", "When one move kicks out several "
                                   "players, they act in seat order from the start player."),
    }),
    choice_rule("kickout_location", "GAL-8", "Kicked-out player's location action", {
        "kicked_from": ("where they were", "A kicked-out player paying influence takes an "
                        "action of the location they were kicked out of."),
        "any": ("any location", "A kicked-out player paying influence takes an action of "
                "any location."),
    }),
    choice_rule("previous_icon", "GAL-9", "Influence paid for a kicked-out action", {
        "strictly_below": ("to the icon below", "The influence marker goes back to the fame "
                           "icon below it, even when it stands on one."),
        "at_or_below": ("stays on an icon", "A marker standing on a fame icon "
                        "stays there; otherwise it goes back to the icon below."),
    }),
    choice_rule("intermediate_tiles", "GAL-14", "Goal tiles per intermediate scoring", {
        "one_named": ("one, named by the table", "The table names one goal tile not "
                      "scored yet, and only that one is scored."),
        "all": ("all three", "All three goal tiles are scored every time."),
    }),
    choice_rule("intermediate_per_stack", "GAL-14", "Two ticket stacks emptied in one turn", {
        True: ("a scoring for each", "Each emptied stack brings its own intermediate "
               "scoring."),
        False: ("one scoring", "The turn brings one intermediate scoring however many "
                "stacks ran out."),
    }),
    choice_rule("intermediate_timing", "GAL-14", "Order of scoring and kicked-out actions", {
        "before_kickout": ("scoring first", "At the end of the turn the intermediate scoring "
                           "comes before the kicked-out actions."),
        "after_kickout": ("kicked-out actions first", "The kicked-out actions are taken "
                          "first, then the intermediate scoring."),
    }),
    choice_rule("majority_needs_one", "GAL-17", "Market majorities without an assistant", {
        True: ("need an assistant", "Only players with at least one assistant in a market "
               "column share its rewards."),
        False: ("count everyone", "Players with no assistant in a column still take its "
                "lower places' rewards."),
    }),
    choice_rule("market_majority_rows", "GAL-17", "Market rows counted for majorities", {
        "reputation_rows": ("upper rows only", "Only assistants on a column's upper "
                            "(reputation tile) rows count for its majority."),
        "all_rows": ("every row", "Every assistant in a column counts, the lower rows "
                     "included."),
    }),
    choice_rule("auction_tie", "GAL-20", "Equal spending in the auction", {
        "seat_order": ("seat order", "Players who spent the same choose in seat order from "
                       "the start player."),
        "reverse_seat_order": ("reverse seat order", "Players who spent the same choose in "
                               "reverse seat order."),
    }),
    choice_rule("auction_needs_spend", "GAL-20", "Auction without spending", {
        True: ("must have spent", "A player who spent nothing in the market's lower rows "
               "does not choose a renowned work."),
        False: ("everyone chooses", "Every player may choose a renowned work, those who spent "
                "nothing last."),
    }),
    choice_rule("auction_fame_from", "GAL-20", "Fame that prices a renowned work", {
        "discovered": ("discovered artists", "A renowned work is worth the sale value of its "
                       "art form's most famous discovered artist."),
        "all": ("all artists", "Face-down artists count too, at their printed fame."),
    }),
    choice_rule("renowned_counts_as_acquired", "GAL-24", "Renowned work in the tie-break", {
        True: ("counts", "A renowned work won in the auction counts as a work acquired when "
               "breaking a tie."),
        False: ("does not count", "Only works bought during play count as acquired when "
                "breaking a tie."),
    }),
)}


@dataclass(frozen=True, slots=True)
class GalleristRules:
    """The settings; the defaults are the spec's reading of the page."""

    solo_visitor_removal: int = 4
    start_player: str = "fixed"
    kickout_order: str = "seat_after_mover"
    kickout_location: str = "kicked_from"
    previous_icon: str = "strictly_below"
    intermediate_tiles: str = "one_named"
    intermediate_per_stack: bool = True
    intermediate_timing: str = "before_kickout"
    majority_needs_one: bool = True
    market_majority_rows: str = "reputation_rows"
    auction_tie: str = "seat_order"
    auction_needs_spend: bool = True
    auction_fame_from: str = "discovered"
    renowned_counts_as_acquired: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            problem = _problem(f.name, getattr(self, f.name))
            if problem:
                raise SettingsError(problem, field=f.name)

    @classmethod
    def from_overrides(cls, overrides: object, *, source: str = "rules") -> GalleristRules:
        problem = _first_problem(overrides)
        if problem is not None:
            key, message = problem
            raise SettingsError(message, field=f"{source}.{key}" if key else source)
        assert isinstance(overrides, Mapping)
        values: dict[str, Any] = dict(overrides)
        return cls(**values)

    def to_json(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def described(self) -> list[tuple[HouseRule, object]]:
        """Each setting in the table's words with its value here, in the spec's order."""
        return [(HOUSE_RULES[f.name], getattr(self, f.name)) for f in fields(self)]


if set(HOUSE_RULES) != set(CHOICES) or any(  # a programming error, caught at import
        set(HOUSE_RULES[k].choices) != set(v) for k, (_, v) in CHOICES.items()):
    raise RuntimeError("HOUSE_RULES must word every setting and every value of CHOICES")


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _problem(name: str, value: object) -> str | None:
    rule, allowed = CHOICES[name]
    if any(type(value) is type(a) and value == a for a in allowed):
        return None
    return f"must be one of {', '.join(_show(a) for a in allowed)} ({rule}), not {_show(value)}"


def _first_problem(overrides: object) -> tuple[str | None, str] | None:
    if not isinstance(overrides, Mapping):
        return None, f"must be a table of house rules, not {overrides!r}"
    for name, value in overrides.items():
        if name not in CHOICES:
            return str(name), f"unknown house rule; the settings are {', '.join(CHOICES)}"
        problem = _problem(name, value)
        if problem:
            return str(name), problem
    return None


def load_settings(path: str | Path) -> GalleristRules:
    """House rules from a TOML file's ``[rules]`` table (other tables are not ours)."""
    source = str(path)
    text = read_text_file(path, "settings", SettingsError)
    rules = toml_loads(text, source, SettingsError).get("rules", {})
    problem = _first_problem(rules)
    if problem is not None:
        key, message = problem
        line = locate_line(text, [("rules", None)], key)
        raise SettingsError(message, path=source, line=line,
                            field=f"rules.{key}" if key else "rules")
    return GalleristRules.from_overrides(rules)
