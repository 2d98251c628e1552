"""The catalog: the shipped default, its balance, the TOML format and every validation error."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest

from referee.errors import CatalogError, ConfigError
from referee.games.gallery_grippers.catalog import (
    ATTRIBUTE,
    SPECIALIST,
    Art,
    Card,
    Catalog,
    default_catalog,
    load_catalog,
    locate_line,
    parse_catalog,
)

PLAYERS_MAX = 6
STARTING_HAND = 3  # of each deck (GG-1)
FENCE_BONUS = 200_000_000  # GG-13 default
WIN_MONEY = 1_000_000_000  # GG-14 default
BYPASS_TARGET = 100  # GG-8 default
ROLL_MAX = 100  # GG-7, "1-100"


@pytest.fixture(scope="module")
def default() -> Catalog:
    return default_catalog()


def all_art(catalog: Catalog) -> list[Art]:
    return [piece for pieces in catalog.museums.values() for piece in pieces]


def deck_size(cards: dict[str, Card]) -> int:
    return sum(card.copies for card in cards.values())


# --- the shipped default -----------------------------------------------------------------------

def test_default_loads_from_the_package_and_is_cached(default: Catalog) -> None:
    assert default.source == "<default>"
    assert default_catalog() is default
    assert load_catalog() == default


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Stealth Specialist", SPECIALIST), ("Master of Disguise", SPECIALIST),
        ("Hacker", SPECIALIST),
        ("Added Stealth", ATTRIBUTE), ("More Tech", ATTRIBUTE), ("Steroids", ATTRIBUTE),
    ],
)
def test_default_has_the_six_cards_the_sheet_names(default: Catalog, name: str, kind: str) -> None:
    card = default.card(name)
    assert card is not None
    assert card.kind == kind
    deck = default.specialists if kind == SPECIALIST else default.attributes
    assert deck[name] is card


def test_default_keeps_the_sheets_numbers_gg_8(default: Catalog) -> None:
    hacker, more_tech = default.specialists["Hacker"], default.attributes["More Tech"]
    assert (hacker.bonus, more_tech.bonus) == (30, 20)
    # the sheet's worked example: Hacker + More Tech + a roll of 50 makes exactly 100
    assert 50 + hacker.bonus + more_tech.bonus == BYPASS_TARGET
    assert any(a.value == 700_000_000 and a.deduction == 35 for a in all_art(default))


def test_default_has_four_museums_of_three_or_four_pieces(default: Catalog) -> None:
    assert len(default.museums) == 4
    for museum, pieces in default.museums.items():
        assert 3 <= len(pieces) <= 4, museum
        assert all(piece.museum == museum for piece in pieces)


def test_default_art_values_and_deductions_rise_together(default: Catalog) -> None:
    pieces = sorted(all_art(default), key=lambda a: a.value)
    assert all(100_000_000 <= a.value <= 700_000_000 for a in pieces)
    assert all(5 <= a.deduction <= 35 for a in pieces)
    deductions = [a.deduction for a in pieces]
    assert deductions == sorted(deductions), "a dearer piece never weighs less (GG-8)"
    assert deductions[0] < deductions[-1]


@pytest.mark.parametrize("deck", ["specialists", "attributes"])
def test_default_decks_deal_six_players_with_ten_left_gg_1(default: Catalog, deck: str) -> None:
    cards: dict[str, Card] = getattr(default, deck)
    assert 6 <= len(cards) <= 8
    assert deck_size(cards) - PLAYERS_MAX * STARTING_HAND >= 10


@pytest.mark.parametrize("deck", ["specialists", "attributes"])
def test_default_cards_differ_and_strong_ones_are_rarer_gg_19(default: Catalog, deck: str) -> None:
    cards = sorted(getattr(default, deck).values(), key=lambda c: c.bonus)
    assert len({c.bonus for c in cards}) >= 5
    copies = [c.copies for c in cards]
    assert copies == sorted(copies, reverse=True), "a stronger card never has more copies"
    assert copies[0] > copies[-1]


def sale_price(values: list[int]) -> int:
    """GG-13: face values plus the fence bonus for each piece beyond the first."""
    return sum(values) + FENCE_BONUS * (len(values) - 1)


def test_default_a_billion_takes_about_three_to_five_sales_gg_14(default: Catalog) -> None:
    values = [a.value for a in all_art(default)]
    # no single stolen piece wins by itself
    assert max(values) < WIN_MONEY
    # selling a typical (median) piece at a time takes three to five sales
    typical = statistics.median(values)
    assert 3 <= math.ceil(WIN_MONEY / typical) <= 5
    assert 3 <= math.ceil(WIN_MONEY / statistics.mean(values)) <= 5
    # fencing two typical pieces together still needs a second sale
    assert sale_price([int(typical)] * 2) < WIN_MONEY
    # and the whole collection is worth several winners' fortunes: the game cannot run dry
    assert sale_price(values) >= 3 * WIN_MONEY


def test_default_even_the_heaviest_piece_can_be_carried_out_gg_8(default: Catalog) -> None:
    best = max(c.bonus for c in default.specialists.values())
    best += max(c.bonus for c in default.attributes.values())
    heaviest = max(a.deduction for a in all_art(default))
    assert ROLL_MAX + best - heaviest >= BYPASS_TARGET
    # but nothing is a sure thing: the best pair still needs a roll above 1
    assert BYPASS_TARGET - best > 1


def test_default_names_are_unique_across_everything(default: Catalog) -> None:
    cards = [*default.specialists, *default.attributes]
    art = [a.name for a in all_art(default)]
    assert len({n.casefold() for n in cards}) == len(cards)
    assert len({n.casefold() for n in art}) == len(art)


# --- the API -----------------------------------------------------------------------------------

def test_lookups(default: Catalog) -> None:
    hacker = default.specialists["Hacker"]
    assert default.card("Hacker") == Card("Hacker", SPECIALIST, 30, hacker.copies)
    assert default.card("hacker") is None
    assert default.card("Mona Lisa") is None
    piece = default.art("Mona Lisa")
    assert piece is not None and piece.museum in default.museums
    assert piece in default.museums[piece.museum]
    assert default.art("Hacker") is None


def test_to_json_is_the_protocol_shape_in_file_order(default: Catalog) -> None:
    data = default.to_json()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"specialists", "attributes", "museums"}
    assert [c["name"] for c in data["specialists"]] == list(default.specialists)
    assert all(set(c) == {"name", "bonus", "copies"} for c in data["attributes"])
    assert list(data["museums"]) == list(default.museums)
    for museum, pieces in data["museums"].items():
        assert [p["name"] for p in pieces] == [a.name for a in default.museums[museum]]
        assert all(set(p) == {"name", "value", "deduction"} for p in pieces)


# --- the format and its errors ---------------------------------------------------------------

BASE = """\
name = "tiny"   # a catalog just big enough

