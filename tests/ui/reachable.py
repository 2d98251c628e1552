"""Random reachable games for the console's property tests (tests/ui/test_reachable_states.py).

A real `Session` is driven by random commands, most of them legal-ish (the current player,
a tile the dice allow, a card from the hand, a piece from the museum); refusals are fine,
they change nothing. Nothing here decides a rule: whatever the session accepts is reachable.
Hands are picked from the piles by position, so two copies of one card are common; names may
be long, look like markup, or equal a card's name; one to six players; house rules that make
re-ups, ties and game over (low win money, three strikes) frequent.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.games.gallery_grippers.rules.queries import (
    ENTERING_TILES,
    INSIDE_TILES,
    ONLY_INSIDE,
    OUTSIDE_TILES,
)
from referee.games.gallery_grippers.rules.setup import HAND
from referee.games.gallery_grippers.state import Phase, pile_list
from referee.session import Session

SEED = bytes(range(32))
ODD = "AnnBéz[]/\\@#-' 0"
NAMES = st.one_of(
    st.text(alphabet=ODD, min_size=1, max_size=6).filter(lambda t: t.strip() == t != ""),
    st.text(alphabet="Wiłhelmina[/]", min_size=24, max_size=24).filter(
        lambda t: t.strip() == t),
    st.sampled_from(["Lookout", "(none)", "error", "#error", "[b]Bold[/b]", "Ann[/]",
                     "The Louvre", "Mona Lisa", "dealt"]),
)
RULES = st.fixed_dictionaries({}, optional={
    "reup_at_or_below": st.integers(0, 6),
    "tiebreak": st.sampled_from(["rps", "reroll"]),
    "percentile": st.sampled_from(["1-100", "0-99"]),
    "caught_keep_forces_exit": st.booleans(),
    "win_money": st.sampled_from([1, 300_000_000, 1_000_000_000]),
})


def rare(data: st.DataObject, one_in: int, label: str) -> bool:
    """True about once in `one_in` draws. (Not `integers(...) == 0`: Hypothesis draws the
    ends of a range far more often than the middle.)"""
    return data.draw(st.integers(0, one_in - 1), label=label) == one_in // 2


def ok(s: Session, request: dict[str, Any]) -> bool:
    return bool(s.handle(request)["ok"])


# What a game is steered toward (the steering only weights the random commands; any
# command may still come, and whatever the session accepts is a reachable state).
GOALS = ("any", "obstacle", "caught", "second_strike", "reup", "draw", "tiebreak", "trade",
         "over")
FAIL = ("caught", "second_strike", "over")  # reached by failing bypasses


def new_game(data: st.DataObject, s: Session, goal: str) -> None:
    n = data.draw(st.integers(1, 2) if goal == "over" else st.integers(1, 6), label="players")
    names = data.draw(st.lists(NAMES, min_size=n, max_size=n, unique_by=str.casefold),
                      label="names")
    rules = data.draw(RULES, label="rules")
    if goal == "reup":
        rules["reup_at_or_below"] = 6
    ok(s, {"cmd": "new_game", "players": names, "rules": rules})


def deal(data: st.DataObject, s: Session) -> None:
    """Hands picked from the piles by position (neighbours are copies of one card), or the
    console's balanced hands; sometimes stop before everyone has a hand."""
    from ui.games.gallery_grippers.hands import balanced_hands

    for p in s.state.players:
        if p.dealt or rare(data, 30, "stop dealing"):
            return
        if data.draw(st.booleans(), label="balanced"):
            undealt = [q.name for q in s.state.players if not q.dealt]
            for name, hand in balanced_hands(s.state, undealt).items():
                ok(s, {"cmd": "deal", "player": name, **hand})
            return
        hand: dict[str, list[str]] = {}
        for field, deck in (("specialists", "specialist"), ("attributes", "attribute")):
            pile = pile_list(s.state.piles.get(deck, {}))
            picks = data.draw(st.lists(st.integers(0, len(pile) - 1), min_size=HAND[field],
                                       max_size=HAND[field], unique=True), label=field)
            hand[field] = [pile[i] for i in picks]
        ok(s, {"cmd": "deal", "player": p.name, **hand})


def turn_order(data: st.DataObject, s: Session) -> None:
    for _ in range(3):
        st_ = s.state
        if st_.phase is not Phase.SETUP or any(not p.dealt for p in st_.players):
            return
        tie = next((q for q in st_.pending if q.decision == "tiebreak"), None)
        if tie is not None and st_.rules.tiebreak == "rps":
            if rare(data, 5, "leave the tie open"):
                return
            ok(s, {"cmd": "tiebreak", "winner": data.draw(st.sampled_from(tie.options))})
            continue
        rolling = list(tie.options) if tie else [p.name for p in st_.players]
        if data.draw(st.booleans(), label="box rolls order"):
            ok(s, {"cmd": "turn_order"})
        else:
            dice = st.integers(1, 6)
            ok(s, {"cmd": "turn_order", "rolls": {n: data.draw(dice) for n in rolling}})


def _roll(data: st.DataObject, die: str, low: int, high: int) -> dict[str, Any]:
    """A typed value (the table's own die), or nothing: the box rolls."""
    if data.draw(st.booleans(), label=f"box rolls {die}"):
        return {}
    return {"roll": data.draw(st.integers(low, high), label=die)}


