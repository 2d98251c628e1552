"""The simulator's command language, firmware checks and CLI errors."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from device.tray import sim as sim_module
from device.tray.errors import TrayUsageError
from device.tray.firmware import TrayFirmware
from device.tray.simcommands import faces_for, run_command


@pytest.mark.parametrize(("die", "numbers", "faces"), [
    ("d6", [4], (4,)), ("d100", [57], (5, 7)), ("d100", [100], (0, 0)), ("d100", [7], (0, 7)),
    ("d100", [5, 7], (5, 7)), ("d10", [10], (0,)), ("d10", [3], (3,)),
])
def test_faces_for_what_people_type(die: str, numbers: list[int], faces: tuple[int, ...]) -> None:
    assert faces_for(die, numbers) == faces


@pytest.mark.parametrize(("die", "numbers"), [
    ("d6", [0]), ("d6", [7]), ("d6", []), ("d100", [101]), ("d100", [1, 10]), ("d20", [3]),
    ("d10", [11]),
])
def test_faces_for_refuses_impossible_dice(die: str, numbers: list[int]) -> None:
    with pytest.raises(TrayUsageError):
        faces_for(die, numbers)


@pytest.mark.parametrize("line", [
    "roll", "roll d6", "roll d6 x", "fly", "garbage 0", "garbage lots", "reset now",
    "replug --soon", "crooked", "wait-armed x",
])
def test_bad_commands_get_a_clear_error(line: str) -> None:
    with sim_module.TraySimulator(seed=1) as sim, pytest.raises(TrayUsageError):
        run_command(sim, line)


def test_commands_act_on_the_firmware() -> None:
    with sim_module.TraySimulator(seed=1) as sim:
        assert run_command(sim, "roll d100 57").startswith("roll 1: d100 faces (5, 7)")
        assert sim.firmware.unacked == [1]
        assert run_command(sim, "crooked d6").startswith("roll 2")
        boot = sim.firmware.boot
        assert "boot" in run_command(sim, "reset") and sim.firmware.boot != boot
        assert sim.firmware.unacked == []
        assert run_command(sim, "") == ""
        assert "unplugged" not in run_command(sim, "status")
        run_command(sim, "unplug")
        assert run_command(sim, "status").startswith("unplugged")


def test_firmware_refuses_unknown_dice_and_bad_names() -> None:
    with pytest.raises(TrayUsageError, match="unknown die"):
        TrayFirmware(dice=("d6", "d8"))
    with pytest.raises(TrayUsageError, match="name"):
        TrayFirmware(name="has space")
    fw = TrayFirmware(dice=("d6",), rng=random.Random(1))
    fw.power_on(0.0)
    with pytest.raises(TrayUsageError, match="not 'd100'"):
        fw.settle("d100", (1, 2), 0.0)
    with pytest.raises(TrayUsageError, match=r"1\.\.6"):
        fw.settle("d6", (9,), 0.0)


def test_cli_reports_a_bad_option_value_and_a_failing_script(tmp_path: Path) -> None:
    err = io.StringIO()
    assert sim_module.main(["--dice", "d6,d9"], stdout=err) == 2
    script = tmp_path / "s.txt"
    script.write_text("roll d6 9\n")
    out = io.StringIO()
    assert sim_module.main(["--script", str(script)], stdout=out) == 1
    assert "error: d6 faces must be 1..6" in out.getvalue()


def test_cli_interactive_reads_commands_until_quit() -> None:
    out = io.StringIO()
    code = sim_module.main([], stdin=io.StringIO("roll d6 4\nbogus\nquit\nroll d6 5\n"),
                           stdout=out)
    lines = out.getvalue().splitlines()
    assert code == 0
    assert lines[1] == "roll 1: d6 faces (4,)"
    assert lines[2].startswith("error: unknown command")
    assert len(lines) == 3  # nothing after quit


def test_flood_command_is_checked_and_stops() -> None:
    sim = sim_module.TraySimulator(fd=None)
    for bad in ("flood", "flood -1", "flood nan", "flood 2000000", "flood 10 hb", "flood x"):
        with pytest.raises(TrayUsageError):
            run_command(sim, bad)
    assert run_command(sim, "flood 0") == "flood 0 lines/s"
    assert run_command(sim, "flood 0 junk") == "flood 0 lines/s of junk"
