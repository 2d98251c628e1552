"""Phase A, the mission: drawing, extra draws, playing a card and the clue chain
(ART-10..15, ART-30, ART-32)."""

from __future__ import annotations

from itertools import combinations

from referee.games.art_project import commands as c
from referee.games.art_project.rules.common import (
    Steps,
    gain,
    known_city,
    known_player,
    mission,
    pay_mandatory,
    pay_optional,
    place_agents,
    refuse,
)
from referee.games.art_project.rules.phases import enter
from referee.games.art_project.rules.setup import setup_owed
from referee.games.art_project.settings import house_rule
from referee.games.art_project.state import RESOURCES, ArtState, Clue, Player


def _in_a(s: ArtState, what: str) -> Steps:
    steps = enter(s, "A", what)
    setup_owed(steps.state)
    return steps


def _draws_outstanding(s: ArtState) -> None:
    owing = [p for p in s.players if p.draws_owed]
    if owing:
        raise refuse("draws_outstanding", "ART-10", "Every owed draw comes before the first "
                     "card: " + ", ".join(f"{p.name} owes {p.draws_owed}" for p in owing)
                     + ".")


def _take(steps: Steps, player: str, extra: bool) -> None:
    """One card from the deck: the final card comes after the cards above it (ART-12)."""
    d = steps.state.deck
    if d.above:
        steps.add({"type": "drawn", "player": player, "extra": extra, "from": "above"})
        return
    if d.final and steps.state.rules.final_card_detection == "table":
        steps.add({"type": "warning", "message": "By the box's count the final card is "
                   "next; if it is, send this draw again with \"final\": true."})
    if d.final and steps.state.rules.final_card_detection == "count":
        steps.add({"type": "final_card", "player": player, "detected": "count"})
        if not extra:
            return  # the owed draw is made again, by a later draw
        d = steps.state.deck
    if not d.below and d.discard and steps.state.rules.deck_empty == "reshuffle":
        steps.add({"type": "reshuffled", "cards": d.discard})
        d = steps.state.deck
    if d.below:
        steps.add({"type": "drawn", "player": player, "extra": extra, "from": "below"})
    elif extra:
        raise refuse("deck_empty", "ART-12", "The deck is empty: no extra draw.")
    else:
        steps.add({"type": "draw_lost", "player": player})


def draw(s: ArtState, cmd: c.Draw) -> list[dict[str, object]]:
    steps = _in_a(s, "A draw")
    p = known_player(steps.state, cmd.player)
    if not p.draws_owed:
        raise refuse("no_draw_due", "ART-10", f"{p.name} owes no draw this round; an extra "
                     "card is a paid extra draw.")
    if cmd.final:
        if steps.state.rules.final_card_detection != "table":
            raise refuse("bad_request", "ART-12", "The box counts the deck and says when the "
                         f"final card comes ({house_rule('final_card_detection', 'count')}).")
        if not steps.state.deck.final:
            raise refuse("final_card_gone", "ART-12", "The final card has already come.")
        at = steps.state.deck.above
        steps.add({"type": "final_card", "player": p.name, "detected": "table"})
        if at:
            steps.add({"type": "warning", "message": f"The box counted {at} more card(s) "
                       "above the final card; it takes the table's word."})
        return steps.events
    _take(steps, p.name, extra=False)
    return steps.events


