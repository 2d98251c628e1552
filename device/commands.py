"""The `referee` subcommands that the hardware front ends provide (entry points in
pyproject.toml, group `tableside_referee.commands`). Imports stay inside the functions so
`referee --help` stays quick."""

from __future__ import annotations

from referee.cli import CliCommand


def _tray_sim(rest: list[str]) -> int:
    from device.tray.sim import main

    return main(rest)


tray_sim = CliCommand(
    "a simulated dice tray on a pseudo-terminal (for tests, demos and makers)",
    passthrough=_tray_sim)
