"""House rules: the points where tables read the rule sheet differently (``docs/house-rules.md``).

Every setting names the GG rule it changes. Values are checked wherever they come from — the
constructor, ``from_overrides`` (the ``rules`` of a ``new_game`` command) or a settings file's
``[rules]`` table — and a bad one raises ``SettingsError`` naming the field and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from referee.dice import die_range
from referee.errors import SettingsError
from referee.ruleset import HouseRule
from referee.tomlfile import locate_line, read_text_file, toml_loads

MAX_MONEY = 10**15  # dollars: a bound on money settings, far beyond any game


@dataclass(frozen=True, slots=True)
class _Setting:
    """One house-rule setting: its rule id, its type and allowed values, and what it does."""

    rule: str
    kind: type  # str (one of choices), bool or int (low..high)
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int | None = None
    explain: Callable[[Any], str] = str


def _dollars(amount: int) -> str:
    return f"${amount:,}"


def _card_count(limit: int) -> str:
    return "no cards left" if limit == 0 else f"{limit} card{'s' if limit > 1 else ''} or fewer"


_SETTINGS: dict[str, _Setting] = {
    "tiebreak": _Setting(
        "GG-3", str, choices=("rps", "reroll"),
        explain=lambda v: "GG-3: players tied for the highest first-turn d6 "
        + ("play rock-paper-scissors, and the box records the winner."
           if v == "rps" else "roll their d6 again, the others sitting out."),
    ),
    "percentile": _Setting(
        "GG-7", str, choices=("1-100", "0-99"),
        explain=lambda v: "GG-7: the two d10s of a bypass roll read "
        + ("1 to 100; a double zero counts as 100." if v == "1-100"
           else "0 to 99; a double zero counts as 0."),
    ),
    "bypass_target": _Setting(
        "GG-8", int, low=1, high=1000,
        explain=lambda v: f"GG-8: an obstacle is beaten when roll + card bonuses - art "
        f"deductions comes to {v} or more.",
    ),
    "caught_keep_forces_exit": _Setting(
        "GG-10", bool,
        explain=lambda v: "GG-10: caught with art and no strikes, a player who keeps the art "
        "goes to 2 strikes and "
        + ("must first go back to the nearest exit." if v
           else "carries on from where they stand."),
    ),
    "fence_bonus_per_extra_piece": _Setting(
        "GG-13", int, low=0, high=MAX_MONEY,
        explain=lambda v: (
            f"GG-13: a sale pays {_dollars(v)} on top of face value for each piece "
            "beyond the first sold together." if v
            else "GG-13: art sells at face value only; selling pieces together earns nothing extra."
        ),
    ),
    "win_money": _Setting(
        "GG-14", int, low=1, high=MAX_MONEY,
        explain=lambda v: f"GG-14: the first player whose money reaches {_dollars(v)} wins "
        "on the spot.",
    ),
    "reup_at_or_below": _Setting(
        "GG-18", int, low=0, high=6,
        explain=lambda v: f"GG-18: a player with {_card_count(v)} in hand must, on their turn, "
        "roll a d6 and draw that many cards.",
    ),
}


def _explained(name: str) -> Callable[[Any], str]:
    """A setting's explanation without its rule id in front (`HouseRule.line` adds it)."""
    def explain(value: Any) -> str:
        said = _SETTINGS[name].explain(value).split(": ", 1)[-1]
        return said[:1].upper() + said[1:]
    return explain


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


# Each setting in the table's words (issue 39): its name, each value's words and what the
# table does under it. The console's new-game form and help, and the page, read them here.
HOUSE_RULES: dict[str, HouseRule] = {r.key: r for r in (
    HouseRule("tiebreak", "GG-3", "Tie for first",
              lambda v: {"rps": "rock-paper-scissors", "reroll": "roll again"}.get(v, str(v)),
              _explained("tiebreak"), ("rps", "reroll")),
    HouseRule("percentile", "GG-7", "Bypass roll",
              lambda v: {"1-100": "1 to 100", "0-99": "0 to 99"}.get(v, str(v)),
              _explained("percentile"), ("1-100", "0-99")),
    HouseRule("bypass_target", "GG-8", "Bypass target", _number,
              _explained("bypass_target")),
    HouseRule("caught_keep_forces_exit", "GG-10", "Keeping art",
              lambda v: "exit first" if v else "carry on",
              _explained("caught_keep_forces_exit"), (False, True)),
    HouseRule("fence_bonus_per_extra_piece", "GG-13", "Sale bonus",
              lambda v: _dollars(v) if isinstance(v, int) else str(v),
              _explained("fence_bonus_per_extra_piece")),
    HouseRule("win_money", "GG-14", "Winning money",
              lambda v: _dollars(v) if isinstance(v, int) else str(v),
              _explained("win_money")),
    HouseRule("reup_at_or_below", "GG-18", "Re-up limit",
              lambda v: _card_count(v) if isinstance(v, int) else str(v),
              _explained("reup_at_or_below")),
)}


def _show(value: object) -> str:
    import json  # (only for an error's words)

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _allowed(setting: _Setting) -> str:
    if setting.kind is str:
        return "one of " + ", ".join(_show(c) for c in setting.choices)
    if setting.kind is bool:
        return "true or false"
    if setting.high is None:
        return f"a whole number, {setting.low} or more"
    if setting.high >= MAX_MONEY:
        return f"a whole number, {setting.low} or more (at most {setting.high:,})"
    return f"a whole number from {setting.low} to {setting.high}"


