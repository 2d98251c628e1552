"""House rules: defaults, validation from every entrance, the settings file, the explanations."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.errors import ConfigError, SettingsError
from referee.games.gallery_grippers.settings import RULE_SETTINGS, HouseRules, load_settings

SPEC_DEFAULTS: dict[str, object] = {  # gallery-grippers-rules.md, in the order of the API
    "tiebreak": "rps",
    "percentile": "1-100",
    "bypass_target": 100,
    "caught_keep_forces_exit": False,
    "fence_bonus_per_extra_piece": 200_000_000,
    "win_money": 1_000_000_000,
    "reup_at_or_below": 0,
}
RULE_IDS = {
    "tiebreak": "GG-3", "percentile": "GG-7", "bypass_target": "GG-8",
    "caught_keep_forces_exit": "GG-10", "fence_bonus_per_extra_piece": "GG-13",
    "win_money": "GG-14", "reup_at_or_below": "GG-18",
}


def test_defaults_are_the_specs_reading() -> None:
    assert HouseRules().to_json() == SPEC_DEFAULTS
    assert list(RULE_SETTINGS) == list(SPEC_DEFAULTS)
    assert tuple(f.name for f in dataclasses.fields(HouseRules)) == RULE_SETTINGS


def test_house_rules_are_frozen() -> None:
    rules = HouseRules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.win_money = 5  # type: ignore[misc]


GOOD = [
    ("tiebreak", "reroll"), ("percentile", "0-99"),
    ("bypass_target", 1), ("bypass_target", 1000),
    ("caught_keep_forces_exit", True),
    ("fence_bonus_per_extra_piece", 0), ("fence_bonus_per_extra_piece", 500_000_000),
    ("win_money", 1), ("win_money", 2_000_000_000),
    ("reup_at_or_below", 1), ("reup_at_or_below", 6),
]


@pytest.mark.parametrize(("name", "value"), GOOD)
def test_a_good_override_changes_that_setting_only(name: str, value: object) -> None:
    rules = HouseRules.from_overrides({name: value})
    assert getattr(rules, name) == value
    changed = {k for k, v in rules.to_json().items() if v != SPEC_DEFAULTS[k]}
    assert changed == ({name} if value != SPEC_DEFAULTS[name] else set())


# (name, bad value, words the message must contain: the allowed values)
BAD = [
    ("tiebreak", "coin", '"rps", "reroll"'),
    ("tiebreak", "RPS", '"rps", "reroll"'),
    ("tiebreak", 1, '"rps", "reroll"'),
    ("percentile", "1-99", '"1-100", "0-99"'),
    ("percentile", 100, '"1-100", "0-99"'),
    ("bypass_target", 0, "from 1 to 1000"),
    ("bypass_target", 1001, "from 1 to 1000"),
    ("bypass_target", True, "from 1 to 1000"),  # bool is not int
    ("bypass_target", 100.0, "from 1 to 1000"),
    ("bypass_target", "100", "from 1 to 1000"),
    ("caught_keep_forces_exit", 1, "true or false"),  # int is not bool
    ("caught_keep_forces_exit", "false", "true or false"),
    ("caught_keep_forces_exit", None, "true or false"),
    ("fence_bonus_per_extra_piece", -1, "0 or more"),
    ("fence_bonus_per_extra_piece", False, "0 or more"),
    ("win_money", 0, "1 or more"),
    ("win_money", -1_000_000_000, "1 or more"),
    ("win_money", 10**15 + 1, "at most 1,000,000,000,000,000"),
    ("win_money", 10**300, "at most 1,000,000,000,000,000"),
    ("fence_bonus_per_extra_piece", 10**16, "at most 1,000,000,000,000,000"),
    ("reup_at_or_below", 7, "from 0 to 6"),
    ("reup_at_or_below", -1, "from 0 to 6"),
]


@pytest.mark.parametrize(("name", "value", "allowed"), BAD)
def test_a_bad_override_names_field_rule_and_allowed_values(
    name: str, value: object, allowed: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        HouseRules.from_overrides({"tiebreak": "rps", name: value}, source="new_game rules")
    error = caught.value
    assert error.field == f"new_game rules.{name}"
    assert allowed in str(error)
    assert RULE_IDS[name] in str(error)
    assert json.dumps(value) in str(error)  # says what it got


@pytest.mark.parametrize(("name", "value", "allowed"), BAD)
def test_a_bad_value_cannot_be_constructed(name: str, value: Any, allowed: str) -> None:
    with pytest.raises(SettingsError) as caught:
        HouseRules(**{name: value})
    assert caught.value.field == name
    assert allowed in str(caught.value)
    with pytest.raises(SettingsError):
        dataclasses.replace(HouseRules(), **{name: value})


def test_unknown_names_and_non_tables_are_refused() -> None:
    with pytest.raises(SettingsError, match="unknown house rule") as caught:
        HouseRules.from_overrides({"win_mony": 5})
    assert caught.value.field == "rules.win_mony"
    assert all(name in str(caught.value) for name in RULE_SETTINGS)
    with pytest.raises(SettingsError, match="table") as not_table:
        HouseRules.from_overrides(["tiebreak"])  # type: ignore[arg-type]
    assert not_table.value.field == "rules"


def test_settings_errors_are_config_and_value_errors() -> None:
    with pytest.raises(ConfigError):
        HouseRules(win_money=0)
    with pytest.raises(ValueError):
        HouseRules(win_money=0)


def test_to_json_round_trips() -> None:
    rules = HouseRules.from_overrides(dict(GOOD[:2] + GOOD[4:5] + GOOD[7:8]))
    data = rules.to_json()
    assert json.loads(json.dumps(data)) == data
    assert list(data) == list(RULE_SETTINGS)
    assert HouseRules.from_overrides(data) == rules
    assert rules != HouseRules()


# --- the in-app explanations --------------------------------------------------------------------

def test_describe_lists_every_setting_with_its_value_and_rule() -> None:
    rules = HouseRules(win_money=750_000_000, bypass_target=90)
    described = rules.describe()
    assert [name for name, _, _ in described] == list(RULE_SETTINGS)
    for name, value, text in described:
        assert value == getattr(rules, name)
        assert text.startswith(RULE_IDS[name] + ":"), text
        assert "\n" not in text and len(text) < 140
    texts = {name: text for name, _, text in described}
    assert "$750,000,000" in texts["win_money"]
    assert "90" in texts["bypass_target"]
    assert "$200,000,000" in texts["fence_bonus_per_extra_piece"]


@pytest.mark.parametrize(("name", "value"), GOOD)
def test_each_explanation_follows_its_value(name: str, value: object) -> None:
    default_text = dict((n, t) for n, _, t in HouseRules().describe())[name]
    text = dict((n, t) for n, _, t in HouseRules.from_overrides({name: value}).describe())[name]
    assert (text == default_text) == (value == SPEC_DEFAULTS[name])


SHEET = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "gallery-grippers-rules.txt"


def test_explanations_are_in_our_own_words() -> None:
    if not SHEET.exists():
        pytest.skip("the game's rule sheet is not beside the repository")

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    sheet = words(SHEET.read_text(encoding="utf-8"))
    sheet_runs = {tuple(sheet[i:i + 6]) for i in range(len(sheet) - 5)}
    variants = [HouseRules(), HouseRules.from_overrides(dict(GOOD))]
    for rules in variants:
        for name, _, text in rules.describe():
            ours = words(text)
            copied = [ours[i:i + 6] for i in range(len(ours) - 5)
                      if tuple(ours[i:i + 6]) in sheet_runs]
            assert not copied, (name, copied)


# --- the settings file --------------------------------------------------------------------------

def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_settings_reads_the_rules_table_and_ignores_the_others(tmp_path: Path) -> None:
    path = write(tmp_path, """\
