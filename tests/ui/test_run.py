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


def late_app(s: Any, tmp_path: Path, said: list[str], build: Any = None
             ) -> tuple[ConsoleAndBox, list[str], list[str]]:
    """A ConsoleAndBox as `referee run` makes it: the box built by `build` (by default the
    real one, simulated) once the first screen is drawn, its lines said with the session's.
    Also gives what the screen showed when the box was built and every frame's text."""
    args = build_parser().parse_args(["run", "--hardware", "sim", "--memory",
                                      "--oled-png", str(tmp_path / "frames")])
    holder: list[ConsoleAndBox] = []
    frames: list[str] = []
    seen_at_build: list[str] = []

    def real_build() -> Any:
        seen_at_build.append(frames[-1] if frames else "")
        return build_box(args, s, post=lambda fn: holder[0].post_to_loop(fn),
                         say=said.append, display_thread=True)

    app = ConsoleAndBox(s, None, Watchdog(env={}), build=build or real_build)
    holder.append(app)
    shown = app._display

    def display(screen: Any, update: Any) -> None:
        from textual._compositor import CompositorUpdate

        if isinstance(update, CompositorUpdate):
            frames.append(update.render_segments(app.console))
        shown(screen, update)

    app._display = display  # type: ignore[method-assign]
    app.say_later(said)
    return app, seen_at_build, frames


async def test_referee_run_sets_the_box_up_once_the_first_screen_is_drawn(
        tmp_path: Path) -> None:
    """The console's first frame does not wait for gpiozero, luma and Pillow (issue 41): the
    box is built after it, and what it says as it starts joins the start-up notice (one
    notice, as when the box was set up first); then the panel, the OLED and the buttons work
    as before."""
    from referee.session import Session

    s = Session()
    said = ["opened the game file"]  # (what the session said before the console was up)
    app, seen_at_build, _ = late_app(s, tmp_path, said)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert len(seen_at_build) == 1  # built once, after a frame of the whole form
            assert "Start game" in seen_at_build[0] and "Players" in seen_at_build[0]
            assert app.rig is not None and app.box is not None and app.box_failure is None
            notices = [n.message for n in app._notifications]
            assert len(notices) == 1, notices  # one notice: the session's and the box's lines
            assert "opened the game file" in notices[0]
            assert "hardware: simulated buttons and OLED" in notices[0]
            app.action_box()  # (O, from a screen where O is not typed into a field)
            await pilot.pause()
            assert isinstance(app.screen, BoxScreen)
            assert app.rig.oled.flush(30)
            assert any((tmp_path / "frames").glob("*.png"))  # the OLED's first frame
    finally:
        if app.rig is not None:
            app.rig.close()


async def test_a_box_that_cannot_start_ends_the_console_with_exit_status_3(
        tmp_path: Path) -> None:
    from device.run import BoxSetupError
    from referee.session import Session

    def broken() -> Any:
        raise BoxSetupError("I2C is off (/dev/i2c-1 is missing)")

    app, _, _ = late_app(Session(), tmp_path, [], build=broken)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    assert app.return_code == 3
    assert isinstance(app.box_failure, BoxSetupError) and app.rig is None


async def test_before_the_box_is_up_o_says_so_and_the_club_s_news_waits_for_the_oled(
        tmp_path: Path) -> None:
    """Between the first frame and the box's set-up (a few hundredths of a second), O says
    the box is starting (not that there is none) and what the club said reaches the OLED
    once it is up."""
    from referee.session import Session

    s = Session()
    gate: list[Any] = []
    app, _, _ = late_app(s, tmp_path, [])
    real = app._build
    assert real is not None

    def held() -> Any:  # the box is built when the test says so
        gate.append(True)
        return real()

    app._build = None  # not yet
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app._build = held  # (as if still starting)
            app.action_box()
            await pilot.pause()
            assert not isinstance(app.screen, BoxScreen)
            assert any("still starting" in str(n.message) for n in app._notifications)
            app.box_notify("club: connected to the club's board")
            app._start_box()
            assert gate and app.rig is not None
            assert any("club: connected" in line for line in app.rig.box.view().text().split("\n"))
    finally:
        if app.rig is not None:
            app.rig.close()


def test_referee_run_whose_box_cannot_start_gives_the_terminal_back_and_exits_3() -> None:
    """`--hardware pi` here (no GPIO): the console's first screen comes and goes, the
    terminal is given back, the error is said and the exit status is 3, as before the box
    was set up after the first frame."""
    import time

    from tests.device.test_box_terminal import read_until
    from tests.ui.test_stop_signals import LEAVE_ALT, on_pty

    proc, master = on_pty("run", "--memory", "--hardware", "pi")
    try:
        shown = read_until(master, lambda t: "ERROR" in t and t.endswith("\n"),
                           time.monotonic() + 90)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert code == 3, shown[-2000:]
    assert "referee run: ERROR:" in shown and "--hardware sim" in shown
    assert LEAVE_ALT in shown and shown.rindex("referee run: ERROR:") > shown.rindex(LEAVE_ALT)
