"""The `referee` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from referee.errors import ConfigError


def _seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"--seed must be hex ({err})") from err
    if len(seed) != 32:
        raise argparse.ArgumentTypeError(
            f"--seed must be 32 bytes (64 hex digits), not {len(seed)}")
    return seed


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee", description="Tableside Referee: referees Gallery Grippers.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    headless = sub.add_parser("headless", help="the JSON-lines protocol on stdin/stdout")
    headless.add_argument("--db", metavar="PATH", help="SQLite file that keeps the games")
    headless.add_argument("--catalog", metavar="FILE", help="a catalog TOML file (cards, art)")
    headless.add_argument("--seed", metavar="HEX", type=_seed,
                          help="32-byte seed in hex for reproducible electronic dice")
    return parser


def cmd_headless(args: argparse.Namespace) -> int:
    from referee.catalog import load_catalog
    from referee.headless import serve
    from referee.session import Session

    if args.db:
        print("referee: --db needs the event store (issue #3), not built yet", file=sys.stderr)
        return 2
    session = Session(load_catalog(args.catalog), seed=args.seed)
    return serve(session)


COMMANDS = {"headless": cmd_headless}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except ConfigError as err:
        print(f"referee: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
