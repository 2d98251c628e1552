"""Gallery Grippers' OLED in words (issue 42): the players page, the turn, the tiles, the
obstacle and the verdict say what a new player reads, no abbreviation ("a1", "T7", "S+25",
"black mkt", "3+3"), and the new-game screen names every player."""

from __future__ import annotations

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.view import Cursor
from tests.device.test_gg_box_bot import terse
from tests.device.test_gg_box_issue42 import ANN, BEN, game, ok, pick


def test_the_players_page_says_the_art_held_in_words() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    ok(s, cmd="steal", player="Ann", art=s.state.museums["The Louvre"][0])
    pages = int(sc.status_view(s.state, 0).title.split("/")[-1])
    views = [sc.status_view(s.state, page) for page in range(pages)]
    rows = [line for v in views for line in v.lines]
    assert "$0, art held: 1" in rows and "$0, art held: 0" in rows, rows
    assert not [t for v in views for t in terse(v)]


def test_a_turn_from_the_tiles_to_the_verdict_is_in_words() -> None:
    s = game(ANN, BEN)
    box = BoxController(s, idle_s=None)
    seen = [box.view()]
    box.press("ROLL")  # the movement roll: the tiles
    seen.append(box.view())
    assert "black market" in seen[-1].menu
    pick(box, "security >")
    pick(box, "Louvre")
    seen.append(box.view())  # the obstacle: the specialist
    box.press("NEXT")
    box.press("ROLL")
    seen.append(box.view())  # the attribute
    box.press("ROLL")
    seen.append(box.view())  # the verdict
    assert [v.screen for v in seen] == ["turn", "tiles", "obstacle", "obstacle", "verdict"]
    assert seen[0].title == "Ann, turn 1"
    for v in seen:
        assert not terse(v), v.text()


def test_the_new_game_screen_names_every_player() -> None:
    ui = Cursor(players=4)
    assert "Ann, Ben, P3, P4" in sc.new_view(ui, ["Ann", "Ben"]).lines
