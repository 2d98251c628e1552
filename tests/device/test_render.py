"""Screens drawn on the 128x64 OLED, compared with reference PNGs.

Regenerate the references after an intended change of the drawing with
    REFEREE_UPDATE_REFERENCE=1 scripts/test tests/device
and look at every changed PNG before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from device.render import render
from device.textart import text_art
from device.view import BoxView, Verdict

REFERENCE = Path(__file__).parent / "reference"


def check_reference(name: str, image: Image.Image) -> None:
    path = REFERENCE / f"{name}.png"
    if os.environ.get("REFEREE_UPDATE_REFERENCE") == "1":
        image.save(path)
        return
    assert path.exists(), f"no reference {path}: run with REFEREE_UPDATE_REFERENCE=1"
    want = Image.open(path).convert("1")
    assert image.mode == "1" and image.size == (128, 64)
    if want.tobytes() != image.tobytes():
        raise AssertionError(f"{name} differs from {path}:\n{text_art(image, 'half')}")


VIEWS = {
    "new": BoxView("new", title="Gallery Grippers", big="3", source="players",
                   lines=("New game", "P1, P2, P3"), hint="NEXT:+1 ROLL:start"),
    "turn": BoxView("turn", title="Ann, turn 4", big="5", source="electronic",
                    lines=("$300M", "in Louvre", "art held: 1", "5 cards"), strikes=1,
                    money=300_000_000, hint="ROLL:move MENU:more"),
    "tiles": BoxView("tiles", title="Ann moved to:", big="6", source="kept",
                     menu=("plain", "airport", "recruitment", "trading", "black market",
                           "security >", "alarm >", "art >", "museum >"), cursor=5,
                     strikes=0, hint="NEXT:next ROLL:ok"),
    "obstacle": BoxView("obstacle", title="Ann: security", strikes=2,
                        lines=("specialist: +30 Hacker", "cards +50, art -35",
                               "need 85+ on d100"), hint="NEXT:card ROLL:ok"),
    "verdict": BoxView("verdict", title="Ann: bypassed", big="50", source="typed",
                       strikes=0, verdict=Verdict(50, 30, 20, 0, 100, 100, True, "typed"),
                       hint="any key: go on"),
    "verdict-fail": BoxView("verdict", title="Ben: strike 3", big="100",
                            source="tray", strikes=3,
                            verdict=Verdict(100, 0, 0, 35, 65, 100, False, "tray"),
                            hint="any key: go on"),
    "choice": BoxView("choice", title="Second strike", menu=("leave premises", "go back in"),
                      cursor=1, strikes=2, hint="NEXT:next ROLL:ok"),
    "notice": BoxView("turn", title="Ann, turn 4", big="5", source="electronic",
                      lines=("$0", "outside", "art held: 0", "6 cards"), strikes=0,
                      hint="NEXT:end turn",
                      notice="GG-6 card not in hand\nAnn does not hold\nHacker."),
    "players": BoxView("status", title="Players 1/2",
                       lines=("Annabelle", "$300M, art held: 1", "Ben",
                              "$1.2B, art held: 0"),
                       pips=(1, None, 0, None), hint="NEXT:more BACK:close"),
    "idle": BoxView("idle", lines=("Ann's turn", "dice 3fa1c..9e07b"), hint="any key: wake"),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_screens_match_their_reference(name: str) -> None:
    check_reference(name, render(VIEWS[name]))


def test_render_is_pure_and_a_one_bit_128x64_image() -> None:
    a, b = render(VIEWS["turn"]), render(VIEWS["turn"])
    assert (a.mode, a.size) == ("1", (128, 64)) and a.tobytes() == b.tobytes()
    assert render(VIEWS["turn"]).tobytes() != render(VIEWS["notice"]).tobytes()


def test_text_art_uses_half_blocks_two_rows_a_line() -> None:
    im = Image.new("1", (4, 4))
    im.putpixel((0, 0), 1)
    im.putpixel((1, 1), 1)
    im.putpixel((2, 0), 1)
    im.putpixel((2, 1), 1)
    assert text_art(im, "half").split("\n") == ["\u2580\u2584\u2588 ", "    "]
