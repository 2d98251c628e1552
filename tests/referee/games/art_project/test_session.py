"""The A.R.T. Project through the game-neutral core: the registry, Session, undo with kept
battle dice, store, resume and verify; and a property: the shared counts hold after any
sequence of commands and undos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.app import open_session
from referee.db import Reader, connect
from referee.session import Session
from tests.referee.games.art_project.helpers import totals
from tests.referee.games.playing import resumes_and_verifies

SEED = bytes(range(32))
NAMES = ["Ann", "Ben", "Cy"]
START = {"cmd": "new_game", "game": "art-project", "mission": "test-board",
         "difficulty": "hard", "players": [{"name": n} for n in NAMES]}


def ok(session: Session, **request: Any) -> dict[str, Any]:
    answer = session.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def to_battle(session: Session) -> None:
    """Round 1 played to phase C with Ann and Ben in Film (2 agents), one ally unlocked."""
    ok(session, **START)
    for n in NAMES:
        ok(session, cmd="draw", player=n)
        ok(session, cmd="draw", player=n)
    for n in NAMES:
        ok(session, cmd="play_card", player=n)
    ok(session, cmd="end_phase")
    ok(session, cmd="unlock_ally")
    ok(session, cmd="move", player="Ann", to="Film")
    ok(session, cmd="move", player="Ben", to="Film")
    ok(session, cmd="end_phase")


def rolls(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in answer["events"] if e["type"] == "roll"}


def test_the_registry_finds_the_game_and_undo_never_rerolls_a_battle(tmp_path: Path) -> None:
    assert "art-project" in games.available()
    path = tmp_path / "games.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    to_battle(session)
    first = rolls(ok(session, cmd="battle", city="Film", leader="Ann"))
    assert list(first) == ["Ann", "ally1", "Ben"]
    assert [first[d]["player"] for d in first] == ["Ann", None, "Ben"]
    ok(session, cmd="undo")
    refused = session.handle({"cmd": "battle", "city": "Film", "leader": "Ann",
                              "rolls": {"Ben": 6}})
    assert refused["error"]["code"] == "die_kept"
    # Ben leads now: the team's ally die and each player's own die are the ones kept
    again = rolls(ok(session, cmd="battle", city="Film", leader="Ben"))
    assert {d: (e["value"], e["kept"]) for d, e in again.items()} == {
        d: (first[d]["value"], True) for d in first}
    state = session.state
    while state.battle is not None:
        ok(session, cmd="weapon", player="Ann")
        state = session.state
    assert session.state.battle is None and session.state.agents["Film"] == 0
    ok(session, cmd="reveal")  # so that verify can check every electronic die
    resumes_and_verifies(session, path, "art-project", SEED)


def _wanted(s: Any, who: str, pick: st.DataObject) -> tuple[str, str]:
    """The kind of command the state waits for (and by whom), as a table would play on."""
    if s.pending:
        return "choose", who
    if s.battle is not None:
        return pick.draw(st.sampled_from(["weapon", "weapon", "reroll", "concede"])), \
            pick.draw(st.sampled_from(list(s.battle.participants)))
    owing = [p.name for p in s.players if p.draws_owed]
    if s.phase == "A" and owing:
        return "draw", owing[0]
    due = [p.name for p in s.players if p.hand and p.played < s.plays_due()]
    if s.phase == "A" and due:
        return "play_card", due[0]
    if s.phase == "B":
        return pick.draw(st.sampled_from(["move", "move", "end_phase"])), who
    if s.phase == "C":
        here = [p.name for p in s.players if s.agents.get(p.city, 0)
                and p.city not in s.fought]
        if here:
            return pick.draw(st.sampled_from(["battle", "end_phase"])), here[0]
    return "end_phase", who


def _requests(s: Any, pick: st.DataObject) -> dict[str, Any]:
    names = [p.name for p in s.players]
    cities = [c.name for c in s.mission.cities]
    who = pick.draw(st.sampled_from(names))
    kind = pick.draw(st.sampled_from(
        ["next", "next", "next", "next", "draw", "play_card", "extra_draw", "move",
         "end_phase", "unlock_ally", "battle", "weapon", "reroll", "concede", "choose",
         "undo", "undo"]))
    if kind == "next":  # what the game waits for, so that sequences reach every phase
        kind, who = _wanted(s, who, pick)
    small = st.integers(0, 3)
    if kind == "play_card":
        return {"cmd": kind, "player": who,
                "spend": pick.draw(st.dictionaries(st.sampled_from(["fuel", "radio",
                                                                    "weapon"]), small)),
                "agents": pick.draw(st.dictionaries(st.sampled_from(cities), small,
                                                    max_size=3)),
                "gain": {**pick.draw(st.dictionaries(st.sampled_from(["fuel", "weapon"]),
                                                     small)),
                         "health": pick.draw(st.integers(0, 2))},
                "clues": pick.draw(st.lists(st.sampled_from(["film", "book", "music"]),
                                            max_size=2))}
    if kind == "move":
        return {"cmd": kind, "player": who, "to": pick.draw(st.sampled_from(cities)),
                "health": pick.draw(st.integers(0, 1))}
    if kind == "extra_draw":
        return {"cmd": kind, "player": who,
                "pay": pick.draw(st.sampled_from(["fuel", "radio", "weapon", "health"]))}
    if kind == "battle":
        city = next((p.city for p in s.players if p.name == who), cities[0])
        return {"cmd": kind, "city": city, "leader": who}
    if kind == "weapon":
        return {"cmd": kind, "player": who, "health": pick.draw(st.integers(0, 1))}
    if kind == "reroll":
        ids = [d for d, _ in s.battle.dice] if s.battle else [who]
        card = s.chain[0].id if s.chain else "c1"
        return {"cmd": kind, "card": card, "dice": ids[:1]}
    if kind == "unlock_ally":
        return {"cmd": kind, "health": pick.draw(st.dictionaries(st.sampled_from(names),
                                                                 st.integers(0, 2)))}
    if kind == "choose":
        options = s.pending[0].options if s.pending else ("film",)
        return {"cmd": kind, "choice": pick.draw(st.sampled_from(options))}
    if kind in ("draw",):
        return {"cmd": kind, "player": who}
    return {"cmd": kind}


@settings(max_examples=80, deadline=None)
@given(pick=st.data(), solo=st.booleans())
def test_the_counts_hold_after_any_commands_and_undos(pick: st.DataObject, solo: bool) -> None:
    session = Session(seed=SEED)
    start = ({**START, "players": [{"name": "Ann"}], "ally": "green"} if solo else START)
    ok(session, **start)
    for _ in range(pick.draw(st.integers(10, 120))):
        s = session.state
        if s.over:
            break
        before = session.ruleset.state_json(s)
        answer = session.handle(_requests(s, pick))
        if not answer["ok"]:  # a refusal changes nothing
            assert session.ruleset.state_json(session.state) == before
        s = session.state
        assert totals(s) == ({"fuel": 6, "radio": 6, "weapon": 6}, 25, 40)
        assert all(p.health >= 0 for p in s.players)
        assert all(v >= 0 for v in (*s.van.values(), *s.reserve.values(), s.agent_reserve,
                                   s.health_reserve, s.markers, *s.agents.values()))
        assert 0 <= s.allies <= 5 and session.ruleset.state_json(s)["next"]
    again = Session.resume(list(session.log), seed=session.seed, ruleset=session.ruleset)
    assert again.state == session.state and again.kept == session.kept


def test_the_hall_of_fame_per_mission_and_difficulty_across_a_game_file(
        tmp_path: Path) -> None:
    """ART-35: two games won and lost are counted, an abandoned one is not; the session's
    state carries the same table from game to game, and a resumed file goes on with it."""
    from referee.games.art_project.records import hall_of_fame

    path = tmp_path / "games.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    to_battle(session)  # game 1: lost by conceding Ann's last health
    for _ in range(2):
        ok(session, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1,
                                                                    "ally1": 1})
        ok(session, cmd="concede")
        if session.state.over:
            break
        ok(session, cmd="end_phase")
        ok(session, cmd="end_phase")
        for n in NAMES:
            ok(session, cmd="draw", player=n)
            ok(session, cmd="draw", player=n)
        for n in NAMES:
            ok(session, cmd="play_card", player=n)
        for _ in range(4):
            ok(session, cmd="end_phase")
    assert session.state.reason == "health"
    ok(session, **{**START, "difficulty": "easy"})  # game 2: abandoned
    ok(session, **{**START, "abandon": True})  # game 3: lost at once
    for n in NAMES:
        ok(session, cmd="draw", player=n)
        ok(session, cmd="draw", player=n)
    ok(session, cmd="play_card", player="Ann", agents={"Music": 40})
    table = [{"mission": "test-board", "difficulty": "hard", "won": 0, "lost": 2}]
    assert session.ruleset.state_json(session.state)["hall_of_fame"] == table
    session.close()
    reader = Reader(connect(path, readonly=True), path)
    try:
        stored = [(g.game, g.status, g.result, reader.entries(g.id)[0].events)
                  for g in reader.games()]
    finally:
        reader.close()
    assert [s[1] for s in stored] == ["over", "abandoned", "over"]
    assert hall_of_fame(stored) == table


def test_an_undone_reroll_leaves_its_dice_for_the_next_reroll_of_those_ids() -> None:
    session = Session(seed=SEED)
    ok(session, **START)
    for n in NAMES:
        ok(session, cmd="draw", player=n)
        ok(session, cmd="draw", player=n)
    ok(session, cmd="play_card", player="Ann", clues=["film", "book"])
    ok(session, cmd="play_card", player="Ben", clues=["music"])
    ok(session, cmd="play_card", player="Cy")
    ok(session, cmd="end_phase")
    ok(session, cmd="unlock_ally")
    ok(session, cmd="move", player="Ann", to="Film")
    ok(session, cmd="move", player="Ben", to="Film")
    ok(session, cmd="end_phase")
    ok(session, cmd="battle", city="Film", leader="Ann", rolls={"Ann": 1, "Ben": 1,
                                                                "ally1": 1})
    first = rolls(ok(session, cmd="reroll", card="c1", dice=["Ann", "ally1"]))
    assert [(e["purpose"], e["kept"]) for e in first.values()] == [("reroll", False)] * 2
    undone = ok(session, cmd="undo")["events"][0]
    assert {k["id"] for k in undone["kept"]} == {"Ann", "ally1"}
    assert session.state.battle is not None and session.state.chain[0].id == "c1"
    refused = session.handle({"cmd": "reroll", "card": "c1", "dice": ["Ann"],
                              "rolls": {"Ann": 6}})
    assert refused["error"]["code"] == "die_kept"
    again = rolls(ok(session, cmd="reroll", card="c1", dice=["ally1", "Ann"]))
    assert {d: (e["value"], e["kept"]) for d, e in again.items()} == {
        d: (first[d]["value"], True) for d in first}
