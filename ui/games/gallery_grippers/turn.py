"""The dialogs of a turn that the player opens: move, steal, sell, trade.

What each dialog offers is what the rules allow now (`queries.legal_actions`);
the figures it shows (a price, a card's bonus) are asked of the queries too.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Digits, OptionList, SelectionList, Static

from referee.games.gallery_grippers.commands import Move, MoveRoll, Roll, Sell, Steal, Trade
from referee.games.gallery_grippers.rules.queries import (
    Decision,
    Landing,
    card_bonus,
    landings,
    legal_actions,
    sale_price,
)
from referee.games.gallery_grippers.state import GameState
from ui.base import Choices, Dialog, KeyBar, PendingDialog, either_case
from ui.games.gallery_grippers import format as fmt
from ui.screens.ticks import TickList

# The order tiles are listed in (which tiles are listed is the rules' answer, `landings`).
ORDER = ("airport", "recruitment", "trading", "black_market", "security", "alarm", "art", "exit",
         "plain")


def landing_label(state: GameState, player: str, landing: Landing) -> str:
    """A landing place in words: as the tile list offers it, and as the museum step after it
    says what was picked (one label: issue 42 found "Plain tile (nothing happens)" said of
    the plain tile that enters a museum)."""
    if landing.tile == "plain" and landing.museums and state.player(player).where is None:
        return "Plain tile in a museum (you enter it)"
    return fmt.TILE_LABELS[landing.tile]


def tile_choices(state: GameState, player: str) -> list[tuple[str, Landing]]:
    """The tile list: each landing place the rules allow, labelled."""
    found = sorted(landings(state, player), key=lambda x: (ORDER.index(x.tile), bool(x.museums)))
    return [(landing_label(state, player, x), x) for x in found]


def legal(state: GameState, player: str, kind: type) -> list[Any]:
    """The legal commands of one kind for `player` now."""
    return [a for a in legal_actions(state, player) if isinstance(a, kind)]


def stray_d6_key(dialog: Dialog[None], event: events.Key) -> None:
    """A character key that a d6 dialog (R, or 1-6) does not use gets a reason, not silence."""
    if event.character and event.character.isprintable() and event.character not in "rR123456":
        event.prevent_default()  # (not the general word of every dialog too)
        dialog.say_error(f"✗ {event.character!r} does nothing here: R lets the box roll, "
                         "1-6 records the real die.")


class MoveDialog(Dialog[None]):
    """Roll the movement d6: the box rolls, or type the real die. The roll is recorded at
    once (move_roll), so the table sees it before the pawn moves; the session then holds a
    'tile' decision, answered in `TileDialog`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("r"), "roll", "Box rolls"),
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
            kept = self.referee.session.kept_for(MoveRoll(player=self.player, roll=None))
            if kept:  # an undone roll of this die is still on the table: the box reuses it
                yield Static(f"[b]R[/b]: the box rolls — the undone roll is still on the "
                             f"table, so it gives {kept[0].roll.value} again (a typed die "
                             "is refused)", id="move-how")
            else:
                yield Static("[b]R[/b]: the box rolls  ·  [b]1-6[/b]: type the real die",
                             id="move-how")
            yield self.error_line()
        yield KeyBar()

    def on_key(self, event: events.Key) -> None:
        stray_d6_key(self, event)

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

    decision = Decision.TILE
    BINDINGS: ClassVar[list[BindingType]] = [
        *PendingDialog.BINDINGS, Binding("backspace", "other_tile", "Other tile", show=False),
        # Priority: ↑↓ and the pick act as the app reads the keys, in the order typed, so
        # the keys right behind Enter (fast, or pasted) reach the museum list, not the tile
        # list it replaces.
        Binding("enter", "pick", show=False, priority=True),
        Binding("down", "cursor(1)", show=False, priority=True),
        Binding("up", "cursor(-1)", show=False, priority=True),
    ]

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.tile: Landing | None = None

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
        lst = self.query_one("#tiles", Choices)
        lst.set_choices(tile_choices(self.state, self.player))
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
        if self.tile is not None:
            label = landing_label(self.state, self.player, self.tile)
            title.update(f"Landed on [b]{fmt.escape(label)}[/b] (Backspace: another tile)")
        else:
            title.update("Where did the pawn land? (↑↓, Enter)")

    def action_other_tile(self) -> None:
        if self.tile is not None:
            self.tile = None
            self._steps()
            self.query_one("#tiles").focus()

    def _list(self) -> Choices:
        lst = self.focused
        if not isinstance(lst, Choices) or lst.id not in ("tiles", "museums"):
            raise SkipAction()
        return lst

    def action_cursor(self, step: int) -> None:
        lst = self._list()
        (lst.action_cursor_down if step > 0 else lst.action_cursor_up)()

    def action_pick(self) -> None:
        lst = self._list()
        if lst.highlighted is not None:
            self._picked(lst, lst.highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # (a click: Enter is `action_pick`)
        if isinstance(event.option_list, Choices):
            self._picked(event.option_list, event.option_index)

    def _picked(self, lst: Choices, index: int) -> None:
        value = lst.value_at(index)
        if lst.id == "tiles":
            self.tile = value
            if isinstance(value, Landing) and value.museums:
                museums = self.query_one("#museums", Choices)
                museums.set_choices([(m, m) for m in value.museums])
                self._steps()
                self.set_focus(museums)  # now, not on the app's next turn
                return
            self._move(None)
        else:
            self._move(value)

    def _move(self, museum: str | None) -> None:
        if self.tile is not None:
            self.send(Move(player=self.player, tile=self.tile.tile, museum=museum))


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
            for steal in legal(s, self.player, Steal):
                art = s.catalog.art(steal.art)
                if art is not None:
                    options.append((f"{art.name}  {fmt.money(art.value)}  "
                                    f"−{art.deduction}% on bypasses", art.name))
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
        Binding(either_case("s"), "sell", "Sell"),
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
            sellable = {a.art[0] for a in legal(self.state, self.player, Sell) if a.art}
            yield TickList(
                *[(Content(f"{a.name}  {fmt.money(a.value)}"), i, True)
                  for i, a in enumerate(p.art) if a.name in sellable],
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
        sale = sale_price(self.state, self.player, self._chosen())
        lines = [f"Face value {fmt.money(sale.face)} + fence bonus {fmt.money(sale.bonus)} "
                 f"({sale.extra} extra piece(s)) = [b]{fmt.money(sale.price)}[/b]",
                 f"Money after: {fmt.money(sale.money_after)} of {fmt.money(sale.win_money)}"]
        if sale.wins:
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
                Binding("escape", "cancel", "Cancel"),
                # ↑↓, Enter and Space act as the app reads them, in the order typed, in the
                # list that has the focus then: a burst of keys (typed fast, or pasted)
                # ticks the cards it was meant for.
                Binding("enter", "partner", show=False, priority=True),
                Binding("down", "cursor(1)", show=False, priority=True),
                Binding("up", "cursor(-1)", show=False, priority=True),
                Binding("space", "tick", show=False, priority=True)]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.partner: str | None = None

    def compose(self) -> ComposeResult:
        partners = dict.fromkeys(t.taker for t in legal(self.state, self.player, Trade))
        with Vertical(classes="dialog", id="trade-dialog"):
            yield Static("[b]Trade attribute cards[/b] — with whom? (Enter)",
                         classes="dialog-title")
            yield Choices(*[(name, name) for name in partners], id="partners")
            with Horizontal(id="trade-hands"):
                yield TickList(id="give")
                yield TickList(id="get")
            yield Button("Both agree: trade \\[^T]", id="trade", variant="primary", compact=True)
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#trade-hands").display = False

    def _partners(self) -> Choices:
        lst = self.focused
        if not isinstance(lst, Choices) or lst.id != "partners":
            raise SkipAction()
        return lst

    def action_cursor(self, step: int) -> None:
        lst = self.focused
        if not isinstance(lst, OptionList):  # (the partners, or a hand's cards)
            raise SkipAction()
        (lst.action_cursor_down if step > 0 else lst.action_cursor_up)()

    def action_tick(self) -> None:
        lst = self.focused
        if not isinstance(lst, SelectionList):
            raise SkipAction()
        lst.action_select()

    def action_partner(self) -> None:
        lst = self._partners()
        if lst.highlighted is not None:
            self._partner(lst.highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "partners":  # (a click: Enter is `action_partner`)
            self._partner(event.option_index)

    def _partner(self, index: int) -> None:
        self.partner = self.query_one("#partners", Choices).value_at(index)
        s = self.state
        trades = [t for t in legal(s, self.player, Trade) if t.taker == self.partner]
        for wid, who, cards in (("#give", self.player, {x for t in trades for x in t.give}),
                                ("#get", self.partner or "", {x for t in trades for x in t.get})):
            lst = self.query_one(wid, SelectionList)
            lst.clear_options()
            # A selection's value is the card's place in the hand: two copies, two cards.
            lst.add_options([(Content(f"{name} +{card_bonus(s, name)}"), i)
                             for i, name in enumerate(s.player(who).attributes)
                             if name in cards])
            lst.border_title = f"{fmt.escape(who)} gives"
            if lst.option_count:
                lst.highlighted = 0  # so Space ticks a card at once
        self.query_one("#trade-hands").display = True
        self.set_focus(self.query_one("#give", SelectionList))  # now, for the keys behind

    def action_trade(self) -> None:
        self.after_typing(self._trade)  # after the ticks typed before Ctrl+T

    def _trade(self) -> None:
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
