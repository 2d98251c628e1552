"""Dice an undo left on the table ("kept"), and the rules they follow.

The rules ("What the box never does") let undo correct a mis-entry but never choose a result:
the electronic dice an undone step rolled stay on the table, and the next roll of that die
reuses them before any new roll is made. Here is what "that die" means and what follows from
it (docs/protocol.md, "Kept dice"):

- A kept die waits for the same player, the same die and the same purpose (``free``, ``move``,
  ``bypass``, ``reup``, ``draw``, ``turn_order``): an undone free roll is never a bypass.
- While it waits, a physical value for that die (typed, or from the tray) is refused:
  ``die_kept``, or ``card_kept`` for a card the box drew.
- A kept card applies only while the pile it was drawn from is the one a draw takes from. A
  pile is named by the step whose reshuffle made it (0: the deck as dealt). Once the deck is
  reshuffled again the kept card is dropped, in a ``kept_dropped`` event (never silently),
  and undoing that step puts it back; undoing the step that made its pile drops it for good,
  listed as ``dropped`` in the ``undone`` event.

Everything here is a pure function of the kept dice, the events and the state before them;
`referee.session` applies it, live and when resuming a stored game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import KeptDieWaiting
from referee.games.gallery_grippers.commands import Roll
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.state import GameState

# The purpose of the dice each command rolls (one purpose per command). Games stored before
# kept dice had a purpose get it from the command their undo took back.
PURPOSE_OF_COMMAND: dict[str, str] = {
    "roll": "free", "turn_order": "turn_order", "move": "move", "move_roll": "move",
    "bypass": "bypass", "reup": "reup", "draw": "draw",
}
Piles = Mapping[str, int]  # deck -> the seq of the step whose reshuffle made its pile (0: dealt)

_SAID = {"free": "free roll", "turn_order": "turn-order roll", "move": "move",
         "bypass": "bypass", "reup": "re-up", "draw": "draw"}


@dataclass(frozen=True, slots=True)
class KeptDie:
    """An electronic result that an undo left on the table, waiting for its next roll.

    Attributes:
        player: who rolled it (None: the table, e.g. a free roll during setup).
        key: the die (``d6``, ``d10``, ``d100``), or ``pick:<deck>`` for a card the box drew.
        purpose: what it was rolled for; only a roll for the same purpose reuses it.
        roll: the electronic roll, with its index in the game's stream.
        card: for a box draw, the card it picked.
        pile: for a box draw, the pile it was drawn from (`Piles`), as it stood before the draw.
        from_discards: for a box draw, whether it was drawn from the discards (reshuffled by
            that draw) rather than from the draw pile.
    """

    player: str | None
    key: str
    purpose: str
    roll: Roll
    card: str | None = None
    pile: int = 0
    from_discards: bool = False

    @property
    def deck(self) -> str | None:
        """The deck of a kept card; None for a die."""
        return self.key.removeprefix("pick:") if self.key.startswith("pick:") else None

    def fits(self, player: str | None, key: str, purpose: str) -> bool:
        """Whether a roll of `key` by `player` for `purpose` is this die's next roll."""
        return (self.player, self.key, self.purpose) == (player, key, purpose)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "key": self.key, "purpose": self.purpose,
                "roll": self.roll.to_json(), "card": self.card, "pile": self.pile,
                "from_discards": self.from_discards}


def die_key(die: str, deck: str | None) -> str:
    """The key a die request is kept under: the die, or ``pick:<deck>`` for a box draw."""
    return die if deck is None else f"pick:{deck}"


def piles_after(piles: Piles, seq: int, events: Iterable[Event]) -> dict[str, int]:
    """The piles once step `seq` (with these events) stands."""
    return {**piles, **{e["deck"]: seq for e in events if e["type"] == "deck_reshuffled"}}


def drawable(k: KeptDie, state: GameState, piles: Piles) -> bool:
    """Whether `k` can be drawn now: a die always; a card while its pile is the one a draw
    takes from (the same draw pile, or the discards its draw reshuffled) and still holds it."""
    deck = k.deck
    if deck is None or k.card is None:
        return True
    if piles.get(deck, 0) != k.pile:
        return False
    pile = state.piles.get(deck, {})
    if k.from_discards:
        return not sum(pile.values()) and state.discards.get(deck, {}).get(k.card, 0) > 0
    return pile.get(k.card, 0) > 0


