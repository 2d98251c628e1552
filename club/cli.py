"""The `referee club` command line (club.md)."""

from __future__ import annotations

import argparse
import sys

from referee.errors import ConfigError, StoreError

SUBCOMMANDS = ("games", "standings", "export", "provision", "revoke")


def _serve_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="referee club", description="Collect every box's games from the club's MQTT "
        "broker into one file, check each game's chain and dice, and serve the club's page. "
        f"Also: referee club {{{','.join(SUBCOMMANDS)}}} --db FILE (see each one's --help).")
    p.add_argument("--broker", required=True, metavar="URL",
                   help="the broker: mqtt://HOST:PORT or mqtts://HOST:PORT")
    p.add_argument("--db", required=True, metavar="FILE", help="the club's SQLite file")
    p.add_argument("--web", nargs="?", const="0.0.0.0:8090", default=None,
                   metavar="ADDR:PORT", help="serve the club's page (default 0.0.0.0:8090)")
    p.add_argument("--secret", metavar="FILE",
                   help="a file holding the club's username:password for the broker")
    p.add_argument("--club", default="club", metavar="NAME",
                   help="the club's name in the topics (default club)")
    return p


def main(argv: list[str]) -> int:
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from club.records import main as run_records

            return run_records(argv[0], argv[1:])
        args = _serve_parser().parse_args(argv)
        from club.receiver import serve

        return serve(args)
    except (ConfigError, StoreError) as err:
        print(f"referee club: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
