"""Choosing the hardware once, saying which, and never faking buttons on a Pi; the CLI."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from device.framediff import Sh1106Pages, Ssd1306Pages
from device.hardware import choose, choose_pins, oled_opener, pi_model, pin_factory, strategy_for
from device.pins import PROJECT_PINS
from device.run import box_settings, read_keys
from referee.cli import build_parser
from referee.errors import DeviceError, SettingsError

# luma.oled 3.16's own display() (its set-up clear) uses Image.getdata, deprecated in Pillow 13.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


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
    # the same page diff on a Pi and in simulation: there is no whole-image shortcut
    assert isinstance(strategy_for("ssd1306"), Ssd1306Pages)
    assert isinstance(strategy_for("sh1106"), Sh1106Pages)
    with pytest.raises(ValueError, match="ssd1306, sh1106"):
        strategy_for("ssd1309")
    with pytest.raises(ValueError, match="ssd1306, sh1106"):
        oled_opener("pi", display="ssd1309")
    with pytest.raises(ValueError, match="rotation"):
        oled_opener("pi", rotate=1)
    sim = oled_opener("sim", display="sh1106")()
    assert sim.size == (128, 64) and sim.bus.chip == "sh1106"  # luma's sh1106, emulated bus


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
    assert "mock pins, pressed by the keys" in done.stderr
    frames = [line for line in done.stdout.splitlines() if line.startswith("\u2502")]
    assert frames and all(len(line) <= 80 for line in done.stdout.splitlines())
    assert any("\u2801" <= ch <= "\u28ff" for ch in frames[0])  # braille: 2x4 px a cell
    first = {p.name: p.read_bytes() for p in out.glob("frame-*.png")}
    assert len(first) >= 5
    # a second run into the same directory adds after the first one's frames
    again = run_box("--hardware", "sim", "--seed", "ab" * 32, "--oled-png", str(out),
                    keys="rq")
    assert again.returncode == 0, again.stderr
    assert f"from frame-{len(first) + 1:05d}.png" in again.stderr
    after = {p.name: p.read_bytes() for p in out.glob("frame-*.png")}
    assert {n: after[n] for n in first} == first and len(after) > len(first)


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

        def next_change(self) -> None:
            return None

        next_due = next_change

    rec = Recorder()
    presses: queue.Queue[object] = queue.Queue()
    for item in (("ROLL", False), lambda: rec.calls.append("posted"), None):
        presses.put(item)
    assert main_loop(rec, rec, presses, rec) == 0  # type: ignore[arg-type]
    assert rec.calls.count("beat") == 3  # one heartbeat per turn of the loop
    assert rec.calls.index("press ROLL") < rec.calls.index("posted")


# ---- the pin driver: lgpio, RPi.GPIO or gpiozero's mock pins --------------------------------

@given(kind=st.sampled_from(["pi", "sim"]),
       flag=st.sampled_from([None, "lgpio", "rpigpio", "mock", "pigpio"]),
       configured=st.sampled_from([None, "lgpio", "rpigpio", "mock", "native"]))
def test_the_pin_factory_choice(kind: str, flag: str | None, configured: str | None) -> None:
    known = ("lgpio", "rpigpio", "mock")
    if (flag is not None and flag not in known) or (configured is not None
                                                    and configured not in known):
        with pytest.raises(DeviceError, match="unknown pin factory"):
            choose_pins(kind, flag, configured, "pins.toml")
        return
    if kind == "sim" and flag in ("lgpio", "rpigpio"):  # a contradiction: said, not guessed
        with pytest.raises(DeviceError, match="simulated"):
            choose_pins(kind, flag, configured, "pins.toml")
        return
    name, why = choose_pins(kind, flag, configured, "pins.toml")
    if kind == "sim":
        assert name == "mock"  # the keys drive the mock pins; pins.toml's Pi choice waits
    else:
        assert name == (flag or configured or "lgpio")  # the flag, then the file, then lgpio
        assert ("NOT read" in why) == (name == "mock")  # fake buttons on a Pi: said loudly


def test_the_mock_factory_is_gpiozero_s() -> None:
    from gpiozero.pins.mock import MockFactory

    assert isinstance(pin_factory("mock"), MockFactory)


def test_rpigpio_not_installed_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)  # `import RPi` fails as if not installed
    monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio", raising=False)
    with pytest.raises(DeviceError) as err:
        pin_factory("rpigpio")
    text = str(err.value)
    assert "RPi.GPIO pin driver is not installed" in text
    assert "tableside-referee[rpigpio]" in text and "python3-rpi.gpio" in text


def test_rpigpio_on_a_board_it_refuses_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    fake = tmp_path / "RPi"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "GPIO.py").write_text("raise RuntimeError('This module can only be run on a "
                                  "Raspberry Pi!')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("RPi", "RPi.GPIO", "gpiozero.pins.rpigpio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(DeviceError, match=r"RPi\.GPIO cannot run here .*Raspberry Pi 5"):
        pin_factory("rpigpio")


def test_a_pi_never_falls_back_to_mock_pins_when_rpigpio_is_missing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from device.run import BoxSetupError, build_box
    from referee.session import Session

    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio", raising=False)
    args = build_parser().parse_args(["box", "--hardware", "pi", "--memory",
                                      "--pin-factory", "rpigpio"])
    said: list[str] = []
    with pytest.raises(BoxSetupError, match=r"RPi\.GPIO pin driver is not installed"):
        build_box(args, Session(), post=lambda fn: None, press=lambda b, long: None,
                  say=said.append)
    assert not any("mock" in line for line in said)


def test_mock_pins_on_a_pi_are_said_and_pressed_by_the_keys(tmp_path: Path) -> None:
    from device.run import build_box
    from referee.session import Session

    pins = tmp_path / "pins.toml"
    pins.write_text(PROJECT_PINS.read_text().replace('# factory = "lgpio"', 'factory = "mock"'))
    args = build_parser().parse_args(["box", "--hardware", "pi", "--memory", "--pins",
                                      str(pins), "--i2c-port", "97"])
    said: list[str] = []
    rig = build_box(args, Session(), post=lambda fn: None, press=lambda b, long: None,
                    say=said.append)
    try:
        assert rig.kind == "pi" and rig.presser is not None
        assert any(f"MOCK pins, as {pins} asks" in line for line in said)
    finally:
        rig.close()


def test_the_rpigpio_extra_stays_off_x86(tmp_path: Path) -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    extra = project["optional-dependencies"]["rpigpio"]
    lgpio = next(d for d in project["dependencies"] if d.startswith("lgpio"))
    assert len(extra) == 1 and extra[0].startswith("rpi-lgpio")  # (RPi.GPIO, no compiler)
    assert extra[0].split(";", 1)[1].strip() == lgpio.split(";", 1)[1].strip()  # same marker


@pytest.mark.parametrize(("argv", "message"), [
    (["--hardware", "pi", "--pin-factory", "rpigpio"], "RPi.GPIO pin driver is not installed"),
    (["--hardware", "sim", "--pin-factory", "lgpio"], "--pin-factory lgpio reads real GPIO"),
])
def test_a_pin_driver_that_cannot_be_used_stops_the_box_with_status_3(argv: list[str],
                                                                       message: str) -> None:
    done = run_box(*argv, "--memory", "--no-text-art")
    assert done.returncode == 3, done.stderr
    assert "ERROR" in done.stderr and message in done.stderr


def test_on_real_pins_a_panel_press_goes_straight_to_the_controller_on_its_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing to drive (real pins: here lgpio stood in for by mock pins nobody drives),
    BoxRig.press calls the controller at once. The console calls it on its own loop, where
    posting to that same loop fails (Textual's call_from_thread refuses)."""
    import device.hardware
    from device.run import build_box
    from referee.session import Session

    def post(fn: object) -> None:
        raise RuntimeError("call_from_thread must run in a different thread from the app")

    monkeypatch.setattr(device.hardware, "pin_factory", lambda name: MockFactory())
    args = build_parser().parse_args(["box", "--hardware", "pi", "--memory", "--i2c-port",
                                      "97"])
    rig = build_box(args, Session(), post=post, press=lambda b, long: None,
                    say=lambda text: None)
    try:
        assert rig.presser is None  # lgpio: real pins, not pressed by a finger
        rig.press("ROLL")
        assert rig.box.session.log[0].command["cmd"] == "new_game"  # and the hands dealt
        assert rig.settle(timeout=0)
    finally:
        rig.close()


def test_i2c_turned_off_is_said_with_how_to_turn_it_on(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A Pi whose I2C is off has no /dev/i2c-1: the OLED's error says so and how to turn it
    on (raspi-config), not only luma's "not found"."""
    from luma.core.error import DeviceNotFoundError

    from device import hardware

    monkeypatch.setattr(hardware, "I2C_DEVICES", str(tmp_path / "i2c-"))
    with pytest.raises(DeviceNotFoundError) as err:
        hardware.oled_opener("pi")()
    text = str(err.value)
    assert f"{tmp_path / 'i2c-1'} is missing" in text and "raspi-config nonint do_i2c 0" in text