[[specialists]]
name = "Hacker"
bonus = 30
copies = 2

[[specialists]]
name = "Lookout"
bonus = 10
copies = 3

[[attributes]]
name = "More Tech"
bonus = 20
copies = 2

[[museums]]
name = "Louvre"

[[museums.art]]
name = "Mona Lisa"
value = 700_000_000
deduction = 35

[[ museums ]]
name = "Prado"

  [[museums.art]]
  name = "Las Meninas"
  value = 300_000_000
  deduction = 15

  [[museums.art]]
  name = "The Garden"
  value = 200_000_000
  deduction = 10
"""


def test_base_parses_in_file_order() -> None:
    catalog = parse_catalog(BASE)
    assert catalog.source == "<string>"
    assert list(catalog.specialists) == ["Hacker", "Lookout"]
    assert catalog.attributes["More Tech"] == Card("More Tech", ATTRIBUTE, 20, 2)
    assert list(catalog.museums) == ["Louvre", "Prado"]
    assert catalog.museums["Prado"][1] == Art("The Garden", "Prado", 200_000_000, 10)


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the only line containing ``fragment`` (plain search, no locator)."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(hits) == 1, (fragment, hits)
    return hits[0]


# (old text, new text, field, words the message must contain); the error's line must be the
# line where the last line of the new text now stands
REPLACEMENTS = [
    ("bonus = 10", "bonus = -10", "specialists[1].bonus", "negative"),
    ("bonus = 30", "bonus = true", "specialists[0].bonus", "boolean"),
    ("copies = 3", "copies = 3.0", "specialists[1].copies", "float"),
    ("copies = 3", "copies = 0", "specialists[1].copies", "less than 1"),
    ("copies = 3", 'copies = "3"', "specialists[1].copies", "string"),
    ("deduction = 15", "deduction = 101", "museums[1].art[0].deduction", "over 100"),
    ("deduction = 35", "deduction = -5", "museums[0].art[0].deduction", "negative"),
    ("value = 200_000_000", 'value = "200M"', "museums[1].art[1].value", "string"),
    ('name = "Lookout"', 'name = "  "', "specialists[1].name", "empty"),
    ('name = "Lookout"', 'name = "Lookout "', "specialists[1].name", "spaces"),
    ('name = "Lookout"', "name = 7", "specialists[1].name", "integer"),
    ('name = "More Tech"', 'name = "hacker"', "attributes[0].name", "specialists[0]"),
    ('name = "Prado"', 'name = "Louvre"', "museums[1].name", "duplicate museum"),
    ('name = "The Garden"', 'name = "Mona Lisa"', "museums[1].art[1].name", "duplicate art"),
    ('name = "Las Meninas"', 'name = "Las Meninas"\n  artist = "Velazquez"',
     "museums[1].art[0].artist", "unknown key"),
    ('name = "Prado"', 'name = "Prado"\ncity = "Madrid"', "museums[1].city", "unknown key"),
    ('name = "Hacker"', 'name = "Hacker"\nrarity = "rare"', "specialists[0].rarity",
     "unknown key"),
    ('name = "tiny"', 'title = "tiny"', "title", "unknown key"),
    ('name = "tiny"', "version = 1", "version", "string"),
    ('name = "tiny"', "attributes = []", "attributes", "empty"),
    ("[[attributes]]", "[attributes]", "attributes", "array of tables"),
    ('name = "tiny"', 'specialists = [{ name = "X", bonus = -1, copies = 1 }]',
     "specialists[0].bonus", "negative"),
    ('name = "tiny"', "museums = [1]", "museums[0]", "must be a table"),
    # bounds: a table's worth of cards (99,999,999,999 copies loaded, then a draw took GBs)
    ("copies = 3", "copies = 99_999_999_999", "specialists[1].copies", "over 99"),
    ("copies = 3", "copies = 100", "specialists[1].copies", "over 99"),
    ("bonus = 10", "bonus = 1001", "specialists[1].bonus", "over 1000"),
    ("value = 200_000_000", "value = 1_000_000_000_000_001", "museums[1].art[1].value",
     "over 1000000000000000"),
    # names are checked like player names: readable, not too long, one spelling
    ('name = "Lookout"', 'name = "Look\u200bout"', "specialists[1].name", "invisible"),
    ('name = "Lookout"', 'name = "Lookout\u202e"', "specialists[1].name", "invisible"),
    ('name = "Lookout"', 'name = "Look\tout"', "specialists[1].name", "control"),
    ('name = "Lookout"', f'name = "{"L" * 61}"', "specialists[1].name", "at most 60"),
    ('name = "More Tech"', 'name = "\uff28ACKER"', "attributes[0].name", "specialists[0]"),
    ('name = "Prado"', 'name = "\uff2cOUVRE"', "museums[1].name", "duplicate museum"),
    ('name = "The Garden"', 'name = "MONA LISA"', "museums[1].art[1].name", "duplicate art"),
]


@pytest.mark.parametrize(("old", "new", "field", "words"), REPLACEMENTS)
def test_each_mistake_names_file_line_and_field(old: str, new: str, field: str,
                                               words: str | None) -> None:
    if new.startswith(("attributes =", "specialists =", "museums =")):
        # a top-level key must come before the first table, so drop the tables it replaces
        section = new.split(" ", 1)[0]
        kept = BASE.split("\n\n")
        text = "\n\n".join(
            [new] + [b for b in kept[1:] if not b.replace(" ", "").startswith(f"[[{section}")]
        )
        expected_line = 1
    else:
        assert old in BASE
        text = BASE.replace(old, new, 1)
        expected_line = BASE[: BASE.index(old)].count("\n") + new.count("\n") + 1
    with pytest.raises(CatalogError) as caught:
        parse_catalog(text, "house.toml")
    error = caught.value
    assert error.field == field
    assert error.path == "house.toml"
    assert error.line == expected_line
    assert words is None or words in str(error)
    assert str(error).startswith(f"house.toml:{error.line}: {field}: ")


# (text with a part removed, field, the header line the error points at or None, words)
def without(text: str, part: str) -> str:
    assert part in text
    return text.replace(part, "", 1)


REMOVALS = [
    (without(BASE, "bonus = 20\n"), "attributes[0].bonus", "[[attributes]]", "missing"),
    (without(BASE, '\n[[museums.art]]\nname = "Mona Lisa"\nvalue = 700_000_000\ndeduction = 35\n'),
     "museums[0].art", "[[museums]]", "no art"),
    (BASE.split("\n[[museums]]")[0], "museums", None, "missing"),
    (BASE.split("\n[[attributes]]")[0] + BASE[BASE.index("\n[[museums]]"):],
     "attributes", None, "missing"),
    (without(BASE, 'name = "Prado"\n'), "museums[1].name", "[[ museums ]]", "missing"),
]


@pytest.mark.parametrize(("text", "field", "header", "words"), REMOVALS)
def test_missing_parts_point_at_their_table(
    text: str, field: str, header: str | None, words: str
) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_catalog(text, "house.toml")
    assert caught.value.field == field
    assert words in str(caught.value)
    expected = None if header is None else line_of(text, header)
    assert caught.value.line == expected


def test_a_toml_syntax_error_gives_tomllibs_line() -> None:
    text = BASE.replace("bonus = 10", "bonus = ")
    with pytest.raises(CatalogError) as caught:
        parse_catalog(text, "house.toml")
    broken = [n for n, line in enumerate(text.splitlines(), 1) if line == "bonus = "]
    assert caught.value.line == broken[0]
    assert caught.value.field is None
    assert "not valid TOML" in str(caught.value)
    assert "(at line" not in str(caught.value)


def test_every_table_array_is_bounded() -> None:
    many = "".join(f'[[specialists]]\nname = "S{i}"\nbonus = 1\ncopies = 1\n\n'
                   for i in range(101))
    with pytest.raises(CatalogError) as caught:
        parse_catalog(BASE.split("[[specialists]]", 1)[0] + many, "big.toml")
    assert caught.value.field == "specialists" and "at most 100" in str(caught.value)


def test_names_are_kept_in_one_spelling() -> None:
    catalog = parse_catalog(BASE.replace('"Lookout"', '"Looko\u0301ut"'))
    assert list(catalog.specialists) == ["Hacker", "Look\u00f3ut"]  # composed, as commands are


def test_catalog_errors_are_config_and_value_errors() -> None:
    with pytest.raises(ConfigError):
        parse_catalog("")
    with pytest.raises(ValueError, match="specialists"):
        parse_catalog("")


# --- loading files -------------------------------------------------------------------------------

def test_load_catalog_reads_a_file_and_names_it(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(BASE, encoding="utf-8")
    catalog = load_catalog(path)
    assert catalog.source == str(path)
    assert catalog.specialists == parse_catalog(BASE).specialists
    assert load_catalog(str(path)).museums == catalog.museums
    path.write_text(BASE.replace("copies = 3", "copies = 0"), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert str(caught.value).startswith(f"{path}:{line_of(path.read_text(), 'copies = 0')}:")


def test_load_catalog_refuses_missing_and_non_utf8_files(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(CatalogError, match="cannot read") as caught:
        load_catalog(missing)
    assert caught.value.path == str(missing)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(BASE.encode() + 'x = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(CatalogError, match="UTF-8"):
        load_catalog(latin)


# --- the line locator ----------------------------------------------------------------------------

LOCATOR_TEXT = """\
title = "x"                 # 1
[rules]                     # 2
tiebreak = "rps"            # 3
[[specialists]]             # 4
name = "A"                  # 5
[[ specialists ]]           # 6
  "bonus" = 3               # 7
