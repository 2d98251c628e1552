"""Install Tableside Referee as an appliance on Raspberry Pi OS, and remove it exactly.

Used by ``scripts/install-pi`` and ``scripts/uninstall-pi`` (run as root on the Pi, or with
``--root DIR`` into a scratch tree). Standard library only: it runs on the OS's python3
before any virtualenv exists. Everything it adds is recorded in a manifest
(``/opt/tableside-referee/install-manifest.json``) so that uninstalling removes exactly that.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAME = "tableside-referee"
OPT = f"/opt/{NAME}"
VENV = f"{OPT}/venv"
MANIFEST = f"{OPT}/install-manifest.json"
ETC = f"/etc/{NAME}"
STATE = f"/var/lib/{NAME}"
UNIT_DIR = "/etc/systemd/system"
WANTS_DIR = f"{UNIT_DIR}/multi-user.target.wants"
UDEV_DIR = "/etc/udev/rules.d"
SYSUSERS = f"/etc/sysusers.d/{NAME}.conf"
CONFIG_TXT_CANDIDATES = ("/boot/firmware/config.txt", "/boot/config.txt")
UNITS = {"box": f"{NAME}.service", "console": f"{NAME}-console.service"}
# The page for phones (--web, docs/web.md): systemd listens (a socket unit) and hands the socket
# to the console service, whose drop-in adds `--web`; the service's sandbox stays as it is.
WEB_SOCKET = f"{NAME}-web.socket"
WEB_DROPIN = f"{UNITS['console']}.d/web.conf"  # under systemd/ and UNIT_DIR
SOCKETS_WANTS_DIR = f"{UNIT_DIR}/sockets.target.wants"
# The club's broker (--club-broker, docs/club.md): mosquitto's config snippet, its password and
# ACL files (kept once changed: boxes are added to them), the club's own account and the unit
# of `referee club`.
CLUB_UNIT = f"{NAME}-club.service"
# install-pi --club: UNIT_DIR/<unit>.d/club.conf, from systemd/club/<unit>.conf (not beside the
# unit: `systemd-analyze security` would read it as part of the unit).
CLUB_DROPIN = "club.conf"
BOX_SETTINGS = f"{ETC}/settings.toml"  # the [club] table the drop-in's --settings reads
MOSQUITTO_CONF = "/etc/mosquitto/conf.d/tableside-club.conf"
MOSQUITTO_PASSWD = "/etc/mosquitto/tableside-club.passwd"
MOSQUITTO_ACL = "/etc/mosquitto/tableside-club.acl"
CLUB_SECRET = f"{ETC}/club.secret"
CLUB_READER = "club-reader"
GETTY_TTY1 = f"{UNIT_DIR}/getty@tty1.service"
BEGIN = f"# BEGIN {NAME} (added by scripts/install-pi; scripts/uninstall-pi removes it)"
END = f"# END {NAME}"
VENV_STAMP = ".tableside-referee-stamp"
MANIFEST_VERSION = 1
# What pip needs to build the project; everything else in a checkout is left out of the copy.
SOURCE_SKIP = {
    ".git", ".venv", "venv", "build", "dist", "tests", "__pycache__", ".pytest_cache",
    ".ruff_cache", ".mypy_cache", ".hypothesis", "oled-frames",
}
DEFAULT_BUTTON_PINS = {17, 22, 23, 27}


class InstallError(Exception):
    """Something the owner must fix before the installer can go on."""


def checkout() -> Path:
    """The project checkout this script belongs to."""
    return Path(__file__).resolve().parent.parent


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def log(message: str) -> None:
    print(message, flush=True)


@dataclass
class Target:
    """The system being changed: '/' for real, or a scratch root for tests."""

    root: Path
    dry_run: bool = False
    planned: set[Path] = field(default_factory=set)  # dirs a dry run said it would create

    @property
    def live(self) -> bool:
        return self.root == Path("/")

    @property
    def booted(self) -> bool:
        """True if systemd runs this system (sd_booted(3): /run/systemd/system exists); False
        in a chroot or while an SD card image is being built, where units are only enabled."""
        marker = os.environ.get("TABLESIDE_SD_BOOTED_DIR", "/run/systemd/system")  # (tests)
        return self.live and Path(marker).is_dir()

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    def run(self, argv: Sequence[str], *, check: bool = True) -> int:
        """Run a command, or just say so under --dry-run."""
        log(("would run: " if self.dry_run else "running: ") + " ".join(argv))
        if self.dry_run:
            return 0
        return subprocess.run(list(argv), check=check).returncode


@dataclass
class Manifest:
    """What the installer added (absolute paths as seen on the target)."""

    files: dict[str, str] = field(default_factory=dict)  # path -> sha256 as installed
    conffiles: list[str] = field(default_factory=list)  # kept if the owner changed them
    symlinks: dict[str, str] = field(default_factory=dict)  # path -> link target
    dirs: list[str] = field(default_factory=list)  # created by us, removed when empty
    venv: str | None = None
    config_txt: dict[str, Any] | None = None  # {"path": ..., "block": ..., "added_newline": ...}
    users: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    variant: str = "box"

    @classmethod
    def load(cls, target: Target) -> Manifest | None:
        path = target.path(MANIFEST)
        if not path.exists():
            return None
        data = json.loads(path.read_text())
        if data.pop("version", None) != MANIFEST_VERSION:
            raise InstallError(f"{path}: unknown manifest version")
        return cls(**data)

    def to_json(self) -> str:
        data = {"version": MANIFEST_VERSION, **self.__dict__}
        data["dirs"] = sorted(set(self.dirs))
        data["conffiles"] = sorted(set(self.conffiles))
        data["users"] = sorted(set(self.users))
        data["groups"] = sorted(set(self.groups))
        return json.dumps(data, indent=2, sort_keys=True) + "\n"


# ---------------------------------------------------------------- small file operations


def write_atomic(path: Path, data: bytes, mode: int) -> None:
    """Write via a temporary file, fsync and rename, so power loss leaves old or new."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(PermissionError):  # vfat (/boot/firmware) has no modes
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # make the rename itself durable
    finally:
        os.close(dir_fd)


