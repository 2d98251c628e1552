"""Errors of the dice tray: one base, leaves that are builtins too."""

from __future__ import annotations

from referee.errors import DeviceError


class TrayError(DeviceError):
    """The dice tray failed or was asked something it cannot do."""


class TrayProtocolError(TrayError, ValueError):
    """A line from (or for) the tray breaks the protocol: framing, checksum, field or length."""


class TrayUsageError(TrayError, ValueError):
    """A caller passed a bad argument to the tray driver, bridge or simulator."""


class TrayUnavailableError(TrayError):
    """No dice tray is connected, so physical tray rolls cannot be expected now."""
