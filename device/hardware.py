"""Choosing the hardware once, at start-up: real drivers on a Raspberry Pi, simulated twins
elsewhere, and always saying which was chosen.

``--hardware auto`` looks for "Raspberry Pi" in the device-tree model. On a Pi the real pins
must open: if they cannot, that is an error (exit non-zero), never a silent fall back to fake
buttons; only ``--hardware sim`` runs the simulation on a Pi. A missing *display* is not fatal
anywhere: the game goes on without it (``device.oled``).

The buttons' pin driver is gpiozero's *pin factory*: ``lgpio`` (the default), ``rpigpio``
(RPi.GPIO, for older Pi OS images; the ``rpigpio`` extra) or ``mock`` (simulation, where the
keys drive the mock pins). The display is driven the same way everywhere: luma's device class
and the page-diff strategy; in simulation the I2C bus is an emulated chip (``device.panel``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.framediff import FrameStrategy, Sh1106Pages, Ssd1306Pages
from referee.errors import DeviceError

MODEL_PATHS = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")
DISPLAYS = ("ssd1306", "sh1106")


def pi_model(paths: Sequence[str | Path] = MODEL_PATHS) -> str | None:
    """The board's model string if it is a Raspberry Pi, else None."""
    for path in paths:
        try:
            model = Path(path).read_bytes().decode("ascii", "replace").strip("\0 \n")
        except OSError:
            continue
        if "Raspberry Pi" in model:
            return model
    return None


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str  # "pi" or "sim"
    why: str  # the sentence the box prints about it


def choose(mode: str, *, model_paths: Sequence[str | Path] = MODEL_PATHS) -> Choice:
    """Resolve ``--hardware auto|pi|sim``."""
    if mode not in ("auto", "pi", "sim"):
        raise ValueError(f"--hardware must be auto, pi or sim, not {mode!r}")
    model = pi_model(model_paths)
    if mode == "sim":
        extra = f" (on a {model}: real buttons and display are NOT used)" if model else ""
        return Choice("sim", f"hardware: simulated buttons and OLED, as asked{extra}")
    if mode == "pi":
        return Choice("pi", f"hardware: real GPIO buttons and I2C OLED, as asked"
                      f" ({model or 'no Raspberry Pi model found'})")
    if model:
        return Choice("pi", f"hardware: real GPIO buttons and I2C OLED ({model})")
    return Choice("sim", "hardware: simulated buttons and OLED (no Raspberry Pi found)")


PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
INSTALL_RPIGPIO = ("pip install 'tableside-referee[rpigpio]' in the box's virtualenv, or "
                   "sudo apt install python3-rpi.gpio")


def choose_pins(kind: str, flag: str | None = None, configured: str | None = None,
                source: str = "pins.toml") -> tuple[str, str]:
    """gpiozero's pin factory for hardware ``kind``: ``--pin-factory`` (``flag``) first, then
    the pins file's ``[gpio] factory`` (``configured``, read from ``source``), then lgpio.
    Returns (name, the sentence the box says about it). Simulation always uses the mock pins
    (the keys drive them); asking it for real pins is an error, not something to guess about.
    """
    for name, where in ((flag, "--pin-factory"), (configured, source)):
        if name is not None and name not in PIN_FACTORIES:
            raise DeviceError(f"{where}: unknown pin factory {name!r}; use one of "
                              f"{', '.join(PIN_FACTORIES)}")
    if kind == "sim":
        if flag in ("lgpio", "rpigpio"):
            raise DeviceError(f"--pin-factory {flag} reads real GPIO pins, but the hardware is "
                              "simulated: use --hardware pi on the Raspberry Pi, or leave "
                              "--pin-factory out")
        note = (f" ({source} asks for {configured}: that is for the Raspberry Pi)"
                if configured in ("lgpio", "rpigpio") else "")
        return "mock", f"buttons: gpiozero's mock pins, pressed by the keys{note}"
    name = flag or configured or "lgpio"
    origin = "--pin-factory" if flag else source if configured else "the default"
    if name == "mock":
        return name, (f"buttons: gpiozero's MOCK pins, as {origin} asks: the real buttons are "
                      "NOT read; the keys press the mock ones")
    return name, f"buttons: the {name} pin driver ({origin})"


def pin_factory(name: str) -> Any:
    """gpiozero's pin factory called ``name`` (lgpio, rpigpio, mock). A driver that is missing
    or cannot open the pins is a ``DeviceError`` saying what to do: never fake pins instead."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name not in PIN_FACTORIES:
        raise DeviceError(f"unknown pin factory {name!r}; use one of {', '.join(PIN_FACTORIES)}")
    label = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}[name]
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory as Factory
        else:
            from gpiozero.pins.rpigpio import RPiGPIOFactory as Factory
    except ImportError as err:
        how = (INSTALL_RPIGPIO if name == "rpigpio" else "sudo apt install python3-lgpio")
        raise DeviceError(f"the {label} pin driver is not installed ({err}): {how}; or choose "
                          "another with --pin-factory / [gpio] factory in pins.toml, or run "
                          "with --hardware sim") from err
    except Exception as err:  # RPi.GPIO refuses at import on a board it does not know
        raise DeviceError(f"{label} cannot run here ({type(err).__name__}: {err}); "
                          + ("RPi.GPIO does not support the Raspberry Pi 5: use lgpio there; "
                             if name == "rpigpio" else "")
                          + "or run with --hardware sim") from err
    try:
        return Factory()
    except Exception as err:  # each library raises its own types; all mean "no pins"
        raise DeviceError(
            f"cannot open the Raspberry Pi's GPIO pins with {label} ({type(err).__name__}: "
            f"{err}); check that {label} is installed and this user is in the gpio group, or "
            "run with --hardware sim") from err


I2C_DEVICES = "/dev/i2c-"  # the kernel's I2C buses, /dev/i2c-1 on every Pi with a 40-pin header


def oled_opener(kind: str, *, display: str = "ssd1306", port: int = 1, address: int = 0x3C,
                rotate: int = 0) -> Callable[[], Any]:
    """A function that opens the display (called again on every retry)."""
    if display not in DISPLAYS:
        raise ValueError(f"--display must be one of {', '.join(DISPLAYS)}, not {display!r}")
    if rotate not in (0, 2):
        raise ValueError("rotation must be 0 or 2 (180 degrees): the screens are landscape")

    if kind == "sim":
        def open_simulated() -> Any:
            from device.panel import open_simulated

            return open_simulated(display, rotate)
        return open_simulated

    def open_i2c() -> Any:
        from luma.core.error import DeviceNotFoundError
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106, ssd1306

        bus = f"{I2C_DEVICES}{port}"
        if not os.path.exists(bus):  # (luma would say only "not found")
            raise DeviceNotFoundError(
                f"I2C is off ({bus} is missing): turn it on with `sudo raspi-config nonint "
                "do_i2c 0` (or raspi-config, Interface Options, I2C) and reboot; scripts/"
                "install-pi turns it on in config.txt, which needs a reboot too")
        serial = i2c(port=port, address=address)
        chip = ssd1306 if display == "ssd1306" else sh1106
        try:
            return chip(serial, width=128, height=64, rotate=rotate)
        except BaseException:
            serial.cleanup()
            raise
    return open_i2c


def strategy_for(display: str = "ssd1306") -> FrameStrategy:
    """The page-diff strategy for the display chip: the same on a Pi and in simulation."""
    if display not in DISPLAYS:
        raise ValueError(f"--display must be one of {', '.join(DISPLAYS)}, not {display!r}")
    return Ssd1306Pages() if display == "ssd1306" else Sh1106Pages()