notes = '''                 # 8
[[specialists]]
bonus = 99
'''                         # 11
[[museums]]                 # 12
name = "M"                  # 13
[[museums.art]]             # 14
value = 1                   # 15
[[museums.art]]             # 16
value = 2                   # 17
[[museums]]                 # 18
[[museums . art]]           # 19
value = 3                   # 20
"""


@pytest.mark.parametrize(
    ("tables", "key", "line"),
    [
        ((), "title", 1),
        ((), "rules", 2),  # a key given as a table header
        ((("rules", None),), "tiebreak", 3),
        ((("rules", None),), "percentile", 2),  # absent key: the table's header
        ((("specialists", 0),), "name", 5),
        ((("specialists", 1),), "bonus", 7),  # quoted key, spaced header
        ((("specialists", 1),), None, 6),
        ((("specialists", 2),), "bonus", None),  # the third header is inside a string
        ((("museums", 0),), "name", 13),
        ((("museums", 0),), "value", 12),  # keys of art tables are not the museum's
        ((("museums", 0), ("art", 1)), "value", 17),
        ((("museums", 1), ("art", 0)), "value", 20),
        ((("museums", 1), ("art", 1)), "value", 18),  # no such art: the museum's header
        ((("museums", 2),), "name", None),
        ((("nothing", 0),), "name", None),
    ],
)
def test_locate_line(tables: tuple[tuple[str, int | None], ...], key: str | None,
                     line: int | None) -> None:
    assert locate_line(LOCATOR_TEXT, tables, key) == line


def test_the_locator_text_agrees_with_its_comments() -> None:
    for number, text in enumerate(LOCATOR_TEXT.splitlines(), 1):
        if "# " in text and text.rsplit("# ", 1)[1].isdigit():
            assert int(text.rsplit("# ", 1)[1]) == number


def test_locate_line_finds_dotted_keys() -> None:
    text = 'a = 1\nrules.win_money = 2\nrules.tiebreak = "rps"\n'
    assert locate_line(text, (), "rules") == 2
    assert locate_line(text, (), "rules.tiebreak") == 3
    assert locate_line(text, (), "rule") is None
