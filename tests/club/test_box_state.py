"""`referee box --club` says the club's state on its terminal and OLED, once, as a state."""

from __future__ import annotations

import time
from pathlib import Path

from tests.club.broker import Broker
from tests.club.test_faults import BlackHole
from tests.device.test_box_terminal import box_on_pty, ended, read_until


def test_the_box_says_the_broker_is_offline_and_plays_on(broker: Broker,
                                                         tmp_path: Path) -> None:
    hole = BlackHole()
    proc, master = box_on_pty("--db", str(tmp_path / "box.sqlite"), "--club",
                              f"mqtt://127.0.0.1:{hole.port}", "--club-box", "box-1",
                              "--club-secret", str(broker.secret("box-1")))
    try:
        out = read_until(master, lambda t: "Club offline" in t, time.monotonic() + 60)
        assert "Club offline" in out, out[-2000:]
    finally:
        err = ended(proc, master)
        hole.close()
    assert err.count("Club offline") == 1, err  # a state, said once (not per try)
