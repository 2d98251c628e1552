from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club.receiver import Receiver
from club.store import ClubStore
from tests.club.broker import CLUB, READER, Broker, running_broker, wait_for


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    d = tmp_path / "broker"
    d.mkdir()
    with running_broker(d, boxes=("box-1", "box-2")) as b:
        yield b


@pytest.fixture
def club(broker: Broker, tmp_path: Path) -> Iterator[Receiver]:
    store = ClubStore(tmp_path / "club.sqlite")
    receiver = Receiver(store, club=CLUB, url=broker.url,
                        secret=(READER, broker.passwords[READER]))
    order: list[tuple[str, int, int]] = []
    receive = store.receive

    def recording(box: str, payload: Any) -> Any:
        got = receive(box, payload)
        if got.outcome == "stored":
            order.append((box, payload["game"], payload["seq"]))
        return got

    store.receive = recording  # type: ignore[method-assign]
    receiver.order = order  # type: ignore[attr-defined]
    receiver.start()
    wait_for(receiver.connected.is_set, 10, "the club connected")
    yield receiver
    receiver.stop()
    store.close()
