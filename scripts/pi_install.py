"""``scripts/install-pi``: make a Raspberry Pi OS system a Tableside Referee box (idempotent).

Steps, each skipped when already done: the service user (systemd-sysusers), the virtualenv
in /opt with the project pip-installed from this checkout, config in /etc, the udev rules,
the systemd units and the enable symlink, and a marked block in the firmware's config.txt.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from pi_installer import (
    BEGIN,
    BOX_SETTINGS,
    CLUB_DROPIN,
    CLUB_READER,
    CLUB_SECRET,
    CLUB_UNIT,
    CONFIG_TXT_CANDIDATES,
    DEFAULT_BUTTON_PINS,
    END,
    ETC,
    GETTY_TTY1,
    MANIFEST,
    MOSQUITTO_ACL,
    MOSQUITTO_CONF,
    MOSQUITTO_PASSWD,
    NAME,
    OPT,
    SOCKETS_WANTS_DIR,
    SYSUSERS,
    UDEV_DIR,
    UNIT_DIR,
    UNITS,
    VENV,
    VENV_STAMP,
    WANTS_DIR,
    WEB_DROPIN,
    WEB_SOCKET,
    InstallError,
    Manifest,
    Target,
    base_parser,
    check_privileges,
    checkout,
    ensure_dir,
    log,
    parse_names,
    read_block,
    remove_path,
    run_quiet,
    sha256,
    source_files,
    write_atomic,
)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = base_parser("Install Tableside Referee as a service on Raspberry Pi OS.")
    parser.add_argument(
        "--variant", choices=sorted(UNITS), default="box",
        help="box: buttons + OLED + tray (default); console: also the Textual console on tty1",
    )
    parser.add_argument(
        "--power-button-gpio", type=int, metavar="N",
        help="add a shutdown button on GPIO N to config.txt (gpio-shutdown overlay)",
    )
    parser.add_argument(
        "--config-txt", metavar="PATH",
        help="the firmware config.txt to edit (default: /boot/firmware/config.txt, "
        "else /boot/config.txt)",
    )
    parser.add_argument(
        "--source", type=Path, default=checkout(), help="project checkout (default: this one)"
    )
    parser.add_argument(
        "--venv-python", default=sys.executable,
        help="interpreter that creates the virtualenv (default: the one running this script)",
    )
    parser.add_argument(
        "--no-system-site-packages", action="store_true",
        help="isolate the venv from the OS's Python packages (the default shares them, so "
        "the lgpio that Raspberry Pi OS ships with is used)",
    )
    parser.add_argument(
        "--pip-arg", action="append", default=[], metavar="ARG",
        help="extra argument for pip install (repeatable), e.g. --pip-arg=--no-deps",
    )
    parser.add_argument(
        "--web", action="store_true",
        help="also serve the live, read-only page for phones on port 8080 (local networks "
        "only; docs/web.md): installs the page's libraries, the socket unit and the "
        "console's drop-in, and enables the socket. Needs --variant console. Off unless given: "
        "a later run without it takes the page away again",
    )
    parser.add_argument(
        "--club-broker", action="store_true",
        help="this Pi hosts the club (docs/club.md): mosquitto's config for the club, its "
        "password and ACL files, the club's own account and the club's service (its page on "
        "port 8090); needs the mosquitto package. Off unless given",
    )
    parser.add_argument(
        "--club", action="store_true",
        help="this box publishes its games to a club (docs/club.md): a drop-in that gives the "
        "service a network (it never waits for one) and runs it with --settings "
        "/etc/tableside-referee/settings.toml, whose [club] table must be written first; "
        "installs the club's libraries. Off unless given",
    )
    parser.add_argument(
        "--rpigpio", action="store_true",
        help="also install the RPi.GPIO interface as a pin driver (the rpigpio extra: "
        "rpi-lgpio, a ready-made package; then set [gpio] factory = \"rpigpio\" in "
        "pins.toml). Off unless given",
    )
    parser.add_argument("--no-start", action="store_true", help="enable but do not (re)start")
    parser.add_argument(
        "--force", action="store_true", help="replace files at our paths that we did not install"
    )
    args = parser.parse_args(argv)
    if args.web and args.variant != "console":
        parser.error("--web: the page for phones is served by the console (referee run); "
                     "add --variant console")
    if args.club and args.web:
        parser.error("--club with --web: both replace the console's ExecStart=; give one, and "
                     "add the other's option with `systemctl edit` (docs/club.md)")
    gpio = args.power_button_gpio
    if gpio is not None and (not 4 <= gpio <= 27 or gpio in DEFAULT_BUTTON_PINS):
        parser.error(f"--power-button-gpio {gpio}: choose a free GPIO from 4 to 27; GPIO2/3 are "
                     "the OLED's I2C bus and 17, 22, 23, 27 are the game buttons")
    return args


class Installer:
    def __init__(self, target: Target, args: argparse.Namespace, old: Manifest | None) -> None:
        self.target = target
        self.args = args
        self.old = old or Manifest()
        self.new = Manifest(
            dirs=list(self.old.dirs), users=list(self.old.users),
            groups=list(self.old.groups), variant=args.variant,
        )
        self.changed: list[str] = []
        self.config_txt_changed = False

    # -- files ---------------------------------------------------------------------------

    def file(
        self, absolute: str, data: bytes, *, mode: int = 0o644, conffile: bool = False
    ) -> None:
        """Install one file, unless it is already there with this content."""
        ensure_dir(self.target, str(Path(absolute).parent), self.new)
        path = self.target.path(absolute)
        digest = sha256(data)
        if conffile:
            self.new.conffiles.append(absolute)
        if path.is_symlink() or path.exists():
            current = path.read_bytes() if path.is_file() else b""
            ours = absolute in self.old.files
            if sha256(current) == digest and (path.stat().st_mode & 0o7777) == mode:
                self.new.files[absolute] = digest
                return
            if conffile and ours and sha256(current) != self.old.files[absolute]:
                log(f"kept {absolute}: changed on this box (the shipped one differs)")
                self.new.files[absolute] = self.old.files[absolute]
                return
            if not ours and sha256(current) != digest and not self.args.force:
                raise InstallError(f"{absolute} exists and was not installed by us; "
                                   "move it away or pass --force")
        log(("would install " if self.target.dry_run else "installed ") + absolute)
        if not self.target.dry_run:
            write_atomic(path, data, mode)
        self.new.files[absolute] = digest
        self.changed.append(absolute)

    def symlink(self, absolute: str, link_target: str) -> None:
        ensure_dir(self.target, str(Path(absolute).parent), self.new)
        path = self.target.path(absolute)
        self.new.symlinks[absolute] = link_target
        if path.is_symlink() and os.readlink(path) == link_target:
            return
        exists = path.is_symlink() or path.exists()
        if exists and absolute not in self.old.symlinks and not self.args.force:
            raise InstallError(f"{absolute} exists and was not installed by us; "
                               "move it away or pass --force")
        log(("would link " if self.target.dry_run else "linked ") + f"{absolute} -> {link_target}")
        if not self.target.dry_run:
            if path.is_symlink() or path.exists():
                path.unlink()
            path.symlink_to(link_target)
        self.changed.append(absolute)

    def install_files(self) -> None:
        src = self.args.source
        self.file(SYSUSERS, (src / "systemd" / f"{NAME}.sysusers").read_bytes())
        for unit in UNITS.values():
            self.file(f"{UNIT_DIR}/{unit}", (src / "systemd" / unit).read_bytes())
        for rules in sorted((src / "firmware_config").glob("*.rules")):
            self.file(f"{UDEV_DIR}/{rules.name}", rules.read_bytes())
        ensure_dir(self.target, ETC, self.new)
        pins = src / "firmware_config" / "pins.toml"
        if pins.is_file():
            self.file(f"{ETC}/pins.toml", pins.read_bytes(), conffile=True)
        self.file(f"{OPT}/docs/install-pi.md", (src / "docs" / "install-pi.md").read_bytes())
        self.file(
            f"{OPT}/docs/firmware-config.md", (src / "firmware_config" / "README.md").read_bytes()
        )
        unit = UNITS[self.args.variant]
        self.symlink(f"{WANTS_DIR}/{unit}", f"{UNIT_DIR}/{unit}")
        if self.args.variant == "console":
            self.symlink(GETTY_TTY1, "/dev/null")  # mask the login prompt on tty1
        if self.args.club_broker:
            self.club_broker()
        if self.args.club:
            self.club_box(unit)
        if self.args.web:
            self.file(f"{UNIT_DIR}/{WEB_SOCKET}", (src / "systemd" / WEB_SOCKET).read_bytes())
            self.file(f"{UNIT_DIR}/{WEB_DROPIN}", (src / "systemd" / WEB_DROPIN).read_bytes())
            self.file(f"{OPT}/docs/web.md", (src / "docs" / "web.md").read_bytes())
            self.symlink(f"{SOCKETS_WANTS_DIR}/{WEB_SOCKET}", f"{UNIT_DIR}/{WEB_SOCKET}")

    def club_broker(self) -> None:
        """mosquitto's snippet, the password and ACL files with the club's own account (made
        once: a later run keeps them and the secret as they are), and the club's unit."""
        src = self.args.source
        if self.target.live and not self.target.path("/usr/sbin/mosquitto").exists():
            raise InstallError("--club-broker needs the broker: sudo apt-get install mosquitto")
        self.file(MOSQUITTO_CONF, (src / "club" / "mosquitto" / "tableside-club.conf")
                  .read_bytes())
        secret = self.target.path(CLUB_SECRET)
        passwd = self.target.path(MOSQUITTO_PASSWD)
        if secret.is_file() and passwd.is_file():
            secret_text, passwd_text = secret.read_bytes(), passwd.read_bytes()
        else:
            sys.path.insert(0, str(src))
            from club.provision import new_password, password_line

            password = new_password()
            secret_text = f"{CLUB_READER}:{password}\n".encode()
            passwd_text = (password_line(CLUB_READER, password) + "\n").encode()
        acl = self.target.path(MOSQUITTO_ACL)
        acl_text = acl.read_bytes() if acl.is_file() and MOSQUITTO_ACL in self.old.files else (
            f"# the club's own account reads every box (docs/club.md)\n"
            f"user {CLUB_READER}\ntopic read tableside/club/#\n"
            f"topic write tableside/club/box/+/resend\n"
            "# each box's lines from `referee club provision BOX` go below\n").encode()
        self.file(CLUB_SECRET, secret_text, mode=0o600, conffile=True)
        # (hashes only; mosquitto reads them as its own user)
        self.file(MOSQUITTO_PASSWD, passwd_text, mode=0o644, conffile=True)
        self.file(MOSQUITTO_ACL, acl_text, mode=0o644, conffile=True)
        self.file(f"{UNIT_DIR}/{CLUB_UNIT}", (src / "systemd" / CLUB_UNIT).read_bytes())
        self.file(f"{OPT}/docs/club.md", (src / "docs" / "club.md").read_bytes())
        self.symlink(f"{WANTS_DIR}/{CLUB_UNIT}", f"{UNIT_DIR}/{CLUB_UNIT}")

    def club_box(self, unit: str) -> None:
        """The box's drop-in for the club: a network, never waited for, and the settings."""
        if not self.target.path(BOX_SETTINGS).is_file():
            raise InstallError(f"--club reads the club's settings from {BOX_SETTINGS}: write "
                               "its [club] table first (url, box, secret_file; docs/club.md)")
        src = self.args.source
        self.file(f"{UNIT_DIR}/{unit}.d/{CLUB_DROPIN}",
                  (src / "systemd" / "club" / f"{unit}.conf").read_bytes())
        self.file(f"{OPT}/docs/club.md", (src / "docs" / "club.md").read_bytes())

    def drop_stale(self) -> None:
        """Remove what an earlier run installed that this run no longer does."""
        for absolute in sorted(set(self.old.files) - set(self.new.files)):
            if self.target.path(absolute).exists():
                remove_path(self.target, absolute)
                self.changed.append(absolute)
        for absolute in sorted(set(self.old.symlinks) - set(self.new.symlinks)):
            if self.target.path(absolute).is_symlink():
                remove_path(self.target, absolute)
                self.changed.append(absolute)

    # -- the service user ----------------------------------------------------------------

    def users(self) -> None:
        passwd, group = self.target.path("/etc/passwd"), self.target.path("/etc/group")
        if self.accounts_in_place(passwd, group):
            return  # systemd-sysusers would still rewrite /etc's temp files; leave /etc be
        users_before, groups_before = parse_names(passwd), parse_names(group)
        conf = str(self.target.path(SYSUSERS))
        argv = ["systemd-sysusers", conf] if self.target.live else [
            "systemd-sysusers", f"--root={self.target.root}", conf]
        if self.target.dry_run:
            log("would run: " + " ".join(argv))
            return
        log("running: " + " ".join(argv))
        run_quiet(argv)
        self.new.users.extend(sorted(parse_names(passwd) - users_before))
        self.new.groups.extend(sorted(parse_names(group) - groups_before))
        self.changed.append("/etc/passwd")

    def accounts_in_place(self, passwd: Path, group: Path) -> bool:
        """True if every 'u' user and 'm' membership of our sysusers.d file already exists."""
        conf = self.target.path(SYSUSERS)
        if not conf.is_file() or not passwd.is_file() or not group.is_file():
            return False
        users = parse_names(passwd)
        members = {
            fields[0]: set(fields[3].split(",")) if len(fields) > 3 else set()
            for fields in (line.split(":") for line in group.read_text().splitlines() if line)
        }
        for line in conf.read_text().splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] == "u" and words[1] not in users:
                return False
            if len(words) >= 3 and words[0] == "m" and words[1] not in members.get(words[2], ()):
                return False
        return True

    # -- firmware config.txt -------------------------------------------------------------

    def config_txt(self) -> None:
        old_path = self.old.config_txt["path"] if self.old.config_txt else None
        if self.args.config_txt:
            if old_path and old_path != self.args.config_txt:
                raise InstallError(f"our block is in {old_path}; uninstall first to move it")
            candidates: Sequence[str] = [self.args.config_txt]
        else:
            candidates = [old_path] if old_path else CONFIG_TXT_CANDIDATES
        found = next((c for c in candidates if self.target.path(c).is_file()), None)
        if found is None:
            log("no config.txt found (not Raspberry Pi OS?): firmware settings skipped")
            return
        block = self.firmware_block()
        path = self.target.path(found)
        text = path.read_text()
        span = read_block(text)
        added_newline = False
        old = self.old.config_txt
        if span is not None:
            new_text = text[: span[0]] + block + text[span[1] :]
            added_newline = bool(old and old.get("path") == found and old.get("added_newline"))
        else:
            added_newline = bool(text) and not text.endswith("\n")
            new_text = text + ("\n" if added_newline else "") + block
        self.new.config_txt = {"path": found, "block": block, "added_newline": added_newline}
        if new_text == text:
            return
        log(("would update " if self.target.dry_run else "updated ") + f"{found} (marked block)")
        if not self.target.dry_run:
            write_atomic(path, new_text.encode(), path.stat().st_mode & 0o7777)
        self.config_txt_changed = True
        self.changed.append(found)

    def firmware_block(self) -> str:
        fragment = (self.args.source / "firmware_config" / "config.txt").read_text()
        lines = [BEGIN, fragment.rstrip("\n")]
        gpio = self.args.power_button_gpio
        if gpio is not None:
            lines += ["# Shutdown button (press to halt; see firmware_config/README.md).",
                      f"dtoverlay=gpio-shutdown,gpio_pin={gpio},active_low=1,gpio_pull=up"]
        return "\n".join([*lines, END]) + "\n"

    # -- the virtualenv ------------------------------------------------------------------

    def venv_stamp(self) -> str:
        """What the venv was built from: sources, pip arguments, venv options, Python."""
        h = hashlib.sha256()
        version = run_quiet([self.args.venv_python, "-c", "import sys; print(sys.version)"])
        system_site = not self.args.no_system_site_packages
        h.update(repr((version, system_site, self.args.pip_arg)).encode())
        if self.args.web:  # (as before for an install without the page)
            h.update(b"extras: web\0")
        if self.args.club_broker or self.args.club:
            h.update(b"extras: club\0")
        if self.args.rpigpio:
            h.update(b"extras: rpigpio\0")
        for rel in source_files(self.args.source):
            h.update(str(rel).encode() + b"\0" + (self.args.source / rel).read_bytes() + b"\0")
        return f"{version.split()[0]} {h.hexdigest()}\n"

    def venv(self) -> None:
        self.new.venv = VENV
        stamp = self.venv_stamp()
        venv = self.target.path(VENV)
        stamp_path = venv / VENV_STAMP
        old_stamp = stamp_path.read_text() if stamp_path.is_file() else ""
        if old_stamp == stamp and (venv / "bin" / "python").exists():
            return
        ensure_dir(self.target, OPT, self.new)
        same_python = old_stamp.split(" ", 1)[0] == stamp.split(" ", 1)[0]
        create = [self.args.venv_python, "-m", "venv"]
        if not self.args.no_system_site_packages:
            create.append("--system-site-packages")
        if (venv / "bin" / "python").exists() and not same_python:
            create.append("--clear")  # the OS's Python changed: start again
        if not (venv / "bin" / "python").exists() or not same_python:
            self.target.run([*create, str(venv)])
        self.changed.append(VENV)
        if self.target.dry_run:
            log(f"would run: {venv}/bin/python -m pip install {self.args.source}")
            return
        with tempfile.TemporaryDirectory(prefix="tableside-src-") as tmp:
            # Build from a clean copy: no build/ or *.egg-info left in the owner's checkout.
            for rel in source_files(self.args.source):
                (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(self.args.source / rel, Path(tmp) / rel)
            log("installing the project and its dependencies into the venv "
                + ("with the page for phones (the web extra) " if self.args.web else "")
                + "(can take several minutes on a Pi)...")
            extras = [e for e, on in (("web", self.args.web or self.args.club_broker),
                                      ("club", self.args.club_broker or self.args.club),
                                      ("rpigpio", self.args.rpigpio)) if on]
            project = f"{tmp}[{','.join(extras)}]" if extras else tmp
            # Ready-made packages (wheels) only: nothing is ever compiled on the Pi (a Zero 2 W
            # takes many minutes, and Raspberry Pi OS has no compiler by default). What PyPI
            # has no wheel for comes from the OS (python3-pil: see docs/install-pi.md).
            try:
                self.target.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                                 "--disable-pip-version-check", "--only-binary=:all:",
                                 *self.args.pip_arg, project])
            except subprocess.CalledProcessError as exc:
                raise InstallError(
                    f"pip could not install every library as a ready-made package for this "
                    f"{os.uname().machine} system (exit {exc.returncode}; its own words are "
                    "above). Nothing is compiled here: install the OS packages the guide "
                    "lists first (sudo apt install -y git python3-venv python3-pil "
                    "python3-lgpio i2c-tools), check the network, and run this again "
                    f"(docs/install-pi.md, {OPT}/docs/install-pi.md)") from exc
        # pip wrote every module's bytecode; this writes the dataclasses' compiled methods
        # beside it, which every start would otherwise compile again (docs/performance.md),
        # and the shipped TOML files' data, the box's pin map as installed in /etc among them
        # (an owner's later edit of it is parsed at start, as any other text).
        # (-P: the installed package, not a checkout in the current directory)
        pins = self.target.path(f"{ETC}/pins.toml")
        self.target.run([str(venv / "bin" / "python"), "-P", "-m", "referee.dataclass_code",
                         *([str(pins)] if pins.is_file() else [])])
        # And Textual's parsed stylesheets, by drawing each game's first screen headless (a
        # start without them parses them, as before: a failure here only says so).
        if self.target.run([str(venv / "bin" / "python"), "-P", "-m", "ui.css_warm"],
                           check=False):
            log("Textual's stylesheets were not prepared (see above): the console parses "
                "them at each start instead, a little slower")
        stamp_path.write_text(stamp)

    # -- the live system -----------------------------------------------------------------

    def activate(self) -> None:
        """Reload systemd and udev and (re)start the service, on a running system only: in a
        chroot (an SD card image being built) the units are enabled and start at boot. With
        nothing changed, a service that is not running (a start that failed last time) is
        started again."""
        if not self.target.live:
            return
        unit = UNITS[self.args.variant]
        if not self.target.booted:
            log(("would enable " if self.target.dry_run else "enabled ") + unit + "; systemd "
                "is not running here (a chroot, or an SD card image being built), so it is not "
                "started now: it starts at the next boot")
            return
        if not self.changed:
            if self.args.no_start or self.target.dry_run or self.active(unit):
                return
            log(f"{unit} is not running (did its last start fail?): starting it again")
            self.changed.append(unit)
        self.target.run(["systemctl", "daemon-reload"])
        self.target.run(["udevadm", "control", "--reload-rules"], check=False)
        self.target.run(["udevadm", "trigger", "--subsystem-match=tty", "--action=add"],
                        check=False)
        other = [u for v, u in UNITS.items() if v != self.args.variant]
        if not self.args.web:
            other.append(WEB_SOCKET)  # (if an earlier run turned the page on)
        if not self.args.club_broker:
            other.append(CLUB_UNIT)
        self.target.run(["systemctl", "stop", *other], check=False)
        if self.args.no_start:
            return
        if self.args.web:
            # The socket first, with the service stopped: systemd refuses to start a socket
            # whose service is already running, and the service takes the socket at start.
            self.target.run(["systemctl", "stop", unit])
            self.target.run(["systemctl", "restart", WEB_SOCKET])
        self.target.run(["systemctl", "restart", unit])
        if self.args.club_broker:
            self.target.run(["systemctl", "restart", "mosquitto.service"])
            self.target.run(["systemctl", "restart", CLUB_UNIT])

    def active(self, unit: str) -> bool:
        return subprocess.run(["systemctl", "is-active", "--quiet", unit],
                              check=False).returncode == 0

    def write_manifest(self, *, failed: bool = False) -> None:
        """Record what is installed; after a failure, also keep what the old run recorded."""
        if failed:
            for absolute, digest in self.old.files.items():
                self.new.files.setdefault(absolute, digest)
            for absolute, link in self.old.symlinks.items():
                self.new.symlinks.setdefault(absolute, link)
            self.new.conffiles.extend(self.old.conffiles)
            self.new.config_txt = self.new.config_txt or self.old.config_txt
            self.new.venv = self.new.venv or self.old.venv
        if self.target.dry_run or not self.target.path(OPT).parent.exists():
            return
        ensure_dir(self.target, OPT, self.new)
        data = self.new.to_json().encode()
        path = self.target.path(MANIFEST)
        if not (path.is_file() and path.read_bytes() == data):
            write_atomic(path, data, 0o644)


