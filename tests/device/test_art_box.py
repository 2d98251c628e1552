"""The A.R.T. Project on the box, with buttons only (simulated hardware): the phase and the
`next` line, the MENU, and a battle without the console: ROLL, the dice (the box's, or the
tray simulator's one die after the other), the verdict term by term, then concede."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device.box import BoxController
from device.games.art_project import oled as art_project
from device.run import start_tray
from device.tray.sim import TraySimulator
from device.view import oled_screens
from referee.session import Session
from tests.device.test_box_tray import Loop
from tests.referee.games.art_project.test_session import SEED, to_battle


def at_battle() -> Session:
    """Phase C of round 1, Ann and Ben in Film (two agents there), one ally die unlocked."""
    s = Session(seed=SEED)
    to_battle(s)
    return s


def test_the_box_finds_the_game_s_screens_and_shows_the_phase_and_next() -> None:
    s = Session(seed=SEED)
    box = BoxController(s, idle_s=None)
    assert box.game is oled_screens("gallery-grippers")  # before any game: the box's own
    assert s.handle({"cmd": "new_game", "game": "art-project", "mission": "test-board",
                     "difficulty": "hard", "players": [{"name": "Ann"}]} | {"ally": "green"})["ok"]
    assert box.game is art_project.OLED
    view = box.view()
    shown = s.ruleset.state_json(s.state)
    assert view.screen == "phase" and view.title == "R1 A"
    assert " ".join(view.lines).startswith(shown["next"][:15])
    box.press("MENU")  # no end of phase while draws are owed
    assert box.view().menu == ("Actions...", "Undo...", "New game")
    box.close()


def choose(box: BoxController, wanted: str) -> None:
    """NEXT until `wanted` is highlighted, then ROLL (it must be offered)."""
    view = box.view()
    assert wanted in view.menu, (wanted, view.menu)
    for _ in range(len(view.menu)):
        view = box.view()
        if view.menu[view.cursor] == wanted:
            box.press("ROLL")
            return
        box.press("NEXT")
    raise AssertionError(f"{wanted} never highlighted")


def fight_in_film(box: BoxController) -> None:
    box.press("ROLL")  # the actions the rules allow
    choose(box, "Battle")
    if box.view().screen == "pick" and "Film" in box.view().menu:
        choose(box, "Film")
    choose(box, "led by Ann")


def test_a_battle_by_buttons_without_the_console() -> None:
    s = at_battle()
    box = BoxController(s, idle_s=None)
    assert box.view().screen == "phase"
    box.press("ROLL")  # the actions the rules allow
    view = box.view()
    assert view.screen == "acts" and "Battle" in view.menu
    choose(box, "Battle")
    view = box.view()
    battles = [r for r in s.ruleset.legal_actions(s.state, None) if r["cmd"] == "battle"]
    assert view.screen == "pick" and len(view.menu) <= len(battles)
    if "Film" in view.menu:
        choose(box, "Film")
    choose(box, "led by Ann")  # the box rolls every die of the battle
    rolls = [e for e in s.log[-1].events if e["type"] == "roll"]
    assert [r["id"] for r in rolls] == ["Ann", "ally1", "Ben"]
    assert all(r["source"] == "electronic" for r in rolls)
    v = next(e for e in s.log[-1].events if e["type"] == "battle")
    view = box.view()
    assert view.screen == "verdict"
    assert f"Team {v['dice_sum']}+{v['weapon_bonus']}={v['strength']}" in view.lines
    assert (f"Agts {v['city_agents']}+{v['threat']}+{v['hq']}={v['agents_strength']}"
            in view.lines)
    assert not v["won"]  # (this seed's dice: 6 against 12)
    box.press("ROLL")  # seen
    view = box.view()
    assert view.screen == "battle" and view.menu[-1] == "Concede"
    for _ in range(len(view.menu) - 1):
        box.press("NEXT")
    health = s.state.player("Ann").health
    box.press("ROLL")
    assert box.view().screen == "ask"  # it costs Ann a health: asked first
    box.press("ROLL")
    assert s.state.battle is None and s.state.player("Ann").health == health - 1
    box.close()


def test_undo_from_the_box_menu_never_rerolls_the_battle() -> None:
    s = at_battle()
    box = BoxController(s, idle_s=None)
    fight_in_film(box)
    first = {e["id"]: e["value"] for e in s.log[-1].events if e["type"] == "roll"}
    box.press("ROLL")  # the verdict seen
    box.press("MENU")
    choose(box, "Undo...")
    assert box.view().screen == "confirm" and "battle" in " ".join(box.view().lines)
    box.press("ROLL")
    assert s.state.battle is None and s.log[-1].command["cmd"] == "undo"
    fight_in_film(box)
    again = {e["id"]: e["value"] for e in s.log[-1].events if e["type"] == "roll"}
    assert again == first  # the kept dice, not new ones (ART-36)
    box.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[TraySimulator, BoxController, Loop]]:
    link = str(tmp_path / "dice-tray")
    sim = TraySimulator(link=link, seed=3).start()
    loop = Loop()
    box = BoxController(at_battle(), idle_s=None)
    driver = start_tray(link, box, loop.items.put, loop.said.append)
    try:
        loop.pump_until(lambda: driver.connected)
        yield sim, box, loop
    finally:
        driver.close()
        sim.close()
        box.close()


def test_the_tray_rolls_a_battle_s_dice_one_after_the_other(rig) -> None:
    sim, box, loop = rig
    s = box.session
    before = len(s.log)
    fight_in_film(box)
    for n, value in enumerate((6, 5, 4)):
        assert box.view().screen == "tray", n
        assert len(s.log) == before  # nothing is sent until the last die is in
        assert sim.wait_for(lambda: sim.firmware.armed is not None, 5.0)
        waiting = box.dice.waiting
        sim.roll("d6", [value])
        loop.pump_until(lambda w=waiting: box.dice.waiting is not w)  # the next die, or sent
    rolls = [e for e in s.log[-1].events if e["type"] == "roll"]
    assert [(r["id"], r["value"], r["source"], r.get("via")) for r in rolls] == [
        ("Ann", 6, "physical", "tray"), ("ally1", 5, "physical", "tray"),
        ("Ben", 4, "physical", "tray")]
    assert box.view().screen == "verdict"


def test_a_team_decision_is_answered_with_the_buttons() -> None:
    """ART-15: two sets completed at once: the box lists the ruleset's choices."""
    s = Session(seed=SEED)
    names = ("Ann", "Ben", "Cy")
    assert s.handle({"cmd": "new_game", "game": "art-project", "mission": "test-board",
                     "difficulty": "hard", "players": [{"name": n} for n in names]})["ok"]
    for n in names:
        for _ in range(2):
            assert s.handle({"cmd": "draw", "player": n})["ok"]
    box = BoxController(s, idle_s=None)
    for n in names:
        assert s.handle({"cmd": "play_card", "player": n, "clues": ["film", "book"]})["ok"]
    offered = [r for r in s.ruleset.legal_actions(s.state, None) if r["cmd"] == "choose"]
    assert len(offered) == 2  # film and book completed together: which first
    view = box.view()
    assert view.screen == "choice" and list(view.menu) == [r["choice"] for r in offered]
    box.press("NEXT")
    box.press("ROLL")
    logged = s.log[-1].command
    assert (logged["cmd"], logged["choice"]) == ("choose", offered[1]["choice"])
    assert box.view().screen != "choice"
    box.close()


