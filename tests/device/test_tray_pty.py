"""End to end on a pseudo-terminal: the real driver and pyserial against the simulator.

Fault test #8: the pty is closed mid-roll, then a new one appears behind the stable path.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.tray import sim as sim_module
from device.tray.bridge import PhysicalRoll, TrayBridge
from device.tray.driver import TrayDriver, open_serial
from device.tray.framing import crc16
from device.tray.link import StatusKind, TrayTimings
from device.tray.sim import TraySimulator
from tests.device.test_tray_driver import Recorder

TIMINGS = TrayTimings(read_timeout=0.05, hello_interval=0.2, backoff_initial=0.05,
                      backoff_max=0.4)


class Table:
    def __init__(self, link: Path) -> None:
        self.link = str(link)
        self.sim = TraySimulator(link=self.link, seed=11)
        self.rec = Recorder()
        self.opens = 0
        self.driver = TrayDriver(self.link, opener=self._open, on_status=self.rec.status,
                                 on_result=self.rec.result, on_unexpected=self.rec.other,
                                 timings=TIMINGS)

    def _open(self, path: str) -> object:
        self.opens += 1
        return open_serial(path, timings=TIMINGS)

    def connected(self, times: int = 1) -> None:
        self.rec.wait(lambda: self.rec.count(StatusKind.CONNECTED) >= times)

    def armed(self, arm_id: int, die: str) -> None:
        assert self.sim.wait_for(lambda: self.sim.firmware.armed == (arm_id, die), 5.0)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path / "dice-tray")
    t.sim.start()
    t.driver.start()
    try:
        t.connected()
        yield t
    finally:
        t.driver.close()
        t.sim.close()


def test_unplug_mid_roll_then_replug_accepts_no_half_roll(table: Table) -> None:
    sim, rec = table.sim, table.rec
    arm_id = table.driver.arm("d100")
    table.armed(arm_id, "d100")
    sim.rolling("d100")
    rec.wait(lambda: StatusKind.ROLLING in rec.kinds())
    body = b"N40 ROLL id=1 st=settled die=d100 faces=9,9 arm=%d boot=%s" % (
        arm_id, sim.firmware.boot.encode())
    sim.partial(body + b" *%04X" % crc16(body))  # all but the newline, then the cable goes
    sim.unplug()
    rec.wait(lambda: StatusKind.DISCONNECTED in rec.kinds())
    assert not os.path.lexists(table.link)  # gone with the device, as udev does
    opens_when_unplugged = table.opens
    assert not threading.Event().wait(1.0)  # one second unplugged: a window, not a hope
    assert table.opens - opens_when_unplugged <= 8  # backoff, not a busy loop
    sim.replug(power_cycle=False)  # same board, cable back in: a new pty behind the link
    assert os.readlink(table.link) == sim.slave_path
    sim.partial(b"\n")  # if the host glued connections, this would finish the 99
    table.connected(2)
    table.armed(arm_id, "d100")  # the arm survived the unplug and was sent again
    sim.roll("d100", (4, 2))
    rec.wait(lambda: len(rec.results) == 1)
    assert [(r.value, r.faces, r.expected) for r in rec.results] == [(42, (4, 2), True)]
    assert rec.unexpected == []


def test_a_result_lost_to_an_unplug_is_resent_and_delivered_once(table: Table) -> None:
    sim, rec = table.sim, table.rec
    arm_id = table.driver.arm("d6")
    table.armed(arm_id, "d6")
    sim.drop_next(1000)  # from now on nothing reaches the host ...
    sim.roll("d6", (3,), rolling_first=False)
    sim.unplug()  # ... and the cable goes before any resend got through
    rec.wait(lambda: StatusKind.DISCONNECTED in rec.kinds())
    sim.clear_faults()
    sim.replug(power_cycle=False)
    rec.wait(lambda: len(rec.results) == 1)
    assert sim.wait_for(lambda: sim.firmware.unacked == [], 5.0)
    assert [(r.value, r.expected) for r in rec.results] == [(3, True)]
    assert StatusKind.RESET not in rec.kinds()


def test_tray_reset_mid_game_is_reported_and_the_roll_still_arrives(table: Table) -> None:
    sim, rec = table.sim, table.rec
    arm_id = table.driver.arm("d6")
    table.armed(arm_id, "d6")
    sim.reset()
    rec.wait(lambda: StatusKind.RESET in rec.kinds())
    table.connected(2)
    table.armed(arm_id, "d6")  # the tray forgot; the host armed it again
    sim.roll("d6", (6,))
    rec.wait(lambda: len(rec.results) == 1)
    assert rec.results[0].boot == sim.firmware.boot and rec.results[0].value == 6


def test_unarmed_roll_is_flagged_not_delivered(table: Table) -> None:
    table.sim.roll("d6", (1,))
    table.rec.wait(lambda: len(table.rec.unexpected) == 1)
    assert table.sim.wait_for(lambda: table.sim.firmware.unacked == [], 5.0)
    assert table.rec.results == []


def test_garbage_bad_checksums_and_lost_lines_are_counted_not_accepted(table: Table) -> None:
    sim, rec, link = table.sim, table.rec, table.driver.link
    sim.drop_next(1)  # one heartbeat lost: a gap in the sequence numbers
    rec.wait(lambda: link.gaps == 1)
    sim.garbage(20)
    sim.overlong()
    sim.corrupt_next(1)  # the next heartbeat fails its checksum
    rec.wait(lambda: link.garbage >= 3)  # junk lines that are only "\r" are blank, not garbage
    rec.wait(lambda: StatusKind.GARBAGE in rec.kinds())
    arm_id = table.driver.arm("d10")
    table.armed(arm_id, "d10")
    sim.roll("d10", (7,))
    rec.wait(lambda: len(rec.results) == 1)
    assert [r.value for r in rec.results] == [7]
    assert table.driver.connected and rec.count(StatusKind.CONNECTED) == 1


def test_bridge_turns_the_expected_tray_roll_into_a_physical_roll(table: Table) -> None:
    delivered: list[PhysicalRoll] = []
    done = threading.Event()

    def deliver(roll: PhysicalRoll) -> None:
        delivered.append(roll)
        done.set()

    bridge = TrayBridge(table.driver, deliver=deliver)
    assert bridge.available and bridge.describe() == "dice tray ready"
    exp = bridge.expect("alice", "d100")
    table.armed(exp.arm_id, "d100")
    table.sim.roll("d100", (5, 7))
    assert done.wait(5.0)
    assert delivered == [PhysicalRoll("alice", "d100", 57, (5, 7), delivered[0].roll_id)]
    assert delivered[0].roll_kwargs() == {
        "die": "d100", "value": 57, "source": "physical", "via": "tray"}


def test_scripted_simulator_cli_drives_a_real_driver(tmp_path: Path) -> None:
    link = tmp_path / "tray"
    script = tmp_path / "script.txt"
    script.write_text("# a scripted table\nwait-host 10\nwait-armed 10\nroll d6 4\nwait 0.2\n")
    out = io.StringIO()
    code: list[int] = []
    runner = threading.Thread(target=lambda: code.append(sim_module.main(
        ["--link", str(link), "--script", str(script), "--seed", "1"], stdout=out)))
    runner.start()
    rec = Recorder()
    driver = TrayDriver(str(link), on_status=rec.status, on_result=rec.result, timings=TIMINGS)
    with driver:
        rec.wait(lambda: driver.connected)
        driver.arm("d6")
        rec.wait(lambda: len(rec.results) == 1)
    runner.join(10)
    assert code == [0]
    assert out.getvalue().startswith("tray simulator on /dev/")
    assert "wait-armed: ok" in out.getvalue()
    assert [r.value for r in rec.results] == [4]
    assert not link.exists()  # the simulator removes its link on exit
