"""The shipped catalogs parsed at install (`referee.tomlfile.warm`, issue 41): the data a
start takes from the table is what `tomllib` makes of the same text; any other text, an edited
catalog, a broken one, or a damaged table is parsed (and refused) exactly as before."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import tomlfile
from referee.errors import CatalogError, ConfigError
from referee.games.gallery_grippers.catalog import default_catalog, load_catalog


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A table of its own for the test, read afresh."""
    path = tmp_path / "toml-parsed.marshal"
    monkeypatch.setattr(tomlfile, "parsed_path", lambda: path)
    monkeypatch.setattr(tomlfile, "_parsed", None)
    return path


def test_every_shipped_catalog_is_kept_as_tomllib_parses_it(table: Path) -> None:
    shipped = tomlfile.shipped_toml()
    assert len(shipped) >= 4  # (each game's catalog, and the box's pin map)
    assert tomlfile.warm(table=table) == len(shipped)
    for path in shipped:
        text = path.read_text(encoding="utf-8")
        assert tomlfile._known(text) == tomllib.loads(text), path
        data = tomlfile.toml_loads(text, str(path), CatalogError)
        data["mutated"] = True  # (a caller's changes never reach the next one)
        assert "mutated" not in tomlfile.toml_loads(text, str(path), CatalogError)


def test_the_catalog_from_the_table_is_the_catalog_parsed(table: Path) -> None:
    parsed = load_catalog()
    tomlfile.warm(table=table)
    tomlfile._parsed = None
    assert tomlfile._known(Path(tomlfile.shipped_toml()[0]).read_text()) is not None
    assert load_catalog() == parsed == default_catalog()


def test_an_edited_or_broken_catalog_is_parsed_as_before(table: Path, tmp_path: Path) -> None:
    tomlfile.warm(table=table)
    shipped = next(p for p in tomlfile.shipped_toml() if "gallery_grippers" in str(p))
    edited = tmp_path / "catalog.toml"
    edited.write_text(shipped.read_text() + "\n[oops\n")
    with pytest.raises(CatalogError, match="not valid TOML") as err:
        load_catalog(edited)
    assert err.value.line is not None


@settings(max_examples=30, deadline=None)
@given(junk=st.binary(max_size=300), keep_header=st.booleans())
def test_a_damaged_or_foreign_table_is_ignored(tmp_path_factory: pytest.TempPathFactory,
                                               junk: bytes, keep_header: bool) -> None:
    path = tmp_path_factory.mktemp("t") / "toml-parsed.marshal"
    path.write_bytes((tomlfile.PARSED_HEADER if keep_header else b"TSR-TOML0\n") + junk)
    found = tomlfile._read_parsed(path)
    assert all(type(k) is str and type(v) is bytes for k, v in found.items())


@pytest.mark.parametrize("load", [
    "from referee.games.gallery_grippers.catalog import load_catalog as load",  # the console
    "from device.pins import load_pins as load",  # the box's buttons
], ids=["catalog", "pin map"])
def test_a_start_on_a_shipped_file_does_not_import_tomllib(load: str) -> None:
    """(with the table `python -m referee.dataclass_code` writes, as an install has it)"""
    subprocess.run([sys.executable, "-m", "referee.dataclass_code"], check=True,
                   capture_output=True, timeout=300)
    code = f"import sys\n{load}\nload()\nprint('tomllib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "False"


def test_the_pin_map_from_the_table_is_the_pin_map_parsed(table: Path, tmp_path: Path) -> None:
    from device.pins import PROJECT_PINS, load_pins

    parsed = load_pins(PROJECT_PINS)
    assert PROJECT_PINS in tomlfile.shipped_toml()
    tomlfile.warm(table=table)
    tomlfile._parsed = None
    assert tomlfile._known(PROJECT_PINS.read_text()) == tomllib.loads(PROJECT_PINS.read_text())
    assert load_pins(PROJECT_PINS) == parsed
    # An install's copy, named to warm (scripts/install-pi: /etc/tableside-referee/pins.toml),
    # and the owner's edit of it afterwards: parsed at start, its errors as before.
    installed = tmp_path / "pins.toml"
    installed.write_text(PROJECT_PINS.read_text().replace("17", "5"))
    assert tomlfile.warm(paths=[], table=table, also=[installed]) == 1
    tomlfile._parsed = None
    assert tomlfile._known(installed.read_text()) is not None
    assert load_pins(installed).buttons[0].pin == 5
    installed.write_text(installed.read_text() + "\n[oops\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_pins(installed)
