"""`referee club provision BOX`: a box's credentials, and the broker's lines for them.

Mosquitto's password file holds ``user:$7$ITERATIONS$SALT$HASH`` (PBKDF2-HMAC-SHA512, salt and
hash in base64, as `mosquitto_passwd` writes it); its ACL file gives each box write access
under its own ``box/<box>/`` only, and the club's reader read access to everything of the
club. The password is printed once and never kept: the club's file keeps the line for the
broker (the hash) so `provision --lines` can print the broker's files again.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

from club.topics import ROOT, box_topic

ITERATIONS = 101  # mosquitto_passwd's own
SALT_BYTES = 12


def password_line(user: str, password: str, *, salt: bytes | None = None) -> str:
    """A mosquitto password-file line for `user`."""
    salt = salt or secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    return (f"{user}:$7${ITERATIONS}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}")


def new_password() -> str:
    return secrets.token_urlsafe(24)


def box_acl(club: str, box: str) -> list[str]:
    """The ACL lines that keep box `box` in its own topics (its user is the box id)."""
    return [f"user {box}", f"topic write {box_topic(club, box, '#')}",
            f"topic read {box_topic(club, box, 'resend')}"]


def reader_acl(club: str, user: str) -> list[str]:
    """The ACL lines of the club's own reader: everything of the club."""
    return [f"user {user}", f"topic read {ROOT}/{club}/#",
            f"topic write {ROOT}/{club}/box/+/resend"]
