"""Building a session for a front end: catalog, seed and (with --db) the event store."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from referee.catalog import load_catalog
from referee.session import Session
from referee.settings import load_settings

Notify = Callable[[str], None]


def _stderr(message: str) -> None:
    print(f"referee: {message}", file=sys.stderr)


def add_session_args(parser: argparse.ArgumentParser) -> None:
    """The options every front end shares: --db, --catalog, --seed."""
    from referee.cli import parse_seed

    parser.add_argument("--db", metavar="PATH", help="SQLite file that keeps the games")
    parser.add_argument("--catalog", metavar="FILE", help="a catalog TOML file (cards, art)")
    parser.add_argument("--seed", metavar="HEX", type=parse_seed,
                        help="32-byte seed in hex for reproducible electronic dice")
    parser.add_argument("--rules", metavar="FILE",
                        help="a settings TOML file whose [rules] table sets the house rules")


def open_session(*, db: str | None = None, catalog: str | None = None,
                 seed: bytes | None = None, rules: str | None = None,
                 notify: Notify = _stderr) -> Session:
    """The session a front end drives; `notify` tells the people at the table what happened
    (a resumed game, a damaged file moved aside)."""
    cat = load_catalog(catalog)
    house_rules = load_settings(rules) if rules else None
    if db:
        raise NotImplementedError("--db needs the event store (issue #3)")
    return Session(cat, seed=seed, house_rules=house_rules)


def session_from_args(args: argparse.Namespace, notify: Notify = _stderr) -> Session:
    return open_session(db=args.db, catalog=args.catalog, seed=args.seed,
                        rules=getattr(args, "rules", None), notify=notify)
