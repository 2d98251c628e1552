"""Gallery Grippers from the box alone (issue 42): the deck menu's count, NEXT asking before
it ends a turn with actions left, the out and lost-art screens, trading from the buttons."""

from __future__ import annotations

from dataclasses import replace

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.view import Cursor
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
        assert label == f"{deck} ({pile})", (label, pile, q.cards_left(state, deck))


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
