"""The dialogs of a turn that the player opens: move, steal, sell, trade."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Digits, OptionList, SelectionList, Static

from referee.games.gallery_grippers.commands import Move, MoveRoll, Roll, Sell, Steal, Trade
from ui import format as fmt
from ui.base import Choices, Dialog, KeyBar, PendingDialog

OUTSIDE = ("airport", "recruitment", "trading", "black_market", "security", "alarm", "art",
           "plain")
INSIDE = ("security", "alarm", "art", "exit", "plain")


class MoveDialog(Dialog[None]):
    """Roll the movement d6: the box rolls, or type the real die. The roll is recorded at
    once (move_roll), so the table sees it before the pawn moves; the session then holds a
    'tile' decision, answered in `TileDialog`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "roll", "Box rolls"),
        *[Binding(str(n), f"typed({n})", "Typed d6" if n == 1 else "", show=n == 1,
                  key_display="1-6")
          for n in range(1, 7)],
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        p = self.state.player(self.player)
        with Vertical(classes="dialog", id="move-dialog"):
            yield Static(f"[b]Roll to move[/b] — {fmt.swatch(p)}, {fmt.escape(fmt.where(p))}",
                         classes="dialog-title")
            yield Static("[b]R[/b]: the box rolls  ·  [b]1-6[/b]: type the real die",
                         id="move-how")
            yield self.error_line()
        yield KeyBar()

    def _roll(self, roll: Roll | None) -> None:
        if self.send(MoveRoll(player=self.player, roll=roll)):
            self.dismiss(None)  # the app opens the tile decision next

    def action_roll(self) -> None:
        self._roll(None)

    def action_typed(self, value: int) -> None:
        self._roll(Roll.physical("d6", value))


class TileDialog(PendingDialog):
    """The movement roll is made: say where the pawn landed (GG-4), and in which museum when
    an outside pawn lands on a museum's tile (GG-5)."""

    decision = "tile"
    BINDINGS: ClassVar[list[BindingType]] = [
        *PendingDialog.BINDINGS, Binding("backspace", "other_tile", "Other tile", show=False),
    ]

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.tile: str | None = None

    def compose(self) -> ComposeResult:
        p = self.state.player(self.player)
        rolled = fmt.last_roll(self.referee.session.log)
        with Vertical(classes="dialog", id="move-dialog"):
            yield Static(f"[b]Move[/b] — {fmt.swatch(p)}, {fmt.escape(fmt.where(p))}",
                         classes="dialog-title")
            with Horizontal(id="move-roll"):
                yield Digits(str(self.state.turn.rolled or "?"), id="move-value")
                yield Static(fmt.provenance(rolled) if rolled else "", id="move-provenance")
            yield Static("Where did the pawn land? (↑↓, Enter)", id="tile-title")
            yield Choices(id="tiles")
            yield Static("Which museum? (↑↓, Enter)", id="museum-title")
            yield Choices(id="museums")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        p = self.state.player(self.player)
        tiles = INSIDE if p.where else OUTSIDE
        lst = self.query_one("#tiles", Choices)
        lst.set_choices([(fmt.TILE_LABELS[t], t) for t in tiles])
        self._steps()
        lst.focus()

    def _steps(self) -> None:
        """The tile list, or (once a museum's tile is picked) the museum list in its place:
        both at once do not fit in 24 lines."""
        museum = self.tile is not None
        for wid in ("#museum-title", "#museums"):
            self.query_one(wid).display = museum
        self.query_one("#tiles").display = not museum
        title = self.query_one("#tile-title", Static)
        if museum:
            label = fmt.TILE_LABELS[self.tile or "plain"]
            title.update(f"Landed on [b]{label}[/b] (Backspace: another tile)")
        else:
            title.update("Where did the pawn land? (↑↓, Enter)")

    def action_other_tile(self) -> None:
        if self.tile is not None:
            self.tile = None
            self._steps()
            self.query_one("#tiles").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        p = self.state.player(self.player)
        if not isinstance(event.option_list, Choices):
            return
        value = event.option_list.value_at(event.option_index)
        if event.option_list.id == "tiles":
            self.tile = value
            if p.where is None and self.tile in fmt.MUSEUM_TILES:
                museums = self.query_one("#museums", Choices)
                museums.set_choices([(m, m) for m in self.state.museums])
                self._steps()
                museums.focus()
                return
            self._move(None)
        else:
            self._move(value)

    def _move(self, museum: str | None) -> None:
        if self.tile is not None:
            self.send(Move(player=self.player, tile=self.tile, museum=museum))


