"""The entry points are read without importlib.metadata where that gives the same answer
(`referee.plugins`, issue 41): the scan must find what importlib.metadata finds."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from referee import plugins


def found(eps: list[plugins.EntryPoint]) -> list[tuple[str, str, str]]:
    return sorted((ep.group, ep.name, ep.value) for ep in eps)


def test_the_scan_finds_what_importlib_finds_on_this_install() -> None:
    scanned = found(plugins.scan(sys.path))
    assert ("tableside_referee.games", "gallery-grippers",
            "referee.games.gallery_grippers:RULESET") in scanned  # (the check is live)
    assert scanned == found(plugins.read_by_importlib())


def dist(root: Path, folder: str, entry_points: str | None) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "METADATA").write_text(f"Name: {folder.split('-')[0]}\n")
    if entry_points is not None:
        (root / folder / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_the_scan_reads_made_up_installs_as_importlib_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    dist(first, "My_Plugin-1.0.dist-info",
         "# a comment\n\n[tableside_referee.games]\n  chess = chess.rules:RULESET [fast] \n"
         "[tableside_referee.commands]\nchess=chess.cli:main\n")
    dist(first, "old.style.egg-info", "[tableside_referee.games]\ndraughts = draughts\n")
    dist(first, "no_entry_points-2.0.dist-info", None)
    # The same distributions again, later on the path, and one that is installed here: the
    # first of a name wins, whatever its spelling.
    dist(second, "my.plugin-0.9.dist-info", "[tableside_referee.games]\nold = old:X\n")
    dist(second, "No.Entry.Points-1.0.dist-info", "[tableside_referee.games]\nhidden = h:X\n")
    dist(first, "Textual-0.1.dist-info", "[tableside_referee.games]\nshadow = s:X\n")
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))
    monkeypatch.syspath_prepend(str(tmp_path / "missing"))
    scanned = found(plugins.scan(sys.path))
    mine = [ep for ep in scanned if ep[1] in ("chess", "draughts", "old", "hidden", "shadow")]
    assert mine == [("tableside_referee.commands", "chess", "chess.cli:main"),
                    ("tableside_referee.games", "chess", "chess.rules:RULESET [fast]"),
                    ("tableside_referee.games", "draughts", "draughts"),
                    ("tableside_referee.games", "shadow", "s:X")]
    assert scanned == found(plugins.read_by_importlib())


def test_a_zip_on_the_path_is_left_to_importlib(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\n")
        z.writestr("zipped-1.0.dist-info/entry_points.txt",
                   "[tableside_referee.games]\nzipped = zipped:RULESET\n")
    monkeypatch.syspath_prepend(str(archive))
    assert not plugins._directly_readable(sys.path)
    eps = plugins._scan()
    assert ("tableside_referee.games", "zipped", "zipped:RULESET") in found(eps)


def test_an_entry_point_loads_what_it_names() -> None:
    ep = plugins.EntryPoint("x", "referee.games.gallery_grippers : RULESET [extra]",
                            "tableside_referee.games")
    from referee.games.gallery_grippers import RULESET

    assert ep.load() is RULESET
    assert plugins.EntryPoint("m", "referee.plugins", "g").load() is plugins
    assert plugins.EntryPoint("a", "referee.plugins:EntryPoint.load", "g").load() \
        is plugins.EntryPoint.load


def test_a_group_and_a_name_select() -> None:
    games = plugins.entry_points(group="tableside_referee.games")
    assert {"gallery-grippers", "gallerist", "art-project"} <= {ep.name for ep in games}
    one = plugins.entry_points(group="tableside_referee.games", name="gallerist")
    assert [(ep.name, ep.value) for ep in one] == [("gallerist",
                                                    "referee.games.gallerist:RULESET")]


def test_a_named_subcommand_is_the_one_all_of_them_have() -> None:
    """`referee NAME` looks up that subcommand alone (`referee.cli.commands(name)`): the same
    one a look-up of every subcommand gives, a built-in ahead of an entry point of its name;
    a name that is none of them (or an option) gives all, for argparse's own error."""
    from referee.cli import BUILTIN, commands

    every = commands()
    assert set(BUILTIN) < set(every) and {"console", "box", "run", "club"} <= set(every)
    for name, command in every.items():
        assert commands(name) == {name: command}
    assert commands("no-such-command") == every
    assert commands("--help") == every


@pytest.mark.parametrize("name", ["textual", "gpiozero", "luma.oled", "Pillow", "rich",
                                  "tableside-referee", "no-such-distribution"])
def test_a_version_is_the_one_importlib_reads(name: str) -> None:
    """(css_cache and textual_fixes ask for Textual's; read once a process, asked twice)"""
    from importlib import metadata

    try:
        expected: str | None = metadata.version(name)
    except metadata.PackageNotFoundError:
        expected = None
    assert plugins.version(name) == expected
    assert plugins.version(name) == expected  # (the second time from the first)
    assert (expected is None) == (name == "no-such-distribution")
