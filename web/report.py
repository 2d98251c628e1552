"""`referee report GAME [--png FILE]`: the luck report of a game in the file, or of all of them
(``all``), as text and optionally as a picture (Pillow)."""

from __future__ import annotations

import argparse
import functools
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

from referee import games
from referee.errors import BadRequest, StoreError
from referee.export import from_store
from referee.luck import LuckReport, across, describe, luck
from referee.records import open_reader
from referee.words import corrected, corrections
from web.chart import (
    BOTTOM,
    EXPECTED_COLOUR,
    LEFT,
    MUTED,
    RIGHT,
    SOURCE_COLOUR,
    TEXT,
    bars,
    expected_y,
    title,
)

BACKGROUND = "#121212"


def setup(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME",
                   help="a game id in the file (`referee games`), or `all` for every game")
    p.add_argument("--db", metavar="PATH",
                   help="the game file (default: $REFEREE_DB or "
                        "~/.local/share/tableside-referee/games.sqlite)")
    p.add_argument("--png", metavar="FILE", help="also draw the charts into this PNG file")


def load(db: str | None, which: str) -> tuple[LuckReport, str, list[str]]:
    """The report of game `which` (an id, or ``all``), a title for it, and the dice corrected
    after their result in it (`referee.words.corrections`; "game N: …" across games)."""
    if which != "all" and not which.isdigit():
        raise BadRequest(f"GAME must be a game id or `all`, not {which!r}")
    reader = open_reader(db)
    try:
        with reader.snapshot():
            found = reader.games()
            if which != "all":
                found = [g for g in found if g.id == int(which)]
                if not found:
                    raise StoreError(f"there is no game {which} in {reader.path} "
                                     "(`referee games` lists them)")
            reports = []
            fixed: list[str] = []
            for g in found:
                ruleset = games.find(g.game)
                entries = from_store(reader, g).entries
                reports.append(luck(entries, ruleset))
                fixed += [f"game {g.id}: {c}" if which == "all" else c
                          for c in corrections(entries, ruleset)]
    except sqlite3.Error as err:
        raise StoreError(f"cannot read {reader.path}: {err}") from err
    finally:
        reader.close()
    if which == "all":
        return (across(reports), f"Luck across {len(reports)} game(s) in {reader.path}",
                fixed)
    g = found[0]
    return reports[0], f"Luck in game {g.id} ({', '.join(g.players)}), {g.status}", fixed


def text(report: LuckReport, heading: str, fixed: Sequence[str] = ()) -> str:
    """The report in words; `fixed`: the dice corrected after their result, each counted
    as it stands (a correction is legal, and public: the report says so beside the luck)."""
    lines = [heading]
    if fixed:
        lines.append(f"  {corrected(list(fixed))}")
    tallies = [t for t in report.tallies if t.rolls]
    if not tallies:
        return "\n".join([*lines, "  No dice rolled."])
    for t in tallies:
        j = t.to_json()
        lines.append(f"  {title(j)}")
        lines.append("    face     " + " ".join(f"{f:>5}" for f in j["faces"]))
        lines.append("    count    " + " ".join(f"{c:>5}" for c in j["counts"]))
        lines.append(f"    expected {j['expected']:>5.3g} each; chi-square {j['chi_square']:.3g} "
                     f"({len(j['faces']) - 1} degrees of freedom); {describe(t)}")
    return "\n".join(lines)


def latin(text: str) -> str:
    """``text`` for Pillow's default font, which has Latin-1's letters only (anything else
    draws as an empty box): other scripts spelled in Latin letters (``李明`` -> ``LiMing``,
    an emoji by its name, ``:art:``), as on the OLED (docs/box.md). The text report keeps
    every name as it is."""
    import unicodedata

    from anyascii import anyascii

    text = unicodedata.normalize("NFC", text.replace("—", "-"))
    return "".join(ch if ord(ch) < 0x100 else anyascii(ch) for ch in text)


@functools.cache
def sized(size: int) -> Any:
    """A font of `size` pixels: Pillow's own scalable one from Pillow 10.1; on an older Pillow
    (Raspberry Pi OS bookworm's python3-pil is 9.4) DejaVu Sans if the OS has it, else the
    built-in bitmap font (one size; anchors are then ignored: the chart is still drawn)."""
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size)  # type: ignore[call-arg, unused-ignore]
    except TypeError:  # (Pillow < 10.1: load_default takes no size)
        try:
            return ImageFont.truetype("DejaVuSans.ttf", size)
        except OSError:
            return ImageFont.load_default()


