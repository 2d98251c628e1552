"""The club as an add-on of every command that plays (`referee.app.SessionAddon`, entry point
``tableside_referee.session_addons``): ``--club URL``, ``--club-box ID``, ``--club-secret
FILE`` or the settings file's ``[club]``. Nothing connects, and the MQTT client is not even
imported, unless a club is asked for."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from typing import Any

from referee.app import SessionAddon
from referee.errors import ConfigError


def setup(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("club (docs/club.md)")
    g.add_argument("--club", metavar="URL", help="publish every game to a club's MQTT broker "
                   "(mqtt://HOST:PORT or mqtts://HOST:PORT); or [club] url in the settings file")
    g.add_argument("--club-box", metavar="ID", help="this box's id in the club (letters, "
                   "digits, -; default: the host name); or [club] box")
    g.add_argument("--club-secret", metavar="FILE", help="a file holding username:password "
                   "for the broker (from `referee club provision`); or [club] secret_file")


def attach(session: Any, args: argparse.Namespace,
           status: Callable[[str], None]) -> Callable[[], None] | None:
    if not any(getattr(args, name, None) for name in ("club", "settings", "rules")):
        return None  # no club asked for, and no settings file that could ask for one
    from club.settings import from_args

    settings = from_args(args)
    if settings is None:
        return None
    from club import need_mqtt

    need_mqtt()
    path = getattr(session.store, "path", None)
    if path is None:
        raise ConfigError("--club sends the games kept in the game file, and this session "
                          "keeps none: give --db FILE (not --memory)")
    from club.publisher import Publisher

    proof = getattr(session.store, "proof", None)  # (None: the file is proven, or new)
    moved = threading.Event()  # the file was found damaged and a new one started

    def ready() -> bool | None:
        """Whether the file may be read: proven (or new, or the new one started after the
        damaged one was moved aside), damaged (False: about to be moved aside), or still
        being proven (None)."""
        if proof is None or moved.is_set():
            return True
        if not proof.done:
            return None
        return not proof.result()  # (done: at once)

    publisher = Publisher(settings, path, status=status, ready=ready)

    def accepted(outcome: Any) -> None:
        publisher.accepted(outcome.ruleset or session.ruleset, outcome.state,
                           outcome.entry.seq, outcome.events)

    def restarted(_message: str) -> None:  # the file was moved aside: a new one, a new table
        moved.set()
        publisher.accepted(session.ruleset, session.state, len(session.log))
        publisher.restart()

    if len(session.log):
        publisher.accepted(session.ruleset, session.state, len(session.log))
    session.subscribe(accepted)
    session.on_restart(restarted)
    session.when_proven(publisher.kick)
    publisher.start()
    return publisher.stop


ADDON = SessionAddon(setup, attach)
