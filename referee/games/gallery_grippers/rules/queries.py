"""What the front ends ask of Gallery Grippers: pure functions of the state (or the log).

A figure a screen shows is asked here, never worked out again in a front end, and the rules
compute the same figure with the same function (the sale price in `play.sell`, the bypass sum
in `obstacle.bypass`). What a player may do now is `legal_actions`, found by asking `decide`
(a candidate it refuses is not legal), so legality is decided in one place: the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from referee.dice import die_range
from referee.errors import Refusal
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.catalog import Art
from referee.games.gallery_grippers.state import GameState, Phase


class Decision(StrEnum):
    """The decisions the rules hold open (a `pending` event's ``decision``)."""

    TIEBREAK = "tiebreak"  # GG-3: the table says who won the tie for first
    TILE = "tile"  # GG-4: the movement roll is made; where did the pawn land?
    OBSTACLE = "obstacle"  # GG-6: meet it (bypass)
    CAUGHT = "caught"  # GG-10: caught with art and no strike yet: ditch or keep
    SECOND_STRIKE = "second_strike"  # GG-10: leave the premises or re-enter
    REUP = "reup"  # GG-18: a short hand rolls a d6
    DRAW = "draw"  # GG-17: cards to draw


# The decisions a player answers with `choose` (GG-10).
CHOICE_DECISIONS = (Decision.CAUGHT, Decision.SECOND_STRIKE)
DECKS = ("specialist", "attribute")

# Tiles (GG-4, GG-5, GG-12).
INSIDE_TILES = ("security", "alarm", "art", "plain", "exit")  # a pawn inside a museum
ONLY_INSIDE = ("security", "alarm", "art")  # from outside, name the museum they are in
ENTERING_TILES = (*ONLY_INSIDE, "plain")  # from outside, naming a museum enters it
OUTSIDE_TILES = ("airport", "recruitment", "trading", "black_market", "plain")
OBSTACLE_TILES = ("security", "alarm")


# ---- figures ------------------------------------------------------------------------------

def card_bonus(state: GameState, name: str) -> int:
    """A card's bonus as the catalog says (GG-19); 0 for a name the catalog does not know."""
    card = state.catalog.card(name)
    return card.bonus if card else 0


def cards_left(state: GameState, deck: str | None = None) -> int:
    """Cards a draw can still come from: a deck's pile and its discards (both decks: None)."""
    decks = (deck,) if deck else DECKS
    return sum(sum(state.piles.get(d, {}).values()) + sum(state.discards.get(d, {}).values())
               for d in decks)


def draw_counts(state: GameState, deck: str) -> Mapping[str, int]:
    """The pile a draw from `deck` takes from, as card -> copies: the draw pile, or its
    discards (reshuffled) once it is empty (GG-17)."""
    pile = state.piles.get(deck, {})
    return pile if sum(pile.values()) else state.discards.get(deck, {})


@dataclass(frozen=True, slots=True)
class Sale:
    """Selling pieces at the black market (GG-13): face value plus the fence bonus."""

    pieces: tuple[str, ...]
    face: int
    bonus: int
    money_before: int
    win_money: int

    # Each property's figure is a plain function below: mutmut mutates no decorated function.
    @property
    def extra(self) -> int:
        """Pieces beyond the first: each earns the fence bonus."""
        return _sale_extra(self)

    @property
    def price(self) -> int:
        return _sale_price(self)

    @property
    def money_after(self) -> int:
        return _sale_money_after(self)

    @property
    def wins(self) -> bool:
        """The sale reaches the win money: the game ends (GG-14)."""
        return _sale_wins(self)


def _sale_extra(sale: Sale) -> int:
    return max(len(sale.pieces) - 1, 0)


def _sale_price(sale: Sale) -> int:
    return sale.face + sale.bonus


def _sale_money_after(sale: Sale) -> int:
    return sale.money_before + _sale_price(sale)


def _sale_wins(sale: Sale) -> bool:
    return _sale_money_after(sale) >= sale.win_money


def sale_price(state: GameState, player: str, pieces: Sequence[str] | None = None) -> Sale:
    """The sale of `pieces` (names of held art; None: all of it) by `player` (GG-13).
    Names the player does not hold count for nothing (the rules refuse them)."""
    p = state.player(player)
    held: dict[str, Art] = {a.name: a for a in p.art}
    names = tuple(held) if pieces is None else tuple(pieces)
    face = sum(held[n].value for n in names if n in held)
    extra = max(len(names) - 1, 0)
    return Sale(names, face, state.rules.fence_bonus_per_extra_piece * extra, p.money,
                state.rules.win_money)


@dataclass(frozen=True, slots=True)
class BypassTerms:
    """An obstacle's sum before the roll (GG-8): roll + specialist + attribute - art."""

    specialist: str | None
    specialist_bonus: int
    attribute: str | None
    attribute_bonus: int
    deduction: int  # every carried piece's deduction
    target: int
    low: int  # the faces the percentile dice show (1-100, or 0-99: GG-7)
    high: int

    # Each property's figure is a plain function below: mutmut mutates no decorated function.
    @property
    def base(self) -> int:
        """What the cards and the art add to the roll."""
        return _terms_base(self)

    def total(self, roll: int) -> int:
        return roll + _terms_base(self)

    def succeeds(self, roll: int) -> bool:
        return self.total(roll) >= self.target

    @property
    def need(self) -> int | None:
        """The lowest face that bypasses; None when no face the dice can show does. A face
        of `low` or less means any roll bypasses."""
        return _terms_need(self)

    @property
    def certain(self) -> bool:
        """Every face bypasses."""
        return _terms_certain(self)


def _terms_base(t: BypassTerms) -> int:
    return t.specialist_bonus + t.attribute_bonus - t.deduction


def _terms_need(t: BypassTerms) -> int | None:
    need = t.target - _terms_base(t)
    if need > t.high:
        return None
    return max(need, t.low)


def _terms_certain(t: BypassTerms) -> bool:
    return _terms_need(t) == t.low


def bypass_terms(state: GameState, player: str, specialist: str | None,
                 attribute: str | None) -> BypassTerms:
    """The bypass sum with these cards played (None: no card of that kind)."""
    p = state.player(player)
    faces = die_range("d100", state.rules.percentile)
    return BypassTerms(
        specialist, card_bonus(state, specialist) if specialist else 0,
        attribute, card_bonus(state, attribute) if attribute else 0,
        p.deduction, state.rules.bypass_target, faces.start, faces.stop - 1)


def bypass_need(state: GameState, player: str, specialist: str | None,
                attribute: str | None) -> int | None:
    """The lowest percentile face that bypasses (None: none can)."""
    return bypass_terms(state, player, specialist, attribute).need


# ---- what a player may do now -------------------------------------------------------------

def _candidates(state: GameState, player: str | None) -> list[c.Command]:
    """Everything worth asking `decide` about; generous: the rules sort it out."""
    if player is None:
        ties = [q for q in state.pending if q.decision == Decision.TIEBREAK]
        return [c.TurnOrder(), *(c.Tiebreak(w) for q in ties for w in q.options)]
    if state.index_of(player) is None:
        return []
    p = state.player(player)
    out: list[c.Command] = [c.MoveRoll(player)]
    for tile in c.TILES:
        out.append(c.Move(player, tile))
        out += [c.Move(player, tile, m) for m in state.museums]
    specialists = [None, *dict.fromkeys(p.specialists)]
    attributes = [None, *dict.fromkeys(p.attributes)]
    out += [c.Bypass(player, (s,) if s else (), (a,) if a else ())
            for s in specialists for a in attributes]
    out += [c.Choose(player, choice) for choice in c.CHOICES]
    out += [c.Steal(player, art) for pieces in state.museums.values() for art in pieces]
    out += [c.Sell(player), *(c.Sell(player, (a.name,)) for a in p.art)]
    for deck in DECKS:
        out.append(c.Draw(player, deck))
        out += [c.Draw(player, deck, card) for card in sorted(draw_counts(state, deck))]
    out.append(c.Reup(player))
    for q in state.players:
        out += [c.Trade(player, q.name, give=(a,)) for a in dict.fromkeys(p.attributes)]
        out += [c.Trade(player, q.name, get=(a,)) for a in dict.fromkeys(q.attributes)]
    out.append(c.EndTurn(player))
    return out


def legal_actions(state: GameState, player: str | None) -> list[c.Command]:
    """What `player` may do now (None: the table's own steps, the turn-order roll and the
    tie-break), as boardgame.io's `enumerate` lists moves: each command the rules accept in
    `state`. A command without dice (roll None) means "the box rolls, or the table's die";
    a draw without a card means "the box draws". Sales list all the art and each piece
    alone; trades list each card that could change hands alone, per partner. Dealing a
    starting hand (a free choice of six cards) and table commands (new game, free rolls,
    undo, reveal) are not listed."""
    from referee.games.gallery_grippers.rules import decide  # the rules import this module

    last = _last_asked[0]  # one read: another thread may be replacing it
    if last is not None and last[0] is state and last[1] == player:
        return list(last[2])  # a screen asks again for the state it just asked about
    out: list[c.Command] = []
    if state.phase in (Phase.SETUP, Phase.PLAYING):
        for command in _candidates(state, player):
            try:
                decide(state, command)
            except Refusal:
                continue
            out.append(command)
    _last_asked[0] = (state, player, tuple(out))
    return out


# The last answer of `legal_actions` (states are immutable: the same object, the same answer).
_last_asked: list[tuple[GameState, str | None, tuple[c.Command, ...]] | None] = [None]


def can(state: GameState, player: str, command: type) -> bool:
    """Whether `player` may now send some command of this type (Steal, Sell, Trade, Draw...)."""
    return any(isinstance(a, command) for a in legal_actions(state, player))


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a pawn may land now: a tile, outside (no museums) or in one of `museums`."""

    tile: str
    museums: tuple[str, ...] = ()


def landings(state: GameState, player: str) -> list[Landing]:
    """Where `player`'s pawn may land now, from the legal moves (GG-4, GG-5, GG-12): a tile
    once without a museum, and once more with the museums it may be in when one must or may
    be named. Inside a museum, naming it changes nothing: its tiles are listed once."""
    plain: dict[str, None] = {}
    named: dict[str, dict[str, None]] = {}
    inside = state.index_of(player) is not None and state.player(player).where is not None
    for a in legal_actions(state, player):
        if isinstance(a, c.Move):
            if a.museum is None:
                plain[a.tile] = None
            elif not inside:
                named.setdefault(a.tile, {})[a.museum] = None
    return [*(Landing(t) for t in plain), *(Landing(t, tuple(m)) for t, m in named.items())]


# ---- undo ----------------------------------------------------------------------------------

class Step(Protocol):
    """A log entry (`referee.session.LogEntry`): what the rules need to read of it."""

    seq: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    undone: bool


@dataclass(frozen=True, slots=True)
class UndoPreview:
    """The step an undo would take back, in words."""

    step: Step
    what: str  # the command's name in words: "move", "end turn"
    player: str | None
    detail: str  # a few words: "to art", "roll 57", "Lookout"
    dice_stay: bool  # the box's dice of that step stay on the table for its redo


def _detail(name: str, cmd: dict[str, Any]) -> str:
    """A few words on a step of command `name` ("" for a command said by its name alone).
    A plain function, not a table of lambdas: mutmut mutates no code outside a function."""
    if name == "move":
        return f"to {cmd['tile'].replace('_', ' ')}"
    if name == "bypass":
        return f"roll {cmd['roll']['value']}" if cmd.get("roll") else ""
    if name == "deal":
        return "starting hand"
    if name == "draw":
        return str(cmd.get("card") or cmd["deck"])
    if name == "steal":
        return str(cmd["art"])
    if name == "choose":
        return str(cmd["choice"])
    if name == "tiebreak":
        return f"winner {cmd['winner']}"
    if name == "end_turn":
        return "passing the turn"
    return ""


def undo_preview(step: Step | None) -> UndoPreview | None:
    """`step` (the one an undo would take back now, `Session.undo_target()`; None: nothing
    to undo) in words. Its electronic dice stay on the table for the redo."""
    if step is None:
        return None
    name = str(step.command["cmd"])
    detail = _detail(name, step.command)
    player = step.command.get("player")
    dice = any(e.get("type") == "roll" and e.get("source") == "electronic" for e in step.events)
    return UndoPreview(step, name.replace("_", " "), player if isinstance(player, str) else None,
                       detail, dice)
