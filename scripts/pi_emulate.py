"""``scripts/pi-emulate``: install the box on Raspberry Pi OS's base, for real, under emulation.

For each architecture asked for (arm64: 64-bit Raspberry Pi OS; armhf: 32-bit, still common on
a Zero 2 W), this builds a Debian bookworm root (Raspberry Pi OS bookworm's base) with
debootstrap from Debian's archive, runs it on this machine's CPU through qemu-user-static
(binfmt_misc), and does what a Pi owner does (docs/install-pi.md):

1. the guide's apt line (the packages are in the root; python3-lgpio is Raspberry Pi OS's own
   package and not in Debian, so there the lgpio wheel from PyPI stands in for it);
2. ``git clone`` of this checkout (its HEAD) and ``scripts/install-pi`` as root, in a chroot,
   so with no systemd running: as when an SD card image is built;
3. the checks: the installer succeeded, enabled the service and said it starts at boot; a
   rerun changes nothing; no compiler exists in the root and pip built nothing but the
   project's own pure-Python wheel; ``referee headless`` starts each game; ``referee box
   --hardware sim`` and ``referee run --hardware sim`` draw their first screen and stop on
   SIGTERM with exit 0, the game kept.

pip verifies certificates as this machine's pip does (its CA bundle is copied into the root).
The bootstrapped roots are cached (``--cache``, default /var/cache/tableside-referee/pi-roots) as
tar files, so a second run on the same machine skips debootstrap. Figures (time to bootstrap and
to install, the venv's packages, what was built) are printed at the end and, with ``--json``,
written to a file. Needs root, debootstrap and qemu-user-static (.ci/run installs them).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import fcntl
import hashlib
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
# What Raspberry Pi OS Lite has (systemd, udev, python3, ca-certificates) and what the guide's
# apt line adds (git python3-venv python3-pil i2c-tools; python3-lgpio is not in Debian).
PACKAGES = ("systemd", "udev", "python3", "python3-venv", "python3-pil", "git",
            "ca-certificates", "i2c-tools")
QEMU = {"arm64": "aarch64", "armhf": "arm"}  # binfmt_misc entry names (qemu-<name>)
MACHINE = {"arm64": "aarch64", "armhf": "armv7l"}
HOME = "/home/pi/tableside-referee"
VENV_BIN = "/opt/tableside-referee/venv/bin"
HOST_CA = "/etc/ssl/certs/tableside-host-ca.pem"
# What Raspberry Pi OS bookworm's /boot/firmware/config.txt holds as it comes (tests use it too).
PI_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""
COMPILERS = ("gcc", "cc", "c++", "g++", "clang", "rustc", "cargo")
GAMES = {
    "gallery-grippers": {"cmd": "new_game", "players": [{"name": "Ann"}, {"name": "Łukasz"}]},
    "art-project": {"cmd": "new_game", "game": "art-project", "mission": "test-board",
                    "difficulty": "easy", "players": [{"name": "Ann"}, {"name": "李明"}]},
    "gallerist": {"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben", "Cy"],
                  "start_player": "Ann", "bag": 30},
}


class Failed(Exception):
    """A check that did not hold: the message says what was seen."""


@dataclass
class Figures:
    arch: str
    machine: str = ""
    bootstrap: str = ""  # "debootstrap 312 s" or "cache 14 s"
    install_seconds: float = 0.0
    rerun_seconds: float = 0.0
    venv_packages: list[str] = field(default_factory=list)  # installed into the venv by pip
    from_the_os: list[str] = field(default_factory=list)  # seen through system site packages
    built: list[str] = field(default_factory=list)  # wheels pip built from source
    compilers: list[str] = field(default_factory=list)  # found in the root (should be none)
    checks: list[str] = field(default_factory=list)


def say(text: str) -> None:
    print(f"pi-emulate: {text}", flush=True)


def tail(text: str, lines: int = 30) -> str:
    return "\n".join("      " + line for line in text.rstrip().splitlines()[-lines:])


# ---- the host: qemu through binfmt_misc, debootstrap ------------------------------------


def host_ready(arches: list[str]) -> None:
    """qemu-user-static registered with binfmt_misc (with the F flag, so it works in a chroot),
    and debootstrap: say what is missing rather than fail later."""
    missing = [tool for tool in ("debootstrap", "chroot")
               if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists()]
    missing += [f"qemu-{QEMU[a]}-static" for a in arches
                if shutil.which(f"qemu-{QEMU[a]}-static") is None]
    if missing:
        raise Failed(f"missing on this machine: {', '.join(missing)} (apt-get install "
                     "debootstrap qemu-user-static binfmt-support)")
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "status").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], check=False)
    for arch in arches:
        entry = binfmt / f"qemu-{QEMU[arch]}"
        if not entry.exists() and shutil.which("update-binfmts"):
            subprocess.run(["update-binfmts", "--enable", f"qemu-{QEMU[arch]}"], check=False,
                           capture_output=True)
        text = entry.read_text() if entry.exists() else ""
        if "enabled" not in text or not re.search(r"^flags: \w*F", text, re.M):
            raise Failed(f"binfmt_misc has no enabled qemu-{QEMU[arch]} entry with the F flag "
                         f"({entry}): {text.strip() or 'absent'}; install qemu-user-static and "
                         "binfmt-support, and mount binfmt_misc")


def cache_name(arch: str) -> str:
    key = hashlib.sha256(repr((SUITE, MIRROR, PACKAGES)).encode()).hexdigest()[:12]
    return f"{SUITE}-{arch}-{key}.tar"


def make_root(arch: str, root: Path, cache: Path, figures: Figures) -> None:
    """Debian bookworm for `arch` in `root`: from the cache, else debootstrapped (and cached)."""
    tar = cache / cache_name(arch)
    started = time.monotonic()
    root.mkdir(parents=True)
    if tar.is_file():
        subprocess.run(["tar", "-xpf", str(tar), "-C", str(root)], check=True)
        figures.bootstrap = f"from the cache ({tar}) in {time.monotonic() - started:.0f} s"
        return
    say(f"{arch}: debootstrap {SUITE} from {MIRROR} (several minutes under emulation)")
    done = subprocess.run(
        ["debootstrap", f"--arch={arch}", "--variant=minbase",
         f"--include={','.join(PACKAGES)}", SUITE, str(root), MIRROR],
        capture_output=True, text=True)
    if done.returncode != 0:
        raise Failed(f"debootstrap {arch} failed (exit {done.returncode}):\n"
                     f"{tail(done.stdout + done.stderr)}")
    figures.bootstrap = f"debootstrap in {time.monotonic() - started:.0f} s"
    with contextlib.suppress(OSError):  # (a cache that cannot be written costs time only)
        cache.mkdir(parents=True, exist_ok=True)
        partial = tar.with_suffix(".partial")
        subprocess.run(["tar", "-cpf", str(partial), "-C", str(root), "."], check=True)
        partial.replace(tar)
        figures.bootstrap += f" (cached as {tar})"


@contextlib.contextmanager
def mounted(root: Path) -> Iterator[None]:
    """/proc and /dev (with its pseudo-terminals) inside the root, for as long as it runs."""
    points = []
    try:
        for argv, where in ((["mount", "-t", "proc", "proc"], root / "proc"),
                            (["mount", "--rbind", "/dev"], root / "dev")):
            subprocess.run([*argv, str(where)], check=True)
            points.append(where)
        yield
    finally:
        for where in reversed(points):
            subprocess.run(["umount", "-R", "-l", str(where)], check=False)


def chroot(root: Path, *argv: str) -> list[str]:
    """`argv` run inside `root` as root, in a clean environment (what `sudo` gives)."""
    return ["chroot", str(root), "/usr/bin/env", "-i",
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME=/root", "LANG=C.UTF-8", "TERM=xterm-256color", f"PIP_CERT={HOST_CA}",
            "PIP_DISABLE_PIP_VERSION_CHECK=1", *argv]


def run_in(root: Path, *argv: str, stdin: str | None = None,
           timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    return subprocess.run(chroot(root, *argv), input=stdin, capture_output=True, text=True,
                          timeout=timeout)


# ---- the Pi owner's steps, and the checks ------------------------------------------------


def prepare(root: Path) -> None:
    """What a Pi on a network has: DNS, and the CA bundle this machine's pip trusts; then the
    owner's `git clone` of the project."""
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    firmware = root / "boot/firmware"  # (Raspberry Pi OS's boot partition; not in Debian)
    firmware.mkdir(parents=True, exist_ok=True)
    (firmware / "config.txt").write_text(PI_CONFIG_TXT)
    host_ca = os.environ.get("PIP_CERT") or "/etc/ssl/certs/ca-certificates.crt"
    shutil.copy2(host_ca, root / HOST_CA.lstrip("/"))
    dest = root / HOME.lstrip("/")
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", "--no-local", str(CHECKOUT), str(dest)], check=True)


