"""The A.R.T. Project's steps in words (`step_words`, the console's event log and the phone
page's): every event of the recorded games is worded, never by its protocol name; a battle's
line has its dice and how they were rolled; an undone step says which; the lines the table
asked for (artwork uncovered or collected, a city lost, a clue discarded, agents placed, a
verdict) read as such."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import words as core
from referee.games.art_project import RULESET
from referee.games.art_project.evolve import _EVOLVE, _NO_CHANGE
from referee.games.art_project.words import _EVENTS, _QUIET, step_words
from referee.ruleset import DescribesSteps
from referee.session import Session

HERE = Path(__file__).parent
SEED = bytes(range(32))
GAMES = sorted(p.name for p in HERE.glob("*.jsonl"))


def played(name: str) -> Session:
    s = Session(seed=SEED)
    for line in (HERE / name).read_text().splitlines():
        request = json.loads(line)
        if request["cmd"] not in ("state", "catalog"):
            s.handle(request)
    return s


def test_the_ruleset_words_its_own_steps() -> None:
    assert isinstance(RULESET, DescribesSteps)
    command = {"cmd": "end_phase"}
    events = [{"type": "phase", "phase": "B"}]
    assert core.step_words(RULESET, command, events) == step_words(command, events)


def test_every_event_kind_the_game_folds_has_its_words() -> None:
    kinds = set(_EVOLVE) | set(_NO_CHANGE)
    assert kinds - set(_EVENTS) - _QUIET == set()


@pytest.mark.parametrize("name", GAMES)
def test_every_step_of_a_recorded_game_is_in_words(name: str) -> None:
    s = played(name)
    for entry in s.log:
        line = step_words(entry.command, entry.events)
        assert line and "_" not in line, (entry.command, line)  # no protocol names
        assert "{" not in line and "None" not in line, line


def test_a_battle_line_has_its_dice_and_verdict_and_what_it_won() -> None:
    s = played("win.jsonl")
    battle = next(e for e in s.log if e.command["cmd"] == "battle")
    line = step_words(battle.command, battle.events)
    verdict = next(e for e in battle.events if e["type"] == "battle")
    # each player's die by name, the ally dice by what they are, never by id (issue 39)
    [(ally, value)] = [(k, v) for k, v in verdict["dice"].items() if k.startswith("ally")]
    assert ally not in line and f"ally die {value} = {verdict['dice_sum']}" in line
    assert f"dice (typed) Ann {verdict['dice']['Ann']}, ally die" in line
    assert f"team {verdict['strength']} against" in line and ": won" in line
    assert f"artwork collected in {verdict['city']}: track space 1" in line


def test_the_box_rolled_dice_are_said_so() -> None:
    command = {"cmd": "battle", "city": "Film", "leader": "Ann"}
    events = [{"type": "roll", "id": "Ann", "value": 3, "source": "electronic",
               "player": "Ann"},
              {"type": "battle", "city": "Film", "leader": "Ann", "dice": {"Ann": 3},
               "dice_sum": 3, "weapons": 0, "weapon_bonus": 0, "strength": 3,
               "city_agents": 2, "threat": 10, "hq": 0, "agents_strength": 12, "won": False}]
    line = step_words(command, events)
    assert "dice (rolled by the box) Ann 3 = 3" in line and "not yet won" in line


def test_an_undone_step_is_said() -> None:
    s2 = Session(seed=SEED)
    for line in (HERE / "win.jsonl").read_text().splitlines()[:6]:
        s2.handle(json.loads(line))
    assert s2.handle({"cmd": "undo"})["ok"]
    undo = s2.log[-1]
    assert step_words(undo.command, undo.events) == (
        f"Undone: step {undo.command['undoes']} (a mission card)")


def test_a_lost_city_with_its_artwork_and_a_discarded_set_read_as_such() -> None:
    lost = step_words({"cmd": "end_phase"}, [
        {"type": "city_lost", "city": "Film", "agents": 5, "artwork_removed": True},
        {"type": "clues_discarded", "symbol": "film", "cards": ["c1", "c2"]},
        {"type": "agents_placed", "city": "Film", "to": "hq", "count": 2, "cause": "c3"},
        {"type": "uncovered", "symbol": "book", "city": "Book"}])
    assert lost == ("End of the phase: Film is lost (5 agents go back to the reserve); its "
                    "artwork is lost with it; clue cards 1, 2 discarded for the film set; "
                    "2 agents placed in HQ (Film is lost); book artwork uncovered in Book")


def test_a_move_paid_in_health_says_who_paid() -> None:
    line = step_words({"cmd": "move", "player": "Ann", "to": "Film", "health": 1}, [
        {"type": "paid", "player": "Ann", "fuel": 0, "radio": 0, "weapon": 0,
         "health": {"Ann": 1}},
        {"type": "moved", "pawn": "Ann", "player": "Ann", "from": "Start", "to": "Film",
         "fuel": 0, "map": "checked"}])
    assert line == "Ann moved from Start to Film: paid 1 health from Ann"


@pytest.mark.parametrize(("count", "said"), [(1, "1 agent leaves Kyoto"),
                                             (2, "2 agents leave Kyoto")])
def test_agents_leaving_a_city_are_counted_in_words(count: int, said: str) -> None:
    """Issue 39: the log said "1 agents leave Kyoto"."""
    line = step_words({"cmd": "battle", "city": "Kyoto", "leader": "Ann"},
                      [{"type": "agents_cleared", "city": "Kyoto", "count": count}])
    assert said in line
    lost = step_words({"cmd": "end_phase"},
                      [{"type": "city_lost", "city": "Kyoto", "agents": count}])
    assert f"({count} agent{'s go' if count != 1 else ' goes'} back to the reserve)" in lost


def test_mission_cards_read_by_number_never_by_id() -> None:
    """The box numbers the cards played (`c5` in the protocol); the table reads "card 5",
    a set as "cards 1 and 3", and any other option as it is (issue 39)."""
    from referee.games.art_project.words import card_no, choice_said, set_said

    assert card_no("c5") == "5" and card_no("x9") == "x9" and card_no("c") == "c"
    assert set_said("c1+c3") == "cards 1 and 3" and set_said("c2") == "card 2"
    assert set_said("c1+c2+c4") == "cards 1, 2 and 4"
    assert choice_said("c1+c3") == "cards 1 and 3" and choice_said("c7") == "card 7"
    assert choice_said("fuel") == "fuel" and choice_said("Ann") == "Ann"
    assert choice_said("cash+c1") == "cash+c1"
