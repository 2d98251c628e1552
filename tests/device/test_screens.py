"""What the OLED shows about whose turn it is: only the current player's own roll, and every
player's strikes on the players page, whatever way the game went."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.render import render
from referee.session import Session
from tests.device.test_render import check_reference

SEED = bytes.fromhex("5eed" * 16)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def rolls_this_turn(box: BoxController) -> list[dict]:
    """Every standing roll event since the current turn began (an independent reading: the
    turn's start is found by its number, not by walking back to the nearest event)."""
    s = box.session.state
    events = [e for entry in box.session.log
              if not entry.undone and entry.command.get("cmd") != "undo"
              for e in entry.events]
    starts = [i for i, e in enumerate(events)
              if e["type"] == "turn" and e["number"] == s.turn_number]
    after = events[starts[-1] + 1:] if starts else []
    return [e for e in after if e["type"] == "roll" and e["die"] != "pick"]


presses = st.lists(st.tuples(st.sampled_from(["ROLL", "NEXT", "BACK", "MENU"]),
                             st.booleans()), min_size=5, max_size=120)


@settings(max_examples=60, deadline=None)
@given(presses, st.integers(1, 4))
def test_the_turn_screen_never_shows_another_turn_s_roll(seq: list[tuple[str, bool]],
                                                         players: int) -> None:
    clock = Clock()
    box = BoxController(Session(seed=SEED), clock=clock, idle_s=None)
    box.ui.players = players
    for button, long in seq:
        box.press(button, long)
        clock.t += 5  # notices expire between presses
        box.tick()
        v = box.view()
        if v.screen != "turn":
            continue
        p = box.session.state.current_player
        assert p is not None and v.title.startswith(p.name[:10])
        mine = rolls_this_turn(box)
        lines = v.lines
        if not mine:  # the turn has begun and nothing is rolled yet: no big number
            assert v.big is None and v.source is None, (v, box.session.log[-1].events)
            assert not lines[0].startswith("rolled")
        elif v.big is None:  # (a museum too long to stand beside it: the roll in words)
            assert lines[0].split()[:2] == ["rolled", str(mine[-1]["value"])]
            lines = lines[1:]
        else:
            assert v.big == str(mine[-1]["value"]) and mine[-1]["player"] == p.name
        assert lines[0].startswith("$") and v.strikes == p.strikes  # their own state


@settings(max_examples=40, deadline=None)
@given(presses, st.integers(1, 6))
def test_the_players_page_shows_every_player_s_strikes(seq: list[tuple[str, bool]],
                                                       players: int) -> None:
    clock = Clock()
    box = BoxController(Session(seed=SEED), clock=clock, idle_s=None)
    box.ui.players = players
    for button, long in seq:
        box.press(button, long)
        clock.t += 5
        box.tick()
    s = box.session.state
    shown: list[int | None] = []
    pages = sc.status_view(s, 0).title.split("/")[-1]
    for page in range(int(pages)):
        v = sc.status_view(s, page)
        assert len(v.pips) == len(v.lines) and v.pips[-1] is None
        shown += [n for n in v.pips if n is not None]  # (a long name: 2 rows)
        for row, n in zip(v.lines, v.pips, strict=True):
            assert len(row) <= (sc.STATUS_CHARS if n is not None else 21)  # never under pips
    assert shown == [p.strikes for p in s.players]


def test_a_new_turn_shows_the_new_player_without_the_last_roll() -> None:
    box = BoxController(Session(seed=SEED), idle_s=None, notice_s=0)
    box.press("ROLL")  # new game
    box.press("ROLL")  # turn order: everybody rolled a d6
    while box.view().screen == "tiebreak":
        box.press("ROLL")
    box.tick()
    v = box.view()
    assert v.screen == "turn" and v.big is None  # the turn-order d6 is not this turn's roll
    check_reference("turn-start", render(v))
