"""The bridge: expected tray rolls become physical rolls; blocked ones are held; others flagged."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from device.tray.bridge import HeldRoll, PhysicalRoll, TrayBridge
from device.tray.errors import TrayUnavailableError, TrayUsageError
from device.tray.link import TrayResult


class FakeTray:
    def __init__(self, connected: bool = True) -> None:
        self.connected = connected
        self.flooding = False
        self.dropped_lines = 0
        self.on_result: Callable[[TrayResult], None] | None = None
        self.on_unexpected: Callable[[TrayResult], None] | None = None
        self.arms: list[tuple[int, str]] = []
        self.disarms: list[int | None] = []

    def arm(self, die: str) -> int:
        self.arms.append((len(self.arms) + 1, die))
        return len(self.arms)

    def disarm(self, arm_id: int | None = None) -> None:
        self.disarms.append(arm_id)

    def roll(self, die: str, value: int, arm_id: int | None, roll_id: int = 1) -> None:
        faces = divmod(value % 100, 10) if die == "d100" else (value,)
        result = TrayResult(die, value, tuple(faces), roll_id, "0000BEEF", arm_id,
                            expected=arm_id is not None)
        callback = self.on_result if result.expected else self.on_unexpected
        assert callback is not None
        callback(result)


class Front:
    """A front end: collects what the bridge hands it; the session may be blocked."""

    def __init__(self) -> None:
        self.delivered: list[PhysicalRoll] = []
        self.unexpected: list[TrayResult] = []
        self.held: list[HeldRoll] = []
        self.blocked: str | None = None

    def bridge(self, tray: FakeTray) -> TrayBridge:
        return TrayBridge(tray, deliver=self.delivered.append,
                          blocker=lambda player, die: self.blocked,
                          on_unexpected=self.unexpected.append, on_held=self.held.append)


def test_expected_roll_is_delivered_as_a_physical_tray_roll() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    exp = bridge.expect("alice", "d100")
    assert tray.arms == [(exp.arm_id, "d100")] and bridge.expecting == exp
    tray.roll("d100", 57, exp.arm_id, roll_id=9)
    assert front.delivered == [PhysicalRoll("alice", "d100", 57, (5, 7), 9)]
    assert front.delivered[0].roll_kwargs() == {
        "die": "d100", "value": 57, "source": "physical", "via": "tray"}
    assert bridge.expecting is None and front.unexpected == []


def test_a_second_result_for_the_same_arm_is_not_delivered_twice() -> None:
    tray, front = FakeTray(), Front()
    exp = front.bridge(tray).expect("bob", "d6")
    tray.roll("d6", 4, exp.arm_id, roll_id=1)
    tray.roll("d6", 5, exp.arm_id, roll_id=2)
    assert [r.value for r in front.delivered] == [4]
    assert [(r.value, r.expected) for r in front.unexpected] == [(5, False)]


def test_unarmed_roll_is_flagged_and_never_delivered() -> None:
    tray, front = FakeTray(), Front()
    front.bridge(tray).expect("bob", "d6")
    tray.roll("d6", 3, None)
    assert front.delivered == [] and [r.value for r in front.unexpected] == [3]


def test_a_roll_for_a_replaced_expectation_is_unexpected() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    first = bridge.expect("alice", "d6")
    second = bridge.expect("bob", "d6")
    tray.roll("d6", 2, first.arm_id)
    assert front.delivered == [] and len(front.unexpected) == 1
    tray.roll("d6", 6, second.arm_id)
    assert [(r.player, r.value) for r in front.delivered] == [("bob", 6)]


def test_cancel_disarms_the_tray() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    exp = bridge.expect("alice", "d6")
    bridge.cancel()
    assert tray.disarms == [exp.arm_id] and bridge.expecting is None
    tray.roll("d6", 1, exp.arm_id)
    assert front.delivered == []
    bridge.cancel()  # nothing to cancel: no second disarm
    assert tray.disarms == [exp.arm_id]


def test_gg10_roll_arriving_while_a_decision_is_pending_is_held_then_released() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    exp = bridge.expect("alice", "d100")
    front.blocked = "alice must choose ditch or keep (GG-10)"
    tray.roll("d100", 80, exp.arm_id)
    assert front.delivered == []
    assert [h.reason for h in front.held] == ["alice must choose ditch or keep (GG-10)"]
    assert [h.roll.value for h in bridge.held] == [80]
    assert bridge.release() == []  # still blocked: stays held
    assert len(bridge.held) == 1
    front.blocked = None
    assert [r.value for r in bridge.release()] == [80]
    assert [r.value for r in front.delivered] == [80]
    assert bridge.held == () and bridge.release() == []


def test_force_release_and_discard() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    front.blocked = "tiebreak pending (GG-3)"
    tray.roll("d6", 2, bridge.expect("a", "d6").arm_id)
    tray.roll("d6", 3, bridge.expect("b", "d6").arm_id)
    assert [h.roll.player for h in bridge.discard_held()] == ["a", "b"]
    tray.roll("d6", 4, bridge.expect("c", "d6").arm_id)
    assert [r.player for r in bridge.release(force=True)] == ["c"]
    assert [r.player for r in front.delivered] == ["c"]


def test_expect_without_a_tray_says_to_use_electronic_dice() -> None:
    tray, front = FakeTray(connected=False), Front()
    bridge = front.bridge(tray)
    assert not bridge.available and bridge.describe() == "no dice tray: electronic dice"
    with pytest.raises(TrayUnavailableError, match="electronic"):
        bridge.expect("alice", "d6")
    assert tray.arms == []


@pytest.mark.parametrize(("player", "die", "why"), [
    ("", "d6", "player"), ("  ", "d6", "player"), (None, "d6", "player"),
    ("alice", "d20", "not 'd20'"), ("alice", "pick", "not 'pick'"),
])
def test_bad_expectations_are_refused_clearly(player: object, die: str, why: str) -> None:
    tray = FakeTray()
    with pytest.raises(TrayUsageError, match=why) as info:
        Front().bridge(tray).expect(player, die)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError) and tray.arms == []


def test_results_from_another_thread_are_each_delivered_once() -> None:
    tray, front = FakeTray(), Front()
    bridge = front.bridge(tray)
    front.blocked = "busy"
    lock = threading.Lock()
    for i in range(200):
        exp = bridge.expect(f"p{i}", "d6")
        worker = threading.Thread(target=tray.roll, args=("d6", i % 6 + 1, exp.arm_id, i))
        worker.start()
        if i % 2:
            front.blocked = None if i % 4 == 1 else "busy"
        with lock:
            bridge.release()
        worker.join()
    front.blocked = None
    bridge.release()
    players = [r.player for r in front.delivered]
    assert sorted(players) == sorted(f"p{i}" for i in range(200))
    assert bridge.held == ()


def test_a_flooding_tray_is_described_so_the_table_rolls_again() -> None:
    tray = FakeTray()
    bridge = Front().bridge(tray)
    assert not bridge.flooding and bridge.describe() == "dice tray ready"
    tray.flooding, tray.dropped_lines = True, 1234
    assert bridge.flooding
    assert bridge.describe() == ("dice tray flooding (1234 lines dropped): if a roll does not"
                                 " show, roll again")
