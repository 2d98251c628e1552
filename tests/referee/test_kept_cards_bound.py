"""A box draw an undo took back binds the draw that showed it (issue 42): no undo reveals
anything a later choice can use, in any game.

Undo corrects a mis-entry and never lets a result be chosen. A draw the box made and the table
saw, then undid, showed a hidden card: choosing again after seeing it is a choice. So the seen
card stays on the table (kept, as before) *and* the draw stays bound to it:

- Gallery Grippers: while a kept card waits for a player's draw, that player's draw from the
  other deck (by the box or named by hand) is refused, ``draw_bound`` (GG-17), naming the card
  and the deck; correcting the tile instead puts the draw off, never sheds the card: the
  player's next draw must still be from that deck, and gives it.
- The Gallerist: the bag is one pile and its visitors are nobody's until drawn, so a kept
  visitor waits for the next draw from the bag whoever it is recorded for (a wrong player is a
  mis-entry to correct, and the seen colour comes with the correction), and a colour drawn by
  hand meanwhile is ``card_kept`` whoever draws it.
- The A.R.T. Project: the box never sees a card (draws are counts): nothing hidden to bind.

The properties drive random commands and undos through the session's protocol and check
them against models kept here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.app import open_session
from referee.games.gallery_grippers.catalog import parse_catalog
from referee.games.gallery_grippers.commands import Draw
from referee.games.gallery_grippers.state import GameState
from referee.session import Session
from tests.conftest import examples
from tests.referee.conftest import SEED, Table, hand_for, start
from tests.referee.games.gallerist.helpers import FIXTURE, PLACES
from tests.referee.games.playing import resumes_and_verifies
from tests.referee.test_kept_property import Kept, Model, request, small_catalog

OTHER = {"specialist": "attribute", "attribute": "specialist"}


def drawn(answer: dict[str, Any]) -> dict[str, Any]:
    [e] = [e for e in answer["events"] if e["type"] in ("drawn", "visitor_drawn")]
    return e


def the_pick(answer: dict[str, Any]) -> dict[str, Any]:
    [e] = [e for e in answer["events"] if e["type"] == "roll" and e["die"] == "pick"]
    return e


# ---- Gallery Grippers ----------------------------------------------------------------------

def ann_saw(deck: str = "specialist") -> tuple[Table, str]:
    """Ann lands on recruitment, the box draws from `deck` and the table sees the card; the
    draw is undone. (The table's case: she saw "Lookout", then drew from the other deck.)"""
    t = start()
    t.ok("move", player="Ann", tile="recruitment", roll=1)
    seen = drawn(t.ok("draw", player="Ann", deck=deck))["card"]
    t.ok("undo")
    return t, seen


def test_an_undone_draw_binds_its_deck_the_other_deck_is_refused_and_says_why() -> None:
    t, seen = ann_saw("specialist")
    refused = t.no("draw", "draw_bound", rule="GG-17", player="Ann", deck="attribute")
    message = refused["error"]["message"]
    assert message == (
        f"Ann's undone draw showed {seen}, the top of the specialist deck: Ann's next draw "
        f"must be from that deck (it gives {seen} again). Undo corrects a mis-entry; it "
        "never lets a seen card be avoided.")
    attribute = next(iter(t.session.state.piles["attribute"]))
    t.no("draw", "draw_bound", rule="GG-17", player="Ann", deck="attribute", card=attribute)
    # a front end asks before it offers a choice: the other deck is not offered
    refusal = t.session.refusal(Draw(player="Ann", deck="attribute"))
    assert refusal is not None and refusal.code == "draw_bound"
    assert t.session.refusal(Draw(player="Ann", deck="specialist")) is None
    again = t.ok("draw", player="Ann", deck="specialist")
    assert drawn(again)["card"] == seen and the_pick(again)["kept"] is True
    assert t.session.kept == ()


def test_correcting_the_tile_puts_the_draw_off_but_never_sheds_the_seen_card() -> None:
    t, seen = ann_saw("attribute")
    t.ok("undo")  # the move: the pawn was on a plain tile after all
    t.ok("move", player="Ann", tile="plain", roll=1)
    t.ok("end_turn", player="Ann")
    t.ok("move", player="Ben", tile="recruitment", roll=2)
    t.ok("draw", player="Ben", deck="specialist")  # Ben's draws are his own: not bound
    t.ok("end_turn", player="Ben")
    t.ok("move", player="Ann", tile="recruitment", roll=3)
    t.no("draw", "draw_bound", rule="GG-17", player="Ann", deck="specialist")
    again = Session.resume(list(t.session.log), seed=SEED)  # the binding survives a restart
    assert again.kept == t.session.kept
    refusal = again.refusal(Draw(player="Ann", deck="specialist"))
    assert refusal is not None and refusal.code == "draw_bound"
    answer = t.ok("draw", player="Ann", deck="attribute")
    assert drawn(answer)["card"] == seen and the_pick(answer)["kept"] is True


def test_the_undo_prompt_says_the_drawn_card_stays_bound_to_its_draw() -> None:
    from referee.words import undo_dice_lines, undo_dice_words

    t = start()
    t.ok("move", player="Ann", tile="recruitment", roll=1)
    answer = t.ok("draw", player="Ann", deck="specialist")
    words = undo_dice_words(answer["events"])
    assert words is not None and "another deck" in words and "refused" in words
    assert undo_dice_lines(answer["events"]) == (
        "The card stays: the next draw gives it, not another deck.",)


def bound_for(model: Model, s: GameState, player: str) -> list[Kept]:
    """The model's kept cards that bind `player`'s next draw: theirs, drawn for a draw, and
    still in the pile they came from."""
    return [k for k in model.kept if k.player == player and k.deck is not None
            and k.purpose == "draw" and model.applies(k, player, k.key, "draw", s)]


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=1, max_value=3),
       reup=st.sampled_from([0, 4]),
       steps=st.integers(min_value=40, max_value=200),
       rnd=st.randoms(use_true_random=False))
