"""The console when the proof of every entry, running beside it, finds the game file damaged:
the first command is refused, the damage is shown as a notice, and the screens show the fresh
session (no game), as a start with that file would have."""

from __future__ import annotations

from pathlib import Path

from referee.app import open_session
from referee.ruleset import Undo
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream
from tests.referee.test_background_proof import damaged_copy
from tests.ui.test_duplicate_cards import SMALL
from ui.app import make_app


async def test_damage_found_after_the_console_opened_is_shown_and_the_game_starts_afresh(
        tmp_path: Path) -> None:
    made = tmp_path / "made" / "g.sqlite"
    session = open_session(db=made, seed=SEED, notify=lambda _: None)
    for request in long_stream(300):  # a snapshot after entry 256
        assert session.handle(request)["ok"]
    session.close()
    (tmp_path / "play").mkdir()
    path = damaged_copy(made, tmp_path / "play")
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    app = make_app(session)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            assert session.state.phase.value != "no_game"
            refusal = app.send(Undo())  # would write the resumed game
            assert refusal is not None and "damaged" in str(refusal)
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert any("is damaged" in line and "moved aside" in line for line in said), said
            assert session.state.phase.value == "no_game"
            assert type(app.screen_stack[0]) is app._base_class(session.state)
    finally:
        session.close()

