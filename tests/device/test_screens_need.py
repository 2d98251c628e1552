"""The box's obstacle screen tells the roll needed as the rules will judge it (GG-7, GG-8).

Checked against the rules themselves, face by face: whatever the box says ("need N+", "no
roll can pass", "no roll can fail") must agree with what `decide` makes of a physical roll of
each face the percentile dice can show, in both percentile modes and for any target, card
pick and art carried. (The box once asked for "100+" on dice that read 0-99, and called a
need of 1 certain where a 0 fails.)
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from device.games.gallery_grippers import screens as sc
from device.view import Cursor
from referee.dice import die_range
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.commands import Roll
from referee.games.gallery_grippers.rules import decide
from referee.games.gallery_grippers.state import GameState
from referee.session import Session

SEED = bytes.fromhex("5eed" * 16)


def at_obstacle(target: int, percentile: str, art: int) -> Session:
    """Ann, alone, facing a security tile in the Louvre, carrying `art` pieces."""
    s = Session(seed=SEED)
    assert s.handle({"cmd": "new_game", "players": ["Ann"], "rules": {
        "bypass_target": target, "percentile": percentile, "win_money": 10**12}})["ok"]
    from device.games.gallery_grippers.dealing import balanced_hands

    hand = balanced_hands(s.state, ["Ann"])["Ann"]
    assert s.handle({"cmd": "deal", "player": "Ann", **hand})["ok"]
    assert s.handle({"cmd": "turn_order", "rolls": {"Ann": 4}})["ok"]
    for _ in range(art):  # steal from the Louvre, going in and out through its art quadrant
        if not s.handle({"cmd": "move", "player": "Ann", "tile": "art", "museum": "The Louvre",
                         "roll": 1})["ok"]:
            assert s.handle({"cmd": "move", "player": "Ann", "tile": "art", "roll": 1})["ok"]
        piece = s.state.museums["The Louvre"][0]
        assert s.handle({"cmd": "steal", "player": "Ann", "art": piece})["ok"]
        assert s.handle({"cmd": "end_turn", "player": "Ann"})["ok"]
    tile = {"cmd": "move", "player": "Ann", "tile": "security", "roll": 2}
    if s.state.player("Ann").where is None:
        tile["museum"] = "The Louvre"
    assert s.handle(tile)["ok"]
    return s


def bypasses(state: GameState, spec: str | None, attr: str | None, face: int) -> bool:
    """What the rules make of this face: the bypass event's verdict."""
    events = decide(state, c.Bypass("Ann", (spec,) if spec else (), (attr,) if attr else (),
                                    Roll.physical("d100", face)))
    assert isinstance(events, list)
    return next(e for e in events if e["type"] == "bypass")["success"]


@settings(max_examples=80, deadline=None)
@given(target=st.integers(1, 250), percentile=st.sampled_from(["1-100", "0-99"]),
       art=st.integers(0, 2), spec_i=st.integers(0, 3), attr_i=st.integers(0, 3))
def test_the_need_the_box_shows_is_the_one_the_rules_judge(
        target: int, percentile: str, art: int, spec_i: int, attr_i: int) -> None:
    s = at_obstacle(target, percentile, art)
    state = s.state
    p = state.player("Ann")
    ui = Cursor()
    specs = sc.hand_options(state, p, "specialist")
    attrs = sc.hand_options(state, p, "attribute")
    ui.picks = {"specialist": spec_i % len(specs), "attribute": attr_i % len(attrs)}
    spec, attr = specs[ui.picks["specialist"]][1], attrs[ui.picks["attribute"]][1]
    text = sc.obstacle_view(state, p, ui).lines[-1]
    faces = die_range("d100", percentile)
    low, high = faces.start, faces.stop - 1
    passing = [f for f in faces if bypasses(state, spec, attr, f)]
    if text == "no roll can pass":
        assert passing == []
    elif text == "no roll can fail":
        assert passing == list(faces)
    else:
        m = re.fullmatch(r"need (\d+)\+ on d100", text)
        assert m, text
        need = int(m.group(1))
        assert low < need <= high, (text, low, high)  # a need the dice can show, not certain
        assert passing == list(range(need, high + 1))


def test_a_need_of_100_on_dice_that_read_0_99_is_no_roll_at_all() -> None:
    """Target 100, no cards, no art: 0-99 dice cannot reach it."""
    s = at_obstacle(100, "0-99", 0)
    p = s.state.player("Ann")
    assert sc.obstacle_view(s.state, p, Cursor()).lines[-1] == "no roll can pass"
