"""The tables a start reads beside the project's bytecode instead of working them out again
(the dataclasses' methods, `referee.dataclass_code`; Textual's parsed stylesheets,
`ui.css_cache`; the games' parsed catalogs, `referee.tomlfile`): how each is written."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def write_table(path: Path, chunks: Iterable[bytes]) -> bool:
    """Write one of these tables whole or not at all: into a file of this process's own,
    then renamed over the old one, so a start reading it meanwhile reads the old table or
    the new. False if it cannot be written there."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with tmp.open("wb") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(tmp, path)
    except OSError:
        return False
    return True
