"""The club's topics (club.md): everything under ``tableside/<club>/``."""

from __future__ import annotations

import re

ROOT = "tableside"
BOX_ID = re.compile(r"[A-Za-z0-9-]{1,32}")
CLUB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def base(club: str) -> str:
    return f"{ROOT}/{club}"


def box_topic(club: str, box: str, leaf: str) -> str:
    """``tableside/<club>/box/<box>/<leaf>``; leaf: online, table, entries, batch (entries
    one after another in one message) or resend (the club's requests to the box)."""
    return f"{ROOT}/{club}/box/{box}/{leaf}"


def everything(club: str) -> str:
    """What the club subscribes to."""
    return f"{ROOT}/{club}/#"


def parse(topic: str) -> tuple[str, str, str] | None:
    """(club, box, leaf) of a box's topic; None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "box":
        return None
    return parts[1], parts[3], parts[4]
