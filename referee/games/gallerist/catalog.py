"""The Gallerist's numbers and names as data (GAL-25; format: docs/gallerist.md, "Catalog").

The player-aid page gives few numbers; everything it leaves out is optional here, and where a
number is absent the box asks the table and records the answer as entered (it never invents
one). ``parse_catalog`` checks a TOML text and raises ``CatalogError`` naming the file, the
line (where it can be found) and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import CatalogError
from referee.inputs import name_problem, nfc, same_name
from referee.tomlfile import locate_line, read_text_file, toml_loads

# The catalog shipped with the package, beside this module (read as a file: the package is
# always installed as files, and importlib.resources would cost every start ~3 ms).
SHIPPED = Path(__file__).with_name("data") / "catalog.toml"

MAX_NAME = 40
MAX_COUNT = 10_000  # visitors in a bag, desks, positions: far beyond any edition
COLOURS = ("red", "blue")  # an artist's colour (GAL-2)
SEATS = 4  # The Gallerist seats 1 to 4 players (GAL-1)
# The players' colours when a catalog names none. The player-aid page does not name them:
# neutral labels (none of them a visitor's or an artist's colour), one per seat.
PLAYER_COLOURS = ("yellow", "green", "purple", "orange")
CELEBRITY_FAME = 19  # GAL-11
_TOP = ("name", "version", "locations", "desks", "ticket_colours", "visitor_colours",
        "collector", "bag", "fame_icons", "sale_value", "influence_money", "artists",
        "player_colours")
_REQUIRED = ("locations", "ticket_colours", "artists")


@dataclass(frozen=True, slots=True)
class Artist:
    name: str
    form: str
    colour: str  # red | blue
    fame: int | None  # printed initial fame (None: the table enters it at discovery)


@dataclass(frozen=True)
class Catalog:
    """A whole, checked catalog. `None` (or an empty tuple) marks a number it does not have."""

    locations: tuple[str, ...]  # the first four are the starting locations (GAL-4)
    ticket_colours: tuple[str, ...]
    artists: tuple[Artist, ...]
    visitor_colours: tuple[str, ...] = ()  # () : the ticket colours
    collector: str = "white"
    desks: int | None = None
    bag: int | Mapping[str, int] | None = None  # visitors in the bag before setup removals
    fame_icons: tuple[int, ...] = ()  # influence positions with a fame icon (GAL-9)
    sale_value: tuple[tuple[int, int], ...] = ()  # (from fame, value), ascending (GAL-19)
    influence_money: tuple[tuple[int, int], ...] = ()  # (from influence, money) (GAL-23)
    name: str = "The Gallerist"
    source: str = "<built-in>"
    player_colours: tuple[str, ...] = PLAYER_COLOURS  # one per seat at least (GAL-1)

    @property
    def colours(self) -> tuple[str, ...]:
        """The visitor colours (the ticket colours unless the catalog names others)."""
        return self.visitor_colours or self.ticket_colours

    @property
    def start_locations(self) -> tuple[str, ...]:
        return self.locations[:4]

    @property
    def forms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.form for a in self.artists))

    def artist(self, name: str) -> Artist | None:
        return next((a for a in self.artists if a.name == name), None)

    def value_at(self, fame: int) -> int | None:
        """A work's sale value at `fame` (GAL-19), or None without the table."""
        return _step(self.sale_value, fame)

    def influence_value(self, influence: int) -> int | None:
        """The final money for an influence position (GAL-23), or None without the table."""
        return _step(self.influence_money, influence)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "locations": list(self.locations),
            "ticket_colours": list(self.ticket_colours),
            "visitor_colours": list(self.visitor_colours), "collector": self.collector,
            "player_colours": list(self.player_colours),
            "artists": [{"name": a.name, "form": a.form, "colour": a.colour, "fame": a.fame}
                        for a in self.artists],
            "fame_icons": list(self.fame_icons),
            "sale_value": [{"fame": f, "value": v} for f, v in self.sale_value],
            "influence_money": [{"influence": i, "money": m} for i, m in self.influence_money],
            "desks": self.desks, "bag": dict(self.bag) if isinstance(self.bag, Mapping)
            else self.bag}
        return out


def _step(table: tuple[tuple[int, int], ...], at: int) -> int | None:
    """The value of the last row whose threshold is at or below `at` (None: no table, or
    below the first row)."""
    found = None
    for threshold, value in table:
        if threshold <= at:
            found = value
    return found


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def error(self, message: str, key: str, table: str | None = None) -> CatalogError:
        line = locate_line(self.text, [(table, None)] if table else [], key) if self.text \
            else None
        if line is None and table:
            line = locate_line(self.text, [(table, 0)]) if self.text else None
        return CatalogError(message, path=self.source, line=line, field=key)

    def count(self, value: object, key: str, low: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"must be a whole number, not {value!r}", key)
        if not low <= value <= MAX_COUNT:
            raise self.error(f"must be from {low} to {MAX_COUNT:,} (got {value})", key)
        return value

    def name(self, value: object, key: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"must be text, not {value!r}", key)
        text = nfc(value.strip())
        problem = name_problem(text, MAX_NAME)
        if problem:
            raise self.error(f"the name {problem}", key)
        return text

    def names(self, value: object, key: str, *, at_least: int = 1) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.error(f"must be a list of names, not {value!r}", key)
        out = tuple(self.name(v, f"{key}[{i}]") for i, v in enumerate(value))
        if len(out) < at_least:
            raise self.error(f"needs at least {at_least} names (got {len(out)})", key)
        seen: set[str] = set()
        for i, n in enumerate(out):
            if same_name(n) in seen:
                raise self.error(f"{n!r} is named twice", f"{key}[{i}]")
            seen.add(same_name(n))
        return out

    def steps(self, value: object, key: str, at: str, what: str) -> tuple[tuple[int, int], ...]:
        if not isinstance(value, list):
            raise self.error(f"must be a list of {{{at}, {what}}} tables", key)
        rows: list[tuple[int, int]] = []
        for i, row in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(row, dict) or set(row) != {at, what}:
                raise self.error(f"must be a table with exactly {at!r} and {what!r}", where)
            rows.append((self.count(row[at], f"{where}.{at}"),
                         self.count(row[what], f"{where}.{what}")))
        if [r[0] for r in rows] != sorted({r[0] for r in rows}):
            raise self.error(f"rows must go up by {at}, each {at} once", key)
        return tuple(rows)


