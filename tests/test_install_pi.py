"""scripts/install-pi and scripts/uninstall-pi, run for real into scratch roots.

Each scratch root looks like the parts of Raspberry Pi OS the installer touches: passwd/group
files with the gpio and i2c groups, /boot/firmware/config.txt, the OS's systemd units, an
existing udev rule and wants/ link. The venv step is real (python -m venv + pip install of a
copy of this checkout); most tests pass --pip-arg=--no-deps to keep it to a few seconds, and
test_default_venv_has_the_dependencies runs the default path with every dependency.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# In a parallel run (scripts/test) these tests go to one worker together, first: the scratch
# roots installed once for many tests (`installed`, `with_web`) are made once, and the whole
# module (about 230 s on 2 cores) starts early rather than ending the run.
pytestmark = [pytest.mark.xdist_group("install-pi"), pytest.mark.slow(230)]

CHECKOUT = Path(__file__).resolve().parent.parent
NAME = "tableside-referee"
FAST = ["--pip-arg=--no-deps"]
sys.path.insert(0, str(CHECKOUT / "scripts"))
from pi_emulate import PI_CONFIG_TXT  # noqa: E402  (Raspberry Pi OS's own config.txt)

sys.path.remove(str(CHECKOUT / "scripts"))
PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"
GROUP = "root:x:0:\ndialout:x:20:pi\ni2c:x:994:pi\ngpio:x:993:pi\npi:x:1000:\n"
SHADOW = "root:*:19000:0:99999:7:::\npi:$y$j9T$abc:19000:0:99999:7:::\n"
GSHADOW = "root:*::\ndialout:*::pi\ni2c:!::pi\ngpio:!::pi\npi:!::\n"
# Left by shadow-utils and systemd-sysusers when they edit the account files (lock file and
# one-generation backups); every real system has them, and they are not ours to remove.
ACCOUNT_TOOL_FILES = {"etc/.pwd.lock", "etc/passwd-", "etc/group-", "etc/shadow-", "etc/gshadow-"}
ACCOUNT_FILES = {"etc/passwd", "etc/group", "etc/shadow", "etc/gshadow"}

Entry = tuple[object, ...]


def snapshot(root: Path, *, mtimes: bool = True) -> dict[str, Entry]:
    """Every path under root with its type, mode, owner, content hash or link, and mtime."""
    tree: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            if path.is_symlink():
                what: object = ("link", os.readlink(path))
            elif path.is_dir():
                what = "dir"
            else:
                what = hashlib.sha256(path.read_bytes()).hexdigest()
            entry: Entry = (what, st.st_mode, st.st_uid, st.st_gid)
            if mtimes:
                entry += (st.st_mtime_ns,)
            tree[str(path.relative_to(root))] = entry
    return tree


def make_pi_root(root: Path, config_txt: str = PI_CONFIG_TXT) -> Path:
    (root / "etc/udev/rules.d").mkdir(parents=True)
    (root / "etc/udev/rules.d/10-local.rules").write_text('# owner rule\n')
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "ssh.service").symlink_to("/lib/systemd/system/ssh.service")
    for name, text, mode in [("passwd", PASSWD, 0o644), ("group", GROUP, 0o644),
                             ("shadow", SHADOW, 0o640), ("gshadow", GSHADOW, 0o640)]:
        (root / "etc" / name).write_text(text)
        (root / "etc" / name).chmod(mode)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(config_txt)
    # The OS's own units, so systemd-analyze verify --root can resolve dependencies.
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    return root


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout, with the firmware_config files other issues will add."""
    src = tmp_path_factory.mktemp("src") / "checkout"
    shutil.copytree(CHECKOUT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", "build", ".*_cache", ".hypothesis"))
    pins = src / "firmware_config/pins.toml"
    if not pins.exists():
        pins.write_text("[buttons]\nroll = 17\nnext = 27\nback = 22\nmenu = 23\n")
    rules = src / "firmware_config/99-tableside-dice-tray.rules"
    if not rules.exists():
        rules.write_text('SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", SYMLINK+="dice-tray"\n')
    return src


@dataclass
class Run:
    returncode: int
    out: str


def run(source: Path, script: str, root: Path, *args: str) -> Run:
    proc = subprocess.run(
        [sys.executable, str(source / "scripts" / script), "--root", str(root), *args],
        capture_output=True, text=True, timeout=300,
    )
    return Run(proc.returncode, proc.stdout + proc.stderr)


def install(source: Path, root: Path, *args: str) -> Run:
    result = run(source, "install-pi", root, *FAST, *args)
    assert result.returncode == 0, result.out
    return result


@dataclass
class Installed:
    root: Path
    first: Run
    second: Run
    after_first: dict[str, Entry]
    after_second: dict[str, Entry]


@pytest.fixture(scope="module")
def installed(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = make_pi_root(tmp_path_factory.mktemp("pi") / "root")
    first = install(source, root)
    after_first = snapshot(root)
    second = install(source, root)
    return Installed(root, first, second, after_first, snapshot(root))


def test_installs_units_config_rules_and_enable_link(installed: Installed, source: Path) -> None:
    root = installed.root
    for unit in (f"{NAME}.service", f"{NAME}-console.service"):
        assert (root / "etc/systemd/system" / unit).read_bytes() == (
            source / "systemd" / unit).read_bytes()
    link = root / f"etc/systemd/system/multi-user.target.wants/{NAME}.service"
    assert os.readlink(link) == f"/etc/systemd/system/{NAME}.service"
    assert not (root / f"etc/systemd/system/multi-user.target.wants/{NAME}-console.service"
                ).exists()
    assert (root / "etc/tableside-referee/pins.toml").read_bytes() == (
        source / "firmware_config/pins.toml").read_bytes()
    for rules in (source / "firmware_config").glob("*.rules"):
        assert (root / "etc/udev/rules.d" / rules.name).read_bytes() == rules.read_bytes()
    assert (root / "etc/udev/rules.d/10-local.rules").read_text() == "# owner rule\n"
    assert (root / f"etc/sysusers.d/{NAME}.conf").is_file()
    assert (root / f"opt/{NAME}/docs/install-pi.md").is_file()
    assert (root / f"opt/{NAME}/install-manifest.json").is_file()


def test_creates_the_service_user_in_gpio_i2c_dialout(installed: Installed) -> None:
    passwd = (installed.root / "etc/passwd").read_text().splitlines()
    user = next(line.split(":") for line in passwd if line.startswith(f"{NAME}:"))
    assert user[5] == f"/var/lib/{NAME}" and user[6] == "/usr/sbin/nologin"
    assert int(user[2]) < 1000  # a system user
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (installed.root / "etc/group").read_text().splitlines()}
    for group in ("gpio", "i2c", "dialout"):
        assert NAME in groups[group] and "pi" in groups[group]


def test_config_txt_gets_one_marked_block_at_the_end(installed: Installed) -> None:
    text = (installed.root / "boot/firmware/config.txt").read_text()
    assert text.startswith(PI_CONFIG_TXT)
    block = text[len(PI_CONFIG_TXT):]
    lines = block.splitlines()
    assert lines[0].startswith(f"# BEGIN {NAME}") and lines[-1] == f"# END {NAME}"
    assert text.count(f"# BEGIN {NAME}") == 1
    assert "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" in lines
    assert "[all]" in lines  # the settings apply whatever section came before
    assert not any(line.startswith("dtoverlay=gpio-shutdown") for line in lines)


def test_venv_is_real_and_runs_the_project(installed: Installed) -> None:
    venv = installed.root / f"opt/{NAME}/venv"
    cfg = (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg  # the OS's lgpio on a Pi
    assert (venv / "bin/referee").is_file()
    proc = subprocess.run(
        [str(venv / "bin/python"), "-c",
         "import referee.cli, device.watchdog; print(referee.cli.__file__)"],
        capture_output=True, text=True, check=True, cwd=installed.root,
    )
    assert proc.stdout.startswith(str(venv))  # installed, not imported from the checkout


def test_second_run_changes_nothing(installed: Installed) -> None:
    assert installed.after_second == installed.after_first  # types, modes, hashes, mtimes
    assert "nothing changed" in installed.second.out
    assert "reboot" in installed.first.out and "reboot" not in installed.second.out


def test_installed_units_verify_clean(installed: Installed) -> None:
    """systemd-analyze verify against the installed tree, with the real venv's `referee`."""
    for unit in (f"{NAME}.service", f"{NAME}-console.service"):
        proc = subprocess.run(
            ["systemd-analyze", "verify", f"--root={installed.root}", "--man=no",
             f"/etc/systemd/system/{unit}"],
            capture_output=True, text=True,
        )
        assert proc.returncode == 0 and proc.stdout + proc.stderr == "", proc.stderr


def test_dry_run_changes_nothing(installed: Installed, source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root)
    result = run(source, "install-pi", root, "--dry-run")
    assert result.returncode == 0, result.out
    assert f"would install /etc/systemd/system/{NAME}.service" in result.out
    assert "would run: systemd-sysusers" in result.out
    assert snapshot(root) == before
    # and an uninstall dry run leaves an installed box alone
    before = snapshot(installed.root)
    result = run(source, "uninstall-pi", installed.root, "--dry-run")
    assert result.returncode == 0, result.out
    assert f"would remove /etc/systemd/system/{NAME}.service" in result.out
    assert snapshot(installed.root) == before


def test_live_dry_run_plans_the_real_system_calls(source: Path) -> None:
    """Against / itself, --dry-run walks the live code path and touches nothing."""
    watched = [Path(f"/opt/{NAME}"), Path(f"/etc/systemd/system/{NAME}.service"),
               Path(f"/etc/sysusers.d/{NAME}.conf"), Path("/etc/passwd"), Path("/etc/group")]

    def state() -> list[tuple[bool, int]]:
        return [(p.exists(), p.stat().st_mtime_ns if p.exists() else 0) for p in watched]

    before = state()
    proc = subprocess.run(
        [str(source / "scripts/install-pi"), "--dry-run", *FAST],  # by its shebang
        capture_output=True, text=True, timeout=120, env=booted(source),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert state() == before
    if not before[0][0]:  # not installed on this machine (CI): the whole plan is printed
        assert f"would install /etc/systemd/system/{NAME}.service" in proc.stdout
        assert f"would run: systemd-sysusers /etc/sysusers.d/{NAME}.conf" in proc.stdout
        assert "would run: systemctl daemon-reload" in proc.stdout
        assert f"would run: systemctl restart {NAME}.service" in proc.stdout


def booted(where: Path) -> dict[str, str]:
    """The environment of a system that systemd runs (sd_booted: its run directory exists),
    whether or not this machine's is."""
    return {**os.environ, "TABLESIDE_SD_BOOTED_DIR": str(where)}


def test_live_dry_run_in_a_chroot_enables_and_starts_nothing(source: Path,
                                                             tmp_path: Path) -> None:
    """With no systemd running (a chroot; an SD card image being built) the plan enables the
    service and says it starts at boot: no systemctl call, which would fail there."""
    proc = subprocess.run(
        [str(source / "scripts/install-pi"), "--dry-run", *FAST], capture_output=True,
        text=True, timeout=120, env=booted(tmp_path / "no-systemd-here"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "systemctl" not in proc.stdout.replace("systemctl status", "")
    assert f"would enable {NAME}.service; systemd is not running here" in proc.stdout
    assert "it starts at the next boot" in proc.stdout


def test_dry_run_says_each_directory_once(source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    out = run(source, "install-pi", root, "--dry-run", "--variant", "console", "--web").out
    lines = [line for line in out.splitlines() if line.startswith("would create ")]
    assert lines and len(lines) == len(set(lines)), out


def test_a_rerun_starts_a_service_whose_start_failed(source: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing changed since the last run, but the service is not running (its start failed
    then): the rerun starts it again instead of saying there is nothing to do."""
    sys.path.insert(0, str(source / "scripts"))
    try:
        import pi_install
        from pi_installer import Target
    finally:
        sys.path.remove(str(source / "scripts"))
    monkeypatch.setenv("TABLESIDE_SD_BOOTED_DIR", str(tmp_path))
    ran: list[list[str]] = []
    target = Target(root=Path("/"))
    monkeypatch.setattr(target, "run", lambda argv, check=True: ran.append(list(argv)) or 0)
    args = pi_install.parse_args(["--source", str(source)])
    installer = pi_install.Installer(target, args, None)
    for running in (True, False):
        ran.clear()
        monkeypatch.setattr(installer, "active", lambda unit, running=running: running)
        installer.changed = []
        installer.activate()
        if running:
            assert ran == []  # up and unchanged: nothing to do
        else:
            assert ["systemctl", "restart", f"{NAME}.service"] in ran
            assert installer.changed  # (so it does not say "nothing changed")


def without_account_tool_files(tree: dict[str, Entry]) -> dict[str, Entry]:
    return {path: entry for path, entry in tree.items() if path not in ACCOUNT_TOOL_FILES}


def test_uninstall_restores_the_root_and_keeps_the_database(
    source: Path, tmp_path: Path
) -> None:
    # config.txt without a final newline: the installer adds one, uninstall takes it back.
    root = make_pi_root(tmp_path / "root", config_txt="dtparam=audio=on")
    before = snapshot(root, mtimes=False)
    install(source, root)
    assert (root / "boot/firmware/config.txt").read_text().startswith(
        f"dtparam=audio=on\n# BEGIN {NAME}")
    state = root / f"var/lib/{NAME}"  # what systemd's StateDirectory= and the box create
    state.mkdir(parents=True)
    (state / "games.sqlite").write_bytes(b"SQLite format 3\0 a game in progress")

    result = run(source, "uninstall-pi", root)
    assert result.returncode == 0, result.out
    assert (state / "games.sqlite").read_bytes() == b"SQLite format 3\0 a game in progress"
    after = without_account_tool_files(snapshot(root, mtimes=False))
    added = {p for p in after if p.startswith("var")}
    assert added == {"var", "var/lib", f"var/lib/{NAME}", f"var/lib/{NAME}/games.sqlite"}
    assert {p: e for p, e in after.items() if p not in added} == before
    for name in ACCOUNT_FILES:  # byte for byte, no trace of the user
        assert NAME not in (root / name).read_text()

    result = run(source, "uninstall-pi", root, "--purge")
    assert result.returncode == 0, result.out
    assert "not installed" in result.out  # nothing left to do, the database stays
    assert (state / "games.sqlite").exists()


def test_purge_removes_the_database_and_changed_config(source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root, mtimes=False)
    install(source, root)
    pins = root / "etc/tableside-referee/pins.toml"
    pins.write_text("# the owner's wiring\n")
    shipped = source / "firmware_config/pins.toml"
    original = shipped.read_bytes()
    try:
        shipped.write_bytes(original + b"# a newer shipped map\n")
        again = install(source, root)  # an update does not overwrite the owner's edit
    finally:
        shipped.write_bytes(original)
    assert "kept /etc/tableside-referee/pins.toml" in again.out
    assert pins.read_text() == "# the owner's wiring\n"
    (root / f"var/lib/{NAME}").mkdir(parents=True)
    (root / f"var/lib/{NAME}/games.sqlite").write_bytes(b"db")

    keep = run(source, "uninstall-pi", root, "--dry-run")
    assert "would remove /etc/tableside-referee/pins.toml" not in keep.out
    result = run(source, "uninstall-pi", root, "--purge")
    assert result.returncode == 0, result.out
    assert not (root / "var/lib/tableside-referee").exists()
    after = without_account_tool_files(snapshot(root, mtimes=False))
    assert {p: e for p, e in after.items() if p not in {"var", "var/lib"}} == before


def test_console_variant_masks_getty_and_switching_back_undoes_it(
    source: Path, tmp_path: Path
) -> None:
    root = make_pi_root(tmp_path / "root")
    (root / "boot/firmware/config.txt").unlink()  # an older image: /boot/config.txt
    (root / "boot/config.txt").write_text(PI_CONFIG_TXT)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    install(source, root, "--variant", "console", "--power-button-gpio", "26")
    assert os.readlink(wants / f"{NAME}-console.service") == (
        f"/etc/systemd/system/{NAME}-console.service")
    assert not (wants / f"{NAME}.service").exists()
    assert os.readlink(root / "etc/systemd/system/getty@tty1.service") == "/dev/null"
    config = (root / "boot/config.txt").read_text()
    assert "dtoverlay=gpio-shutdown,gpio_pin=26,active_low=1,gpio_pull=up" in config

    install(source, root)  # back to the box, no power button
    assert os.readlink(wants / f"{NAME}.service") == f"/etc/systemd/system/{NAME}.service"
    assert not (wants / f"{NAME}-console.service").is_symlink()
    assert not (root / "etc/systemd/system/getty@tty1.service").is_symlink()
    config = (root / "boot/config.txt").read_text()
    assert "gpio-shutdown" not in config and config.count(f"# BEGIN {NAME}") == 1


@pytest.mark.parametrize("gpio", ["3", "2", "17", "28"])
def test_power_button_on_a_used_pin_is_refused(source: Path, tmp_path: Path, gpio: str) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root)
    result = run(source, "install-pi", root, "--power-button-gpio", gpio)
    assert result.returncode == 2 and "choose a free GPIO" in result.out
    assert snapshot(root) == before


def test_refuses_to_overwrite_a_unit_it_did_not_install(source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    unit = root / f"etc/systemd/system/{NAME}.service"
    unit.write_text("[Service]\nExecStart=/home/pi/my-own-referee\n")
    result = run(source, "install-pi", root, *FAST)
    assert result.returncode == 1
    assert f"{NAME}.service exists and was not installed by us" in result.out
    assert unit.read_text() == "[Service]\nExecStart=/home/pi/my-own-referee\n"


def test_default_venv_has_the_dependencies(source: Path, tmp_path: Path) -> None:
    """The real path: no test-only options; pip installs the project and every dependency."""
    root = make_pi_root(tmp_path / "root")
    result = run(source, "install-pi", root)
    assert result.returncode == 0, result.out
    venv = root / f"opt/{NAME}/venv"
    subprocess.run([str(venv / "bin/referee"), "--help"], check=True, capture_output=True,
                   cwd=root)
    subprocess.run(
        [str(venv / "bin/python"), "-c", "import textual, gpiozero, luma.oled, serial, PIL"],
        check=True, cwd=root,
    )
    # The dataclasses' compiled methods are written beside pip's bytecode, with all that
    # the console and the box make as they start (docs/performance.md, issue 41).
    # So are Textual's parsed stylesheets (ui/css_cache.py: each game's first screen's), and
    # the games' shipped catalogs as parsed (referee/tomlfile.py).
    probe = ("from referee import dataclass_code as d; t = d.install(); "
             "import ui.app, device.box, device.run; from ui import css_cache as c; "
             "from referee import tomlfile as f; "
             "print(t.compiled, len(t), len(c.install().stored), "
             "len(f._read_parsed(f.parsed_path())))")
    out = subprocess.run([str(venv / "bin/python"), "-c", probe], check=True, cwd=root,
                         capture_output=True, text=True).stdout.split()
    assert (out[0] == "0" and int(out[1]) > 300 and int(out[2]) >= 10
            and int(out[3]) >= 4), out  # (three catalogs, the pin map)


# ---- the page for phones (--web, issue 17) --------------------------------------------------
WEB_SOCKET = f"{NAME}-web.socket"
WEB_DROPIN = f"{NAME}-console.service.d/web.conf"
CONSOLE = f"{NAME}-console.service"


def exposure_in(root: Path, unit: str) -> float:
    """`systemd-analyze security` of an installed unit as systemd would load it (drop-ins)."""
    import re

    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--root={root}", "--no-pager",
         f"/etc/systemd/system/{unit}"],
        capture_output=True, text=True,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1))


@pytest.fixture(scope="module")
def with_web(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = make_pi_root(tmp_path_factory.mktemp("pi-web") / "root")
    first = install(source, root, "--variant", "console", "--web")
    after_first = snapshot(root)
    second = install(source, root, "--variant", "console", "--web")
    return Installed(root, first, second, after_first, snapshot(root))


def test_web_installs_the_socket_the_dropin_and_enables_the_socket(
    with_web: Installed, source: Path
) -> None:
    root = with_web.root / "etc/systemd/system"
    assert (root / WEB_SOCKET).read_bytes() == (source / "systemd" / WEB_SOCKET).read_bytes()
    assert (root / WEB_DROPIN).read_bytes() == (source / "systemd" / WEB_DROPIN).read_bytes()
    assert os.readlink(root / "sockets.target.wants" / WEB_SOCKET) == (
        f"/etc/systemd/system/{WEB_SOCKET}")
    assert os.readlink(root / "multi-user.target.wants" / CONSOLE) == (
        f"/etc/systemd/system/{CONSOLE}")
    # the socket's Documentation= is there
    assert (with_web.root / f"opt/{NAME}/docs/web.md").read_bytes() == (
        source / "docs/web.md").read_bytes()
    assert "page for phones" in with_web.first.out
    assert with_web.after_second == with_web.after_first  # a second run changes nothing
    assert "nothing changed" in with_web.second.out


def test_web_units_verify_clean_and_keep_the_exposure(with_web: Installed) -> None:
    for unit in (CONSOLE, WEB_SOCKET):
        proc = subprocess.run(
            ["systemd-analyze", "verify", f"--root={with_web.root}", "--man=no",
             f"/etc/systemd/system/{unit}"],
            capture_output=True, text=True,
        )
        assert proc.returncode == 0 and proc.stdout + proc.stderr == "", proc.stderr
    with_page = exposure_in(with_web.root, CONSOLE)
    assert with_page <= 1.0
    # the drop-in is read (its ExecStart= with --web is what systemd runs) ...
    proc = subprocess.run(
        ["systemd-analyze", "cat-config", f"--root={with_web.root}", "--no-pager",
         f"systemd/system/{CONSOLE}"], capture_output=True, text=True)
    assert "--web" in proc.stdout, proc.stdout + proc.stderr
    # ... and changes nothing of the sandbox: the same exposure as without the page
    plain = with_web.root / "tmp-plain"
    plain.mkdir(exist_ok=True)
    shutil.copy(with_web.root / "etc/systemd/system" / CONSOLE, plain / CONSOLE)
    assert with_page == exposure_in_file(plain / CONSOLE)
    # (the check reads drop-ins: one that loosens the sandbox shows)
    loose = with_web.root / f"etc/systemd/system/{CONSOLE}.d/zz-test-loose.conf"
    loose.write_text("[Service]\nPrivateNetwork=no\nRestrictAddressFamilies=\n")
    try:
        assert exposure_in(with_web.root, CONSOLE) > with_page
    finally:
        loose.unlink()


def exposure_in_file(path: Path) -> float:
    import re

    proc = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager",
                           str(path)], capture_output=True, text=True)
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1))


def test_web_without_the_console_is_refused(source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root)
    result = run(source, "install-pi", root, "--web")
    assert result.returncode == 2 and "add --variant console" in result.out
    assert snapshot(root) == before


def test_web_off_again_and_uninstall_leave_the_root_as_it_was(
    source: Path, tmp_path: Path
) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root, mtimes=False)
    install(source, root, "--variant", "console", "--web")
    unit_dir = root / "etc/systemd/system"
    install(source, root, "--variant", "console")  # the page off again
    for gone in (unit_dir / WEB_SOCKET, unit_dir / WEB_DROPIN,
                 unit_dir / "sockets.target.wants" / WEB_SOCKET, root / f"opt/{NAME}/docs/web.md"):
        assert not gone.exists() and not gone.is_symlink(), gone
    assert os.readlink(unit_dir / "multi-user.target.wants" / CONSOLE) == (
        f"/etc/systemd/system/{CONSOLE}")
    install(source, root, "--variant", "console", "--web")  # on once more, then uninstall
    result = run(source, "uninstall-pi", root)
    assert result.returncode == 0, result.out
    after = without_account_tool_files(snapshot(root, mtimes=False))
    assert after == before


def test_live_dry_run_with_web_plans_socket_then_service(source: Path) -> None:
    proc = subprocess.run(
        [str(source / "scripts/install-pi"), "--dry-run", *FAST, "--variant", "console",
         "--web"], capture_output=True, text=True, timeout=120, env=booted(source),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if not Path(f"/opt/{NAME}").exists():  # not installed on this machine (CI)
        out = proc.stdout
        assert f"would install /etc/systemd/system/{WEB_SOCKET}" in out
        assert f"would install /etc/systemd/system/{WEB_DROPIN}" in out
        stop = out.index(f"would run: systemctl stop {CONSOLE}")
        socket = out.index(f"would run: systemctl restart {WEB_SOCKET}")
        start = out.index(f"would run: systemctl restart {CONSOLE}")
        assert stop < socket < start


def test_web_venv_has_the_page_libraries(source: Path, tmp_path: Path) -> None:
    """The real path with --web: pip installs the project with its `web` extra."""
    root = make_pi_root(tmp_path / "root")
    result = run(source, "install-pi", root, "--variant", "console", "--web")
    assert result.returncode == 0, result.out
    venv = root / f"opt/{NAME}/venv"
    subprocess.run([str(venv / "bin/python"), "-c", "import aiohttp, segno, web.server"],
                   check=True, cwd=root)


# ---- the club's broker (--club-broker, issue 27) ---------------------------------------------
CLUB_UNIT = f"{NAME}-club.service"


def test_club_broker_installs_mosquittos_config_the_account_and_the_club(
    source: Path, tmp_path: Path
) -> None:
    root = make_pi_root(tmp_path / "root")
    before = snapshot(root, mtimes=False)
    first = install(source, root, "--club-broker")
    conf = root / "etc/mosquitto/conf.d/tableside-club.conf"
    assert conf.read_bytes() == (source / "club/mosquitto/tableside-club.conf").read_bytes()
    assert "allow_anonymous false" in conf.read_text()
    secret = root / f"etc/{NAME}/club.secret"
    user, password = secret.read_text().strip().split(":", 1)
    assert user == "club-reader" and len(password) >= 24
    assert secret.stat().st_mode & 0o777 == 0o600
    passwd = (root / "etc/mosquitto/tableside-club.passwd").read_text()
    assert passwd.startswith("club-reader:$7$101$") and password not in passwd
    acl = (root / "etc/mosquitto/tableside-club.acl").read_text()
    assert "user club-reader\ntopic read tableside/club/#\n" in acl
    unit = root / "etc/systemd/system" / CLUB_UNIT
    assert unit.read_bytes() == (source / "systemd" / CLUB_UNIT).read_bytes()
    assert (root / "etc/systemd/system/multi-user.target.wants" / CLUB_UNIT).is_symlink()
    assert "referee club provision" in first.out
    again = install(source, root, "--club-broker")  # the account is made once
    assert "nothing changed" in again.out
    assert secret.read_text().strip() == f"{user}:{password}"
    proc = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "--man=no", "--generators=no",
         f"/etc/systemd/system/{CLUB_UNIT}"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = run(source, "uninstall-pi", root, "--purge")
    assert result.returncode == 0, result.out
    after = without_account_tool_files(snapshot(root, mtimes=False))
    assert {p: e for p, e in after.items() if p not in {"var", "var/lib"}} == before


# ---- a box publishing to a club (--club, issue 27) -------------------------------------------
@pytest.mark.parametrize("variant", ["box", "console"])
def test_club_installs_the_network_dropin_that_never_waits_for_the_network(
    source: Path, tmp_path: Path, variant: str
) -> None:
    root = make_pi_root(tmp_path / "root")
    unit = f"{NAME}.service" if variant == "box" else CONSOLE
    refused = run(source, "install-pi", root, *FAST, "--variant", variant, "--club")
    assert refused.returncode != 0 and "settings.toml" in refused.out  # [club] first
    settings = root / f"etc/{NAME}/settings.toml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text('[club]\nurl = "mqtt://club.local:1883"\nbox = "table-7"\n')
    install(source, root, "--variant", variant, "--club")
    dropin = root / f"etc/systemd/system/{unit}.d/club.conf"
    assert dropin.read_bytes() == (source / f"systemd/club/{unit}.conf").read_bytes()
    proc = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "--man=no", "--generators=no",
         f"/etc/systemd/system/{unit}"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = subprocess.run(
        ["systemd-analyze", "cat-config", f"--root={root}", "--no-pager",
         f"systemd/system/{unit}"], capture_output=True, text=True, timeout=120)
    merged = proc.stdout
    assert f"--settings /etc/{NAME}/settings.toml" in merged, merged + proc.stderr
    # the network is wanted, never required nor waited for: the box starts without one
    lines = [line.strip() for line in merged.splitlines() if not line.startswith("#")]
    assert "Wants=network-online.target" in lines
    assert not any(line.startswith(("Requires=", "Requisite=", "BindsTo="))
                   and "network" in line for line in lines)
    assert not any(line.startswith("After=") and "network-online" in line for line in lines)
    assert "PrivateNetwork=no" in lines
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in lines
    # without --club again, the drop-in goes
    install(source, root, "--variant", variant)
    assert not dropin.exists()


def test_club_with_web_is_refused(source: Path, tmp_path: Path) -> None:
    root = make_pi_root(tmp_path / "root")
    result = run(source, "install-pi", root, *FAST, "--variant", "console", "--web", "--club")
    assert result.returncode != 0 and "--club with --web" in result.out
