"""A game state as JSON and back, exactly: what the store's snapshots keep (docs/store.md).

Knows no game. A ruleset's `snapshot_json` / `state_from_snapshot` (referee.ruleset) call
`encode` / `decode` with the classes its state is made of: frozen dataclasses, enums,
tuples, mappings (kept as ordered pairs, so their order and key types come back too), lists,
strings, numbers, booleans and None. The catalog the state refers to is not copied: it is
written as a marker and the catalog the game is played with is put back in its place.

Only the classes the ruleset names can come back out of a snapshot (nothing is imported by
name), and a value of any other type is refused when the snapshot is written, so a state
that could not be rebuilt exactly is never stored as if it could.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

__all__ = ["Codec", "SnapshotError"]


class SnapshotError(ValueError):
    """A value the codec cannot write, or a snapshot it cannot read."""


class Codec:
    """Encodes and decodes the values of one game's state (its classes, by name)."""

    def __init__(self, classes: Iterable[type]) -> None:
        self._classes: dict[str, type] = {}
        for cls in classes:
            if not (dataclasses.is_dataclass(cls) or issubclass(cls, Enum)):
                raise TypeError(f"{cls.__name__} is neither a dataclass nor an enum")
            if cls.__name__ in self._classes:
                raise TypeError(f"two classes named {cls.__name__}")
            self._classes[cls.__name__] = cls

    def encode(self, value: Any, *, catalog: Any = None) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, float)):
            return value
        if catalog is not None and value is catalog:
            return {"$": "catalog"}
        if isinstance(value, Enum):
            self._known(type(value))
            return {"$": type(value).__name__, "v": value.value}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            self._known(type(value))
            return {"$": type(value).__name__,
                    "f": {f.name: self.encode(getattr(value, f.name), catalog=catalog)
                          for f in dataclasses.fields(value) if f.init}}
        if isinstance(value, tuple):
            return {"$": "tuple", "v": [self.encode(v, catalog=catalog) for v in value]}
        if isinstance(value, list):
            return [self.encode(v, catalog=catalog) for v in value]
        if isinstance(value, Mapping):
            return {"$": "map", "v": [[self.encode(k, catalog=catalog),
                                       self.encode(v, catalog=catalog)]
                                      for k, v in value.items()]}
        raise SnapshotError(f"cannot keep a {type(value).__name__} in a snapshot")

    def decode(self, data: Any, *, catalog: Any = None) -> Any:
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self.decode(v, catalog=catalog) for v in data]
        if not isinstance(data, dict) or not isinstance(data.get("$"), str):
            raise SnapshotError(f"not a snapshot value: {str(data)[:60]}")
        tag = data["$"]
        if tag == "catalog":
            return catalog
        if tag == "tuple":
            return tuple(self.decode(v, catalog=catalog) for v in data["v"])
        if tag == "map":
            return {self.decode(k, catalog=catalog): self.decode(v, catalog=catalog)
                    for k, v in data["v"]}
        cls = self._classes.get(tag)
        if cls is None:
            raise SnapshotError(f"a snapshot names an unknown class {tag!r}")
        if issubclass(cls, Enum):
            return cls(data["v"])
        fields = data["f"]
        return cls(**{k: self.decode(v, catalog=catalog) for k, v in fields.items()})

    def _known(self, cls: type) -> None:
        if self._classes.get(cls.__name__) is not cls:
            raise SnapshotError(f"{cls.__name__} is not one of the game's snapshot classes")


def classes_of(*modules: Any) -> list[type]:
    """Every dataclass and enum defined in `modules` (a ruleset's state modules)."""
    out: list[type] = []
    for module in modules:
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == module.__name__
                    and (dataclasses.is_dataclass(value) or issubclass(value, Enum))):
                out.append(value)
    return out
