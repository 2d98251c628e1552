"""Test doubles for the display: a recording luma serial interface and panel emulators that
rebuild what an SSD1306 / SH1106 would show from the bytes it was sent."""

from __future__ import annotations

from PIL import Image


class RecordingSerial:
    """Stands in for luma's i2c serial interface: records every command and data byte."""

    def __init__(self, fail_after: int | None = None, errno: int = 121) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.writes: list[tuple[str, list[int]]] = []  # ("c"|"d", bytes) in order
        self.fail_after = fail_after  # raise OSError on the data write after this many
        self.errno = errno
        self.cleaned = False

    def command(self, *cmd: int) -> None:
        self.commands.append(cmd)
        self.writes.append(("c", list(cmd)))

    def data(self, data: list[int]) -> None:
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise OSError(self.errno, "Remote I/O error")
            self.fail_after -= 1
        self.writes.append(("d", list(data)))

    def cleanup(self) -> None:
        self.cleaned = True

    @property
    def total(self) -> int:
        return sum(len(b) for _, b in self.writes)

    def since(self, mark: int) -> int:
        return sum(len(b) for _, b in self.writes[mark:])


class Ssd1306Panel:
    """The SSD1306's memory under horizontal addressing, driven by the recorded bytes."""

    def __init__(self) -> None:
        self.ram = [[0] * 128 for _ in range(8)]
        self.cols, self.pages = (0, 127), (0, 7)
        self.col, self.page = 0, 0

    def feed(self, writes: list[tuple[str, list[int]]]) -> None:
        for kind, b in writes:
            if kind == "c" and b[:1] == [0x21]:
                assert b[3] == 0x22 and len(b) == 6, b
                self.cols, self.pages = (b[1], b[2]), (b[4], b[5])
                self.col, self.page = b[1], b[4]
            elif kind == "d":
                for byte in b:
                    self.ram[self.page][self.col] = byte
                    self.col += 1
                    if self.col > self.cols[1]:
                        self.col = self.cols[0]
                        self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]

    def image(self) -> Image.Image:
        im = Image.new("1", (128, 64))
        for p in range(8):
            for x in range(128):
                for bit in range(8):
                    if self.ram[p][x] >> bit & 1:
                        im.putpixel((x, p * 8 + bit), 1)
        return im


class Sh1106Panel(Ssd1306Panel):
    """The SH1106: page address 0xB0+p and column nibbles, 132 columns, luma's offset 2."""

    def __init__(self) -> None:
        super().__init__()
        self.ram = [[0] * 132 for _ in range(8)]

    def feed(self, writes: list[tuple[str, list[int]]]) -> None:
        for kind, b in writes:
            if kind == "c" and len(b) == 3 and 0xB0 <= b[0] <= 0xB7:
                self.page = b[0] - 0xB0
                self.col = (b[1] & 0x0F) | ((b[2] & 0x0F) << 4)
            elif kind == "d":
                for byte in b:
                    self.ram[self.page][self.col] = byte
                    self.col += 1

    def image(self) -> Image.Image:
        im = Image.new("1", (128, 64))
        for p in range(8):
            for x in range(128):
                for bit in range(8):
                    if self.ram[p][x + 2] >> bit & 1:
                        im.putpixel((x, p * 8 + bit), 1)
        return im