def without_the_os_pillow(root: Path, figures: Figures) -> None:
    """32-bit: the owner who skipped python3-pil gets one clear message and nothing compiled;
    after `apt install python3-pil` the same command completes what was begun."""
    site = root / "usr/lib/python3/dist-packages"
    parts = [p for p in site.iterdir() if p.name == "PIL" or p.name.startswith("Pillow-")]
    for part in parts:  # (the package and its metadata: as if python3-pil were not installed)
        part.rename(part.with_name(part.name + ".hidden-by-pi-emulate"))
    try:
        done = run_in(root, "python3", f"{HOME}/scripts/install-pi")
    finally:
        for part in parts:
            part.with_name(part.name + ".hidden-by-pi-emulate").rename(part)
    out = done.stdout + done.stderr
    if done.returncode != 1 or "ready-made package" not in out or "python3-pil" not in out:
        raise Failed(f"without python3-pil, install-pi should stop with exit 1 and name it "
                     f"(exit {done.returncode}):\n{tail(out)}")
    figures.checks.append("without python3-pil: exit 1, one message naming the apt line, "
                          "nothing compiled; then the install completes")


def install(root: Path, figures: Figures) -> None:
    figures.compilers = [c for c in COMPILERS if any(
        (root / d / c).exists() for d in ("usr/bin", "usr/local/bin", "bin"))]
    if figures.compilers:
        raise Failed(f"the root has a compiler ({', '.join(figures.compilers)}): it could not "
                     "show that nothing is compiled")
    started = time.monotonic()
    done = run_in(root, "python3", f"{HOME}/scripts/install-pi", "--pip-arg=--log=/tmp/pip.log")
    figures.install_seconds = round(time.monotonic() - started, 1)
    out = done.stdout + done.stderr
    if done.returncode != 0:
        raise Failed(f"scripts/install-pi failed (exit {done.returncode}):\n{tail(out)}")
    if "systemd is not running here" not in out or "it starts at the next boot" not in out:
        raise Failed(f"scripts/install-pi did not say the service starts at boot:\n{tail(out)}")
    if "# BEGIN tableside-referee" not in (root / "boot/firmware/config.txt").read_text():
        raise Failed(f"config.txt did not get the I2C block:\n{tail(out)}")
    link = root / "etc/systemd/system/multi-user.target.wants/tableside-referee.service"
    if not link.is_symlink():
        raise Failed(f"the service was not enabled ({link} missing):\n{tail(out)}")
    figures.checks.append(f"install-pi in a chroot (no systemd): exit 0 in "
                          f"{figures.install_seconds} s, enabled, starts at boot")
    log = (root / "tmp/pip.log").read_text(errors="replace")
    figures.built = sorted(set(re.findall(r"Building wheel for (\S+)", log)))
    if [b for b in figures.built if b != "tableside-referee"]:
        raise Failed(f"pip built wheels from source: {figures.built}")
    started = time.monotonic()
    again = run_in(root, "python3", f"{HOME}/scripts/install-pi", "--pip-arg=--log=/tmp/pip.log")
    figures.rerun_seconds = round(time.monotonic() - started, 1)
    if again.returncode != 0 or "nothing changed" not in again.stdout:
        raise Failed(f"a second install-pi should change nothing (exit {again.returncode}):\n"
                     f"{tail(again.stdout + again.stderr)}")
    figures.checks.append(f"a rerun: exit 0, nothing changed ({figures.rerun_seconds} s)")
    listed = run_in(root, f"{VENV_BIN}/python", "-c", (
        "import importlib.metadata as m, json, sys; print(json.dumps(sorted("
        "(d.metadata['Name'], d.version, str(d.locate_file('')).startswith(sys.prefix)) "
        "for d in m.distributions())))"))
    if listed.returncode != 0:
        raise Failed(f"the venv's packages could not be listed:\n{tail(listed.stderr)}")
    dists = json.loads(listed.stdout)
    figures.venv_packages = sorted({f"{n}=={v}" for n, v, ours in dists
                                    if ours and n not in ("pip", "setuptools")})
    wanted = ("pillow", "lgpio")
    figures.from_the_os = sorted({f"{n}=={v}" for n, v, ours in dists
                                  if not ours and n.lower() in wanted})
    if not any(p.lower().startswith("pillow==") for p in figures.from_the_os):
        raise Failed(f"Pillow should come from the OS (python3-pil): {dists}")
    # The dataclasses' compiled methods, written at install (referee.dataclass_code): a start
    # of the console or the box compiles none of them on the Pi.
    table = run_in(root, f"{VENV_BIN}/python", "-P", "-c", (
        "from referee import dataclass_code as d; t = d.install(); "
        "import ui.app, device.box, device.run; from ui import css_cache as c; "
        "from referee import tomlfile as f; "
        "print(t.compiled, len(t), len(c.install().stored), "
        "len(f._read_parsed(f.parsed_path())))"))
    found = table.stdout.split()
    if (table.returncode != 0 or len(found) != 4 or found[0] != "0" or int(found[1]) < 300
            or int(found[2]) < 10 or int(found[3]) < 4):
        raise Failed(f"the dataclasses' table is missing or incomplete ({found}):\n"
                     f"{tail(table.stdout)}\n{tail(table.stderr)}")
    figures.checks.append(f"the dataclasses' methods compiled at install ({found[1]}): a start "
                          f"compiles none; Textual's stylesheets parsed ({found[2]}); the "
                          f"games' catalogs and the box's pin map parsed ({found[3]})")
    figures.machine = run_in(root, "uname", "-m").stdout.strip()
    if figures.machine != MACHINE[figures.arch]:
        raise Failed(f"the root runs as {figures.machine!r}, not {MACHINE[figures.arch]}")


