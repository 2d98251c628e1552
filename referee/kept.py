"""Dice an undo left on the table ("kept"), and the rules they follow.

The rules ("What the box never does", ART-36) let undo correct a mis-entry but never choose a
result: the dice the box rolled or read (electronic dice, and physical dice the tray read) that
an undone step rolled stay on the table, and the next roll of that die reuses them before any
new roll is made (the tray is asked again only for a die it never read). Here is what "that
die" means and what follows from it (docs/protocol.md, "Kept dice"):

- A kept die waits for the same die id (the game names its dice: Gallery Grippers by the
  player who rolls, an A.R.T. battle ``ally1``..``ally5`` as well), the same player, the same
  die and the same purpose (Gallery Grippers': ``free``, ``move``, ``bypass``, ``reup``,
  ``draw``, ``turn_order``): an undone free roll is never a bypass.
- While it waits, a physical value for that die (typed, or from the tray) is refused:
  ``die_kept``, or ``card_kept`` for a card the box drew.
- A kept card applies only while the pile it was drawn from is the one a draw takes from. A
  pile is named by the step whose reshuffle made it (0: the deck as dealt). Once the deck is
  reshuffled again the kept card is dropped, in a ``kept_dropped`` event (never silently),
  and undoing that step puts it back; undoing the step that made its pile drops it for good,
  listed as ``dropped`` in the ``undone`` event.
- A kept card also binds the draw that showed it (issue 42): seeing a hidden card and then
  choosing again is a choice. While it waits and can still be drawn, a draw by the same
  player for the same purpose from another pile (by the box, or a card named by hand) is
  refused, ``draw_bound``, naming the card and its pile; that player's next draw must be from
  that pile, and gives it. (A game whose pile is nobody's until drawn, The Gallerist's bag,
  names no player for its box draws: a kept visitor is the next one out of the bag, whoever
  it is recorded for.)
- A die typed in by hand is not kept: undo is how a mistyped number is corrected. It is
  remembered instead (``typed`` in the ``undone`` event), and the value the next roll of that
  die gives, if it differs, is shown as a correction: a ``die_corrected`` event in that step
  (`corrections`), worded "corrected: 4 → 6" (`referee.words.core_words`). Never silently.

Everything here is a pure function of the kept dice, the events and the state before them,
and knows no game: what a step rolled, which piles its events make anew and whether a pile
still holds a kept card are the ruleset's answers (`referee.ruleset.Ruleset`).
`referee.session` applies it, live and when resuming a stored game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.dice import Roll
from referee.errors import KeptDieWaiting
from referee.ruleset import DieRequest, Event, Rolled, Ruleset, die_key

Piles = Mapping[str, int]  # deck -> the seq of the step whose reshuffle made its pile (0: dealt)

__all__ = ["KeptDie", "Piles", "die_key"]


@dataclass(frozen=True, slots=True)
class KeptDie:
    """A die result that an undo left on the table, waiting for its next roll: an electronic
    one, or a physical one the tray read (``roll.via == "tray"``). (The same record stands for
    an undone typed die in `typed_left_by`: remembered for a correction, never reused.)

    Attributes:
        player: who rolled it (None: the table, e.g. a free roll during setup).
        key: the die (``d6``, ``d10``, ``d100``), or ``pick:<deck>`` for a card the box drew.
        purpose: what it was rolled for; only a roll for the same purpose reuses it.
        roll: the roll: electronic (with its index in the game's stream) or read by the tray.
        card: for a box draw, the card it picked.
        pile: for a box draw, the pile it was drawn from (`Piles`), as it stood before the draw.
        from_discards: for a box draw, whether it was drawn from the discards (reshuffled by
            that draw) rather than from the draw pile.
        id: the die's id (the game's name for it); its next roll reuses this value.
    """

    player: str | None
    key: str
    purpose: str
    roll: Roll
    card: str | None = None
    pile: int = 0
    from_discards: bool = False
    id: str = ""

    @property
    def deck(self) -> str | None:
        """The deck of a kept card; None for a die."""
        return self.key.removeprefix("pick:") if self.key.startswith("pick:") else None

    def fits(self, ident: str, player: str | None, key: str, purpose: str) -> bool:
        """Whether a roll of die `ident` (`key`) by `player` for `purpose` is this die's next."""
        return (self.id, self.player, self.key, self.purpose) == (ident, player, key, purpose)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "key": self.key, "purpose": self.purpose,
                "roll": self.roll.to_json(), "card": self.card, "pile": self.pile,
                "from_discards": self.from_discards, "id": self.id}


def piles_after(piles: Piles, seq: int, renewed: Iterable[str]) -> dict[str, int]:
    """The piles once step `seq` stands, its events having made the piles `renewed` anew."""
    return {**piles, **dict.fromkeys(renewed, seq)}


def drawable(k: KeptDie, state: object, piles: Piles, ruleset: Ruleset) -> bool:
    """Whether `k` can be drawn now: a die always; a card while its pile is the one a draw
    takes from and still holds it (the ruleset says which pile a draw takes from)."""
    deck = k.deck
    if deck is None or k.card is None:
        return True
    if piles.get(deck, 0) != k.pile:
        return False
    return ruleset.holds(state, deck, k.card, k.from_discards)


