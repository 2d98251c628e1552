"""The players' colours (GAL-1): a seat names its colour or takes the first free one of the
catalog's player colours; an unknown colour is `unknown_colour`, two seats on one colour
`bad_players`; a game stored before the Gallerist kept colours resumes with none."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import BadRequest, CatalogError, Refusal
from referee.games.gallerist import RULESET
from referee.games.gallerist.catalog import PLAYER_COLOURS, parse_catalog
from referee.games.gallerist.commands import command_to_json
from referee.games.gallerist.table import table
from referee.session import Session
from tests.referee.games.gallerist.helpers import FIXTURE, Game

NAMES = ["Ann", "Ben", "Cy", "Dee"]
CATALOG = RULESET.load_catalog(FIXTURE)


def _start(players: list[Any]) -> list[dict[str, Any]]:
    fresh = RULESET.initial_state(CATALOG)
    cmd = RULESET.start(RULESET.parse({"cmd": "new_game", "players": players,
                                       "start_player": "Ann", "catalog": FIXTURE}),
                        commitment="x", settings={})
    events = RULESET.decide(fresh, cmd)
    assert isinstance(events, list)
    return events


# a seat: no colour, a catalog colour (any case), or an unknown one
SEAT = st.one_of(st.none(), st.sampled_from(PLAYER_COLOURS),
                 st.sampled_from(PLAYER_COLOURS).map(str.upper),
                 st.sampled_from(["red", "pink", "teal", "Yellow "]))


@given(st.integers(1, 4).flatmap(lambda n: st.lists(SEAT, min_size=n, max_size=n)),
       st.booleans())
def test_every_choice_of_colours_is_kept_filled_in_or_refused(choices: list[str | None],
                                                              as_objects: bool) -> None:
    names = NAMES[:len(choices)]
    players: list[Any] = [
        ({"name": n} if as_objects else n) if c is None else {"name": n, "color": c}
        for n, c in zip(names, choices, strict=True)]
    wanted = [None if c is None else c.strip().lower() for c in choices]
    known = [c for c in wanted if c is not None]
    if any(c not in PLAYER_COLOURS for c in known):
        with pytest.raises(Refusal) as err:
            _start(players)
        assert err.value.code == "unknown_colour"
        assert "yellow, green, purple, orange" in err.value.message
        return
    if len(set(known)) != len(known):
        with pytest.raises(Refusal) as err:
            _start(players)
        assert err.value.code == "bad_players"
        assert "different colour" in err.value.message
        return
    started = _start(players)[0]
    got = [p["color"] for p in started["players"]]
    assert [p["name"] for p in started["players"]] == names
    assert len(set(got)) == len(got) and set(got) <= set(PLAYER_COLOURS)
    for w, g in zip(wanted, got, strict=True):
        if w is not None:
            assert g == w  # a chosen colour is kept (in the catalog's spelling)
    free = [c for c in PLAYER_COLOURS if c not in known]
    assert [g for w, g in zip(wanted, got, strict=True) if w is None] == free[:wanted.count(None)]


def test_the_colours_show_in_the_state_and_the_page_s_seats() -> None:
    g = Game([{"name": "Ann", "color": "purple"}, "Ben", {"name": "Cy"}])
    assert [(p["name"], p["color"]) for p in g.json["players"]] == [
        ("Ann", "purple"), ("Ben", "yellow"), ("Cy", "green")]
    assert [(s.name, s.color) for s in table(g.state)] == [
        ("Ann", "purple"), ("Ben", "yellow"), ("Cy", "green")]


def test_plain_names_are_logged_as_they_always_were() -> None:
    req = {"cmd": "new_game", "players": ["Ann", {"name": "Ben"}, {"name": "Cy", "color": None}]}
    assert command_to_json(RULESET.parse(req))["players"] == ["Ann", "Ben", "Cy"]
    req = {"cmd": "new_game", "players": ["Ann", {"name": "Ben", "color": "green"}]}
    assert command_to_json(RULESET.parse(req))["players"] == [
        "Ann", {"name": "Ben", "color": "green"}]


@pytest.mark.parametrize("bad", [{"name": "Ann", "colour": "green"}, {"color": "green"},
                                 {"name": "Ann", "color": 3}, {"name": "Ann", "color": " "}])
def test_a_malformed_seat_is_a_bad_request(bad: dict[str, Any]) -> None:
    with pytest.raises(BadRequest):
        RULESET.parse({"cmd": "new_game", "players": [bad]})


def test_a_catalog_names_its_own_player_colours() -> None:
    text = Path(FIXTURE).read_text(encoding="utf-8")
    cat = parse_catalog('player_colours = ["black", "white", "grey", "tan", "gold"]\n' + text)
    assert cat.player_colours == ("black", "white", "grey", "tan", "gold")
    with pytest.raises(CatalogError) as err:
        parse_catalog('player_colours = ["black", "white"]\n' + text)
    assert err.value.field == "player_colours"
    with pytest.raises(CatalogError):
        parse_catalog('player_colours = ["black", "Black", "grey", "tan"]\n' + text)


def _strip(value: Any) -> Any:
    """`value` as a log or snapshot written before colours: no seat colour, no catalog list."""
    if isinstance(value, dict):
        if value.get("$") == "Player":
            value["f"].pop("color")
        if value.get("$") == "Catalog":
            value["f"].pop("player_colours")
        if value.get("type") == "game_started":
            for p in value["players"]:
                p.pop("color")
            value["catalog"].pop("player_colours")
        for v in value.values():
            _strip(v)
    elif isinstance(value, list):
        for v in value:
            _strip(v)
    return value


def test_a_game_stored_without_colours_resumes_with_none() -> None:
    """A log written before colours (game_started's players bare names, its catalog without
    player_colours) resumes with seats without a colour, and the game goes on, undo too."""
    session = Session(seed=bytes(range(32)))
    start = {"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben"],
             "start_player": "Ann", "catalog": FIXTURE, "bag": 9}
    assert session.handle(start)["ok"]
    assert session.handle({"cmd": "check", "item": "bag"})["ok"]
    old = [replace(e, events=_strip(json.loads(json.dumps(e.events)))) for e in session.log]
    assert "color" not in old[0].events[0]["players"][0]
    again = Session.resume(old, seed=session.seed, ruleset=session.ruleset)
    j = again.ruleset.state_json(again.state)
    assert [(p["name"], p["color"]) for p in j["players"]] == [("Ann", None), ("Ben", None)]
    assert [s.color for s in table(again.state)] == [None, None]
    assert again.state.catalog.player_colours == PLAYER_COLOURS  # the default
    assert again.handle({"cmd": "check", "item": "tickets"})["ok"]
    assert again.handle({"cmd": "undo"})["ok"]
    assert again.handle({"cmd": "undo"})["ok"]
    assert not any(done for _, _, done in again.state.checklist)


def test_a_snapshot_kept_before_colours_is_read_back_without_them() -> None:
    g = Game()
    data = _strip(RULESET.snapshot_json(g.state))
    state = RULESET.state_from_snapshot(data, g.state.catalog)
    assert [p.color for p in state.players] == [None, None, None]
    assert state.catalog.player_colours == PLAYER_COLOURS
