"""A dice tray simulator on a pseudo-terminal, with faults on demand.

It runs the reference firmware (:class:`~device.tray.firmware.TrayFirmware`) behind the
master end of a pty; the driver opens the slave end like a real tray. Faults: garbage lines,
bad checksums, dropped lines, a partial line, a reset, an unplug (the master is closed, so
the host's reads fail like a pulled cable) and a replug (a new pty; the ``link`` symlink is
repointed, as udev does). Used by tests, by the benchmark, by laptops with no tray, and by
makers comparing their firmware's lines with these.

Run it as ``referee tray-sim`` (or ``python -m device.tray.sim``); the commands it reads are
in :mod:`device.tray.simcommands` (``help`` lists them).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import random
import select
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterable
from typing import TextIO

from device.tray.errors import TrayError, TrayUsageError
from device.tray.firmware import TrayFirmware
from device.tray.simcommands import COMMANDS, run_command


class TraySimulator:
    """The simulated tray: a firmware, a pty and a thread moving bytes between them.

    Args:
        link: a symlink to (re)point at the pty's slave, as udev would (None: no link).
        fd: use this already-open master fd instead of creating a pty (no replug then).
        firmware: the tray logic (default :class:`TrayFirmware` with d6, d10, d100).
        clock: monotonic seconds.
        seed: seeds the junk and the boot ids (reproducible runs).
        on_line: called ``(line, time)`` for every line actually written (benchmarks).
    """

    def __init__(
        self, *, link: str | None = None, fd: int | None = None,
        firmware: TrayFirmware | None = None, clock: Callable[[], float] = time.monotonic,
        seed: int | None = None, on_line: Callable[[bytes, float], None] | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self.firmware = firmware or TrayFirmware(rng=random.Random(self._rng.getrandbits(64)))
        self.link = link
        self.on_line = on_line
        self._given_fd = fd
        self._clock = clock
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._plugged = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_path: str | None = None
        self._drop = 0
        self._corrupt = 0
        self.sent_lines = 0
        self.dropped_lines = 0
        self.overflowed_lines = 0
        self.flood_lines = 0
        self._flood: tuple[float, bool, float] = (0.0, False, 0.0)  # rate, junk, since
        self._flood_due = 0
        self._thread: threading.Thread | None = None
        self._flood_thread: threading.Thread | None = None

    # --- lifecycle --------------------------------------------------------------------------

    def start(self) -> TraySimulator:
        """Plug in (create the pty, point the link), power on, start moving bytes."""
        with self._cond:
            self._plug()
            self.firmware.power_on(self._clock())
            self._flush()
        self._thread = threading.Thread(target=self._run, name="tray-sim", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._plugged.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._cond:
            self._unplug()

    def __enter__(self) -> TraySimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what the table and the tests do ----------------------------------------------------

    def roll(self, die: str, faces: Iterable[int], *, rolling_first: bool = True) -> int:
        """Dice thrown and settled showing ``faces``; returns the roll id."""
        with self._cond:
            now = self._clock()
            if rolling_first:
                self.firmware.start_roll(die, now)
            roll_id = self.firmware.settle(die, tuple(faces), now)
            self._flush()
            return roll_id

    def rolling(self, die: str) -> int:
        with self._cond:
            roll_id = self.firmware.start_roll(die, self._clock())
            self._flush()
            return roll_id

    def crooked(self, die: str) -> int:
        with self._cond:
            roll_id = self.firmware.crooked(die, self._clock())
            self._flush()
            return roll_id

    def garbage(self, count: int = 1) -> None:
        """Random junk lines: binary, printable, frame-like with a wrong checksum."""
        with self._cond:
            for _ in range(count):
                size = self._rng.randint(1, 80)
                junk = bytes(self._rng.choice(b"N0123 ROLL=*\x00\xff\r\x1bxyz")
                             for _ in range(size))
                self._write(junk.replace(b"\n", b"") + b"\n")

    def overlong(self) -> None:
        with self._cond:
            self._write(b"N1 HB st=idle " + b"x" * 300 + b" *0000\n")

    def corrupt_next(self, count: int = 1) -> None:
        """The next ``count`` frames go out with a wrong checksum."""
        with self._cond:
            self._corrupt += count

    def drop_next(self, count: int = 1) -> None:
        """The next ``count`` frames are never sent."""
        with self._cond:
            self._drop += count

    def clear_faults(self) -> None:
        """Forget pending ``drop_next`` and ``corrupt_next`` counts."""
        with self._cond:
            self._drop = self._corrupt = 0

    def flood(self, rate: float, *, junk: bool = False) -> None:
        """Send ``rate`` extra lines a second (0 stops): heartbeats from a firmware stuck in
        a loop, or (``junk``) frame-like lines with a bad checksum. Lines the host does not
        read in time are dropped here, as a USB device drops them (``overflowed_lines``)."""
        if not 0 <= rate <= 1_000_000:
            raise TrayUsageError(f"flood takes 0..1000000 lines a second, got {rate}")
        with self._cond:
            self._flood = (float(rate), junk, time.monotonic())
            self._flood_due = 0
            thread = self._flood_thread
            if rate and (thread is None or not thread.is_alive()):
                self._flood_thread = threading.Thread(
                    target=self._flood_run, name="tray-flood", daemon=True)
                self._flood_thread.start()

    def partial(self, text: bytes) -> None:
        """Write a line cut short (no newline)."""
        with self._cond:
            self._write(text.replace(b"\n", b""))

    def reset(self) -> None:
        """The tray reboots: new boot id, BOOT frame; its arm and unacked reports are lost."""
        with self._cond:
            self.firmware.power_on(self._clock())
            self._flush()

    def unplug(self) -> None:
        """Pull the cable: close the master end (the host's next read fails), remove the link."""
        with self._cond:
            self._unplug()

    def replug(self, *, power_cycle: bool = True) -> None:
        """Plug in again on a new pty (the link follows). USB replug powers the tray up anew."""
        with self._cond:
            if self._given_fd is not None:
                raise TrayUsageError("a simulator on a given fd cannot be replugged")
            self._unplug()
            self._plug()
            if power_cycle:
                self.firmware.power_on(self._clock())
            self._flush()

    @property
    def plugged(self) -> bool:
        return self._plugged.is_set() and not self._stop.is_set()

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` (checked under the simulator's lock) or the deadline."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # --- internals --------------------------------------------------------------------------

    def _plug(self) -> None:
        if self._given_fd is not None:
            self._master, self.slave_path = self._given_fd, None
        else:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo: our own lines must not come back to us
            self.slave_path = os.ttyname(self._slave)
            if self.link is not None:
                tmp = f"{self.link}.{os.getpid()}.tmp"
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                os.symlink(self.slave_path, tmp)
                os.replace(tmp, self.link)
        os.set_blocking(self._master, False)
        self._plugged.set()

    def _unplug(self) -> None:
        self._plugged.clear()
        if self.link is not None and self.slave_path is not None:
            # As udev does: the name goes with the device, so it never points at a pty
            # number the kernel hands to somebody else meanwhile.
            with contextlib.suppress(OSError):
                if os.readlink(self.link) == self.slave_path:
                    os.unlink(self.link)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._plugged.wait(timeout=1.0):
                continue
            with self._cond:
                fd = self._master
            if fd is None:
                continue
            try:
                ready, _, _ = select.select([fd], [], [], 0.05)
                data = os.read(fd, 4096) if ready else b""
            except OSError as exc:
                if exc.errno == errno.EIO:  # a given fd whose slave nobody holds open yet
                    self._stop.wait(0.1)
                elif exc.errno not in (errno.EBADF, errno.EAGAIN):  # EBADF: unplug() raced us
                    raise
                continue
            with self._cond:
                if self._master != fd:
                    continue
                now = self._clock()
                if data:
                    self.firmware.receive(data, now)
                self.firmware.tick(now)
                self._flush()
                self._cond.notify_all()

    def _flood_run(self) -> None:
        """``rate`` lines a second on average, written whenever the port has room (as a USB
        device does when the host polls); the lines due while it has none are dropped."""
        while not self._stop.is_set():
            fd = self._master
            try:
                room = fd is not None and bool(select.select([], [fd], [], 0.005)[1])
            except (OSError, ValueError):  # unplugged meanwhile
                room = False
            with self._cond:
                rate, junk, since = self._flood
                if not rate:
                    return
                due = int((time.monotonic() - since) * rate) - self._flood_due
                self._flood_due += max(due, 0)
                batch = min(due, 1000) if room else 0
                self.overflowed_lines += max(due - batch, 0)
                if batch > 0:
                    if junk:
                        line = b"N1 HB st=idle boot=%s *0000\n" % self.firmware.boot.encode()
                        lines = [line] * batch
                    else:
                        self.firmware.chatter(batch)
                        lines = self.firmware.take_output()
                    self._write_bulk(lines)
            if due <= 0 or not room:
                self._stop.wait(0.001)

    def _write_bulk(self, lines: list[bytes]) -> None:
        """One write for many lines; what does not fit is dropped (a line may be cut)."""
        fd = self._master
        if fd is None:
            return
        data = b"".join(lines)
        try:
            written = os.write(fd, data)
        except OSError:  # BlockingIOError: the buffer is full; others: unplugged meanwhile
            written = 0
        whole = data.count(b"\n", 0, written)
        self.flood_lines += whole
        self.overflowed_lines += len(lines) - whole

    def _flush(self) -> None:
        for line in self.firmware.take_output():
            if self._drop > 0:
                self._drop -= 1
                self.dropped_lines += 1
                continue
            if self._corrupt > 0:
                self._corrupt -= 1
                star = line.rindex(b"*")
                bad = (int(line[star + 1: star + 5], 16) ^ 0x0101) & 0xFFFF
                line = line[: star + 1] + b"%04X\n" % bad
            self._write(line)
        self._cond.notify_all()

    def _write(self, data: bytes) -> None:
        fd = self._master
        if fd is None:
            return
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
        except BlockingIOError:  # nobody reading: a USB device drops it too
            self.overflowed_lines += 1
            return
        except OSError:
            return
        self.sent_lines += 1
        if self.on_line is not None:
            self.on_line(data, self._clock())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee tray-sim", description="A simulated dice tray on a pseudo-terminal.",
        epilog="Commands (stdin or --script):\n" + COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--link", help="symlink to point at the pty (e.g. /tmp/dice-tray)")
    parser.add_argument("--fd", type=int, help="use this open pty master fd, create no pty")
    parser.add_argument("--script", help="run commands from this file ('-' = stdin), then exit")
    parser.add_argument("--dice", default="d6,d10,d100", help="dice the tray reads")
    parser.add_argument("--fw", default="1.0.0", help="firmware version it reports")
    parser.add_argument("--name", default="simtray", help="tray name it reports")
    parser.add_argument("--seed", type=int, help="seed for boot ids and junk")
    return parser


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """Run the simulator. Interactive unless ``--script``; returns the exit status."""
    args = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    try:
        firmware = TrayFirmware(dice=tuple(args.dice.split(",")), fw=args.fw, name=args.name,
                                rng=random.Random(args.seed))
        sim = TraySimulator(link=args.link, fd=args.fd, firmware=firmware, seed=args.seed)
        sim.start()
    except (TrayError, OSError) as exc:
        print(f"tray-sim: {exc}", file=sys.stderr)
        return 2
    where = sim.slave_path or f"fd {args.fd}"
    print(f"tray simulator on {where}" + (f" (link {args.link})" if args.link else ""),
          file=out, flush=True)
    scripted = args.script is not None
    try:
        if scripted and args.script != "-":
            with open(args.script, encoding="utf-8") as handle:
                lines: Iterable[str] = handle.read().splitlines()
        else:
            lines = stdin or sys.stdin
        for line in lines:
            if line.strip().lower() in ("quit", "exit"):
                break
            if line.lstrip().startswith("#"):
                continue
            try:
                reply = run_command(sim, line)
            except TrayError as exc:
                print(f"error: {exc}", file=out, flush=True)
                if scripted:
                    return 1
                continue
            if reply:
                print(reply, file=out, flush=True)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"tray-sim: {exc}", file=sys.stderr)
        return 2
    finally:
        sim.close()  # removes the link too
    return 0


if __name__ == "__main__":
    sys.exit(main())
