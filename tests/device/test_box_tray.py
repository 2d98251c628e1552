"""Physical dice from the tray in button-only play, end to end: the tray simulator on a pty,
the real driver and bridge (wired as `referee box --tray` wires them), the box controller and
the session."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from device.box import BoxController
from device.run import start_tray
from device.tray.sim import TraySimulator
from device.traydice import TrayDice, Waiting
from referee.games.gallery_grippers import commands as c
from referee.session import Session

SEED = bytes(range(32))


class Loop:
    """The box's main loop, run by the test: presses and posted functions off one queue."""

    def __init__(self) -> None:
        self.items: queue.Queue[object] = queue.Queue()
        self.said: list[str] = []

    def pump_until(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; the box said: {self.said}"
            try:
                item = self.items.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            if callable(item):
                item()


def playing() -> Session:
    s = Session(seed=SEED)
    for request in (
        {"cmd": "new_game", "players": ["Ann", "Ben"]},
        {"cmd": "deal", "player": "Ann", "specialists": ["Hacker"] * 3,
         "attributes": ["More Tech"] * 3},
        {"cmd": "deal", "player": "Ben", "specialists": ["Lookout"] * 3,
         "attributes": ["Smoke Bomb"] * 3},
        {"cmd": "turn_order", "rolls": {"Ann": 6, "Ben": 1}},
    ):
        assert s.handle(request)["ok"], request
    return s


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[TraySimulator, BoxController, Loop, object]]:
    link = str(tmp_path / "dice-tray")
    sim = TraySimulator(link=link, seed=3).start()
    loop = Loop()
    box = BoxController(playing(), idle_s=None)
    driver = start_tray(link, box, loop.items.put, loop.said.append)
    try:
        loop.pump_until(lambda: driver.connected)
        yield sim, box, loop, driver
    finally:
        driver.close()
        sim.close()
        box.close()


def test_a_movement_roll_waits_for_the_tray_and_is_recorded_as_a_tray_roll(rig) -> None:
    sim, box, loop, _ = rig
    box.press("ROLL")  # on the turn screen: roll to move
    view = box.view()
    assert view.screen == "tray" and view.title == "Ann: roll d6"
    assert box.session.log[-1].command["cmd"] == "turn_order"  # nothing rolled yet
    assert sim.wait_for(lambda: sim.firmware.armed is not None
                        and sim.firmware.armed[1] == "d6", 5.0)
    sim.roll("d6", [4])
    loop.pump_until(lambda: box.session.log[-1].command["cmd"] == "move_roll")
    [roll] = [e for e in box.session.log[-1].events if e["type"] == "roll"]
    assert (roll["value"], roll["source"], roll["via"]) == (4, "physical", "tray")
    shown = box.view()
    assert (shown.screen, shown.big, shown.source) == ("tiles", "4", "tray")


def test_back_lets_the_box_roll_instead(rig) -> None:
    _, box, _, _ = rig
    box.press("ROLL")
    assert box.view().screen == "tray"
    box.press("BACK")
    [roll] = [e for e in box.session.log[-1].events if e["type"] == "roll"]
    assert roll["source"] == "electronic" and box.view().screen == "tiles"


def test_an_unasked_tray_roll_is_flagged_and_not_used(rig) -> None:
    sim, box, loop, _ = rig
    before = len(box.session.log)
    sim.roll("d6", [2])  # nobody armed the tray
    loop.pump_until(lambda: any("not used" in (box.view().notice or "") for _ in [0]))
    assert len(box.session.log) == before


def test_without_a_tray_the_box_rolls_at_once() -> None:
    box = BoxController(playing(), idle_s=None)
    box.press("ROLL")
    assert box.view().screen == "tiles"
    assert box.session.log[-1].command["cmd"] == "move_roll"


class FakeBridge:
    available = True

    def expect(self, player: str, die: str) -> None:
        pass

    def cancel(self) -> None:
        pass

    def release(self, *, force: bool = False) -> list[object]:
        return []


