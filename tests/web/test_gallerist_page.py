"""The Gallerist's page (issue 39): the box's draws of visitors are shown as the last draw
(not "No dice rolled yet" beside them), and nobody is "to act" in a game left unfinished."""

from __future__ import annotations

import html
import re

from referee.session import Session
from tests.referee.conftest import SEED
from web import page
from web.view import Snapshots


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def gallerist() -> Session:
    s = Session(seed=SEED)
    for request in ({"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben"],
                     "start_player": "Ann", "bag": {"pink": 3, "brown": 3, "white": 3}},
                    {"cmd": "draw_visitor"}, {"cmd": "draw_visitor"}):
        answer = s.handle(request)
        assert answer["ok"], answer
    return s


def test_the_box_s_last_draw_from_the_bag_is_shown_not_no_dice() -> None:
    s = gallerist()
    drawn = [e["colour"] for e in s.log[-1].events if e["type"] == "visitor_drawn"]
    data = Snapshots().snapshot(s)
    shown = words(page.dice(data))
    assert "No dice rolled yet" not in shown
    assert f"Last draw (#{s.log[-1].seq}) {drawn[0]} visitor drawn from the bag" in shown, shown
    assert "the box's draw" in shown


def test_an_abandoned_game_s_page_names_nobody_to_act() -> None:
    s = gallerist()  # in setup: Ben owes his starting place
    data = Snapshots().snapshot(s)
    assert "— to act" in words(page.table(data))  # (the game being played)
    left = {**data, "past": {"status": "abandoned"}}
    shown = words(page.table(left))
    assert "to act" not in shown and "to play" not in shown, shown
    assert "Left unfinished" in words(page.status(left))
