"""The game's numbers as data: specialist and attribute cards, museums and their art (GG-19).

A catalog is a TOML file (format: ``docs/catalog.md``); the project ships a default in
``data/catalog.toml`` beside this module. ``parse_catalog`` checks everything and raises
``CatalogError`` naming the file, the line (where it can be found) and the field, e.g.
``specialists[2].bonus`` (indexes count from 0, in file order).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import CatalogError
from referee.inputs import name_problem, nfc, same_name
from referee.tomlfile import locate_line, read_text_file, toml_loads

# The catalog shipped with the package, beside this module (read as a file: the package is
# always installed as files, and importlib.resources would cost every start ~3 ms).
SHIPPED = Path(__file__).with_name("data") / "catalog.toml"

__all__ = [  # locate_line and toml_loads live in referee.tomlfile (named here for old imports)
    "ATTRIBUTE", "SPECIALIST", "Art", "Card", "Catalog", "catalog_from_json", "default_catalog",
    "load_catalog", "locate_line", "parse_catalog", "toml_loads",
]

SPECIALIST = "specialist"
ATTRIBUTE = "attribute"
MAX_PERCENT = 100
# Bounds that keep a catalog a table's worth of cards (a huge `copies` would make every draw
# pile gigabytes): docs/catalog.md lists them.
MAX_COPIES = 99
MAX_BONUS = 1000  # percent; the highest bypass target a house rule allows
MAX_VALUE = 10**15  # dollars, as the highest win_money
MAX_KINDS = 100  # cards in one deck, museums, pieces in one museum: tables of each
MAX_NAME = 60  # characters in a card, museum or art name

_TOP_KEYS = ("name", "version", "specialists", "attributes", "museums")
_CARD_KEYS = ("name", "bonus", "copies")
_MUSEUM_KEYS = ("name", "art")
_ART_KEYS = ("name", "value", "deduction")


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck: ``bonus`` is the percent it adds to a bypass total (GG-8)."""

    name: str
    kind: str  # SPECIALIST or ATTRIBUTE
    bonus: int
    copies: int


@dataclass(frozen=True, slots=True)
class Art:
    """One art piece: its face ``value`` in dollars and the bypass ``deduction`` in percent."""

    name: str
    museum: str
    value: int
    deduction: int


@dataclass(frozen=True)
class Catalog:
    """A whole, validated catalog. Treat the dicts as read-only (the default one is shared)."""

    specialists: dict[str, Card]
    attributes: dict[str, Card]
    museums: dict[str, tuple[Art, ...]]
    source: str

    def card(self, name: str) -> Card | None:
        """The card called ``name`` in either deck, or None."""
        return self.specialists.get(name) or self.attributes.get(name)

    def art(self, name: str) -> Art | None:
        """The art piece called ``name`` in any museum, or None."""
        for pieces in self.museums.values():
            for piece in pieces:
                if piece.name == name:
                    return piece
        return None

    def to_json(self) -> dict[str, Any]:
        """The shape the ``catalog`` command of the headless protocol answers with."""

        def deck(cards: dict[str, Card]) -> list[dict[str, Any]]:
            return [{"name": c.name, "bonus": c.bonus, "copies": c.copies} for c in cards.values()]

        return {
            "specialists": deck(self.specialists),
            "attributes": deck(self.attributes),
            "museums": {
                museum: [{"name": a.name, "value": a.value, "deduction": a.deduction} for a in art]
                for museum, art in self.museums.items()
            },
        }


# --- parsing and validation -------------------------------------------------------------------

_Where = tuple[tuple[str, int], ...]


def _field(where: _Where, key: str | None) -> str:
    parts = [f"{name}[{index}]" for name, index in where]
    if key is not None:
        parts.append(key)
    return ".".join(parts)