def test_no_undo_lets_a_player_see_a_card_and_then_draw_another(
        players: int, reup: int, steps: int, rnd: Random) -> None:
    """Gallery Grippers: once a box draw a player saw is undone, that player's next draw is
    that card, from that deck, while it is still in its pile; drawing from the other deck,
    naming a card by hand, or any sequence of undos and redos in between never gives another
    card. The kept cards themselves are `test_kept_property.Model`'s, written apart from the
    session."""
    catalog = parse_catalog(small_catalog(players), "small.toml")
    t = Table(Session(catalog, seed=SEED))
    rules = {"reup_at_or_below": reup, "bypass_target": 60, "win_money": 10**12}
    t.ok("new_game", players=[f"P{i}" for i in range(players)], rules=rules)
    model = Model(SEED, "1-100")
    last = ""
    for _ in range(steps):
        p, v = rnd.randrange(2**16), rnd.randrange(2**16)
        s = t.session.state
        if s.over:
            break
        if last == "draw" and p % 2:
            req: dict[str, Any] = {"cmd": "undo"}  # see a card, take it back
        else:
            req = request(s, p, v)
            if req["cmd"] == "move" and "museum" not in req and p % 3 == 0 and \
                    s.current_player is not None and s.current_player.where is None:
                req["tile"] = "recruitment"
        if req["cmd"] == "deal":
            req.update(hand_for(t.session))
        who = s.current_player.name if s.current_player else None
        bound = bound_for(model, s, who) if who else []
        answer = t.session.handle(req)
        last = req["cmd"] if answer["ok"] else last
        if not answer["ok"]:
            code = answer["error"]["code"]
            assert code != "internal_error", answer
            if code == "draw_bound":
                event("refused: draw_bound")
                assert answer["error"]["rule"] == "GG-17"
                assert bound and req["deck"] not in {k.deck for k in bound}, (req, bound)
            continue
        if req["cmd"] == "undo":
            [undone] = answer["events"]
            model.undone(undone)
        else:
            for e in answer["events"]:
                if e["type"] == "drawn" and e["player"] == who and bound:
                    event("a bound draw gives the seen card")
                    assert e["source"] == "box", ("a card named by hand replaced a seen one",
                                                  e, bound)
                    assert (e["deck"], e["card"]) in {(k.deck, k.card) for k in bound}, (
                        "a player saw a card, undid the draw and drew another", e, bound)
            model.accepted(t.session.log[-1].seq, answer["events"], s)
        model.same_as(t.session)
    again = Session.resume(list(t.session.log), seed=SEED, catalog=catalog)
    assert again.kept == t.session.kept and again.state == t.session.state


# ---- The Gallerist -------------------------------------------------------------------------

