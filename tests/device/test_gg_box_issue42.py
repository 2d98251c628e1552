"""Gallery Grippers from the box alone (issue 42): the deck menu's count, NEXT asking before
it ends a turn with actions left, the out and lost-art screens, trading from the buttons."""

from __future__ import annotations

from dataclasses import replace

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.view import Cursor
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.rules import queries as q
from referee.session import Session

SEED = bytes.fromhex("5eed" * 16)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def game(*hands: tuple[str, list[str], list[str]], **rules: object) -> Session:
    """A game of these players and hands, the first to play first."""
    s = Session(seed=SEED)
    names = [h[0] for h in hands]
    assert s.handle({"cmd": "new_game", "players": names, "rules": dict(rules)})["ok"]
    for name, specialists, attributes in hands:
        assert s.handle({"cmd": "deal", "player": name, "specialists": specialists,
                         "attributes": attributes})["ok"]
    rolls = {n: 6 - i for i, n in enumerate(names)}
    assert s.handle({"cmd": "turn_order", "rolls": rolls})["ok"]
    return s


def ok(s: Session, **request: object) -> None:
    answer = s.handle(dict(request))
    assert answer["ok"], answer


ANN = ("Ann", ["Hacker"] * 3, ["More Tech"] * 3)
BEN = ("Ben", ["Lookout"] * 3, ["Smoke Bomb", "Night Vision Goggles", "Stolen Blueprints"])


def test_the_deck_menu_counts_the_draw_pile_not_its_discards() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="recruitment", roll=3)
    state = s.state
    assert any(p.decision == "draw" for p in state.pending_for("Ann"))
    # some cards already discarded (as after a few bypasses): the draw pile is what is drawn
    discards = {"specialist": {"Hacker": 4}, "attribute": {"More Tech": 3}}
    state = replace(state, discards=discards)
    menu = sc.items("draw", state, Cursor())
    for label, deck in menu:
        pile = sum(state.piles[deck].values())
        assert label == f"{deck} ({pile} left)", (label, pile, q.cards_left(state, deck))


def boxed(s: Session) -> tuple[BoxController, Clock]:
    clock = Clock()
    return BoxController(s, clock=clock, idle_s=None), clock


def test_next_asks_before_it_ends_a_turn_with_actions_left() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    box, _ = boxed(s)
    assert box.view().screen == "turn"
    entries = len(s.log)
    box.press("NEXT")
    v = box.view()
    assert (v.screen, v.title) == ("confirm", "End turn?")
    assert "steal" in " ".join(v.lines) and len(s.log) == entries  # nothing ended yet
    box.press("BACK")  # no: the turn goes on
    assert box.view().screen == "turn" and len(s.log) == entries
    box.press("NEXT")
    box.press("ROLL")  # yes
    assert s.log[-1].command["cmd"] == "end_turn"
    assert s.state.current_player.name == "Ben"


def test_next_ends_at_once_when_nothing_is_left_to_do() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="airport", roll=3)
    box, _ = boxed(s)
    box.press("NEXT")
    assert s.log[-1].command["cmd"] == "end_turn"


def play_until(s: Session, done, *, steal: bool = False) -> None:
    """Console commands of a reckless table (every bypass rolls 1) until `done(state)`:
    into the Louvre's security, going back in after a second strike; with `steal`, the
    current player first takes a piece from the Louvre's art quadrant."""
    for _ in range(80):
        st = s.state
        if done(st):
            return
        p = st.current_player
        pend = [x.decision for x in st.pending_for(p.name)]
        if "obstacle" in pend:
            r = {"cmd": "bypass", "player": p.name, "roll": 1}
        elif "second_strike" in pend:
            r = {"cmd": "choose", "player": p.name, "choice": "reenter"}
        elif "caught" in pend:
            r = {"cmd": "choose", "player": p.name, "choice": "ditch"}
        elif steal and not st.turn.moved and not p.art:
            r = {"cmd": "move", "player": p.name, "tile": "art", "roll": 1}
            if p.where is None:
                r["museum"] = "The Louvre"
        elif steal and q.can(st, p.name, c.Steal):
            r = {"cmd": "steal", "player": p.name, "art": st.museums["The Louvre"][0]}
        elif not st.turn.moved:
            r = {"cmd": "move", "player": p.name, "tile": "security", "roll": 2}
            if p.where is None:
                r["museum"] = "The Louvre"
        else:
            r = {"cmd": "end_turn", "player": p.name}
        ok(s, **r)
    raise AssertionError("never got there")


