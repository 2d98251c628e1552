"""Nothing on the OLED is cut mid-word (issue 42): `device.view.rows` wraps by words,
`device.view.layout` (what `device.render` draws) wraps every title, line and menu item and
pages a body too long for the screen, and the Gallery Grippers screens give their text whole
(names in any script, card names with their bonus, art with its value and deduction)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.games.gallery_grippers import screens as sc
from device.render import render
from device.view import (
    BODY_ROWS,
    SCROLL_S,
    BoxView,
    Cursor,
    drawable,
    layout,
    rows,
)
from referee.session import Session
from tests.device.test_gg_box_issue42 import Clock, game, ok
from tests.names import CORPUS

SEED = bytes.fromhex("5eed" * 16)
words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
                min_size=1, max_size=30)
texts = st.lists(words, max_size=8).map(" ".join)


def assert_whole(text: str, found: tuple[str, ...], width: int) -> None:
    """`found` are `text`'s rows: each fits, nothing is lost, and a row ends inside a word
    only where that word is longer than a row."""
    assert all(len(r) <= width for r in found), found
    want = drawable(text).split()
    assert "".join(found).replace(" ", "") == "".join(want)
    if len(drawable(text)) <= width:
        return
    for word in want:
        if len(word) <= width:  # a word that fits a row is in one row, whole
            assert any(word in r.split() for r in found), (word, found)


@settings(max_examples=300, deadline=None)
@given(text=texts, width=st.integers(4, 21))
@example(text="Liberty Leading the People $400M -20%", width=20)
@example(text="The Raft of the Medusa $250M -15%", width=20)
@example(text="+25 Stealth Specialist", width=21)
@example(text="李明 Łukasz Ωμέγα李明Łukasz🎨Дмитрий", width=16)
def test_rows_never_cut_a_word_and_lose_nothing(text: str, width: int) -> None:
    assert_whole(text, rows(text, width), width)


def all_rows(view: BoxView) -> list[str]:
    """Every body row of every page of `view`, and its title bar."""
    first = layout(view)
    out = [first.title]
    for page in range(first.pages):
        out += [r.text for r in layout(replace(view, scroll=page)).body]
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=texts, lines=st.lists(texts, max_size=6), menu=st.lists(texts, max_size=6),
       cursor=st.integers(0, 5), big=st.sampled_from([None, "6", "100"]),
       strikes=st.sampled_from([None, 0, 2]))
def test_the_layout_shows_every_word_of_a_screen(title: str, lines: list[str],
                                                  menu: list[str], cursor: int,
                                                  big: str | None,
                                                  strikes: int | None) -> None:
    view = BoxView("any", title=title, lines=tuple(lines), menu=tuple(menu),
                   cursor=cursor % max(1, len(menu)), big=big, strikes=strikes)
    lay = layout(view)
    assert len(lay.body) <= BODY_ROWS
    shown = all_rows(view)
    for row in shown:
        assert len(row) <= 21
    if not menu:  # title and lines, over the pages: every word, in order
        want = " ".join(drawable(t) for t in (title, *lines)).split()
        assert "".join(shown).replace(" ", "") == "".join(want)
    else:  # the highlighted item is shown whole, its rows inverted
        item = rows(menu[view.cursor], lay.width)
        lit = [tuple(r.text for r in layout(replace(view, scroll=page)).body if r.inverted)
               for page in range(lay.pages)]
        # on every page (a long title paged above it), or over its pages (an item taller
        # than the screen)
        assert all(x == item for x in lit) or set(sum(lit, ())) == set(item), (lit, item)
    render(view)  # draws


def test_a_long_body_scrolls_by_the_clock_of_the_box_loop() -> None:
    """The controller moves a too-long body on a page every SCROLL_S, as a deadline of
    `next_change` (the loop's timer)."""
    names = ["Ωμέγα李明Łukasz🎨Дмитрий", "Ben"]
    s = game((names[0], ["Stealth Specialist"] * 3, ["Night Vision Goggles"] * 3),
             (names[1], ["Lookout"] * 3, ["Smoke Bomb"] * 3))
    clock = Clock()
    box = BoxController(s, clock=clock, idle_s=None)
    box.press("MENU", long=True)  # the players page
    box.press("BACK")
    ok(s, cmd="move", player=names[0], tile="security", museum="The Louvre", roll=2)
    box.press("NEXT")  # the strongest specialist
    v = box.view()
    pages = layout(v).pages
    assert v.screen == "obstacle" and pages > 1  # a name of 25 cells: the title wraps
    assert box.next_change() == clock.t + SCROLL_S
    seen = {box.view().scroll}
    for _ in range(pages):
        clock.t = box.next_change()
        box.tick()
        seen.add(box.view().scroll)
    assert seen == set(range(pages))
    text = " ".join(all_rows(box.view()))
    assert "OmegaLiMingLukasz" in text.replace(" ", "") and "+25 Stealth" in text


names = st.one_of(st.sampled_from(CORPUS),
                  st.text(st.characters(codec="utf-8", categories=("L",)), min_size=1,
                          max_size=24))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.lists(names, min_size=2, max_size=4, unique_by=lambda n: drawable(n)),
       presses=st.lists(st.sampled_from([("ROLL", False), ("NEXT", False), ("BACK", False),
                                         ("MENU", False), ("MENU", True), ("NEXT", True)]),
                        max_size=40))
