"""The A.R.T. Project's board data as a file: colours, symbols, dice faces and mission boards.

The rulebook prints none of the boards' numbers (cities, roads, the artwork track's threat
levels and ally costs): they are on the components. So they are data, in a TOML catalog
(format: ``docs/art-project.md``, "The catalog"); the built-in one is ``data/catalog.toml``.
A mission may leave out what the table has not entered yet: a game refuses to start on a
mission with no cities or no track (``catalog_incomplete``, naming the mission and the
field), and a mission with no roads is played in *trusted* mode (ART-16). Nothing is ever
filled in by guesswork.

`parse_catalog` raises `CatalogError` naming the file, the line (where it can be found) and
the field (``missions[2].track[0].threat``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import CatalogError
from referee.inputs import name_problem, nfc, same_name
from referee.tomlfile import locate_line, read_text_file, toml_loads

# The catalog shipped with the package, beside this module (read as a file: the package is
# always installed as files, and importlib.resources would cost every start ~3 ms).
SHIPPED = Path(__file__).with_name("data") / "catalog.toml"

BOARDS = ("japan", "egypt", "usa", "scandinavia", "polynesia", "rio")
SYMBOLS = ("film", "sculpture", "book", "painting", "artifact", "music")
DIRECTIONS = ("north", "south", "level")  # Egypt (ART-29): the way a road goes from a to b
THREADS = ("red", "beige")  # Scandinavia (ART-31)
TAGS = ("south", "north")  # Egypt's cities (ART-29)
EFFECTS = ("gain_fuel", "gain_radio", "gain_weapon", "lose_resources", "lose_clue",
           "agents")  # Scandinavia's city effects (ART-31)
MAX_NAME = 40
MAX_CITIES = 40
MAX_TRACK = 20
MAX_NUMBER = 99

_TOP = ("name", "version", "colours", "symbols", "dice", "missions")
_MISSION = ("id", "board", "name", "start", "cities", "roads", "track", "markers",
            "setup_artwork")
_CITY = ("name", "symbol", "agents", "tag", "effect")
_ROAD = ("a", "b", "dir", "thread", "free")
_SPACE = ("threat", "ally_cost", "symbol")


@dataclass(frozen=True, slots=True)
class City:
    name: str
    symbol: str | None = None
    agents: int | None = None  # at setup; None: the board's rule (ART-4, ART-29..33)
    tag: str | None = None  # Egypt: south | north
    effect: str | None = None  # Scandinavia: one of EFFECTS (ART-31)


@dataclass(frozen=True, slots=True)
class Road:
    a: str
    b: str
    dir: str | None = None  # Egypt: the way a -> b goes
    thread: str | None = None  # Scandinavia: red (2 fuel) | beige (1)
    free: bool = False  # Rio: a red dashed road


@dataclass(frozen=True, slots=True)
class Space:
    threat: int
    ally_cost: int
    symbol: str | None = None  # Rio: the district the space's artwork is collected in


@dataclass(frozen=True, slots=True)
class Mission:
    id: str
    board: str = "japan"
    name: str = ""
    start: str | None = None
    cities: tuple[City, ...] = ()
    roads: tuple[Road, ...] | None = None  # None: no map, trusted mode (ART-16)
    track: tuple[Space, ...] = ()
    markers: int | None = None  # None: 3, Polynesia 6 (ART-4, ART-32)
    setup_artwork: str | None = None  # Egypt's northernmost city (ART-29)

    def city(self, name: str) -> City | None:
        return next((c for c in self.cities if c.name == name), None)

    def missing(self) -> list[str]:
        """The fields a game on this mission cannot start without (ART-36)."""
        out = [f for f, v in (("cities", self.cities), ("start", self.start),
                              ("track", self.track)) if not v]
        if self.board == "egypt" and self.cities and any(c.tag is None for c in self.cities):
            out.append("cities[].tag")
        return out

    def to_json(self) -> dict[str, Any]:
        def strip(d: dict[str, Any]) -> dict[str, Any]:
            # (0 is a number the catalog holds, not a missing one: only None and False go)
            return {k: v for k, v in d.items() if v is not None and v is not False}
        return strip({
            "id": self.id, "board": self.board, "name": self.name or None, "start": self.start,
            "cities": [strip({"name": c.name, "symbol": c.symbol, "agents": c.agents,
                              "tag": c.tag, "effect": c.effect}) for c in self.cities],
            "roads": None if self.roads is None else [
                strip({"a": r.a, "b": r.b, "dir": r.dir, "thread": r.thread, "free": r.free})
                for r in self.roads],
            "track": [strip({"threat": s.threat, "ally_cost": s.ally_cost, "symbol": s.symbol})
                      for s in self.track],
            "markers": self.markers, "setup_artwork": self.setup_artwork})

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Mission:
        roads = d.get("roads")
        return cls(
            id=d["id"], board=d.get("board", "japan"), name=d.get("name", ""),
            start=d.get("start"), cities=tuple(City(**c) for c in d.get("cities", [])),
            roads=None if roads is None else tuple(Road(**r) for r in roads),
            track=tuple(Space(**s) for s in d.get("track", [])), markers=d.get("markers"),
            setup_artwork=d.get("setup_artwork"))


@dataclass(frozen=True)
class ArtCatalog:
    colours: tuple[str, ...]
    symbols: tuple[str, ...] = SYMBOLS
    faces: tuple[int, ...] | None = None  # the battle dice's faces; None: not given (ART-20)
    missions: Mapping[str, Mission] = field(default_factory=dict)
    source: str = "<built-in>"

    def to_json(self) -> dict[str, Any]:
        return {"colours": list(self.colours), "symbols": list(self.symbols),
                "dice": None if self.faces is None else {"faces": list(self.faces)},
                "missions": [m.to_json() for m in self.missions.values()]}


def catalog_from_json(data: Mapping[str, Any], source: str = "<stored>") -> ArtCatalog:
    dice = data.get("dice")
    return ArtCatalog(tuple(data["colours"]), tuple(data.get("symbols", SYMBOLS)),
                      None if not dice else tuple(dice["faces"]),
                      {m["id"]: Mission.from_json(m) for m in data.get("missions", [])},
                      source)


# ---- parsing ------------------------------------------------------------------------------

_Where = tuple[tuple[str, int], ...]


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def error(self, message: str, where: _Where, key: str | None = None) -> CatalogError:
        parts = [f"{n}[{i}]" for n, i in where] + ([key] if key else [])
        line = locate_line(self.text, list(where), key)
        if len(where) == 2:  # an entry of an inline array: `track = [{...}, {...}]`
            line = self._inline(where, key) or line
        return CatalogError(message, path=self.source, line=line, field=".".join(parts))

    def _inline(self, where: _Where, key: str | None) -> int | None:
        """The line where entry `where[1]` of an inline array starts (or its `key`)."""
        (table, i), (array, n) = where
        start = locate_line(self.text, [(table, i)], array)
        header = locate_line(self.text, [(table, i)])
        if start is None or start == header:
            return None  # written as [[table.array]] tables: locate_line found it
        lines = self.text.splitlines()
        depth, count, found = 0, -1, None
        for number in range(start - 1, len(lines)):
            text = lines[number].split("#", 1)[0]
            if number == start - 1:
                text = text.split("=", 1)[1] if "=" in text else text
            for char in text:
                if char in "[{":
                    depth += 1
                    if depth == 2:
                        count += 1
                        if count == n:
                            found = number + 1
                elif char in "]}":
                    depth -= 1
                if found is not None and key is None:
                    return found
            if found is not None:
                for later in range(found - 1, min(found + 3, len(lines))):
                    if key is not None and f"{key} =" in lines[later]:
                        return later + 1
                return found
            if depth == 0 and number >= start:
                break
        return None

    def keys(self, table: Any, allowed: Sequence[str], where: _Where) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.error("must be a table", where)
        unknown = sorted(set(table) - set(allowed))
        if unknown:
            raise self.error(f"unknown key {unknown[0]!r}; allowed: {', '.join(allowed)}",
                             where)
        return table

    def name(self, table: dict[str, Any], key: str, where: _Where, *,
             choices: Sequence[str] | None = None, required: bool = True) -> str | None:
        value = table.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str):
            raise self.error("must be a string" if key in table else "is missing", where, key)
        text = nfc(value.strip())
        problem = name_problem(text, MAX_NAME)
        if problem:
            raise self.error(f"the name {problem}", where, key)
        if choices is not None and text not in choices:
            raise self.error(f"must be one of {', '.join(choices)}, not {text!r}", where, key)
        return text

    def number(self, table: dict[str, Any], key: str, where: _Where, *, low: int = 0,
               required: bool = True) -> int | None:
        value = table.get(key)
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error("must be a whole number" if key in table else "is missing",
                             where, key)
        if not low <= value <= MAX_NUMBER:
            raise self.error(f"must be from {low} to {MAX_NUMBER}, not {value}", where, key)
        return value

    def tables(self, parent: dict[str, Any], key: str, where: _Where,
               limit: int) -> list[dict[str, Any]] | None:
        value = parent.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error("must be an array of tables", where, key)
        if len(value) > limit:
            raise self.error(f"has {len(value)} entries; at most {limit}", where, key)
        return value


def _names(reader: _Reader, data: dict[str, Any], key: str, limit: int) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not value or len(value) > limit:
        raise reader.error(f"must be a list of 1 to {limit} names", (), key)
    out: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        text = reader.name({"v": item}, "v", ())
        assert text is not None
        if same_name(text) in seen:
            raise reader.error(f"{text!r} is listed twice (entry {i})", (), key)
        seen.add(same_name(text))
        out.append(text)
    return tuple(out)


def _mission(reader: _Reader, m: dict[str, Any], where: _Where,
             symbols: tuple[str, ...]) -> Mission:
    reader.keys(m, _MISSION, where)
    ident = reader.name(m, "id", where)
    board = reader.name(m, "board", where, choices=BOARDS, required=False) or "japan"
    assert ident is not None
    cities: list[City] = []
    names: set[str] = set()
    for i, c in enumerate(reader.tables(m, "cities", where, MAX_CITIES) or []):
        at = (*where, ("cities", i))
        reader.keys(c, _CITY, at)
        name = reader.name(c, "name", at)
        assert name is not None
        if name in names:
            raise reader.error(f"city {name!r} is listed twice", at, "name")
        names.add(name)
        cities.append(City(
            name, reader.name(c, "symbol", at, choices=symbols, required=False),
            reader.number(c, "agents", at, required=False),
            reader.name(c, "tag", at, choices=TAGS, required=False),
            reader.name(c, "effect", at, choices=EFFECTS, required=False)))
    start = reader.name(m, "start", where, required=False)
    if start is not None and cities and start not in names:
        raise reader.error(f"the start {start!r} is not one of the mission's cities", where,
                           "start")
    roads = _roads(reader, m, where, names)
    track: list[Space] = []
    for i, s in enumerate(reader.tables(m, "track", where, MAX_TRACK) or []):
        at = (*where, ("track", i))
        reader.keys(s, _SPACE, at)
        threat, cost = reader.number(s, "threat", at), reader.number(s, "ally_cost", at)
        assert threat is not None and cost is not None
        track.append(Space(threat, cost,
                           reader.name(s, "symbol", at, choices=symbols, required=False)))
    art = reader.name(m, "setup_artwork", where, required=False)
    if art is not None and art not in names:
        raise reader.error(f"{art!r} is not one of the mission's cities", where,
                           "setup_artwork")
    return Mission(ident, board, reader.name(m, "name", where, required=False) or "", start,
                   tuple(cities), roads, tuple(track),
                   reader.number(m, "markers", where, low=1, required=False), art)


def _roads(reader: _Reader, m: dict[str, Any], where: _Where,
           names: set[str]) -> tuple[Road, ...] | None:
    value = m.get("roads")
    if value is None:
        return None
    if not isinstance(value, list):
        raise reader.error("must be an array of [a, b] pairs or road tables", where, "roads")
    roads: list[Road] = []
    for i, r in enumerate(value):
        at = (*where, ("roads", i))
        if isinstance(r, list):
            if len(r) != 2:
                raise reader.error("a road is [a, b]: two city names", at)
            r = {"a": r[0], "b": r[1]}
        reader.keys(r, _ROAD, at)
        a, b = reader.name(r, "a", at), reader.name(r, "b", at)
        for end in (a, b):
            if end not in names:
                raise reader.error(f"{end!r} is not one of the mission's cities", at)
        if a == b:
            raise reader.error("a road joins two different cities", at)
        free = r.get("free", False)
        if not isinstance(free, bool):
            raise reader.error("must be true or false", at, "free")
        assert a is not None and b is not None
        roads.append(Road(a, b, reader.name(r, "dir", at, choices=DIRECTIONS, required=False),
                          reader.name(r, "thread", at, choices=THREADS, required=False), free))
    return tuple(roads)


def parse_catalog(text: str, source: str = "<string>") -> ArtCatalog:
    reader = _Reader(text, source)
    data = reader.keys(toml_loads(text, source, CatalogError), _TOP, ())
    colours = _names(reader, data, "colours", 12)
    symbols = _names(reader, data, "symbols", 12) if "symbols" in data else SYMBOLS
    faces: tuple[int, ...] | None = None
    if "dice" in data:
        dice = reader.keys(data["dice"], ("faces",), (("dice", 0),))
        raw = dice.get("faces")
        if (not isinstance(raw, list) or not 2 <= len(raw) <= 20
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99
                           for v in raw)):
            raise CatalogError("must be a list of 2 to 20 whole numbers from 0 to 99",
                               path=source, line=locate_line(text, [("dice", None)], "faces"),
                               field="dice.faces")
        faces = tuple(raw)
    missions: dict[str, Mission] = {}
    for i, m in enumerate(reader.tables(data, "missions", (), 50) or []):
        mission = _mission(reader, m, (("missions", i),), symbols)
        if mission.id in missions:
            raise reader.error(f"mission {mission.id!r} is listed twice", (("missions", i),),
                               "id")
        missions[mission.id] = mission
    if not missions:
        raise CatalogError("a catalog needs at least one [[missions]] table", path=source,
                           field="missions")
    return ArtCatalog(colours, symbols, faces, missions, source)


def load_catalog(path: str | Path | None = None) -> ArtCatalog:
    if path is None:
        return default_catalog()
    return parse_catalog(read_text_file(path, "catalog", CatalogError), str(path))


@functools.cache
def default_catalog() -> ArtCatalog:
    text = SHIPPED.read_text("utf-8")
    return parse_catalog(text, "<built-in art-project catalog>")
