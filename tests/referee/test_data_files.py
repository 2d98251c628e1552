"""Catalog and settings files are read with a byte limit: a device, a FIFO, a directory or a
huge file is refused at start with a clear message, never read forever (issue 11, section 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.errors import CatalogError, SettingsError
from referee.games.gallery_grippers.catalog import load_catalog
from referee.games.gallery_grippers.settings import load_settings
from referee.tomlfile import MAX_BYTES

# `referee` with its address space capped, so that reading /dev/zero whole fails fast instead
# of taking the machine's memory (it did: Path.read_bytes() reads a device until memory ends)
CAPPED = ("import resource, sys\n"
          "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
          "from referee.cli import main\n"
          "sys.exit(main(sys.argv[1:]))\n")


def start_with(option: str, path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CAPPED, "headless", option, str(path)],
                          input="", capture_output=True, text=True, timeout=60)


def special_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # no writer: opening it for reading would wait for one
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: big to read, nothing on disk
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    return {"device": (Path("/dev/zero"), "device"), "fifo": (fifo, "pipe"),
            "huge": (huge, "too big"), "folder": (folder, "directory")}


@pytest.mark.parametrize("option", ["--catalog", "--rules"])
@pytest.mark.parametrize("kind", ["device", "fifo", "huge", "folder"])
def test_a_special_or_huge_file_is_refused_at_start(tmp_path: Path, option: str,
                                                    kind: str) -> None:
    path, words = special_files(tmp_path)[kind]
    proc = start_with(option, path)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert proc.stderr.startswith(f"referee: {path}: ") and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    from tests.referee.test_catalog import BASE

    path = tmp_path / "padded.toml"
    text = BASE + "#" * (MAX_BYTES - len(BASE.encode()) - 1) + "\n"
    path.write_text(text)
    assert path.stat().st_size == MAX_BYTES
    assert load_catalog(path).specialists
    settings = tmp_path / "padded-settings.toml"
    settings.write_text("[rules]\nwin_money = 5\n" + "#" * (MAX_BYTES - 40) + "\n")
    assert load_settings(settings).win_money == 5


@pytest.mark.parametrize("text", [
    "x = " + "[" * 5000 + "]" * 5000, "x = " + "{a=" * 5000 + "1" + "}" * 5000,
    "[rules]\nwin_money = " + "9" * 5000,
])
def test_toml_a_parser_cannot_take_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(text + "\n")
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert str(caught.value).startswith(f"{path}: ")
    with pytest.raises(SettingsError) as settings_error:
        load_settings(path)
    assert str(settings_error.value).startswith(f"{path}: ")
