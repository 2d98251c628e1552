"""The `referee` subcommands the Textual console provides (entry points in pyproject.toml)."""

from __future__ import annotations

import argparse

from referee.cli import CliCommand


def _console_args(parser: argparse.ArgumentParser) -> None:
    from referee.app import add_session_args

    add_session_args(parser)


def _console(args: argparse.Namespace) -> int:
    from ui.app import cmd_console

    return cmd_console(args)


console = CliCommand("the Textual console: play a whole game from the keyboard",
                     run=_console, setup=_console_args)
