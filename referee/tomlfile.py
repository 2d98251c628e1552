"""TOML data files (the catalog, settings): read with a byte limit, parsed with errors that
name the file and line, and the line of any field found again for later errors.

The games' shipped catalogs (and the box's pin map) are parsed once, at install, as Python's
bytecode is: `warm()` (run by `python -m referee.dataclass_code`, which scripts/install-pi,
scripts/_venv.sh and the bench run) keeps each one's text with what `tomllib` made of it,
marshalled, beside the project's bytecode (`referee/__pycache__/toml-parsed.<python>.marshal`).
`toml_loads` of
exactly that text takes the data from there: `tomllib` (imported for nothing else at start)
and the parse cost every start ~3 ms here (issue 41). Any other text, or the same file
edited, is parsed as before; a table of another Python, or a damaged one, is ignored. It is
trusted as the `.pyc` files beside it are: same folder, same owner."""

from __future__ import annotations

import marshal
import os
import re
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import ConfigError

MAX_BYTES = 1 << 20  # a catalog or settings file; the shipped catalog is under 4 KiB


# --- finding the line of a field --------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_\-.\"' ]+?)\s*(\]\]?)\s*(?:#.*)?$")
_TRIPLE_QUOTE = re.compile(r"\"\"\"|'''")


@dataclass(frozen=True, slots=True)
class _Header:
    """A table header line of a catalog file, for pointing errors at their line."""

    line: int  # 0-based
    array: bool  # [[name]] rather than [name]
    name: str  # dotted, normalized


def _scan(lines: Sequence[str]) -> tuple[list[_Header], set[int]]:
    """Every table header, and the lines that lie inside multi-line strings."""
    headers: list[_Header] = []
    in_string: set[int] = set()
    quote: str | None = None
    for number, line in enumerate(lines):
        if quote is not None:
            in_string.add(number)
        else:
            match = _HEADER.match(line)
            if match and len(match[1]) == len(match[3]):
                name = ".".join(part.strip().strip("\"'") for part in match[2].split("."))
                headers.append(_Header(number, len(match[1]) == 2, name))
                continue
        for delimiter in _TRIPLE_QUOTE.findall(line):
            if quote is None:
                quote = delimiter
            elif quote == delimiter:
                quote = None
    return headers, in_string


def locate_line(
    text: str, tables: Sequence[tuple[str, int | None]], key: str | None = None
) -> int | None:
    """The 1-based line of ``key`` inside a (nested) table of a TOML text, as best it can tell.

    Args:
        text: the TOML source.
        tables: the path of tables, outermost first. ``(name, n)`` is the n-th (from 0)
            ``[[name]]`` header inside the enclosing table's block; ``(name, None)`` is a plain
            ``[name]`` header. Names are relative: ``[("museums", 1), ("art", 0)]`` is the first
            ``[[museums.art]]`` after the second ``[[museums]]``.
        key: the key whose ``key = ...`` line is wanted (or, failing that, its own first
            ``[key]``/``[[key]]`` header); None for the innermost table's header line.

    Returns:
        The key's line, else the innermost header found, else None (e.g. inline tables).
    """
    lines = text.splitlines()
    headers, in_string = _scan(lines)
    start, end, prefix, found = 0, len(lines), "", None
    for name, index in tables:
        full = f"{prefix}.{name}" if prefix else name
        matches = [
            h for h in headers
            if start <= h.line < end and h.name == full and h.array == (index is not None)
        ]
        position = 0 if index is None else index
        if position >= len(matches):
            return found
        header = matches[position]
        block_end = next(
            (h.line for h in headers
             if header.line < h.line < end and not h.name.startswith(full + ".")),
            end,
        )
        start, end, prefix, found = header.line + 1, block_end, full, header.line + 1
    if key is None:
        return found
    own_end = next((h.line for h in headers if start <= h.line < end), end)
    quoted = re.escape(key)
    # `key = ...`, or a dotted key below it: `key.sub = ...`
    pattern = re.compile(rf"^\s*(?:{quoted}|\"{quoted}\"|'{quoted}')\s*(?:\.[^=]*)?=")
    for number in range(start, own_end):
        if number not in in_string and pattern.match(lines[number]):
            return number + 1
    full = f"{prefix}.{key}" if prefix else key
    sub_table = next((h for h in headers if start <= h.line < end and h.name == full), None)
    return found if sub_table is None else sub_table.line + 1


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


