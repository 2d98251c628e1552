"""Choosing the hardware once, saying which, and never faking buttons on a Pi; the CLI."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from device.framediff import Sh1106Pages, Ssd1306Pages, WholeImage
from device.hardware import choose, oled_opener, pi_model, strategy_for
from device.run import box_settings, read_keys
from referee.cli import build_parser
from referee.errors import SettingsError


def model_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"model-{len(text)}"
    path.write_bytes(text.encode() + b"\0")
    return path


def test_a_pi_is_found_by_its_device_tree_model(tmp_path: Path) -> None:
    pi = model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")
    assert pi_model([tmp_path / "missing", pi]) == "Raspberry Pi 4 Model B Rev 1.5"
    assert pi_model([model_file(tmp_path, "Pine64 RockPro64")]) is None
    assert pi_model([tmp_path / "missing"]) is None


def test_auto_picks_real_drivers_on_a_pi_and_says_so(tmp_path: Path) -> None:
    pi = [model_file(tmp_path, "Raspberry Pi 5 Model B")]
    choice = choose("auto", model_paths=pi)
    assert choice.kind == "pi" and "Raspberry Pi 5" in choice.why
    laptop = choose("auto", model_paths=[tmp_path / "none"])
    assert laptop.kind == "sim" and "no Raspberry Pi found" in laptop.why
    forced = choose("sim", model_paths=pi)
    assert forced.kind == "sim" and "NOT used" in forced.why


def test_the_display_chip_picks_its_strategy_and_bad_options_are_refused() -> None:
    assert isinstance(strategy_for("pi", "ssd1306"), Ssd1306Pages)
    assert isinstance(strategy_for("pi", "sh1106"), Sh1106Pages)
    assert isinstance(strategy_for("sim"), WholeImage)
    with pytest.raises(ValueError, match="ssd1306, sh1106"):
        oled_opener("pi", display="ssd1309")
    with pytest.raises(ValueError, match="rotation"):
        oled_opener("pi", rotate=1)
    assert oled_opener("sim")().size == (128, 64)


def test_a_missing_i2c_display_raises_what_the_oled_driver_catches() -> None:
    from device.oled import open_errors

    opener = oled_opener("pi", port=97)  # no /dev/i2c-97 here
    with pytest.raises(open_errors()):
        opener()


def test_box_options_are_on_the_cli() -> None:
    args = build_parser().parse_args(["box", "--hardware", "sim", "--display", "sh1106",
                                      "--i2c-port", "3", "--i2c-address", "0x3D",
                                      "--oled-png", "out", "--pins", "p.toml"])
    assert (args.hardware, args.display, args.i2c_port, args.i2c_address, args.oled_png,
            args.pins) == ("sim", "sh1106", 3, 0x3D, "out", "p.toml")


def test_a_settings_file_gives_names_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('[rules]\ntiebreak = "reroll"\n\n[box]\nplayers = ["Ann", "Ben"]\n')
    names, rules = box_settings(str(path))
    assert names == ["Ann", "Ben"] and rules["tiebreak"] == "reroll"
    path.write_text('[box]\nplayers = "Ann"\n')
    with pytest.raises(SettingsError, match=r"box\.players"):
        box_settings(str(path))


def test_keys_become_presses_until_q() -> None:
    got: list[object] = []
    read_keys(io.StringIO("rnBxmq r"), got.append)
    assert got == [("ROLL", False), ("NEXT", False), ("BACK", True), ("MENU", False), None]


def run_box(*args: str, keys: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", "box", *args], input=keys,
                          capture_output=True, text=True, timeout=120)


def test_hardware_pi_without_usable_pins_fails_loudly_and_non_zero() -> None:
    done = run_box("--hardware", "pi", "--no-text-art")
    assert done.returncode == 3
    assert "ERROR" in done.stderr and "--hardware sim" in done.stderr


def test_referee_box_in_simulation_plays_from_keys_and_mirrors_png(tmp_path: Path) -> None:
    out = tmp_path / "png"
    done = run_box("--hardware", "sim", "--seed", "ab" * 32, "--oled-png", str(out),
                   keys="rnnrrq")
    assert done.returncode == 0, done.stderr
    assert "hardware: simulated buttons and OLED" in done.stderr
    assert "\u2588" in done.stdout  # the OLED drawn with half blocks
    assert len(sorted(out.glob("frame-*.png"))) >= 5


@pytest.mark.parametrize(("unit", "command"), [("tableside-referee.service", "box"),
                                               ("tableside-referee-console.service", "run")])
def test_the_services_command_line_is_one_the_program_accepts(unit: str, command: str) -> None:
    """The systemd units' ExecStart must parse: a typo there would crash-loop the box."""
    import shlex

    path = Path(__file__).resolve().parents[2] / "systemd" / unit
    line = next(x for x in path.read_text().splitlines() if x.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))[1:]
    args = build_parser().parse_args(argv)
    assert (args.command, args.hardware, args.tray) == (command, "pi", "/dev/dice-tray")
    assert args.db == "/var/lib/tableside-referee/games.sqlite"


def test_every_turn_of_the_main_loop_is_a_watchdog_heartbeat() -> None:
    import queue

    from device.run import main_loop

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def beat(self) -> None:
            self.calls.append("beat")

        def tick(self) -> None:
            self.calls.append("tick")

        def press(self, button: str, long: bool) -> None:
            self.calls.append(f"press {button}")

        def wake(self) -> None:
            pass

    rec = Recorder()
    presses: queue.Queue[object] = queue.Queue()
    for item in (("ROLL", False), lambda: rec.calls.append("posted"), None):
        presses.put(item)
    assert main_loop(rec, rec, presses, rec) == 0  # type: ignore[arg-type]
    assert rec.calls.count("beat") == 3  # one heartbeat per turn of the loop
    assert rec.calls.index("press ROLL") < rec.calls.index("posted")
