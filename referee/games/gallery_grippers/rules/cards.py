"""Drawing cards (GG-17) and the re-up roll (GG-18)."""

from __future__ import annotations

from referee.games.gallery_grippers.commands import Draw, Reup
from referee.games.gallery_grippers.evolve import Event
from referee.games.gallery_grippers.rules.common import (
    NeedDice,
    cards_available,
    catalog_card,
    check_roll,
    die_request,
    draws_due_events,
    pending_of,
    refuse,
    require_no_pending,
    require_turn,
    resolved_event,
    roll_event,
)
from referee.games.gallery_grippers.rules.queries import Decision, draw_counts
from referee.games.gallery_grippers.state import GameState, pile_list


def draw_pile(s: GameState, deck: str) -> list[str]:
    """The pile a draw takes from: the draw pile, or the discards reshuffled if it is empty."""
    return pile_list(draw_counts(s, deck))


def draw(s: GameState, c: Draw) -> list[Event] | NeedDice:
    p = require_turn(s, c.player)
    due = pending_of(s, p.name, Decision.DRAW)
    if due is None:
        raise refuse("no_draw_due", "GG-17",
                     f"{p.name} has no card to draw now (recruitment or a re-up gives draws).")
    require_no_pending(s, allowed=(Decision.DRAW,))
    if cards_available(s, c.deck) == 0:
        raise refuse("deck_empty", "GG-17",
                     f"The {c.deck} deck and its discards are empty; draw from the other deck.")
    pile = draw_pile(s, c.deck)
    if c.card is None:
        if c.pick is None:
            return NeedDice((die_request(p.name, "pick", "draw", len(pile), deck=c.deck),))
        raise refuse("bad_pick", "GG-17", "A box draw must name the card it drew (session).")
    card = catalog_card(s, c.card, c.deck, code="wrong_deck", rule="GG-17")
    if card.name not in pile:
        raise refuse("card_not_in_deck", "GG-17",
                     f"No {card.name} card is left in the {c.deck} deck.")
    card_name = card.name
    events: list[Event] = []
    if not sum(s.piles.get(c.deck, {}).values()):
        events.append({"type": "deck_reshuffled", "deck": c.deck, "cards": len(pile),
                       "rule": "GG-17"})
    if c.pick is not None:
        events.append(roll_event(p.name, c.pick, "draw"))
    events.append({"type": "drawn", "player": p.name, "deck": c.deck, "card": card_name,
                   "source": "box" if c.pick is not None else "physical"})
    if due.info.get("count") == 1:
        return events
    # Later draws of this re-up: if both decks are now empty, the rest are forfeited.
    left = cards_available(s) - 1
    if left == 0:
        events.append({"type": "draws_forfeited", "player": p.name,
                       "count": int(due.info["count"]) - 1, "rule": "GG-17"})
    return events


def reup(s: GameState, c: Reup) -> list[Event] | NeedDice:
    p = require_turn(s, c.player)
    if pending_of(s, p.name, Decision.REUP) is None:
        raise refuse("no_reup_due", "GG-18",
                     f"{p.name} re-ups only at the start of a turn with "
                     f"{s.rules.reup_at_or_below} or fewer cards.")
    check_roll(s, c.roll, "d6", "GG-18", "re-up (d6)")
    if c.roll is None:
        return NeedDice((die_request(p.name, "d6", "reup", 6),))
    return [roll_event(p.name, c.roll, "reup"), resolved_event(p.name, Decision.REUP),
            *draws_due_events(s, p.name, c.roll.value, "reup")]
