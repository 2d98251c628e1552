"""The systemd units: `systemd-analyze verify` silent, offline security exposure <= 1.0 (#12)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
BOX = "tableside-referee.service"
CONSOLE = "tableside-referee-console.service"
UNITS = [BOX, CONSOLE]
MAX_EXPOSURE = 1.0
STATE = "/var/lib/tableside-referee"

Directive = tuple[str, str, str]  # section, key, value


def directives(text: str) -> list[Directive]:
    """A unit file as (section, key, value) in order; repeated keys are kept."""
    section, found = "", []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.append((section, key.strip(), value.strip()))
    return found


def values(unit: str, key: str, section: str = "Service") -> list[str]:
    text = (SYSTEMD / unit).read_text()
    return [v for s, k, v in directives(text) if s == section and k == key]


def one(unit: str, key: str, section: str = "Service") -> str:
    found = values(unit, key, section)
    assert len(found) == 1, f"{unit}: {key}= appears {len(found)} times"
    return found[0]


def verify_root(tmp_path: Path, unit_texts: dict[str, str]) -> Path:
    """A root with the OS's units, the given units, and a stand-in for each ExecStart binary."""
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    unit_dir = root / "etc/systemd/system"
    unit_dir.mkdir(parents=True)
    for name, text in unit_texts.items():
        (unit_dir / name).write_text(text)
        for _, key, value in directives(text):
            if key == "ExecStart":
                binary = root / shlex.split(value)[0].lstrip("/")
                binary.parent.mkdir(parents=True, exist_ok=True)
                binary.write_text("#!/bin/sh\n")
                binary.chmod(0o755)
    return root


def analyze_verify(root: Path, unit: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "--man=no",
         f"/etc/systemd/system/{unit}"],
        capture_output=True, text=True,
    )


def exposure(unit_path: Path) -> float:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit_path)],
        capture_output=True, text=True,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1))


@pytest.mark.parametrize("unit", UNITS)
def test_verify_prints_nothing(unit: str, tmp_path: Path) -> None:
    root = verify_root(tmp_path, {u: (SYSTEMD / u).read_text() for u in UNITS})
    proc = analyze_verify(root, unit)
    assert (proc.returncode, proc.stdout + proc.stderr) == (0, "")


def test_verify_check_catches_a_warning(tmp_path: Path) -> None:
    """The harness above can fail: verify exits 0 on this typo but prints a warning."""
    broken = (SYSTEMD / BOX).read_text().replace("RestartSec=", "RestartSecs=")
    root = verify_root(tmp_path, {BOX: broken, CONSOLE: (SYSTEMD / CONSOLE).read_text()})
    proc = analyze_verify(root, BOX)
    assert "RestartSecs" in proc.stdout + proc.stderr


@pytest.mark.parametrize("unit", UNITS)
def test_security_exposure_at_most_one(unit: str) -> None:
    assert exposure(SYSTEMD / unit) <= MAX_EXPOSURE


def test_exposure_parser_sees_an_unhardened_unit(tmp_path: Path) -> None:
    plain = tmp_path / "plain.service"
    plain.write_text("[Service]\nExecStart=/usr/bin/true\n")
    assert exposure(plain) > 9.0


@pytest.mark.parametrize("unit", UNITS)
def test_notify_watchdog_restart(unit: str) -> None:
    assert one(unit, "Type") == "notify"
    assert one(unit, "NotifyAccess") == "main"
    watchdog = one(unit, "WatchdogSec")
    assert re.fullmatch(r"\d+s", watchdog) and 10 <= int(watchdog[:-1]) <= 60
    assert one(unit, "Restart") == "always"
    assert one(unit, "StartLimitIntervalSec", section="Unit") == "0"  # never give up
    assert one(unit, "WantedBy", section="Install") == "multi-user.target"


@pytest.mark.parametrize(("unit", "command"), [(BOX, "box"), (CONSOLE, "run")])
def test_execstart_matches_the_cli_contract(unit: str, command: str) -> None:
    argv = shlex.split(one(unit, "ExecStart"))
    assert argv[:2] == ["/opt/tableside-referee/venv/bin/referee", command]
    options = dict(zip(argv[2::2], argv[3::2], strict=True))
    assert options == {
        "--hardware": "pi",  # never a silent fall back to simulated hardware on the box
        "--db": f"{STATE}/games.sqlite",
        "--pins": "/etc/tableside-referee/pins.toml",
        "--tray": "/dev/dice-tray",
    }
    assert one(unit, "StateDirectory") == "tableside-referee"


