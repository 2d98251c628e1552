"""Button-only play: a whole game on mock pins read back from the frames, and the controller's
promises (refusals shown with their rule, nothing lost, undo says what it undoes)."""

from __future__ import annotations

import itertools
import queue
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image

from device.box import BoxController
from device.buttons import Buttons, queue_sink
from device.dealing import balanced_hands
from device.framediff import WholeImage
from device.oled import Oled
from device.pins import DEFAULT_PINS
from device.render import render
from device.run import PngMirror
from referee.session import Session
from tests.device.test_render import check_reference

SEED = bytes.fromhex("5eed" * 16)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Rig:
    """Mock pins -> our debounce -> a queue -> the controller, as `referee box` wires them."""

    def __init__(self, tmp_path: Path, players: int = 2) -> None:
        self.clock = Clock()
        self.factory = MockFactory()
        self.q: queue.Queue[tuple[str, bool]] = queue.Queue()
        self.buttons = Buttons(DEFAULT_PINS, pin_factory=self.factory, clock=self.clock,
                               sink=queue_sink(self.q))
        self.box = BoxController(Session(seed=SEED), clock=self.clock, idle_s=None)
        self.box.ui.players = players
        self.oled = Oled(lambda: dummy(width=128, height=64, mode="1"), strategy=WholeImage(),
                         clock=self.clock, notify=lambda m: None)
        self.mirror = PngMirror(tmp_path / "frames")
        self.oled.on_frame.append(self.mirror)
        self.oled.open()
        self.views = [self.box.view()]
        self.box.subscribe(self.views.append)
        self.box.subscribe(lambda v: self.oled.show(render(v)))
        self.oled.show(render(self.box.view()))

    def advance(self, seconds: float) -> None:
        end = self.clock.t + seconds
        while self.clock.t < end:
            self.clock.t = round(self.clock.t + 0.005, 6)
            self.buttons.tick()
            while not self.q.empty():  # the main loop's turn
                self.box.press(*self.q.get_nowait())
            self.box.tick()

    def press(self, button: str, long: bool = False) -> None:
        pin = self.factory.pin(DEFAULT_PINS.button(button).pin)
        pin.drive_low()
        self.advance(1.0 if long else 0.06)
        pin.drive_high()
        self.advance(0.06)

    def close(self) -> None:
        self.buttons.close()
        self.factory.reset()


@pytest.fixture
def rig(tmp_path: Path):
    r = Rig(tmp_path)
    yield r
    r.close()


def goto(rig: Rig, label: str) -> None:
    """Press NEXT until the menu's highlighted item is `label`."""
    for _ in range(len(rig.box.view().menu) + 1):
        v = rig.box.view()
        if v.menu[v.cursor] == label:
            return
        rig.press("NEXT")
    raise AssertionError(f"{label!r} not in {rig.box.view().menu}")


def bot_step(rig: Rig) -> None:
    """One press of a reckless player: into the Louvre's security, no cards, go back in."""
    v = rig.box.view()
    if v.screen == "turn":
        rig.press("ROLL" if "move" in v.hint else "NEXT")
    elif v.screen == "tiles":
        goto(rig, "security" if "security" in v.menu else "security >")
        rig.press("ROLL")
    elif v.screen == "choice":
        goto(rig, "go back in" if "go back in" in v.menu else "ditch the art")
        rig.press("ROLL")
    else:  # new, hands, tiebreak, museums, obstacle (no cards), verdict, draw, reup
        rig.press("ROLL")


def test_a_whole_button_only_game_to_an_elimination(rig: Rig, tmp_path: Path) -> None:
    for _ in range(400):
        if rig.box.view().screen == "over":
            break
        bot_step(rig)
    state = rig.box.session.state
    assert state.over and state.over_reason == "last_player_standing"
    loser = next(p for p in state.players if p.status == "out")
    assert loser.strikes == 3
    verdicts = [v for v in rig.views if v.screen == "verdict" and v.verdict]
    assert verdicts, "no bypass was ever shown"
    for v in verdicts:
        t = v.verdict
        assert t.roll + t.specialist + t.attribute - t.art == t.total
        assert (t.total >= t.target) == t.success
        assert v.big == str(t.roll) and v.source == "electronic"
    # the strikes shown on the loser's verdicts climb to 3, the pips with them
    pips = [v.strikes for v in verdicts if v.title.startswith(loser.name)]
    assert pips == sorted(pips) and pips[-1] == 3
    final = rig.views[-1]
    assert final.screen == "over" and final.lines[0] == f"{state.winner} wins!"
    assert final.lines[3] == f"{state.seed[:8]}..{state.seed[-8:]}"
    # read back from the frames the display received
    frames = sorted((tmp_path / "frames").glob("frame-*.png"))
    assert len(frames) == rig.oled.frames > 20
    last = Image.open(frames[-1]).convert("1")
    assert last.tobytes() == render(final).tobytes()
    check_reference("game-over-2p", last)
    first = Image.open(frames[0]).convert("1")
    assert first.tobytes() == render(rig.views[0]).tobytes()
    # only changed frames were written
    raw = [Image.open(f).convert("1").tobytes() for f in frames]
    assert all(a != b for a, b in itertools.pairwise(raw))


