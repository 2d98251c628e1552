"""Button-only helpers that read the game but never change it: the default balanced starting
hands, and the next electronic roll the session will make (so the box can show the movement
roll before the player says where the pawn landed)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.gallery_grippers.rules.setup import HAND
from referee.games.gallery_grippers.state import GameState

DECKS = (("specialist", "specialists"), ("attribute", "attributes"))


def balanced_hands(state: GameState, players: Sequence[str]) -> dict[str, dict[str, list[str]]]:
    """A starting hand (GG-1) for each of ``players``, as even in strength as the deck allows.

    Per deck: lay the draw pile out strongest first, take ``3 x players`` copies evenly spaced
    along it (so every hand gets strong, middling and weak cards, and the deck keeps its own
    spread), then give each card, strongest first, to the player whose hand is weakest so far
    (ties: seat order). Deterministic: the same pile and players give the same hands.

    Raises:
        ValueError: the pile is too small for that many hands.
    """
    hands: dict[str, dict[str, list[str]]] = {p: {"specialists": [], "attributes": []}
                                              for p in players}
    for deck, field in DECKS:
        per_hand = HAND[field]
        copies = sorted(
            ((name, state.catalog.card(name)) for name, n in state.piles.get(deck, {}).items()
             for _ in range(n)),
            key=lambda nc: (-(nc[1].bonus if nc[1] else 0), nc[0]))
        need = per_hand * len(players)
        if len(copies) < need:
            raise ValueError(f"the {deck} deck has {len(copies)} cards; {need} are needed")
        picked = [copies[(2 * i + 1) * len(copies) // (2 * need)] for i in range(need)]
        totals = dict.fromkeys(players, 0)
        for name, card in picked:
            open_ = [p for p in players if len(hands[p][field]) < per_hand]
            who = min(open_, key=lambda p: (totals[p], players.index(p)))
            hands[who][field].append(name)
            totals[who] += card.bonus if card else 0
    return hands
