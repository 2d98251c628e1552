"""Decisions the rules hold open (obstacle, caught, second strike, re-up, draw) and the
verdict of a bypass. A pending dialog closes only when its decision is answered or undone.

What a dialog offers is what the rules allow (`queries.legal_actions`); the
bypass sum and the roll it needs are asked of `queries.bypass_terms`."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, OptionList, Static

from referee.games.gallery_grippers.commands import Bypass, Choose, Draw, Reup, Roll
from referee.games.gallery_grippers.rules.queries import (
    DECKS,
    Decision,
    bypass_terms,
    card_bonus,
    draw_counts,
)
from referee.session import LogEntry
from ui.base import Choices, Dialog, KeyBar, PendingDialog, either_case
from ui.games.gallery_grippers import format as fmt
from ui.games.gallery_grippers.turn import legal, stray_d6_key
from ui.screens.diefield import DieField, DieHint

NONE = "(none)"


class ObstacleDialog(PendingDialog):
    """Meet an obstacle: at most one specialist and one attribute, then the percentile roll."""

    decision = Decision.OBSTACLE
    BINDINGS: ClassVar[list[BindingType]] = [
        *PendingDialog.BINDINGS, Binding("ctrl+r", "roll", "Box rolls", priority=True),
        # Priority: acted on as the app reads the key, so the digits typed right behind it
        # follow it into the field.
        *[Binding(str(n), f"digit('{n}')", show=False, priority=True) for n in range(10)],
        # ↑↓ and Enter in the card lists act as the app reads them too, in the order typed:
        # a burst like "↓ Enter ↓ Enter 4 2 Enter" picks in the right lists.
        Binding("down", "cursor(1)", show=False, priority=True),
        Binding("up", "cursor(-1)", show=False, priority=True),
        Binding("enter", "next_list", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        s = self.state
        p = s.player(self.player)
        pend = next(q for q in s.pending
                    if q.player == self.player and q.decision == Decision.OBSTACLE)
        tile = fmt.TILE_LABELS.get(str(pend.info.get("tile")), "Obstacle")
        museum = pend.info.get("museum") or ""
        with Vertical(classes="dialog", id="obstacle-dialog"):
            yield Static(f"[b]Obstacle[/b]: {tile} in {fmt.escape(str(museum))} — "
                         f"{fmt.swatch(p)} (GG-6)", classes="dialog-title")
            yield Static("Play at most one specialist and one attribute (↑↓ picks, Tab moves):")
            bypasses = legal(s, self.player, Bypass)
            playable = {x for b in bypasses for x in b.specialist + b.attribute}
            with Horizontal(id="obstacle-cards"):
                # One option per card held that may be played: two copies are two options.
                yield Choices((NONE, None), *[(f"{c} +{card_bonus(s, c)}", c)
                                              for c in p.specialists if c in playable],
                              id="specialist")
                yield Choices((NONE, None), *[(f"{c} +{card_bonus(s, c)}", c)
                                              for c in p.attributes if c in playable],
                              id="attribute")
            yield Static("", id="obstacle-sum")
            faces = bypass_terms(s, self.player, None, None)
            field = DieField("d100", faces.low, faces.high, id="d100",
                             placeholder=f"type the real d100 roll ({faces.low}-{faces.high})")
            with Horizontal(id="obstacle-roll"):
                yield field
                yield Button("…or the box rolls \\[^R]", id="roll", variant="primary",
                             compact=True)
            yield DieHint(field, id="d100-hint")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        for wid in ("#specialist", "#attribute"):
            self.query_one(wid, Choices).highlighted = 0
        self._sum()
        self.query_one("#specialist", Choices).focus()

    def _card(self, wid: str) -> tuple[str, ...]:
        """The card picked in a list: () for none, else the one card (one copy) played."""
        name = self.query_one(wid, Choices).highlighted_value
        return () if name is None else (str(name),)

    def _sum(self) -> None:
        spec, attr = self._card("#specialist"), self._card("#attribute")
        t = bypass_terms(self.state, self.player, spec[0] if spec else None,
                         attr[0] if attr else None)
        terms = [f"{name} {bonus}" for name, bonus in ((t.specialist, t.specialist_bonus),
                                                        (t.attribute, t.attribute_bonus)) if name]
        if t.need is None:
            chance = "no roll can bypass"
        elif t.certain:
            chance = "any roll bypasses"
        else:
            chance = f"needs a roll of {t.need} or more ({t.low}-{t.high})"
        shown = " + ".join(terms) or "no cards"
        self.query_one("#obstacle-sum", Static).update(
            f"roll + {fmt.escape(shown)} − art {t.deduction} = roll {t.base:+d};  "
            f"target {t.target}: [b]{chance}[/b]")

    def on_option_list_option_highlighted(self, _: OptionList.OptionHighlighted) -> None:
        self._sum()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.focus_next()

    def _bypass(self, roll: Roll | None) -> None:
        self.send(Bypass(player=self.player, specialist=self._card("#specialist"),
                         attribute=self._card("#attribute"), roll=roll))

    def action_roll(self) -> None:
        self._bypass(None)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#d100-hint", DieHint).update(self.query_one("#d100", DieField).hint())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        reading = self.query_one("#d100", DieField).reading
        if reading.problem:
            self.say_error(f"✗ {reading.problem}")
            return
        self._bypass(reading.roll)

    def _card_list(self) -> Choices:
        lst = self.focused
        if not isinstance(lst, Choices):
            raise SkipAction()
        return lst

    def action_cursor(self, step: int) -> None:
        lst = self._card_list()
        (lst.action_cursor_down if step > 0 else lst.action_cursor_up)()

    def action_next_list(self) -> None:
        self._card_list()
        self.focus_next()

    def action_digit(self, digit: str) -> None:
        """A digit typed while a card list has the focus (one Tab short of the roll, or
        typed ahead) is the start of the roll: it goes to the d100 field, not nowhere."""
        field = self.query_one("#d100", DieField)
        if self.focused is field:
            raise SkipAction()
        self.set_focus(field)
        field.insert_text_at_cursor(digit)

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.action_roll()


CHOICES: dict[str, tuple[str, dict[str, str]]] = {
    Decision.CAUGHT: ("Caught carrying art (GG-10)", {
        "ditch": "Ditch: all held art goes back to its museums; take 1 strike",
        "keep": "Keep: keep the art and go to 2 strikes",
    }),
    Decision.SECOND_STRIKE: ("Second strike (GG-10): back at the nearest exit", {
        "leave": "Leave the premises: strikes go back to 0 at the next roll",
        "reenter": "Go back into the same museum, keeping 2 strikes",
    }),
}


class ChoiceDialog(PendingDialog):
    """Caught with art (ditch / keep) or the second strike (leave / re-enter)."""

    def __init__(self, player: str, decision: str) -> None:
        super().__init__(player)
        self.decision = decision

    def compose(self) -> ComposeResult:
        title, texts = CHOICES[self.decision]
        p = self.state.player(self.player)
        # The options are the choices the rules accept now; the console only words them.
        options = [a.choice for a in legal(self.state, self.player, Choose)]
        with Vertical(classes="dialog"):
            yield Static(f"[b]{title}[/b] — {fmt.swatch(p)} chooses (Enter)",
                         classes="dialog-title")
            yield Choices(*[(texts.get(key, key), key) for key in options], id="choices")
            yield self.error_line()
        yield KeyBar()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = self.query_one("#choices", Choices).value_at(event.option_index)
        self.send(Choose(player=self.player, choice=str(choice or "")))


class DrawDialog(PendingDialog):
    """Draw a card: the box draws from a deck, or record the real card drawn (GG-17)."""

    decision = Decision.DRAW
    BINDINGS: ClassVar[list[BindingType]] = [*PendingDialog.BINDINGS,
                Binding("ctrl+s", "box('specialist')", "Box draws specialist", priority=True),
                Binding("ctrl+a", "box('attribute')", "Box draws attribute", priority=True)]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", id="draw-title", classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button("Box draws a specialist \\[^S]", id="box-specialist", compact=True)
                yield Button("Box draws an attribute \\[^A]", id="box-attribute", compact=True)
            yield Static("…or pick the real card drawn (Enter):", id="pick-words")
            yield Choices(id="cards")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#box-specialist", Button).focus()

    def show(self) -> None:
        s = self.state
        pend = next((q for q in s.pending if q.player == self.player
                     and q.decision == Decision.DRAW), None)
        if pend is None:
            return
        count = pend.info.get("count", 1)
        reason = str(pend.info.get("reason", "")).replace("reup", "re-up")
        p = s.player(self.player)
        self.query_one("#draw-title", Static).update(
            f"[b]Draw {count} card{'s' if count != 1 else ''}[/b] ({reason}) — "
            f"{fmt.swatch(p)}")
        session = self.referee.session
        listed = legal(s, self.player, Draw)
        # (a box draw an undo took back is still on the table: only the box may draw it
        # again, and from its own deck: the other is held back, `draw_bound`; the session says)
        draws = [d for d in listed if session.refusal(d) is None]
        held = len(draws) < len(listed)
        bound = [d.deck for d in draws if d.card is None] if any(
            d.card is None and d not in draws for d in listed) else []
        self.query_one("#pick-words", Static).update(
            f"The box's undone draw is still on the table, bound to the {bound[0]} deck: let "
            "the box draw from it (it gives the same card again)." if bound else
            "The box's undone draw is still on the table: let the box draw (it gives the "
            "same card again)." if held else "…or pick the real card drawn (Enter):")
        choices: list[tuple[str, tuple[str, str]]] = []
        for deck in DECKS:
            pile = draw_counts(s, deck)
            choices += [(f"{deck[:4]}.  {d.card} +{card_bonus(s, d.card)}  ({pile[d.card]} in "
                         "deck)", (deck, d.card)) for d in draws if d.deck == deck and d.card]
            self.query_one(f"#box-{deck}", Button).disabled = not any(
                d.deck == deck and d.card is None for d in draws)
        self.query_one("#cards", Choices).set_choices(choices)

    def action_box(self, deck: str) -> None:
        self.send(Draw(player=self.player, deck=deck))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        picked = self.query_one("#cards", Choices).value_at(event.option_index)
        if picked is not None:
            deck, card = picked
            self.send(Draw(player=self.player, deck=deck, card=card))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_box((event.button.id or "box-specialist").removeprefix("box-"))


class ReupDialog(PendingDialog):
    """An empty hand: roll a d6 and draw that many cards (GG-18)."""

    decision = Decision.REUP
    BINDINGS: ClassVar[list[BindingType]] = [
        *PendingDialog.BINDINGS, Binding(either_case("r"), "roll", "Box rolls"),
                *[Binding(str(n), f"typed({n})", "Typed d6" if n == 1 else "", show=n == 1,
                          key_display="1-6")
                  for n in range(1, 7)]]

    def compose(self) -> ComposeResult:
        p = self.state.player(self.player)
        with Vertical(classes="dialog"):
            yield Static(f"[b]Re-up (GG-18)[/b] — {fmt.swatch(p)} has "
                         f"{p.hand_size} card(s): roll a d6 and draw that many.",
                         classes="dialog-title")
            yield Static("[b]R[/b]: the box rolls  ·  [b]1-6[/b]: type the real die")
            yield self.error_line()
        yield KeyBar()

    def on_key(self, event: events.Key) -> None:
        stray_d6_key(self, event)

    def action_roll(self) -> None:
        self.send(Reup(player=self.player))

    def action_typed(self, value: int) -> None:
        self.send(Reup(player=self.player, roll=Roll.physical("d6", value)))


def _choice(decision: str) -> Any:
    return lambda player: ChoiceDialog(player, decision)


def _tile(player: str) -> Any:
    from ui.games.gallery_grippers.turn import TileDialog

    return TileDialog(player)


DIALOGS: dict[str, Any] = {
    Decision.TILE: _tile, Decision.OBSTACLE: ObstacleDialog,
    Decision.CAUGHT: _choice(Decision.CAUGHT),
    Decision.SECOND_STRIKE: _choice(Decision.SECOND_STRIKE),
    Decision.REUP: ReupDialog, Decision.DRAW: DrawDialog,
}


class VerdictScreen(Dialog[None]):
    """A bypass, term by term, and what follows from it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "cancel", "Continue", priority=True),
        Binding("escape", "cancel", "")
    ]

    def __init__(self, entry: LogEntry) -> None:
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        events = self.entry.events
        b = next(e for e in events if e["type"] == "bypass")
        roll = next(e for e in events if e["type"] == "roll")
        rows = [(f"roll ({fmt.provenance(roll)})", f"{b['roll']:>4}")]
        if b.get("specialist"):
            rows.append((f"+ {b['specialist']} (specialist)", f"{b['specialist_bonus']:>+4}"))
        if b.get("attribute"):
            rows.append((f"+ {b['attribute']} (attribute)", f"{b['attribute_bonus']:>+4}"))
        art = ", ".join(b.get("art") or []) or "none carried"
        rows.append((f"art carried ({art})", f"{-b['art_deduction']:>+4}"))
        width = max(len(label) for label, _ in rows) + 2
        lines = [f"{fmt.escape(label):<{width}}{value}" for label, value in rows]
        lines.append("─" * (width + 4))
        sign = "≥" if b["success"] else "<"
        lines.append(f"{'= total':<{width}}{b['total']:>4}  {sign} {b['target']}")
        verdict = ("[b reverse green] BYPASSED [/]" if b["success"]
                   else "[b reverse red] FAILED [/]")
        after = fmt.consequences(events) or (["The turn goes on."] if b["success"] else [])
        with Vertical(classes="dialog", id="verdict"):
            yield Static(f"[b]{fmt.escape(b['player'])} at the obstacle[/b] (GG-8)  {verdict}",
                         classes="dialog-title")
            yield Static("\n".join(lines), id="verdict-sum")
            yield Static("\n".join(fmt.escape(line) for line in after), id="verdict-after")
            yield Button("Continue \\[Enter]", id="ok", variant="primary", compact=True)
        yield KeyBar(own_only=True)

    def on_mount(self) -> None:
        self.query_one("#ok", Button).focus()

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.dismiss(None)