def fail_bypass_from_the_box(box: BoxController) -> list:
    """ROLL, ROLL at the obstacle (no cards; the box's d100 cannot reach 1000), then a
    press on each result screen; the screens seen."""
    assert box.view().screen == "obstacle", box.view().text()
    box.press("ROLL")
    box.press("ROLL")
    seen = []
    while box.view().screen in ("verdict", "lost", "out"):
        seen.append(box.view())
        box.press("ROLL")
    return seen


def test_a_third_strike_shows_the_out_screen_what_became_of_the_hand() -> None:
    s = game(ANN, BEN, ("Cy", ["Lookout"] * 3, ["Smoke Bomb"] * 3), bypass_target=1000)
    play_until(s, lambda st: st.player("Ann").strikes == 2 and st.turn.moved
               and st.current_player.name == "Ann" and not st.pending)
    ok(s, cmd="end_turn", player="Ann")
    play_until(s, lambda st: st.current_player.name == "Ann")
    ok(s, cmd="move", player="Ann", tile="security", roll=2)
    box, _ = boxed(s)
    seen = fail_bypass_from_the_box(box)
    assert [v.screen for v in seen] == ["verdict", "out"]
    out = seen[1]
    text = " ".join(out.lines)
    assert out.title == "Ann is out" and "third strike" in text
    assert out.lines[1:] == ("6 cards discarded", "Ben plays next")
    assert s.state.player("Ann").status == "out"
    assert box.view().screen == "turn"  # then the game goes on with Ben


def test_art_lost_at_a_failed_bypass_has_its_screen() -> None:
    s = game(ANN, BEN, bypass_target=1000)
    play_until(s, lambda st: st.player("Ann").strikes == 1 and st.current_player.name == "Ben")
    play_until(s, lambda st: bool(st.player("Ann").art) and st.current_player.name == "Ben",
               steal=True)
    play_until(s, lambda st: st.current_player.name == "Ann")
    piece = s.state.player("Ann").art[0].name
    r = {"cmd": "move", "player": "Ann", "tile": "security", "roll": 2}
    if s.state.player("Ann").where is None:
        r["museum"] = "The Louvre"
    ok(s, **r)
    box, _ = boxed(s)
    seen = fail_bypass_from_the_box(box)
    assert [v.screen for v in seen] == ["verdict", "lost"]
    lost = seen[1]
    assert lost.title == "Ann: art lost"
    assert f"{piece} back to Louvre" in lost.lines and "and strike 2" in lost.lines
    assert box.view().screen == "choice"  # the second strike's choice follows


def pick(box: BoxController, label: str) -> None:
    """NEXT until `label` is highlighted, then ROLL."""
    for _ in range(len(box.view().menu) + 1):
        v = box.view()
        if v.menu[v.cursor] == label:
            box.press("ROLL")
            return
        box.press("NEXT")
    raise AssertionError(f"{label!r} not in {box.view().menu}")


def test_a_trade_at_the_trading_post_from_the_buttons() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="trading", roll=3)
    box, _ = boxed(s)
    v = box.view()
    assert v.screen == "turn" and v.hint == "ROLL:trade NEXT:end"
    box.press("ROLL")
    assert box.view().menu == ("Ben",)  # the partners the rules list
    box.press("ROLL")
    give = box.view()
    legal = {a.give[0] for a in q.legal_actions(s.state, "Ann") if isinstance(a, c.Trade)
             and a.give}
    assert give.title == "Give Ben:"  # each copy of each card the rules let change hands
    assert give.menu == ("give nothing", *(f"[ ] +{q.card_bonus(s.state, n)} {n}"
                                           for n in s.state.player("Ann").attributes
                                           if n in legal))
    pick(box, "[ ] +20 More Tech")
    assert box.view().menu[:2] == ("done giving", "[x] +20 More Tech")
    pick(box, "done giving")
    get = box.view()
    assert get.title == "Get from Ben:" and get.lines == ("you give 1 card",)
    assert get.menu == ("get nothing", *(f"[ ] +{q.card_bonus(s.state, n)} {n}"
                                         for n in s.state.player("Ben").attributes))
    pick(box, "[ ] +10 Night Vision Goggles")
    pick(box, "done: trade")
    assert s.log[-1].command == {"cmd": "trade", "from": "Ann", "to": "Ben",
                                 "give": ["More Tech"], "get": ["Night Vision Goggles"]}
    assert box.view().notice == "Traded: hand the cards over."  # the table moves the cards
    assert "Night Vision Goggles" in s.state.player("Ann").attributes
    assert s.state.player("Ben").attributes.count("More Tech") == 1
    assert box.view().screen == "turn"


