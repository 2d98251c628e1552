"""Button-only play: a whole game on mock pins read back from the frames, and the controller's
promises (refusals shown with their rule, nothing lost, undo says what it undoes)."""

from __future__ import annotations

import itertools
import queue
from pathlib import Path

import pytest
from PIL import Image

from device.box import BoxController
from device.framediff import Ssd1306Pages
from device.games.gallery_grippers.dealing import balanced_hands
from device.render import render
from device.run import PngMirror, build_box
from referee.cli import build_parser
from referee.session import Session
from tests.device.test_render import check_reference

SEED = bytes.fromhex("5eed" * 16)
# luma.oled 3.16's own display() (its set-up clear) uses Image.getdata, deprecated in Pillow 13.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Rig:
    """`referee box --hardware sim` put together by `build_box`, on a fake clock: a press
    drives a gpiozero mock pin (PinPresser), our debounce turns the edges into a press on the
    queue, the main loop's step hands it to the controller, and the frame goes through luma's
    ssd1306 and the page diff to the emulated chip."""

    def __init__(self, tmp_path: Path, players: int = 2) -> None:
        self.clock = Clock()
        self.q: queue.Queue[tuple[str, bool]] = queue.Queue()
        args = build_parser().parse_args(["box", "--hardware", "sim", "--memory",
                                          "--oled-png", str(tmp_path / "frames")])
        self.said: list[str] = []
        self.rig = build_box(args, Session(seed=SEED), post=lambda fn: fn(),
                             press=lambda b, long: self.q.put((b, long)),
                             say=self.said.append, clock=self.clock)
        self.box, self.oled, self.buttons = self.rig.box, self.rig.oled, self.rig.buttons
        self.presser = self.rig.presser
        self.mirror = next(o for o in self.oled.on_frame if isinstance(o, PngMirror))
        self.box.ui.players = players
        self.views = [self.box.view()]
        self.box.subscribe(self.views.append)
        self.asked = 0

    def advance(self, seconds: float) -> None:
        end = self.clock.t + seconds
        while self.clock.t < end:
            self.step()

    def step(self) -> None:
        """5 ms: the buttons' ticker, then a turn of the main loop."""
        self.clock.t = round(self.clock.t + 0.005, 6)
        self.buttons.tick()
        while not self.q.empty():
            self.box.press(*self.q.get_nowait())
        self.rig.tick()

    def press(self, button: str, long: bool = False) -> None:
        """A key press, as `referee box` takes it: the finger on the mock pin, until done."""
        self.rig.press(button, long)
        self.asked += 1
        for _ in range(2000):  # 10 s of the fake clock: far more than any press takes
            if not self.presser.busy:
                break
            self.step()
        assert not self.presser.busy, f"the press of {button} never finished"
        self.step()

    def close(self) -> None:
        self.rig.close()


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
        back_in = "go back in (2 strikes)"
        goto(rig, back_in if back_in in v.menu else "ditch the art (1 strike)")
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
    # the simulation went the real way: every press is two edges through gpiozero's
    # callbacks, made by the finger on the mock pins and debounced by our detectors ...
    assert rig.presser.done == rig.asked and rig.buttons.edges == 2 * rig.asked
    # ... and every frame went through the page diff to the emulated chip, partly
    bus = rig.oled.device.bus
    assert isinstance(rig.oled.strategy, Ssd1306Pages)
    luma_clear = 1024  # luma's set-up clears the panel with one whole frame
    assert bus.data_bytes - luma_clear < rig.oled.frames * 1024  # whole images: equal
    assert 0 < rig.oled.bytes_sent <= bus.data_bytes + bus.command_bytes


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
    assert confirm.lines[:2] == (f"{who}'s move", "to airport")
    assert not any(x.startswith(("The dice stay", "The die stays")) for x in confirm.lines)
    log_len = len(rig.box.session.log)
    rig.press("BACK")  # no: nothing undone
    assert len(rig.box.session.log) == log_len and rig.box.view().screen == "turn"
    rig.press("BACK", long=True)
    rig.press("ROLL")  # yes: back to naming the tile, the same roll on the table
    assert rig.box.session.log[-1].command == {"cmd": "undo", "undoes": log_len}
    assert (rig.box.view().screen, rig.box.view().big) == ("tiles", value)
    rig.press("BACK", long=True)
    # undoing the roll itself
    assert f"The die stays ({value}): the next roll gives it again." in rig.box.view().lines
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
    picked = rig.box.view().lines[1]
    assert "none" not in picked
    rig.press("MENU")
    goto(rig, "End turn")
    before = len(rig.box.session.log)
    rig.press("ROLL")
    v = rig.box.view()
    assert v.notice is not None and v.notice.startswith("Not allowed (GG-6)")
    assert len(rig.box.session.log) == before
    assert v.screen == "obstacle" and v.lines[1] == picked  # the pick is still there
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
    assert v.screen == "idle" and v.lines[1] == "dice commitment:"
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
