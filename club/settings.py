"""Where a box publishes: ``--club URL`` / ``--club-box ID`` / ``--club-secret FILE`` or the
settings file's ``[club]`` table (``url``, ``box``, ``secret_file``, ``club``). Plain data, no
MQTT library: read before anything connects, so a bad value is one clear line at start-up."""

from __future__ import annotations

import argparse
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from club.topics import BOX_ID, CLUB_ID
from referee.errors import ConfigError, SettingsError

DEFAULT_CLUB = "club"
PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True)
class Broker:
    """A broker's address: ``mqtt://host:port`` or ``mqtts://host:port`` (TLS)."""

    url: str
    host: str
    port: int
    tls: bool


def parse_url(text: str, *, what: str = "--club") -> Broker:
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as err:
        raise ConfigError(f"{what}: {text!r} is not a broker address ({err})") from err
    if parts.scheme not in PORTS or not parts.hostname:
        raise ConfigError(f"{what}: {text!r} is not a broker address: give mqtt://HOST:PORT "
                          "or mqtts://HOST:PORT")
    if parts.username or parts.password:
        raise ConfigError(f"{what}: put the user name and password in a secret file "
                          "(--club-secret FILE, holding username:password), not in the address")
    return Broker(text.strip(), parts.hostname, port or PORTS[parts.scheme],
                  parts.scheme == "mqtts")


def read_secret(path: str, *, what: str = "--club-secret") -> tuple[str, str]:
    """``username:password`` from the first line of a file."""
    try:
        line = Path(path).expanduser().read_text(encoding="utf-8").splitlines()[0].strip()
    except OSError as err:
        raise ConfigError(f"{what}: cannot read {path}: {err.strerror or err}") from err
    except IndexError:
        line = ""
    user, sep, password = line.partition(":")
    if not sep or not user or not password:
        raise ConfigError(f"{what}: {path} must hold one line username:password")
    return user, password


@dataclass(frozen=True)
class ClubSettings:
    """What a box needs to publish to its club."""

    broker: Broker
    box: str
    club: str = DEFAULT_CLUB
    username: str | None = None
    password: str | None = None


def _section(path: str | None) -> dict[str, Any]:
    if path is None:
        return {}
    from referee.tomlfile import toml_loads

    try:
        data = toml_loads(Path(path).read_text(encoding="utf-8"), path, SettingsError)
    except OSError as err:
        raise SettingsError(f"cannot read it: {err.strerror or err}", path=path) from err
    section = data.get("club", {})
    if not isinstance(section, dict):
        raise SettingsError("must be a table", path=path, field="club")
    for key in ("url", "box", "secret_file", "club"):
        if key in section and not isinstance(section[key], str):
            raise SettingsError("must be a string", path=path, field=f"club.{key}")
    return section


def default_box() -> str:
    """The host name, made a box id (letters, digits, -; at most 32)."""
    name = "".join(c if c.isalnum() and c.isascii() else "-"
                   for c in socket.gethostname().split(".")[0]).strip("-")
    return name[:32] or "box"


def from_args(args: argparse.Namespace) -> ClubSettings | None:
    """The club the arguments ask for (command line over the settings file); None: none."""
    path = getattr(args, "settings", None) or getattr(args, "rules", None)
    section = _section(path)
    url = getattr(args, "club", None) or section.get("url")
    if not url:
        return None
    broker = parse_url(url, what="--club" if getattr(args, "club", None) else "[club] url")
    box = getattr(args, "club_box", None) or section.get("box") or default_box()
    if not BOX_ID.fullmatch(box):
        raise ConfigError(f"--club-box: {box!r} is not a box id (letters, digits and -, at "
                          "most 32)")
    club = section.get("club") or DEFAULT_CLUB
    if not CLUB_ID.fullmatch(club):
        raise ConfigError(f"[club] club: {club!r} is not a club name (letters, digits, _ "
                          "and -)")
    secret = getattr(args, "club_secret", None) or section.get("secret_file")
    user, password = read_secret(secret) if secret else (None, None)
    return ClubSettings(broker, box, club, user, password)
