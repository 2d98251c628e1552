"""pins.toml: the shipped map, and clear errors naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.pins import DEFAULT_PINS, PROJECT_PINS, load_pins, parse_pins
from referee.errors import ConfigError

GOOD = PROJECT_PINS.read_text()


def test_the_shipped_pin_map_is_the_built_in_default() -> None:
    assert load_pins(PROJECT_PINS).buttons == DEFAULT_PINS.buttons
    pins = load_pins()
    assert {b.name: b.pin for b in pins.buttons} == {"ROLL": 17, "NEXT": 27, "BACK": 22,
                                                      "MENU": 23}
    assert pins.action("BACK", long=True) == "undo"
    assert pins.debounce_s == 0.02 and pins.hold_s == 0.8


def test_wiring_becomes_gpiozero_arguments() -> None:
    text = GOOD.replace('pin = 23\npull = "up"\nactive = "low"',
                        'pin = 23\npull = "none"\nactive = "high"')
    menu = parse_pins(text).button("MENU")
    assert menu.gpiozero_args() == {"pull_up": None, "active_state": True}
    assert DEFAULT_PINS.button("ROLL").gpiozero_args() == {"pull_up": True,
                                                           "active_state": None}


@pytest.mark.parametrize(("old", "new", "field", "says"), [
    ("pin = 27", "pin = 17", "buttons.NEXT.pin", "already used by buttons.ROLL"),
    ('long = "select"', 'long = "jump"', "buttons.NEXT.long", "unknown action 'jump'"),
    ("pin = 22", "pin = 3", "buttons.BACK.pin", "BCM GPIO number from 4 to 27"),
    ("pin = 22", 'pin = "22"', "buttons.BACK.pin", "BCM GPIO number"),
    ('pull = "up"\nactive = "low"\nshort = "menu"', 'pull = "up"\nactive = "high"\n'
     'short = "menu"', "buttons.MENU.active", "reads 'low' while pressed"),
    ('pull = "up"\nactive = "low"\nshort = "menu"', 'pull = "sideways"\nshort = "menu"',
     "buttons.MENU.pull", "unknown value"),
    ("hold_ms = 800", "hold_ms = 5", "timing.hold_ms", "from 200 to 5000"),
    ("[buttons.MENU]", "[buttons.HOME]", "buttons.HOME", "unknown key 'HOME'"),
    ('short = "roll"', 'shrt = "roll"', "buttons.ROLL.shrt", "unknown key"),
])
def test_mistakes_name_file_line_and_field(tmp_path: Path, old: str, new: str, field: str,
                                           says: str) -> None:
    assert old in GOOD
    path = tmp_path / "pins.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        load_pins(path)
    assert err.value.field == field
    assert err.value.path == str(path)
    assert err.value.line is not None
    assert says in str(err.value)
    assert str(err.value).startswith(f"{path}:{err.value.line}: {field}: ")


def test_the_reported_line_is_the_offending_one(tmp_path: Path) -> None:
    path = tmp_path / "pins.toml"
    path.write_text(GOOD.replace("pin = 27", "pin = 17"))
    with pytest.raises(ConfigError) as err:
        load_pins(path)
    line = path.read_text().splitlines()[err.value.line - 1]
    assert line.strip() == "pin = 17"
    assert "[buttons.NEXT]" in path.read_text().splitlines()[err.value.line - 2]


def test_a_missing_button_and_an_unreadable_file(tmp_path: Path) -> None:
    cut = GOOD[: GOOD.index("[buttons.MENU]")]
    with pytest.raises(ConfigError, match=r"missing button.*MENU"):
        parse_pins(cut, "p.toml")
    with pytest.raises(ConfigError, match="cannot read the pin map"):
        load_pins(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        parse_pins("[buttons\n", "p.toml")


def test_the_pin_driver_is_read_from_the_gpio_table() -> None:
    assert load_pins(PROJECT_PINS).factory is None  # shipped commented out: lgpio
    text = GOOD.replace('# factory = "lgpio"', 'factory = "rpigpio"')
    assert parse_pins(text).factory == "rpigpio"


def test_an_unknown_pin_driver_names_its_line() -> None:
    text = GOOD.replace('# factory = "lgpio"', 'factory = "RPi.GPIO"')
    line = text.splitlines().index('factory = "RPi.GPIO"') + 1
    with pytest.raises(ConfigError) as err:
        parse_pins(text, "pins.toml")
    assert str(err.value).startswith(f"pins.toml:{line}: gpio.factory: unknown pin factory")
    assert "lgpio, rpigpio, mock" in str(err.value)
    with pytest.raises(ConfigError, match=r"gpio\.driver: unknown key"):
        parse_pins(GOOD.replace('# factory = "lgpio"', 'driver = "lgpio"'), "pins.toml")
