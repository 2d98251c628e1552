"""The simulator's command language: what a person (or a script) types to drive the tray."""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from device.tray.errors import TrayError, TrayUsageError
from device.tray.firmware import TrayFirmware
from device.tray.messages import DICE, Hello


class Simulator(Protocol):
    """What the commands drive: `device.tray.sim.TraySimulator` (which runs them; typed by
    what they use, so this module needs no import of the simulator's)."""

    firmware: TrayFirmware
    slave_path: str | None
    sent_lines: int
    dropped_lines: int
    flood_lines: int
    overflowed_lines: int

    @property
    def plugged(self) -> bool: ...
    def roll(self, die: str, faces: Iterable[int], *, rolling_first: bool = True) -> int: ...
    def rolling(self, die: str) -> int: ...
    def crooked(self, die: str) -> int: ...
    def garbage(self, count: int = 1) -> None: ...
    def overlong(self) -> None: ...
    def corrupt_next(self, count: int = 1) -> None: ...
    def drop_next(self, count: int = 1) -> None: ...
    def flood(self, rate: float, *, junk: bool = False) -> None: ...
    def partial(self, text: bytes) -> None: ...
    def reset(self) -> None: ...
    def unplug(self) -> None: ...
    def replug(self, *, power_cycle: bool = True) -> None: ...
    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool: ...

COMMANDS = """\
roll DIE VALUE       a die settles: roll d6 4 | roll d100 57 | roll d100 100 (00+0)
roll d100 TENS UNITS the two percentile d10 faces: roll d100 5 7
rolling DIE          dice are moving (the result follows with roll)
crooked DIE          the die came to rest unreadable
garbage [N]          N lines of random junk (default 1)
overlong             one line far over the 120-byte cap
badcrc [N]           the next N frames go out with a wrong checksum
drop [N]             the next N frames are never sent
flood RATE [junk]    RATE extra lines/s (heartbeats, or bad-checksum junk); flood 0 stops
partial TEXT         write TEXT with no newline (a line cut short)
reset                the tray reboots (new boot id, BOOT frame, arm and resends lost)
unplug               close the pty master (the host sees the cable pulled)
replug [--keep-boot] a new pty (link repointed); the tray powers up again unless --keep-boot
wait SECONDS         pause (scripts)
wait-armed [SECS]    wait until the host has armed the tray (scripts; default 10 s)
wait-host [SECS]     wait until the host has said HELLO (scripts; default 10 s)
status               what the tray knows
help | quit"""


def faces_for(die: str, numbers: list[int]) -> tuple[int, ...]:
    """Faces from what a person types: ``d100 57`` -> (5, 7), ``d100 100`` -> (0, 0),
    ``d100 5 7`` -> (5, 7), ``d10 10`` -> (0,), ``d6 4`` -> (4,)."""
    if die not in DICE:
        raise TrayUsageError(f"unknown die {die!r} (known: {', '.join(DICE)})")
    count, low, high = DICE[die]
    if len(numbers) == count:
        faces = tuple(numbers)
    elif die == "d100" and len(numbers) == 1 and 0 <= numbers[0] <= 100:
        faces = divmod(numbers[0] % 100, 10)
    elif die == "d10" and len(numbers) == 1 and numbers[0] == 10:
        faces = (0,)
    else:
        raise TrayUsageError(f"{die} takes {'one value' if count == 1 else 'a value or 2 faces'}")
    if die == "d10" and faces == (10,):
        faces = (0,)
    if any(not low <= f <= high for f in faces):
        raise TrayUsageError(f"{die} faces must be {low}..{high}, got {numbers}")
    return faces


def run_command(sim: Simulator, line: str) -> str:
    """Carry out one command line (see :data:`COMMANDS`); returns what to print.

    Raises:
        TrayUsageError: an unknown command or bad arguments.
    """
    words = shlex.split(line)
    if not words:
        return ""
    cmd, args = words[0].lower(), words[1:]
    try:
        if cmd == "roll" and args:
            faces = faces_for(args[0], [int(a) for a in args[1:]])
            return f"roll {sim.roll(args[0], faces)}: {args[0]} faces {faces}"
        if cmd in ("rolling", "crooked") and len(args) == 1:
            return f"roll {getattr(sim, cmd)(args[0])}: {args[0]} {cmd}"
        counted = {"garbage": sim.garbage, "badcrc": sim.corrupt_next, "drop": sim.drop_next}
        if cmd in counted and len(args) <= 1:
            count = int(args[0]) if args else 1
            if not 1 <= count <= 10000:
                raise TrayUsageError(f"{cmd} takes a count 1..10000")
            counted[cmd](count)
            return f"{cmd} x{count}"
        if cmd == "flood" and len(args) in (1, 2) and args[1:] in ([], ["junk"]):
            sim.flood(float(args[0]), junk=args[1:] == ["junk"])
            return f"flood {float(args[0]):g} lines/s" + (" of junk" if args[1:] else "")
        if cmd == "partial" and args:
            sim.partial(" ".join(args).encode("ascii"))
            return "partial line written"
        simple = {"overlong": sim.overlong, "reset": sim.reset, "unplug": sim.unplug}
        if cmd in simple and not args:
            simple[cmd]()
            return f"{cmd}: done" + (f" (boot {sim.firmware.boot})" if cmd == "reset" else "")
        if cmd == "replug" and args in ([], ["--keep-boot"]):
            sim.replug(power_cycle=not args)
            return f"replugged on {sim.slave_path} (boot {sim.firmware.boot})"
        if cmd == "wait" and len(args) == 1:
            time.sleep(max(0.0, float(args[0])))
            return ""
        if cmd in ("wait-armed", "wait-host") and len(args) <= 1:
            fw = sim.firmware
            test = ((lambda: fw.armed is not None) if cmd == "wait-armed"
                    else lambda: any(isinstance(m, Hello) for m in fw.host_messages))
            if not sim.wait_for(test, float(args[0]) if args else 10.0):
                raise TrayUsageError(f"{cmd}: timed out")
            return f"{cmd}: ok"
        if cmd == "status" and not args:
            fw = sim.firmware
            return (f"{'plugged' if sim.plugged else 'unplugged'} {sim.slave_path} boot {fw.boot}"
                    f" armed {fw.armed} unacked {fw.unacked} sent {sim.sent_lines}"
                    f" dropped {sim.dropped_lines} flood {sim.flood_lines}"
                    f" overflowed {sim.overflowed_lines} bad host lines {fw.bad_host_lines}")
        if cmd == "help":
            return COMMANDS
    except ValueError as exc:
        if isinstance(exc, TrayError):
            raise
        raise TrayUsageError(f"{line.strip()!r}: {exc}") from None
    raise TrayUsageError(f"unknown command or wrong arguments: {line.strip()!r} (try help)")
