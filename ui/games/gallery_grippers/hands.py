"""Setup after the new game: starting hands (GG-1) and the turn-order roll-off (GG-3)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, OptionList, Static

from referee.games.gallery_grippers.commands import Deal, Tiebreak, TurnOrder
from referee.games.gallery_grippers.rules import queries
from referee.games.gallery_grippers.rules.queries import Decision, card_bonus
from referee.games.gallery_grippers.rules.setup import HAND
from referee.games.gallery_grippers.state import GameState, pile_list
from ui.base import BaseScreen, Choice, Choices, KeyBar, TitleBar
from ui.games.gallery_grippers import format as fmt
from ui.screens.diefield import DieField

DECKS = ("specialist", "attribute")


def balanced_hands(state: GameState, players: list[str]) -> dict[str, dict[str, list[str]]]:
    """Starting hands of equal strength for `players`, from what is left in the decks.

    For each deck, 3 cards per player are taken evenly from the whole pile sorted by
    strength (so the decks left behind keep their mix), then handed out in a snake draft
    (1..n, n..1, 1..n) so no seat gets all the best cards.
    """
    hands: dict[str, dict[str, list[str]]] = {p: {"specialists": [], "attributes": []}
                                             for p in players}
    n = len(players)
    for deck in DECKS:
        per = HAND[deck + "s"]
        copies = sorted(pile_list(state.piles.get(deck, {})),
                        key=lambda name: (-card_bonus(state, name), name))
        want = per * n
        if want > len(copies):
            raise ValueError(f"the {deck} deck has {len(copies)} cards, {want} are needed")
        picked = [copies[i * len(copies) // want] for i in range(want)]
        for r in range(per):
            seats = players if r % 2 == 0 else players[::-1]
            for k, p in enumerate(seats):
                hands[p][deck + "s"].append(picked[r * n + k])
    return hands


def card_label(bonus: int, name: str, left: int) -> str:
    """A card in a deck list: its bonus, its name, the copies left (none: said in words,
    so a card that cannot be picked says why). Short, so a name fits one line at 80×24."""
    return f"{bonus:+3} {name} " + (f"×{left}" if left > 0 else "(none left)")


class HandsScreen(BaseScreen):
    """Each player's starting hand, picked from the catalog (or dealt balanced)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+d", "deal", "Deal this hand", priority=True),
        Binding("ctrl+b", "balanced", "Balanced hands for all", priority=True),
        Binding("backspace", "drop", "Remove last card"),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("ctrl+n", "app.new_game", "New game"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.picked: list[str] = []  # the hand being chosen: a form draft, not game state

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static("", id="hands-title", classes="screen-title")
        with Horizontal(id="hands"):
            with Vertical(classes="deck-column"):
                yield Static("Specialists ×left (Enter)", classes="panel-title")
                yield Choices(id="deck-specialist", compact=True)
            with Vertical(classes="deck-column"):
                yield Static("Attributes ×left (Enter)", classes="panel-title")
                yield Choices(id="deck-attribute", compact=True)
            with Vertical(id="hand-column"):
                yield Static("", id="hand-draft")
                yield Button("Deal this hand \\[^D]", id="deal", variant="primary", compact=True)
                yield Button("Balanced hands for all \\[^B]", id="balanced", compact=True)
                yield Static("", id="dealt-list")
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#deck-specialist", OptionList).focus()

    @property
    def chooser(self) -> str | None:
        """The first player without a starting hand."""
        return next((p.name for p in self.state.players if not p.dealt), None)

    def show(self) -> None:
        s = self.state
        who = self.chooser
        if who is None:
            return
        if getattr(self, "_for", None) != who:
            self._for = who
            self.picked = []
        self.query_one("#hands-title", Static).update(
            f"Starting hands (GG-1): [b]{fmt.escape(who)}[/b] picks 3 specialists and 3 "
            "attributes")
        for deck in DECKS:
            options = self.query_one(f"#deck-{deck}", Choices)
            highlighted = options.highlighted
            pile = dict(s.piles.get(deck, {}))
            for card in self.picked:
                if card in pile:
                    pile[card] -= 1
            cards = sorted(pile, key=lambda name: (-card_bonus(s, name), name))
            options.set_choices([
                Choice(card_label(card_bonus(s, name), name, pile[name]), name, pile[name] <= 0)
                for name in cards])
            if cards:
                options.highlighted = min(highlighted or 0, len(cards) - 1)
        spec = [c for c in self.picked if self._kind(c) == "specialist"]
        attr = [c for c in self.picked if self._kind(c) == "attribute"]
        self.query_one("#hand-draft", Static).update(
            f"[b]{fmt.escape(who)}'s hand[/b]\nSpecialists: {fmt.escape(', '.join(spec)) or '–'} "
            f"({len(spec)}/3)\nAttributes: {fmt.escape(', '.join(attr)) or '–'} ({len(attr)}/3)")
        dealt = [f"✓ {fmt.swatch(p)}" if p.dealt else f"· {fmt.swatch(p)}" for p in s.players]
        self.query_one("#dealt-list", Static).update("\n".join(dealt))

    def _kind(self, card: str) -> str:
        c = self.state.catalog.card(card)
        return c.kind if c else ""

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if not isinstance(event.option_list, Choices):
            return
        card = str(event.option_list.value_at(event.option_index) or "")
        kind = self._kind(card)
        if sum(1 for c in self.picked if self._kind(c) == kind) >= 3:
            self.say_error(f"✗ GG-1 Already 3 {kind}s: Backspace removes the last card.")
            return
        self.picked.append(card)
        self.refused(None)
        self.show()

    def action_drop(self) -> None:
        if self.picked:
            self.picked.pop()
            self.show()

    def action_deal(self) -> None:
        who = self.chooser
        if who is None:
            return
        spec = tuple(c for c in self.picked if self._kind(c) == "specialist")
        attr = tuple(c for c in self.picked if self._kind(c) == "attribute")
        self.send(Deal(player=who, specialists=spec, attributes=attr))

    def action_balanced(self) -> None:
        undealt = [p.name for p in self.state.players if not p.dealt]
        for name, hand in balanced_hands(self.state, undealt).items():
            if not self.send(Deal(player=name, specialists=tuple(hand["specialists"]),
                                  attributes=tuple(hand["attributes"]))):
                return

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "deal":
            self.action_deal()
        elif event.button.id == "balanced":
            self.action_balanced()


class TurnOrderScreen(BaseScreen):
    """Everyone rolls a d6; highest goes first; ties by rock-paper-scissors or re-roll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "roll", "Box rolls for all", priority=True),
        Binding("ctrl+t", "typed", "Record typed dice", priority=True),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static("[b]Turn order (GG-3)[/b]: every player rolls a d6; the highest "
                     "goes first.", classes="screen-title")
        yield Static("", id="order-status")
        with Vertical(id="order-rolls"):
            for i, p in enumerate(self.state.players):
                with Horizontal(classes="roll-form", id=f"roll-row-{i}"):
                    yield Static(fmt.swatch(p), classes="roll-name")
                    field = DieField("d6", 1, 6, id=f"d6-{i}", empty_rolls=False,
                                     placeholder="d6 (1-6)")
                    field.add_class("d6-input")
                    yield field
        with Horizontal(classes="buttons", id="order-buttons"):
            yield Button("Box rolls for all \\[^R]", id="roll", variant="primary", compact=True)
            yield Button("Record typed dice \\[^T]", id="typed", compact=True)
        yield Static("", id="tie-title")
        yield Choices(id="tie-winner")
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#d6-0", Input).focus()

    def action_entered(self) -> None:
        """Enter in a die's field: on to the next player's; after the last, record the dice."""
        self._entered(self.field_entered("d6-"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._entered(event.input)

    def _entered(self, field: Input) -> None:
        rows = [i for i, p in enumerate(self.state.players) if p.name in self._rolling()]
        current = int((field.id or "d6-0")[3:])
        later = [i for i in rows if i > current]
        if later:  # set_focus, not focus(): the latter waits for the app's next turn
            self.set_focus(self.query_one(f"#d6-{later[0]}", Input))
        else:
            self.action_typed()

    def on_input_changed(self, event: Input.Changed) -> None:
        """What is wrong with a die typed shows as it is typed, not only at Enter."""
        event.stop()
        if not isinstance(event.input, DieField) or not event.value:
            self.refused(None)
            return
        reading = event.input.reading
        if reading.problem:
            self.say_error(f"✗ {reading.problem}")
        else:
            self.refused(None)

    def _tie(self) -> tuple[str, ...] | None:
        tie = next((p for p in self.state.pending if p.decision == Decision.TIEBREAK), None)
        return tie.options if tie else None

    def _rolling(self) -> list[str]:
        tie = self._tie()
        return list(tie) if tie else [p.name for p in self.state.players]

    def show(self) -> None:
        s = self.state
        rolled = [e for e in self.referee.session.log if not e.undone
                  and e.command["cmd"] == "turn_order"]
        status = "Roll now." if not rolled else fmt.escape(fmt.describe(rolled[-1])) + "."
        tie = self._tie()
        rps = s.rules.tiebreak == "rps"
        if tie:
            how = ("play rock-paper-scissors and pick the winner below" if rps
                   else "roll again (only they do)")
            status += f"\n[b]Tie[/b] between {fmt.escape(', '.join(tie))}: {how}."
        self.query_one("#order-status", Static).update(status)
        rolling = self._rolling()
        for i, p in enumerate(s.players):
            self.query_one(f"#roll-row-{i}").display = p.name in rolling and not (tie and rps)
        self.query_one("#order-buttons").display = not (tie and rps)
        tie_list = self.query_one("#tie-winner", Choices)
        tie_list.display = bool(tie and rps)
        self.query_one("#tie-title", Static).display = bool(tie and rps)
        if tie and rps:
            self.query_one("#tie-title", Static).update("Who won rock-paper-scissors? (Enter)")
            tie_list.set_choices([(t.winner, t.winner)
                                  for t in queries.legal_actions(s, None)
                                  if isinstance(t, Tiebreak)])
            tie_list.focus()

    def action_roll(self) -> None:
        if self._tie() and self.state.rules.tiebreak == "rps":
            return
        self.send(TurnOrder())

    def action_typed(self) -> None:
        self.after_typing(self._record_typed)

    def _record_typed(self) -> None:
        rolls = {}
        for i, p in enumerate(self.state.players):
            if p.name not in self._rolling():
                continue
            field = self.query_one(f"#d6-{i}", DieField)
            reading = field.reading
            if reading.roll is None:
                self.say_error(f"✗ {p.name}'s d6: {reading.problem} (or Ctrl+R: the box "
                               "rolls for all).")
                self.set_focus(field)
                return
            rolls[p.name] = reading.roll
        if self.send(TurnOrder(rolls=rolls)):
            for inp in self.query(".d6-input").results(Input):
                inp.value = ""
            self._focus_first_roll()

    def _focus_first_roll(self) -> None:
        """After a tie to be re-rolled, the first tied player types first."""
        rolling = self._rolling()
        for i, p in enumerate(self.state.players):
            if p.name in rolling and self.is_mounted:
                self.set_focus(self.query_one(f"#d6-{i}", Input))
                return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        winner = self.query_one("#tie-winner", Choices).value_at(event.option_index)
        self.send(Tiebreak(winner=str(winner or "")))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll":
            self.action_roll()
        elif event.button.id == "typed":
            self.action_typed()