@pytest.mark.parametrize("unit", UNITS)
def test_least_privilege(unit: str) -> None:
    assert one(unit, "User") == "tableside-referee"
    assert one(unit, "DevicePolicy") == "closed"
    allowed = set(values(unit, "DeviceAllow"))
    expected = {"char-gpiochip rw", "char-i2c rw", "char-ttyACM rw", "char-ttyUSB rw"}
    assert allowed == expected | ({"/dev/tty1 rw"} if unit == CONSOLE else set())
    assert one(unit, "PrivateNetwork") == "yes"
    assert one(unit, "RestrictAddressFamilies") == "AF_UNIX"
    assert one(unit, "CapabilityBoundingSet") == ""
    assert one(unit, "ProtectSystem") == "strict"
    assert one(unit, "NoNewPrivileges") == "yes"
    for module in ("i2c_dev", "cdc_acm"):  # the device classes must exist before start
        assert any(f"modprobe@{module}.service" in v for v in values(unit, "Wants", "Unit"))
        assert any(f"modprobe@{module}.service" in v for v in values(unit, "After", "Unit"))


@pytest.mark.parametrize("unit", UNITS)
def test_lgpio_gets_a_writable_working_dir(unit: str) -> None:
    runtime = "/run/" + one(unit, "RuntimeDirectory")
    assert f"LG_WD={runtime}" in values(unit, "Environment")
    assert one(unit, "WorkingDirectory") == runtime


def test_groups_match_the_sysusers_file() -> None:
    sysusers = (SYSTEMD / "tableside-referee.sysusers").read_text().splitlines()
    members = {line.split()[2] for line in sysusers if line.startswith("m tableside-referee ")}
    assert members == {"gpio", "i2c", "dialout"}
    for unit in UNITS:
        assert set(one(unit, "SupplementaryGroups").split()) == members


def test_console_owns_tty1_and_excludes_the_box() -> None:
    assert one(CONSOLE, "TTYPath") == "/dev/tty1"
    assert one(CONSOLE, "StandardInput") == "tty"
    assert one(CONSOLE, "StandardError") == "tty"  # Textual draws on stderr
    assert one(CONSOLE, "StandardOutput") == "journal"  # logs, off the screen
    conflicts = " ".join(values(CONSOLE, "Conflicts", "Unit")).split()
    assert {"getty@tty1.service", BOX} <= set(conflicts)
    assert CONSOLE in " ".join(values(BOX, "Conflicts", "Unit")).split()


def test_both_variants_share_the_same_hardening() -> None:
    """Everything from User= on is the common sandbox; it must not drift between the two."""
    def sandbox(unit: str) -> list[Directive]:
        found = [d for d in directives((SYSTEMD / unit).read_text()) if d[0] == "Service"]
        start = next(i for i, d in enumerate(found) if d[1] == "User")
        return found[start:]

    assert sandbox(BOX) == sandbox(CONSOLE)


# ---- the page for phones (issue 17): a socket unit and a drop-in for the console ----------
WEB_SOCKET = "tableside-referee-web.socket"
WEB_DROPIN = SYSTEMD / f"{CONSOLE}.d" / "web.conf"
LOCAL_NETWORKS = {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                  "fc00::/7"}


def _merged(tmp_path: Path) -> Path:
    """The console unit as systemd sees it with the web drop-in (later assignments win)."""
    merged = tmp_path / CONSOLE
    merged.write_text((SYSTEMD / CONSOLE).read_text() + "\n" + WEB_DROPIN.read_text())
    return merged


def test_web_dropin_keeps_the_exposure(tmp_path: Path) -> None:
    with_web = exposure(_merged(tmp_path))
    assert with_web <= MAX_EXPOSURE
    assert with_web == exposure(SYSTEMD / CONSOLE)


