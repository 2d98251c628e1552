"""Physical dice from the tray for a front end: when a tray is connected, a roll the table
is about to make waits for the tray; without one (or when the table says so), the box rolls.

The front end builds the command once the value is known (`make(roll)`), so the same code
path serves the tray (a physical roll, provenance ``tray``) and electronic dice (``None``:
the session rolls). A tray result arrives on the driver's thread; the front end posts it onto
its own loop and calls `TrayDice.arrived` there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from referee.games.gallery_grippers.commands import Command, Roll
from referee.session import Session


class Bridge(Protocol):
    """What `device.tray.bridge.TrayBridge` offers (kept small for tests)."""

    @property
    def available(self) -> bool: ...

    def expect(self, player: str, die: str) -> Any: ...

    def cancel(self) -> None: ...

    def release(self, *, force: bool = False) -> list[Any]: ...


@dataclass(frozen=True)
class Waiting:
    """A command waiting for its die from the tray."""

    player: str
    die: str
    make: Callable[[Roll | None], Command]
    answers: tuple[str, ...]  # the pending decisions this command answers
    ack: bool = False
    # Several dice for one command (a battle): given this die's roll, the next die to wait
    # for (None: this was the last, `make` completes the command).
    then: Callable[[Roll], Waiting | None] | None = None
    # The die id this waits for, when the command rolls several (None: its one die).
    id: str | None = None


class TrayDice:
    """The tray side of a front end's rolls. All methods run on the front end's loop, except
    `blocker`, which the bridge calls from the driver's thread (it only reads)."""

    def __init__(self, session: Session, bridge: Bridge | None) -> None:
        self.session = session
        self.bridge = bridge
        self.waiting: Waiting | None = None

    @property
    def available(self) -> bool:
        return self.bridge is not None and self.bridge.available

    def wait_for(self, waiting: Waiting) -> bool:
        """Arm the tray for `waiting`; False if there is no tray, or if the die is kept on the
        table from an undone step, rolled by the box or read by the tray (the box rolls: it
        reuses the kept value, and a tray value would be refused). The tray is asked only for
        a die it never read."""
        if self.bridge is None or not self.bridge.available:
            return False
        if self.kept(waiting):
            return False
        from device.tray.errors import TrayError

        try:
            self.bridge.expect(waiting.player, waiting.die)
        except TrayError:
            return False
        self.waiting = waiting
        return True

    def kept(self, waiting: Waiting) -> bool:
        """Whether `waiting`'s die (its `id`, or any of its command's) is kept on the table."""
        kept = self.session.kept_for(waiting.make(None))
        return any(waiting.id is None or k.id == waiting.id for k in kept)

    def kept_ids(self, command: Any) -> set[str]:
        """The die ids of `command` whose values an undo left on the table (the box reuses
        them: the tray is not asked for them)."""
        return {k.id for k in self.session.kept_for(command)}

    def give_up(self) -> Waiting | None:
        """The table rolls without the tray after all: the waiting command, to roll now."""
        waiting, self.waiting = self.waiting, None
        if waiting is not None and self.bridge is not None:
            self.bridge.cancel()
        return waiting

    def arrived(self, player: str, die: str, value: int) -> tuple[Waiting, Roll] | None:
        """A tray result for (player, die): the command it completes, or None if nothing
        waits for it (the front end says so; the roll is not used)."""
        w = self.waiting
        if w is None or (w.player, w.die) != (player, die):
            return None
        self.waiting = None
        return w, Roll.physical(die, value, via="tray")

    def blocker(self, player: str, die: str) -> str | None:
        """Why the session cannot take a tray roll now (a decision is open), or None."""
        w = self.waiting
        answers = w.answers if w is not None else ()
        for p in self.session.state.pending:
            if p.decision not in answers:
                who = p.player or "the table"
                return f"{who} must answer '{p.decision}' first"
        return None

    def settled(self) -> None:
        """After each accepted command: hand over rolls that were held for a decision."""
        if self.bridge is not None:
            self.bridge.release()
