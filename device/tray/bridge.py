"""Between the tray driver and a front end: an expected tray roll becomes a physical roll.

A front end calls :meth:`TrayBridge.expect` when the table is about to roll a real die for a
player. When the tray reports that roll, the bridge hands a :class:`PhysicalRoll` to the
front end's ``deliver`` callback (on the driver's thread: post it onto your own loop), which
turns it into the game's roll command (``roll.roll_kwargs()`` are its arguments) for the
session. A roll that arrives while the session is waiting on some other decision is
*held*, not applied, until the front end calls :meth:`TrayBridge.release`. Rolls nobody
expected go to ``on_unexpected`` and are never usable.

The bridge needs little from the driver (:class:`ArmableTray`) and nothing from the referee
but a ``blocker`` callable, so it can be tested, and wired, on its own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from device.tray.errors import TrayUnavailableError, TrayUsageError
from device.tray.link import TrayResult
from device.tray.messages import DICE

log = logging.getLogger(__name__)


class ArmableTray(Protocol):
    """What the bridge uses of :class:`device.tray.driver.TrayDriver`."""

    on_result: Callable[[TrayResult], None] | None
    on_unexpected: Callable[[TrayResult], None] | None

    @property
    def connected(self) -> bool: ...

    @property
    def flooding(self) -> bool: ...

    @property
    def dropped_lines(self) -> int: ...

    def arm(self, die: str) -> int: ...

    def disarm(self, arm_id: int | None = None) -> None: ...


@dataclass(frozen=True)
class Expectation:
    """The roll the table is about to make on the tray."""

    player: str
    die: str
    arm_id: int


@dataclass(frozen=True)
class PhysicalRoll:
    """A tray result for the roll the table expected, ready to become a ``Roll`` command."""

    player: str
    die: str
    value: int
    faces: tuple[int, ...]
    roll_id: int
    source: str = "physical"
    via: str = "tray"

    def roll_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``referee.games.gallery_grippers.commands.Roll``."""
        return {"die": self.die, "value": self.value, "source": self.source, "via": self.via}


@dataclass(frozen=True)
class HeldRoll:
    """A physical roll kept back because the session was waiting on something else."""

    roll: PhysicalRoll
    reason: str


Blocker = Callable[[str, str], "str | None"]
"""``blocker(player, die)`` -> None if the session can take that roll now, else what it is
waiting on instead (e.g. ``"alice must choose ditch or keep (GG-10)"``). Called on the
driver's thread: it must only read an immutable snapshot of the session's state."""


