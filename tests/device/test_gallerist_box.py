"""The Gallerist's clock on the box's buttons (issue 25), the real way: `referee box
--hardware sim` built by `build_box`, every press a finger on a gpiozero mock pin debounced
by our detectors, every frame through luma's ssd1306 and the page diff to the emulated chip
and mirrored to PNG. The game is started at the console (the session), then: the starting
places, a visitor the box draws (its colour said), a move that kicks a gallerist out, the
location action, NEXT ending the turn, the kicked-out player's pass, the next turn; undo
asks first; the final scoring sent from the box and the standings at the end. And, by
hypothesis, every item the box lists is one the ruleset accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from device.box import BoxController
from device.games.gallerist import oled as gallerist
from device.render import render
from referee.session import Session
from tests.device.test_box import Rig
from tests.device.test_render import check_reference
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
START = {**play.START, "start_player": "Ann"}  # Ann, Ben, Cy; the fixture catalog


def goto(rig: Rig, label: str) -> None:
    """NEXT until the highlighted item is `label`."""
    for _ in range(len(rig.box.view().menu) + 1):
        v = rig.box.view()
        if v.menu[v.cursor] == label:
            return
        rig.press("NEXT")
    raise AssertionError(f"{label!r} not in {rig.box.view().menu}")


def listed(box: BoxController) -> list[dict[str, Any]]:
    """The requests behind the box's open list (the moves and tickets lists opened too)."""
    out = []
    for _, what in gallerist.items(box.mode(), box.session.state, box.ui, (), box):
        if isinstance(what, str):
            out += [r for _, r in gallerist.items(what, box.session.state, box.ui, (), box)]
        else:
            out.append(what)
    return out


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    r = Rig(tmp_path)
    yield r
    r.close()


