"""The A.R.T. Project from the box alone (issue 39): what a table found.

1. a move that spends a van token or health is asked first (a stray ROLL never unlocks an
   ally die); 2. the question names the cost (out of fuel: the health a move costs);
3. every reroll a clue card allows, on any die it allows, is offered (the ruleset's
   `decide` says which); 4. every text is given whole (`device.view.layout` wraps and pages
   it) and a battle's dice say whose they are; 5. a move that ends the game says so first.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.render import render
from device.view import BoxView, drawable
from referee.session import Session
from tests.device.test_art_box import choose, fight_in_film
from tests.device.test_oled_text_whole import all_rows, names
from tests.referee.games.art_project.test_session import NAMES, SEED, START, ok


def game(names: list[str] = NAMES, difficulty: str = "hard",
         cards: dict[str, dict[str, Any]] | None = None) -> Session:
    """Round 1 from its start to the window between phases A and B: two draws each, then a
    card each (`cards`: what a player's card shows; else nothing)."""
    s = Session(seed=SEED)
    ok(s, **{**START, "difficulty": difficulty, "players": [{"name": n} for n in names]})
    for n in names:
        ok(s, cmd="draw", player=n)
        ok(s, cmd="draw", player=n)
    for n in names:
        ok(s, cmd="play_card", player=n, **(cards or {}).get(n, {}))
    ok(s, cmd="end_phase")
    return s


def to_film(s: Session, names: list[str]) -> None:
    """An ally die unlocked, the first two players moved to Film, on to the battles."""
    ok(s, cmd="unlock_ally")
    ok(s, cmd="move", player=names[0], to="Film")
    ok(s, cmd="move", player=names[1], to="Film")
    ok(s, cmd="end_phase")


def act(box: BoxController, group: str, *fields: str) -> None:
    box.press("ROLL")
    choose(box, group)
    for wanted in fields:
        if box.view().screen == "pick" and wanted in box.view().menu:
            choose(box, wanted)


def test_unlocking_an_ally_die_is_asked_first_naming_the_radio() -> None:
    """Item 1: the unlock spends radio: the box asks, BACK spends nothing."""
    s = game()
    box = BoxController(s, idle_s=None)
    radio, logged = s.state.van["radio"], len(s.log)
    act(box, "Unlock an ally die")
    view = box.view()
    assert view.screen == "ask" and len(s.log) == logged
    assert f"{s.state.ally_cost} radio" in view.lines[0] and view.hint == "ROLL:unlock BACK:no"
    box.press("BACK")
    assert s.state.van["radio"] == radio and len(s.log) == logged
    assert box.view().screen == "acts"
    choose(box, "Unlock an ally die")
    assert box.view().screen == "ask" and len(s.log) == logged
    box.press("ROLL")
    assert s.log[-1].command["cmd"] == "unlock_ally" and s.state.allies == 1
    assert s.state.van["radio"] == radio - s.log[-1].events[0].get("radio", 0) < radio


def test_no_single_press_spends_radio() -> None:
    """Item 1: from any screen the window between phases shows, one ROLL (a wake press)
    never unlocks an ally die: the unlock is always asked after it."""
    s = game()
    for start in ([], ["ROLL"], ["ROLL", "NEXT"], ["MENU"]):
        box = BoxController(s, idle_s=None)
        for button in start:
            box.press(button)
        logged = len(s.log)
        box.press("ROLL")
        assert len(s.log) == logged, (start, s.log[-1].command)
        box.close()


def test_a_move_out_of_fuel_asks_naming_the_health_it_costs() -> None:
    """Item 2: the van has no fuel: the move costs Ann a health token; asked, named."""
    s = game(cards={"Ann": {"spend": {"fuel": 3}}})
    ok(s, cmd="end_phase")
    assert s.state.van["fuel"] == 0 and s.state.phase == "B"
    box = BoxController(s, idle_s=None)
    health = s.state.player("Ann").health
    act(box, "Move", "Ann", "to Film")
    view = box.view()
    assert view.screen == "ask" and view.hint == "ROLL:move BACK:stay"
    text = " ".join(view.lines)
    assert text.startswith("Out of fuel:") and "Ann 1 health" in text, text
    box.press("BACK")  # stay: the field chosen last asked again
    assert s.state.player("Ann").health == health and s.state.player("Ann").city != "Film"
    assert box.view().screen == "pick"
    choose(box, "to Film")
    box.press("ROLL")
    assert s.state.player("Ann").health == health - 1 and s.state.player("Ann").city == "Film"


class Sent(Exception):
    def __init__(self, command: dict[str, Any]) -> None:
        super().__init__("sent")
        self.command = command


def box_rerolls(box: BoxController) -> set[str]:
    """Every reroll the battle screen's menus lead to (walked by NEXT and ROLL), as sent."""
    sent: set[str] = set()

    def caught(command: Any, ack: bool = False, **how: Any) -> Any:
        raise Sent(box.session.ruleset.command_json(command))

    todo: list[list[int]] = [[]]
    while todo:
        path = todo.pop()
        fresh = BoxController(box.session, idle_s=None)
        fresh._apply = caught  # type: ignore[method-assign]
        try:
            for i in path:
                for _ in range(i):
                    fresh._dispatch("next")
                fresh._dispatch("roll")
        except Sent as done:
            if done.command["cmd"] == "reroll":
                sent.add(f"{done.command['card']}:{','.join(done.command['dice'])}")
            continue
        finally:
            fresh.close()
        view = fresh.view()
        if view.screen in ("battle", "pick") and len(path) < 3:
            todo += [[*path, i] for i in range(len(view.menu))]
    return sent


def test_every_reroll_a_card_allows_on_any_die_is_offered() -> None:
    """Item 3: Ann's card shows two clues, Ben's one: each card rerolls any one die of the
    battle (Ann's, the ally die, Ben's), Ann's any two as well; the box offers each."""
    s = game(cards={"Ann": {"clues": ["film", "book"]}, "Ben": {"clues": ["film"]}})
    to_film(s, NAMES)
    box = BoxController(s, idle_s=None)
    fight_in_film(box)
    box.press("ROLL")  # the verdict seen
    assert box.view().screen == "battle" and "Reroll with a clue card..." in box.view().menu
    dice = ["Ann", "ally1", "Ben"]
    want = {f"c1:{','.join(d)}" for k in (1, 2) for d in combinations(dice, k)}
    want |= {f"c2:{d}" for d in dice}
    assert box_rerolls(box) == want
    # by the buttons: the card, then the dice, each named by whose it is
    choose(box, "Reroll with a clue card...")
    assert box.view().title == "Reroll: which card?"
    choose(box, "card 1 (Ann, 2 clues)")
    assert box.view().title == "Reroll: which dice?"
    assert "ally die 1 and Ben's die" in box.view().menu
    box.press("BACK")  # the card asked again
    assert box.view().title == "Reroll: which card?"
    choose(box, "card 2 (Ben, 1 clue)")
    choose(box, "ally die 1")
    done = s.log[-1].command
    assert (done["cmd"], done["card"], done["dice"]) == ("reroll", "c2", ["ally1"])


def test_the_box_offers_the_rerolls_the_ruleset_lists_and_works_out_none() -> None:
    """Issue 39 (rules from one place): the box's rerolls are the ruleset's list as it is.
    With the ruleset listing only some (a stand-in that leaves two out), the box offers
    exactly those: it searches no choice of dice of its own."""
    s = game(cards={"Ann": {"clues": ["film", "book"]}, "Ben": {"clues": ["film"]}})
    to_film(s, NAMES)
    box = BoxController(s, idle_s=None)
    fight_in_film(box)
    box.press("ROLL")  # the verdict seen
    rules = s.ruleset
    listed = rules.legal_actions(s.state, None)
    left_out = ({"cmd": "reroll", "card": "c1", "dice": ["Ann", "ally1"]},
                {"cmd": "reroll", "card": "c2", "dice": ["Ben"]})
    assert all(r in listed for r in left_out)
    original = type(rules).legal_actions

    def fewer(self: Any, state: Any, player: str | None) -> list[dict[str, Any]]:
        return [r for r in original(self, state, player) if r not in left_out]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(rules), "legal_actions", fewer)
        want = {f"{r['card']}:{','.join(r['dice'])}" for r in fewer(rules, s.state, None)
                if r["cmd"] == "reroll"}
        assert box_rerolls(box) == want
        assert "c1:Ann,ally1" not in want and "c2:Ben" not in want


