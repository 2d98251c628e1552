"""The Gallerist's house rules: the fourteen points where the page is open to reading
(the-gallerist-scoring.md, "House-rule settings"). Each names the GAL rule it changes; a bad
value raises ``SettingsError`` naming the field and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from referee.errors import SettingsError
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
