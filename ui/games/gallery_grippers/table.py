"""The table: the main screen while a game is played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from referee.games.gallery_grippers.commands import EndTurn, MoveRoll, Sell, Steal, Trade
from referee.games.gallery_grippers.rules.queries import can
from referee.games.gallery_grippers.state import Phase
from referee.session import LogEntry
from ui.base import AFTER_THE_END, BaseScreen, KeyBar, TitleBar, either_case
from ui.games.gallery_grippers import format as fmt
from ui.games.gallery_grippers.turn import MoveDialog, SellDialog, StealDialog, TradeDialog
from ui.games.gallery_grippers.widgets import DicePanel, EventLog, Scoreboard, TurnBanner


def rolled_this_turn(log: Sequence[LogEntry]) -> bool:
    """Whether a die was rolled since the current turn began (undone steps skipped)."""
    for entry in reversed(log):
        if entry.undone:
            continue
        for event in reversed(entry.events):
            if event["type"] == "roll" and event["die"] != "pick":
                return True
            if event["type"] in ("turn", "game_started"):
                return False
    return False


class TableScreen(BaseScreen):
    """Scoreboard, whose turn it is, the last roll, the log; keys for every turn step."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("r"), "move", "Roll"),
        Binding(either_case("s"), "steal", "Steal"),
        Binding(either_case("l"), "sell", "Sell"),
        Binding(either_case("t"), "trade", "Trade"),
        Binding(either_case("e"), "end_turn", "End turn"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding(either_case("o"), "app.box", "Box"),
        Binding(either_case("g"), "game_over", "Result", show=False),
        Binding("ctrl+n", "app.new_game", "New game", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield TurnBanner(id="turn-banner")
        with Horizontal(id="table"):
            yield Scoreboard(id="scoreboard")
            with Vertical(id="side"):
                yield DicePanel(id="dice")
                with VerticalScroll(id="log-scroll"):
                    yield Static("Log (newest first)", classes="panel-title")
                    yield EventLog(id="log")
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        session = self.referee.session
        s = session.state
        self.query_one(TurnBanner).state = s
        self.query_one(Scoreboard).state = s
        self.call_after_refresh(self._current_in_view)
        roll = fmt.last_roll(session.log)
        self.query_one(DicePanel).roll = roll
        # At the start of a turn the last roll is the previous turn's: say so, so nobody
        # reads it as the roll of the player now to play.
        title = "Last roll"
        if roll is not None and s.phase is Phase.PLAYING and not rolled_this_turn(session.log):
            title = f"Last roll (before turn {s.turn_number})"
        self.query_one("#dice .panel-title", Static).update(title)
        self.query_one(DicePanel).set_class(title != "Last roll", "-earlier")
        self.query_one(EventLog).entries = EventLog.lines_for(session.log)
        self.refresh_bindings()  # (undo is offered only while it can take something back)

    def _current_in_view(self) -> None:
        """Whose turn it is is always in view, their art and hand whole: on a small screen
        the scoreboard scrolls to the current player's row (the third player's, at 80×24,
        would otherwise be below the fold on their own turn)."""
        rows = self.query(".player-row.-current")
        if rows:
            self.query_one(Scoreboard).scroll_to_widget(rows.first(), animate=False, top=True)

    # ---- undo: offered only when there is something it may take back ----------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.referee.session.undo_target() is not None
        return True

    async def action_undo(self) -> None:
        await self.app.run_action("app.undo")

    def on_key(self, event: events.Key) -> None:
        """Ctrl+Z when nothing can be undone (the key is not offered then) says why."""
        if event.key == "ctrl+z" and self.referee.session.undo_target() is None:
            event.stop()
            self.notify(AFTER_THE_END if self.state.over else "Nothing to undo yet.",
                        markup=False)

    # ---- the turn's steps ------------------------------------------------------------------
    def _player(self) -> str | None:
        p = self.state.current_player
        if p is None or self.state.over:
            self.refused(None)
            self.notify("The game is over." if self.state.over else "No turn is running.",
                        markup=False)
            return None
        return p.name

    def action_move(self) -> None:
        who = self._player()
        if who is None:
            return
        if not can(self.state, who, MoveRoll):
            # Not offered once the pawn has moved: the rules say why, here (GG-4).
            self.send(MoveRoll(player=who, roll=None))
            return
        self.refused(None)
        self.referee.open(MoveDialog(who))

    def action_steal(self) -> None:
        who = self._player()
        if who is None:
            return
        if not can(self.state, who, Steal):
            self.send(Steal(player=who, art="?"))  # refused: the rules say why (GG-11)
            return
        self.refused(None)
        self.referee.open(StealDialog(who))

    def action_sell(self) -> None:
        who = self._player()
        if who is None:
            return
        if not can(self.state, who, Sell):
            self.send(Sell(player=who))  # refused: the rules say why (GG-13)
            return
        self.refused(None)
        self.referee.open(SellDialog(who))

    def action_trade(self) -> None:
        who = self._player()
        if who is None:
            return
        if not can(self.state, who, Trade):
            self.send(Trade(giver=who, taker=who))  # refused: the rules say why (GG-4)
            return
        self.refused(None)
        self.referee.open(TradeDialog(who))

    def action_end_turn(self) -> None:
        who = self._player()
        if who is not None:
            self.send(EndTurn(player=who))

    def action_game_over(self) -> None:
        if self.state.over:
            from ui.games.gallery_grippers.info import GameOverScreen

            self.referee.open(GameOverScreen())