DASH = 8  # pixels of a dash (and of the gap after it) of the fair line


def dashed(draw: Any, x0: float, x1: float, y: float) -> None:
    """The fair die's count across a chart, dashed as on the page."""
    x = x0
    while x < x1:
        draw.line((x, y, min(x + DASH, x1), y), fill=EXPECTED_COLOUR, width=2)
        x += 2 * DASH


def legend(draw: Any, right: float, y: float) -> None:
    """What the colours and the dashed line mean, right-aligned at `right`, as on the page."""
    items = [(k, hexa) for k, hexa in SOURCE_COLOUR.items()]
    note = "dashed line: a fair die's count"
    x = right - draw.textlength(note, font=sized(14))
    draw.text((x, y), note, fill=MUTED, font=sized(14))
    dashed(draw, x - 46, x - 10, y + 8)
    x -= 56
    for name, hexa in reversed(items):
        width = draw.textlength(name, font=sized(14))
        x -= width
        draw.text((x, y), name, fill=TEXT, font=sized(14))
        draw.rectangle((x - 16, y + 2, x - 4, y + 14), fill=hexa)
        x -= 28


def png(report: LuckReport, heading: str, path: str) -> None:
    """The charts, two to a row, as on the page."""
    from PIL import Image, ImageDraw

    from web.chart import H, W

    tallies = [t.to_json() for t in report.tallies if t.rolls]
    cols = 2
    rows = max(1, (len(tallies) + cols - 1) // cols)
    scale = 2
    cell_w, cell_h = W * scale, (H + 24) * scale
    img = Image.new("RGB", (cols * cell_w + 20, rows * cell_h + 50), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.text((10, 12), latin(heading), fill=TEXT, font=sized(20))
    legend(draw, img.width - 10, 14)
    if not tallies:
        draw.text((10, 50), "No dice rolled.", fill=MUTED, font=sized(16))
    for n, t in enumerate(tallies):
        ox, oy = 10 + (n % cols) * cell_w, 46 + (n // cols) * cell_h
        draw.text((ox, oy), latin(f"{title(t)}, chi-square {t['chi_square']:.3g}"), fill=TEXT,
                  font=sized(15))
        top = oy + 22
        colour = SOURCE_COLOUR.get(t["source"], SOURCE_COLOUR["electronic"])
        for (x, y, w, h), face, count in zip(bars(t), t["faces"], t["counts"], strict=True):
            x0, y0 = ox + x * scale, top + y * scale
            if h > 0:
                draw.rectangle((x0, y0, x0 + w * scale, y0 + h * scale), fill=colour)
            label = face.split("-")[0] if len(t["faces"]) > 6 else face
            draw.text((x0 + w * scale / 2, top + (H - BOTTOM + 10) * scale), label, fill=MUTED,
                      font=sized(16), anchor="mm")
            if count:
                draw.text((x0 + w * scale / 2, y0 - 4), str(count), fill=TEXT, font=sized(14),
                          anchor="mb")
        ey = top + expected_y(t) * scale
        dashed(draw, ox + LEFT * scale, ox + (W - RIGHT) * scale, ey)
        draw.text((ox + 4, top + (H - 4) * scale), describe(t), fill=TEXT,
                  font=sized(15), anchor="ls")
    img.save(path, format="PNG")


def run(args: argparse.Namespace) -> int:
    """The report; a report that cannot be drawn is said in one line and exits 1 (the game
    file is only read: nothing else is affected)."""
    try:
        report, heading, fixed = load(args.db, args.game)
    except BadRequest as err:
        print(f"referee report: {err}", file=sys.stderr)
        return 2
    try:
        shown = text(report, heading, fixed)
    except Exception as err:
        return _failed("the report cannot be drawn", err)
    _say(shown)
    if args.png:
        try:
            png(report, heading, args.png)
        except OSError as err:
            print(f"referee report: cannot write {args.png}: {err.strerror or err}",
                  file=sys.stderr)
            return 1
        except Exception as err:
            return _failed(f"the charts cannot be drawn in {args.png}", err)
        print(f"Charts drawn in {args.png}.")
    return 0


def _say(text: str) -> None:
    """Print, even to a terminal whose encoding lacks a player's name's letters (a ``?``
    then, rather than a crash)."""
    try:
        print(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        print(text.encode(encoding, "replace").decode(encoding))


def _failed(what: str, err: Exception) -> int:
    print(f"referee report: {what} ({type(err).__name__}: {err}); nothing was changed",
          file=sys.stderr)
    return 1


def as_json(report: LuckReport) -> dict[str, Any]:
    return report.to_json()
