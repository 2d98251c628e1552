from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import Broker, running_broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    d = tmp_path / "broker"
    d.mkdir()
    with running_broker(d, boxes=("box-1", "box-2")) as b:
        yield b
