"""Building a session for a front end: catalog, seed and (with --db) the event store."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee import games
from referee.chain import fingerprint
from referee.errors import BadRequest, CatalogError, FileDamaged, StoreError
from referee.lazylog import Logger
from referee.plugins import entry_points
from referee.ruleset import Ruleset, Settings
from referee.session import Session

if TYPE_CHECKING:  # (a game in memory opens no file: SQLite and the store are imported by
    # open_session when it is given one, ~3 ms of a start, issue 41)
    from referee.store import Clock, EventStore, GameRecord

log = Logger(__name__)  # (logging imported when it first logs: referee/lazylog.py)

Notify = Callable[[str], None]
DEFAULT_DB = "~/.local/share/tableside-referee/games.sqlite"


def _stderr(message: str) -> None:
    print(f"referee: {message}", file=sys.stderr)


def default_db_path() -> Path:
    """$REFEREE_DB, else ~/.local/share/tableside-referee/games.sqlite."""
    return Path(os.environ.get("REFEREE_DB") or DEFAULT_DB).expanduser()


def parse_seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"--seed must be hex ({err})") from err
    if len(seed) != 32:
        raise argparse.ArgumentTypeError(
            f"--seed must be 32 bytes (64 hex digits), not {len(seed)}")
    return seed


@dataclass(frozen=True)
class SessionAddon:
    """Something a front end runs beside its session (the club's publisher, `club/`), found
    through the entry points of group `tableside_referee.session_addons` (the core imports
    none by name): `setup` adds its options to every command that plays, `attach` starts it
    on an open session (returning what stops it, or None when its options ask for nothing)
    and raises `ConfigError` saying what is wrong. Its state is said through `status`."""

    setup: Callable[[argparse.ArgumentParser], None]
    attach: Callable[[Session, argparse.Namespace, Notify], Callable[[], None] | None]


def session_addons() -> list[SessionAddon]:
    found = []
    for ep in entry_points(group="tableside_referee.session_addons"):
        addon = ep.load()
        if not isinstance(addon, SessionAddon):
            raise TypeError(f"entry point {ep.name} is not a SessionAddon")
        found.append(addon)
    return found


def add_session_args(parser: argparse.ArgumentParser, *, durable: bool = False) -> None:
    """The options every front end shares: --db, --catalog, --seed, --rules.

    With `durable` (the console and the box), games are kept on disk by default: in --db, else
    in $REFEREE_DB or ~/.local/share/tableside-referee/games.sqlite; `--memory` opts out.
    Without it (headless), no --db means in memory, as the protocol says; `--memory` is
    accepted there too, so the flags agree across commands. --db and --memory exclude each
    other."""
    where = parser.add_mutually_exclusive_group()
    if durable:
        where.add_argument("--db", metavar="PATH",
                           help="SQLite file that keeps the games (default: $REFEREE_DB or "
                           f"{DEFAULT_DB})")
        where.add_argument("--memory", action="store_true",
                           help="keep nothing on disk (a pulled plug loses the game)")
    else:
        where.add_argument("--db", metavar="PATH",
                           help="SQLite file that keeps the games (default: none, in memory)")
        where.add_argument("--memory", action="store_true",
                           help="keep nothing on disk (the default without --db; a pulled plug "
                           "loses the game)")
    parser.add_argument("--catalog", metavar="FILE", help="a catalog TOML file (cards, art)")
    parser.add_argument("--seed", metavar="HEX", type=parse_seed,
                        help="32-byte seed in hex for reproducible electronic dice")
    parser.add_argument("--rules", metavar="FILE",
                        help="a settings TOML file whose [rules] table sets the house rules")
    parser.set_defaults(durable=durable)
    for addon in session_addons():
        addon.setup(parser)


def open_session(*, db: str | os.PathLike[str] | None = None, catalog: str | None = None,
                 seed: bytes | None = None, rules: str | None = None,
                 notify: Notify = _stderr, clock: Clock | None = None) -> Session:
    """The session a front end drives; `notify` tells the people at the table what happened
    (a resumed game, a damaged file moved aside, saved commands found missing).

    With `db`, the session takes the file's writer lock (another referee writing it is
    refused with a `StoreError` naming its process), the file is checked (a damaged one is
    moved aside and a clean one started; acknowledged commands that are missing are reported
    before anything else) and its latest game resumed exactly: turn, pending decisions, kept
    dice and the dice stream's position. `seed` applies to games started from now on. Raises
    `StoreError` when the file cannot be used, and `CatalogError` when a game in progress was
    started with another catalog than `catalog`.
    """
    ruleset = games.default()
    cat = ruleset.load_catalog(catalog)
    house_rules = ruleset.load_settings(rules) if rules else None
    if not db:
        return Session(cat, seed=seed, house_rules=house_rules)
    from referee.store import EventStore, utc_now

    path = Path(db).expanduser()
    store = EventStore.open(path, clock=utc_now if clock is None else clock, notify=notify,
                            background=True)
    try:
        try:
            session = _open(store, path, ruleset=ruleset, cat=cat, catalog=catalog,
                            seed=seed, house_rules=house_rules, notify=notify)
        except Exception:
            if store.proof is None:
                raise
            # Read before its proof: if the file is damaged, that is what start-up says (the
            # file moved aside, a new one started), as it did before it resumed anything.
            try:
                store.settle()
            except FileDamaged:
                return Session(cat, seed=seed, store=store, house_rules=house_rules)
            raise
    except BaseException:
        store.close()
        raise
    # The game is playable; the proof of every entry runs beside it from now on, and the
    # first command that writes waits for it (Session.settle, docs/store.md).
    store.prove()
    return session


def _open(store: EventStore, path: Path, *, ruleset: Ruleset, cat: Any, catalog: str | None,
          seed: bytes | None, house_rules: Settings | None, notify: Notify) -> Session:
    """The session on an opened store: its latest game resumed, or none."""
    latest = store.latest_game()
    if latest is None:
        return Session(cat, seed=seed, store=store, house_rules=house_rules)
    names = ", ".join(latest.players)
    sha = fingerprint(ruleset.catalog_json(cat))
    game = None
    if latest.game != ruleset.id:  # another game: played with the catalog it stored
        try:
            played = games.find(latest.game)
        except BadRequest as err:
            raise StoreError(f"game {latest.id} ({names}) in {path} is of a game this "
                             f"referee does not know: {err}") from err
        game = (played, played.catalog_from_json(latest.catalog))
    elif latest.catalog_sha256 != sha:
        if latest.status == "playing":
            raise CatalogError(
                f"game {latest.id} ({names}) in {path} is being played with another "
                f"catalog (sha256 {latest.catalog_sha256[:12]}...) than this one "
                f"(sha256 {sha[:12]}...); start the referee with the "
                "catalog that game began with", path=catalog or "<default catalog>")
        notify(f"Game {latest.id} ({names}) was played with another catalog; it is kept "
               f"in {path}. New games use this one.")
        return Session(cat, seed=seed, store=store, house_rules=house_rules)
    session = _resume(store, latest, cat=cat, seed=seed, house_rules=house_rules,
                      game=game)
    if latest.status == "playing":
        notify(f"Resumed game {latest.id} ({names}) after command {len(session.log)}.")
    return session


def _resume(store: EventStore, latest: GameRecord, *, cat: Any, seed: bytes | None,
            house_rules: Settings | None, game: tuple[Ruleset, Any] | None) -> Session:
    """The latest game, from its newest snapshot (then only the entries after it are read
    and folded) or, without one that fits, from its whole log."""
    snapshot, stored = store.resume_from_snapshot(latest.id)
    kwargs: dict[str, Any] = {"seed": bytes.fromhex(latest.seed), "catalog": cat,
                              "store": store, "fixed_seed": seed, "house_rules": house_rules,
                              "game": game}
    if snapshot is not None:
        try:
            return Session.resume([e.log_entry() for e in stored], snapshot=snapshot,
                                  **kwargs)
        except ValueError as err:
            log.warning("game %s: its snapshot does not fit (%s); folding its whole log",
                        latest.id, err)
    entries = [e.log_entry() for e in store.resume(latest.id)]
    return Session.resume(entries, **kwargs)


def durable_by_default(args: argparse.Namespace) -> bool:
    """Whether a command without --db keeps its games in the default file (console, box)."""
    return bool(getattr(args, "durable", False)) and not args.memory


def session_from_args(args: argparse.Namespace, notify: Notify = _stderr,
                      status: Notify | None = None) -> Session:
    """The session the arguments ask for, with every add-on they ask for attached (stopped
    when the session closes); `status` is where the add-ons say their state (default:
    `notify`)."""
    return _with_addons(_open_from_args(args, notify), args, status or notify)


def _db_from_args(args: argparse.Namespace) -> Path | str | None:
    db: Path | str | None = args.db
    if db is None and durable_by_default(args):
        db = default_db_path()
        db.parent.mkdir(parents=True, exist_ok=True)
    return db


def _open_from_args(args: argparse.Namespace, notify: Notify,
                    db: Path | str | None = None) -> Session:
    return open_session(db=db if db is not None else _db_from_args(args),
                        catalog=args.catalog, seed=args.seed,
                        rules=getattr(args, "rules", None), notify=notify)


def _with_addons(session: Session, args: argparse.Namespace, status: Notify) -> Session:
    try:
        for addon in session_addons():
            stop = addon.attach(session, args, status)
            if stop is not None:
                session.on_close(stop)
    except BaseException:
        session.close()
        raise
    return session


class Relay:
    """Where a session being opened says things (`SessionOpening`'s `notify`) before the
    front end that will show them is up: kept until `pass_on` names where they go from
    then on, which gets the lines kept so far (each line goes one way or the other)."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self._to: Notify | None = None
        self._lock = threading.Lock()

    def __call__(self, text: str) -> None:
        with self._lock:
            to = self._to
            if to is None:
                self.kept.append(text)
                return
        to(text)

    def pass_on(self, to: Notify) -> list[str]:
        with self._lock:
            self._to = to
            return list(self.kept)


class SessionOpening:
    """`session_from_args` begun on a thread of its own, so that opening a game file (the
    lock, the schema of a new file, the resumed game; mostly waiting on the disk, eleven
    syncs for a new file) overlaps a front end importing its user interface (Textual, about
    150 ms of Python here, longer on a Pi) instead of following it (issue 41). `session()`
    waits for it and attaches the add-ons there, as `session_from_args` would; an error
    opening the file is raised there, as it would have been. In memory there is nothing to
    wait for: the session is made by `session()` itself.

    What opening a file imports (the stores, the game's rules and catalog, every session
    add-on) is imported before the thread starts, so the two threads never import the same
    modules at once; a resumed game of another kind imports its rules on the thread (the
    console imports those only later, for its screens)."""

    def __init__(self, args: argparse.Namespace, notify: Notify = _stderr) -> None:
        self.args = args
        self._notify = notify
        self._db = _db_from_args(args)
        self._session: Session | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if self._db is not None:
            games.default()  # (the default game's rules and catalog module, imported here)
            import referee.store  # noqa: F401  (as open_session imports it, on this thread)
            session_addons()
            self._thread = threading.Thread(target=self._open, name="session-open",
                                            daemon=True)
            self._thread.start()

    def _open(self) -> None:
        try:
            self._session = _open_from_args(self.args, self._notify, self._db)
        except BaseException as err:  # (raised again by session(), on the caller's thread)
            self._error = err

    def session(self, status: Notify | None = None) -> Session:
        """The opened session with its add-ons (waiting for the file if need be)."""
        if self._thread is None:
            return session_from_args(self.args, self._notify, status)
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._session is not None
        session, self._session = self._session, None
        return _with_addons(session, self.args, status or self._notify)

    def close(self) -> None:
        """Give up on it (the front end could not start): the file is let go."""
        if self._thread is not None:
            self._thread.join()
        if self._session is not None:
            self._session.close()
            self._session = None
