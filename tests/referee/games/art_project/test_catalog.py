"""The catalog (a board's numbers as data, never guessed), house-rule files, and the
ruleset's queries: legal actions, the state before a game, undo in words, bad requests."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app import open_session
from referee.errors import BadRequest, CatalogError, SettingsError
from referee.games.art_project import RULESET
from referee.games.art_project.catalog import (
    Mission,
    catalog_from_json,
    default_catalog,
    parse_catalog,
)
from referee.games.art_project.settings import ArtRules, load_settings
from referee.session import Session
from tests.referee.games.art_project.helpers import Game
from tests.referee.games.playing import resumes_and_verifies

GOOD = """colours = ["red", "blue"]
[[missions]]
id = "m"
start = "A"
cities = [{ name = "A" }, { name = "B", symbol = "film" }]
roads = [["A", "B"]]
track = [{ threat = 10, ally_cost = 1 }]
"""


def test_the_built_in_catalog_invents_no_number_for_the_real_boards() -> None:
    cat = default_catalog()
    assert set(cat.missions) >= {"japan", "egypt", "usa", "scandinavia", "polynesia", "rio"}
    for real in ("japan", "egypt", "usa", "scandinavia", "polynesia", "rio"):
        m = cat.missions[real]
        assert (m.cities, m.track, m.roads) == ((), (), None) and m.board == real
        assert "cities" in m.missing() and "track" in m.missing()
    assert cat.faces is None  # the dice faces are not in the rulebook either
    test = cat.missions["test-board"]
    assert [s.threat for s in test.track] == [10, 11, 12, 13, 14, 15, 16]
    assert [s.ally_cost for s in test.track] == [1, 1, 2, 2, 3, 3, 4]
    assert len(test.roads or ()) == 8
    assert RULESET.catalog_from_json(RULESET.catalog_json(cat)).missions == cat.missions


@pytest.mark.parametrize(("change", "line", "field"), [
    (("threat = 10", "threat = -1"), 7, "missions[0].track[0].threat"),
    (("threat = 10", 'threat = "x"'), 7, "missions[0].track[0].threat"),
    (('["A", "B"]', '["A", "C"]'), 6, "missions[0].roads[0]"),
    (('start = "A"', 'start = "Z"'), 4, "missions[0].start"),
    (('symbol = "film"', 'symbol = "dance"'), 5, "missions[0].cities[1].symbol"),
    (('id = "m"', 'id = "m"\nsize = 3'), 2, "missions[0]"),
    (('{ name = "B"', '{ name = "A"'), 5, "missions[0].cities[1].name"),
])
def test_a_broken_catalog_names_file_line_and_field(change: tuple[str, str], line: int,
                                                     field: str) -> None:
    with pytest.raises(CatalogError) as err:
        parse_catalog(GOOD.replace(*change), "board.toml")
    assert err.value.field == field and err.value.path == "board.toml"
    assert err.value.line == line, str(err.value)
    assert str(err.value).startswith(f"board.toml:{line}: {field}: ")


def test_new_game_reads_a_catalog_once_and_a_bad_one_is_bad_catalog(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    session = Session(seed=bytes(32))
    answer = session.handle({"cmd": "new_game", "game": "art-project", "catalog": str(good),
                             "mission": "m", "difficulty": "easy", "players": ["Ann", "Ben"]})
    assert answer["ok"], answer
    started = answer["events"][0]
    assert started["mission"]["start"] == "A" and started["catalog"]["colours"] == ["red",
                                                                                    "blue"]
    good.write_text("broken")  # never read again: resume folds the recorded event
    again = Session.resume(list(session.log), seed=session.seed, ruleset=session.ruleset)
    assert again.state == session.state
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("threat = 10", "threat = 100"))
    refused = session.handle({"cmd": "new_game", "game": "art-project", "catalog": str(bad),
                              "mission": "m", "difficulty": "easy", "players": ["Ann"],
                              "abandon": True})
    assert refused["error"]["code"] == "bad_catalog" and "bad.toml:7" in refused["error"][
        "message"]
    trusted = Session(seed=bytes(32))
    no_roads = tmp_path / "trusted.toml"
    no_roads.write_text(GOOD.replace('roads = [["A", "B"]]\n', ""))
    state = trusted.handle({"cmd": "new_game", "game": "art-project", "catalog": str(no_roads),
                            "mission": "m", "difficulty": "easy", "players": ["Ann", "Ben"]})
    assert state["state"]["map"] == "trusted"


def test_house_rules_from_a_file_and_their_errors(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[rules]\ndeck_empty = "reshuffle"\nartwork_token_limit = 8\n')
    assert load_settings(path) == ArtRules(deck_empty="reshuffle", artwork_token_limit=8)
    path.write_text('[rules]\n\nbattle_needs_agents = "yes"\n')
    with pytest.raises(SettingsError) as err:
        load_settings(path)
    assert err.value.line == 3 and "ART-19" in str(err.value)
    with pytest.raises(SettingsError):
        ArtRules.from_overrides({"egypt_level_road_fuel": 2})
    with pytest.raises(SettingsError):
        ArtRules.from_overrides({"tiebreak": "rps"})  # Gallery Grippers', not ours
    assert len(ArtRules().describe()) == 19


@pytest.mark.parametrize("request_", [
    {"cmd": "hall_of_fame"}, {"cmd": "move", "player": "Ann"},
    {"cmd": "move", "player": "Ann", "to": "Film", "hat": 1},
    {"cmd": "move", "player": "Ann", "to": "Film", "health": -1},
    {"cmd": "battle", "city": "Film", "leader": "Ann", "rolls": {"Ann": "six"}},
    {"cmd": "play_card", "player": "Ann", "clues": ["film", "book", "music"]},
    {"cmd": "extra_draw", "player": "Ann", "pay": "gold"}, [1, 2], "text",
])
def test_malformed_requests_are_bad_requests(request_: object) -> None:
    with pytest.raises(BadRequest):
        RULESET.parse(request_)


def test_legal_actions_are_what_decide_accepts_and_undo_says_what_it_takes_back() -> None:
    g = Game(["Ann", "Ben"])
    assert {a["cmd"] for a in RULESET.legal_actions(g.state, "Ann")} == {"draw",
                                                                         "extra_draw"}
    g.phase("B")
    moves = {a["to"] for a in RULESET.legal_actions(g.state, "Ann") if a["cmd"] == "move"}
    assert moves == {"Film", "Sculpture"}
    assert {"cmd": "end_phase"} in RULESET.legal_actions(g.state, None)
    assert RULESET.undo_words({"cmd": "battle", "city": "Film", "leader": "Ann"}, []) == (
        "Undo the battle in Film (Ann).")
    # A pending decision's option by the table's words, never its id (found by
    # tests/test_machine_words.py's walk: "Undo the choice of c1."); other options as they are.
    assert RULESET.undo_words({"cmd": "choose", "choice": "c1"}, []) == (
        "Undo the choice of card 1.")
    assert RULESET.undo_words({"cmd": "choose", "choice": "c1+c3"}, []) == (
        "Undo the choice of cards 1 and 3.")
    assert RULESET.undo_words({"cmd": "choose", "choice": "fuel", "player": "Ben"}, []) == (
        "Undo the choice of fuel (Ben).")
    blank = RULESET.state_json(RULESET.initial_state(default_catalog()))
    assert (blank["phase"], blank["over"], blank["result"]) == ("no_game", False, None)
    assert blank["next"].startswith("Start a game")


# ---- issue 39: every number a catalog may hold round-trips (0 included) --------------------

_NUMBER = st.integers(min_value=0, max_value=99)


@st.composite
def _numbers(draw: st.DrawFn) -> dict[str, object]:
    return {"track": draw(st.lists(st.tuples(_NUMBER, _NUMBER), min_size=1, max_size=20)),
            # (at most 40 agent tokens in the box: a setup placing more is refused)
            "agents": draw(st.lists(st.one_of(st.none(), st.integers(0, 19)), min_size=2,
                                    max_size=2)),
            "markers": draw(st.one_of(st.none(), st.integers(min_value=1, max_value=99))),
            "faces": draw(st.one_of(st.none(), st.lists(_NUMBER, min_size=2, max_size=20)))}


def _catalog_text(n: dict[str, Any]) -> str:
    cities = ", ".join(f'{{ name = "{name}"' + (", symbol = \"film\"" if name == "B" else "")
                       + ("" if agents is None else f", agents = {agents}") + " }"
                       for name, agents in zip(("A", "B"), n["agents"], strict=True))
    track = ", ".join(f"{{ threat = {t}, ally_cost = {a} }}" for t, a in n["track"])
    return ('colours = ["red", "blue"]\n'
            + ("" if n["faces"] is None else f"dice = {{ faces = {n['faces']} }}\n")
            + f'[[missions]]\nid = "m"\nstart = "A"\ncities = [{cities}]\n'
            + 'roads = [["A", "B"]]\n' + f"track = [{track}]\n"
            + ("" if n["markers"] is None else f"markers = {n['markers']}\n"))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(numbers=_numbers())
def test_any_number_a_catalog_holds_round_trips_through_new_game_record_and_resume(
        tmp_path: Path, numbers: dict[str, Any]) -> None:
    """Issue 39: a track space with threat or ally cost 0 crashed new_game (internal_error):
    the recorded mission dropped values equal to False, and 0 is one."""
    path = tmp_path / "c.toml"
    path.write_text(_catalog_text(numbers))
    parsed = parse_catalog(path.read_text(), str(path))
    db = Path(tempfile.mkdtemp(dir=tmp_path)) / "games.sqlite"
    session = open_session(db=db, seed=bytes(32), notify=lambda _: None)
    answer = session.handle({"cmd": "new_game", "game": "art-project", "catalog": str(path),
                             "mission": "m", "difficulty": "easy", "players": ["Ann", "Ben"]})
    if not answer["ok"]:
        session.close()
    assert answer["ok"], answer
    started = answer["events"][0]
    assert Mission.from_json(started["mission"]) == parsed.missions["m"]
    assert catalog_from_json(started["catalog"]).missions == parsed.missions
    assert catalog_from_json(started["catalog"]).faces == parsed.faces
    again = Session.resume(list(session.log), seed=session.seed, ruleset=session.ruleset)
    assert again.state == session.state
    assert session.handle({"cmd": "reveal"})["ok"]
    resumes_and_verifies(session, db, "art-project", bytes(32))
