"""Leaving an unfinished game belongs to the session, for every game (issue 22, item 3).

A new game of any game while another (of any game) is started and not over is refused
`game_in_progress` unless the table asked to leave it: `Session.apply(..., abandon=True)` for a
typed command (no game's command class need carry the flag), the protocol's ``"abandon":
true`` for a line. The game left is kept in its file as abandoned; the new one is the game the table
would have had with nothing to leave."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import games
from referee.app import open_session
from referee.errors import RuleViolation
from referee.session import Session

SEED = bytes(range(32))
START: dict[str, dict[str, Any]] = {
    "gallery-grippers": {"cmd": "new_game", "players": ["Ann", "Ben"]},
    "art-project": {"cmd": "new_game", "mission": "test-board", "difficulty": "hard",
                    "players": [{"name": "Ann"}, {"name": "Ben"}]},
    "gallerist": {"cmd": "new_game", "players": ["Ann", "Ben"], "bag": 40},
}
PAIRS = [(a, b) for a in START for b in START]


def started(game: str, session: Session | None = None) -> Session:
    s = session or Session(seed=SEED)
    answer = s.handle({**START[game], "game": game})
    assert answer["ok"], answer
    assert s.unfinished
    return s


def typed(game: str) -> Any:
    """`game`'s new game as a typed command, without any abandon field."""
    return games.find(game).parse(START[game])


@pytest.mark.parametrize(("left", "new"), PAIRS)
def test_a_new_game_over_an_unfinished_one_is_refused_unless_asked(left: str, new: str
                                                                   ) -> None:
    s = started(left)
    before = s.ruleset.state_json(s.state)
    with pytest.raises(RuleViolation) as refused:
        s.apply(typed(new), ruleset=games.find(new))
    assert refused.value.code == "game_in_progress"
    assert s.ruleset.id == left and s.ruleset.state_json(s.state) == before  # nothing changed
    line = s.handle({**START[new], "game": new})
    assert line["ok"] is False and line["error"]["code"] == "game_in_progress"


@pytest.mark.parametrize(("left", "new"), PAIRS)
def test_abandon_leaves_it_for_the_game_asked_for(left: str, new: str) -> None:
    s = started(left)
    outcome = s.apply(typed(new), ruleset=games.find(new), abandon=True)
    assert outcome.ruleset is not None and outcome.ruleset.id == new
    alone = started(new)  # the same game on a session that never had another
    assert s.ruleset.state_json(s.state) == alone.ruleset.state_json(alone.state)


@pytest.mark.parametrize(("left", "new"), PAIRS)
def test_the_protocols_abandon_field_is_taken_for_every_game(left: str, new: str) -> None:
    s = started(left)
    answer = s.handle({**START[new], "game": new, "abandon": True})
    assert answer["ok"], answer
    assert s.ruleset.id == new and s.unfinished


@pytest.mark.parametrize("game", list(START))
def test_a_finished_or_no_game_needs_no_abandon(game: str) -> None:
    s = Session(seed=SEED)
    assert not s.unfinished
    s.apply(typed(game), ruleset=games.find(game))
    assert s.unfinished


@pytest.mark.parametrize(("left", "new"), [("art-project", "gallerist"),
                                           ("gallerist", "gallery-grippers"),
                                           ("gallery-grippers", "art-project")])
def test_the_game_left_is_kept_as_abandoned_and_the_new_one_resumes(
        tmp_path: Path, left: str, new: str) -> None:
    path = tmp_path / "g.sqlite"
    s = open_session(db=path, seed=SEED)
    started(left, s)
    s.apply(typed(new), ruleset=games.find(new), abandon=True)
    shown = s.ruleset.state_json(s.state)
    s.close()
    again = open_session(db=path, notify=lambda _: None)
    assert again.ruleset.id == new and again.ruleset.state_json(again.state) == shown
    stored = [(g.game, g.status) for g in again.store.games()]  # type: ignore[union-attr]
    again.close()
    assert stored == [(left, "abandoned"), (new, "playing")]


@pytest.mark.parametrize("left", sorted(START))
def test_an_abandoned_game_reveals_its_seed_and_every_roll_checks(tmp_path: Path,
                                                                   left: str) -> None:
    """Issue 26: the game left reveals its seed as its last entry, like a finished one, so
    `referee verify` checks its rolls; a refused new game reveals nothing."""
    from referee.audit import verify
    from referee.export import from_store
    from referee.records import open_reader

    path = tmp_path / "g.sqlite"
    s = open_session(db=path, seed=SEED)
    started(left, s)
    refused = s.handle({"cmd": "new_game", "game": "gallery-grippers", "abandon": True,
                        "players": ["Ann", "Ann"]})  # its rules refuse it: the game goes on
    assert refused["ok"] is False, refused
    assert s.state.seed is None and s.unfinished
    s.apply(typed(left), ruleset=games.find(left), abandon=True)
    s.close()
    reader = open_reader(str(path))
    try:
        first = reader.games()[0]
        entries = reader.entries(first.id)
        assert first.status == "abandoned"
        assert entries[-1].command == {"cmd": "reveal"}
        assert entries[-1].events == [{"type": "seed_revealed", "seed": SEED.hex()}]
        v = verify(from_store(reader, first))
        assert v.revealed and not v.problems, v.problems
    finally:
        reader.close()
