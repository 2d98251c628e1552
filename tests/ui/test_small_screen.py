"""At 80×24 whose turn it is is always fully in view (issue 15): the current player's row,
art and hand whole, whichever seat it is."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.session import Session
from tests.ui.conftest import SEED, keys
from ui.app import make_app
from ui.games.gallery_grippers.hands import balanced_hands
from ui.games.gallery_grippers.widgets import PlayerRow, Scoreboard

pytestmark = pytest.mark.usefixtures("quick_keys")  # (tests/settle.py)

SMALL = (80, 24)
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def at_turn_of(count: int, seat: int) -> Session:
    """`count` players; the turn has come round to the one in `seat` (not yet moved)."""
    s = Session(seed=SEED)
    names = NAMES[:count]

    def ok(**request: object) -> None:
        answer = s.handle(request)
        assert answer["ok"], answer

    ok(cmd="new_game", players=names)
    for name, hand in balanced_hands(s.state, names).items():
        ok(cmd="deal", player=name, **hand)
    ok(cmd="turn_order", rolls={n: 6 if i == 0 else 1 + i % 5 for i, n in enumerate(names)}
       if count > 1 else {names[0]: 3})
    if count > 1 and s.state.pending:  # (a tie: the first seat wins it)
        ok(cmd="tiebreak", winner=names[0])
    for name in names[:seat]:
        ok(cmd="move", player=name, tile="plain", roll=2)
        ok(cmd="end_turn", player=name)
    assert s.state.current_player is not None and s.state.current_player.name == names[seat]
    return s


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_current_player_s_row_is_whole_in_view_at_80x24(data: st.DataObject) -> None:
    import asyncio

    count = data.draw(st.integers(2, 6), label="players")
    seat = data.draw(st.integers(0, count - 1), label="whose turn")
    s = at_turn_of(count, seat)

    async def run() -> None:
        app = make_app(s)
        async with app.run_test(size=SMALL) as pilot:
            await keys(pilot, "r")  # resume
            await pilot.pause()
            board = app.screen.query_one(Scoreboard)
            row = next(r for r in app.screen.query(PlayerRow) if r.has_class("-current"))
            top = board.scroll_offset.y
            seen = board.scrollable_content_region.height
            assert row.virtual_region.y >= top
            assert row.virtual_region.bottom <= top + seen, (row.virtual_region, top, seen)

    asyncio.run(run())


async def test_gg1_card_names_fit_their_deck_lists_at_80x24_and_none_left_says_so() -> None:
    from ui.base import Choices

    s = Session(seed=SEED)
    assert s.handle({"cmd": "new_game", "players": ["Ann", "Ben", "Cy"]})["ok"]
    app = make_app(s)
    async with app.run_test(size=SMALL) as pilot:
        await keys(pilot, "r")  # resume
        for deck in ("specialist", "attribute"):
            lst = app.screen.query_one(f"#deck-{deck}", Choices)
            width = lst.scrollable_content_region.width
            labels = [str(lst.get_option_at_index(i).prompt) for i in range(lst.option_count)]
            assert labels and all(len(label) <= width for label in labels), (width, labels)
        # Ann takes both Inside Men: the third pick of it is not offered, and says why
        await keys(pilot, "enter", "enter")
        lst = app.screen.query_one("#deck-specialist", Choices)
        first = lst.get_option_at_index(0)
        assert first.disabled and str(first.prompt).endswith("(none left)")
