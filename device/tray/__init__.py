"""The optional USB/serial dice tray: protocol, driver, bridge to the session, simulator.

See docs/dice-tray-protocol.md. Typical wiring::

    driver = TrayDriver("/dev/dice-tray", on_status=show_status)
    bridge = TrayBridge(driver, deliver=post_to_loop, blocker=session_blocker)
    driver.start()
    ...
    bridge.expect("alice", "d100")   # the table is about to roll on the tray
"""

from device.tray.bridge import Expectation, HeldRoll, PhysicalRoll, TrayBridge
from device.tray.driver import DEFAULT_PATH, TrayDriver, open_serial
from device.tray.errors import TrayError, TrayProtocolError, TrayUnavailableError, TrayUsageError
from device.tray.link import StatusKind, TrayResult, TrayStatus, TrayTimings

__all__ = [
    "DEFAULT_PATH",
    "Expectation",
    "HeldRoll",
    "PhysicalRoll",
    "StatusKind",
    "TrayBridge",
    "TrayDriver",
    "TrayError",
    "TrayProtocolError",
    "TrayResult",
    "TrayStatus",
    "TrayTimings",
    "TrayUnavailableError",
    "TrayUsageError",
    "open_serial",
]