[display]
contrast = 80
tiebreak = "whatever"   # not ours

[rules]
tiebreak = "reroll"
win_money = 2_000_000_000
caught_keep_forces_exit = true
""")
    rules = load_settings(path)
    assert rules == HouseRules(tiebreak="reroll", win_money=2_000_000_000,
                               caught_keep_forces_exit=True)
    assert load_settings(str(path)) == rules


def test_a_file_without_rules_gives_the_defaults(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, "[display]\ncontrast = 80\n")) == HouseRules()
    assert load_settings(write(tmp_path, "")) == HouseRules()


FILE_ERRORS = [
    # (file text, field, the fragment on the error's line, words in the message)
    ('[rules]\ntiebreak = "rps"\npercentile = "0-100"\n', "rules.percentile",
     'percentile = "0-100"', '"1-100", "0-99"'),
    ('[other]\nwin_money = 5\n\n[rules]\n  win_money = 0  # nobody can lose\n', "rules.win_money",
     "win_money = 0", "1 or more"),
    ("[rules]\nreup_at_or_below = true\n", "rules.reup_at_or_below", "reup_at_or_below", "0 to 6"),
    ("[rules]\nbypass = 90\n", "rules.bypass", "bypass = 90", "unknown house rule"),
    ('rules.tiebreak = "coin"\n', "rules.tiebreak", "rules.tiebreak", '"rps", "reroll"'),
    ("rules = 3\n", "rules", "rules = 3", "table"),
    ("[rules]\n[rules.win_money]\namount = 5\n", "rules.win_money", "[rules.win_money]",
     "1 or more"),
    ('rules.percentile = "1-100"\nrules.tiebreak = "coin"\n', "rules.tiebreak", "coin",
     '"rps", "reroll"'),
]


@pytest.mark.parametrize(("text", "field", "fragment", "words"), FILE_ERRORS)
def test_file_errors_name_file_line_and_field(
    tmp_path: Path, text: str, field: str, fragment: str, words: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path)
    error = caught.value
    expected_line = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert (error.path, error.line, error.field) == (str(path), expected_line[0], field)
    assert words in str(error)
    assert str(error).startswith(f"{path}:{expected_line[0]}: {field}: ")


def test_a_toml_syntax_error_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\ntiebreak = "rps"\nwin_money = 1_000_000_000_\n')
    with pytest.raises(SettingsError, match="not valid TOML") as caught:
        load_settings(path)
    assert caught.value.line == 3
    assert caught.value.field is None


def test_an_unreadable_file_is_a_settings_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="cannot read") as caught:
        load_settings(tmp_path / "missing.toml")
    assert caught.value.path == str(tmp_path / "missing.toml")
    bad = tmp_path / "latin.toml"
    bad.write_bytes("[rules]\n# caf\xe9\n".encode("latin-1"))
    with pytest.raises(SettingsError, match="UTF-8"):
        load_settings(bad)