def install(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    target = Target(root=args.root.resolve(), dry_run=args.dry_run)
    check_privileges(target)
    if not (args.source / "pyproject.toml").is_file():
        raise InstallError(f"{args.source} is not a Tableside Referee checkout")
    old = Manifest.load(target)
    if old is not None and old.config_txt and not target.path(old.config_txt["path"]).is_file():
        raise InstallError(f"{old.config_txt['path']} is gone since the last install; "
                           "put it back or uninstall first")
    installer = Installer(target, args, old)
    os.umask(0o022)
    try:
        installer.install_files()
        installer.users()
        installer.config_txt()
        installer.venv()  # the slow step that needs the network
        installer.drop_stale()
    except BaseException:
        installer.write_manifest(failed=True)  # so uninstall-pi can still undo a partial run
        raise
    installer.write_manifest()
    try:
        installer.activate()
    except subprocess.CalledProcessError as exc:
        raise InstallError(f"installed, but starting failed: see journalctl -u "
                           f"{UNITS[args.variant]} ({exc}); once it is fixed, run this again: "
                           "it starts the service again") from exc
    if not installer.changed:
        log("already installed and up to date; nothing changed")
    elif installer.config_txt_changed:
        log("config.txt changed: reboot to turn on I2C (sudo reboot)")
    log(f"done. Check it with: systemctl status {UNITS[args.variant]}")
    if args.club_broker:
        log(f"the club's broker is mosquitto on port 1883 ({MOSQUITTO_CONF}); add each box "
            "with `referee club provision BOX --db /var/lib/tableside-referee/club.sqlite`; "
            "the club's page is on port 8090 (docs/club.md)")
    if args.web:
        log(f"the page for phones listens on port 8080 ({WEB_SOCKET}); the console shows its "
            "address and QR code (F6), the box in its menu (Phone page)")
    return 0

