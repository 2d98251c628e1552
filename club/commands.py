"""`referee club`: the club process and what it holds (entry point in pyproject.toml).

``referee club --broker URL --db FILE [--web ADDR:PORT] [--secret FILE]`` collects; ``referee
club games|standings|export|provision ... --db FILE`` read or prepare the club's file without
the broker. Imports stay inside the functions so `referee --help` stays quick."""

from __future__ import annotations

from referee.cli import CliCommand


def _club(rest: list[str]) -> int:
    from club.cli import main

    return main(rest)


club = CliCommand("the club: collect every box's games from the MQTT broker, check them, "
                  "show every table and the standings (docs/club.md)", passthrough=_club)
