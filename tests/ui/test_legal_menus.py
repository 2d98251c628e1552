"""Front ends ask, never re-derive (issue 12, item 3): in any reachable state, what the box
offers is the rules' list of legal actions, and the figures it shows are the rules' own.

The reachable states come from tests/ui/reachable.py (a real session driven by random
commands). The expected menus are read here from `legal_actions` directly (not through the
helpers the screens use), and the figures from what `decide` makes of the command itself. The
console's dialogs are held to the same lists in tests/ui/test_reachable_states.py, which
mounts the console on the same states.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.view import Item, money
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.rules import decide
from referee.games.gallery_grippers.rules.queries import Decision, legal_actions, undo_preview
from referee.games.gallery_grippers.state import Phase
from tests.ui.reachable import reachable_session


def expected_tiles(actions: list[c.Command], inside: bool) -> set[tuple[str, str | None]]:
    out: set[tuple[str, str | None]] = set()
    for a in actions:
        if isinstance(a, c.Move):
            out.add((a.tile, None if a.museum is None or inside else "?"))
    return out


def values(items: list[Item]) -> list[object]:
    return [v for _, v in items]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_box_offers_exactly_the_legal_actions(data: st.DataObject) -> None:
    s = reachable_session(data)
    state = s.state
    box = BoxController(s, idle_s=None)
    ui = box.ui
    if state.phase is Phase.SETUP:
        ties = [a.winner for a in legal_actions(state, None) if isinstance(a, c.Tiebreak)]
        assert values(sc.items("tiebreak", state, ui)) == ties
        return
    p = state.current_player
    if state.phase is not Phase.PLAYING or p is None:
        return
    legal = legal_actions(state, p.name)
    kinds = {type(a) for a in legal}
    pend = {q.decision for q in state.pending_for(p.name)}

    # The turn menu: steal and sell only when the rules allow them.
    menu = values(box._menu())
    assert ("steal" in menu) == (c.Steal in kinds)
    assert ("sell" in menu) == (c.Sell in kinds)

    if Decision.TILE in pend:
        tiles = values(sc.items("tiles", state, ui))
        assert len(tiles) == len(set(tiles))  # no landing listed twice
        assert set(tiles) == expected_tiles(legal, p.where is not None)
        for tile, museum in tiles:  # type: ignore[misc]
            if museum == "?":
                ui.tile = tile
                assert values(sc.items("museums", state, ui)) == [
                    a.museum for a in legal if isinstance(a, c.Move) and a.tile == tile
                    and a.museum is not None]
    if Decision.OBSTACLE in pend:
        for kind in ("specialist", "attribute"):
            cards = {x for a in legal if isinstance(a, c.Bypass)
                     for x in getattr(a, kind)}
            assert set(values(sc.hand_options(state, p, kind))) == {None, *cards}
    if pend & {Decision.CAUGHT, Decision.SECOND_STRIKE}:
        assert values(sc.items("choice", state, ui)) == [
            a.choice for a in legal if isinstance(a, c.Choose)]
    if Decision.DRAW in pend:
        assert values(sc.items("draw", state, ui)) == [
            a.deck for a in legal if isinstance(a, c.Draw) and a.card is None]
    steals = [a.art for a in legal if isinstance(a, c.Steal)]
    assert values(sc.items("steal", state, ui)) == steals
    sells = [a for a in legal if isinstance(a, c.Sell)]
    offered = sc.items("sell", state, ui)
    if not sells:
        assert offered == []
    else:
        # "all": the price is what the rules would make of that sale.
        events = decide(state, c.Sell(p.name))
        assert isinstance(events, list)
        sold = next(e for e in events if e["type"] == "sold")
        label, value = offered[0]
        assert value is None and label.endswith(money(sold["price"]))
        singles = [a.art for a in sells if a.art is not None]
        assert values(offered[1:]) == (singles if len(p.art) > 1 else [])

    # What undo would take back: the last step that stands (the session's one answer, also
    # what `undo` then takes back), named as it was logged.
    undo = undo_preview(s.undo_target())
    standing = [e for e in s.log if not e.undone and e.command["cmd"] != "undo"]
    lines = sc.undo_lines(s.undo_target())
    if len(standing) > 1 and not state.over:
        assert undo is not None and undo.step is standing[-1]
        # named in the ruleset's words for that step ("the turn-order roll"), as undo says it
        assert lines[0] and (s.undo_words() or "").startswith(f"Undo {lines[0]}")
    else:
        assert undo is None and lines == ("nothing to undo",)
    box.close()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_legal_action_is_accepted_and_nothing_else_of_its_kind(
        data: st.DataObject) -> None:
    """`legal_actions` is the rules' own answer: each listed command is accepted by the
    session (dice rolled by the box), and a command the list leaves out is refused."""
    import copy

    from referee.errors import Refusal
    from referee.session import Session
    from tests.ui.reachable import SEED

    s = reachable_session(data)
    state = s.state
    if state.phase is not Phase.PLAYING or state.current_player is None:
        return
    who = state.current_player.name
    legal = legal_actions(state, who)
    fresh = Session.resume(copy.deepcopy(s.log), seed=s.seed, catalog=s.catalog,
                           fixed_seed=SEED)
    # The table's kept dice (an undone roll or box draw, waiting to be reused) are the core's,
    # not the rules': the session's `refusal` holds back what they forbid, and nothing else.
    held = {i: fresh.refusal(a) for i, a in enumerate(legal)}
    assert all(r is None or r.code in ("die_kept", "card_kept", "draw_bound")
               for r in held.values()), held
    legal = [a for i, a in enumerate(legal) if held[i] is None]
    pick = data.draw(st.sampled_from([*legal, None]), label="legal action") if legal else None
    if pick is not None:
        fresh.apply(pick)  # a Refusal here fails the test
        return
    left_out = [c.Steal(who, art) for pieces in state.museums.values() for art in pieces
                if c.Steal(who, art) not in legal] + \
        [c.EndTurn(who)] * (c.EndTurn(who) not in legal)
    for command in left_out:
        try:
            fresh.apply(command)
        except Refusal:
            continue
        raise AssertionError(f"{command} was accepted but not listed as legal")
