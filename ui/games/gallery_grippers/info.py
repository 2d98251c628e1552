"""Gallery Grippers' screens that inform: the rules reference, undo's confirmation, the result."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from referee.games.gallery_grippers.commands import Undo
from referee.games.gallery_grippers.rules.queries import undo_preview
from referee.words import undo_dice_words
from ui.base import (
    AFTER_THE_END,
    NO_UNDO_KEYS,
    UNDO_KEYS,
    Dialog,
    KeyBar,
    either_case,
    house_rules_markdown,
)
from ui.games.gallery_grippers import format as fmt

# Textual's Markdown widget (and markdown-it) and the box panel (and Pillow) are imported by
# the screens that show them: together they take longer to import than the whole first screen
# takes to draw.

PLAYER_AID = """\
# Gallery Grippers — player aid

*The box's own summary. Rule numbers (GG-n) match what the box says when it refuses a step.*

## Getting ready (GG-1 – GG-3)
- One to six crews, each with a name and a colour, seated clockwise.
- Every crew picks **three specialists and three attributes** to start; what is left
  becomes the two draw decks.
- All the art starts in its museum; every pawn starts at the black market, outside.
- Everyone rolls a d6. The highest roll starts; a tie for highest is settled by
  rock-paper-scissors (or a re-roll, if the table prefers). Play goes clockwise.

## Your turn (GG-4, GG-5)
1. **Roll the d6 and move.** Tell the box the tile you ended on:
   - *airport*: fly to another airport (nothing to record);
   - *recruitment*: draw a card from the deck you choose;
   - *security* or *alarm*: an **obstacle**;
   - *trading post*: swap attribute cards with a willing player;
   - *art quadrant*: you may take one piece still hanging in that museum;
   - *exit*: you step out of the museum;
   - *black market*: you may sell art.
   Stepping onto a museum's tiles puts you inside it.
2. Do what the tile offers, then **end your turn**.

## Obstacles: the sum (GG-6 – GG-9)
Play up to one specialist and up to one attribute from your hand, then roll the
percentile dice (1–100). Add it up:

**roll + specialist + attribute − every carried piece's deduction**

Reach the target (100 unless the table changed it) and you slip past. The cards you played
are discarded either way. The box always shows the whole sum.

## Strikes (GG-10, GG-15)
- **First strike:** carry on.
- **Second strike:** go to the nearest exit, then choose: walk away (strikes clear at your
  next roll) or head back in with two strikes.
- **Third strike:** you are out; your art returns to the museums, your cards to the discards.
- **Caught holding art:** with no strikes yet, choose to *ditch* the art (one strike) or *keep*
  it (two strikes, and you stay where you are). With one strike already, the art goes back
  and you take the second strike. With two, you are out.

## Art and money (GG-11 – GG-13)
- One piece per visit to an art quadrant. Each piece you carry makes every obstacle harder.
- Walking out through an exit keeps what you carry.
- At the black market sell some or all of it: face value, plus a fence bonus for every piece
  beyond the first sold together.

## Winning (GG-14, GG-16)
- The first crew to bank the win money wins on the spot.
- With two or more crews, the last crew still in wins. Alone, you win by the money and lose
  on the third strike.