def start(rig: Rig) -> None:
    rig.press("ROLL")  # new game, hands dealt
    rig.press("ROLL")  # turn order
    while rig.box.view().screen == "tiebreak":
        rig.press("ROLL")


def test_the_movement_roll_shown_is_the_one_recorded(rig: Rig) -> None:
    start(rig)
    rig.press("ROLL")
    shown = rig.box.view()
    assert shown.screen == "tiles" and shown.source == "electronic"
    rig.press("BACK")  # the roll is made: backing out cannot re-roll it
    again = rig.box.view()
    assert again.screen == "tiles" and again.big == shown.big and "undo" in (again.notice or "")
    goto(rig, "airport")
    rig.press("ROLL")
    log = rig.box.session.log
    assert log[-1].command["cmd"] == "move" and log[-2].command["cmd"] == "move_roll"
    moved = [e for e in log[-1].events if e["type"] == "moved"]
    rolled = [e for e in log[-2].events if e["type"] == "roll"]
    assert str(moved[0]["roll"]) == shown.big == str(rolled[0]["value"])
    assert rolled[0]["purpose"] == "move"  # one roll, the one shown


def test_undo_asks_first_saying_what_and_the_die_stays_kept(rig: Rig) -> None:
    start(rig)
    rig.press("ROLL")
    value = rig.box.view().big
    goto(rig, "airport")
    rig.press("ROLL")
    who = rig.box.session.state.current_player.name
    rig.press("BACK", long=True)
    confirm = rig.box.view()
    assert confirm.screen == "confirm" and confirm.title == "Undo?"
    assert confirm.lines[:2] == (f"move {who}", "to airport")
    assert "dice stay: kept" not in confirm.lines  # the tile step rolled nothing
    log_len = len(rig.box.session.log)
    rig.press("BACK")  # no: nothing undone
    assert len(rig.box.session.log) == log_len and rig.box.view().screen == "turn"
    rig.press("BACK", long=True)
    rig.press("ROLL")  # yes: back to naming the tile, the same roll on the table
    assert rig.box.session.log[-1].command == {"cmd": "undo", "undoes": log_len}
    assert (rig.box.view().screen, rig.box.view().big) == ("tiles", value)
    rig.press("BACK", long=True)
    assert "dice stay: kept" in rig.box.view().lines  # undoing the roll itself
    rig.press("ROLL")
    rig.press("ROLL")  # roll again: the kept die comes back
    again = rig.box.view()
    assert (again.big, again.source) == (value, "kept")


def test_a_refusal_shows_its_rule_for_a_few_seconds_and_nothing_is_lost(rig: Rig) -> None:
    start(rig)
    # into an obstacle, pick a specialist, then try to end the turn from the menu
    rig.press("ROLL")
    goto(rig, "alarm >")
    rig.press("ROLL")
    rig.press("ROLL")  # the Louvre
    assert rig.box.view().screen == "obstacle"
    rig.press("NEXT")  # the strongest specialist in hand
    picked = rig.box.view().lines[0]
    assert "none" not in picked
    rig.press("MENU")
    goto(rig, "End turn")
    before = len(rig.box.session.log)
    rig.press("ROLL")
    v = rig.box.view()
    assert v.notice is not None and v.notice.startswith("GG-6 decision pending")
    assert len(rig.box.session.log) == before
    assert v.screen == "obstacle" and v.lines[0] == picked  # the pick is still there
    rig.advance(4.1)
    assert rig.box.view().notice is None
    img = render(v)
    check_reference("notice-refusal", img)


def test_a_console_command_redraws_the_box(rig: Rig) -> None:
    start(rig)
    seen = []
    rig.box.subscribe(seen.append)
    who = rig.box.session.state.current_player.name
    answer = rig.box.session.handle({"cmd": "move", "player": who, "tile": "airport",
                                     "roll": 3})
    assert answer["ok"]
    assert seen and seen[-1].big == "3" and seen[-1].source == "typed"
    assert seen[-1].hint == "NEXT:end turn"


def test_the_idle_screen_comes_and_the_waking_press_does_nothing_else(tmp_path: Path) -> None:
    clock = Clock()
    box = BoxController(Session(seed=SEED), clock=clock, idle_s=120)
    box.press("ROLL")
    clock.t += 120
    box.tick()
    v = box.view()
    assert v.screen == "idle" and v.lines[1].startswith("dice ")
    log_len = len(box.session.log)
    box.press("ROLL")
    assert len(box.session.log) == log_len and box.view().screen == "hands"


def test_unknown_buttons_are_a_programming_error() -> None:
    box = BoxController(Session(seed=SEED))
    with pytest.raises(ValueError, match="unknown button"):
        box.press("SELECT")


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_default_hands_are_legal_and_balanced(players: int) -> None:
    s = Session(seed=SEED)
    names = [f"P{i + 1}" for i in range(players)]
    s.handle({"cmd": "new_game", "players": names})
    hands = balanced_hands(s.state, names)
    for n in names:
        assert s.handle({"cmd": "deal", "player": n, **hands[n]})["ok"]
    cat = s.catalog
    for field in ("specialists", "attributes"):
        totals = [sum(cat.card(c).bonus for c in hands[n][field]) for n in names]
        assert max(totals) - min(totals) <= 10, (field, totals)
        assert len({len(hands[n][field]) for n in names}) == 1
