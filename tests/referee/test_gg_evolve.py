"""Gallery Grippers' `evolve`, event by event (issue 28; docs/mutation.md): each test fails on a
mutant of referee/games/gallery_grippers/evolve.py that folds an event into a different state.
A stored log is folded without the rules, so what each event leaves is what a resumed game
shows; an event that cannot apply is a ValueError that names what is wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.gallery_grippers.catalog import default_catalog
from referee.games.gallery_grippers.evolve import evolve, fold
from referee.games.gallery_grippers.ruleset import GalleryGrippers
from referee.games.gallery_grippers.state import (
    ACTIVE,
    OUT,
    WINNER,
    GameState,
    Pending,
    Phase,
    initial_state,
    state_to_json,
)
from tests.referee.conftest import start

CAT = default_catalog()
LOUVRE = "The Louvre"
PIECES = CAT.museums[LOUVRE]  # catalog order: not alphabetical


def play() -> GameState:
    """Ann and Ben in play, Ann to move; each holds three cards of each deck."""
    return start().session.state


def with_pending(s: GameState, *pending: tuple[str, str, dict[str, object]]) -> GameState:
    return replace(
        s,
        pending=tuple(
            Pending(player=p, decision=d, options=(), info=info) for p, d, info in pending
        ),
    )


def shape(s: GameState) -> list[tuple[str | None, str, dict[str, object]]]:
    return [(p.player, p.decision, dict(p.info)) for p in s.pending]


def fails(s: GameState, event: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as error:
        evolve(s, event)
    assert str(error.value) == message


def test_events_that_cannot_apply_are_errors_naming_what_is_wrong() -> None:
    s = play()
    fails(s, {"type": "teleported"}, "unknown event type 'teleported'")
    fails(
        initial_state(CAT),
        {"type": "first_player", "player": "Ann"},
        "no transition from no_game to playing",
    )
    fails(s, {"type": "strike", "player": "Zed", "strikes": 1}, "event names unknown player 'Zed'")
    fails(s, {"type": "turn", "player": "Zed", "number": 2}, "event names unknown player 'Zed'")
    fails(
        s,
        {"type": "hand_dealt", "player": "Ann", "specialists": ["Nobody"], "attributes": []},
        "no copy of 'Nobody' left to take",
    )
    fails(
        s,
        {"type": "bypass", "player": "Ann", "specialist": "Nobody", "attribute": None},
        "unknown card 'Nobody'",
    )
    fails(
        s,
        {"type": "resolved", "player": "Ann", "decision": "obstacle"},
        "no pending obstacle for Ann",
    )
    card = next(n for n, left in s.piles["specialist"].items() if left)
    fails(
        s,
        {"type": "drawn", "player": "Ann", "deck": "specialist", "card": card},
        "Ann drew with no draw due",
    )


def test_events_that_change_nothing() -> None:
    s = play()
    for kind in (
        "roll",
        "turn_order_rolled",
        "caught",
        "reentered",
        "no_cards_to_draw",
        "kept_dropped",
        "die_corrected",
    ):
        assert evolve(s, {"type": kind}) is s
    assert fold(s, []) is s


def test_a_new_game_starts_with_both_discard_piles_empty_whatever_came_before() -> None:
    t = start()
    t.ok("move", player="Ann", tile="art", museum=LOUVRE, roll=2)
    t.ok("steal", player="Ann", art=PIECES[0].name)
    s = evolve(
        t.session.state,
        {
            "type": "bypass",
            "player": "Ann",
            "specialist": t.session.state.player("Ann").specialists[0],
            "attribute": None,
        },
    )
    assert sum(s.discards["specialist"].values()) == 1
    again = evolve(
        s,
        {
            "type": "game_started",
            "players": [{"name": "Cy", "color": "red"}],
            "rules": {"win_money": 7},
            "commitment": "cd" * 32,
        },
    )
    assert again.discards == {"specialist": {}, "attribute": {}}
    assert again.piles == {
        "specialist": {c.name: c.copies for c in CAT.specialists.values()},
        "attribute": {c.name: c.copies for c in CAT.attributes.values()},
    }
    assert again.museums == {m: tuple(a.name for a in arts) for m, arts in CAT.museums.items()}
    assert [(p.name, p.color, p.art, p.specialists) for p in again.players] == [
        ("Cy", "red", (), ())
    ]
    assert (again.phase, again.rules.win_money, again.commitment) == (Phase.SETUP, 7, "cd" * 32)
    assert (again.current, again.turn_number, again.round, again.first_player) == (None, 0, 0, None)


def test_discards_count_every_copy_in_its_own_deck() -> None:
    s = play()
    ann = s.player("Ann")
    spec, attr = ann.specialists[0], ann.attributes[0]
    s = evolve(s, {"type": "bypass", "player": "Ann", "specialist": spec, "attribute": attr})
    assert s.player("Ann").specialists == ann.specialists[1:]
    assert s.player("Ann").attributes == ann.attributes[1:]
    assert s.discards == {"specialist": {spec: 1}, "attribute": {attr: 1}}
    s = evolve(s, {"type": "hand_discarded", "player": "Ann"})
    assert (s.player("Ann").specialists, s.player("Ann").attributes) == ((), ())
    assert sum(s.discards["specialist"].values()) == 3
    assert sum(s.discards["attribute"].values()) == 3
    assert s.discards["specialist"][spec] == ann.specialists.count(spec)
    assert state_to_json(s)["decks"]["specialist"]["discard"] == 3


def test_a_pending_decision_keeps_only_its_extra_fields_as_info() -> None:
    s = with_pending(play(), ("Ben", "obstacle", {"tile": "security"}))
    s = evolve(
        s,
        {
            "type": "pending",
            "player": "Ann",
            "decision": "tile",
            "options": ["plain", "art"],
            "roll": 3,
        },
    )
    assert s.pending[-1] == Pending(
        player="Ann", decision="tile", options=("plain", "art"), info={"roll": 3}
    )
    assert dict(s.pending[-1].info) == {"roll": 3}
    assert shape(s)[0] == ("Ben", "obstacle", {"tile": "security"})


def test_resolving_takes_off_that_player_s_decision_only() -> None:
    s = with_pending(
        play(), ("Ann", "draw", {"count": 1}), ("Ann", "reup", {}), ("Ben", "obstacle", {})
    )
    after = evolve(s, {"type": "resolved", "player": "Ann", "decision": "reup"})
    assert shape(after) == [("Ann", "draw", {"count": 1}), ("Ben", "obstacle", {})]
    after = evolve(s, {"type": "draws_forfeited", "player": "Ann", "count": 1})
    assert shape(after) == [("Ann", "reup", {}), ("Ben", "obstacle", {})]


def test_a_draw_counts_down_the_drawer_s_own_draw_and_leaves_the_rest() -> None:
    s = with_pending(
        play(),
        ("Ben", "draw", {"count": 1}),
        ("Ann", "draw", {"count": 2}),
        ("Ben", "obstacle", {}),
    )
    card = next(n for n, left in s.piles["attribute"].items() if left)
    hand = s.player("Ann").attributes
    left = s.piles["attribute"][card]
    s = evolve(s, {"type": "drawn", "player": "Ann", "deck": "attribute", "card": card})
    assert shape(s) == [
        ("Ben", "draw", {"count": 1}),
        ("Ann", "draw", {"count": 1}),
        ("Ben", "obstacle", {}),
    ]
    assert s.player("Ann").attributes == (*hand, card)
    assert s.piles["attribute"].get(card, 0) == left - 1
    s = evolve(s, {"type": "drawn", "player": "Ann", "deck": "attribute", "card": card})
    assert shape(s) == [("Ben", "draw", {"count": 1}), ("Ben", "obstacle", {})]
    assert s.player("Ann").attributes == (*hand, card, card)


def test_a_player_out_is_outside_and_their_decisions_go() -> None:
    s = evolve(play(), {"type": "entered", "player": "Ann", "museum": LOUVRE})
    assert s.player("Ann").where == LOUVRE
    s = with_pending(s, ("Ann", "second_strike", {}), ("Ben", "obstacle", {}))
    s = evolve(s, {"type": "out", "player": "Ann"})
    assert (s.player("Ann").status, s.player("Ann").where) == (OUT, None)
    assert shape(s) == [("Ben", "obstacle", {})]
    assert s.player("Ben").status == ACTIVE


def test_strikes_reset_also_clears_the_reset_owed_at_the_next_roll() -> None:
    s = evolve(play(), {"type": "entered", "player": "Ann", "museum": LOUVRE})
    s = evolve(s, {"type": "strike", "player": "Ann", "strikes": 2})
    s = evolve(s, {"type": "left_premises", "player": "Ann"})
    ann = s.player("Ann")
    assert (ann.where, ann.strikes, ann.reset_on_roll) == (None, 2, True)
    s = evolve(s, {"type": "strikes_reset", "player": "Ann"})
    ann = s.player("Ann")
    assert (ann.strikes, ann.reset_on_roll) == (0, False)
    assert state_to_json(s)["players"][0]["strikes_reset_at_next_roll"] is False


def test_art_returned_goes_back_in_the_catalog_s_order() -> None:
    s = play()
    for a in (PIECES[0], PIECES[2]):
        s = evolve(
            s,
            {
                "type": "stolen",
                "player": "Ann",
                "art": {
                    "name": a.name,
                    "museum": a.museum,
                    "value": a.value,
                    "deduction": a.deduction,
                },
            },
        )
    assert s.player("Ann").art == (PIECES[0], PIECES[2])
    assert s.museums[LOUVRE] == (PIECES[1].name, PIECES[3].name)
    s = evolve(
        s,
        {
            "type": "art_returned",
            "player": "Ann",
            "pieces": [
                {"name": PIECES[2].name, "museum": LOUVRE},
                {"name": PIECES[0].name, "museum": LOUVRE},
            ],
        },
    )
    assert s.museums[LOUVRE] == tuple(a.name for a in PIECES)
    assert s.player("Ann").art == ()


def test_game_over_names_the_winner_reason_and_rule_and_leaves_nothing_to_decide() -> None:
    s = with_pending(play(), ("Ben", "obstacle", {}))
    over = evolve(s, {"type": "game_over", "winner": "Ann", "reason": "money", "rule": "GG-14"})
    assert (over.phase, over.winner, over.over_reason, over.over_rule, over.pending) == (
        Phase.OVER,
        "Ann",
        "money",
        "GG-14",
        (),
    )
    assert (over.player("Ann").status, over.player("Ben").status) == (WINNER, ACTIVE)
    assert GalleryGrippers().result(over) == {
        "outcome": "won",
        "winners": ["Ann"],
        "reason": "money",
        "rule": "GG-14",
    }
    lost = evolve(
        s, {"type": "game_over", "winner": None, "reason": "third_strike", "rule": "GG-16"}
    )
    assert [p.status for p in lost.players] == [ACTIVE, ACTIVE]
    assert GalleryGrippers().result(lost) == {
        "outcome": "lost",
        "winners": [],
        "reason": "third_strike",
        "rule": "GG-16",
    }
    old = evolve(s, {"type": "game_over", "winner": "Ben", "reason": "last_standing"})
    assert (old.over_reason, old.over_rule) == ("last_standing", None)  # no rule named


def test_a_game_won_at_the_table_gives_its_result() -> None:
    big = max((a for arts in CAT.museums.values() for a in arts), key=lambda a: a.value)
    t = start(["Solo"], rules={"win_money": big.value})
    t.ok("move", player="Solo", tile="art", museum=big.museum, roll=2)
    t.ok("steal", player="Solo", art=big.name)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="exit", roll=1)
    t.ok("end_turn", player="Solo")
    t.ok("move", player="Solo", tile="black_market", roll=1)
    t.ok("sell", player="Solo")
    assert t.session.ruleset.result(t.session.state) == {
        "outcome": "won",
        "winners": ["Solo"],
        "reason": "money",
        "rule": "GG-14",
    }
