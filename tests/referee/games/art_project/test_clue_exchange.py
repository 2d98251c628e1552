"""USA's clue exchange (ART-30): each refusal with its code and rule, and the event, pinned
from the survivors of mutation testing rules/movement.py (issue 28; docs/mutation.md)."""

from __future__ import annotations

from pathlib import Path

from referee.games.art_project.state import Clue
from tests.referee.games.art_project.helpers import Game

BOARDS = str(Path(__file__).with_name("boards.toml"))


def usa_in_c_d() -> Game:
    g = Game(["Ann", "Ben"], mission="test-usa", catalog=BOARDS)
    g.phase("C/D")
    g.given(chain=(Clue("c1", ("book",), "Ann"),), cards=1)
    g.at("Ann", "Dallas")
    g.at("Ben", "Dallas")
    g.agents("Dallas", 0)
    return g


def give(g: Game, code: str, rule: str, **fields: str) -> str:
    return g.no("give_clue", code, rule, **{"from": "Ann", "to": "Ben", "card": "c1",
                                            **fields}).message


def test_only_on_the_usa_board() -> None:
    g = Game()
    g.phase("C/D")
    g.no("give_clue", "not_usa", "ART-30", **{"from": "Ann", "to": "Ben", "card": "c1"})


def test_only_in_c_d() -> None:
    g = usa_in_c_d()
    g.given(phase="C")
    assert give(g, "wrong_phase", "ART-30").startswith("Exchanging clue cards")


def test_between_two_players_of_the_same_city_with_no_agent_there() -> None:
    g = usa_in_c_d()
    give(g, "same_player", "ART-30", to="Ann")
    give(g, "not_in_chain", "ART-30", card="c9")
    g.at("Ben", "Boston")
    give(g, "not_together", "ART-30")
    g.at("Ben", "Dallas")
    g.agents("Dallas", 1)
    give(g, "not_together", "ART-30")
    g.agents("Dallas", 0)
    events = g.ok("give_clue", **{"from": "Ann", "to": "Ben", "card": "c1"})
    assert events[0] == {"type": "clue_given", "card": "c1", "from": "Ann", "to": "Ben"}
    assert [x.player for x in g.state.chain] == ["Ben"]
