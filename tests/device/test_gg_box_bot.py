"""A whole Gallery Grippers game from the four buttons alone, the box's own dice (issue 42):
a player who reads only the OLED (the screen's name, its title, its menu and its hint) starts
a three-player game (one name in Polish, one in Chinese) and plays it to a win: moves,
bypasses with the strongest cards, steals, sales at the black market, a trade at a trading
post, draws and re-ups. Nothing is sent any other way, and every screen seen on the way says
what it is and what the buttons do, in words (no abbreviation, no machine word), each row
whole. The presses are the keys of `referee box --hardware sim` (`KEYS`), so the same game
can be watched there: `python -m tests.device.test_gg_box_bot` prints them (with `--seed`
`SEED.hex()` and `--settings` naming the players `NAMES` in `[box] players`)."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box import BoxController
from device.view import BoxView, layout, short_museum
from referee.session import Session

SEED = bytes.fromhex("42" * 32)
NAMES = ["Łukasz", "李明", "Ann"]
KEYS = {"ROLL": "r", "NEXT": "n", "BACK": "b", "MENU": "m"}

# What a new player would not read: a letter and a figure run together ("a1", "T7", "s2";
# a die, "d100", is the table's own word, and the dice commitment's hex is longer), a term
# glued to a one-letter code ("S+25"), two counts added without saying what they count
# ("3+3"), a word of the code (snake_case), a word cut short ("mkt", "spec").
ABBREVIATED = re.compile(r"\b(?!d\d+\b)[A-Za-z]\d{1,3}\b|\b[A-Z][+-]\d|\d\+\d|\w_\w|"
                         r"\b(mkt|spec|attr|pts|T)\b")


def terse(view: BoxView) -> list[str]:
    """The rows of `view` drawn on the OLED (every page) that a new player would not read."""
    found = []
    for page in range(layout(view).pages):
        shown = layout(replace(view, scroll=page))
        for text in (shown.title, *(r.text for r in shown.body), view.hint):
            if ABBREVIATED.search(text):
                found.append(text)
    return found


class Player:
    """Presses buttons by what the screen shows, and keeps the keys it pressed."""

    def __init__(self, box: BoxController) -> None:
        self.box = box
        self.keys: list[str] = []
        self.traded = False
        self.looked: set[int] = set()  # the turns the players page was looked at
        self.seen: list[BoxView] = []
        box.subscribe(self.seen.append)

    def press(self, button: str, long: bool = False) -> None:
        self.keys.append(KEYS[button].upper() if long else KEYS[button])
        self.box.press(button, long)

    def choose(self, label: str) -> None:
        view = self.box.view()
        index = view.menu.index(label)
        for _ in range((index - view.cursor) % max(1, len(view.menu))):
            self.press("NEXT")
        self.press("ROLL")

    def start(self) -> None:
        while self.box.view().big != str(len(NAMES)):
            self.press("NEXT")  # the player count
        self.press("ROLL")  # a new game, every hand dealt
        self.press("ROLL")  # the turn order

    def plan(self) -> tuple[str, ...]:
        """Where the pawn goes, by what the table sees on the board: to a museum with art
        left, in at its art quadrant (now and then by a security tile), out by the exit
        with a piece, to the black market to sell it; a trading post once."""
        s = self.box.session.state
        p = s.current_player
        assert p is not None
        if p.art:
            return ("black market", "exit", "trading", "plain", "airport")
        daring = (("security", "security >", "alarm", "alarm >") if s.turn_number % 2 == 0
                  else ())
        if p.where is not None and not s.museums[p.where]:
            return ("exit", "plain")
        first = () if self.traded else ("trading",)
        return (*first, *daring, "art >", "art", "recruitment", "plain")

    def step(self) -> None:
        view = self.box.view()
        screen, menu = view.screen, view.menu
        turn = self.box.session.state.turn_number
        if screen == "turn" and turn % 4 == 1 and turn not in self.looked:
            self.looked.add(turn)
            self.press("MENU", long=True)  # the players page, every page of it
            pages = int(self.box.view().title.split("/")[-1])
            for _ in range(pages - 1):
                self.press("NEXT")
            self.press("BACK")
        elif screen == "turn":
            wants = ("ROLL:move", "ROLL:steal", "ROLL:sell") + (
                () if self.traded else ("ROLL:trade",))
            self.press("ROLL" if view.hint.startswith(wants) else "NEXT")
        elif screen == "tiles":
            self.choose(next((x for x in self.plan() if x in menu), menu[0]))
        elif screen == "museums":  # one with art left (the table sees the board)
            s = self.box.session.state
            full = [short_museum(m) for m, art in s.museums.items() if art]
            self.choose(next((x for x in menu if x in full), menu[0]))
        elif screen == "obstacle":  # the strongest card of each kind (listed first after none)
            self.press("NEXT")
            self.press("ROLL")
            self.press("NEXT")
            self.press("ROLL")
        elif screen == "choice":
            self.choose(next(x for x in ("go back in (2 strikes)", "ditch the art (1 strike)",
                                         *menu) if x in menu))
        elif screen == "trade":
            self.choose(menu[0])
        elif screen == "trade_give":  # two cards if the hand has them, then done
            ticked = sum(item.startswith("[x]") for item in menu)
            free = [x for x in menu if x.startswith("[ ]")]
            self.choose(free[-1] if ticked < 2 and free else menu[0])
        elif screen == "trade_get":  # one card, then done: the trade is sent
            ticked = any(item.startswith("[x]") for item in menu)
            free = [x for x in menu if x.startswith("[ ]")]
            if ticked or not free:
                self.traded = True
            self.choose(free[0] if not ticked and free else menu[0])
        elif screen in ("new", "hands", "tiebreak", "verdict", "lost", "out",
                        "drawn", "draw", "reup", "steal", "sell", "confirm", "deal"):
            self.press("ROLL")
        else:
            raise AssertionError(f"the player does not know the screen {view.text()}")


def play(session: Session) -> Player:
    box = BoxController(session, idle_s=None, names=NAMES)
    player = Player(box)
    player.start()
    for _ in range(5000):
        if session.state.over:
            break
        player.step()
    box.close()
    return player


def test_a_whole_game_to_a_win_from_the_buttons_every_screen_in_words() -> None:
    s = Session(seed=SEED)
    player = play(s)
    state = s.state
    assert state.over and state.winner, [e.command for e in s.log[-5:]]
    done = {e.command["cmd"] for e in s.log if not e.undone}
    for cmd in ("move", "bypass", "steal", "sell", "trade", "draw", "end_turn"):
        assert cmd in done, cmd
    trade = next(e.command for e in s.log if e.command["cmd"] == "trade")
    assert len(trade["give"]) == 2 and len(trade["get"]) == 1  # several cards one way
    assert set("".join(player.keys)) <= set("".join(KEYS.values()).upper() + "rnbm")
    assert player.seen[-1].lines[:2] == (f"{state.winner} wins!", "reached $1B")
    screens = {v.screen for v in player.seen}
    assert {"turn", "tiles", "obstacle", "verdict", "steal", "sell", "trade", "status",
            "drawn", "reup", "choice", "over"} <= screens
    for view in player.seen:
        assert not terse(view), (terse(view), view.text())
        assert view.hint, view.text()  # every screen says what the buttons do


if __name__ == "__main__":
    print("".join(play(Session(seed=SEED)).keys))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32))
def test_any_seed_s_game_is_won_from_the_buttons_in_words(seed: bytes) -> None:
    """Whatever the dice, the buttons alone take the game to its end (a win by money, or
    the last player standing), and no screen on the way is terse or without its hint."""
    s = Session(seed=seed)
    player = play(s)
    assert s.state.over and s.state.winner, s.ruleset.state_json(s.state)["next"]
    for view in player.seen:
        assert not terse(view) and view.hint, view.text()
