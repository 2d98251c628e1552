"""The console when the proof of every entry, running beside it, finds the game file damaged:
as soon as the proof ends (before anyone presses anything) the damage is shown as a notice and
the screens show the fresh session (no game), as a start with that file would have; a healthy
file's proof ends unseen and the game goes on."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from referee.app import open_session
from tests.referee.conftest import SEED
from tests.referee.test_background_proof import Gate, damaged_game, made_file
from tests.ui.test_duplicate_cards import SMALL
from ui.app import make_app


@pytest.mark.parametrize("damaged", [True, False])
async def test_the_proof_beside_the_console_is_acted_on_as_soon_as_it_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damaged: bool) -> None:
    path = damaged_game(tmp_path) if damaged else made_file(tmp_path)
    gate = Gate(monkeypatch)  # the proof is held until released
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    app = make_app(session)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            gate.started.wait()
            # the game is shown from its snapshot while the proof runs
            assert session.state.phase.value != "no_game"
            ended = threading.Event()
            session.when_proven(ended.set)  # (after the console's own watcher)
            gate.release()
            assert ended.wait(timeout=60)
            await pilot.pause()  # the console's loop takes the news: no key pressed
            said = [str(n.message) for n in app._notifications]
            if damaged:
                assert any("is damaged" in line and "moved aside" in line for line in said)
                assert session.state.phase.value == "no_game"
            else:
                assert not said
                assert session.state.phase.value != "no_game"
                assert session.handle({"cmd": "state"})["ok"]
            assert type(app.screen_stack[0]) is app._base_class(session.state)
            assert session.store.proof is None  # type: ignore[union-attr]  (settled)
    finally:
        gate.release()
        session.close()
