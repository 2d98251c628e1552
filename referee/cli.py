"""The `referee` command line. Each subcommand is one small function; front ends live in
their own packages and are imported only when their subcommand runs."""

from __future__ import annotations

from referee import dataclass_code

# Before any dataclass is made (the rules' types, Textual's): their methods' code from the
# table of code compiled at install, not compiled again at every start (docs/performance.md).
dataclass_code.install()

import argparse  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from referee.errors import ConfigError, StoreError  # noqa: E402
from referee.plugins import entry_points  # noqa: E402


def cmd_headless(args: argparse.Namespace) -> int:
    from referee.app import session_from_args
    from referee.headless import serve

    session = session_from_args(args)
    try:
        return serve(session)
    finally:
        session.close()


@dataclass(frozen=True)
class CliCommand:
    """A subcommand. Front ends (device/, ui/) publish theirs as entry points in the group
    `tableside_referee.commands`, so `referee` never imports them (design.md's one rule).

    Attributes:
        help: one line for `referee --help`.
        run: runs the parsed arguments; returns the exit status.
        setup: adds the subcommand's arguments.
        passthrough: instead of setup/run, takes the rest of argv itself (its own --help).
        quick_start: set up and start with Python's cyclic garbage collector paused, as
            everything made meanwhile (modules, the session, the first screen) lives on and
            collecting would only scan it again and again. The command turns the collector
            back on once it is up (`ui.app.run_app`: after the console's first frame); it is
            on again when the command returns, however it ends.
    """

    help: str
    run: Callable[[argparse.Namespace], int] | None = None
    setup: Callable[[argparse.ArgumentParser], None] | None = None
    passthrough: Callable[[list[str]], int] | None = None
    quick_start: bool = False


def _session_args(p: argparse.ArgumentParser) -> None:
    from referee.app import add_session_args

    add_session_args(p)


def _records(name: str, help_: str) -> CliCommand:
    """A game-file subcommand (referee/records.py, imported when it runs)."""
    def setup(p: argparse.ArgumentParser) -> None:
        from referee import records

        getattr(records, f"setup_{name}")(p)

    def run(args: argparse.Namespace) -> int:
        from referee import records

        result: int = getattr(records, f"run_{name}")(args)
        return result

    return CliCommand(help_, run, setup)


BUILTIN: dict[str, CliCommand] = {
    "headless": CliCommand("the JSON-lines protocol on stdin/stdout", cmd_headless,
                           _session_args),
    "games": _records("games", "list the games in a game file"),
    "verify": _records("verify",
                       "check a game's log and re-derive its dice from the revealed seed"),
    "export": _records("export", "write a game's log as JSON lines, CSV or a BG Stats play"),
}


def commands(name: str | None = None) -> dict[str, CliCommand]:
    """The built-in subcommands and every installed front end's; with `name`, only that one if
    it is there (what `commands()[name]` would be), without importing the other front ends'
    command modules (~1 ms of a start, issue 41), else all of them."""
    if name in BUILTIN:
        return {name: BUILTIN[name]}
    found = dict(BUILTIN) if name is None else {}
    for ep in entry_points(group="tableside_referee.commands", name=name):
        command = ep.load()
        if not isinstance(command, CliCommand):
            raise TypeError(f"entry point {ep.name} is not a CliCommand")
        found.setdefault(ep.name, command)
    return found if name is None or found else commands()


def build_parser(found: dict[str, CliCommand] | None = None,
                 only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with `only`, just that one gets its arguments (the
    others are still listed): setting one up may import its front end, which the command
    being run does not need (`referee console` need not load the box's modules)."""
    parser = argparse.ArgumentParser(
        prog="referee", description="Tableside Referee: referees board games at the table "
        "(Gallery Grippers, The A.R.T. Project, The Gallerist, and any game installed beside "
        "them).")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in (found or commands()).items():
        p = sub.add_parser(name, help=command.help, description=command.help,
                           add_help=command.passthrough is None)
        if command.setup is not None and only in (None, name):
            command.setup(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    found = commands(argv[0] if argv and not argv[0].startswith("-") else None)
    passthrough = found[argv[0]].passthrough if argv and argv[0] in found else None
    if passthrough is not None:
        return passthrough(argv[1:])
    chosen = argv[0] if argv and argv[0] in found else None
    quick = chosen is not None and found[chosen].quick_start
    if quick:
        gc.disable()
    try:
        # A subcommand named: its parser alone (the others' parsers are only for `referee
        # --help` and a name that is not one of them; building them costs a start ~1 ms).
        args = build_parser({chosen: found[chosen]} if chosen else found,
                            only=chosen).parse_args(argv)
        run = found[args.command].run
        if run is None:
            raise SystemExit(f"referee: {args.command} cannot run")
        return run(args)
    except (ConfigError, StoreError) as err:
        print(f"referee: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if quick:
            gc.enable()
        dataclass_code.save()  # what this start compiled, if Python may write bytecode here