class StealDialog(Dialog[None]):
    """Pick one piece still in the museum (GG-11)."""

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        s = self.state
        museum = s.turn.museum or ""
        with Vertical(classes="dialog"):
            yield Static(f"[b]Steal[/b] from {fmt.escape(museum)} — one piece (Enter)",
                         classes="dialog-title")
            options = []
            for name in s.museums.get(museum, ()):
                art = s.catalog.art(name)
                if art is not None:
                    options.append((f"{name}  {fmt.money(art.value)}  "
                                    f"−{art.deduction}% on bypasses", name))
            yield Choices(*options, id="art-list")
            yield Static(f"Carrying now: −{s.player(self.player).deduction}% ", classes="hint")
            yield self.error_line()
        yield KeyBar()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        art = self.query_one("#art-list", Choices).value_at(event.option_index)
        if self.send(Steal(player=self.player, art=str(art or ""))):
            self.dismiss(None)


class SellDialog(Dialog[None]):
    """Sell held art at the black market, with the price and the fence bonus (GG-13)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sell", "Sell"),
        Binding("escape", "cancel", "Cancel")
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        p = self.state.player(self.player)
        with Vertical(classes="dialog"):
            yield Static(f"[b]Sell art[/b] — {fmt.swatch(p)} (Space ticks a piece, S sells)",
                         classes="dialog-title")
            # A selection's value is the piece's place in the hand, not its name.
            yield SelectionList[int](
                *[(Content(f"{a.name}  {fmt.money(a.value)}"), i, True)
                  for i, a in enumerate(p.art)],
                id="sell-list")
            yield Static("", id="price")
            yield Button("Sell \\[S]", id="sell", variant="primary", compact=True)
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self._price()

    def on_selection_list_selected_changed(self, _: SelectionList.SelectedChanged[int]) -> None:
        self._price()

    def _chosen(self) -> list[str]:
        held = self.state.player(self.player).art
        picked = self.query_one("#sell-list", SelectionList).selected
        return [held[i].name for i in sorted(picked) if 0 <= i < len(held)]

    def _price(self) -> None:
        s = self.state
        p = s.player(self.player)
        names = self._chosen()
        face = sum(a.value for a in p.art if a.name in names)  # art names are unique
        bonus = s.rules.fence_bonus_per_extra_piece * max(len(names) - 1, 0)
        after = p.money + face + bonus
        lines = [f"Face value {fmt.money(face)} + fence bonus {fmt.money(bonus)} "
                 f"({max(len(names) - 1, 0)} extra piece(s)) = [b]{fmt.money(face + bonus)}[/b]",
                 f"Money after: {fmt.money(after)} of {fmt.money(s.rules.win_money)}"]
        if after >= s.rules.win_money:
            lines.append("[b green]That reaches the win money: the game ends (GG-14).[/]")
        self.query_one("#price", Static).update("\n".join(lines))

    def action_sell(self) -> None:
        if self.send(Sell(player=self.player, art=tuple(self._chosen()))):
            self.dismiss(None)

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.action_sell()


class TradeDialog(Dialog[None]):
    """Swap attribute cards with another player; both must agree (GG-4)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+t", "trade", "Trade", priority=True),
                Binding("escape", "cancel", "Cancel")]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.partner: str | None = None

    def compose(self) -> ComposeResult:
        s = self.state
        others = [q for q in s.active_players() if q.name != self.player]
        with Vertical(classes="dialog", id="trade-dialog"):
            yield Static("[b]Trade attribute cards[/b] — with whom? (Enter)",
                         classes="dialog-title")
            yield Choices(*[(q.name, q.name) for q in others], id="partners")
            with Horizontal(id="trade-hands"):
                yield SelectionList[int](id="give")
                yield SelectionList[int](id="get")
            yield Button("Both agree: trade \\[^T]", id="trade", variant="primary", compact=True)
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#trade-hands").display = False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "partners":
            return
        self.partner = self.query_one("#partners", Choices).value_at(event.option_index)
        s = self.state
        for wid, who in (("#give", self.player), ("#get", self.partner or "")):
            lst = self.query_one(wid, SelectionList)
            lst.clear_options()
            # A selection's value is the card's place in the hand: two copies, two cards.
            lst.add_options([(Content(f"{c} +{fmt.card_bonus(s, c)}"), i)
                             for i, c in enumerate(s.player(who).attributes)])
            lst.border_title = f"{fmt.escape(who)} gives"
            if lst.option_count:
                lst.highlighted = 0  # so Space ticks a card at once
        self.query_one("#trade-hands").display = True
        self.query_one("#give", SelectionList).focus()

    def action_trade(self) -> None:
        if self.partner is None:
            return

        def cards(wid: str, who: str) -> tuple[str, ...]:
            hand = self.state.player(who).attributes
            picked = self.query_one(wid, SelectionList).selected
            return tuple(hand[i] for i in sorted(picked) if 0 <= i < len(hand))

        partner = self.partner
        if self.send(Trade(giver=self.player, taker=partner, give=cards("#give", self.player),
                           get=cards("#get", partner))):
            self.dismiss(None)

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.action_trade()
