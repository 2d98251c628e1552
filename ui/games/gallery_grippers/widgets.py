"""The table's widgets. Each is handed what it shows (attributes down) and keeps nothing else:
set `view` again and it redraws from that alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Digits, Static

from referee.games.gallery_grippers.state import GameState, PlayerState
from referee.session import LogEntry
from ui.games.gallery_grippers import format as fmt


@dataclass(frozen=True)
class PlayerView:
    """What one scoreboard row shows: the player, the game's state, whose turn it is."""

    state: GameState
    player: PlayerState
    current: bool


class PlayerRow(Static):
    """One player: colour and name, strikes as pips, status, where, money bar, art, hand."""

    view: reactive[PlayerView | None] = reactive(None, layout=True)

    def render(self) -> str:
        v = self.view
        if v is None:
            return ""
        p, s = v.player, v.state
        target = s.rules.win_money
        arrow = "[reverse]▶ TO PLAY[/] " if v.current else ""
        status = fmt.status_text(p)
        if p.status == "out":
            status = f"[dim]{status}[/]"
        elif p.status == "winner":
            status = f"[b green]{status}[/]"
        first = (f"{arrow}{fmt.swatch(p)} [dim]({fmt.escape(p.color)})[/]  "
                 f"strikes [b]{fmt.pips(p.strikes)}[/]"
                 f"  {status}  {fmt.escape(fmt.where(p))}")
        second = (f"{fmt.money(p.money)} [{fmt.colour_hex(p.color)}]"
                  f"{fmt.bar(p.money, target, 12)}[/] of {fmt.short_money(target)}")
        art = f"art: {fmt.escape(fmt.art_text(p))}"
        specialists, attributes = fmt.hand_lines(s, p)
        return "\n".join((first, second, art, f"specialists: {fmt.escape(specialists)}",
                          f"attributes:  {fmt.escape(attributes)}"))

    def watch_view(self, view: PlayerView | None) -> None:
        self.set_class(bool(view and view.current), "-current")
        self.set_class(bool(view and view.player.status == "out"), "-out")


class Scoreboard(VerticalScroll):
    """A row per player, in seating order."""

    state: reactive[GameState | None] = reactive(None, recompose=True)

    def compose(self) -> ComposeResult:
        s = self.state
        if s is None:
            return
        for i, p in enumerate(s.players):
            row = PlayerRow(id=f"player-{i}", classes="player-row")
            row.view = PlayerView(s, p, i == s.current and not s.over)
            yield row


class TurnBanner(Static):
    """Whose turn it is, and what has happened in it so far."""

    state: reactive[GameState | None] = reactive(None, layout=True)

    def render(self) -> str:
        s = self.state
        if s is None or not s.players:
            return "No game"
        if s.over:
            who = s.winner or "nobody"
            return f"[b]Game over[/b] — {fmt.escape(who)} wins  ·  seed revealed (see G)"
        p = s.current_player
        if p is None:
            return "Setting up"
        return (f"Turn {s.turn_number} · {fmt.swatch(p)}'s turn [dim]({fmt.escape(p.color)})[/] · "
                f"{fmt.escape(fmt.turn_step(s, p.name))}")


class DicePanel(Vertical):
    """The last die rolled, large, with what it was for and where it came from."""

    roll: reactive[dict[str, object] | None] = reactive(None)

    def compose(self) -> ComposeResult:
        yield Static("Last roll", classes="panel-title")
        yield Digits("–", id="dice-value")
        yield Static("", id="dice-provenance")

    def watch_roll(self, roll: dict[str, object] | None) -> None:
        digits = self.query_one("#dice-value", Digits)
        caption = self.query_one("#dice-provenance", Static)
        if roll is None:
            digits.update("–")
            caption.update("no dice yet")
            return
        digits.update(str(roll["value"]))
        purpose = fmt.PURPOSES.get(str(roll["purpose"]), str(roll["purpose"]))
        who = f"{fmt.escape(str(roll['player']))} · " if roll.get("player") else ""
        caption.update(f"{roll['die']} {purpose}\n{who}{fmt.provenance(roll)}")


class EventLog(Static):
    """The game's log, newest first; undone steps struck through and marked."""

    entries: reactive[tuple[tuple[int, bool, str], ...]] = reactive((), layout=True)

    @staticmethod
    def lines_for(log: Sequence[LogEntry], limit: int = 60) -> tuple[tuple[int, bool, str], ...]:
        return tuple((e.seq, e.undone, fmt.describe(e)) for e in reversed(log[-limit:]))

    def render(self) -> Text:
        text = Text()
        for seq, undone, line in self.entries:
            if text:
                text.append("\n")
            text.append(f"{seq:>3} ", style="dim")
            if undone:
                text.append(line, style="strike dim")
                text.append(" (undone)", style="italic")
            else:
                text.append(line)
        return text
