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


def test_undo_asks_in_the_ruleset_s_words_and_a_choice_in_its_menu_s() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="recruitment", roll=3)
    ok(s, cmd="draw", player="Ann", deck="specialist")
    box = BoxController(s, idle_s=None)
    box.press("BACK", long=True)
    v = box.view()
    assert (v.screen, v.lines[0]) == ("confirm", "Ann's draw"), v.text()
    s2 = game(ANN, BEN, bypass_target=1000)
    for _ in range(2):  # two failed bypasses: the second strike's choice
        ok(s2, cmd="move", player="Ann", tile="security", museum="The Louvre", roll=2)
        ok(s2, cmd="bypass", player="Ann", roll=1)
        if not s2.state.pending_for("Ann"):
            ok(s2, cmd="end_turn", player="Ann")
            ok(s2, cmd="move", player="Ben", tile="airport", roll=3)
            ok(s2, cmd="end_turn", player="Ben")
    ok(s2, cmd="choose", player="Ann", choice="reenter")
    box = BoxController(s2, idle_s=None)
    box.press("BACK", long=True)
    assert box.view().lines[:2] == ("Ann's choice", "go back in (2 strikes)"), box.view().text()


def test_a_card_drawn_says_the_deck_then_the_card() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="recruitment", roll=3)
    box = BoxController(s, idle_s=None)
    box.press("ROLL")  # the deck highlighted first
    v = box.view()
    assert v.screen == "drawn" and v.lines[0].startswith("from the ") and v.lines[-1] == (
        "hand it over") and v.lines[1].startswith("+"), v.text()


def test_the_second_strike_s_choices_say_what_they_leave_the_player_with() -> None:
    s = game(ANN, BEN, bypass_target=1000)
    for _ in range(2):
        ok(s, cmd="move", player="Ann", tile="security", museum="The Louvre", roll=2)
        ok(s, cmd="bypass", player="Ann", roll=1)
        if not s.state.pending_for("Ann"):
            ok(s, cmd="end_turn", player="Ann")
            ok(s, cmd="move", player="Ben", tile="airport", roll=3)
            ok(s, cmd="end_turn", player="Ben")
    v = BoxController(s, idle_s=None).view()
    assert (v.title, v.menu) == ("Ann: strike 2", ("leave (strikes reset)",
                                                   "go back in (2 strikes)")), v.text()


def test_a_museum_too_long_to_stand_beside_the_roll_gives_the_roll_in_words() -> None:
    """"Metropolitan" is longer than a row beside the big number: the roll is said in
    words and the turn screen still fits its four rows, nothing broken mid-word."""
    from device.view import BESIDE_BIG, layout

    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art",
       museum="The Metropolitan Museum of Art", roll=5)
    v = BoxController(s, idle_s=None).view()
    assert v.big is None and v.lines[0] == "rolled 5 (typed)", v.text()  # (at the console)
    assert "in Metropolitan" in v.lines and len(layout(v).body) == len(v.lines) == 4
    assert len("Metropolitan") > BESIDE_BIG


def test_the_sale_menu_names_a_lone_piece_and_counts_several() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    ok(s, cmd="steal", player="Ann", art="Mona Lisa")
    ok(s, cmd="end_turn", player="Ann")
    ok(s, cmd="move", player="Ben", tile="airport", roll=3)
    ok(s, cmd="end_turn", player="Ben")
    ok(s, cmd="move", player="Ann", tile="exit", roll=2)
    ok(s, cmd="end_turn", player="Ann")
    ok(s, cmd="move", player="Ben", tile="airport", roll=3)
    ok(s, cmd="end_turn", player="Ben")
    ok(s, cmd="move", player="Ann", tile="black_market", roll=2)
    assert [label for label, _ in sc.items("sell", s.state, Cursor())] == ["Mona Lisa: $700M"]


def test_a_theft_and_a_sale_from_the_buttons_are_said() -> None:
    """The table moves the piece and the money: the box says what changed hands."""
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    box = BoxController(s, idle_s=None)
    box.press("ROLL")  # steal: the first piece listed
    pick(box, "Mona Lisa $700M -35%")
    assert box.view().notice == "Ann takes Mona Lisa."
    for request in ({"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "airport", "roll": 3},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "exit", "roll": 2},
                    {"cmd": "end_turn", "player": "Ann"},
                    {"cmd": "move", "player": "Ben", "tile": "airport", "roll": 3},
                    {"cmd": "end_turn", "player": "Ben"},
                    {"cmd": "move", "player": "Ann", "tile": "black_market", "roll": 2}):
        ok(s, **request)
    box.press("ROLL")  # sell
    box.press("ROLL")
    assert box.view().notice == "Sold for $700M: Ann has $700M."


def test_a_draw_says_why_in_words() -> None:
    s = game(ANN, BEN)
    ok(s, cmd="move", player="Ann", tile="recruitment", roll=3)
    assert BoxController(s, idle_s=None).view().lines == ("1 card to draw (recruitment tile)",)
    s = game(ANN, BEN)  # three bypasses of two cards each use the hand up: a re-up is due
    for turn in range(3):
        museum = {"museum": "The Louvre"} if turn == 0 else {}
        ok(s, cmd="move", player="Ann", tile="security", roll=2, **museum)
        ok(s, cmd="bypass", player="Ann", specialist=["Hacker"], attribute=["More Tech"],
           roll=100)
        ok(s, cmd="end_turn", player="Ann")
        ok(s, cmd="move", player="Ben", tile="airport", roll=3)
        ok(s, cmd="end_turn", player="Ben")
    box = BoxController(s, idle_s=None)
    assert box.view().screen == "reup", box.view().text()
    box.press("ROLL")
    lines = box.view().lines
    assert box.view().screen == "draw" and lines[0].endswith("to draw (re-up)"), lines


def test_a_choice_says_whose_it_is() -> None:
    s = game(ANN, BEN, bypass_target=1000)
    ok(s, cmd="move", player="Ann", tile="art", museum="The Louvre", roll=1)
    ok(s, cmd="steal", player="Ann", art="Mona Lisa")
    ok(s, cmd="end_turn", player="Ann")
    ok(s, cmd="move", player="Ben", tile="airport", roll=3)
    ok(s, cmd="end_turn", player="Ben")
    ok(s, cmd="move", player="Ann", tile="security", roll=2)
    ok(s, cmd="bypass", player="Ann", roll=1)
    v = BoxController(s, idle_s=None).view()
    assert (v.screen, v.title) == ("choice", "Ann caught!"), v.text()
