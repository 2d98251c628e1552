"""The simulated OLED: a stand-in for the I2C bus that *is* the controller chip's memory.

In simulation the box drives the same luma ``ssd1306`` / ``sh1106`` device class as on a Pi,
through the same page-diff strategy (``device.framediff``); only the bus is replaced. ``PanelBus``
takes the command and data bytes luma and the strategy write, interprets them the way the chip
does (SSD1306: horizontal addressing inside the 0x21/0x22 window; SH1106: page 0xB0+p and the
column's nibbles, 132 columns with the panel 2 columns in) and keeps the display RAM. ``glass()``
reads the picture back from that RAM: what a person would see on the panel. So a wrong byte in
the diff shows up in simulation exactly as it would on the table.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

CHIPS = ("ssd1306", "sh1106")
# Commands that take argument bytes (luma sends each command with its arguments in one call).
_ARGS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1,
                0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5},
    "sh1106": {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
               0xDB: 1},
}


class PanelBus:
    """A luma serial interface (``command(*bytes)``, ``data(list)``, ``cleanup()``) whose
    far end is an emulated SSD1306 or SH1106 with a ``width`` x ``height`` panel."""

    def __init__(self, chip: str = "ssd1306", width: int = 128, height: int = 64) -> None:
        if chip not in CHIPS:
            raise ValueError(f"the simulated display is one of {', '.join(CHIPS)}, not {chip!r}")
        self.chip, self.width, self.height = chip, width, height
        self.offset = 2 if chip == "sh1106" else 0  # the SH1106's 132-column RAM, panel at 2
        ram_width = 132 if chip == "sh1106" else width
        self.ram = [bytearray(ram_width) for _ in range(height // 8)]
        self.mode = 2 if chip == "sh1106" else 0  # SSD1306 after reset: page addressing
        self.cols, self.pages = (0, width - 1), (0, height // 8 - 1)
        self.col, self.page = 0, 0
        self.on, self.inverted, self.contrast = False, False, 0x7F
        self.command_bytes = 0  # every byte that crossed the bus, for tests and benchmarks
        self.data_bytes = 0
        self.closed = False

    # ---- the luma serial interface ------------------------------------------------------
    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        args = _ARGS[self.chip]
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = args.get(op, 0)
            self._do(op, cmd[i + 1: i + 1 + n])
            i += 1 + n

    def data(self, data: list[int]) -> None:
        self.data_bytes += len(data)
        for byte in data:
            self._write(byte)

    def cleanup(self) -> None:
        self.closed = True

    # ---- reading the glass ----------------------------------------------------------------
    def glass(self, rotate: int = 0) -> Image.Image:
        """The picture on the panel, as a viewer of a panel mounted ``rotate`` (0 or 2, luma's
        quarter turns) sees it: black while the display is off."""
        im = Image.new("1", (self.width, self.height))
        if self.on:
            packed = bytes(b for p in range(len(self.ram))
                           for b in self.ram[p][self.offset: self.offset + self.width])
            # pages are column bytes, bit 0 on top: build the image column by column
            px = im.load()
            assert px is not None
            for p in range(len(self.ram)):
                row = packed[p * self.width:(p + 1) * self.width]
                for x, byte in enumerate(row):
                    for bit in range(8):
                        if (byte >> bit & 1) != self.inverted:
                            px[x, p * 8 + bit] = 1
        return im.rotate(90 * rotate) if rotate else im

    # ---- the chip ---------------------------------------------------------------------------
    def _do(self, op: int, arg: tuple[int, ...]) -> None:
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0x81 and arg:
            self.contrast = arg[0]
        elif self.chip == "ssd1306" and op == 0x20 and arg:
            self.mode = arg[0] & 0x03
        elif self.chip == "ssd1306" and op == 0x21 and len(arg) == 2:
            self.cols, self.col = (arg[0], arg[1]), arg[0]
        elif self.chip == "ssd1306" and op == 0x22 and len(arg) == 2:
            self.pages, self.page = (arg[0], arg[1]), arg[0]
        elif 0xB0 <= op <= 0xB7:
            self.page = op - 0xB0
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def _write(self, byte: int) -> None:
        if self.page < len(self.ram) and self.col < len(self.ram[self.page]):
            self.ram[self.page][self.col] = byte
        if self.mode == 0:  # horizontal: wrap in the window, then to the next page
            self.col += 1
            if self.col > self.cols[1]:
                self.col = self.cols[0]
                self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]
        else:  # page addressing: along the page only
            self.col = min(self.col + 1, len(self.ram[0]))


def open_simulated(chip: str = "ssd1306", rotate: int = 0) -> Any:
    """luma's own ``ssd1306`` / ``sh1106`` device on a ``PanelBus``; ``device.glass()`` is the
    picture on the emulated panel and ``device.bus`` the bus."""
    from luma.oled.device import sh1106, ssd1306

    bus = PanelBus(chip)
    device = (ssd1306 if chip == "ssd1306" else sh1106)(bus, width=128, height=64,
                                                         rotate=rotate)
    device.bus = bus
    device.glass = lambda: bus.glass(rotate)
    return device