def waiting(kept: Iterable[KeptDie], ident: str, player: str | None, key: str, purpose: str,
            state: object, piles: Piles, ruleset: Ruleset) -> KeptDie | None:
    """The first kept die that the next roll of die `ident` must reuse."""
    for k in kept:
        if k.fits(ident, player, key, purpose) and drawable(k, state, piles, ruleset):
            return k
    return None


def waiting_for(kept: Iterable[KeptDie], req: DieRequest, state: object, piles: Piles,
                ruleset: Ruleset) -> KeptDie | None:
    """The kept die a die request must reuse, if any."""
    return waiting(kept, req.id, req.player, req.key, req.purpose, state, piles, ruleset)


def refuse_physical_while_kept(kept: Sequence[KeptDie], rolled: Sequence[Rolled],
                               before: object, piles: Piles, ruleset: Ruleset) -> None:
    """Refuse a step that puts a physical value where a kept die waits (nothing changes).

    Raises:
        KeptDieWaiting: ``die_kept`` (a typed or tray die) or ``card_kept`` (a card named
            by hand), naming the kept value; ``draw_bound`` (a card named by hand from
            another pile than a kept card of that player's, `refuse_bound_draw`).
    """
    for r in rolled:
        if r.roll is None:  # a card named by hand
            k = waiting(kept, r.id, r.player, r.key, r.purpose, before, piles, ruleset)
            if k is not None:
                who = f"{k.player}'s" if k.player else "The table's"
                raise KeptDieWaiting(
                    f"{who} box draw from the {k.deck} deck was undone and its card, "
                    f"{k.card}, is still on the table. Let the box draw (it gives {k.card} "
                    "again); a card named by hand cannot take its place.", code="card_kept",
                    rule=ruleset.kept_rule(k.purpose))
            if r.deck is not None:
                refuse_bound_draw(kept, r.player, r.purpose, r.deck, before, piles, ruleset)
        elif r.roll.source == "physical" and not r.roll.kept:
            k = waiting(kept, r.id, r.player, r.key, r.purpose, before, piles, ruleset)
            if k is not None:
                who = f"{k.player}'s" if k.player else "The table's"
                read = " (read by the tray)" if k.roll.via == "tray" else ""
                raise KeptDieWaiting(
                    f"{who} {k.key} for the {ruleset.purpose_words(k.purpose)} is still on "
                    f"the table from an undone step: it shows {k.roll.value}{read}. Send the "
                    f"command without it: the box uses {k.roll.value} again; a "
                    f"{r.roll.via or 'typed'} value cannot take its place.",
                    rule=ruleset.kept_rule(k.purpose))


def binding(kept: Iterable[KeptDie], player: str | None, purpose: str, deck: str,
            state: object, piles: Piles, ruleset: Ruleset) -> KeptDie | None:
    """The kept card that binds a draw by `player` for `purpose` from `deck`, if any: the
    first card an undone draw of theirs for that purpose showed, from another pile, that can
    still be drawn. None when none waits, or when one waits in `deck` itself (then this
    draw is the one that gives it)."""
    mine = [k for k in kept if k.deck is not None and k.card is not None
            and k.player == player and k.purpose == purpose
            and drawable(k, state, piles, ruleset)]
    if not mine or any(k.deck == deck for k in mine):
        return None
    return mine[0]


def refuse_bound_draw(kept: Iterable[KeptDie], player: str | None, purpose: str, deck: str,
                      state: object, piles: Piles, ruleset: Ruleset) -> None:
    """Refuse a draw from `deck` that a kept card of another pile binds (nothing changes).

    Raises:
        KeptDieWaiting: ``draw_bound``, with the game's rule (`Ruleset.bound_rule`), naming
            the card the undone draw showed and the pile the draw must come from.
    """
    k = binding(kept, player, purpose, deck, state, piles, ruleset)
    if k is None:
        return
    who = k.player or "the table"
    raise KeptDieWaiting(
        f"{who[0].upper()}{who[1:]}'s undone draw showed {k.card}, the top of the {k.deck} "
        f"deck: {who}'s next draw must be from that deck (it gives {k.card} again). Undo "
        "corrects a mis-entry; it never lets a seen card be avoided.",
        code="draw_bound", rule=ruleset.bound_rule())


def dropped_by(kept: Iterable[KeptDie], renewed: set[str]) -> list[KeptDie]:
    """The kept cards whose deck is made anew (`renewed`): their pile is gone, so they no
    longer apply (a pile is only reshuffled once it is empty). Undoing the step puts them
    back."""
    return [k for k in kept if k.deck in renewed]


def orphaned_by_undo(kept: Iterable[KeptDie], seq: int) -> list[KeptDie]:
    """The kept cards drawn from the pile step `seq` made: undoing it, that pile never was."""
    return [k for k in kept if k.deck is not None and k.pile == seq and seq > 0]


