"""Input the referee must refuse cleanly: the contract's required fields and types, JSON values
out of bounds, and player names a table could not tell apart (issue 11, section 4)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import Refusal
from referee.games.gallery_grippers.commands import NewGame, PlayerSpec
from referee.games.gallery_grippers.rules.setup import MAX_COLOUR, MAX_NAME
from referee.games.gallery_grippers.state import state_to_json
from referee.headless import answer_line
from referee.inputs import MAX_DEPTH, MAX_INT, MAX_TEXT, same_name
from referee.session import Session

from .conftest import SEED, Table, hand_for, start

# The contract's command table (shared/spec/headless-protocol.md): every field, each marked
# required or not, with the kind of value it takes. A request with every field of the right
# kind is not a bad_request (the rules may still refuse it); drop a required field, or give
# any field a value of another kind, and it is.
NAME, NAMES, CARDS, INT, BOOL, OBJECT, PLAYERS = (
    "name", "names", "cards", "int", "bool", "object", "players")
CONTRACT: dict[str, dict[str, tuple[bool, str, Any]]] = {
    "new_game": {"players": (True, PLAYERS, ["Ann", "Ben"]), "rules": (False, OBJECT, {}),
                 "abandon": (False, BOOL, True)},
    "deal": {"player": (True, NAME, "Ann"), "specialists": (True, NAMES, ["Hacker"]),
             "attributes": (True, NAMES, ["More Tech"])},
    "turn_order": {"rolls": (False, OBJECT, {"Ann": 3})},
    "tiebreak": {"winner": (True, NAME, "Ann")},
    "roll": {"die": (True, "die", "d6"), "value": (False, INT, 3)},
    "move": {"player": (True, NAME, "Ann"), "roll": (False, INT, 3),
             "tile": (True, "tile", "plain"), "museum": (False, NAME, "The Louvre")},
    "bypass": {"player": (True, NAME, "Ann"), "specialist": (False, CARDS, "Hacker"),
               "attribute": (False, CARDS, "More Tech"), "roll": (False, INT, 50)},
    "choose": {"player": (True, NAME, "Ann"), "choice": (True, "choice", "ditch")},
    "steal": {"player": (True, NAME, "Ann"), "art": (True, NAME, "Mona Lisa")},
    "sell": {"player": (True, NAME, "Ann"), "art": (False, NAMES, ["Mona Lisa"])},
    "draw": {"player": (True, NAME, "Ann"), "deck": (True, "deck", "specialist"),
             "card": (False, NAME, "Hacker")},
    "reup": {"player": (True, NAME, "Ann"), "roll": (False, INT, 3)},
    "trade": {"from": (True, NAME, "Ann"), "to": (True, NAME, "Ben"),
              "give": (True, NAMES, []), "get": (True, NAMES, [])},
    "end_turn": {"player": (True, NAME, "Ann")},
}
# values of another kind than each kind takes (null is left out: for an optional field it
# means "not given", for a required one "missing")
WRONG: dict[str, list[Any]] = {
    NAME: [5, True, [], ["Ann"], {}, ""],
    NAMES: ["Ann", 5, {}, [5], [["Ann"]], [""], [None], True],
    CARDS: [5, {}, [5], [[]], True],
    INT: ["6", True, False, 2.5, [6], {}],
    BOOL: ["false", "true", 0, 1, [], {}, "no"],
    OBJECT: ["x", 1, [], True],
    PLAYERS: ["Ann", [], [5], [{"name": 5}], [{"color": "blue"}], [{"name": "A", "hat": 1}],
              {"name": "Ann"}, [["Ann"]]],
    "die": ["d7", 6, ["d6"]], "tile": ["moon", 1, ["plain"]], "choice": ["maybe", 1],
    "deck": ["both", 1],
}


def full(cmd: str) -> dict[str, Any]:
    return {"cmd": cmd, **{field: good for field, (_, _, good) in CONTRACT[cmd].items()}}


def code_of(table: Table, request: dict[str, Any]) -> str | None:
    answer = table.session.handle(request)
    return None if answer["ok"] else answer["error"]["code"]


def refused_and_unchanged(table: Table, request: dict[str, Any]) -> dict[str, Any]:
    before, log = table.state, len(table.session.log)
    answer = table.session.handle(request)
    assert not answer["ok"], request
    assert table.state == before and len(table.session.log) == log
    return dict(answer["error"])


@pytest.mark.parametrize("cmd", sorted(CONTRACT))
def test_a_request_with_every_field_of_the_right_kind_is_not_a_bad_request(cmd: str) -> None:
    assert code_of(start(), full(cmd)) != "bad_request"


REQUIRED = [(cmd, f) for cmd, fs in CONTRACT.items() for f, (req, _, _) in fs.items() if req]


@pytest.mark.parametrize(("cmd", "field"), REQUIRED)
def test_every_field_the_contract_requires_is_required(cmd: str, field: str) -> None:
    table = start()
    for request in ({k: v for k, v in full(cmd).items() if k != field},
                    {**full(cmd), field: None}):
        error = refused_and_unchanged(table, request)
        assert error["code"] == "bad_request" and field in error["message"], error


def test_trade_without_give_or_get_is_a_bad_request_and_empty_lists_are_fine() -> None:
    table = start()
    table.ok("move", player="Ann", tile="trading", roll=3)
    give = table.player("Ann")["hand"]["attributes"][0]
    for missing in ("give", "get"):
        request = {"cmd": "trade", "from": "Ann", "to": "Ben", "give": [give], "get": []}
        del request[missing]
        error = refused_and_unchanged(table, request)
        assert error["code"] == "bad_request" and missing in error["message"]
    table.ok("trade", **{"from": "Ann", "to": "Ben", "give": [give], "get": []})


KINDS = [(cmd, f, kind, bad) for cmd, fs in CONTRACT.items() for f, (_, kind, _) in fs.items()
         for bad in WRONG[kind]]


@pytest.mark.parametrize(("cmd", "field", "kind", "bad"), KINDS)
def test_every_field_takes_only_its_own_kind_of_value(cmd: str, field: str, kind: str,
                                                      bad: Any) -> None:
    error = refused_and_unchanged(start(), {**full(cmd), field: bad})
    assert error["code"] == "bad_request", (kind, bad, error)
    assert field in error["message"] or "players" in error["message"], error


@pytest.mark.parametrize("flag", ["false", "true", 0, 1, "no", [], {}, [False]])
def test_abandon_takes_only_a_json_boolean(flag: Any) -> None:
    table = start()
    error = refused_and_unchanged(table, {"cmd": "new_game", "players": ["Cy"],
                                          "abandon": flag})
    assert error["code"] == "bad_request" and "abandon" in error["message"]
    assert code_of(table, {"cmd": "new_game", "players": ["Cy"], "abandon": False}) \
        == "game_in_progress"
    table.ok("new_game", players=["Cy"], abandon=True)


# ---- JSON values out of bounds, through the line reader --------------------------------------

def line_answer(session: Session, line: str) -> dict[str, Any]:
    before = (state_to_json(session.state), len(session.log))
    answer = answer_line(session, line)
    if not answer["ok"]:
        assert (state_to_json(session.state), len(session.log)) == before
    return answer


OUT_OF_BOUNDS = [
    '{"cmd": "roll", "die": "d6", "value": ' + "9" * 5000 + "}",
    '{"cmd": "roll", "die": "d6", "value": -' + "9" * 5000 + "}",
    '{"cmd": "roll", "die": "d6", "value": ' + str(MAX_INT + 1) + "}",
    '{"cmd": "roll", "die": "d6", "value": 1' + "0" * 400 + "}",
    '{"cmd": "new_game", "players": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"cmd": "new_game", "players": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}",
    '{"cmd": "state", "x": ' + '{"a": ' * 50_000 + "1" + "}" * 50_000 + "}",
    '{"cmd": "new_game", "players": ["\\ud800"]}',
    '{"cmd": "new_game", "players": ["Ann\\udfff", "Ben"]}',
    '{"cmd": "state", "\\udc80": 1}',
    '{"cmd": "new_game", "players": ["' + "A" * (MAX_TEXT + 1) + '"]}',
    '{"cmd": "roll", "die": "d6", "value": NaN}',
    '{"cmd": "roll", "die": "d6", "value": Infinity}',
    '{"cmd": "new_game", "players": ["Ann"], "abandon": false, "abandon": true}',
]


@pytest.mark.parametrize("line", OUT_OF_BOUNDS, ids=lambda line: line[:60])
def test_a_value_out_of_bounds_is_one_bad_request_and_changes_nothing(line: str) -> None:
    session = start().session
    answer = line_answer(session, line)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request", answer
    json.dumps(answer["error"]["message"]).encode("ascii")  # no lone surrogate echoed back
    answer["error"]["message"].encode("utf-8")
    assert len(answer["error"]["message"]) < 400


def test_values_at_the_bounds_are_still_read() -> None:
    session = Session(seed=SEED)
    ok = line_answer(session, '{"cmd": "new_game", "players": ["Ann"], "rules": '
                     '{"win_money": 1000000000000000}}')
    assert ok["ok"], ok
    answer = line_answer(session, '{"cmd": "roll", "die": "d6", "value": ' + str(MAX_INT) + "}")
    assert answer["error"]["code"] == "roll_out_of_range"  # parsed; the rules refuse it


# ---- names -----------------------------------------------------------------------------------

def new_game(session: Session, *players: PlayerSpec) -> Refusal | None:
    """The console's way in: a typed command, not a protocol dict."""
    try:
        session.apply(NewGame(players=players))
    except Refusal as refusal:
        return refusal
    return None


