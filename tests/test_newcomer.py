"""What a newcomer runs works with the package alone (issue 22): no optional library is imported
on the way to the console, the box or the headless referee, and a page asked for without its
libraries is one clear line.

The optional libraries (the `web` extra's aiohttp and segno, the `rpigpio` extra's RPi) are
made unimportable in the child processes by a `sitecustomize` on PYTHONPATH, so these run in
the test venv, which has them all. `scripts/newcomer-check` (CI, before the suite) does the
same in a fresh venv that really lacks them; its own failure report is tested here too.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.test_install_pi import NAME, make_pi_root, run, source

__all__ = ["source"]  # the scratch copy of the checkout (a fixture) that install-pi installs

CHECKOUT = Path(__file__).resolve().parent.parent
OPTIONAL = ("aiohttp", "segno", "RPi")
BLOCKER = "import sys\nfor name in {names!r}:\n    sys.modules[name] = None\n"


def newcomer_check() -> ModuleType:
    path = CHECKOUT / "scripts" / "newcomer-check"
    loader = importlib.machinery.SourceFileLoader("newcomer_check", str(path))
    spec = importlib.util.spec_from_loader("newcomer_check", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["newcomer_check"] = module  # (dataclasses and annotations look it up)
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def check() -> ModuleType:
    return newcomer_check()


@pytest.fixture
def bare_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a child that cannot import any optional library."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER.format(names=OPTIONAL))
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DB"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(CHECKOUT)])
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return env


def test_the_blocker_blocks(bare_env: dict[str, str]) -> None:
    """(The tests below mean something only if the child really cannot import them.)"""
    for name in OPTIONAL:
        done = subprocess.run([sys.executable, "-c", f"import {name}"], env=bare_env,
                              capture_output=True, text=True)
        assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr, name


@pytest.mark.parametrize("module", ["ui.run", "ui.commands", "ui.app", "device.commands",
                                    "device.run", "web.commands", "web.report", "web.listen",
                                    "referee.cli", "referee.headless"])
def test_every_command_module_imports_without_the_extras(
        bare_env: dict[str, str], module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], env=bare_env,
                          capture_output=True, text=True, cwd=CHECKOUT)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("command", ["run", "console", "box", "headless", "report", "tray-sim"])
def test_every_command_says_its_help_without_the_extras(
        bare_env: dict[str, str], command: str) -> None:
    done = subprocess.run([sys.executable, "-m", "referee", command, "--help"], env=bare_env,
                          capture_output=True, text=True, cwd=CHECKOUT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_referee_run_reaches_the_form_without_the_extras(
        check: ModuleType, bare_env: dict[str, str], tmp_path: Path) -> None:
    """The crash of issue 22: ui/run.py imported the page's server (aiohttp) at its top."""
    said = check.console_to_form_and_quit(
        [sys.executable, "-m", "referee", "run", "--memory"], cwd=tmp_path, env=bare_env)
    assert "exit 0" in said


def test_the_box_and_headless_run_without_the_extras(
        check: ModuleType, bare_env: dict[str, str], tmp_path: Path) -> None:
    venv = tmp_path / "venv"  # `referee` as the check calls it, run by this Python
    (venv / "bin").mkdir(parents=True)
    (venv / "bin/referee").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m "
                                      "referee \"$@\"\n")
    (venv / "bin/referee").chmod(0o755)
    assert "q, exit 0" in check.check_box(venv, tmp_path, bare_env, "q")
    assert "ok:true" in check.check_headless_and_report(venv, tmp_path, bare_env)


@pytest.mark.parametrize("how", [["--web", "127.0.0.1:8099"], ["--settings", "web.toml"]])
def test_the_page_without_its_extra_is_one_line_naming_it(
        bare_env: dict[str, str], tmp_path: Path, how: list[str]) -> None:
    (tmp_path / "web.toml").write_text('[web]\nlisten = "127.0.0.1:8099"\n')
    done = subprocess.run([sys.executable, "-m", "referee", "run", "--memory", *how],
                          env=bare_env, capture_output=True, text=True, cwd=tmp_path,
                          timeout=120, stdin=subprocess.DEVNULL)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "`web` extra" in lines[0] and "aiohttp" in lines[0]
    assert f"-e '{CHECKOUT}[web]'" in lines[0]  # this checkout's editable install: how to add it


def test_a_missing_library_is_told_apart_from_a_bug_in_our_own_modules() -> None:
    from web import PageUnavailable, missing

    said = missing(ModuleNotFoundError("No module named 'segno'", name="segno"))
    assert isinstance(said, PageUnavailable) and "'segno'" in str(said)
    assert missing(ModuleNotFoundError("No module named 'web.nothing'", name="web.nothing")) \
        is None
    assert missing(ImportError("cannot import name 'x'")) is None


def test_how_to_install_outside_a_checkout_names_the_extra(tmp_path: Path) -> None:
    from web import how_to_install

    site = tmp_path / "site-packages" / "web"
    site.mkdir(parents=True)
    said = how_to_install("/opt/venv/bin/python", site)
    assert "/opt/venv/bin/python -m pip install 'PATH/TO/CHECKOUT[web]'" in said
    assert "install-pi --variant console --web" in said


def test_the_check_reports_what_it_saw_when_a_program_fails(
        check: ModuleType, tmp_path: Path) -> None:
    crash = [sys.executable, "-c", "import sys; print('No module named aiohttp'); sys.exit(1)"]
    with pytest.raises(check.CheckFailed) as failed:
        check.console_to_form_and_quit(crash, cwd=tmp_path, env=dict(os.environ),
                                       start_timeout=30)
    said = str(failed.value)
    assert "new-game form" in said and "exit status 1" in said
    assert "No module named aiohttp" in said  # what the terminal showed


def test_the_check_reports_a_program_that_never_draws(
        check: ModuleType, tmp_path: Path) -> None:
    quiet = [sys.executable, "-c", "import time; print('thinking'); time.sleep(60)"]
    with pytest.raises(check.CheckFailed) as failed:
        check.console_to_form_and_quit(quiet, cwd=tmp_path, env=dict(os.environ),
                                       start_timeout=1)
    assert "still running" in str(failed.value) and "thinking" in str(failed.value)


@pytest.mark.slow(25)
def test_console_service_without_web_starts_without_aiohttp(
        source: Path, tmp_path: Path, check: ModuleType) -> None:
    """`install-pi --variant console` (no --web), for real with every dependency: the
    service's own command, with the hardware simulated and the game in memory, reaches the
    form with the optional libraries unimportable (the venv sees the system's packages)."""
    root = make_pi_root(tmp_path / "root")
    result = run(source, "install-pi", root, "--variant", "console")
    assert result.returncode == 0, result.out
    unit = (root / f"etc/systemd/system/{NAME}-console.service").read_text()
    [line] = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0] == f"/opt/{NAME}/venv/bin/referee" and argv[1] == "run"
    assert "--web" not in argv
    argv[0] = str(root / argv[0].lstrip("/"))
    argv[argv.index("--hardware") + 1] = "sim"  # no Pi here
    db = argv.index("--db")
    argv[db:db + 2] = ["--memory"]  # /var/lib is not ours
    pins = argv.index("--pins") + 1
    argv[pins] = str(root / argv[pins].lstrip("/"))
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER.format(names=OPTIONAL))
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "data")}
    assert "exit 0" in check.console_to_form_and_quit(argv, cwd=tmp_path, env=env)
