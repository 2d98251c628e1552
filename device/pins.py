"""The box's button map (``firmware_config/pins.toml``): pins, pulls and what each press does.

``load_pins(path)`` reads and checks the file; every mistake is a ``ConfigError`` naming the
file, the line (where it can be found) and the field, e.g.
``pins.toml:14: buttons.NEXT.pin: GPIO 17 is already used by buttons.ROLL``.
The format is documented in ``docs/box.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import ConfigError
from referee.tomlfile import locate_line, toml_loads

BUTTONS = ("ROLL", "NEXT", "BACK", "MENU")
ACTIONS = ("roll", "next", "select", "back", "undo", "menu", "status", "none")
PULLS = ("up", "down", "none")
FACTORIES = ("lgpio", "rpigpio", "mock")  # gpiozero pin factories (device.hardware)
LEVELS = ("low", "high")
# BCM GPIO numbers a button may use on the 40-pin header (0/1 are the HAT EEPROM's I2C;
# 2/3 are the OLED's I2C bus).
USABLE_GPIO = range(4, 28)
PROJECT_PINS = Path(__file__).resolve().parent.parent / "firmware_config" / "pins.toml"


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button: its BCM pin, how it is wired, and its short- and long-press actions."""

    name: str
    pin: int
    pull: str = "up"
    active: str = "low"
    short: str = "none"
    long: str = "none"

    def gpiozero_args(self) -> dict[str, Any]:
        """``pull_up`` / ``active_state`` as gpiozero's input devices take them."""
        if self.pull == "none":
            return {"pull_up": None, "active_state": self.active == "high"}
        return {"pull_up": self.pull == "up", "active_state": None}


@dataclass(frozen=True, slots=True)
class PinMap:
    """Every button and the press timing; ``source`` says where it was read from."""

    buttons: tuple[ButtonSpec, ...]
    debounce_s: float = 0.020
    hold_s: float = 0.800
    source: str = "built-in defaults"
    factory: str | None = None  # [gpio] factory: gpiozero's pin driver on a Pi (None: lgpio)

    def button(self, name: str) -> ButtonSpec:
        for b in self.buttons:
            if b.name == name:
                return b
        raise KeyError(name)

    def action(self, name: str, long: bool) -> str:
        """The action a (short or long) press of button ``name`` stands for."""
        spec = self.button(name)
        return spec.long if long else spec.short


DEFAULT_PINS = PinMap(buttons=(
    ButtonSpec("ROLL", 17, short="roll", long="roll"),
    ButtonSpec("NEXT", 27, short="next", long="select"),
    ButtonSpec("BACK", 22, short="back", long="undo"),
    ButtonSpec("MENU", 23, short="menu", long="status"),
))