def rpigpio(root: Path, figures: Figures) -> None:
    """The RPi.GPIO interface as a pin driver (--rpigpio, the rpigpio extra): a wheel too."""
    done = run_in(root, "python3", f"{HOME}/scripts/install-pi", "--rpigpio",
                  "--pip-arg=--log=/tmp/pip-rpigpio.log")
    if done.returncode != 0:
        raise Failed(f"install-pi --rpigpio failed (exit {done.returncode}):\n"
                     f"{tail(done.stdout + done.stderr)}")
    log = (root / "tmp/pip-rpigpio.log").read_text(errors="replace")
    built = sorted(set(re.findall(r"Building wheel for (\S+)", log)) - {"tableside-referee"})
    if built:
        raise Failed(f"install-pi --rpigpio built wheels from source: {built}")
    found = run_in(root, f"{VENV_BIN}/python", "-c",
                   "import importlib.util as u; print(u.find_spec('RPi.GPIO').origin)")
    if found.returncode != 0 or not found.stdout.startswith(VENV_BIN.rsplit("/", 1)[0]):
        raise Failed(f"RPi.GPIO is not in the venv after --rpigpio:\n{tail(found.stdout)}\n"
                     f"{tail(found.stderr)}")
    figures.checks.append("install-pi --rpigpio: RPi.GPIO's interface (rpi-lgpio) as a wheel")


