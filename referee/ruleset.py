"""What a game is to the core: a `Ruleset`, handed to the session (docs/architecture.md).

The session, the store, the dice, undo, kept dice, `verify` and the exports know no game. A
game is a value of the `Ruleset` protocol below (boardgame.io's ``Game``: a config object run
by a core that knows no game), found by its id through the registry (`referee.games`). This
module holds the protocol and the few values every game shares: dice requests (`DieRequest`,
`NeedDice`), the dice a step rolled as the core sees them (`Rolled`), the result envelope
(`Result`), and the commands every game takes (`Undo`, `Reveal`).

A ruleset's `evolve` must accept the events the core adds to a step: ``seed_revealed``
(``{"seed": hex}``, the state's ``seed`` becomes it), ``kept_dropped`` and ``die_corrected``
(no change).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NotRequired, Protocol, TypedDict, TypeVar, runtime_checkable

from referee.dice import Roll

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class DieRequest:
    """An electronic roll the rules need before they can decide.

    Attributes:
        id: the die's id: its kept value (after an undo) waits for this id's next roll.
        die: what is rolled (``d6``, ``d10``, ``d100``, or ``pick`` for a card the box draws
            from `deck`); the ruleset's `read_die` turns a stream draw into its value.
        purpose: what it is rolled for; a kept die is reused only for the same purpose.
        sides: how many outcomes the stream draw has.
        player: who rolls it (None: the table).
        deck: for a box draw, the pile it draws from.
    """

    id: str
    die: str
    purpose: str
    sides: int
    player: str | None = None
    deck: str | None = None

    @property
    def key(self) -> str:
        """What a kept value of this die is kept under: the die, or ``pick:<deck>``."""
        return die_key(self.die, self.deck)


def die_key(die: str, deck: str | None) -> str:
    return die if deck is None else f"pick:{deck}"


@dataclass(frozen=True, slots=True)
class NeedDice:
    """The rules' answer when a command can go ahead once these electronic dice are rolled
    (any number at once); the command comes back through `Ruleset.with_dice`."""

    requests: tuple[DieRequest, ...]


@dataclass(frozen=True, slots=True)
class Rolled:
    """A die a step's events rolled, or a card they drew, as kept dice and `verify` see it.

    `roll` is None for a card named by hand (no die was rolled). `card` is the card a draw
    gave; `from_discards` says a box draw reshuffled the discards to draw from them.
    """

    id: str
    player: str | None
    key: str
    purpose: str
    roll: Roll | None
    card: str | None = None
    from_discards: bool = False
    event: Mapping[str, Any] | None = None  # the roll event, where there is one

    @property
    def deck(self) -> str | None:
        return self.key.removeprefix("pick:") if self.key.startswith("pick:") else None


class Result(TypedDict):
    """How a game ended (headless-protocol-games.md, "Every game")."""

    outcome: str  # won | lost
    winners: list[str]
    reason: str
    rule: str | None


def result_of(game_over: Mapping[str, Any]) -> Result:
    """The result envelope a ``game_over`` event carries (the common envelope)."""
    return Result(outcome=str(game_over.get("outcome")),
                  winners=list(game_over.get("winners") or []),
                  reason=str(game_over.get("reason")), rule=game_over.get("rule"))


class BgStatsScore(TypedDict):
    name: str
    score: str
    winner: bool
    start: bool
    rank: int
    role: str | None


class BgStats(TypedDict):
    """What a BG Stats play needs from a game (`referee.export` builds the file)."""

    name: str
    cooperative: bool
    highest_wins: bool
    about: str
    rounds: int
    scores: list[BgStatsScore]
    notes: list[str]
    bgg_id: NotRequired[int]  # the game's BoardGameGeek id, where it is known (else absent)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Which game a new game is, for the store: the ruleset's id and version, and the
    catalog it is played with (as `Ruleset.catalog_json` gives it)."""

    id: str
    version: str
    catalog: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Undo:
    """``undo``: take back the last step (its dice stay on the table for the redo)."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """``reveal``: reveal the game's dice seed now; electronic rolls stop for the rest of it."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game of the game file, as a ruleset's extra query reads it (`Queries`): its
    ruleset id, status (``playing``, ``over``, ``abandoned``), result envelope and the
    events of its first entry (the game's ``new_game``)."""

    id: int
    game: str
    status: str
    result: Mapping[str, Any] | None
    first_events: Sequence[Event]


class Queries(Protocol):
    """What a ruleset adds to answer extra read-only queries (optional: a ruleset without
    ``queries`` answers none). The session answers them without logging anything."""

    queries: tuple[str, ...]  # the query names, e.g. ("hall_of_fame",)

    def query(self, name: str, request: Mapping[str, Any], state: Any | None,
              stored: Sequence[StoredGame] | None) -> dict[str, Any]:
        """The answer's fields (``ok`` is added). `state` is this game's state in the
        session (None when another game is being played), `stored` this game's games in the
        session's game file (None without one). Raises BadRequest for a bad request."""


class GameState(Protocol):
    """What the core reads of any game's state."""

    @property
    def over(self) -> bool: ...

    @property
    def seed(self) -> str | None: ...  # hex, once revealed


class Settings(Protocol):
    """A table's house rules for a game (a settings file's ``[rules]``)."""

    def to_json(self) -> dict[str, object]: ...


class Ruleset(Protocol):
    """One game, as the core runs it. Every method is pure (no clock, no randomness, no I/O
    beyond reading the catalog and settings files it is given)."""

    id: str  # e.g. "gallery-grippers": new_game's `game`, the store's `game` column
    name: str  # e.g. "Gallery Grippers"
    version: str  # of the rules as this program implements them; stored with each game
    final_rule: str  # the rule that makes a result stand (undo after the end is refused)

    # ---- catalog, settings, the start -------------------------------------------------
    def load_catalog(self, path: str | None) -> Any:
        """The catalog file at `path` (None: the game's built-in one); raises CatalogError."""

    def catalog_json(self, catalog: Any) -> dict[str, Any]: ...

    def catalog_from_json(self, data: dict[str, Any]) -> Any:
        """The catalog a stored game was played with, from `catalog_json`'s output."""

    def load_settings(self, path: str) -> Settings:
        """A settings file's ``[rules]`` for this game; raises SettingsError."""

    def initial_state(self, catalog: Any) -> Any:
        """The state before any game (phase ``no_game``)."""

    # ---- commands -----------------------------------------------------------------------
    def parse(self, request: Any) -> Any:
        """A protocol request (without ``game``) as a command; raises BadRequest naming what
        is wrong, whatever `request` is (not even a dict)."""

    def command_json(self, command: Any) -> dict[str, Any]:
        """The command as logged, with the filled-in dice and commitment."""

    def starts_game(self, command: Any) -> bool:
        """Whether `command` is this game's new_game."""

    def start(self, command: Any, *, commitment: str, settings: Mapping[str, Any]) -> Any:
        """The new_game command with the game's dice commitment and the table's settings
        (the command's own overrides win over `settings`)."""

    def decide(self, state: Any, command: Any) -> list[Event] | NeedDice:
        """The events `command` produces, or `NeedDice`; raises Refusal if refused."""

    def with_dice(self, command: Any, dice: Mapping[str, tuple[Roll, str | None]]) -> Any:
        """`command` carrying the electronic dice it asked for: {die id: (roll, card)}."""

    def evolve(self, state: Any, event: Event) -> Any: ...

    def fold(self, state: Any, events: Sequence[Event]) -> Any: ...

    # ---- reading the state --------------------------------------------------------------
    def state_json(self, state: Any) -> dict[str, Any]:
        """The protocol's state: the common envelope (game, phase, pending, over, result,
        commitment, seed, next) and the game's own fields."""

    def result(self, state: Any) -> Result | None: ...

    def legal_actions(self, state: Any, player: str | None) -> list[dict[str, Any]]:
        """What `player` may send now, as protocol requests (``decide`` accepts each)."""

    def undo_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        """What undoing this step would take back, in words for the table."""

    def bgstats(self, state: Any) -> BgStats: ...

    # ---- dice ---------------------------------------------------------------------------
    def read_die(self, state: Any, request: DieRequest, draw: int) -> tuple[int, str | None]:
        """The value stream draw `draw` (0 <= draw < sides) gives `request`, and for a box
        draw the card it picks."""

    def sides(self, state: Any, die: str, deck: str | None) -> int:
        """How many outcomes a fresh roll of `die` (or a box draw from `deck`) has now."""

    def rolled(self, command: Mapping[str, Any], events: Sequence[Event]) -> list[Rolled]:
        """Every die rolled and card drawn in a step's events, in order (kept dice,
        `verify`)."""

    def purpose_words(self, purpose: str) -> str:
        """A purpose in words, e.g. "bypass" -> "bypass", "free" -> "free roll"."""

    # ---- kept cards ---------------------------------------------------------------------
    def renewed(self, events: Sequence[Event]) -> set[str]:
        """The piles these events make anew (a reshuffle): kept cards drawn before no
        longer apply to them."""

    def renew_rule(self) -> str | None:
        """The rule a ``kept_dropped`` event cites."""

    def kept_rule(self, purpose: str) -> str | None:
        """The rule a refusal cites when a typed or tray value, or a card named by hand, is
        sent where a die or card an undo kept waits (``die_kept``, ``card_kept``): the
        game's rule that undo never chooses a result, or the rule of that roll."""

    def bound_rule(self) -> str | None:
        """The rule a draw refused because a kept card of another pile binds it cites
        (``draw_bound``: the seen card's draw must be made from its pile)."""

    def holds(self, state: Any, deck: str, card: str, from_discards: bool) -> bool:
        """Whether a draw from `deck` now takes from the pile a kept `card` came from (the
        draw pile, or the discards it reshuffles) and that pile still holds it."""

    # ---- snapshots (the store keeps one every so many commands) -------------------------
    def snapshot_json(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON, exactly (not the protocol's view of it): with
        `state_from_snapshot` it gives back a state equal to `state` (referee.snapshot)."""

    def state_from_snapshot(self, data: dict[str, Any], catalog: Any) -> Any:
        """The state `snapshot_json` wrote, played with `catalog`; raises ValueError if
        `data` is not one."""


# ---- house rules as the table reads them (issue 39) ---------------------------------------

@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house-rule setting in the table's words: what it is about (`name`), each value in
    a few words (`says`) and what the table does under it, in one line (`explain`). Every
    front end that lets a table choose house rules, or shows the ones in force, words them
    from here; `key` (the settings file's and ``new_game``'s name) and the values themselves
    are for programs and are never shown."""

    key: str
    rule: str  # the rule it changes, e.g. "GAL-9"
    name: str
    says: Callable[[Any], str]
    explain: Callable[[Any], str]
    choices: tuple[object, ...] = ()  # the allowed values, the default first; () for a number

    def line(self, value: object) -> str:
        """The setting with `value`, in a line: "name: value — what it means (rule)"."""
        return f"{self.name}: {self.says(value)} — {self.explain(value)} ({self.rule})"


def worded(choices: Mapping[object, tuple[str, str]]) -> tuple[Callable[[Any], str],
                                                               Callable[[Any], str]]:
    """`says` and `explain` for a setting with a few values: {value: (words, explanation)}."""
    def says(value: Any) -> str:
        return choices[value][0] if value in choices else str(value)

    def explain(value: Any) -> str:
        return choices[value][1] if value in choices else ""

    return says, explain


def choice_rule(key: str, rule: str, name: str,
                choices: Mapping[object, tuple[str, str]]) -> HouseRule:
    """A `HouseRule` with a few values, each with its words and explanation."""
    says, explain = worded(choices)
    return HouseRule(key, rule, name, says, explain, tuple(choices))


@runtime_checkable
class DescribesHouseRules(Protocol):
    """What a game adds so a front end that knows no game (the web page) shows the house
    rules in force in the table's words."""

    def house_rules(self, state: Any) -> list[tuple[HouseRule, object]]:
        """Each setting (`HouseRule`) with its value in `state`, in the order to show them."""


@runtime_checkable
class NamesDice(Protocol):
    """What a game adds so a die no player rolls is named in words, not by its id, wherever
    the core words a die (a correction, the page's last roll): "ally die 1", "the table"."""

    def die_owner(self, die_id: str) -> str:
        """Whose the die `die_id` is, in words, for a die no player rolls."""


# ---- the table as a front end shows it (optional: web page, issue 17) ---------------------

@dataclass(frozen=True, slots=True)
class Figure:
    """One thing a front end shows about a player or a verdict, in the game's words."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table as the ruleset describes them: a colour name (or None), a
    status word (e.g. ``eliminated``; None when nothing to say) and the figures to show."""

    name: str
    color: str | None
    status: str | None
    figures: tuple[Figure, ...]


@runtime_checkable
class DescribesTable(Protocol):
    """What a game may add so a front end that knows no game (the web page) shows its table
    and verdicts in the game's own terms. A ruleset without it is shown from its state JSON."""

    def table(self, state: Any) -> list[Seat]:
        """Each player's state, in seat order."""

    def verdict(self, events: Sequence[Event]) -> tuple[str, list[Figure]] | None:
        """A step's verdict term by term (a title and the terms, the last one the outcome),
        or None if the step's events hold none."""


@runtime_checkable
class DescribesSteps(Protocol):
    """What a game adds so every front end says a logged step in the same words: the
    console's event log, the page's log and the plain log of `ui.trouble` all read
    `referee.words.step_words`, which asks this (issue 26: one describer)."""

    def step_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        """One accepted step (the command as logged and its events) in words for the
        table, in plain text (no markup): who did what, its dice and its outcome. The core's
        own events (``seed_revealed``, ``kept_dropped``, ...) are worded by
        `referee.words`, not here."""


@dataclass(frozen=True, slots=True)
class Panel:
    """A block of a game's board as a front end that knows no game shows it: a title and
    rows of cells (all rows of one panel have the same number of cells); with `header` the
    first row names the columns."""

    title: str
    rows: tuple[tuple[str, ...], ...]
    header: bool = False


@runtime_checkable
class DescribesBoard(Protocol):
    """What a game may add so the web page shows its board, not only its seats: the
    clock, the cities, the bag, a scoring table term by term ... each as a `Panel`."""

    def board(self, state: Any) -> list[Panel]:
        """The board's panels, in the order to show them (none before a game)."""


class HasJson(Protocol):
    """A catalog as a game keeps it: it writes itself as JSON (`Ruleset.catalog_json`)."""

    def to_json(self) -> dict[str, Any]: ...


StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
CatalogT = TypeVar("CatalogT", bound=HasJson)


@dataclass(frozen=True)
class GameFunctions(Generic[StateT, CommandT, CatalogT]):
    """A game's rules as its own module functions: what `GameRuleset` hands each call to
    (the game is a value of functions, as a boardgame.io game is a config object).

    Each field is the `Ruleset` method of the same name, but `state_json` (the game's own
    fields, without the common envelope) and `next_step` (the envelope's ``next`` line)."""

    load_catalog: Callable[[str | None], CatalogT]
    catalog_from_json: Callable[[dict[str, Any]], CatalogT]
    load_settings: Callable[[str], Settings]
    initial_state: Callable[[CatalogT], StateT]
    parse: Callable[[Any], CommandT]
    command_json: Callable[[CommandT], dict[str, Any]]
    decide: Callable[[StateT, CommandT], list[Event] | NeedDice]
    evolve: Callable[[StateT, Event], StateT]
    fold: Callable[[StateT, Sequence[Event]], StateT]
    state_json: Callable[[StateT], dict[str, Any]]
    next_step: Callable[[StateT], str]
    legal_actions: Callable[[StateT, str | None], list[dict[str, Any]]]
    undo_words: Callable[[Mapping[str, Any], Sequence[Event]], str]


class GameRuleset(Generic[StateT, CommandT, CatalogT]):
    """What every game's `Ruleset` does the same way, once: each call its `functions` answer
    is handed to them, and the state's JSON gets the common envelope (game, result, next).
    A game's class sets `functions` and writes only what differs (its start, its dice, its
    result, its snapshot, ...)."""

    id: str
    functions: GameFunctions[StateT, CommandT, CatalogT]

    # ---- catalog, settings, the start -------------------------------------------------
    def load_catalog(self, path: str | None) -> CatalogT:
        return self.functions.load_catalog(path)

    def catalog_json(self, catalog: CatalogT) -> dict[str, Any]:
        return catalog.to_json()

    def catalog_from_json(self, data: dict[str, Any]) -> CatalogT:
        return self.functions.catalog_from_json(data)

    def load_settings(self, path: str) -> Settings:
        return self.functions.load_settings(path)

    def initial_state(self, catalog: CatalogT) -> StateT:
        return self.functions.initial_state(catalog)

    # ---- commands -----------------------------------------------------------------------
    def parse(self, request: Any) -> CommandT:
        return self.functions.parse(request)

    def command_json(self, command: CommandT) -> dict[str, Any]:
        return self.functions.command_json(command)

    def decide(self, state: StateT, command: CommandT) -> list[Event] | NeedDice:
        return self.functions.decide(state, command)

    def evolve(self, state: StateT, event: Event) -> StateT:
        return self.functions.evolve(state, event)

    def fold(self, state: StateT, events: Sequence[Event]) -> StateT:
        return self.functions.fold(state, events)

    # ---- reading the state --------------------------------------------------------------
    def state_json(self, state: StateT) -> dict[str, Any]:
        return {**self.functions.state_json(state), "game": self.id,
                "result": self.result(state), "next": self.functions.next_step(state)}

    def result(self, state: StateT) -> Result | None:
        raise NotImplementedError  # each game's own

    def legal_actions(self, state: StateT, player: str | None) -> list[dict[str, Any]]:
        return self.functions.legal_actions(state, player)

    def undo_words(self, command: Mapping[str, Any], events: Sequence[Event]) -> str:
        return self.functions.undo_words(command, events)
