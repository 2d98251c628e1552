"""The page for phones at the table (`referee run --web`; docs/web.md): a live, read-only view
of the game, served by the box on its own event loop.

Its libraries (aiohttp, segno) are the `web` extra, not the base install: only `web.server` and
`web.qr` import them, and `referee run` imports those only when the page is asked for
(`server_class`), so a box without the extra starts as quickly as ever (docs/performance.md)
and a page asked for without it is one clear line, not a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from web.server import WebServer

EXTRA = "web"
# The project's own packages: an ImportError naming one of them is a bug, not a missing extra.
OWN = frozenset({"web", "referee", "ui", "device"})


class PageUnavailable(RuntimeError):
    """The page was asked for but its libraries (the `web` extra) are not installed."""


def how_to_install(python: str | None = None, here: Path | None = None) -> str:
    """How to add the `web` extra to the environment this program runs in."""
    python = python or sys.executable
    checkout = (here or Path(__file__).resolve().parent).parent
    if (checkout / "pyproject.toml").is_file():  # an editable install: this is the checkout
        return (f"{python} -m pip install -e '{checkout}[{EXTRA}]' (or start it with "
                "scripts/run --web, which does that)")
    return (f"{python} -m pip install 'PATH/TO/CHECKOUT[{EXTRA}]' (on the Pi: sudo "
            "scripts/install-pi --variant console --web)")


def missing(err: ImportError) -> PageUnavailable | None:
    """The error to say for `err` raised while importing the page, or None when it is not a
    missing library (one of our own modules failing to import is a bug, raised as it is)."""
    top = (err.name or "").partition(".")[0]
    if not top or top in OWN:
        return None
    return PageUnavailable(
        f"the page for phones needs the `{EXTRA}` extra (aiohttp, segno), not installed here "
        f"(no module named {err.name!r}): {how_to_install()}")


def server_class() -> type[WebServer]:
    """`web.server.WebServer`, imported now (with the QR code the page's address needs), or
    `PageUnavailable` saying which extra to install."""
    try:
        import web.qr  # noqa: F401  (the address's QR code: segno)
        from web.server import WebServer
    except ImportError as err:
        said = missing(err)
        if said is None:
            raise
        raise said from err
    return WebServer