def one_step(data: st.DataObject, s: Session, goal: str) -> None:
    st_ = s.state
    cur = st_.current_player
    names = [p.name for p in st_.players]
    who = cur.name if cur else names[0]
    if rare(data, 20, "someone else acts"):
        who = data.draw(st.sampled_from(names))
    me = st_.player(who)
    pend = next((q for q in st_.pending if q.player == who), None)
    if pend is not None and not rare(data, 6, "ignore the decision"):
        request = answer(data, s, who, pend.decision, pend.options, goal)
    else:
        kinds = ["move", "move", "move", "move_roll", "end_turn", "end_turn", "steal", "sell",
                 "trade", "undo", "roll"]
        own = {"art": "steal", "black_market": "sell", "trading": "trade"}.get(
            st_.turn.tile or "") if st_.turn.moved and not st_.turn.stolen else None
        if st_.turn.moved:  # the turn's own step first, then on to the next player
            kinds = ["end_turn"] * 8 + kinds
        kind = own if own and not rare(data, 4, "skip the tile's step") else \
            data.draw(st.sampled_from(kinds), label="command")
        request = {"cmd": kind, "player": who}
        if kind == "move":
            request = tile_request(data, s, who, goal) | _roll(data, "d6", 1, 6)
        elif kind == "move_roll":
            request |= _roll(data, "d6", 1, 6)
        elif kind == "steal":
            here = st_.museums.get(st_.turn.museum or "", ())
            request["art"] = data.draw(st.sampled_from(here)) if here else "?"
        elif kind == "sell":
            held = [a.name for a in me.art]
            request["art"] = data.draw(st.lists(st.sampled_from(held), unique=True)) \
                if held else []
        elif kind == "trade":
            others = [p for p in st_.players if p.name != who] or [me]
            other = data.draw(st.sampled_from(others))
            request = {"cmd": "trade", "from": who, "to": other.name,
                       "give": _some(data, me.attributes), "get": _some(data, other.attributes)}
        elif kind == "undo":
            request = {"cmd": "undo"}
        elif kind == "roll":
            request = {"cmd": "roll", "die": data.draw(st.sampled_from(["d6", "d100"]))}
    s.handle(request)


def _some(data: st.DataObject, cards: tuple[str, ...]) -> list[str]:
    picks = data.draw(st.lists(st.integers(0, max(len(cards) - 1, 0)), max_size=2, unique=True))
    return [cards[i] for i in picks if i < len(cards)]


STEER = {"obstacle": ["security", "alarm"], "caught": ["art", "art", "security"],
         "second_strike": ["security", "alarm"], "over": ["security", "alarm", "art"],
         "draw": ["recruitment"], "trade": ["trading"]}


def tile_request(data: st.DataObject, s: Session, who: str, goal: str) -> dict[str, Any]:
    p = s.state.player(who)
    tiles = INSIDE_TILES if p.where else (*OUTSIDE_TILES, *ONLY_INSIDE)
    tile = data.draw(st.sampled_from([*tiles, *STEER.get(goal, [])] * 1
                                     + STEER.get(goal, []) * 3), label="tile")
    request: dict[str, Any] = {"cmd": "move", "player": who, "tile": tile}
    if p.where is None and tile in ENTERING_TILES and s.state.museums and (
            tile in ONLY_INSIDE or rare(data, 4, "enter on a plain tile")):
        request["museum"] = data.draw(st.sampled_from(sorted(s.state.museums)), label="museum")
    return request


def answer(data: st.DataObject, s: Session, who: str, decision: str,
           options: tuple[str, ...], goal: str) -> dict[str, Any]:
    """A (mostly acceptable) answer to a pending decision."""
    p = s.state.player(who)
    if decision == "tile":
        return tile_request(data, s, who, goal)
    if decision == "obstacle":
        low, high = (0, 99) if s.state.rules.percentile == "0-99" else (1, 100)
        if goal in FAIL:
            high = low + 20
        return {"cmd": "bypass", "player": who,
                "specialist": _some(data, p.specialists)[:1],
                "attribute": _some(data, p.attributes)[:1]} | _roll(data, "d100", low, high)
    if decision in ("caught", "second_strike"):
        return {"cmd": "choose", "player": who, "choice": data.draw(st.sampled_from(options))}
    if decision == "reup":
        return {"cmd": "reup", "player": who} | _roll(data, "d6", 1, 6)
    if decision == "draw":
        deck = data.draw(st.sampled_from(["specialist", "attribute"]), label="deck")
        return {"cmd": "draw", "player": who, "deck": deck}
    return {"cmd": "state"}


def reachable_session(data: st.DataObject) -> Session:
    """A session in a random reachable state (it may be any phase, any pending decision)."""
    s = Session(seed=SEED)
    if rare(data, 20, "no game at all"):
        return s
    goal = data.draw(st.sampled_from(GOALS), label="goal")
    new_game(data, s, goal)
    deal(data, s)
    if goal == "tiebreak":  # everyone types the same die: a tie
        ok(s, {"cmd": "turn_order", "rolls": {p.name: 3 for p in s.state.players}})
    turn_order(data, s)
    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        if s.state.phase is not Phase.PLAYING or _reached(s, goal):
            break
        one_step(data, s, goal)
    return s


def _reached(s: Session, goal: str) -> bool:
    st_ = s.state
    if goal in ("trade",):
        return st_.turn.tile == "trading"
    return any(q.decision == goal for q in st_.pending)
