"""`referee club provision BOX`: a box's credentials, and the broker's lines for them.

Mosquitto's password file holds ``user:$7$ITERATIONS$SALT$HASH`` (PBKDF2-HMAC-SHA512, salt and
hash in base64, as `mosquitto_passwd` writes it); its ACL file gives each box write access
under its own ``box/<box>/`` only, and the club's reader read access to everything of the
club. The password is printed once and never kept: the club's file keeps the line for the
broker (the hash) so `provision --lines` can print the broker's files again.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import secrets
import signal
import subprocess
import tempfile
from pathlib import Path

from club.topics import ROOT, box_topic

ITERATIONS = 101  # mosquitto_passwd's own
# the broker's files as `scripts/install-pi --club-broker` installs them (docs/club.md)
PASSWD_FILE = "/etc/mosquitto/tableside-club.passwd"
ACL_FILE = "/etc/mosquitto/tableside-club.acl"
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


def _rewrite(path: Path, keep: list[str]) -> None:
    """`path` replaced by `keep` at once (a file beside it, renamed over it), with its mode
    and owner: the broker never reads half a file."""
    st = path.stat()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(keep))
        os.chmod(tmp, st.st_mode & 0o7777)
        if os.geteuid() == 0:
            os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def drop_user(passwd: Path, acl: Path, user: str) -> bool:
    """`user`'s line out of the broker's password file and its ``user`` block (the line and
    the topic lines under it) out of the ACL file; whether either held it."""
    lines = passwd.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [ln for ln in lines if ln.split(":", 1)[0].strip() != user]
    found = len(kept) != len(lines)
    if found:
        _rewrite(passwd, kept)
    lines = acl.read_text(encoding="utf-8").splitlines(keepends=True)
    kept, inside = [], False
    for ln in lines:
        words = ln.split()
        if words[:1] in (["user"], ["pattern"]):
            inside = words == ["user", user]
        if not inside or (words and words[0].startswith("#")):
            kept.append(ln)
    if len(kept) != len(lines):
        _rewrite(acl, kept)
        found = True
    return found


def reload_broker(pid: int | None) -> str | None:
    """Make mosquitto read its password and ACL files again (SIGHUP to `pid`, or `systemctl
    reload mosquitto`); None once done, else what failed."""
    if pid is not None:
        try:
            os.kill(pid, signal.SIGHUP)
        except OSError as err:
            return f"SIGHUP to {pid}: {err.strerror or err}"
        return None
    try:
        done = subprocess.run(["systemctl", "reload", "mosquitto"], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"systemctl reload mosquitto: {err}"
    return None if done.returncode == 0 else (done.stderr.strip()
                                               or f"systemctl exited {done.returncode}")
