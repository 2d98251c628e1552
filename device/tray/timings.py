"""The host side's intervals and read budget (tests shrink them)."""

from __future__ import annotations

from dataclasses import dataclass

from device.tray.errors import TrayUsageError


@dataclass(frozen=True)
class TrayTimings:
    """Every interval of the host side, in seconds (tests shrink them), and the read budget.

    ``flood_lines_per_s`` and ``flood_bytes_per_s`` bound what is parsed (about five times
    the most a working tray sends: 1 heartbeat, 8 unacknowledged reports resent twice, an
    ARMED or two a second; a 115200-baud UART cannot even reach the byte rate). Over budget,
    input is dropped unread for ``flood_window`` seconds, and the driver reads only every
    ``flood_pause`` seconds meanwhile (see :mod:`device.tray.flood`)."""

    read_timeout: float = 0.1
    """Only for ports without a file descriptor (``loop://``): how long one read blocks.
    A real tray's port is slept on with ``poll`` until something is due (``next_due``)."""
    hello_interval: float = 0.5
    hello_attempts: int = 4
    host_heartbeat: float = 2.0
    silence_timeout: float = 3.5
    arm_resend: float = 0.5
    backoff_initial: float = 0.25
    backoff_max: float = 8.0
    garbage_report_interval: float = 1.0
    write_timeout: float = 0.5
    flood_lines_per_s: float = 100.0
    flood_bytes_per_s: float = 16384.0
    flood_window: float = 1.0
    flood_pause: float = 0.25

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise TrayUsageError(f"TrayTimings.{name} must be a positive number, got {value!r}")
        if self.backoff_max < self.backoff_initial:
            raise TrayUsageError("TrayTimings.backoff_max must be >= backoff_initial")
