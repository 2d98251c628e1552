"""The `referee` subcommands that the hardware front ends provide (entry points in
pyproject.toml, group `tableside_referee.commands`). Imports stay inside the functions so
`referee --help` stays quick."""

from __future__ import annotations

import argparse

from referee.cli import CliCommand


def _tray_sim(rest: list[str]) -> int:
    from device.tray.sim import main

    return main(rest)


tray_sim = CliCommand(
    "a simulated dice tray on a pseudo-terminal (for tests, demos and makers)",
    passthrough=_tray_sim)


def _box_args(parser: argparse.ArgumentParser) -> None:
    from device.run import add_box_args

    add_box_args(parser)


def _box(args: argparse.Namespace) -> int:
    from device.run import cmd_box

    return cmd_box(args)


box = CliCommand("button-only play: four buttons and the OLED (simulated off a Pi)",
                 run=_box, setup=_box_args, quick_start=True)  # (collecting from its loop on)
