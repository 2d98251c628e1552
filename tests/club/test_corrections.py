"""The club's page marks every die corrected after its result in a game's row, as the box's
entries join up (issue 39: corrections are public): a correction taken back with its step is
dropped, and an old club file without the column still reads."""

from __future__ import annotations

from pathlib import Path

from club.outbox import Outbox
from club.page import body
from club.store import ClubStore
from tests.referee.test_corrections_public import corrected_game


def received(tmp_path: Path) -> tuple[ClubStore, int]:
    box = tmp_path / "box.sqlite"
    step = corrected_game(box)
    out = Outbox(box, club="club", box="box-1")
    try:
        items, _ = out.batch(out.first_unacked(), 1000)
    finally:
        out.close()
    store = ClubStore(tmp_path / "club.sqlite")
    for item in items:
        assert store.receive("box-1", item.payload).outcome == "stored"
    return store, step


def test_the_club_s_game_row_names_the_correction_that_stands(tmp_path: Path) -> None:
    store, step = received(tmp_path)
    try:
        [game] = store.games()
        assert game.corrections == [f"Ann's d6 4 → 6 (step {step})"]  # (2 → 3: undone)
        page = body(store)
        assert (f"<div class='corrected'>1 die corrected after its result: Ann's d6 4 → 6 "
                f"(step {step})</div>") in page.replace("&#x27;", "'")
    finally:
        store.close()
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        assert reader.games()[0].corrections == [f"Ann's d6 4 → 6 (step {step})"]
    finally:
        reader.close()


def test_a_club_file_from_before_reads_without_corrections(tmp_path: Path) -> None:
    import sqlite3

    store, _ = received(tmp_path)
    store.close()
    conn = sqlite3.connect(tmp_path / "club.sqlite")
    conn.execute("ALTER TABLE games DROP COLUMN corrections")
    conn.commit()
    conn.close()
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        assert reader.games()[0].corrections == []
        assert "corrected" not in body(reader)
    finally:
        reader.close()


def test_club_games_names_the_correction(tmp_path: Path) -> None:
    from tests.referee.storehelp import referee

    store, step = received(tmp_path)
    store.close()
    out = referee("club", "games", "--db", str(tmp_path / "club.sqlite"))
    assert out.returncode == 0, out.stderr
    assert f"1 die corrected after its result: Ann's d6 4 → 6 (step {step})" in out.stdout
