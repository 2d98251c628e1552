"""``scripts/uninstall-pi``: remove exactly what ``scripts/install-pi`` added.

The game database (/var/lib/tableside-referee) and config files the owner changed are kept
unless ``--purge``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pi_installer import (
    CLUB_UNIT,
    MANIFEST,
    NAME,
    STATE,
    UNITS,
    VENV,
    WEB_SOCKET,
    Manifest,
    Target,
    base_parser,
    check_privileges,
    log,
    read_block,
    remove_dirs,
    remove_path,
    rmtree,
    sha256,
    write_atomic,
)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = base_parser("Remove Tableside Referee from this system (what install-pi added).")
    parser.add_argument(
        "--purge", action="store_true",
        help=f"also delete the game database ({STATE}) and config files you changed",
    )
    return parser.parse_args(argv)


def remove_config_block(target: Target, manifest: Manifest) -> bool:
    """Take our marked block out of config.txt; True if the file changed."""
    if not manifest.config_txt:
        return False
    absolute = manifest.config_txt["path"]
    path = target.path(absolute)
    if not path.is_file():
        log(f"{absolute} is gone: nothing to take out of it")
        return False
    text = path.read_text()
    span = read_block(text)
    if span is None:
        log(f"{absolute}: our block is already gone")
        return False
    start, end = span
    if manifest.config_txt.get("added_newline") and start > 0 and text[start - 1] == "\n":
        start -= 1  # the newline we added after a last line that had none
    log(("would update " if target.dry_run else "updated ") + f"{absolute} (block removed)")
    if not target.dry_run:
        write_atomic(path, (text[:start] + text[end:]).encode(), path.stat().st_mode & 0o7777)
    return True


def remove_users(target: Target, manifest: Manifest) -> None:
    """Delete the user and groups systemd-sysusers created for us (shadow's tools)."""
    prefix = [] if target.live else ["--prefix", str(target.root)]
    for user in manifest.users:
        target.run(["userdel", *prefix, user], check=False)
    for group in manifest.groups:
        group_file = target.path("/etc/group")
        if group_file.is_file() and any(
            line.split(":", 1)[0] == group for line in group_file.read_text().splitlines()
        ):
            target.run(["groupdel", *prefix, group], check=False)


def uninstall(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    target = Target(root=args.root.resolve(), dry_run=args.dry_run)
    check_privileges(target)
    manifest = Manifest.load(target)
    if manifest is None:
        log(f"{NAME} is not installed here (no {MANIFEST}); nothing to do")
        return 0
    if target.live:
        target.run(["systemctl", "stop", *UNITS.values(), WEB_SOCKET, CLUB_UNIT], check=False)
    for absolute in sorted(manifest.symlinks):
        if target.path(absolute).is_symlink():
            remove_path(target, absolute)
    kept = []
    for absolute, digest in sorted(manifest.files.items()):
        path = target.path(absolute)
        if not path.is_file():
            continue
        if absolute in manifest.conffiles and not args.purge \
                and sha256(path.read_bytes()) != digest:
            kept.append(absolute)
            continue
        remove_path(target, absolute)
    if manifest.venv:
        rmtree(target, VENV)
    config_changed = remove_config_block(target, manifest)
    remove_users(target, manifest)
    if args.purge:
        rmtree(target, STATE)
    remove_path(target, MANIFEST)
    remove_dirs(target, manifest.dirs)
    if target.live:
        target.run(["systemctl", "daemon-reload"], check=False)
        target.run(["udevadm", "control", "--reload-rules"], check=False)
    for absolute in kept:
        log(f"kept {absolute}: you changed it (--purge deletes it)")
    if not args.purge and target.path(STATE).exists():
        log(f"kept the game database in {STATE} (--purge deletes it)")
    if config_changed:
        log("config.txt changed: reboot to apply")
    return 0