def dropped_events(dropped: Sequence[KeptDie], rule: str | None) -> list[Event]:
    """One ``kept_dropped`` event per deck, listing the kept cards it no longer holds."""
    decks = dict.fromkeys(k.deck for k in dropped)
    return [{"type": "kept_dropped", "deck": deck, "rule": rule,
             "kept": [k.to_json() for k in dropped if k.deck == deck]} for deck in decks]


def stays(roll: Roll | None) -> bool:
    """Whether undoing a step leaves this die of it on the table: an electronic die (the box
    rolled it) or a physical one the tray read; never a typed one (nor a card named by
    hand)."""
    if roll is None:
        return False
    return roll.source == "electronic" or (roll.source == "physical" and roll.via == "tray")


def left_by(rolled: Sequence[Rolled], piles: Piles,
            dropped: Sequence[KeptDie] = ()) -> list[KeptDie]:
    """What undoing a step puts on the table: the dice it rolled that `stays` (fresh or kept,
    in the order rolled), then the kept cards it had dropped. `piles`: as before the step."""
    out: list[KeptDie] = []
    for r in rolled:
        if r.roll is None or not stays(r.roll):
            continue
        if r.roll.source == "electronic":
            roll = Roll(die=r.roll.die, value=r.roll.value, source="electronic",
                        index=r.roll.index, sides=r.roll.sides)
        else:
            roll = Roll.physical(r.roll.die, r.roll.value, via="tray")
        deck = r.deck
        out.append(KeptDie(r.player, r.key, r.purpose, roll, card=r.card,
                           pile=piles.get(deck, 0) if deck is not None else 0,
                           from_discards=r.from_discards, id=r.id))
    return out + list(dropped)


def without(dice: Iterable[KeptDie], these: Iterable[KeptDie]) -> list[KeptDie]:
    """`dice` less `these`, by identity, not by value: two dice the tray read for the same
    player, die and purpose with the same value are equal records but two dice on the table,
    and reusing one must leave the other (else an undo and a redo would lose it, and its
    next roll would be asked of the tray again: a die chosen)."""
    gone = {id(k) for k in these}
    return [k for k in dice if id(k) not in gone]


def _among(k: KeptDie, these: Iterable[KeptDie]) -> bool:
    """Whether die `k` itself (not an equal record) is one of `these` (see `without`)."""
    return any(k is u for u in these)


def _reuses(k: KeptDie, r: Rolled) -> bool:
    """Whether the kept roll `r` of a stored step is kept die `k` reused."""
    assert r.roll is not None
    if k.player != r.player or k.id != r.id:
        return False
    if r.roll.source == "electronic":
        return k.roll.source == "electronic" and k.roll.index == r.roll.index
    return (k.roll.source == r.roll.source and k.roll.via == r.roll.via
            and k.roll.value == r.roll.value and k.key == r.key and k.purpose == r.purpose)


def reused_by(kept: Sequence[KeptDie], rolled: Sequence[Rolled]) -> list[KeptDie]:
    """The kept dice a stored step reused (its rolls marked kept)."""
    used: list[KeptDie] = []
    for r in rolled:
        if r.roll is not None and r.roll.kept:
            k = next((k for k in kept if not _among(k, used) and _reuses(k, r)), None)
            if k is None:
                raise ValueError(f"the log reuses a kept roll that is not on the table: "
                                 f"{dict(r.event or {})}")
            used.append(k)
    return used


# ---- typed dice: not kept, but a different value next time is a correction ----------------

def typed_left_by(rolled: Sequence[Rolled]) -> list[KeptDie]:
    """The dice typed in by hand that undoing a step takes back (in the order rolled): not
    kept (a typed value may be corrected), remembered so that a different value for the
    same die next time is shown as a correction."""
    return [KeptDie(r.player, r.key, r.purpose, Roll.physical(r.roll.die, r.roll.value,
                                                              via=r.roll.via or "typed"),
                    id=r.id)
            for r in rolled if r.roll is not None and r.roll.source == "physical"
            and not stays(r.roll) and not r.roll.kept]


def corrections(typed: Sequence[KeptDie],
                rolled: Sequence[Rolled]) -> tuple[list[Event], list[KeptDie]]:
    """A step's rolls against the typed dice undone before it: one ``die_corrected`` event
    for each die whose value differs from the typed value it replaces (whatever gives the
    new value: typed again, the tray or the box), and the typed dice the step answered
    (those it rolled again, corrected or not: they are forgotten). The same die is the same
    die id, player, die and purpose, as for kept dice."""
    events: list[Event] = []
    answered: list[KeptDie] = []
    for r in rolled:
        if r.roll is None:
            continue
        k = next((k for k in typed if not _among(k, answered)
                  and k.fits(r.id, r.player, r.key, r.purpose)), None)
        if k is None:
            continue
        answered.append(k)
        if r.roll.value != k.roll.value:
            events.append({"type": "die_corrected", "id": r.id, "player": r.player,
                           "die": r.roll.die, "purpose": r.purpose, "was": k.roll.value,
                           "now": r.roll.value, "source": r.roll.source, "via": r.roll.via})
    return events, answered
