"""Frame-diff strategies: send the OLED only the bytes that changed.

luma's ``display()`` sends the whole frame (6 command bytes and 1,024 data bytes on an
SSD1306) on every update. A strategy here keeps what the panel shows as 8 pages of 128 column
bytes, compares the next frame page by page, and writes only the changed column span of each
changed page through the luma device's ``command()`` / ``data()`` (its serial interface):

- ``Ssd1306Pages``: column range (0x21 start end) and page range (0x22 page page), then data.
  luma's SSD1306 set-up uses horizontal addressing, so the window wraps as we need.
- ``Sh1106Pages``: the SH1106 has no 0x21/0x22 window: set the page (0xB0 + page) and the
  column's low and high nibbles (0x00 + low, 0x10 + high, shifted by the panel's 2-column
  offset), then the data; it sends one run per changed page.

The simulation uses these same strategies, on luma's same device classes, over an emulated
chip (``device.panel``): there is no whole-image shortcut anywhere.

An identical frame sends nothing at all. ``reset()`` forgets the panel (after a re-open), so
the next frame is sent whole.
"""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

PAGE_H = 8
_REVERSE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


class FrameStrategy(Protocol):
    def reset(self) -> None: ...
    def send(self, device: Any, image: Image.Image) -> int:
        """Send ``image`` (rotated by the device's own ``preprocess``); returns the bytes
        written (0: the panel already shows it)."""
        ...


def _encoder() -> Any:
    return Image._getencoder("1", "raw", "1")


def raw_bits(image: Image.Image) -> bytes:
    """``image.tobytes()`` of a mode "1" image (rows of pixels packed eight to a byte), made
    by the same C encoder (Pillow's "raw" for mode "1"). ``tobytes`` itself imports
    ``PIL.ImageFile`` for a buffer size, and with it ``logging``: ~2.7 ms of the box's first
    frame, which needs neither (issue 41). A Pillow whose encoder is not there or not used
    this way gets ``tobytes`` (tests/device/test_framediff.py checks both agree)."""
    if image.mode != "1":
        return image.tobytes()
    try:
        image.load()
        encoder = _encoder()
    except Exception:
        return image.tobytes()
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        chunks = []
        while True:
            _, status, chunk = encoder.encode(max(65536, image.size[0] * 4))
            chunks.append(chunk)
            if status:
                break
        if status < 0:
            return image.tobytes()
    except Exception:
        return image.tobytes()
    finally:
        encoder.cleanup()
    return b"".join(chunks)


def pages(image: Image.Image) -> list[bytes]:
    """A mode "1" image as the controller's pages: page p, column x is one byte whose bit i
    is pixel (x, 8p + i)."""
    width, height = image.size
    # Transposed, each image column becomes a row; packed MSB-first, a row's bytes hold eight
    # vertical pixels each, top pixel in the high bit: reverse the bits to put it in bit 0.
    packed = raw_bits(image.convert("1").transpose(Image.Transpose.TRANSPOSE)).translate(
        _REVERSE)
    per_column = (height + 7) // 8
    return [packed[p::per_column][:width] for p in range(height // PAGE_H)]


class _PageDiff:
    """The shared part: keep the panel's pages, find each changed page's column span."""

    def __init__(self) -> None:
        self._shown: list[bytes] | None = None

    def reset(self) -> None:
        self._shown = None

    def changes(self, image: Image.Image) -> list[tuple[int, int, int, bytes]]:
        """(page, first column, last column, bytes) for each page that changed."""
        new = pages(image)
        old = self._shown
        out = []
        for p, row in enumerate(new):
            if old is None:
                out.append((p, 0, len(row) - 1, row))
                continue
            if row == old[p]:
                continue
            diff = [x for x in range(len(row)) if row[x] != old[p][x]]
            first, last = diff[0], diff[-1]
            out.append((p, first, last, row[first:last + 1]))
        return out

    def commit(self, image: Image.Image) -> None:
        self._shown = pages(image)


class Ssd1306Pages(_PageDiff):
    """SSD1306: one window per changed page, or one window over them all if that is less."""

    COLUMNADDR, PAGEADDR = 0x21, 0x22

    def __init__(self, colstart: int = 0) -> None:
        super().__init__()
        self.colstart = colstart

    def send(self, device: Any, image: Image.Image) -> int:
        image = device.preprocess(image)
        runs = self.changes(image)
        if not runs:
            return 0
        sent = 0
        first = min(r[1] for r in runs)
        last = max(r[2] for r in runs)
        p0, p1 = runs[0][0], runs[-1][0]
        one_window = 6 + (last - first + 1) * (p1 - p0 + 1)
        per_page = sum(6 + len(r[3]) for r in runs)
        if one_window <= per_page:
            new = pages(image)
            data = b"".join(new[p][first:last + 1] for p in range(p0, p1 + 1))
            runs = [(p0, first, last, data)]
        for page, a, b, data in runs:
            end_page = page + len(data) // (b - a + 1) - 1
            device.command(self.COLUMNADDR, self.colstart + a, self.colstart + b,
                           self.PAGEADDR, page, end_page)
            device.data(list(data))
            sent += 6 + len(data)
        self.commit(image)
        return sent


class Sh1106Pages(_PageDiff):
    """SH1106: page address and column nibbles per changed page."""

    def __init__(self, column_offset: int = 2) -> None:
        super().__init__()
        self.column_offset = column_offset

    def send(self, device: Any, image: Image.Image) -> int:
        image = device.preprocess(image)
        sent = 0
        for page, first, _last, data in self.changes(image):
            col = first + self.column_offset
            device.command(0xB0 + page, col & 0x0F, 0x10 | (col >> 4))
            device.data(list(data))
            sent += 3 + len(data)
        if sent:
            self.commit(image)
        return sent