def test_a_turn_a_kick_out_and_a_pass_by_the_buttons_alone(rig: Rig, tmp_path: Path) -> None:
    s = rig.box.session
    play.ok(s, **START)  # the console starts the game; the box follows it
    view = rig.box.view()
    assert view.screen == "clock" and view.title == "Setup"
    assert view.lines[0] == "Cy: place gallerist"  # reverse turn order (GAL-4)
    assert "checklist 0/10 done" in view.lines
    check_reference("gallerist-setup", render(view))

    # a visitor for the plaza, drawn by the box: its colour is said until a press
    rig.press("ROLL")
    assert rig.box.view().title == "Cy: now"
    goto(rig, "Draw a visitor")
    rig.press("ROLL")
    drawn = next(e for e in s.log[-1].events if e["type"] == "visitor_drawn")
    view = rig.box.view()
    assert view.screen == "drawn" and view.lines[0] == f"{drawn['colour']} visitor"
    bag = s.ruleset.state_json(s.state)["bag"]
    assert " ".join(view.lines[1:]) == "left in the bag: " + ", ".join(
        f"{k} {v}" for k, v in bag.items())
    rig.press("NEXT")  # seen
    assert rig.box.view().screen == "clock"

    # the starting places, each the first item of the due player's list
    places = {}
    while s.state.phase == "setup":
        due = s.ruleset.state_json(s.state)["pending"][0]["player"]
        rig.press("ROLL")
        assert rig.box.view().title == f"{due}: now"
        rig.press("ROLL")
        places[due] = s.log[-1].command["location"]
        assert s.log[-1].command["player"] == due
    assert list(places) == ["Cy", "Ben", "Ann"]

    # Ann's turn: the clock says whose turn and what the turn may do now
    view = rig.box.view()
    assert view.title == "R1 turn: Ann"
    assert view.lines == ("$10 influence 10", "now: move, exec", "bag: 8 visitors")
    check_reference("gallerist-turn", render(view))
    rig.press("ROLL")
    assert rig.box.view().menu[0] == "Move..."
    rig.press("ROLL")
    assert rig.box.view().screen == "moves"
    goto(rig, places["Cy"])  # onto Cy's gallerist
    rig.press("ROLL")
    assert s.log[-1].command == {"cmd": "move", "player": "Ann", "to": places["Cy"]}
    assert rig.box.view().lines[1] == "now: action, exec"
    rig.press("NEXT")  # end the turn too soon: the rule says no, nothing is lost
    view = rig.box.view()
    assert view.notice is not None and view.notice.startswith("Not allowed (GAL-6)")
    assert s.log[-1].command["cmd"] == "move"
    rig.press("ROLL")
    assert rig.box.view().menu[0] == "Location action"
    rig.press("ROLL")
    rig.press("NEXT")  # now the turn ends
    assert s.log[-1].command == {"cmd": "end_turn", "player": "Ann"}

    # the kicked-out player's action is pending: the clock says so, the list offers it
    view = rig.box.view()
    assert view.title == "R1 turn: Ann" and view.lines[:2] == ("Cy kicked out:",
                                                        "gallerist, Media Centre")
    check_reference("gallerist-kickout", render(view))
    # the idle screen names who must act now: Cy's kicked-out action, not Ann's turn (issue 39)
    from device.games.gallerist.oled import idle

    assert idle(s.state).lines[0] == "R1 Cy: kicked out"
    rig.press("ROLL")
    view = rig.box.view()
    assert view.title == "Cy: now"
    assert view.menu[:3] == ("Cy: location", "Cy: exec", "Cy: pass")
    goto(rig, "Cy: pass")
    rig.press("ROLL")
    assert s.log[-1].command == {"cmd": "kickout_action", "player": "Cy", "kind": "pass"}
    assert rig.box.view().title == "R1 turn: Ben"  # the next turn

    # undo asks first, in the ruleset's words, and BACK keeps everything
    rig.press("BACK", long=True)
    view = rig.box.view()
    assert view.screen == "confirm" and "kicked-out action" in " ".join(view.lines)
    rig.press("BACK")
    assert s.log[-1].command["cmd"] == "kickout_action"
    rig.press("BACK", long=True)
    rig.press("ROLL")
    assert s.log[-1].command["cmd"] == "undo" and rig.box.view().lines[0] == "Cy kicked out:"

    # the standings, MENU held: money, best first
    rig.press("MENU", long=True)
    view = rig.box.view()
    assert view.screen == "standings" and view.lines[0] == "1 Ann        $10"
    rig.press("BACK")
    assert rig.box.view().screen == "clock"

    # the real path: two edges per press through gpiozero, each frame to the chip and PNG
    assert rig.presser.done == rig.asked and rig.buttons.edges == 2 * rig.asked
    frames = sorted((tmp_path / "frames").glob("frame-*.png"))
    assert len(frames) == rig.oled.frames
    last = Image.open(frames[-1]).convert("1")
    assert last.tobytes() == render(rig.box.view()).tobytes()


def test_final_scoring_from_the_box_and_the_standings_at_the_end(rig: Rig) -> None:
    s = rig.box.session
    script = make_games.game()
    for req in script[:-1]:  # the console records the game, up to every figure entered
        if req["cmd"] != "state":
            play.ok(s, **req)
    view = rig.box.view()
    assert view.title == "Final scoring" and view.lines[0] == "all in"
    assert view.lines[1:] == ("1 Ben         54", "2 Ann         40")
    rig.press("ROLL")
    assert rig.box.view().menu == ("Final scoring",)  # the ruleset's one legal step
    rig.press("ROLL")
    view = rig.box.view()
    assert s.state.over and view.screen == "over"
    assert view.lines == ("Ben won", "1 Ben         54", "2 Ann         40")
    check_reference("gallerist-over", render(view))
    rig.press("BACK", long=True)  # the result stands (GAL-24): asked, then refused
    rig.press("ROLL")
    assert "GAL-24" in (rig.box.view().notice or "") and s.state.over


