"""The Gallerist's steps in words (issue 25, item 2): `referee.words.step_words` says every
step of the scripted whole game in the game's own words (`words.py`), plain text, no
protocol field names; a visitor the box draws says its colour."""

from __future__ import annotations

from referee.games.gallerist import RULESET
from referee.ruleset import DescribesSteps
from referee.session import Session
from referee.words import step_words
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play


def _played() -> Session:
    s = Session(seed=play.SEED)
    for req in make_games.game():
        if req["cmd"] != "state":
            play.ok(s, **req)
    return s


def test_every_step_of_a_whole_game_is_said_in_words() -> None:
    assert isinstance(RULESET, DescribesSteps)
    s = _played()
    said = [step_words(s.ruleset, e.command, e.events) for e in s.log]
    for line, entry in zip(said, s.log, strict=True):
        assert line and "{" not in line and '"' not in line, (entry.command, line)
        assert "_" not in line.split(";")[0], (entry.command, line)  # no field names
    assert "New game: Ann, Ben; Ann starts (named)" in said[0]
    drawn = [w for w, e in zip(said, s.log, strict=True)
             if e.command["cmd"] == "draw_visitor"]
    assert drawn[0].startswith("the box draws a pink visitor")  # its colour, as drawn
    assert all(" visitor from the bag" in w for w in drawn)
    assert any("Ann's assistant is kicked out of Media Centre" in w for w in said)
    assert any("the end is triggered (two celebrities and the bag is empty): round 3 is "
               "the last" in w for w in said)
    assert any(w.startswith("Undone: step") for w in said)
    assert said[-1].startswith("Final scoring: Ben wins (Ann 40, Ben 54)")


def test_records_say_what_they_changed() -> None:
    words = RULESET.step_words
    assert words({"cmd": "money", "player": "Ann", "delta": -3},
                 [{"type": "money", "player": "Ann", "delta": -3, "money": 7}]) == \
        "Ann pays 3 money (now 7)"
    assert words({"cmd": "influence", "player": "Ben", "to": 6, "reason": "spend"},
                 [{"type": "influence", "player": "Ben", "from": 10, "to": 6}]) == \
        "Ben spends influence: 10 → 6"
    assert words({"cmd": "draw_visitor", "colour": "brown"},
                 [{"type": "visitor_drawn", "player": None, "colour": "brown", "left": 4,
                   "source": "table"}]) == "drawn by hand: a brown visitor from the bag"
    assert words({"cmd": "market", "player": "Cy", "column": 3, "row": "lower", "cost": 2},
                 []) == "Cy: an assistant to the market, column 3, lower row, paid 2"


def test_the_next_line_names_no_protocol_command_at_any_step() -> None:
    """`next` is read at the table (console, box, page): it says what to do in words,
    never `(end_turn)` or `auction_pick`, at every step of the whole game, the setup, the
    turns, kick-outs, the intermediate scoring, the final round and the final scoring."""
    from referee.games.gallerist.actions import next_step
    from referee.games.gallerist.commands import SCHEMA

    s = Session(seed=play.SEED)
    said = []
    for req in make_games.game():
        if req["cmd"] != "state":
            play.ok(s, **req)
            said.append(next_step(s.state))
    assert len(set(said)) > 20  # (the game's many moments, not one line)
    for line in said:
        named = [c for c in SCHEMA if f"({c}" in line or ("_" in c and c in line)]
        assert not named, line  # ("move" and "sell" are words too: only as protocol names)
        assert "_" not in line, line