def test_a_battle_s_dice_say_whose_they_are() -> None:
    """Item 4: the verdict names each die ('Ann's die: 4'), not 'dice 1 2 6'."""
    s = game()
    to_film(s, NAMES)
    box = BoxController(s, idle_s=None)
    fight_in_film(box)
    v = next(e for e in s.log[-1].events if e["type"] == "battle")
    lines = box.view().lines
    assert lines[0].startswith("short by") or lines[0] == "WON"
    for die, who in (("Ann", "Ann's die"), ("ally1", "ally die 1"), ("Ben", "Ben's die")):
        assert f"{who}: {v['dice'][die]}" in lines


def test_conceding_with_the_last_health_says_it_ends_the_game() -> None:
    """Item 5: Ann leads with one health token left: conceding loses the game; asked."""
    s = game(difficulty="impossible")
    to_film(s, NAMES)
    box = BoxController(s, idle_s=None)
    fight_in_film(box)
    box.press("ROLL")  # the verdict seen
    choose(box, "Concede")
    view = box.view()
    text = " ".join(view.lines)
    assert view.screen == "ask" and view.title == "Ends the game!"
    assert "Ann 1 health" in text and "the game ends: the team lost" in text, text
    assert view.hint == "ROLL:concede BACK:no"
    box.press("BACK")
    assert not s.state.over and box.view().screen == "battle"
    choose(box, "Concede")
    box.press("ROLL")
    assert s.state.over and box.view().screen == "over"
    assert "lost their last health token" in " ".join(box.view().lines)  # (not "health")