class TrayBridge:
    """Turns expected tray rolls into physical rolls for a front end. Thread-safe.

    Args:
        tray: the driver (anything :class:`ArmableTray`); the bridge sets its ``on_result``
            and ``on_unexpected`` callbacks to its own.
        deliver: receives each usable :class:`PhysicalRoll`, exactly once.
        blocker: see :data:`Blocker`; default: nothing ever blocks.
        on_unexpected: receives rolls nobody expected (show "roll not asked for; ignored").
        on_held: receives each :class:`HeldRoll` when it is held (show why).
    """

    def __init__(
        self, tray: ArmableTray, *, deliver: Callable[[PhysicalRoll], None],
        blocker: Blocker | None = None,
        on_unexpected: Callable[[TrayResult], None] | None = None,
        on_held: Callable[[HeldRoll], None] | None = None,
    ) -> None:
        self._tray = tray
        self._deliver = deliver
        self._blocker = blocker or (lambda player, die: None)
        self._on_unexpected = on_unexpected
        self._on_held = on_held
        self._lock = threading.Lock()
        self._expecting: Expectation | None = None
        self._held: list[HeldRoll] = []
        tray.on_result = self.on_tray_result
        tray.on_unexpected = self.on_tray_unexpected

    @property
    def available(self) -> bool:
        """True if a tray is connected, so physical tray rolls can be expected."""
        return self._tray.connected

    @property
    def flooding(self) -> bool:
        """True while the tray floods its port: lines are dropped unread, so a roll made now
        may not show (it is resent, but the table should roll again if it does not come)."""
        return self._tray.flooding

    def describe(self) -> str:
        """One line for a status bar."""
        if not self.available:
            return "no dice tray: electronic dice"
        if self.flooding:
            return (f"dice tray flooding ({self._tray.dropped_lines} lines dropped):"
                    " if a roll does not show, roll again")
        exp = self.expecting
        return f"dice tray: roll {exp.die} for {exp.player}" if exp else "dice tray ready"

    @property
    def expecting(self) -> Expectation | None:
        with self._lock:
            return self._expecting

    @property
    def held(self) -> tuple[HeldRoll, ...]:
        with self._lock:
            return tuple(self._held)

    def expect(self, player: str, die: str) -> Expectation:
        """The table is about to roll ``die`` for ``player`` on the tray.

        Replaces an earlier expectation that has not been rolled yet.

        Raises:
            TrayUsageError: an empty player name or an unknown die, or one the tray cannot read.
            TrayUnavailableError: no tray is connected (use electronic dice and say so).
        """
        if not isinstance(player, str) or not player.strip():
            raise TrayUsageError(f"expect() needs a player name, got {player!r}")
        if die not in DICE:
            raise TrayUsageError(f"the tray rolls {', '.join(DICE)}, not {die!r}")
        if not self._tray.connected:
            raise TrayUnavailableError("no dice tray connected: use electronic dice")
        with self._lock:
            arm_id = self._tray.arm(die)
            self._expecting = Expectation(player, die, arm_id)
            return self._expecting

    def cancel(self) -> None:
        """The table will not roll on the tray after all."""
        with self._lock:
            exp, self._expecting = self._expecting, None
        if exp is not None:
            self._tray.disarm(exp.arm_id)

    def release(self, *, force: bool = False) -> list[PhysicalRoll]:
        """Deliver the held rolls the session can now take (all of them if ``force``)."""
        with self._lock:
            candidates = list(self._held)
        ready = [item for item in candidates
                 if force or self._blocker(item.roll.player, item.roll.die) is None]
        with self._lock:  # a concurrent discard_held() wins: deliver only what is still held
            ready = [item for item in ready if any(item is h for h in self._held)]
            self._held = [h for h in self._held if not any(h is item for item in ready)]
        for item in ready:
            self._deliver(item.roll)
        return [item.roll for item in ready]

    def discard_held(self) -> list[HeldRoll]:
        """Drop the held rolls (the table decided to roll again)."""
        with self._lock:
            dropped, self._held = self._held, []
        return dropped

    # --- from the driver's thread -----------------------------------------------------------

    def on_tray_result(self, result: TrayResult) -> None:
        """A settled roll the tray says was armed: deliver it, hold it, or flag it."""
        with self._lock:
            exp = self._expecting
            if exp is not None and result.arm_id == exp.arm_id and result.die == exp.die:
                self._expecting = None
            else:
                exp = None
        if exp is None:  # armed for an expectation since replaced or cancelled
            self.on_tray_unexpected(replace(result, expected=False))
            return
        roll = PhysicalRoll(exp.player, exp.die, result.value, result.faces, result.roll_id)
        reason = self._blocker(exp.player, exp.die)
        if reason is None:
            self._deliver(roll)
            return
        held = HeldRoll(roll, reason)
        with self._lock:
            self._held.append(held)
        log.info("dice tray: %s's %s roll %s held: %s", roll.player, roll.die, roll.value, reason)
        if self._on_held is not None:
            self._on_held(held)

    def on_tray_unexpected(self, result: TrayResult) -> None:
        """A roll nobody armed for: report it, never use it."""
        log.info("dice tray: unexpected %s roll %s ignored", result.die, result.value)
        if self._on_unexpected is not None:
            self._on_unexpected(result)