def waiting(kept: Iterable[KeptDie], player: str | None, key: str, purpose: str,
            state: GameState, piles: Piles) -> KeptDie | None:
    """The first kept die that the next roll of `key` by `player` for `purpose` must reuse."""
    for k in kept:
        if k.fits(player, key, purpose) and drawable(k, state, piles):
            return k
    return None


def refuse_physical_while_kept(kept: Sequence[KeptDie], events: Sequence[Event],
                               before: GameState, piles: Piles) -> None:
    """Refuse events that put a physical value where a kept die waits (nothing changes).

    Raises:
        KeptDieWaiting: ``die_kept`` (a typed or tray die) or ``card_kept`` (a card named
            by hand), naming the kept value.
    """
    for e in events:
        if e["type"] == "roll" and e["source"] == "physical":
            k = waiting(kept, e["player"], e["die"], e["purpose"], before, piles)
            if k is not None:
                who = f"{k.player}'s" if k.player else "The table's"
                raise KeptDieWaiting(
                    f"{who} {k.key} for the {_SAID.get(k.purpose, k.purpose)} is still on the "
                    f"table from an undone step: it shows {k.roll.value}. Let the box roll it "
                    f"(it shows {k.roll.value} again); a {e.get('via') or 'typed'} value cannot "
                    "take its place.")
        elif e["type"] == "drawn" and e["source"] == "physical":
            k = waiting(kept, e["player"], die_key("pick", e["deck"]), "draw", before, piles)
            if k is not None:
                raise KeptDieWaiting(
                    f"{k.player}'s box draw from the {k.deck} deck was undone and its card, "
                    f"{k.card}, is still on the table. Let the box draw (it gives {k.card} "
                    "again); a card named by hand cannot take its place.", code="card_kept")


def dropped_by(kept: Iterable[KeptDie], events: Sequence[Event]) -> list[KeptDie]:
    """The kept cards whose deck `events` reshuffle: their pile is gone, so they no longer
    apply (a pile is only reshuffled once it is empty). Undoing the step puts them back."""
    decks = {e["deck"] for e in events if e["type"] == "deck_reshuffled"}
    return [k for k in kept if k.deck in decks]


def orphaned_by_undo(kept: Iterable[KeptDie], seq: int) -> list[KeptDie]:
    """The kept cards drawn from the pile step `seq` made: undoing it, that pile never was."""
    return [k for k in kept if k.deck is not None and k.pile == seq and seq > 0]


def dropped_events(dropped: Sequence[KeptDie]) -> list[Event]:
    """One ``kept_dropped`` event per deck, listing the kept cards it no longer holds."""
    decks = dict.fromkeys(k.deck for k in dropped)
    return [{"type": "kept_dropped", "deck": deck, "rule": "GG-17",
             "kept": [k.to_json() for k in dropped if k.deck == deck]} for deck in decks]


def left_by(command: str, events: Sequence[Event], piles: Piles,
            dropped: Sequence[KeptDie] = ()) -> list[KeptDie]:
    """What undoing a step puts on the table: the electronic dice it rolled (fresh or kept,
    in the order rolled), then the kept cards it had dropped. `piles`: as before the step."""
    out: list[KeptDie] = []
    drawn = [e for e in events if e["type"] == "drawn" and e["source"] == "box"]
    reshuffled = {e["deck"] for e in events if e["type"] == "deck_reshuffled"}
    for e in events:
        if e["type"] != "roll" or e["source"] != "electronic":
            continue
        roll = Roll(die=e["die"], value=e["value"], source="electronic", index=e["index"],
                    sides=e["sides"])
        purpose = e.get("purpose") or PURPOSE_OF_COMMAND[command]
        if e["die"] == "pick":
            d = drawn.pop(0)
            out.append(KeptDie(e["player"], die_key("pick", d["deck"]), purpose, roll,
                               card=d["card"], pile=piles.get(d["deck"], 0),
                               from_discards=d["deck"] in reshuffled))
        else:
            out.append(KeptDie(e["player"], e["die"], purpose, roll))
    return out + list(dropped)


def reused_by(kept: Sequence[KeptDie], events: Sequence[Event]) -> list[KeptDie]:
    """The kept dice a stored step reused (its electronic rolls marked kept)."""
    used: list[KeptDie] = []
    for e in events:
        if e["type"] == "roll" and e["source"] == "electronic" and e["kept"]:
            k = next((k for k in kept if k not in used and k.player == e["player"]
                      and k.roll.index == e["index"]), None)
            if k is None:
                raise ValueError(f"the log reuses a kept roll that is not on the table: {e}")
            used.append(k)
    return used