def test_a_move_paid_with_the_last_health_says_it_ends_the_game() -> None:
    """Item 5: any move the ruleset says ends the game is asked so: out of fuel, Ann's
    move would take her last health token."""
    s = game(difficulty="impossible", cards={"Ann": {"spend": {"fuel": 3}}})
    ok(s, cmd="end_phase")
    box = BoxController(s, idle_s=None)
    act(box, "Move", "Ann", "to Film")
    view = box.view()
    text = " ".join(view.lines)
    assert view.title == "Ends the game!" and text.startswith("Out of fuel: moving Ann"), text
    assert "the game ends: the team lost" in text and not s.state.over
    box.press("ROLL")
    assert s.state.over


# ---- 4: nothing of this game's screens is cut mid-word -------------------------------------

def flat(text: str) -> str:
    return drawable(f"x{text}x")[1:-1].replace(" ", "")


def shown(view: BoxView) -> str:
    """Everything drawn of `view` over its pages, spaces out (the highlighted item too)."""
    out = "".join(all_rows(view))
    for i in range(len(view.menu)):
        out += "".join(all_rows(replace(view, cursor=i)))
    return out.replace(" ", "")


def check_whole(box: BoxController) -> None:
    """Each text the screen gives is drawn whole, over its pages: the title, every menu
    item, every line (a menu's lines give way to its items, `layout`: the battle's title
    keeps its two strengths, the choice's its question); the `next` line as the ruleset
    words it; the names of the dice's owners on a verdict."""
    view = box.view()
    drawn = shown(view)
    for text in (view.title, *view.menu, *(() if view.menu else view.lines)):
        assert flat(text) in drawn, (text, view.text())
    given = "".join(flat(x) for x in (view.title, *view.lines, *view.menu))
    names = [flat(p.name) for p in box.session.state.players]
    for name in names:  # a name begun is a name given whole (no text shortened first)
        head = name[:5]
        if head in given and not any(head in other for other in names if other != name):
            assert name in given, (name, view.text())
    state = box.session.ruleset.state_json(box.session.state)
    if view.screen == "phase":
        assert view.lines[0] == state["next"]
    if view.screen == "choice":
        assert view.title.endswith(state["next"])
    if view.screen == "battle":
        v = state["battle"]
        assert f"{v['strength']}v{v['agents_strength']}" in drawn
    if view.screen == "verdict":
        entry = box._entry(box.ui.ack)
        assert entry is not None
        for e in entry.events:
            if e["type"] == "roll" and e["id"] in [p.name for p in box.session.state.players]:
                assert flat(e["id"]) in drawn
    render(view)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.lists(names, min_size=2, max_size=3, unique_by=lambda n: drawable(n)),
       presses=st.lists(st.sampled_from(["ROLL", "ROLL", "NEXT", "BACK", "MENU"]),
                        max_size=40))