def _problem(name: str, value: object) -> str | None:
    """Why ``value`` will not do for the setting ``name``, or None if it will."""
    setting = _SETTINGS[name]
    if setting.kind is str:
        ok = isinstance(value, str) and value in setting.choices
    elif setting.kind is bool:
        ok = isinstance(value, bool)
    else:
        ok = (isinstance(value, int) and not isinstance(value, bool) and value >= setting.low
              and (setting.high is None or value <= setting.high))
    if ok:
        return None
    return f"must be {_allowed(setting)} ({setting.rule}), not {_show(value)}"


def _first_problem(overrides: object, source: str) -> tuple[str, str | None, str] | None:
    """``(field, setting name or None, message)`` for the first bad override, or None."""
    if not isinstance(overrides, Mapping):
        return source, None, f"must be a table of house rules, not {_show(overrides)}"
    for name, value in overrides.items():
        field = f"{source}.{name}" if source else str(name)
        if name not in _SETTINGS:
            return field, name, f"unknown house rule; the settings are {', '.join(_SETTINGS)}"
        problem = _problem(name, value)
        if problem is not None:
            return field, name, problem
    return None


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house-rule settings; the defaults are the project's reading of the sheet."""

    tiebreak: str = "rps"  # "rps" | "reroll" (GG-3)
    percentile: str = "1-100"  # "1-100" | "0-99" (GG-7)
    bypass_target: int = 100  # GG-8, 1..1000
    caught_keep_forces_exit: bool = False  # GG-10
    fence_bonus_per_extra_piece: int = 200_000_000  # GG-13, >= 0
    win_money: int = 1_000_000_000  # GG-14, >= 1
    reup_at_or_below: int = 0  # GG-18, 0..6

    def __post_init__(self) -> None:
        for name in RULE_SETTINGS:
            problem = _problem(name, getattr(self, name))
            if problem is not None:
                raise SettingsError(problem, field=name)

    @classmethod
    def from_overrides(
        cls, overrides: Mapping[str, object], *, source: str = "rules"
    ) -> HouseRules:
        """The defaults with ``overrides`` applied; fields in errors read ``<source>.<name>``.

        Raises:
            SettingsError: not a mapping, an unknown name, or a value that is not allowed.
        """
        problem = _first_problem(overrides, source)
        if problem is not None:
            field, _, message = problem
            raise SettingsError(message, field=field)
        values: dict[str, Any] = dict(overrides)
        return cls(**values)

    def to_json(self) -> dict[str, object]:
        """Every setting by name, in ``RULE_SETTINGS`` order."""
        return {name: getattr(self, name) for name in RULE_SETTINGS}

    def described(self) -> list[tuple[HouseRule, object]]:
        """Each setting in the table's words with its value here, in `RULE_SETTINGS` order."""
        return [(HOUSE_RULES[name], getattr(self, name)) for name in RULE_SETTINGS]

    def describe(self) -> list[tuple[str, object, str]]:
        """``(name, value, explanation)`` per setting, for the in-app rules reference."""
        return [
            (name, getattr(self, name), _SETTINGS[name].explain(getattr(self, name)))
            for name in RULE_SETTINGS
        ]


RULE_SETTINGS: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
if set(RULE_SETTINGS) != set(_SETTINGS) or set(HOUSE_RULES) != set(_SETTINGS):
    raise RuntimeError("HouseRules, _SETTINGS and HOUSE_RULES must name the same settings")

def setting_problem(name: str, value: object) -> str | None:
    """What is wrong with ``value`` for the house rule ``name`` in a player's words (what it
    must be, and the rule), or None if it will do."""
    return _problem(name, value)


def setting_warnings(rules: HouseRules, catalog: Any) -> list[tuple[str, str]]:
    """``(setting, warning)`` for allowed values that make the game pointless with this
    ``catalog`` (a ``Catalog``): a bypass target no roll and no cards can reach, or one
    every roll reaches; win money all the art cannot pay. Empty when all is well."""
    out: list[tuple[str, str]] = []
    faces = die_range("d100", rules.percentile)
    low, high = faces.start, faces.stop - 1
    best = (max((c.bonus for c in catalog.specialists.values()), default=0)
            + max((c.bonus for c in catalog.attributes.values()), default=0))
    if rules.bypass_target > high + best:
        out.append(("bypass_target", f"no bypass can reach {rules.bypass_target}: the best "
                    f"roll with the best two cards makes {high + best}, so every obstacle "
                    "fails (GG-8)"))
    elif rules.bypass_target <= low:
        out.append(("bypass_target", f"every roll reaches {rules.bypass_target}: no obstacle "
                    "can ever be failed (GG-8)"))
    pieces = [a.value for art in catalog.museums.values() for a in art]
    most = sum(pieces) + rules.fence_bonus_per_extra_piece * max(len(pieces) - 1, 0)
    if rules.win_money > most:
        out.append(("win_money", f"all the art in the catalog sold together pays "
                    f"{_dollars(most)}, less than {_dollars(rules.win_money)}: nobody can "
                    "win by money (GG-14)"))
    return out


def load_settings(path: str | Path) -> HouseRules:
    """House rules from the ``[rules]`` table of a TOML file (other tables are not ours).

    A file without a ``[rules]`` table gives the defaults.

    Raises:
        SettingsError: the file cannot be read, is not TOML, or has a bad ``[rules]`` entry;
            the error names the file, the line (where it can be found) and the field.
    """
    source = str(path)
    text = read_text_file(path, "settings", SettingsError)
    rules = toml_loads(text, source, SettingsError).get("rules", {})
    problem = _first_problem(rules, "rules")
    if problem is not None:
        field, key, message = problem
        line = locate_line(text, [("rules", None)], key)
        if line is None and key is not None:  # `rules.x = ...` at the top level
            line = locate_line(text, (), f"rules.{key}")
        if line is None:  # `rules = {...}` at the top level
            line = locate_line(text, (), "rules")
        raise SettingsError(message, path=source, line=line, field=field)
    return HouseRules.from_overrides(rules)