def headless(root: Path, figures: Figures) -> None:
    for game, start in GAMES.items():
        done = run_in(root, f"{VENV_BIN}/referee", "headless", "--memory",
                      stdin=json.dumps(start, ensure_ascii=False) + "\n", timeout=600)
        answers = done.stdout.splitlines()
        if done.returncode != 0 or len(answers) != 1 or not json.loads(answers[0]).get("ok"):
            raise Failed(f"referee headless, new {game}: exit {done.returncode}\n"
                         f"{tail(done.stdout)}\n{tail(done.stderr)}")
    figures.checks.append(f"referee headless started {', '.join(GAMES)}")


def read_until(fd: int, done: Callable[[str], bool], seconds: float) -> str:
    text, deadline = "", time.monotonic() + seconds
    while not done(text) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                text += os.read(fd, 65536).decode("utf-8", "replace")
            except OSError:
                break
    return text


def stops_on_sigterm(root: Path, figures: Figures, what: str, drawn: str,
                     *argv: str) -> None:
    """`referee ARGV` on an 80x24 pseudo-terminal in the root: its first screen, then SIGTERM:
    exit 0 and "stopped; the game is kept"."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    started = time.monotonic()
    proc = subprocess.Popen(chroot(root, f"{VENV_BIN}/referee", *argv), stdin=slave,
                            stdout=slave, stderr=slave, close_fds=True, start_new_session=True)
    os.close(slave)
    try:
        shown = read_until(master, lambda t: drawn in t, 300)
        if drawn not in shown:
            raise Failed(f"referee {' '.join(argv)} drew no first screen in 300 s:\n"
                         f"{tail(shown[-3000:])}")
        first = time.monotonic() - started
        proc.send_signal(signal.SIGTERM)  # (chroot and env exec: this is the program)
        code = proc.wait(timeout=120)
        shown += read_until(master, lambda t: "stopped;" in t and t.endswith("\n"), 10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    if code != 0 or "SIGTERM: stopped; the game is kept" not in shown:
        raise Failed(f"referee {' '.join(argv)} on SIGTERM: exit {code}, wanted 0 and "
                     f"'stopped; the game is kept':\n{tail(shown[-3000:])}")
    figures.checks.append(f"{what}: first screen in {first:.0f} s, SIGTERM: exit 0, the game "
                          "kept")


def emulate(figures: Figures, root: Path) -> Figures:
    arch = figures.arch
    prepare(root)
    with mounted(root):
        if arch == "armhf":  # (PyPI has no 32-bit ARM Pillow: the OS's is a must)
            without_the_os_pillow(root, figures)
        say(f"{arch}: scripts/install-pi in a chroot (no systemd), wheels only")
        install(root, figures)
        say(f"{arch}: installed in {figures.install_seconds} s; the programs")
        headless(root, figures)
        stops_on_sigterm(root, figures, "referee box --hardware sim", "keys:",
                         "box", "--hardware", "sim", "--memory")
        stops_on_sigterm(root, figures, "referee run --hardware sim", "Start game",
                         "run", "--hardware", "sim", "--db", "/tmp/run.sqlite")
        rpigpio(root, figures)
    return figures


def report(all_figures: list[Figures]) -> None:
    for f in all_figures:
        say(f"== {f.arch} ({f.machine}): Debian {SUITE} under qemu-user")
        say(f"   root: {f.bootstrap}")
        say(f"   install-pi: {f.install_seconds} s; rerun {f.rerun_seconds} s")
        say(f"   venv: {len(f.venv_packages)} packages from PyPI, all wheels (pip and "
            "setuptools are the venv's own): "
            + ", ".join(f.venv_packages))
        say(f"   from the OS: {', '.join(f.from_the_os)}")
        say(f"   built from source: {', '.join(f.built) or 'nothing'} (compilers in the root: "
            f"{', '.join(f.compilers) or 'none'})")
        for check in f.checks:
            say(f"   ok: {check}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", action="append", choices=sorted(QEMU),
                        help="arm64 and/or armhf (default: both)")
    parser.add_argument("--cache", type=Path,
                        default=Path("/var/cache/tableside-referee/pi-roots"),
                        help="where the bootstrapped roots are kept between runs")
    parser.add_argument("--work", type=Path, help="where the roots are built (default: a "
                        "temporary directory, removed afterwards)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    arches = args.arch or ["arm64", "armhf"]
    if os.geteuid() != 0:
        say("needs root (debootstrap, chroot, mount): sudo scripts/pi-emulate")
        return 2
    dirty = subprocess.run(["git", "-C", str(CHECKOUT), "status", "--porcelain",
                            "--untracked-files=no"], capture_output=True, text=True).stdout
    if dirty.strip():
        say("note: the checkout has uncommitted changes; a clone has only its HEAD")
    work = args.work or Path(tempfile.mkdtemp(prefix="pi-emulate-"))
    started = time.monotonic()
    all_figures: list[Figures] = []
    try:
        host_ready(arches)
        # The roots side by side (debootstrap waits on the network as much as on the CPU).
        figures = [Figures(arch) for arch in arches]
        with concurrent.futures.ThreadPoolExecutor(len(arches)) as pool:
            for f, made in zip(figures, [pool.submit(make_root, f.arch, work / f.arch,
                                                     args.cache, f) for f in figures],
                               strict=True):
                made.result()
                say(f"{f.arch}: root ready ({f.bootstrap})")
        for f in figures:
            all_figures.append(emulate(f, work / f.arch))
    except (Failed, subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        report(all_figures)
        say(f"FAILED: {err}")
        return 1
    finally:
        if args.work is None:
            for arch in arches:  # (never follow a mount left behind into the host's /dev)
                for point in ("dev", "proc"):
                    subprocess.run(["umount", "-R", "-l", str(work / arch / point)],
                                   check=False, capture_output=True)
            mounts = Path("/proc/mounts").read_text()
            if str(work) in mounts:  # (rmtree would go down into the host's /dev)
                say(f"kept {work}: something is still mounted there")
            else:
                shutil.rmtree(work, ignore_errors=True)
    report(all_figures)
    if args.json:
        args.json.write_text(json.dumps([asdict(f) for f in all_figures], indent=2,
                                        ensure_ascii=False) + "\n")
    say(f"all {sum(len(f.checks) for f in all_figures)} checks passed on "
        f"{', '.join(arches)} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
