"""scripts/_venv.sh: one venv for scripts/run and scripts/test, never reinstalled for nothing.

The script is run for real from a scratch copy of scripts/ beside a copy of pyproject.toml;
the venv's `bin/python` is a stand-in that records every pip install it is asked for, so the
test sees exactly when the script would install and what it says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/bin/sh
echo "$@" >> "$(dirname "$0")/../installs.log"
"""


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(CHECKOUT / "scripts" / "_venv.sh", root / "scripts" / "_venv.sh")
    shutil.copy(CHECKOUT / "pyproject.toml", root / "pyproject.toml")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return root, venv


def _source(root: Path, venv: Path, extras: str) -> str:
    """Source the script as scripts/run ("") or scripts/test ("[test]") do; its stderr."""
    done = subprocess.run(
        ["bash", "-c", f'source "{root}/scripts/_venv.sh" "{extras}"'],
        env={**os.environ, "REFEREE_VENV": str(venv)}, capture_output=True, text=True,
        check=True)
    return done.stderr


def _installs(venv: Path) -> list[str]:
    log = venv / "installs.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line for line in lines if " -e " in f" {line} "]


def test_run_and_test_share_one_venv_without_reinstalling(tmp_path: Path) -> None:
    root, venv = _setup(tmp_path)
    said = _source(root, venv, "[test]")
    assert _installs(venv) == [f"-m pip install -q -e {root}[test]"]
    assert "test tools" in said
    for extras in ("", "[test]", "", ""):
        assert _source(root, venv, extras) == ""
    assert len(_installs(venv)) == 1


def test_the_test_tools_are_added_once_after_scripts_run(tmp_path: Path) -> None:
    root, venv = _setup(tmp_path)
    _source(root, venv, "")
    assert _installs(venv) == [f"-m pip install -q -e {root}"]
    said = _source(root, venv, "[test]")
    assert "installing the test tools (once)" in said
    assert "pyproject.toml changed" not in said
    assert _source(root, venv, "") == ""
    assert _source(root, venv, "[test]") == ""
    assert _installs(venv)[1:] == [f"-m pip install -q -e {root}[test]"]


def test_a_changed_pyproject_updates_and_keeps_the_test_tools(tmp_path: Path) -> None:
    root, venv = _setup(tmp_path)
    _source(root, venv, "[test]")
    with (root / "pyproject.toml").open("a") as f:
        f.write("\n# changed\n")
    said = _source(root, venv, "")
    assert "pyproject.toml changed" in said
    assert _installs(venv)[-1] == f"-m pip install -q -e {root}[test]"
    assert _source(root, venv, "[test]") == ""


def test_scripts_run_web_adds_the_page_libraries_once_and_test_tools_cover_them(
        tmp_path: Path) -> None:
    """scripts/run installs the package alone; scripts/run --web adds the `web` extra once;
    [test] pulls [web] in, so a venv with the test tools is never reinstalled for --web."""
    root, venv = _setup(tmp_path)
    assert "first use" in _source(root, venv, "")
    said = _source(root, venv, "[web]")
    assert "the web extra (once)" in said
    assert _source(root, venv, "[web]") == "" and _source(root, venv, "") == ""
    assert "test tools (once)" in _source(root, venv, "[test]")
    assert _source(root, venv, "[web]") == ""
    assert _installs(venv) == [f"-m pip install -q -e {root}", f"-m pip install -q -e {root}[web]",
                               f"-m pip install -q -e {root}[test]"]


def test_a_changed_pyproject_keeps_the_web_extra(tmp_path: Path) -> None:
    root, venv = _setup(tmp_path)
    assert "page's libraries" in _source(root, venv, "[web]")
    with (root / "pyproject.toml").open("a") as f:
        f.write("\n# changed\n")
    assert "pyproject.toml changed" in _source(root, venv, "")
    assert _installs(venv)[-1] == f"-m pip install -q -e {root}[web]"


def test_scripts_run_asks_for_the_web_extra_only_with_web() -> None:
    text = (CHECKOUT / "scripts" / "run").read_text()
    for args, extras in ((["--memory"], ""), (["--web"], "[web]"),
                         (["--memory", "--web=127.0.0.1:8099"], "[web]"), (["--webby"], "")):
        probe = text.split('source "$(dirname "$0")/_venv.sh"')[0] + 'printf %s "$extras"'
        done = subprocess.run(["bash", "-c", probe, "run", *args], capture_output=True,
                              text=True, check=True)
        assert done.stdout == extras, args
