"""`referee run`: the console and the (simulated) box on one session, one loop."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

from device.run import build_box
from device.watchdog import Watchdog
from referee.cli import build_parser
from tests.ui.conftest import SIZE, keys, played
from ui.games.gallery_grippers.turn import TileDialog
from ui.run import ConsoleAndBox
from ui.screens.common import BoxScreen


def rig_for(session: Any, tmp_path: Path, app_box: list[ConsoleAndBox]) -> Any:
    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory",
                                      "--oled-png", str(tmp_path / "frames")])

    def post(fn: Any) -> None:
        app_box[0].post_to_loop(fn)

    rig = build_box(args, session, post=post, say=lambda text: None,
                    press=lambda b, long: post(lambda: rig.box.press(b, long)),
                    display_thread=True)  # as `referee run` builds it
    return rig


async def test_the_box_panel_drives_the_same_session_the_console_shows(tmp_path: Path) -> None:
    s = played()
    holder: list[ConsoleAndBox] = []
    rig = rig_for(s, tmp_path, holder)
    app = ConsoleAndBox(s, rig, Watchdog(env={}))
    holder.append(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await keys(pilot, "r")  # resume the game in progress
            await keys(pilot, "o")  # the box panel
            assert isinstance(app.screen, BoxScreen)
            frames = len(list((tmp_path / "frames").glob("*.png")))
            await keys(pilot, "r")  # the box's ROLL, through its mock pin: Ann's movement roll
            for _ in range(1000):  # a deadline for the button's ticker thread, not a sleep
                if s.log[-1].command["cmd"] == "move_roll":
                    break
                await pilot.pause(0.01)
            assert s.log[-1].command["cmd"] == "move_roll"
            assert rig.buttons.edges == 2  # pressed and let go, through gpiozero
            assert rig.oled.flush(30)  # the display's thread has written what it was given
            assert len(list((tmp_path / "frames").glob("*.png"))) > frames  # the OLED moved
            await keys(pilot, "escape")  # close the panel: the console asks for the tile
            assert isinstance(app.screen, TileDialog)
            assert app.box is not None
            assert app.box.render_image().size == (128, 64)
    finally:
        rig.close()


async def test_a_stuck_oled_bus_holds_neither_the_console_nor_the_command(
        tmp_path: Path) -> None:
    """The OLED's bus is written on the display's own thread: while it is stuck in the
    middle of a frame, a key still applies its command and the console shows it; once the
    bus moves again the panel shows the box's newest frame."""
    from device.render import render
    from tests.device.test_display_thread import DEADLINE, Gate

    s = played()
    holder: list[ConsoleAndBox] = []
    rig = rig_for(s, tmp_path, holder)
    app = ConsoleAndBox(s, rig, Watchdog(env={}))
    holder.append(app)
    gate = Gate(rig.oled.oled.device)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await keys(pilot, "r")  # resume
            assert rig.oled.flush(DEADLINE)
            gate.open.clear()  # the bus sticks on the next frame's data
            await keys(pilot, "r", "r")  # the move dialog; the box rolls: a command
            assert s.log[-1].command["cmd"] == "move_roll"
            assert isinstance(app.screen, TileDialog)
            assert gate.entered.wait(DEADLINE)  # the display's thread is stuck on the bus
            await keys(pilot, "enter")  # and the console goes on: the tile is picked
            assert s.log[-1].command["cmd"] == "move"
            assert not gate.open.is_set()
            gate.open.set()
            assert rig.oled.flush(DEADLINE)
            glass = rig.oled.oled.device.glass()
            assert glass.tobytes() == render(rig.box.view()).tobytes()
    finally:
        gate.open.set()
        rig.close()


async def test_the_console_and_box_tell_systemd_they_are_up_and_alive(tmp_path: Path) -> None:
    path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(10)  # a deadline for each datagram, not a sleep
    env = {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000",
           "WATCHDOG_PID": str(os.getpid())}
    s = played()
    holder: list[ConsoleAndBox] = []
    rig = rig_for(s, tmp_path, holder)
    app = ConsoleAndBox(s, rig, Watchdog(env=env))
    holder.append(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            got: list[bytes] = []
            while not any(b"WATCHDOG=1" in m for m in got):
                await pilot.pause(0.05)
                try:
                    got.append(listener.recv(4096))
                except TimeoutError:
                    break
            assert any(b"READY=1" in m for m in got)
            assert any(b"WATCHDOG=1" in m for m in got)  # pinged from the console's loop
    finally:
        rig.close()
        listener.close()
