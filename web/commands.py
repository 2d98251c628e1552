"""The `referee` subcommands the web front end provides (entry points in pyproject.toml).
Imports stay inside the functions so `referee --help` stays quick."""

from __future__ import annotations

import argparse

from referee.cli import CliCommand


def _report_args(parser: argparse.ArgumentParser) -> None:
    from web.report import setup

    setup(parser)


def _report(args: argparse.Namespace) -> int:
    from web.report import run

    return run(args)


report = CliCommand("the luck report: each player's dice against a fair die (chi-square), "
                    "for a game or all games in a file; --png draws the charts",
                    run=_report, setup=_report_args)