@pytest.mark.parametrize(("name", "words"), [
    ("\u200bAnn", "invisible"), ("Ann\u202e", "invisible"), ("A\u2066nn", "invisible"),
    ("An\u00adn", "invisible"), ("Ann\x07", "control"), ("An\x1bn", "control"),
    ("Ann\u2028Lee", "line break"), ("A" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
    ("Z" + "\u0301" * 40, f"at most {MAX_NAME}"),
])
def test_a_name_a_table_cannot_read_is_refused_in_plain_words(name: str, words: str) -> None:
    for via_protocol in (True, False):
        session = Session(seed=SEED)
        if via_protocol:
            answer = session.handle({"cmd": "new_game", "players": ["Ben", name]})
            assert answer["error"]["code"] == "bad_players", answer
            message = answer["error"]["message"]
        else:
            refusal = new_game(session, PlayerSpec("Ben"), PlayerSpec(name))
            assert refusal is not None and refusal.code == "bad_players"
            message = refusal.message
        assert message.startswith("Player 2's name") and words in message, message
        assert all(unicodedata.category(c)[0] != "C" for c in message), message
        assert session.state.players == ()


@pytest.mark.parametrize(("first", "second"), [
    ("Zoë", "ZOË"), ("Zoe\u0308", "Zoë"), ("ANN", "ａｎｎ"), ("Strauß", "STRAUSS"),
    ("Ann", " ann "),
])
def test_names_equal_after_normalising_and_case_folding_are_refused(first: str,
                                                                      second: str) -> None:
    session = Session(seed=SEED)
    refusal = new_game(session, PlayerSpec(first), PlayerSpec(second))
    assert refusal is not None and refusal.code == "bad_players"
    assert "Players 1 and 2" in refusal.message and "name of their own" in refusal.message


def test_names_are_stored_composed_and_found_however_they_are_typed() -> None:
    table = Table(Session(seed=SEED))
    table.ok("new_game", players=["Zoe\u0308", "Ben"])
    assert table.state["players"][0]["name"] == "Zo\u00eb"
    table.no("tiebreak", "no_tiebreak", winner="Zoe\u0308")  # found, not unknown_player
    hand = hand_for(table.session, ["Hacker"], ["More Tech"])
    table.ok("deal", player="Zoe\u0308", **hand)
    assert table.player("Zo\u00eb")["hand"]["specialists"] == hand["specialists"]


@pytest.mark.parametrize(("colour", "words"), [
    ("c" * (MAX_COLOUR + 1), f"at most {MAX_COLOUR}"), ("red\u200d", "invisible"),
    ("blue\n", None), ("\x00", "control"),
])
def test_a_colour_is_capped_and_checked_like_a_name(colour: str, words: str | None) -> None:
    session = Session(seed=SEED)
    refusal = new_game(session, PlayerSpec("Ann", colour))
    if words is None:  # a stripped newline is no problem
        assert refusal is None and session.state.players[0].color == "blue"
        return
    assert refusal is not None and refusal.code == "bad_players"
    assert refusal.message.startswith("Player 1's colour") and words in refusal.message
    assert new_game(Session(seed=SEED), PlayerSpec("Ann", "c" * MAX_COLOUR)) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=6),
       st.lists(st.none() | st.text(max_size=20), min_size=6, max_size=6))
def test_any_names_either_start_a_game_the_table_can_read_or_are_refused(
        names: list[str], colours: list[str | None]) -> None:
    session = Session(seed=SEED)
    specs = [PlayerSpec(n, c) for n, c in zip(names, colours, strict=False)]
    refusal = new_game(session, *specs)
    if refusal is not None:
        assert refusal.code == "bad_players" and refusal.message
        assert session.state.players == ()
        return
    players = session.state.players
    assert len(players) == len(names)
    for p in players:
        for text, limit in ((p.name, MAX_NAME), (p.color, MAX_COLOUR)):
            assert text == unicodedata.normalize("NFC", text) == text.strip()
            assert 0 < len(text) <= limit
            assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")
                           for c in text)
    assert len({same_name(p.name) for p in players}) == len(players)
    assert len({same_name(p.color) for p in players}) == len(players)
