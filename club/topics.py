"""The club's topics (club.md): everything under ``tableside/<club>/``."""

from __future__ import annotations

import re

ROOT = "tableside"
BOX_ID = re.compile(r"[A-Za-z0-9-]{1,32}")
CLUB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
READER = "club-reader"  # the club process's own broker account (scripts/pi_install.py)

# The most bytes a message may hold, per leaf, checked before it is parsed (issue 40). A box's
# batch is at most its publisher's BATCH_BYTES of entries (an entry alone may be up to as big)
# and its envelope; a table is the game's state for the page; a presence is a line.
BATCH_MOST = 50  # entries in one batch at most
BATCH_BYTES = 256 * 1024  # a batch's entries at most (the publisher's bound)
ENTRY_BYTES = BATCH_BYTES + 4096
MESSAGE_BYTES = {"entries": ENTRY_BYTES, "batch": ENTRY_BYTES, "table": 128 * 1024,
                 "online": 1024, "resend": 1024}
# The broker's own limit (the shipped config's ``message_size_limit``): the largest of them,
# so a bigger message never reaches the club at all.
BROKER_MESSAGE_BYTES = max(MESSAGE_BYTES.values())


def base(club: str) -> str:
    return f"{ROOT}/{club}"


def box_topic(club: str, box: str, leaf: str) -> str:
    """``tableside/<club>/box/<box>/<leaf>``; leaf: online, table, entries, batch (entries
    one after another in one message) or resend (the club's requests to the box)."""
    return f"{ROOT}/{club}/box/{box}/{leaf}"


def club_client_id(club: str) -> str:
    """The club process's MQTT client id. Ids hold a ``/``, which no box id nor club name
    may, so the club's and every box's can never be the same (issue 40); with the shipped
    broker config the broker uses the account's name as the id anyway
    (``use_username_as_clientid``)."""
    return f"{ROOT}/{club}/club"


def box_client_id(club: str, box: str) -> str:
    """A box's MQTT client id (see `club_client_id`)."""
    return f"{ROOT}/{club}/box/{box}"


def reserved(club: str) -> frozenset[str]:
    """Names no box may have (compared without case): the club's own accounts and ids."""
    return frozenset(n.lower() for n in (READER, club, "club", ROOT))


def everything(club: str) -> str:
    """What the club subscribes to."""
    return f"{ROOT}/{club}/#"


def parse(topic: str) -> tuple[str, str, str] | None:
    """(club, box, leaf) of a box's topic; None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "box":
        return None
    return parts[1], parts[3], parts[4]