PARSED_HEADER = b"TSR-TOML1\n" + sys.implementation.cache_tag.encode() + b"\n"
_parsed: dict[str, bytes] | None = None  # text -> its data, marshalled (read once a process)


def parsed_path() -> Path:
    return (Path(__file__).resolve().parent / "__pycache__"
            / f"toml-parsed.{sys.implementation.cache_tag}.marshal")


def _read_parsed(path: Path) -> dict[str, bytes]:
    try:
        blob = path.read_bytes()
    except OSError:
        return {}
    if not blob.startswith(PARSED_HEADER):
        return {}
    try:
        table = marshal.loads(blob[len(PARSED_HEADER):])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if type(k) is str and type(v) is bytes}


def _known(text: str) -> dict[str, Any] | None:
    """What `tomllib` made of `text` at install, if `text` is a shipped file's, as shipped."""
    global _parsed
    if _parsed is None:
        _parsed = _read_parsed(parsed_path())
    raw = _parsed.get(text)
    if raw is None:
        return None
    try:
        data = marshal.loads(raw)
    except (ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def shipped_toml() -> list[Path]:
    """The TOML files installed with the games (their catalogs), and in a checkout the box's
    pin map (`firmware_config/pins.toml`, which `referee box` reads there by default; an
    install keeps its copy in /etc, which scripts/install-pi names to `warm` itself)."""
    here = Path(__file__).resolve().parent
    pins = here.parent / "firmware_config" / "pins.toml"
    return [*sorted((here / "games").glob("*/data/*.toml")), *([pins] if pins.is_file() else [])]


def warm(paths: Sequence[Path] | None = None, table: Path | None = None,
         also: Sequence[Path] = ()) -> int:
    """Parse the shipped TOML files (`paths`: others instead) and `also` these, and keep what
    `tomllib` made of each (see above); the number kept. A file that cannot be read or parsed,
    or whose data marshal cannot hold (TOML's dates), is left to be parsed at every start."""
    import tomllib

    kept: dict[str, bytes] = {}
    for path in [*(shipped_toml() if paths is None else paths), *also]:
        try:
            text = path.read_text(encoding="utf-8")
            kept[text] = marshal.dumps(tomllib.loads(text))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    from referee.beside_bytecode import write_table

    target = parsed_path() if table is None else table
    return len(kept) if write_table(target, [PARSED_HEADER + marshal.dumps(kept)]) else 0


def toml_loads(text: str, source: str, error: type[ConfigError]) -> dict[str, Any]:
    """``tomllib.loads``, a syntax error becoming ``error`` with tomllib's line number (a
    shipped file as shipped: its data as parsed at install)."""
    known = _known(text)
    if known is not None:
        return known
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError as exc:
        raise error("not a settings or catalog file: arrays or tables nested too deeply",
                    path=source) from exc
    except ValueError as exc:
        if not isinstance(exc, tomllib.TOMLDecodeError):
            if "integer string conversion" in str(exc):  # Python's 4,300-digit limit
                raise error("has a number with over 4,300 digits; no field takes one",
                            path=source) from exc
            raise error(f"not valid TOML: {exc}", path=source) from exc
        message = str(exc)
        position = _TOML_POSITION.search(message)
        line = int(position[1]) if position else getattr(exc, "lineno", None)
        if position:
            message = f"{message[: position.start()]} (column {position[2]})"
        raise error(f"not valid TOML: {message}", path=source, line=line) from exc


def read_text_file(path: str | Path, what: str, error: type[ConfigError],
                   limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of a small regular file, read with a byte limit.

    A device (``/dev/zero``), a FIFO or a directory is refused without reading from it (and
    without waiting for a FIFO's writer), as is a file over ``limit`` bytes.

    Raises:
        error: naming the file and what is wrong.
    """
    source = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"cannot read the {what}: {exc.strerror or exc}", path=source) from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode)
                    else "a device or other special file")
            raise error(f"is {kind}, not a {what} file", path=source)
        with os.fdopen(os.dup(fd), "rb") as file:
            raw = file.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read the {what}: {exc.strerror or exc}", path=source) from exc
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise error(f"is too big for a {what} file (over {limit:,} bytes)", path=source)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=source) from exc
