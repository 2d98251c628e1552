"""The `referee` command line. Each subcommand is one small function; front ends live in
their own packages and are imported only when their subcommand runs."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from referee.errors import ConfigError


def parse_seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"--seed must be hex ({err})") from err
    if len(seed) != 32:
        raise argparse.ArgumentTypeError(
            f"--seed must be 32 bytes (64 hex digits), not {len(seed)}")
    return seed


def cmd_headless(args: argparse.Namespace) -> int:
    from referee.app import session_from_args
    from referee.headless import serve

    return serve(session_from_args(args))


def cmd_console(args: argparse.Namespace) -> int:
    # The console lives in ui/ (Textual); referee never imports it statically (see
    # tests/referee/test_purity.py): it is looked up by name only when this subcommand runs.
    console = importlib.import_module("ui.app")
    code: int = console.cmd_console(args)
    return code


# name -> (help, add arguments, run). Front ends add their line here.
Setup = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


def _session_args(p: argparse.ArgumentParser) -> None:
    from referee.app import add_session_args

    add_session_args(p)


COMMANDS: dict[str, tuple[str, Setup, Run]] = {
    "headless": ("the JSON-lines protocol on stdin/stdout", _session_args, cmd_headless),
    "console": ("the Textual console: play a whole game from the keyboard", _session_args,
                cmd_console),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee", description="Tableside Referee: referees Gallery Grippers.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help_, setup, _) in COMMANDS.items():
        setup(sub.add_parser(name, help=help_, description=help_))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command][2](args)
    except ConfigError as err:
        print(f"referee: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
