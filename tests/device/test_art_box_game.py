"""A whole game of The A.R.T. Project from the box's buttons alone (issue 24, item 3): the
game chosen and started from the box (players from `[box]`, mission and difficulty by menu),
every draw, card (its sections by buttons), move, ally, battle (the dice from the tray, as a
box without a keyboard has them) and end of phase, to the win. The game played is the
scripted one of `tests/referee/games/art_project/win.jsonl`: after each step the box sent,
the log must hold exactly the scripted command, so the box reached what the script needed
by its own menus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from device.box import BoxController
from referee.session import Session
from tests.device.test_art_box import choose
from tests.device.test_box_tray import FakeBridge

SCRIPT = Path(__file__).parents[1] / "referee" / "games" / "art_project" / "win.jsonl"
SEED = bytes(range(32))


def highlight(box: BoxController, start: str) -> None:
    """NEXT until the highlighted item starts with `start`."""
    for _ in range(len(box.view().menu) + 1):
        view = box.view()
        if view.menu[view.cursor].startswith(start):
            return
        box.press("NEXT")
    raise AssertionError(f"no item {start!r} in {box.view().menu}")


def act(box: BoxController, group: str, *fields: str) -> None:
    """From the phase screen: the action, then each field the box asks (one it does not ask,
    having a single value, is skipped)."""
    assert box.view().screen == "phase", box.view()
    box.press("ROLL")
    choose(box, group)
    for wanted in fields:
        if box.view().screen == "pick" and wanted in box.view().menu:
            choose(box, wanted)


def card(box: BoxController, request: dict[str, Any]) -> None:
    """A card's four sections by buttons: ROLL on a count adds one."""
    act(box, "Play a card", request["player"])
    counts = [request.get("spend", {}), request.get("agents", {}),
              {**request.get("gain", {})}, {}]
    for sym in request.get("clues", []):
        counts[3][sym] = counts[3].get(sym, 0) + 1
    for section, wanted in enumerate(counts):
        assert box.view().screen == "card"
        for what, n in wanted.items():
            for _ in range(n):
                highlight(box, f"{what} ")
                box.press("ROLL")
        last = box.view().menu[-1]
        assert last == ("Play the card" if section == 3 else last)
        highlight(box, last)
        box.press("ROLL")


def start(box: BoxController, request: dict[str, Any]) -> None:
    assert box.view().screen == "new"  # no game yet: the box's own game's new screen
    box.press("MENU")
    choose(box, "New game")  # which game: the chooser
    choose(box, "The A.R.T. Project")
    view = box.view()
    assert (view.title, view.big) == ("The A.R.T. Project", str(len(request["players"])))
    box.press("ROLL")
    choose(box, "Test board")
    choose(box, request["difficulty"])


def test_a_whole_art_project_game_from_the_box_s_buttons_alone() -> None:
    s = Session(seed=SEED)
    script = [json.loads(line) for line in SCRIPT.read_text().splitlines() if line.strip()]
    names = [p["name"] for p in script[0]["players"]]
    box = BoxController(s, idle_s=None, names=names, tray=FakeBridge())
    for request in script:
        cmd = request["cmd"]
        if cmd == "state":
            continue
        before = len(s.log)
        if cmd == "new_game":
            start(box, request)
        elif cmd == "draw":
            act(box, "Draw", request["player"])
        elif cmd == "end_phase":
            act(box, "End the phase")
        elif cmd == "unlock_ally":
            act(box, "Unlock an ally die", "no health")
        elif cmd == "move":
            act(box, "Move", request["player"], f"to {request['to']}", "no health")
        elif cmd == "play_card":
            card(box, request)
        elif cmd == "battle":
            act(box, "Battle", request["city"], f"led by {request['leader']}")
            while box.dice.waiting is not None:  # the tray reads each die in turn
                box.tray_roll(box.dice.waiting.player, "d6", request["rolls"][
                    box.dice.waiting.id or ""])
            assert box.view().screen == "verdict"
            box.press("ROLL")
        else:
            raise AssertionError(f"the script has {cmd}")
        if box.view().screen == "ask":  # it spends from the van or health: asked first
            assert len(s.log) == before
            box.press("ROLL")
        assert len(s.log) == before + 1, (request, box.view().text())
        want = s.ruleset.command_json(s.ruleset.parse(
            {k: v for k, v in request.items() if k not in ("game", "rolls")}))
        got = {k: v for k, v in s.log[-1].command.items() if k not in ("rolls",)}
        want = {k: v for k, v in want.items() if k not in ("rolls", "commitment")}
        got.pop("commitment", None)
        if cmd == "battle":
            rolls = {e["id"]: (e["value"], e["via"]) for e in s.log[-1].events
                     if e["type"] == "roll"}
            assert rolls == {d: (v, "tray") for d, v in request["rolls"].items()}
        assert got == want, (request, got)
    assert s.state.over and s.state.outcome == "won"
    view = box.view()
    assert view.screen == "over" and "won" in " ".join(view.lines)
    box.close()