def test_a_tray_roll_is_held_while_another_decision_is_open() -> None:
    session = playing()
    dice = TrayDice(session, FakeBridge())
    assert dice.wait_for(Waiting("Ann", "d100", lambda r: c.Bypass("Ann", roll=r),
                                 answers=("obstacle",)))
    assert session.handle({"cmd": "move", "player": "Ann", "tile": "alarm",
                           "museum": "The Louvre", "roll": 2})["ok"]
    assert dice.blocker("Ann", "d100") is None  # the obstacle is what the roll answers
    session.handle({"cmd": "bypass", "player": "Ann", "roll": 1})  # a strike, turn goes on
    session.handle({"cmd": "end_turn", "player": "Ann"})
    session.handle({"cmd": "move", "player": "Ben", "tile": "recruitment", "roll": 1})
    reason = dice.blocker("Ann", "d100")
    assert reason is not None and "draw" in reason  # Ben's draw comes first: held


class CountingBridge(FakeBridge):
    def __init__(self) -> None:
        self.armed: list[tuple[str, str]] = []

    def expect(self, player: str, die: str) -> None:
        self.armed.append((player, die))


def test_a_kept_die_is_rolled_by_the_box_not_awaited_from_the_tray() -> None:
    """After an undo, the die is on the table: the box must reuse it. Waiting for the tray
    would only end in a `die_kept` refusal and a table pressing BACK (issue 11 §2)."""
    session = playing()
    bridge = CountingBridge()
    box = BoxController(session, idle_s=None)
    box.dice = TrayDice(session, bridge)
    move = lambda r: c.MoveRoll("Ann", roll=r)  # noqa: E731
    assert box.dice.wait_for(Waiting("Ann", "d6", move, ()))  # nothing kept: the tray rolls
    box.dice.give_up()
    electronic = session.apply(c.MoveRoll("Ann")).events[0]
    session.apply(c.Undo())
    assert session.kept_for(move(None)) and session.kept_for(c.FreeRoll("d6")) == ()
    box.roll("Ann", "d6", move)
    assert bridge.armed == [("Ann", "d6")]  # not armed a second time
    [again] = [e for e in session.log[-1].events if e["type"] == "roll"]
    assert again["kept"] and again["value"] == electronic["value"]
    assert again["index"] == electronic["index"] and session.kept == ()
    # with the kept die used, a roll of that die waits for the tray again
    assert box.dice.wait_for(Waiting("Ann", "d6", lambda r: c.FreeRoll("d6", roll=r), ()))
    assert bridge.armed == [("Ann", "d6")] * 2


def test_a_flooding_tray_is_told_to_the_table_and_its_end_too(rig) -> None:
    """The tray's flood notice reaches the box's screen (it used to stop at the log)."""
    sim, box, loop, _ = rig
    sim.flood(20_000, junk=True)
    loop.pump_until(lambda: "flooding" in (box.view().notice or ""), timeout=20)
    assert "roll again" in (box.view().notice or "")
    sim.flood(0)
    loop.pump_until(lambda: "calm again" in (box.view().notice or ""), timeout=20)


def test_a_tray_roll_undone_from_the_box_is_used_again_without_asking_the_tray(rig) -> None:
    """Issue 24: the tray read 4, the table held BACK to undo; ROLL gives 4 again (kept, as
    an electronic die would be) and the tray is not asked for a die it already read."""
    sim, box, loop, _ = rig
    box.press("ROLL")
    assert sim.wait_for(lambda: sim.firmware.armed is not None, 5.0)
    sim.roll("d6", [4])
    loop.pump_until(lambda: box.session.log[-1].command["cmd"] == "move_roll")
    box.press("BACK", long=True)  # undo
    assert box.view().screen == "confirm"
    assert "The die stays (4): the next roll gives it again." in box.view().lines
    box.press("ROLL")
    assert box.session.log[-1].command["cmd"] == "undo"
    assert box.view().screen == "turn"
    box.press("ROLL")  # roll to move again
    assert box.view().screen == "tiles" and box.dice.waiting is None  # the tray not asked
    [roll] = [e for e in box.session.log[-1].events if e["type"] == "roll"]
    assert (roll["value"], roll["source"], roll["via"], roll["kept"]) == (
        4, "physical", "tray", True)
    assert (box.view().big, box.view().source) == ("4", "kept")


def test_a_typed_die_corrected_at_another_front_end_is_said_on_the_box() -> None:
    s = playing()
    box = BoxController(s, idle_s=None)
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 4})["ok"]
    assert s.handle({"cmd": "undo"})["ok"]
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 6})["ok"]
    assert "corrected: Ann's d6 4 -> 6" in (box.view().notice or "").replace("\n", " ")
    box.close()
