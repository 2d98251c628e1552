"""The box's screen in words (what the console's box panel shows at 80 columns) says every
name as typed (issue 42: "Łukasz moves 4" beside "Lukasz has already rolled"): the OLED's
picture transliterates a name its Latin-1 font cannot draw, when it draws it; the words do
not. And the players page says in words what the OLED's row abbreviates ("a1")."""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.render import render
from referee.session import Session
from tests.names import CORPUS, nfc

SEED = bytes.fromhex("5eed" * 16)

NAMES = st.sampled_from(CORPUS) | st.text(
    st.characters(categories=("L", "M", "N"), exclude_characters="\u0345"),
    min_size=1, max_size=12).map(nfc)


def moved(name: str) -> Session | None:
    """`name` and Ann, `name` first and already moved this turn (None: a name the rules
    do not take)."""
    from ui.games.gallery_grippers.hands import balanced_hands

    s = Session(seed=SEED)
    if not s.handle({"cmd": "new_game", "players": [name, "Ann"]})["ok"]:
        return None
    name = s.state.players[0].name
    for who, hand in balanced_hands(s.state, [name, "Ann"]).items():
        assert s.handle({"cmd": "deal", "player": who, **hand})["ok"]
    assert s.handle({"cmd": "turn_order", "rolls": {name: 6, "Ann": 1}})["ok"]
    assert s.handle({"cmd": "move", "player": name, "tile": "plain", "museum": "The Louvre",
                     "roll": 1})["ok"]
    return s


@settings(max_examples=30, deadline=None)
@given(NAMES)
def test_the_box_in_words_says_a_name_as_typed(typed: str) -> None:
    assume(unicodedata.normalize("NFC", typed).strip() not in ("", "Ann"))
    s = moved(typed)
    assume(s is not None)
    assert s is not None
    name = s.state.players[0].name
    box = BoxController(s, idle_s=None)
    box.press("ROLL")  # moved already: the rules say no, over the turn screen
    view = box.view()
    assert view.notice is not None
    words = view.text()
    assert f"{name} has already" in words, words  # whole, as typed
    render(view)  # and the OLED still draws it (transliterated)
    status = sc.status_view(s.state, 0)
    said = status.text()
    assert f"{name}: $0, art held: 0, strikes [---]" in said, said
    assert " a0" not in said
    render(status)
