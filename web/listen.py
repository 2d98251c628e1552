"""Where the page for phones listens: `--web [ADDR:PORT]` or the settings file's `[web] listen`.

Apart from the server (`web.server`) so that `referee run` can tell whether the page is asked
for without importing aiohttp, which is only in the `web` extra (docs/performance.md).
"""

from __future__ import annotations

DEFAULT_PORT = 8080


class ListenError(ValueError):
    """A bad ``--web`` address."""


def parse_listen(text: str) -> tuple[str, int]:
    """``ADDR:PORT``, ``:PORT``, ``PORT`` or ``ADDR`` (port 8080); IPv6 as ``[::]:PORT``."""
    text = text.strip()
    host, port = text, str(DEFAULT_PORT)
    if text.startswith("["):
        inside, _, rest = text[1:].partition("]")
        host, port = inside, rest.removeprefix(":") or port
    elif text.isdigit():
        host, port = "0.0.0.0", text
    elif text.count(":") == 1:
        host, port = text.split(":")
    host = host or "0.0.0.0"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ListenError(f"--web: {text!r} has no port 1-65535 (give ADDR:PORT, e.g. "
                          f"0.0.0.0:{DEFAULT_PORT})")
    return host, int(port)


def listen_from(cli: str | None, settings: str | None) -> tuple[str, int] | None:
    """Where to serve the page: ``--web [ADDR:PORT]`` (`cli`), else the settings file's
    ``[web] listen = "ADDR:PORT"``; None: no page (nothing listens)."""
    if cli is not None:
        return parse_listen(cli)
    if settings is None:
        return None
    from pathlib import Path

    from referee.errors import SettingsError
    from referee.tomlfile import toml_loads

    try:
        data = toml_loads(Path(settings).read_text(encoding="utf-8"), settings, SettingsError)
    except OSError as err:
        raise SettingsError(f"cannot read it: {err.strerror or err}", path=settings) from err
    section = data.get("web")
    if section is None:
        return None
    listen = section.get("listen") if isinstance(section, dict) else None
    if not isinstance(listen, str):
        raise SettingsError('must be "ADDR:PORT", e.g. "0.0.0.0:8080"', path=settings,
                            field="web.listen")
    try:
        return parse_listen(listen)
    except ListenError as err:
        raise SettingsError(str(err).removeprefix("--web: "), path=settings,
                            field="web.listen") from err
