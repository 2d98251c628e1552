"""Gallery Grippers' events as TypedDicts: the names and fields the protocol fixes
(docs/protocol.md, "Events"). The rules build plain dicts (canonical JSON for the hash chain);
these types name them for readers and mypy, and a test holds every event of these types to
exactly these keys."""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class RollEvent(TypedDict):
    type: Literal["roll"]
    player: str | None
    id: str  # the die id: the player, or "table"
    purpose: str
    die: str
    value: int
    source: str
    via: str | None
    index: int | None
    sides: int | None
    kept: bool


class GameStarted(TypedDict):
    type: Literal["game_started"]
    players: list[dict[str, str]]
    rules: dict[str, Any]
    commitment: str
    catalog: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    winner: str | None
    reason: str
    rule: str
    outcome: str  # won | lost: the result envelope
    winners: list[str]


class Drawn(TypedDict):
    type: Literal["drawn"]
    player: str
    deck: str
    card: str
    source: str  # box | physical


class DeckReshuffled(TypedDict):
    type: Literal["deck_reshuffled"]
    deck: str
    cards: int
    rule: str


class Sold(TypedDict):
    type: Literal["sold"]
    player: str
    pieces: list[str]
    face_value: int
    fence_bonus: int
    price: int
    money: int


TYPED: dict[str, type] = {"roll": RollEvent, "game_started": GameStarted,
                          "game_over": GameOver, "drawn": Drawn,
                          "deck_reshuffled": DeckReshuffled, "sold": Sold}
