"""Entering the real mission boards at the console (issue 24, item 4): roads, Egypt's
directions, Scandinavia's threads and city effects, Rio's free roads, city names in any case;
the board kept beside the game file that `--db` names; the form's mission label says at once
that the board is entered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events

from referee.app import open_session
from referee.games.art_project.catalog import load_catalog
from referee.session import Session
from tests.ui.conftest import keys, typed
from tests.ui.test_art_console import choose_art, pick_mission
from ui.app import make_app
from ui.base import Cycle
from ui.games.art_project.boards import (
    BoardEntryScreen,
    board_file,
    boards_dir,
    parse_cities,
    parse_roads,
    parse_space,
)
from ui.games.art_project.setup import ArtNewGameScreen
from ui.games.art_project.table import ArtTableScreen

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SEED = bytes(range(32))
SMALL = (80, 24)
NORDIC = "Oslo, Bergen=film, Malmo=music, Turku=book, Narvik=painting, Lund=sculpture"


@pytest.fixture
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFEREE_BOARDS", str(tmp_path / "boards"))
    return tmp_path / "boards"


def label_of(app: Any, mission: str) -> str:
    cycle = app.screen.query_one("#mission", Cycle)
    return next(text for text, value in cycle.choices if value == mission)


async def enter(pilot: Any, app: Any, mission: str, *fields: str, spaces: str) -> None:
    await pick_mission(pilot, app, mission)
    await keys(pilot, "ctrl+b")
    assert isinstance(app.screen, BoardEntryScreen)
    for text in fields:
        await keys(pilot, *typed(text), "enter")
    # the track in one burst of keys, as a fast typist's or a paste: every space lands whole
    for space in spaces.split("|"):
        for char in space:
            app.post_message(events.Key("space" if char == " " else char, char))
        app.post_message(events.Key("enter", "\r"))
    await pilot.pause()
    await keys(pilot, "ctrl+s")


async def test_scandinavia_is_entered_with_threads_and_effects_and_labelled_at_once(
        boards: Path) -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await choose_art(pilot, app)
        assert label_of(app, "scandinavia") == "Scandinavia (board to enter)"
        await enter(pilot, app, "scandinavia", NORDIC, "oslo",
                    "Oslo-Bergen:red, oslo-MALMO:beige, Oslo-Turku, Oslo-Narvik, Malmo-Lund",
                    "Bergen=lose_resources, malmo=agents, Turku=lose_clue, Narvik=gain_radio",
                    spaces="5 1|6 1|7 2|8 2|9 3")
        assert isinstance(app.screen, ArtNewGameScreen), app.screen
        assert label_of(app, "scandinavia") == "Scandinavia"  # at once, not after a restart
        kept = board_file("scandinavia")
        assert kept is not None and kept.parent == boards
        m = load_catalog(kept).missions["scandinavia"]
        assert m.start == "Oslo"
        assert [(x.threat, x.ally_cost) for x in m.track] == [(5, 1), (6, 1), (7, 2), (8, 2),
                                                            (9, 3)]
        assert {(r.a, r.b, r.thread) for r in m.roads or ()} == {
            ("Oslo", "Bergen", "red"), ("Oslo", "Malmo", "beige"), ("Oslo", "Turku", None),
            ("Oslo", "Narvik", None), ("Malmo", "Lund", None)}
        assert {c.name: c.effect for c in m.cities} == {
            "Oslo": None, "Bergen": "lose_resources", "Malmo": "agents",
            "Turku": "lose_clue", "Narvik": "gain_radio", "Lund": None}
        await keys(pilot, *typed("Ann"), "enter", *typed("Ben"), "ctrl+s")
        assert isinstance(app.screen, ArtTableScreen)
        state = s.ruleset.state_json(s.state)
        assert state["mission"] == "scandinavia" and state["map"] == "checked"


async def test_a_road_mark_the_board_does_not_take_is_said_and_nothing_kept(
        boards: Path) -> None:
    s = Session(seed=SEED)
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await choose_art(pilot, app)
        await enter(pilot, app, "japan", "Tokyo, Kyoto=painting", "Tokyo",
                    "Tokyo-Kyoto:red", spaces="10 1")
        assert isinstance(app.screen, BoardEntryScreen)
        said = str(app.screen.query_one("#error").render())
        assert "Roads" in said and "no mark" in said
        assert board_file("japan") is None


def test_egypt_rio_and_hyphenated_names_parse_as_the_catalog_reads_them() -> None:
    names = ["Cairo", "Abu-Simbel", "Giza"]
    assert parse_roads("cairo-abu-simbel:North, Giza-Cairo", names, "egypt") == [
        {"a": "Cairo", "b": "Abu-Simbel", "dir": "north"}, ["Giza", "Cairo"]]
    assert parse_roads("Cairo-Giza:free", names, "rio") == [
        {"a": "Cairo", "b": "Giza", "free": True}]
    with pytest.raises(ValueError, match="City-City"):
        parse_roads("Cairo-Luxor", names, "egypt")
    with pytest.raises(ValueError, match=":north or :south or :level"):
        parse_roads("Cairo-Giza:up", names, "egypt")
    assert parse_space("12 3 book", rio=True) == {"threat": 12, "ally_cost": 3,
                                                  "symbol": "book"}
    with pytest.raises(ValueError, match="threat"):
        parse_space("12", rio=False)


async def test_with_db_the_board_is_kept_beside_the_game_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_BOARDS", raising=False)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "default" / "games.sqlite"))
    game_file = tmp_path / "games" / "g.sqlite"
    game_file.parent.mkdir()
    s = open_session(db=game_file, seed=SEED)
    assert boards_dir(s) == game_file.parent / "boards"
    app = make_app(s)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await choose_art(pilot, app)
            await enter(pilot, app, "japan", "Tokyo, Kyoto=painting", "Tokyo", "",
                        spaces="10 1")
            assert isinstance(app.screen, ArtNewGameScreen)
            assert board_file("japan", s) == game_file.parent / "boards" / "japan.toml"
            assert not (tmp_path / "default").exists()  # not the default data folder
    finally:
        s.close()


@pytest.mark.parametrize("board", sorted({m.board for m in load_catalog(None).missions.values()}))
def test_each_boards_examples_are_one_board_that_its_own_parsers_accept(board: str) -> None:
    """The fields' examples are of the board being entered (no Japanese city on Egypt's
    form), and they agree: the start is one of the example's cities, each road joins two of
    them, and the board's own parsers read each example."""
    screen = BoardEntryScreen(next(n for n, m in load_catalog(None).missions.items()
                                   if m.board == board))
    cities, start, roads = screen._example()
    names = [c["name"] for c in parse_cities(cities)]
    assert start in names
    assert parse_roads(roads, names, board)  # (it refuses a road to a city not listed)
    if board != "japan":
        assert "Tokyo" not in cities + start + roads