def test_gallery_grippers_screens_give_names_cards_and_art_whole(
        players: list[str], presses: list[tuple[str, bool]]) -> None:
    """Whatever the names and presses, the screens never cut a name, a card or a piece:
    the current player's name on the turn, obstacle and tile screens, every player's on
    the players pages, every card with its bonus on the hands pages, every piece with its
    value and deduction in the steal list, each whole in the rows drawn."""
    s = Session(seed=SEED)
    answer = s.handle({"cmd": "new_game", "players": players})
    if not answer["ok"]:  # (a name the rules refuse: not this test's business)
        return
    clock = Clock()
    box = BoxController(s, clock=clock, idle_s=None)
    box.press("ROLL")  # deal every hand
    for button, long in presses:
        box.press(button, long)
        clock.t += 0.5
        check_screen(box)
    state = s.state
    for page in range(1 + 2 * len(state.players)):
        text = flat(sc.hands_view(state, page))
        p = state.players[(page - 1) // 2] if page else None
        if p is not None:
            assert flat_name(p.name) in text
            cards = p.specialists if page % 2 else p.attributes
            for card in cards:
                assert f"+{sc.q.card_bonus(state, card)} {card}".replace(" ", "") in text
    pages = int(sc.status_view(state, 0).title.split("/")[-1])
    text = "".join(flat(sc.status_view(state, i)) for i in range(pages))
    for p in state.players:
        assert flat_name(p.name) in text


def flat(view: BoxView) -> str:
    return "".join(all_rows(view)).replace(" ", "")


def flat_name(name: str) -> str:
    """`name` as drawn inside a line (a lone letter nobody spells in Latin letters is left
    out there, `device.view.drawable`; alone it would be a box)."""
    return drawable(f"x{name}x")[1:-1].replace(" ", "")


def check_screen(box: BoxController) -> None:
    v = box.view()
    state = box.session.state
    p = state.current_player
    text = flat(v)
    if p is not None and v.screen in ("turn", "obstacle", "tiles", "reup"):
        assert flat_name(p.name) in text, (p.name, v.text())
    if v.screen == "steal":
        for i, label in enumerate(v.menu):
            art = state.catalog.art(sc.items("steal", state, Cursor())[i][1])
            assert art is not None and f"-{art.deduction}%" in label
            shown = flat(replace(v, cursor=i))
            assert label.replace(" ", "") in shown


def test_a_verdict_of_a_long_name_shows_the_name_and_its_sum_over_pages() -> None:
    from device.view import Verdict

    v = BoxView("verdict", title="Nguyễn Thị Minh Khai: strike 2", big="22",
                source="electronic", strikes=1,
                verdict=Verdict(22, 25, 10, 35, 22, 100, False, "electronic"))
    shown = all_rows(v)
    assert "".join(shown).replace(" ", "").startswith("NguyenThiMinhKhai:strike2")
    assert "= 22 <100" in shown and "+ 25 card" in shown
    render(v)