def _kind_of(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    names = {str: "a string", int: "an integer", float: "a float", list: "an array",
             dict: "a table"}
    return names.get(type(value), "a date or time")


class _Reader:
    """Walks the decoded TOML, checking as it goes; every error knows its field and line."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def error(self, message: str, where: _Where, key: str | None = None) -> CatalogError:
        line = locate_line(self.text, where, key)
        if line is None and where:  # inline tables: point at the top-level key at least
            line = locate_line(self.text, (), where[0][0])
        return CatalogError(message, path=self.source, line=line, field=_field(where, key))

    def keys(self, table: dict[str, Any], allowed: Sequence[str], where: _Where) -> None:
        for key in table:
            if key not in allowed:
                raise self.error(f"unknown key; expected {', '.join(allowed)}", where, key)

    def require(self, table: dict[str, Any], keys: Sequence[str], where: _Where) -> None:
        for key in keys:
            if key not in table:
                raise self.error(f"missing (this table needs {', '.join(keys)})", where, key)

    def text_value(self, table: dict[str, Any], key: str, where: _Where) -> str:
        value = table[key]
        if not isinstance(value, str):
            raise self.error(f"must be a string, not {_kind_of(value)}", where, key)
        if not value.strip():
            raise self.error("must not be empty", where, key)
        if value != value.strip():
            raise self.error(f"has spaces at the start or end: {value!r}", where, key)
        value = nfc(value)
        problem = name_problem(value, MAX_NAME)
        if problem is not None:
            raise self.error(problem, where, key)
        return value

    def number(
        self, table: dict[str, Any], key: str, where: _Where, low: int, high: int | None = None
    ) -> int:
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"must be a whole number, not {_kind_of(value)}", where, key)
        if value < low:
            lowest = "negative" if low == 0 else f"less than {low}"
            raise self.error(f"must not be {lowest} (got {value})", where, key)
        if high is not None and value > high:
            raise self.error(f"must not be over {high} (got {value})", where, key)
        return value

    def tables(self, parent: dict[str, Any], key: str, where: _Where) -> list[dict[str, Any]]:
        """The array of tables ``parent[key]`` (``[[key]]`` in the file)."""
        value = parent[key]
        if not isinstance(value, list):
            raise self.error(f"must be an array of tables ([[{key}]]), not {_kind_of(value)}",
                             where, key)
        if len(value) > MAX_KINDS:
            raise self.error(f"has {len(value)} tables; at most {MAX_KINDS} are allowed",
                             where, key)
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"must be a table, not {_kind_of(item)}",
                                 (*where, (key, index)))
        return value


class _Names:
    """Names already used for one kind of thing; case does not make a name different."""

    def __init__(self, reader: _Reader, what: str) -> None:
        self.reader, self.what = reader, what
        self.seen: dict[str, tuple[_Where, str]] = {}

    def add(self, name: str, where: _Where) -> None:
        key = same_name(name)
        if key in self.seen:
            first, spelt = self.seen[key]
            line = locate_line(self.reader.text, first, "name")
            at = f" (line {line})" if line is not None else ""
            case = ("" if spelt == name else
                    f" as {spelt!r}; case or Unicode spelling does not make names differ")
            raise self.reader.error(
                f"duplicate {self.what} name {name!r}: already used by "
                f"{_field(first, None)}{at}{case}", where, "name")
        self.seen[key] = (where, name)


def _deck(reader: _Reader, data: dict[str, Any], key: str, kind: str,
          names: _Names) -> dict[str, Card]:
    if key not in data:
        raise reader.error(f"missing: the catalog needs at least one {kind} card", (), key)
    deck: dict[str, Card] = {}
    for index, table in enumerate(reader.tables(data, key, ())):
        where: _Where = ((key, index),)
        reader.keys(table, _CARD_KEYS, where)
        reader.require(table, _CARD_KEYS, where)
        name = reader.text_value(table, "name", where)
        bonus = reader.number(table, "bonus", where, 0, MAX_BONUS)
        copies = reader.number(table, "copies", where, 1, MAX_COPIES)
        names.add(name, where)
        deck[name] = Card(name, kind, bonus, copies)
    if not deck:
        raise reader.error(f"the {kind} deck is empty", (), key)
    return deck


def _museums(reader: _Reader, data: dict[str, Any]) -> dict[str, tuple[Art, ...]]:
    if "museums" not in data:
        raise reader.error("missing: the catalog needs at least one museum", (), "museums")
    museums: dict[str, tuple[Art, ...]] = {}
    museum_names, art_names = _Names(reader, "museum"), _Names(reader, "art")
    for index, table in enumerate(reader.tables(data, "museums", ())):
        where: _Where = (("museums", index),)
        reader.keys(table, _MUSEUM_KEYS, where)
        reader.require(table, ("name",), where)
        museum = reader.text_value(table, "name", where)
        museum_names.add(museum, where)
        if "art" not in table:
            raise reader.error(f"museum {museum!r} has no art ([[museums.art]])", where, "art")
        pieces: list[Art] = []
        for number, art in enumerate(reader.tables(table, "art", where)):
            at: _Where = (*where, ("art", number))
            reader.keys(art, _ART_KEYS, at)
            reader.require(art, _ART_KEYS, at)
            name = reader.text_value(art, "name", at)
            value = reader.number(art, "value", at, 0, MAX_VALUE)
            deduction = reader.number(art, "deduction", at, 0, MAX_PERCENT)
            art_names.add(name, at)
            pieces.append(Art(name, museum, value, deduction))
        if not pieces:
            raise reader.error(f"museum {museum!r} has no art", where, "art")
        museums[museum] = tuple(pieces)
    if not museums:
        raise reader.error("the catalog has no museums", (), "museums")
    return museums


def parse_catalog(text: str, source: str = "<string>") -> Catalog:
    """Parse and check a catalog's TOML text; ``source`` names it in errors.

    Raises:
        CatalogError: the text is not valid TOML or breaks a rule of the format.
    """
    data = toml_loads(text, source, CatalogError)
    reader = _Reader(text, source)
    reader.keys(data, _TOP_KEYS, ())
    for key in ("name", "version"):
        if key in data:
            reader.text_value(data, key, ())
    names = _Names(reader, "card")
    specialists = _deck(reader, data, "specialists", SPECIALIST, names)
    attributes = _deck(reader, data, "attributes", ATTRIBUTE, names)
    return Catalog(specialists, attributes, _museums(reader, data), source)


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load a catalog file; None loads the shipped default (``source`` is then ``"<default>"``).

    Raises:
        CatalogError: the file cannot be read or is not a valid catalog.
    """
    if path is None:
        shipped = SHIPPED
        return parse_catalog(shipped.read_text(encoding="utf-8"), "<default>")
    source = str(path)
    return parse_catalog(read_text_file(path, "catalog", CatalogError), source)


def catalog_from_json(data: dict[str, Any], source: str = "<stored>") -> Catalog:
    """The catalog a game was played with, from the JSON the store keeps of it (`to_json`)."""
    def deck(kind: str, cards: list[dict[str, Any]]) -> dict[str, Card]:
        return {c["name"]: Card(c["name"], kind, c["bonus"], c["copies"]) for c in cards}

    museums = {m: tuple(Art(a["name"], m, a["value"], a["deduction"]) for a in art)
               for m, art in data["museums"].items()}
    return Catalog(deck(SPECIALIST, data["specialists"]), deck(ATTRIBUTE, data["attributes"]),
                   museums, source)


@functools.cache
def default_catalog() -> Catalog:
    """The shipped default catalog, loaded once."""
    return load_catalog(None)