NAMES = ["Ann", "Ben", "Cy"]
BAG = {"pink": 6, "brown": 6, "white": 6}
GALLERIST = {"cmd": "new_game", "game": "gallerist", "players": NAMES, "catalog": FIXTURE,
             "bag": BAG, "start_player": "Ann"}


def gallerist(session: Session) -> Table:
    t = Table(session)
    assert t.session.handle(GALLERIST)["ok"]
    while t.session.state.phase == "setup":
        due = t.session.ruleset.state_json(t.session.state)["pending"][0]["player"]
        t.ok("place_start", player=due, location=PLACES[NAMES.index(due)])
    return t


def test_an_undone_visitor_draw_comes_back_whoever_it_is_drawn_for(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    t = gallerist(open_session(db=path, seed=SEED, notify=lambda _: None))
    first = drawn(t.ok("draw_visitor", player="Ann"))
    assert first["source"] == "box"
    [undone] = t.ok("undo")["events"]
    assert [(k["player"], k["card"]) for k in undone["kept"]] == [(None, first["colour"])]
    other = next(c for c in BAG if c != first["colour"])
    refused = t.no("draw_visitor", "card_kept", player="Ben", colour=other)
    assert first["colour"] in refused["error"]["message"]
    t.no("draw_visitor", "card_kept", colour=first["colour"])  # by hand, even the same colour
    again = t.ok("draw_visitor", player="Ben")  # it was Ben's draw: the same visitor
    assert drawn(again)["colour"] == first["colour"] and drawn(again)["player"] == "Ben"
    assert the_pick(again)["kept"] is True
    t.ok("undo")
    third = t.ok("draw_visitor")  # recorded for nobody: still the same visitor
    assert drawn(third)["colour"] == first["colour"] and the_pick(third)["kept"] is True
    t.ok("reveal")
    resumes_and_verifies(t.session, path, "gallerist", SEED)


@dataclass
class Bag:
    """The model: the colours undone box draws showed, in the order the next draws must give
    them (whoever they are drawn for), and each standing step's box-drawn colours."""

    waiting: list[str] = field(default_factory=list)
    steps: list[list[str]] = field(default_factory=list)


def gallerist_request(p: int, v: int) -> dict[str, Any]:
    who = [*NAMES, None][v % 4]
    player = {} if who is None else {"player": who}
    if p % 10 < 3:
        return {"cmd": "undo"}
    if p % 10 < 7:
        return {"cmd": "draw_visitor", **player}
    if p % 10 == 7:
        return {"cmd": "draw_visitor", "colour": sorted(BAG)[v % 3], **player}
    if p % 10 == 8:
        return {"cmd": "take_ticket", "player": NAMES[v % 3],
                "colour": ["pink", "brown", "white"][p % 3]}
    return {"cmd": "money", "player": NAMES[v % 3], "delta": 1 + v % 3}


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.integers(min_value=10, max_value=80), rnd=st.randoms(use_true_random=False))
def test_no_undo_lets_the_table_see_a_visitor_and_then_draw_another(steps: int,
                                                                    rnd: Random) -> None:
    """The Gallerist: a visitor a box draw showed, undone, is the next visitor out of the bag,
    whoever the next draw is recorded for; a colour drawn by hand meanwhile is refused, and
    no sequence of draws, other records and undos gives another colour first."""
    t = gallerist(Session(seed=SEED))
    model = Bag()
    for _ in range(steps):
        req = gallerist_request(rnd.randrange(2**16), rnd.randrange(2**16))
        answer = t.session.handle(req)
        if not answer["ok"]:
            code = answer["error"]["code"]
            assert code != "internal_error", answer
            if code == "card_kept":
                event("refused: card_kept")
                assert model.waiting and req.get("colour"), (req, model)
            continue
        if req["cmd"] == "undo":
            # (a step before the model's first, a starting place, drew nothing)
            model.waiting = (model.steps.pop() if model.steps else []) + model.waiting
            continue
        boxed = []
        for e in answer["events"]:
            if e["type"] != "visitor_drawn":
                continue
            if model.waiting:
                event("a visitor drawn while a seen one waits")
                assert e["source"] == "box", ("a colour drawn by hand replaced a seen one", e)
                assert e["colour"] == model.waiting[0], (
                    "the table saw a visitor, undid the draw and drew another", e, model)
                assert the_pick(answer)["kept"] is True
                model.waiting.pop(0)
            if e["source"] == "box":
                boxed.append(e["colour"])
        model.steps.append(boxed)
    assert [k.card for k in t.session.kept] == model.waiting
