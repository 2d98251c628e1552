"""Choosing the hardware once, at start-up: real drivers on a Raspberry Pi, simulated twins
elsewhere, and always saying which was chosen.

``--hardware auto`` looks for "Raspberry Pi" in the device-tree model. On a Pi the real pins
must open: if they cannot, that is an error (exit non-zero), never a silent fall back to fake
buttons; only ``--hardware sim`` runs the simulation on a Pi. A missing *display* is not fatal
anywhere: the game goes on without it (``device.oled``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.framediff import FrameStrategy, Sh1106Pages, Ssd1306Pages, WholeImage
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


def pin_factory(kind: str) -> Any:
    """gpiozero's pin factory for ``kind``; on a Pi a failure is a ``DeviceError``."""
    if kind == "sim":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as err:  # lgpio raises its own types; all mean "no pins"
        raise DeviceError(
            f"cannot open the Raspberry Pi's GPIO pins ({type(err).__name__}: {err}); "
            "check that lgpio is installed and this user is in the gpio group, or run with "
            "--hardware sim") from err


def oled_opener(kind: str, *, display: str = "ssd1306", port: int = 1, address: int = 0x3C,
                rotate: int = 0) -> Callable[[], Any]:
    """A function that opens the display (called again on every retry)."""
    if display not in DISPLAYS:
        raise ValueError(f"--display must be one of {', '.join(DISPLAYS)}, not {display!r}")
    if rotate not in (0, 2):
        raise ValueError("rotation must be 0 or 2 (180 degrees): the screens are landscape")

    if kind == "sim":
        def open_dummy() -> Any:
            from luma.core.device import dummy

            return dummy(width=128, height=64, rotate=rotate, mode="1")
        return open_dummy

    def open_i2c() -> Any:
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106, ssd1306

        serial = i2c(port=port, address=address)
        chip = ssd1306 if display == "ssd1306" else sh1106
        try:
            return chip(serial, width=128, height=64, rotate=rotate)
        except BaseException:
            serial.cleanup()
            raise
    return open_i2c


def strategy_for(kind: str, display: str = "ssd1306") -> FrameStrategy:
    if kind == "sim":
        return WholeImage()
    return Ssd1306Pages() if display == "ssd1306" else Sh1106Pages()
