"""The `referee` subcommands the Textual console provides (entry points in pyproject.toml)."""

from __future__ import annotations

import argparse

from referee.cli import CliCommand


def _console_args(parser: argparse.ArgumentParser) -> None:
    from referee.app import add_session_args

    add_session_args(parser, durable=True)


def _console(args: argparse.Namespace) -> int:
    from referee.app import SessionOpening

    said: list[str] = []
    # The game file opens while the console's modules are imported (referee.app).
    opening = SessionOpening(args, notify=said.append)
    try:
        from ui.app import cmd_console
    except BaseException:
        opening.close()
        raise
    return cmd_console(args, opening=opening, said=said)


console = CliCommand("the Textual console: play a whole game from the keyboard",
                     run=_console, setup=_console_args, quick_start=True)


def _run_args(parser: argparse.ArgumentParser) -> None:
    from device.run import add_box_args

    add_box_args(parser)
    parser.add_argument("--web", nargs="?", const="0.0.0.0:8080", default=None,
                        metavar="ADDR:PORT",
                        help="also serve a live, read-only page for phones (default "
                        "0.0.0.0:8080; the address with its token shows as a QR code, F6); "
                        "or [web] listen in the --settings file. See docs/web.md")


def _run(args: argparse.Namespace) -> int:
    from referee.app import Relay, SessionOpening

    early = Relay()  # what the file says as it opens: shown once `referee run` is set up
    opening = SessionOpening(args, notify=early)  # (while the console's modules import)
    try:
        from ui.run import cmd_run
    except BaseException:
        opening.close()
        raise
    return cmd_run(args, opening=opening, early=early)


run = CliCommand("the console and the box together on one session (what scripts/run starts)",
                 run=_run, setup=_run_args, quick_start=True)
