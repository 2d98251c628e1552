"""On the box, the only die the table gives is one the tray reads: a tray value for a die
typed (at the console) before an undo, another than the one typed, is asked first, naming what
it changes (issue 39: corrections are public). ROLL records it, BACK records nothing. A die
the box rolls is never asked about (not known before it is rolled); its correction is said."""

from __future__ import annotations

from device.box import RETYPE, BoxController
from device.traydice import TrayDice
from referee.session import Session
from tests.device.test_box_tray import FakeBridge
from tests.referee.test_undo_dice import SEED, gg_playing


def typed_then_undone() -> Session:
    s = gg_playing(Session(seed=SEED))
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 4})["ok"]  # typed
    assert s.handle({"cmd": "undo"})["ok"]
    return s


def with_tray(s: Session) -> BoxController:
    box = BoxController(s, idle_s=None)
    box.dice = TrayDice(s, FakeBridge())
    return box


def test_a_tray_value_correcting_a_typed_die_is_asked_first() -> None:
    s = typed_then_undone()
    box = with_tray(s)
    logged = len(s.log)
    box.press("ROLL")  # roll to move: the tray is asked
    assert box.view().screen == "tray"
    box.tray_roll("Ann", "d6", 6)
    v = box.view()
    assert v.screen == RETYPE and len(s.log) == logged  # nothing recorded yet
    assert "This changes Ann's d6 from 4 to 6" in " ".join(v.lines)
    assert "ROLL" in (v.hint or "") and "BACK" in (v.hint or "")
    box.press("BACK")
    assert box.view().screen != RETYPE and len(s.log) == logged
    assert "Not recorded" in (box.view().notice or "")
    box.press("ROLL")  # the tray is asked again
    box.tray_roll("Ann", "d6", 6)
    assert box.view().screen == RETYPE
    box.press("ROLL")
    fixed = [(e["was"], e["now"]) for e in s.log[-1].events if e["type"] == "die_corrected"]
    assert fixed == [(4, 6)]
    assert "corrected: Ann's d6 4 -> 6" in (box.view().notice or "").replace("\n", " ")
    box.close()


def test_the_same_value_from_the_tray_asks_nothing() -> None:
    s = typed_then_undone()
    box = with_tray(s)
    box.press("ROLL")
    box.tray_roll("Ann", "d6", 4)
    assert box.view().screen != RETYPE and s.log[-1].command["cmd"] == "move_roll"
    box.close()


def test_a_box_roll_for_a_typed_die_is_not_asked_but_said() -> None:
    s = typed_then_undone()
    box = BoxController(s, idle_s=None)  # no tray: the box rolls
    box.press("ROLL")
    assert box.view().screen != RETYPE and s.log[-1].command["cmd"] == "move_roll"
    [roll] = [e for e in s.log[-1].events if e["type"] == "roll"]
    if roll["value"] != 4:
        assert "corrected: Ann's d6 4 ->" in (box.view().notice or "").replace("\n", " ")
    box.close()


def test_a_command_from_elsewhere_drops_the_question() -> None:
    s = typed_then_undone()
    box = with_tray(s)
    box.press("ROLL")
    box.tray_roll("Ann", "d6", 6)
    assert box.view().screen == RETYPE
    assert s.handle({"cmd": "move_roll", "player": "Ann", "roll": 5})["ok"]  # the console
    assert box.view().screen != RETYPE
    box.press("ROLL")  # (on the game's screen now): never the old question's yes
    assert [e["now"] for entry in s.log for e in entry.events
            if e["type"] == "die_corrected"] == [5]
    box.close()


def test_an_art_battle_retyped_through_the_tray_asks_then_shows_each_correction() -> None:
    """The A.R.T. Project on the box: a battle typed at the console (lost), taken back, and
    fought again from the box with the tray reading 6s: asked first (the verdict it turns),
    then each corrected die said over the verdict, one after the other."""
    from tests.device.test_art_box_game import act
    from tests.referee.games.art_project.test_session import to_battle

    s = Session(seed=SEED)
    to_battle(s)
    lost = {"Ann": 1, "ally1": 1, "Ben": 1}
    assert s.handle({"cmd": "battle", "city": "Film", "leader": "Ann", "rolls": lost})["ok"]
    assert s.handle({"cmd": "undo"})["ok"]
    box = BoxController(s, idle_s=None, game="art-project", tray=FakeBridge())
    act(box, "Battle", "Film", "led by Ann")
    while box.dice.waiting is not None:
        box.tray_roll(box.dice.waiting.player, "d6", 6)
    v = box.view()
    assert v.screen == RETYPE and s.log[-1].command["cmd"] == "undo"
    assert "the verdict goes from not yet won to won" in " ".join(v.lines)
    box.press("ROLL")
    said = []
    for _ in range(3):
        assert box.view().screen == "verdict"
        said.append((box.view().notice or "").replace("\n", " "))
        box.press("NEXT")
    assert said == ["corrected: Ann's d6 1 -> 6", "corrected: ally die 1's d6 1 -> 6",
                    "corrected: Ben's d6 1 -> 6"]
    box.close()