## Cards (GG-17 – GG-19)
- Draw from whichever deck you name; an empty deck is rebuilt by shuffling its discards.
- With an empty hand (or the table's threshold) you must re-up at the start of your turn:
  roll a d6 and draw that many.
- Cards differ in strength; the numbers on the cards are the ones that count.

## Fair dice
The box's own dice come from a secret seed. Its fingerprint (the commitment) is shown when
play starts; the seed is revealed at the end, so anyone can re-check every roll. Undo fixes a
mistake but never re-rolls: dice already rolled stay on the table.
"""


KEYS_HELP = """\
## Keys
- Everywhere: **F1** this help · **Ctrl+Q** quit · **Ctrl+Z** undo (on the table and in
  a decision; not after the end: the result stands). The bar at the bottom shows the keys
  of the screen in front; on a narrow terminal Ctrl+Q is left out of it.
- Table: **R** roll to move · **S** steal · **L** sell · **T** trade · **E** end turn ·
  **O** the box · **G** the result (game over) · **Ctrl+N** new game.
- Lists: ↑↓ and Enter; Tab / Shift+Tab move between fields; **Esc** closes a dialog (a
  decision the rules hold open closes only when answered, or undone).
"""


class RulesScreen(Dialog[None]):
    """The player aid, in the project's own words, and the house rules in force."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"), Binding("f1", "cancel", "Close"),
        Binding(either_case("q"), "cancel", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown

        from referee.games.gallery_grippers.settings import HouseRules

        rules = getattr(self.state, "rules", None)
        if not isinstance(rules, HouseRules):  # F1 on this game's form after another game
            table = self.referee.session.house_rules
            rules = table if isinstance(table, HouseRules) else HouseRules()
        with VerticalScroll(id="rules"):
            yield Markdown(PLAYER_AID + "\n" + house_rules_markdown(rules) + "\n\n"
                           + KEYS_HELP)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#rules").focus()


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def undo_question(step: str, seq: int) -> str:
    """What an undo takes back, as the table says it (markup): the step in words, and which
    step of the game it is (issue 42: "step #14" was the log's number, not the table's)."""
    return (f"Take back [b]{fmt.escape(step)}[/b]?\n"
            f"(the {ordinal(seq)} step in the log)")


class UndoConfirm(Dialog[None]):
    """Says exactly which step undo would take back, and asks."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "undo", "Yes, undo"),
        Binding(either_case("n"), "cancel", "No"),
        Binding("escape", "cancel", "No", show=False),
    ]

    def compose(self) -> ComposeResult:
        undo = undo_preview(self.referee.session.undo_target())
        with Vertical(classes="dialog", id="undo-dialog"):
            yield Static("[b]Undo?[/b]", classes="dialog-title")
            if undo is None:
                yield Static(AFTER_THE_END if self.state.over else "There is nothing to undo.",
                             id="undo-what")
            else:
                target = next(e for e in self.referee.session.log if e.seq == undo.step.seq)
                yield Static(undo_question(fmt.describe(target), target.seq), id="undo-what")
                dice = undo_dice_words(undo.step.events)
                if dice:
                    yield Static(dice, classes="hint", id="undo-dice", markup=False)
            yield Static(NO_UNDO_KEYS if undo is None else UNDO_KEYS, id="undo-keys")
            yield self.error_line()
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Y is offered only while there is a step to take back (not after the end)."""
        if action == "undo":
            return self.referee.session.undo_target() is not None
        return True

    def action_undo(self) -> None:
        if self.send(Undo()):
            self.dismiss(None)


class GameOverScreen(Dialog[None]):
    """The winner, how the game went, and the revealed seed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("n"), "app.new_game", "New game"),
        Binding(either_case("q"), "app.quit", "Quit"),
        Binding("escape", "cancel", "See the table"),
    ]

    def compose(self) -> ComposeResult:
        s = self.state
        log = [e for e in self.referee.session.log if not e.undone]
        reason = (s.over_reason or "").replace("_", " ")
        winner = s.player(s.winner) if s.winner else None
        head = (f"{fmt.swatch(winner)} wins" if winner else "Nobody wins") + f" ({reason})"
        rows = []
        for p in sorted(s.players, key=lambda q: -q.money):
            sold = sum(len(e.events[0]["pieces"]) for e in log
                       if e.command["cmd"] == "sell" and e.command.get("player") == p.name)
            rows.append(f"{fmt.swatch(p)}  {fmt.money(p.money):>16}  strikes "
                        f"{fmt.pips(p.strikes)}  {fmt.status_text(p)}  · sold {sold} piece(s)")
        bypasses = [ev for e in log for ev in e.events if ev["type"] == "bypass"]
        won = sum(1 for b in bypasses if b["success"])
        with Vertical(classes="dialog", id="game-over"):
            yield Static(f"[b]Game over[/b] — {head}", classes="dialog-title")
            yield Static("\n".join(rows))
            yield Static(f"{s.turn_number} turns · {len(bypasses)} obstacles "
                         f"({won} bypassed, {len(bypasses) - won} failed)")
            yield Static("\n[b]Seed revealed[/b] (check: SHA-256 of it = the commitment):")
            yield Static(s.seed or "–", id="seed", markup=False)
            yield Static(f"commitment {s.commitment or '–'}", classes="hint", markup=False)
            yield Static("[b]N[/b] new game · [b]Q[/b] quit · [b]Esc[/b] see the table "
                         "([b]G[/b] brings this back)")
            yield Static(AFTER_THE_END, classes="hint", id="over-undo")
        yield KeyBar()
