"""A second game plugs into the same Session, store and verify without touching them.

`toy_ruleset` ("Two Dice") rolls two dice at once, keyed by die id (red, blue). Registered
here as an entry point would register it, it is played, undone with its dice kept by id,
stored, resumed and verified through the game-neutral core.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.app import open_session
from referee.audit import verify
from referee.db import Reader, connect
from referee.export import from_store
from referee.session import Session
from tests.referee import toy_ruleset

SEED = bytes(range(32))
TOY = toy_ruleset.RULESET.id


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    unregister = games.register(toy_ruleset.RULESET)
    yield
    unregister()


def ok(session: Session, **request: Any) -> dict[str, Any]:
    answer = session.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def rolls(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in answer["events"] if e["type"] == "roll"}


def test_an_unknown_game_is_a_bad_request_and_gg_is_the_default() -> None:
    session = Session(seed=SEED)
    bad = session.handle({"cmd": "new_game", "game": "chess", "players": ["Ann"]})
    assert bad["ok"] is False and bad["error"]["code"] == "bad_request"
    assert "chess" in bad["error"]["message"] and TOY in bad["error"]["message"]
    assert session.log == []
    assert ok(session, cmd="new_game", players=["Ann"])["state"]["game"] == "gallery-grippers"
    refused = session.handle({"cmd": "new_game", "game": TOY, "players": ["Ann"]})
    assert refused["error"]["code"] == "game_in_progress"
    assert ok(session, cmd="new_game", game=TOY, players=["Ann"], abandon=True)[
        "state"]["game"] == TOY


def test_two_dice_in_one_command_undone_kept_by_id_stored_resumed_and_verified(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    state = ok(session, cmd="new_game", game=TOY, players=["Ann", "Ben"])["state"]
    assert (state["game"], state["phase"], state["result"]) == (TOY, "playing", None)
    first = rolls(ok(session, cmd="roll", player="Ann"))
    assert set(first) == {"red", "blue"}
    assert [first[d]["index"] for d in ("red", "blue")] == [0, 1]  # one stream, in order
    undone = ok(session, cmd="undo")["events"][0]
    assert {k["id"]: k["roll"]["value"] for k in undone["kept"]} == {
        d: first[d]["value"] for d in first}
    # The kept red die is the box's to roll: a typed red is refused, nothing changes.
    refused = session.handle({"cmd": "roll", "player": "Ann", "rolls": {"red": 1}})
    assert refused["error"]["code"] == "die_kept"
    assert len(session.kept) == 2
    again = rolls(ok(session, cmd="roll", player="Ann"))
    assert {d: (e["value"], e["index"], e["kept"]) for d, e in again.items()} == {
        d: (first[d]["value"], first[d]["index"], True) for d in first}
    assert session.stream_position == 2 and session.kept == ()
    while not session.state.over:
        who = session.state.players[session.state.current]
        ok(session, cmd="roll", player=who, rolls={"red": 6} if who == "Ben" else {})
    live = session.ruleset.state_json(session.state)
    assert live["result"]["outcome"] == "won" and live["seed"] == SEED.hex()
    session.close()

    resumed = open_session(db=path, seed=SEED, notify=lambda _: None)
    try:
        assert resumed.ruleset.id == TOY
        assert resumed.ruleset.state_json(resumed.state) == live
    finally:
        resumed.close()
    reader = Reader(connect(path, readonly=True), path)
    try:
        with reader.snapshot():
            [game] = reader.games()
            verdict = verify(from_store(reader, game))
    finally:
        reader.close()
    assert (game.game, game.ruleset_version, game.result) == (TOY, "1", live["result"])
    assert game.winner == live["result"]["winners"][0]
    assert verdict.good, verdict.problems


OPS = st.lists(st.one_of(st.just("box"), st.just("undo"),
                         st.sampled_from(["typed:red", "typed:blue"])),
               max_size=25)


@settings(max_examples=60, deadline=None)
@given(ops=OPS)
def test_kept_dice_follow_their_die_id_and_a_resumed_game_is_the_same(ops: list[str]) -> None:
    session = Session(ruleset=toy_ruleset.RULESET, seed=SEED)
    ok(session, cmd="new_game", players=["Ann", "Ben"])
    for op in ops:
        if session.state.over:
            break
        who = session.state.players[session.state.current]
        kept: dict[str, int] = {}
        for k in session.kept:  # the first one waiting for each die id is the one reused
            if k.player == who:
                kept.setdefault(k.id, k.roll.value)
        if op == "undo":
            answer = session.handle({"cmd": "undo"})
            if answer["ok"]:
                undone = answer["events"][0]
                assert {k["id"] for k in undone["kept"]} <= {k.id for k in session.kept}
            continue
        typed = op.removeprefix("typed:") if op.startswith("typed:") else None
        answer = session.handle({"cmd": "roll", "player": who,
                                 "rolls": {typed: 3} if typed else {}})
        if typed in kept:
            assert answer["error"]["code"] == "die_kept"  # the box rolls a kept die
            continue
        assert answer["ok"], answer
        for die, event in rolls(answer).items():
            if die in kept:  # reused: same value, marked kept
                assert (event["value"], event["kept"]) == (kept[die], True)
    entries = list(session.log)
    again = Session.resume(entries, seed=session.seed, ruleset=toy_ruleset.RULESET)
    assert again.state == session.state
    assert again.kept == session.kept
    assert again.stream_position == session.stream_position
