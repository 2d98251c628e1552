"""Gallery Grippers through its Ruleset: the common envelope, legal actions asked of `decide`,
and roll events naming their die id."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from referee import games
from referee.session import Session

SEED = bytes(range(32))
ENVELOPE = ("game", "phase", "pending", "over", "result", "commitment", "seed", "next")
NAMES = ["Ann", "Ben", "Cy"]


def dealt(session: Session) -> None:
    assert session.handle({"cmd": "new_game", "players": NAMES,
                           "rules": {"win_money": 400_000_000}})["ok"]
    for name in NAMES:
        [deal] = session.ruleset.legal_actions(session.state, name)
        assert session.handle(deal)["ok"], deal


@settings(max_examples=30, deadline=None)
@given(picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
@example(picks=[0, 4236, 0])  # a trade giving nothing back was listed without its `get`
def test_every_legal_action_is_accepted_and_the_envelope_is_always_there(
        picks: list[int]) -> None:
    session = Session(seed=SEED)
    gg = games.find("gallery-grippers")
    assert session.ruleset is gg
    dealt(session)
    for pick in picks:
        state = session.state
        doc = gg.state_json(state)
        assert all(k in doc for k in ENVELOPE) and doc["game"] == "gallery-grippers"
        assert doc["next"]
        if state.over:
            over = next(e for entry in session.log for e in entry.events
                        if e["type"] == "game_over")
            assert doc["result"] == {k: over[k] for k in ("outcome", "winners", "reason",
                                                          "rule")}
            assert gg.legal_actions(state, None) == []
            break
        assert doc["result"] is None
        actor = state.current_player.name if state.current_player else None
        actions = [*gg.legal_actions(state, actor), *gg.legal_actions(state, None)]
        assert actions, doc["next"]
        action = actions[pick % len(actions)]
        answer = session.handle(action)
        assert answer["ok"], (action, answer)
        for e in answer["events"]:
            if e["type"] == "roll":
                assert e["id"] == (e["player"] if e["player"] is not None else "table")


@settings(max_examples=20, deadline=None)
@given(picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=80))
def test_typed_events_have_exactly_their_typeddict_keys(picks: list[int]) -> None:
    from referee.games.gallery_grippers.events import TYPED

    session = Session(seed=SEED)
    gg = session.ruleset
    dealt(session)
    for pick in picks:
        state = session.state
        if state.over:
            break
        actor = state.current_player.name if state.current_player else None
        actions = [*gg.legal_actions(state, actor), *gg.legal_actions(state, None)]
        assert session.handle(actions[pick % len(actions)])["ok"]
    for entry in session.log:
        for e in entry.events:
            typed = TYPED.get(e["type"])
            if typed is not None:
                assert set(e) == set(typed.__annotations__), e