class _Checker:
    """Raises ConfigError with file, line and field for one pins file."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def fail(self, message: str, field: str, tables: list[tuple[str, int | None]],
             key: str | None = None) -> ConfigError:
        line = locate_line(self.text, tables, key)
        return ConfigError(message, path=self.source, line=line, field=field)

    def keys(self, table: Any, allowed: tuple[str, ...], field: str,
             tables: list[tuple[str, int | None]]) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail("must be a table", field or "(top level)", [], field or None)
        for key in table:
            if key not in allowed:
                err = self.fail(f"unknown key {key!r}; allowed: {', '.join(allowed)}",
                                f"{field}.{key}" if field else key, tables, key)
                if err.line is None and field:  # a [field.key] table of its own
                    err = self.fail(f"unknown key {key!r}; allowed: {', '.join(allowed)}",
                                    f"{field}.{key}", [(f"{field}.{key}", None)])
                raise err
        return table


def _ms(chk: _Checker, table: dict[str, Any], key: str, default: float, low: int,
        high: int) -> float:
    if key not in table:
        return default
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise chk.fail(f"must be a whole number of milliseconds from {low} to {high}, "
                       f"not {value!r}", f"timing.{key}", [("timing", None)], key)
    return value / 1000


def _choice(chk: _Checker, spec: dict[str, Any], name: str, key: str,
            allowed: tuple[str, ...], default: str | None) -> str:
    field = f"buttons.{name}.{key}"
    tables: list[tuple[str, int | None]] = [(f"buttons.{name}", None)]
    if key not in spec:
        if default is None:
            raise chk.fail("is missing", field, tables)
        return default
    value = spec[key]
    if value not in allowed:
        what = "action" if key in ("short", "long") else "value"
        raise chk.fail(f"unknown {what} {value!r}; use one of {', '.join(allowed)}",
                       field, tables, key)
    return str(value)


def parse_pins(text: str, source: str = "<string>") -> PinMap:
    """Check a pins file's TOML text; ``source`` names it in errors. Raises ``ConfigError``."""
    data = toml_loads(text, source, ConfigError)
    chk = _Checker(text, source)
    chk.keys(data, ("gpio", "timing", "buttons"), "", [])
    gpio = chk.keys(data.get("gpio", {}), ("factory",), "gpio", [("gpio", None)])
    factory = gpio.get("factory")
    if factory is not None and factory not in FACTORIES:
        raise chk.fail(f"unknown pin factory {factory!r}; use one of {', '.join(FACTORIES)}",
                       "gpio.factory", [("gpio", None)], "factory")
    timing = chk.keys(data.get("timing", {}), ("debounce_ms", "hold_ms"), "timing",
                      [("timing", None)])
    debounce = _ms(chk, timing, "debounce_ms", DEFAULT_PINS.debounce_s, 1, 200)
    hold = _ms(chk, timing, "hold_ms", DEFAULT_PINS.hold_s, 200, 5000)
    if "buttons" not in data:
        raise chk.fail("the file has no [buttons.*] tables", "buttons", [])
    buttons = chk.keys(data["buttons"], BUTTONS, "buttons", [])
    missing = [b for b in BUTTONS if b not in buttons]
    if missing:
        raise chk.fail(f"missing button(s): {', '.join(missing)} (every box has "
                       f"{', '.join(BUTTONS)})", "buttons", [])
    specs: list[ButtonSpec] = []
    used: dict[int, str] = {}
    for name in BUTTONS:
        tables: list[tuple[str, int | None]] = [(f"buttons.{name}", None)]
        spec = chk.keys(buttons[name], ("pin", "pull", "active", "short", "long"),
                        f"buttons.{name}", tables)
        pin = spec.get("pin")
        if pin is None:
            raise chk.fail("is missing (a BCM GPIO number)", f"buttons.{name}.pin", tables)
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in USABLE_GPIO:
            raise chk.fail(f"must be a BCM GPIO number from {USABLE_GPIO.start} to "
                           f"{USABLE_GPIO.stop - 1} (2 and 3 carry the OLED's I2C), not {pin!r}",
                           f"buttons.{name}.pin", tables, "pin")
        if pin in used:
            raise chk.fail(f"GPIO {pin} is already used by buttons.{used[pin]}",
                           f"buttons.{name}.pin", tables, "pin")
        used[pin] = name
        pull = _choice(chk, spec, name, "pull", PULLS, "up")
        implied = {"up": "low", "down": "high"}.get(pull)
        active = _choice(chk, spec, name, "active", LEVELS, implied)
        if implied is not None and active != implied:
            raise chk.fail(f"a button with pull = {pull!r} reads {implied!r} while pressed; "
                           f"use pull = \"none\" for other wiring", f"buttons.{name}.active",
                           tables, "active")
        short = _choice(chk, spec, name, "short", ACTIONS, None)
        long = _choice(chk, spec, name, "long", ACTIONS, None)
        specs.append(ButtonSpec(name, pin, pull, active, short, long))
    return PinMap(tuple(specs), debounce_s=debounce, hold_s=hold, source=source,
                  factory=factory)


def load_pins(path: str | Path | None = None) -> PinMap:
    """The pin map from ``path``; with None, the project's ``firmware_config/pins.toml`` if it
    is there, else the built-in defaults (the same map). Raises ``ConfigError``."""
    if path is None:
        if not PROJECT_PINS.is_file():
            return DEFAULT_PINS
        path = PROJECT_PINS
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the pin map: {exc.strerror or exc}", path=source) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason})", path=source) from exc
    return parse_pins(text, source)
