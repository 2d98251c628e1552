"""A whole A.R.T. game from the four buttons alone, the box's own dice (issue 24, item 3): a
player who reads only the OLED (the screen's name, its title and its menu) starts the game
from the game chooser and plays it to its end: draws, cards (a gain and a clue entered by
buttons), the ally die, moves, battles (conceded when lost), the end of each phase. Nothing
is sent any other way. The presses are the keys of `referee box --hardware sim`
(`KEYS`), so the same game can be watched there: `python -m tests.device.test_art_box_bot`
prints them."""

from __future__ import annotations

from device.box import BoxController
from referee.session import Session

SEED = bytes(range(32))
NAMES = ["Ann", "Ben"]
KEYS = {"ROLL": "r", "NEXT": "n", "BACK": "b", "MENU": "m"}
PREFER = ("Decide", "Draw", "Unlock an ally die", "Play a card", "Move", "Battle",
          "End the phase")


class Player:
    """Presses buttons by what the screen shows, and keeps the keys it pressed."""

    def __init__(self, box: BoxController) -> None:
        self.box = box
        self.keys: list[str] = []
        self.moved: set[tuple[str, str]] = set()  # (title, who) moved this phase
        self.cards = 0

    def press(self, button: str) -> None:
        self.keys.append(KEYS[button])
        self.box.press(button)

    def to(self, index: int) -> None:
        view = self.box.view()
        for _ in range((index - view.cursor) % max(1, len(view.menu))):
            self.press("NEXT")

    def choose(self, label: str) -> None:
        self.to(self.box.view().menu.index(label))
        self.press("ROLL")

    def start(self) -> None:
        self.press("MENU")
        self.choose("New game")  # which game: the chooser
        self.choose("The A.R.T. Project")
        self.press("ROLL")  # two players, from [box]
        self.choose("Test board")
        self.choose("easy")

    def step(self) -> None:
        view = self.box.view()
        screen, menu = view.screen, view.menu
        if screen in ("phase", "verdict", "choice", "ask"):  # ask: yes, pay / end
            self.press("ROLL")
        elif screen == "acts":
            offered = [x for x in PREFER if x in menu]
            if "Move" in offered and (view.title, "move") in self.moved:
                offered.remove("Move")
            if "Move" in offered:
                self.moved.add((view.title, "move"))
            self.choose(offered[0])
        elif screen == "pick":
            self.press("ROLL")  # the first value offered
        elif screen == "card":  # one section a step: what it shows, then on
            if "Gain" in view.title:
                self.press("ROLL")  # the card gains a fuel (the cursor starts on it)
            if "Clues" in view.title:
                self.to(self.cards % 6)
                self.press("ROLL")  # and shows one clue
                self.cards += 1
            self.to(len(menu) - 1)
            self.press("ROLL")
        elif screen == "battle":
            self.choose("Concede")
        else:
            raise AssertionError(f"the player does not know the screen {view.text()}")


def play(session: Session) -> Player:
    box = BoxController(session, idle_s=None, names=NAMES)
    player = Player(box)
    player.start()
    assert session.ruleset.id == "art-project"
    for _ in range(3000):
        if session.state.over:
            break
        player.step()
    box.close()
    return player


def test_a_whole_game_from_the_buttons_with_the_box_s_dice() -> None:
    s = Session(seed=SEED)
    player = play(s)
    assert s.state.over, s.ruleset.state_json(s.state)["next"]
    done = [e.command["cmd"] for e in s.log if not e.undone]
    for cmd in ("draw", "play_card", "move", "end_phase"):
        assert cmd in done, cmd
    shown = s.ruleset.state_json(s.state)
    assert shown["round"] >= 2 and shown["result"]["outcome"] in ("won", "lost")
    assert set("".join(player.keys)) <= set(KEYS.values())


if __name__ == "__main__":
    print("".join(play(Session(seed=SEED)).keys))
