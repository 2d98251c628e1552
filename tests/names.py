"""Player names from many scripts: every game, every front end must take, show, keep and
resume each of them (issue 22). One list, imported wherever names are tested.

Each is a name the rules accept (NFC, no control or format characters). `longest(limit)`
gives one at a game's own limit.
"""

from __future__ import annotations

import unicodedata

CORPUS: tuple[str, ...] = (
    "李明",                      # CJK (double-width in a terminal)
    "山田 太郎",                  # Japanese with a space
    "김민준",                     # Hangul
    "Σοφία",                     # Greek
    "Łukasz",                    # Latin Extended-A
    "Zoë 🎨",                    # Latin-1 and an emoji
    "Дмитрий",                   # Cyrillic
    "محمد",                      # Arabic (right to left)
    "שרה",                       # Hebrew (right to left)
    "Nguyễn Thị",                # Vietnamese: stacked diacritics (NFC)
    "Ame\u0301lie\u0328",        # combining marks that NFC cannot fold away entirely
    "👍🏽 Ana",                   # emoji with a skin-tone modifier
    "👩‍🎨 Mia",                   # a ZWJ sequence (woman artist)
    "🏳️‍🌈",                      # a flag ZWJ sequence with a variation selector
    "O'Brien-Smith",             # ASCII punctuation
    "[b]Bold[/b] <i>",           # markup in Rich and HTML alike
)


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def longest(limit: int) -> str:
    """A name of exactly `limit` characters, in several scripts."""
    base = "Ωμέγα李明Łukasz🎨Дмитрий" * 4
    return base[:limit]
