"""Starting a game of The A.R.T. Project (rules/setup.py): rulings that mutation testing found
unpinned (issue 28; docs/mutation.md): `game_started` in full per board, each refusal of
`new_game` and `place_agents` with its code, rule and words, and Rio's setup agents."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.errors import Refusal
from referee.games.art_project import RULESET
from referee.games.art_project.rules.setup import setup_agents
from tests.referee.games.art_project.helpers import COMMIT, Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def request(**extra: Any) -> dict[str, Any]:
    return {
        "cmd": "new_game",
        "players": [{"name": "Ann"}, {"name": "Ben"}],
        "mission": "test-board",
        "difficulty": "medium",
        **extra,
    }


def started(**extra: Any) -> dict[str, Any]:
    state = RULESET.initial_state(RULESET.load_catalog(None))
    cmd = RULESET.start(RULESET.parse(request(**extra)), commitment=COMMIT, settings={})
    [event] = RULESET.decide(state, cmd)
    assert isinstance(event, dict)
    return event


def refused(code: str, rule: str | None, **extra: Any) -> str:
    state = RULESET.initial_state(RULESET.load_catalog(None))
    cmd = RULESET.start(RULESET.parse(request(**extra)), commitment=COMMIT, settings={})
    with pytest.raises(Refusal) as err:
        RULESET.decide(state, cmd)
    assert (err.value.code, err.value.rule) == (code, rule), err.value.message
    return err.value.message


def test_game_started_in_full_on_the_test_board() -> None:
    e = started()
    cat = RULESET.load_catalog(None)
    m = cat.missions["test-board"]
    agents = {c.name: 2 for c in m.cities}
    assert e == {
        "type": "game_started",
        "game": "art-project",
        "catalog": cat.to_json(),
        "mission": m.to_json(),
        "difficulty": "medium",
        "rules": e["rules"],
        "players": [
            {"name": "Ann", "color": "red", "health": 3, "draws": 2},
            {"name": "Ben", "color": "blue", "health": 3, "draws": 2},
        ],
        "ally": None,
        "van": {"fuel": 3, "radio": 3, "weapon": 3},
        "reserve": {"fuel": 3, "radio": 3, "weapon": 3},
        "health_reserve": 25 - 6,
        "agents": agents,
        "agent_reserve": 40 - 14,
        "markers": 3,
        "artwork": [],
        "deck": {"above": 72 - 12, "final": True, "below": 12, "discard": 0},
        "commitment": COMMIT,
        "hall": [],
    }
    assert e["rules"] == started(rules={})["rules"]


def test_solo_doubles_health_draws_three_and_leaves_fifteen_cards_out() -> None:
    e = started(players=[{"name": "Ann", "color": "green"}], ally="red", difficulty="hard")
    assert e["players"] == [{"name": "Ann", "color": "green", "health": 4, "draws": 3}]
    assert e["ally"] == "red" and e["health_reserve"] == 25 - 4
    assert e["deck"] == {"above": 72 - 12 - 15, "final": True, "below": 12, "discard": 0}


def test_colours_not_chosen_are_dealt_in_catalog_order_skipping_the_taken_ones() -> None:
    e = started(players=[{"name": "Ann"}, {"name": "Ben", "color": "red"}, {"name": "Cy"}])
    assert [p["color"] for p in e["players"]] == ["blue", "red", "green"]
    solo = started(players=[{"name": "Ann"}], ally="red")
    assert solo["players"][0]["color"] == "blue"


def test_egypt_starts_without_fuel_with_its_setup_artwork_and_northern_agents() -> None:
    e = started(mission="test-egypt")
    assert e["van"] == {"fuel": 0, "radio": 3, "weapon": 3}
    assert e["reserve"] == {"fuel": 6, "radio": 3, "weapon": 3}
    assert e["artwork"] == ["Alexandria"]
    assert e["agents"] == {
        "Aswan": 2,
        "Luxor": 2,
        "Abydos": 2,
        "Amarna": 3,
        "Memphis": 3,
        "Giza": 3,
        "Alexandria": 3,
    }
    assert e["agent_reserve"] == 40 - 18


def test_each_board_s_setup_agents_and_markers() -> None:
    usa = started(mission="test-usa", catalog=BOARDS)
    assert usa["agents"] == {"Dallas": 0, "Boston": 2, "Denver": 2}
    assert usa["markers"] == 3 and usa["agent_reserve"] == 36
    poly = started(mission="test-polynesia", catalog=BOARDS)
    assert set(poly["agents"].values()) == {0} and poly["markers"] == 6
    assert poly["agent_reserve"] == 40
    rio = started(mission="test-rio", catalog=BOARDS)
    assert set(rio["agents"].values()) == {0} and rio["markers"] == 3
    assert [p["setup_agents"] for p in rio["players"]] == [2, 2]
    scan = started(mission="test-scandinavia", catalog=BOARDS)
    assert set(scan["agents"].values()) == {2}
    assert "setup_agents" not in scan["players"][0]


def test_a_city_s_own_agents_count_even_none_and_a_mission_s_own_markers() -> None:
    m = RULESET.load_catalog(None).missions["test-board"]
    cities = tuple(replace(c, agents={"Film": 0, "Book": 5}.get(c.name)) for c in m.cities)
    assert setup_agents(replace(m, cities=cities)) == {
        "Start": 2,
        "Film": 0,
        "Sculpture": 2,
        "Book": 5,
        "Painting": 2,
        "Artifact": 2,
        "Music": 2,
    }
    usa = RULESET.load_catalog(BOARDS).missions["test-usa"]
    dallas = tuple(replace(c, agents=4) if c.name == "Dallas" else c for c in usa.cities)
    assert setup_agents(replace(usa, cities=dallas))["Dallas"] == 4


def test_a_catalog_s_markers_and_too_many_setup_agents(tmp_path: Path) -> None:
    path = tmp_path / "catalog.toml"
    path.write_text(
        Path(BOARDS)
        .read_text()
        .replace('id = "test-usa"', 'id = "test-usa"\nmarkers = 5')
        .replace(
            '{ name = "Boston", symbol = "film" }',
            '{ name = "Boston", symbol = "film", agents = 39 }',
        )
    )
    assert RULESET.load_catalog(str(path)).missions["test-usa"].markers == 5
    message = refused("catalog_incomplete", "ART-4", mission="test-usa", catalog=str(path))
    assert message == "The mission's setup places 41 agents; there are 40."
    exactly = tmp_path / "forty.toml"
    exactly.write_text(path.read_text().replace("agents = 39", "agents = 38"))
    e = started(mission="test-usa", catalog=str(exactly))
    assert e["agent_reserve"] == 0 and e["markers"] == 5


def test_new_game_refusals_in_words() -> None:
    assert refused("bad_players", "ART-1", players=[{"name": n} for n in "ABCDEFG"]) == (
        "The A.R.T. Project takes 1 to 6 players, not 7."
    )
    assert refused("bad_players", "ART-1", players=[]) == (
        "The A.R.T. Project takes 1 to 6 players, not 0."
    )
    assert refused("bad_players", "ART-1", players=[{"name": "Ann"}, {"name": "B" * 21}]) == (
        "Player 2's name is 21 characters long; at most 20 fit."
    )
    taken = (
        "'{}' is taken (names are unique and may not be a die's id: ally1, ally2, ally3, "
        "ally4, ally5, or the ally's colour)."
    )
    assert refused("bad_players", "ART-1", players=[{"name": "Ann"}, {"name": "ann"}]) == (
        taken.format("ann")
    )
    assert refused("bad_players", "ART-1", players=[{"name": "ALLY5"}, {"name": "Ben"}]) == (
        taken.format("ALLY5")
    )
    assert refused("bad_players", "ART-1", players=[{"name": "Red"}], ally="red") == (
        taken.format("Red")
    )
    assert refused(
        "unknown_colour", "ART-1", players=[{"name": "Ann", "color": "pink"}, {"name": "Ben"}]
    ) == ("'pink' is not a player colour (red, blue, green, yellow, purple, orange).")
    assert refused(
        "bad_players",
        "ART-1",
        players=[{"name": "Ann", "color": "red"}, {"name": "Ben", "color": "red"}],
    ) == ("Each player takes a different colour.")
    assert refused("unknown_mission", "ART-1", mission="mars") == (
        "No mission 'mars' in the catalog (japan, egypt, usa, scandinavia, polynesia, rio, "
        "test-board, test-egypt)."
    )
    assert refused("bad_difficulty", "ART-1", difficulty="brutal") == (
        "Difficulty is one of easy, medium, hard, impossible, not 'brutal'."
    )
    assert refused("catalog_incomplete", "ART-36", mission="usa") == (
        "The catalog has no cities, start, track for the mission 'usa': the box never "
        "guesses a board's numbers. Enter them in a catalog file (docs/art-project.md) and "
        'start with "catalog": its path.'
    )
    assert refused("catalog_incomplete", "ART-20", rules={"battle_die": "catalog"}) == (
        'The house rule "Battle dice faces: the catalog\'s faces" needs the catalog\'s [dice] '
        "faces, and this catalog has none."
    )
    solo = (
        'Solo needs "ally": a player colour other than the player\'s (blue, green, '
        "yellow, purple, orange)."
    )
    assert refused("bad_ally", "ART-34", players=[{"name": "Ann"}]) == solo
    assert refused("bad_ally", "ART-34", players=[{"name": "Ann"}], ally="pink") == solo
    assert (
        refused("bad_ally", "ART-34", players=[{"name": "Ann", "color": "red"}], ally="red") == solo
    )
    assert refused("bad_ally", "ART-34", ally="green") == "Only solo has an ally pawn."


def test_a_bad_house_rule_is_refused_with_the_setting_s_own_words() -> None:
    assert refused("bad_rules", None, rules={"deck_empty": "burn"}) == (
        'rules.deck_empty: must be one of "skip", "reshuffle" (ART-12), not "burn"'
    )


def test_a_catalog_with_dice_faces_allows_the_catalog_die() -> None:
    e = started(mission="test-usa", catalog=BOARDS, rules={"battle_die": "catalog"})
    assert e["rules"]["battle_die"] == "catalog"


def test_one_to_six_players_start() -> None:
    assert len(started(players=[{"name": n} for n in "ABCDEF"])["players"]) == 6
    assert len(started(players=[{"name": "A"}], ally="blue")["players"]) == 1
    assert started(players=[{"name": "B" * 20}, {"name": "Ben"}])["players"][0]["name"] == (
        "B" * 20
    )


def rio(**extra: Any) -> Game:
    return Game(["Ann", "Ben"], mission="test-rio", catalog=BOARDS, **extra)


def test_rio_s_setup_agents_in_words_and_in_full() -> None:
    g = rio()
    err = g.no("draw", "setup_agents_owed", "ART-33", player="Ann")
    assert err.message == "First Ann and Ben place their 2 agents in any district."
    events = g.ok("place_agents", player="Ann", agents={"Cinema": 1, "Library": 1, "Central": 0})
    assert events == [
        {"type": "setup_agents_placed", "player": "Ann", "agents": {"Cinema": 1, "Library": 1}}
    ]
    err = g.no("draw", "setup_agents_owed", "ART-33", player="Ann")
    assert err.message == "First Ben places their 2 agents in any district."
    err = g.no("place_agents", "no_setup_agents", "ART-33", player="Ann", agents={"Cinema": 1})
    assert err.message == "Ann has placed their agents."
    err = g.no("place_agents", "wrong_count", "ART-33", player="Ben", agents={"Cinema": 3})
    assert err.message == "Ben places 1 to 2 agent(s), not 3."
    err = g.no("place_agents", "wrong_count", "ART-33", player="Ben", agents={"Cinema": 0})
    assert err.message == "Ben places 1 to 2 agent(s), not 0."
    g.no("place_agents", "unknown_city", "ART-33", player="Ben", agents={"Mars": 1})
    g.no("place_agents", "unknown_player", None, player="Zed", agents={"Cinema": 1})
    events = g.ok("place_agents", player="Ben", agents={"Central": 1})
    assert events == [{"type": "setup_agents_placed", "player": "Ben", "agents": {"Central": 1}}]
    err = g.no("place_agents", "wrong_count", "ART-33", player="Ben", agents={"Cinema": 2})
    assert err.message == "Ben places 1 to 1 agent(s), not 2."
    g.no("draw", "setup_agents_owed", "ART-33", player="Ann")
    g.ok("place_agents", player="Ben", agents={"Central": 1})
    g.ok("draw", player="Ann")
    assert (g.state.agents["Central"], g.state.agents["Cinema"]) == (2, 1)


def test_rio_one_district_needs_both_agents_in_one_district() -> None:
    g = rio(rules={"rio_setup_agents": "one_district"})
    for agents in ({"Cinema": 1, "Library": 1}, {"Cinema": 1}):
        err = g.no("place_agents", "one_district", "ART-33", player="Ann", agents=agents)
        assert err.message == (
            "Both of Ann's agents go to one district (the house rule \"Starting agents in "
            'Rio: both in one district").'
        )
    g.ok("place_agents", player="Ann", agents={"Cinema": 2})


def test_placing_agents_off_rio_is_refused_in_words() -> None:
    g = Game(["Ann", "Ben"])
    err = g.no("place_agents", "not_rio", "ART-33", player="Ann", agents={"Film": 1})
    assert err.message == "Agents are placed by the players only on Rio."