def test_tray_battle_dice_undone_from_the_box_are_used_again_without_the_tray(rig) -> None:
    """Issue 24: the tray read the battle's dice, the table held BACK to undo; the battle
    fought again reuses what the tray read (kept), and the tray is not asked again."""
    sim, box, loop = rig
    s = box.session
    fight_in_film(box)
    for value in (4, 2, 5):
        assert sim.wait_for(lambda: sim.firmware.armed is not None, 5.0)
        waiting = box.dice.waiting
        sim.roll("d6", [value])
        loop.pump_until(lambda w=waiting: box.dice.waiting is not w)
    read = {e["id"]: e["value"] for e in s.log[-1].events if e["type"] == "roll"}
    assert read == {"Ann": 4, "ally1": 2, "Ben": 5}
    box.press("ROLL")  # the verdict seen
    box.press("BACK", long=True)  # undo
    confirm = box.view()
    assert confirm.screen == "confirm"
    assert "The dice stay (4, 2, 5): the next roll gives them again." in confirm.lines
    box.press("ROLL")
    assert s.log[-1].command["cmd"] == "undo" and s.state.battle is None
    fight_in_film(box)
    assert box.dice.waiting is None and box.view().screen == "verdict"  # the tray not asked
    again = {e["id"]: (e["value"], e["via"], e["kept"]) for e in s.log[-1].events
             if e["type"] == "roll"}
    assert again == {d: (v, "tray", True) for d, v in read.items()}


def test_a_new_game_from_the_box_before_any_game_and_its_menu() -> None:
    """The chooser, the A.R.T. new-game screen and its MENU (New game, no Undo) with no game."""
    s = Session(seed=SEED)
    box = BoxController(s, idle_s=None, names=["Ann"])
    box.press("MENU")
    choose(box, "New game")
    assert box.view().title == "New game of"
    choose(box, "The A.R.T. Project")
    assert (box.view().title, box.view().big) == ("The A.R.T. Project", "1")  # [box]: solo
    box.press("NEXT")
    box.press("BACK")  # (1-4, wrapping)
    assert box.view().big == "1"
    box.press("MENU")
    assert box.view().menu == ("New game",)
    box.press("MENU")  # closed: back to the new-game screen
    assert box.view().screen == "new"
    box.press("ROLL")
    choose(box, "Test board")
    choose(box, "hard")
    assert box.view().title == "Ally pawn colour?"
    choose(box, "orange")
    assert s.ruleset.id == "art-project" and [p.name for p in s.state.players] == ["Ann"]
    assert s.state.ally is not None and s.state.ally.color == "orange"
    assert box.view().screen == "phase"
    box.close()


def test_the_idle_screen_before_a_game_of_it_and_during_one() -> None:
    clock = [0.0]
    s = Session(seed=SEED)
    box = BoxController(s, clock=lambda: clock[0], idle_s=10.0)
    box.press("MENU")
    choose(box, "New game")
    choose(box, "The A.R.T. Project")  # set up, no game yet: its screens, another's state
    clock[0] = 60.0
    box.tick()
    assert box.view().screen == "idle" and box.view().lines == ("The A.R.T. Project",)
    box.close()
    s = at_battle()
    box = BoxController(s, clock=lambda: clock[0], idle_s=10.0)
    clock[0] = 120.0
    box.tick()
    assert box.view().lines[0] == f"Round 1 {s.state.phase}"
    box.close()
