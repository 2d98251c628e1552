"""Club night (issue 27; docs/club.md, the contract in club.md of the specs): many boxes, one
MQTT broker, one club.

A box with ``--club URL`` (or ``[club] url``) publishes every accepted entry of every game to
the broker (`club.publisher`, the game file as its outbox: `club.outbox`); `referee club`
(`club.receiver`, `club.store`) subscribes to every box, keeps each entry once in its own
SQLite file, checks each game's hash chain and dice with the core's `verify`, and serves the
club's page (`club.page`).

The MQTT client (paho-mqtt) is the `club` extra, not the base install: only `club.publisher`
and `club.receiver` import it, and only when a club is asked for (`need_mqtt` says the one
line to install it otherwise). The core (referee/) imports nothing from here.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.errors import ConfigError

EXTRA = "club"


class ClubUnavailable(ConfigError):
    """A club was asked for but the MQTT client (the `club` extra) is not installed."""


def how_to_install(python: str | None = None) -> str:
    python = python or sys.executable
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file():
        return f"{python} -m pip install -e '{checkout}[{EXTRA}]'"
    return f"{python} -m pip install 'tableside-referee[{EXTRA}]'"


def need_mqtt() -> None:
    """Raise `ClubUnavailable` (one line, naming the extra) unless paho-mqtt imports."""
    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError as err:
        raise ClubUnavailable(
            f"the club needs the MQTT client, which is the '{EXTRA}' extra (not installed: "
            f"{err.name or err}); install it with {how_to_install()}") from err