def extra_draw(s: ArtState, cmd: c.ExtraDraw) -> list[dict[str, object]]:
    steps = _in_a(s, "An extra draw")
    st = steps.state
    p = known_player(st, cmd.player)
    if st.rules.extra_draw_until == "first_play":
        closed = any(q.played for q in st.players)
    else:
        closed = p.played >= st.plays_due()
    if closed:
        raise refuse("extra_draw_closed", "ART-11", "Extra draws are over once "
                     + ("the round's first card is played." if st.rules.extra_draw_until
                        == "first_play" else f"{p.name} has played."))
    d = st.deck
    if not (d.above or d.below or (d.discard and st.rules.deck_empty == "reshuffle")):
        raise refuse("deck_empty", "ART-12", "The deck is empty: no extra draw.")
    if cmd.pay == "health":
        empty = (not any(st.van.get(r, 0) for r in RESOURCES)
                 if st.rules.extra_draw_payment == "any_resource"
                 else not all(st.van.get(r, 0) for r in RESOURCES))
        if not empty:
            raise refuse("golden_rule", "ART-7", "The GOLDEN RULE: health pays an extra draw "
                         "only when the van has no resource left (" + ", ".join(
                             f"{st.van[r]} {r}" for r in RESOURCES) + ").")
        if p.health < 1:
            raise refuse("not_enough_health", "ART-7", f"{p.name} has no health to pay.")
        # one health instead of a token the van lacks: none of the van's tokens go with it
        # (under per_type the van may still hold another type)
        gone = next(r for r in RESOURCES if not st.van.get(r, 0))
        pay_optional(steps, p.name, gone, 1, {p.name: 1})
    else:
        if not st.van.get(cmd.pay, 0):
            if st.rules.extra_draw_payment == "per_type":
                raise refuse(f"not_enough_{cmd.pay}", "ART-11", f"The van has no {cmd.pay}: "
                             "pay another resource, or health (pay: \"health\").")
            raise refuse(f"not_enough_{cmd.pay}", "ART-11", f"The van has no {cmd.pay}; pay "
                         "with a resource it holds.")
        pay_optional(steps, p.name, cmd.pay, 1, {})
    if not steps.over:
        _take(steps, p.name, extra=True)
    return steps.events


def _card_checks(st: ArtState, cmd: c.PlayCard) -> Player:
    p = known_player(st, cmd.player)
    _draws_outstanding(st)
    if p.played >= st.plays_due():
        raise refuse("already_played", "ART-13", f"{p.name} has played "
                     + ("both cards" if st.solo else "a card") + " this round.")
    if not p.hand:
        raise refuse("no_card", "ART-13", f"{p.name} holds no card to play.")
    m = mission(st)
    for where, _ in cmd.agents:
        if m.board == "polynesia" and where in st.catalog.symbols:
            continue
        known_city(st, where, "ART-14")
    for sym in cmd.clues:
        if sym not in st.catalog.symbols:
            raise refuse("unknown_symbol", "ART-14", f"{sym!r} is not a clue symbol "
                         f"({', '.join(st.catalog.symbols)}).")
    for name, _ in cmd.gain_health:
        if name:
            known_player(st, name)
    return p


def play_card(s: ArtState, cmd: c.PlayCard) -> list[dict[str, object]]:
    steps = _in_a(s, "Playing a mission card")
    p = _card_checks(steps.state, cmd)
    card = f"c{steps.state.cards + 1}"
    steps.add({"type": "card_played", "player": p.name, "card": card})
    pay_mandatory(steps, p.name, cmd.spend)  # 1. spend (the box splits it)
    for where, n in cmd.agents:  # 2. agents, one at a time in the order sent
        m = mission(steps.state)
        if m.board == "polynesia" and where in steps.state.catalog.symbols:
            islands = [x.name for x in m.cities if x.symbol == where]
            for _ in range(n):
                for island in islands:
                    place_agents(steps, island, 1, card)
        else:
            place_agents(steps, where, n, card)
    if steps.over:
        return steps.events
    gain(steps, cmd.gain, {name or p.name: n for name, n in cmd.gain_health})  # 3. gain
    if not cmd.clues and steps.state.rules.clueless_card == "discard":  # 4. clues
        steps.add({"type": "card_discarded", "card": card})
        return steps.events
    steps.add({"type": "clue_added", "card": card, "symbols": list(cmd.clues),
               "player": p.name})
    settle_clues(steps, p.name)
    return steps.events


def _chain(st: ArtState, owner: str) -> list[Clue]:
    """The chain a set is counted in: the team's, or on USA the player's own (ART-30)."""
    if mission(st).board == "usa":
        return [x for x in st.chain if x.player == owner]
    return list(st.chain)