def test_what_final_scoring_owes_is_on_the_clock() -> None:
    s = Session(seed=play.SEED)
    box = BoxController(s, idle_s=None)
    try:
        script = make_games.game()
        stop = next(i for i, r in enumerate(script) if r["cmd"] == "score")
        for req in script[:stop]:
            play.ok(s, **req)
        owed = s.ruleset.state_json(s.state)["scoring"]["owed"]
        view = box.view()
        assert view.lines[0] == f"owed: {len(owed)} entries"
        assert view.lines[1].endswith("...") and view.lines[2].endswith("...")
    finally:
        box.close()


@st.composite
def walks(draw: st.DrawFn) -> list[int]:
    return draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=40))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=walks(), players=st.integers(1, 4), fixture=st.booleans())
def test_every_item_the_box_lists_is_legal_and_accepted(picks: list[int], players: int,
                                                        fixture: bool) -> None:
    """Random games by the box's lists alone, with the test catalog or the built-in one
    (no desks, no fame icons: a kicked-out assistant's desk is said, a kicked-out location
    action is left to the console): each list is the ruleset's legal actions the box can
    send (no more: none is refused; no less: each of those is listed)."""
    s = Session(seed=play.SEED)
    box = BoxController(s, idle_s=None)
    start: dict[str, Any] = {**play.START, "players": [*play.NAMES, "Di"][:players]}
    if not fixture:
        del start["catalog"]
        start["bag"] = 9
    try:
        play.ok(s, **start)
        for pick in picks:
            if s.state.over:
                break
            box.ui.overlay, box.ui.step, box.ui.index, box.ui.ack = None, "actions", 0, None
            shown = listed(box)
            legal = gallerist._legal(box)
            assert sorted(map(repr, shown)) == sorted(map(repr, legal))
            assert all(r in s.ruleset.legal_actions(s.state, None) for r in shown)
            if not shown:
                break
            top = gallerist.items("actions", s.state, box.ui, (), box)
            box.ui.index = pick % len(top)
            box.act("roll")
            if box.mode() in gallerist.SUBMENUS.values():
                sub = gallerist.items(box.mode(), s.state, box.ui, (), box)
                box.ui.index = (pick // 7) % len(sub)
                box.act("roll")
            assert box.view().notice is None, box.view().notice  # never refused
    finally:
        box.close()


def test_gal24_the_box_ranks_the_end_by_the_ruleset_s_places_tiebreakers_included() -> None:
    """Issue 39: Ann and Ben tie on 56, Ann wins on works acquired; Cy has 20. The box said
    "1 Ann / 1 Ben / 3 Cy" (recounting by total); the console, page and export say Ann 1st,
    Ben 2nd, Cy 3rd, as the ruleset's places do."""
    from tests.referee.games.gallerist.helpers import Game

    g = Game(["Ann", "Ben", "Cy"], catalog=None, bag=30)
    g.place_all()
    for name, money in (("Ann", 56), ("Ben", 56), ("Cy", 20)):
        g.given_player(name, money=money)
    g.given_player("Ann", sold=("Red 1",))
    g.given(phase="final_scoring", current=None, queue=())
    for n in ("Ann", "Ben", "Cy"):
        for cat in ("reputation", "curator", "dealer", "influence"):
            g.ok("score", player=n, category=cat, money=0)
    assert g.ok("final_scoring")[-1]["winners"] == ["Ann"]
    state = g.json
    assert [(p["name"], p["total"], p["place"]) for p in state["scoring"]["players"]] == [
        ("Ann", 56, 1), ("Ben", 56, 2), ("Cy", 20, 3)]
    lines, _ = gallerist._standings_lines(state, 0)
    assert lines == ("1 Ann         56", "2 Ben         56", "3 Cy          20")


def test_gal8_a_gallerist_and_an_assistant_kicked_out_together_are_one_action_on_the_box() -> None:
    """Issue 39: one kicked-out action for both pieces; the clock says so in its lines."""
    from tests.referee.games.gallerist.helpers import Game

    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ben", desks=3, locations=("Artists Colony",))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert gallerist.pending_lines(g.json) == (
        "Ben kicked out:", "2 pieces, Artists Colony", "an action, or pass")