def parse_catalog(text: str, source: str = "<string>") -> Catalog:
    data = toml_loads(text, source, CatalogError)
    return catalog_from_data(data, source, text)


def catalog_from_data(data: Mapping[str, Any], source: str, text: str = "") -> Catalog:
    """A checked `Catalog` from decoded TOML (or stored JSON); raises CatalogError."""
    r = _Reader(text, source)
    for key in data:
        if key not in _TOP:
            raise r.error(f"unknown key; the keys are {', '.join(_TOP)}", str(key))
    for key in _REQUIRED:
        if key not in data:
            raise r.error("is missing (it has no default)", key)
    locations = r.names(data["locations"], "locations", at_least=4)
    tickets = r.names(data["ticket_colours"], "ticket_colours")
    visitors = r.names(data.get("visitor_colours", []), "visitor_colours", at_least=0)
    colours = visitors or tickets
    collector = r.name(data.get("collector", "white"), "collector")
    if collector not in colours:
        raise r.error(f"{collector!r} is not one of the visitor colours "
                      f"({', '.join(colours)})", "collector")
    artists = _artists(r, data["artists"])
    bag = _bag(r, data.get("bag"), colours)
    desks = None if data.get("desks") is None else r.count(data["desks"], "desks", low=2)
    icons = data.get("fame_icons", [])
    if not isinstance(icons, list):
        raise r.error("must be a list of influence positions", "fame_icons")
    fame_icons = tuple(r.count(v, f"fame_icons[{i}]") for i, v in enumerate(icons))
    if list(fame_icons) != sorted(set(fame_icons)):
        raise r.error("positions must go up, each once", "fame_icons")
    seats = r.names(data.get("player_colours", list(PLAYER_COLOURS)), "player_colours",
                    at_least=SEATS)
    return Catalog(
        player_colours=seats,
        locations=locations, ticket_colours=tickets, artists=artists, visitor_colours=visitors,
        collector=collector, desks=desks, bag=bag, fame_icons=fame_icons,
        sale_value=r.steps(data.get("sale_value", []), "sale_value", "fame", "value"),
        influence_money=r.steps(data.get("influence_money", []), "influence_money",
                                "influence", "money"),
        name=r.name(data.get("name", "The Gallerist"), "name"), source=source)


def _artists(r: _Reader, value: object) -> tuple[Artist, ...]:
    if not isinstance(value, list) or not value:
        raise r.error("must be [[artists]] tables, at least one", "artists")
    out: list[Artist] = []
    for i, row in enumerate(value):
        where = f"artists[{i}]"
        if not isinstance(row, dict):
            raise r.error("must be a table", where)
        extra = set(row) - {"name", "form", "colour", "fame"}
        if extra:
            raise r.error(f"unknown key(s) {', '.join(sorted(extra))}; the keys are name, "
                          "form, colour, fame", where)
        for key in ("name", "form", "colour"):
            if key not in row:
                raise r.error("is missing", f"{where}.{key}")
        colour = row["colour"]
        if colour not in COLOURS:
            raise r.error(f"must be \"red\" or \"blue\", not {colour!r}", f"{where}.colour")
        fame = row.get("fame")
        out.append(Artist(r.name(row["name"], f"{where}.name"), r.name(row["form"],
                          f"{where}.form"), str(colour),
                          None if fame is None else _fame(r, fame, f"{where}.fame")))
    names = [same_name(a.name) for a in out]
    if len(set(names)) != len(names):
        raise r.error("two artists have the same name", "artists")
    return tuple(out)


def _fame(r: _Reader, value: object, key: str) -> int:
    fame = r.count(value, key)
    if fame > CELEBRITY_FAME:
        raise r.error(f"fame goes up to {CELEBRITY_FAME} (got {fame})", key)
    return fame


def _bag(r: _Reader, value: object, colours: tuple[str, ...]) -> int | dict[str, int] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        unknown = [c for c in value if c not in colours]
        if unknown:
            raise r.error(f"{unknown[0]!r} is not a visitor colour ({', '.join(colours)})",
                          "bag")
        return {c: r.count(n, f"bag.{c}") for c, n in value.items()}
    return r.count(value, "bag")


def load_catalog(path: str | Path | None = None) -> Catalog:
    """The catalog at `path`, or the built-in one (``data/catalog.toml``)."""
    if path is None:
        shipped = SHIPPED
        return parse_catalog(shipped.read_text(encoding="utf-8"), "<built-in gallerist>")
    return parse_catalog(read_text_file(path, "catalog", CatalogError), str(path))


def catalog_from_json(data: Mapping[str, Any]) -> Catalog:
    """The catalog a stored game was played with (`Catalog.to_json`'s output)."""
    raw = {k: v for k, v in data.items() if v is not None and v != []}
    raw["artists"] = [{k: v for k, v in a.items() if v is not None} for a in data["artists"]]
    return catalog_from_data(raw, "<stored>")
