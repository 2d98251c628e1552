"""What the page shows, in the console's words (issue 26, 3): the verdicts' history, the last
roll large with every die of its step, cards by name, the game's board (DescribesBoard), who a
game over names, the console's word for its count of turns."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.art_project import RULESET as ART
from referee.games.art_project.board import board as art_board
from referee.games.art_project.words import card_no
from referee.ruleset import DescribesBoard, Panel
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.games.art_project.helpers import Game
from tests.web.test_one_describer import _play
from tests.whole_app import SCRIPTS, Start
from web import page
from web.view import Snapshots


def test_a_conceded_battle_says_so() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.phase("C")
    g.at("Cy", "Music")
    g.health("Cy", 2)
    g.agents("Music", 5)
    fought = g.ok("battle", city="Music", leader="Cy", rolls={"Cy": 2})
    before = ART.verdict(fought)
    assert before is not None
    assert ("verdict", "not yet won") in [(t.label, t.value) for t in before[1]]
    found = ART.verdict(g.ok("concede"))
    assert found is not None
    title, terms = found
    assert "conceded" in title and "Cy" in title
    assert ("verdict", "conceded") in [(t.label, t.value) for t in terms]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 200))
def test_the_art_project_board_follows_the_state(n: int) -> None:
    session = Session(seed=bytes.fromhex("5a" * 32))
    lines = SCRIPTS["art-project"].read_text(encoding="utf-8").splitlines()
    for line in lines[:n]:
        assert session.handle(json.loads(line))["ok"], line
    s = session.state
    assert isinstance(ART, DescribesBoard)
    panels = art_board(s)
    assert [p.title for p in panels] == ["Cities", "The team", "The clue chain", "The deck"]
    for p in panels:
        assert len({len(r) for r in p.rows}) == 1  # every row of a panel as wide
    cities = {r[0].split(" (")[0]: r for r in panels[0].rows[1:]}
    assert s.mission is not None and set(cities) == {c.name for c in s.mission.cities}
    for name, row in cities.items():
        assert row[1] == str(s.agents.get(name, 0))
        assert (row[2] == "yes") == (name in s.artwork)
        assert set(filter(None, row[3].replace("–", "").split(", "))) == set(s.pawns_in(name))
        assert (row[4] == "LOST") == (name in s.lost)
    if s.chain:
        assert [r[0] for r in panels[2].rows[1:]] == [f"card {card_no(c.id)}" for c in s.chain]
    deck = dict(panels[3].rows)
    assert deck["cards above the final card"] == str(s.deck.above)
    # and the page draws the panels, whatever the game
    data = Snapshots().snapshot(session)
    html = page.body(data)
    assert '<section id="board">' in html and "The clue chain" in html


def test_the_page_draws_any_games_panels_escaped() -> None:
    data = Snapshots().snapshot(_play("gallery-grippers"))
    data["board"] = [{"title": "<b>x</b>", "rows": [["a", "<i>"], ["1", "2"]], "header": True}]
    html = page.board(data)
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<th>&lt;i&gt;</th>" in html and "<td>1</td>" in html
    assert page.board({**data, "board": []}) == ""
    assert Panel("t", (("a",),)).rows == (("a",),)


def test_verdicts_history_last_roll_and_cards_by_name() -> None:
    session = _play("gallery-grippers")
    data = Snapshots().snapshot(session)
    bypasses = [e.seq for e in session.log if not e.undone
                and any(ev["type"] == "bypass" for ev in e.events)]
    assert [v["seq"] for v in data["verdicts"]] == list(reversed(bypasses))[:12]
    assert data["verdict"]["seq"] == bypasses[-1]
    html = page.body(data)
    assert "Earlier verdicts" in html
    for seat in data["seats"]:
        figures = dict(seat["figures"])
        assert "specialist(s)" not in str(figures)
        p = next(x for x in session.ruleset.state_json(session.state)["players"]
                 if x["name"] == seat["name"])
        assert figures["specialists"] == (", ".join(p["hand"]["specialists"]) or "none")
    assert any("at the Security" in v["title"] or "at the" in v["title"]
               for v in data["verdicts"])


def test_the_turn_order_dice_are_all_shown_large() -> None:
    session = Session(seed=SEED)
    requests = Start("gallery-grippers", 10_000).requests()
    upto = next(i for i, r in enumerate(requests) if r["cmd"] == "turn_order")
    for r in requests[:upto + 1]:
        assert session.handle(r)["ok"]
    data = Snapshots().snapshot(session)
    rolled = next(ev for ev in session.log[-1].events if ev["type"] == "turn_order_rolled")
    assert {d["player"]: d["value"] for d in data["dice"]["dice"]} == rolled["rolls"]
    html = page.dice(data)
    for d in data["dice"]["dice"]:
        assert f'<span class="die-value">{d["value"]}</span>' in html


def test_status_words_match_the_console() -> None:
    session = _play("gallery-grippers")
    data = Snapshots().snapshot(session)
    assert page.game_over({"outcome": "lost", "winners": [], "reason": "third_strike"},
                          ["Ann"]) == "Game over: Ann lost — third strike"
    playing = {**data, "over": False, "phase": "play", "current": "Ann", "waiting": ["Ann"],
               "turn": 12, "round": 4}
    text = page.status(playing)
    assert "waiting for" not in text and "turn 12" in text and "round" not in text
    assert "waiting for Ben" in page.status({**playing, "waiting": ["Ann", "Ben"]})


def test_the_gallerist_page_has_no_protocol_words_through_a_whole_game() -> None:
    """Issue 39: the page said "phase final_scoring" and the setup checklist "(record each
    with draw_visitor)": on every page of a recorded game no word is a protocol name."""
    script = Path(__file__).parents[1] / "referee/games/gallerist/game.jsonl"
    root = Path(__file__).parents[2]
    s = Session(seed=SEED)
    snapshots = Snapshots()
    for line in script.read_text(encoding="utf-8").splitlines():
        request = json.loads(line)
        if "catalog" in request:
            request["catalog"] = str(root / request["catalog"])
        assert s.handle(request)["ok"], request
        doc = page.document(snapshots.snapshot(s), events="/e", version=1)
        shown = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(
            r"<script.*?</script>|<style.*?</style>", "", doc, flags=re.S)))
        machine = re.findall(r"\b[a-z]+_[a-z_]+\b", shown)
        assert machine == [], (request["cmd"], machine)
    assert s.state.over


def test_a_die_no_player_rolled_is_named_in_words_on_the_page() -> None:
    """Issue 39: the Gallerist's start-player draw showed as "1 start_player" (its die id)."""
    s = Session(seed=SEED)
    answer = s.handle({"cmd": "new_game", "game": "gallerist", "players": ["Ann", "Ben", "Cy"],
                       "bag": 30})
    assert answer["ok"], answer
    data = Snapshots().snapshot(s)
    [die] = data["dice"]["dice"]
    assert die["player"] == "the table"  # (nobody's draw, said as such; never its id)
    assert "start_player" not in page.document(data, events="/e", version=1).split("<script")[0]