def test_no_text_of_the_game_is_cut_mid_word(players: list[str], presses: list[str]) -> None:
    """Whatever the names and presses (a battle reached as the rules allow), each title,
    line and menu item of an A.R.T. screen is drawn whole, and each text the game gives
    (the `next` line) is given as it is."""
    try:
        s = game(players, cards={players[0]: {"clues": ["film", "book"]}})
        to_film(s, players)
    except AssertionError:  # (a name the rules refuse: not this test's business)
        return
    box = BoxController(s, idle_s=None)
    check_whole(box)
    fight_in_film_of(box, s.state.players[0].name)  # (the name as the rules keep it)
    for button in presses:
        if s.state.over:
            break
        box.press(button)
        check_whole(box)


def fight_in_film_of(box: BoxController, leader: str) -> None:
    box.press("ROLL")
    choose(box, "Battle")
    if box.view().screen == "pick" and "Film" in box.view().menu:
        choose(box, "Film")
    if box.view().screen == "pick":
        choose(box, f"led by {leader}")
    check_whole(box)


def test_a_long_step_is_said_whole_over_notices() -> None:
    """Item 4: what a step did, in the ruleset's words, is said whole: notices of three rows
    one after the other (the box's notice shows three), none ending cut."""
    from device.view import rows
    from referee.words import step_words

    s = game(difficulty="impossible")
    to_film(s, NAMES)
    clock = [0.0]
    box = BoxController(s, clock=lambda: clock[0], idle_s=None)
    fight_in_film(box)
    box.press("ROLL")
    choose(box, "Concede")
    box.press("ROLL")  # asked: yes
    said = step_words(s.ruleset, s.log[-1].command, s.log[-1].events)
    assert len(rows(said)) > 3  # (the case: longer than one notice)
    seen: list[str] = []
    for _ in range(len(rows(said))):
        notice = box.view().notice
        if notice is None:
            break
        seen.append(notice)
        clock[0] += 5.0
        box.tick()
    assert " ".join(" ".join(n.split("\n")) for n in seen).split() == said.split(), seen
    assert not any(n.endswith("..") for n in seen)


def test_back_on_a_card_s_question_keeps_what_was_entered() -> None:
    """Items 1-2: a card whose cost the van pays is asked before it is played; BACK goes
    back to its last section with every count entered kept."""
    s = Session(seed=SEED)
    ok(s, **START)
    for n in NAMES:
        ok(s, cmd="draw", player=n)
        ok(s, cmd="draw", player=n)
    box = BoxController(s, idle_s=None)
    act(box, "Play a card", "Ann")
    assert box.view().screen == "card"
    box.press("ROLL")  # spend: fuel 1 (the cursor starts on it)
    for _ in range(3):  # on through Agents, Gain, Clues
        while box.view().menu[box.view().cursor][-1] != ">":
            box.press("NEXT")
        box.press("ROLL")
    choose(box, "Play the card")
    view = box.view()
    assert view.screen == "ask" and "1 fuel from the van" in view.lines[0], view.text()
    logged = len(s.log)
    box.press("BACK")
    assert box.view().screen == "card" and len(s.log) == logged
    assert box.ui.form["card"]["spend"] == {"fuel": 1}
    choose(box, "Play the card")
    box.press("ROLL")
    assert s.log[-1].command["cmd"] == "play_card" and s.log[-1].command["spend"] == {"fuel": 1}
