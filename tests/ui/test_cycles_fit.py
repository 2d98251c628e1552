"""Every value of every Cycle on each game's new-game form is shown whole at 80×24: a label
wider than its field loses its end ("‹ scandinavia (board to enter)" once lost its "›")."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from referee.session import Session
from tests.ui.conftest import keys
from ui.app import make_app
from ui.base import Cycle
from ui.screens.common import GameChooser

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_BOARDS", str(tmp_path / "boards"))  # no board entered yet


async def test_every_cycle_value_of_every_game_s_form_fits_its_field() -> None:
    app = make_app(Session(seed=bytes(range(32))))
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "f2")
        assert isinstance(app.screen, GameChooser)
        games = list(app.screen.query_one("#games").values)
        await keys(pilot, "escape")
        assert len(games) >= 3
        seen: dict[str, int] = {}
        for game in games:
            await keys(pilot, "f2")
            chooser = app.screen.query_one("#games")
            step = games.index(game) - games.index(chooser.values[chooser.highlighted or 0])
            await keys(pilot, *(["down"] * step if step > 0 else ["up"] * -step), "enter")
            await pilot.pause()
            cycles = list(app.screen.query(Cycle))
            assert cycles, game
            for cycle in cycles:
                room = cycle.content_size.width
                for label, _ in cycle.choices:
                    shown = f"‹ {label} ›"
                    assert cell_len(shown) <= room, (game, cycle.id, shown, room)
            seen[game] = len(cycles)
        assert len(seen) == len(games)