def ensure_dir(target: Target, absolute: str, manifest: Manifest) -> None:
    """Create a directory and its missing parents, recording each one created."""
    missing = []
    path = target.path(absolute)
    while not path.exists() and path not in target.planned:
        missing.append(path)
        path = path.parent
    for created in reversed(missing):
        rel = "/" + str(created.relative_to(target.root))
        log(("would create " if target.dry_run else "created ") + rel + "/")
        if target.dry_run:
            target.planned.add(created)  # (said once: later files in it find it there)
        else:
            created.mkdir(mode=0o755)
        manifest.dirs.append(rel)


def parse_names(path: Path) -> set[str]:
    """The first field of each line of an /etc/passwd- or /etc/group-style file."""
    if not path.exists():
        return set()
    return {line.split(":", 1)[0] for line in path.read_text().splitlines() if line.strip()}


def read_block(text: str) -> tuple[int, int] | None:
    """The [start, end) span of our marked block in config.txt text, or None."""
    start = text.find(BEGIN)
    if start < 0:
        return None
    if start > 0 and text[start - 1] != "\n":
        raise InstallError("config.txt: our BEGIN marker is not at the start of a line")
    end_marker = text.find(END, start)
    if end_marker < 0:
        raise InstallError(f"config.txt: found '{BEGIN}' without '{END}'; fix it by hand")
    end = end_marker + len(END)
    if text[end : end + 1] == "\n":
        end += 1
    return start, end


def source_files(source: Path) -> list[Path]:
    """The files of the checkout that pip builds from (sorted, relative)."""
    files = []
    for dirpath, dirnames, filenames in os.walk(source):
        dirnames[:] = sorted(
            d for d in dirnames if d not in SOURCE_SKIP and not d.endswith(".egg-info")
        )
        for name in sorted(filenames):
            if not name.endswith((".pyc", ".pyo")):
                files.append((Path(dirpath) / name).relative_to(source))
    return files


def run_quiet(argv: Sequence[str]) -> str:
    return subprocess.run(list(argv), check=True, capture_output=True, text=True).stdout.strip()


def remove_path(target: Target, absolute: str) -> None:
    path = target.path(absolute)
    log(("would remove " if target.dry_run else "removed ") + absolute)
    if not target.dry_run:
        path.unlink()


def rmtree(target: Target, absolute: str) -> None:
    path = target.path(absolute)
    if path.is_dir() and not path.is_symlink():
        log(("would remove " if target.dry_run else "removed ") + absolute + "/ (recursively)")
        if not target.dry_run:
            shutil.rmtree(path)


def remove_dirs(target: Target, dirs: Iterable[str]) -> None:
    """Remove the directories we created, deepest first, if they are empty."""
    for absolute in sorted(set(dirs), key=lambda d: d.count("/"), reverse=True):
        path = target.path(absolute)
        if not path.is_dir():
            continue
        if any(path.iterdir()):
            log(f"kept {absolute}/ (not empty)")
            continue
        log(("would remove " if target.dry_run else "removed ") + absolute + "/")
        if not target.dry_run:
            path.rmdir()


def base_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--root", type=Path, default=Path("/"),
        help="change the system under this directory instead of / (tests, images)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="say what would change, change nothing"
    )
    return parser


def check_privileges(target: Target) -> None:
    if target.live and not target.dry_run and os.geteuid() != 0:
        raise InstallError("run as root: sudo " + " ".join(sys.argv))


def run(action: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Run install or uninstall, turning expected failures into a message and exit 1."""
    try:
        return action(argv)
    except InstallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print(f"error: {' '.join(map(str, exc.cmd))} failed (exit {exc.returncode})",
              file=sys.stderr)
        return 1