def test_a_trade_one_way_from_the_menu_and_back_out_of_one() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="trading", roll=3)
    box, _ = boxed(s)
    box.press("MENU")
    pick(box, "Trade cards")
    box.press("ROLL")  # Ben
    box.press("BACK")  # back to the partners
    assert box.view().title == "Trade with whom?"
    box.press("ROLL")
    pick(box, "give nothing")
    pick(box, "[ ] +30 Stolen Blueprints")
    pick(box, "done: trade")
    assert s.log[-1].command["get"] == ["Stolen Blueprints"] and not s.log[-1].command["give"]
    entries = len(s.log)
    box.press("ROLL")
    box.press("ROLL")
    pick(box, "give nothing")
    pick(box, "get nothing")  # nothing: nothing sent, said
    assert len(s.log) == entries and "Nothing traded" in (box.view().notice or "")


def test_end_turn_asked_is_withdrawn_when_the_turn_ends_elsewhere() -> None:
    """'End turn?' is a question about this turn: ended at the console meanwhile, it goes
    (a ROLL must not end the next player's turn)."""
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    box, _ = boxed(s)
    box.press("NEXT")
    assert box.view().title == "End turn?"
    ok(s, cmd="end_turn", player="Ann")  # at the console
    assert box.view().screen == "turn" and s.state.current_player.name == "Ben"
    box.press("ROLL")  # Ben's move roll, not an end of his turn
    assert s.log[-1].command["cmd"] == "move_roll"


def test_a_trade_of_several_cards_each_way_from_the_buttons() -> None:
    """GG-4 trades attribute cards, any number each way: each copy is its own item, ROLL
    ticks and unticks it, and the trade is one command."""
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="trading", roll=3)
    box, _ = boxed(s)
    box.press("ROLL")  # trade
    box.press("ROLL")  # with Ben
    for _ in range(3):
        pick(box, "[ ] +20 More Tech")
    assert box.view().menu == ("done giving", *["[x] +20 More Tech"] * 3)
    box.press("ROLL")  # (the cursor stays on the third copy) unticked
    assert box.view().menu.count("[x] +20 More Tech") == 2
    pick(box, "done giving")
    assert box.view().lines == ("you give 2 cards",)
    pick(box, "[ ] +5 Smoke Bomb")
    pick(box, "[ ] +10 Night Vision Goggles")
    box.press("BACK")  # a look at the cards given: still ticked
    assert box.view().menu.count("[x] +20 More Tech") == 2
    pick(box, "done giving")
    pick(box, "done: trade")
    assert s.log[-1].command == {"cmd": "trade", "from": "Ann", "to": "Ben",
                                 "give": ["More Tech", "More Tech"],
                                 "get": ["Smoke Bomb", "Night Vision Goggles"]}
    assert s.state.player("Ann").attributes.count("More Tech") == 1
    assert list(s.state.player("Ben").attributes) == ["Stolen Blueprints", "More Tech",
                                                      "More Tech"]
    assert box.view().screen == "turn"


def test_after_an_undone_draw_the_deck_menu_offers_only_the_deck_it_was_drawn_from() -> None:
    """The card seen stays bound to its draw (`draw_bound`): the box offers that deck alone
    and says why, rather than a deck the session would refuse."""
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="recruitment", roll=3)
    box, _ = boxed(s)
    assert len(box.view().menu) == 2
    pick(box, box.view().menu[1])  # the second deck
    deck = s.log[-1].command["deck"]
    box.press("ROLL")  # seen
    box.press("BACK", long=True)
    box.press("ROLL")  # undone
    v = box.view()
    assert v.screen == "draw" and len(v.menu) == 1 and v.menu[0].startswith(deck), v.text()
    assert v.lines == ("the undone draw's card comes next",)
    box.press("ROLL")
    assert s.log[-1].command["cmd"] == "draw" and s.log[-1].command["deck"] == deck