def test_web_dropin_changes_no_sandbox_setting() -> None:
    found = directives(WEB_DROPIN.read_text())
    assert {k for s, k, _ in found if s == "Service"} == {"Sockets", "ExecStart"}
    assert ("Service", "Sockets", WEB_SOCKET) in found
    assert ("Unit", "Wants", WEB_SOCKET) in found and ("Unit", "After", WEB_SOCKET) in found
    starts = [v for s, k, v in found if k == "ExecStart"]
    assert starts[0] == ""  # resets the console's, then:
    assert shlex.split(starts[1]) == [*shlex.split(one(CONSOLE, "ExecStart")), "--web"]


def test_web_socket_says_who_may_connect() -> None:
    socket_values = {k: v for s, k, v in directives((SYSTEMD / WEB_SOCKET).read_text())
                     if s == "Socket"}
    assert socket_values["ListenStream"] == "8080"
    assert socket_values["Service"] == CONSOLE
    assert socket_values["IPAddressDeny"] == "any"
    assert set(socket_values["IPAddressAllow"].split()) == LOCAL_NETWORKS
    # the service itself still allocates only local sockets and has no network of its own
    assert one(CONSOLE, "RestrictAddressFamilies") == "AF_UNIX"
    assert one(CONSOLE, "PrivateNetwork") == "yes"


def test_verify_with_the_web_socket_prints_nothing(tmp_path: Path) -> None:
    root = verify_root(tmp_path, {u: (SYSTEMD / u).read_text() for u in UNITS}
                       | {WEB_SOCKET: (SYSTEMD / WEB_SOCKET).read_text()})
    dropin = root / "etc/systemd/system" / f"{CONSOLE}.d"
    dropin.mkdir()
    (dropin / "web.conf").write_text(WEB_DROPIN.read_text())
    for unit in (CONSOLE, WEB_SOCKET):
        proc = analyze_verify(root, unit)
        assert (proc.returncode, proc.stdout + proc.stderr) == (0, "")


@pytest.mark.parametrize("unit", UNITS)
def test_the_file_limit_is_set_on_purpose_and_fits_the_page(unit: str) -> None:
    """Issue 26: the service's file limit is its unit's, and the page's connection cap under it
    leaves the reserve free."""
    from web import server as web_server

    limit = int(one(unit, "LimitNOFILE"))
    assert limit > 1024
    cap = web_server.connection_cap(limit)
    assert cap + web_server.FD_RESERVE + 2 * web_server.ACCEPT_BATCH <= limit
    socket_values = {k: v for s, k, v in directives((SYSTEMD / WEB_SOCKET).read_text())
                     if s == "Socket"}
    assert int(socket_values["Backlog"]) == web_server.LISTEN_QUEUE


# ---- the club (issue 40): hardened as the box's units, its file limit fitting its page -----
CLUB_UNIT = "tableside-referee-club.service"


def test_club_unit_verify_prints_nothing(tmp_path: Path) -> None:
    root = verify_root(tmp_path, {CLUB_UNIT: (SYSTEMD / CLUB_UNIT).read_text()})
    proc = analyze_verify(root, CLUB_UNIT)
    assert (proc.returncode, proc.stdout + proc.stderr) == (0, "")


def test_club_unit_security_exposure_at_most_one() -> None:
    assert exposure(SYSTEMD / CLUB_UNIT) <= MAX_EXPOSURE


def test_club_unit_keeps_to_the_local_networks() -> None:
    assert one(CLUB_UNIT, "IPAddressDeny") == "any"
    assert set(one(CLUB_UNIT, "IPAddressAllow").split()) == LOCAL_NETWORKS
    assert one(CLUB_UNIT, "User") == "tableside-referee"
    assert one(CLUB_UNIT, "CapabilityBoundingSet") == ""


def test_club_unit_file_limit_fits_the_page_and_the_broker_link() -> None:
    """The club's page takes at most `connection_cap(LimitNOFILE)` connections, leaving
    `FD_RESERVE` for the broker's connection, the club's file and its logs."""
    from web import server as web_server

    limit = int(one(CLUB_UNIT, "LimitNOFILE"))
    cap = web_server.connection_cap(limit)
    assert cap + web_server.FD_RESERVE + 2 * web_server.ACCEPT_BATCH <= limit