def settle_clues(steps: Steps, owner: str) -> None:
    """Uncover every completed set, one at a time; the team orders several (ART-15)."""
    while not steps.over:
        chain = _chain(steps.state, owner)
        ready = [sym for sym in steps.state.catalog.symbols
                 if sum(x.symbols.count(sym) for x in chain) >= 3]
        if not ready:
            return
        if len(ready) > 1:
            steps.add({"type": "pending", "decisions": [
                {"decision": "uncover_order", "options": ready, "player": None,
                 "chain": owner}]})
            return
        if uncover(steps, ready[0], owner):
            return


def clue_sets(chain: list[Clue], symbol: str) -> list[tuple[Clue, ...]]:
    """`clue_overflow = "minimal_set"` (ART-15): the sets of cards bearing `symbol` exactly 3
    times, or, where none does (two cards with it twice), the smallest sets making 3 or more.
    Sets whose cards bear the same symbols for the same players are alike: the oldest stands
    for them all, so the team is asked only when the cards it keeps would differ."""
    bearing = [x for x in chain if symbol in x.symbols]
    subsets = [sub for k in range(1, len(bearing) + 1) for sub in combinations(bearing, k)]

    def count(sub: tuple[Clue, ...]) -> int:
        return sum(x.symbols.count(symbol) for x in sub)

    exact = [sub for sub in subsets if count(sub) == 3]
    if not exact:  # every card needed, none spare
        exact = [sub for sub in subsets if count(sub) >= 3
                 and all(count(sub) - x.symbols.count(symbol) < 3 for x in sub)]
    out: dict[tuple[tuple[tuple[str, ...], str], ...], tuple[Clue, ...]] = {}
    for sub in exact:
        out.setdefault(tuple(sorted((x.symbols, x.player) for x in sub)), sub)
    return list(out.values())


def set_name(cards: tuple[Clue, ...]) -> str:
    return "+".join(x.id for x in cards)


def uncover(steps: Steps, symbol: str, owner: str) -> bool:
    """Discard the set's cards and place its artwork; True if the team must choose which
    cards go (`clue_set`) or where the artwork goes (`uncover_island`)."""
    st = steps.state
    chain = tuple(x for x in _chain(st, owner) if symbol in x.symbols)
    if st.rules.clue_overflow == "minimal_set":
        sets = clue_sets(list(chain), symbol)
        if len(sets) > 1:
            steps.add({"type": "pending", "decisions": [
                {"decision": "clue_set", "options": [set_name(x) for x in sets],
                 "player": None, "symbol": symbol, "chain": owner}]})
            return True
        chain = sets[0]
    return place(steps, symbol, owner, [x.id for x in chain])


def place(steps: Steps, symbol: str, owner: str, cards: list[str]) -> bool:
    """The set's cards discarded, then its artwork placed (or blocked); True if the team must
    choose the island (ART-15, ART-32)."""
    st = steps.state
    steps.add({"type": "clues_discarded", "symbol": symbol, "cards": cards})
    cities = [x.name for x in mission(st).cities if x.symbol == symbol]
    free = [x for x in cities if x not in st.lost and x not in st.artwork]
    limit = st.rules.artwork_token_limit
    if not cities:
        reason = "no_city"
    elif not free:
        reason = "lost" if all(x in st.lost for x in cities) else "occupied"
    elif isinstance(limit, int) and len(st.artwork) + st.track + st.artwork_gone >= limit:
        reason = "no_token"
    else:
        if len(free) > 1:  # Polynesia: either island (ART-32)
            steps.add({"type": "pending", "decisions": [
                {"decision": "uncover_island", "options": free, "player": None,
                 "symbol": symbol, "chain": owner}]})
            return True
        steps.add({"type": "uncovered", "symbol": symbol, "city": free[0]})
        return False
    steps.add({"type": "uncover_blocked", "symbol": symbol, "reason": reason})
    return False
