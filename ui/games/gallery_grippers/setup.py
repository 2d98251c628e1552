"""Starting a game: resume or new, the new-game form, and the game-start announcement."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from referee.games.gallery_grippers.commands import NewGame, PlayerSpec
from referee.games.gallery_grippers.rules.setup import MAX_PLAYERS, PALETTE
from referee.games.gallery_grippers.settings import (
    HOUSE_RULES,
    RULE_SETTINGS,
    HouseRules,
    setting_problem,
    setting_warnings,
)
from referee.games.gallery_grippers.state import Phase
from referee.session import Session
from ui.base import BaseScreen, Cycle, Dialog, KeyBar, TextButton, TitleBar, either_case
from ui.games.gallery_grippers import format as fmt

GAME = "gallery-grippers"  # the game this form starts
__all__ = ["GameStartScreen", "NewGameScreen", "StartScreen"]

# each house rule as the table reads it (its name, and its rule for what is said about it)
RULE_LABELS = {key: rule.name for key, rule in HOUSE_RULES.items()}
RULE_NAMED = {key: f"{rule.name} ({rule.rule})" for key, rule in HOUSE_RULES.items()}
WHY_HINT = "Move to a rule to read what it does."
HOUSE_RULES_DEFAULTS = HouseRules().to_json()


def table_rules(session: Session) -> HouseRules:
    """The house rules a new game starts from: the table's settings file if the session has
    one, else the defaults."""
    rules = session.house_rules
    return rules if isinstance(rules, HouseRules) else HouseRules()


def whole_number(text: str) -> int | str:
    """A whole number as a player types it: digits, with $ in front and commas (or _ or
    spaces) between groups of three if they like; else what is wrong, in words. "1,2,3" is
    refused rather than read as 123: nobody writes a hundred and twenty-three that way."""
    plain = text.strip().removeprefix("$").strip()
    if not plain:
        return "type a whole number"
    if plain.isdigit():
        return int(plain)
    for mark in (",", "_", " "):
        groups = plain.split(mark)
        if len(groups) > 1 and all(g.isdigit() for g in groups):
            if 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:]):
                return int("".join(groups))
            return (f"{text.strip()!r} is ambiguous: write a whole number with commas only "
                    "between groups of three digits (1,000,000), or none (123)")
    return f"{text.strip()!r} is not a whole number"


class StartScreen(Dialog[str]):
    """A game is already in progress: resume it, or start a new one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("r"), "choose('resume')", "Resume"),
        Binding(either_case("n"), "choose('new')", "New game"),
        Binding("escape", "choose('resume')", "Resume", show=False),
    ]

    def compose(self) -> ComposeResult:
        s = self.state
        cur = s.current_player
        if s.phase is Phase.PLAYING and cur is not None:
            where = f"turn {s.turn_number}, {cur.name} to play"
        else:
            where = "still being set up"
        names = ", ".join(p.name for p in s.players)
        with Vertical(classes="dialog"):
            yield Static("[b]A game is in progress[/b]", classes="dialog-title")
            yield Static(f"{fmt.escape(names)} — {fmt.escape(where)}.")
            with Horizontal(classes="buttons"):
                yield TextButton("Resume \\[R]", id="resume", primary=True)
                yield TextButton("New game \\[N]", id="new")
        yield KeyBar()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        self.dismiss(event.button.id)


class NewGameScreen(BaseScreen):
    """Players (1-6) in seating order with their colours, and the house rules."""

    # The cursor starts in the first name, focused as the screen is composed (so keys typed
    # early reach it). Without this Textual would focus the first focusable widget, the
    # scrolling players column, and focusing the name next would restyle the column twice.
    AUTO_FOCUS = "#name-0"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start game", priority=True),
        Binding("ctrl+n", "add", "Add player"),
        Binding("ctrl+r", "remove", "Remove last"),
        Binding("escape", "back", "Back to the game", show=False),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.count = 2
        self._warned: dict[str, Any] | None = None  # house rules warned about at Start

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="newgame"):
            with VerticalScroll(id="players-form"):
                yield Static("[b]Players[/b] in seating order", classes="panel-title")
                for i in range(self.count):
                    yield self._seat(i, PALETTE[i])
                with Horizontal(classes="buttons", id="seat-buttons"):
                    yield TextButton("+ player \\[^N]", id="add")
                    yield TextButton("− player \\[^R]", id="remove")
            with VerticalScroll(id="rules-form"):
                source = "the table's" if self.referee.session.house_rules else "defaults"
                yield Static(f"[b]House rules[/b] ({source} shown)", classes="panel-title")
                yield Static(WHY_HINT, id="rule-why", classes="hint", markup=False)
                yield Static(self._rules_text(), id="rules-text")
        with Horizontal(id="newgame-bar"):
            yield TextButton("Start game \\[^S]", id="start", primary=True)
            yield self.error_line()
        yield KeyBar()

    def _seat(self, i: int, colour: str) -> Horizontal:
        """One player's row: seat number, name, colour, and a button to move up a seat."""
        up = TextButton("▲", id=f"up-{i}", classes="seat-up", disabled=i == 0,
                        tooltip="move this player one seat earlier")
        return Horizontal(
            Label(f"{i + 1}.", classes="seat-number"),
            Input(placeholder="name", max_length=24, id=f"name-{i}",
                  classes="name-input", compact=True),
            Cycle([(c, c) for c in PALETTE], colour, id=f"colour-{i}", classes="colour-cycle"),
            up, classes="player-form", id=f"seat-{i}")

    def _rules_text(self) -> str:
        """The house rules as text, laid out like the form that replaces it."""
        lines = []
        for rule, value in table_rules(self.referee.session).described():
            shown = f"‹ {rule.says(value)} ›" if rule.choices else f"{value:,}"
            lines.append(f"{fmt.escape(rule.name):<14}{fmt.escape(shown)}\n")
        return "\n".join(lines)

    def _rule_rows(self) -> list[Horizontal]:
        rows = []  # ids: HouseRules' own field names (code, not game data)
        for said, value in table_rules(self.referee.session).described():
            rule = said.key
            field: Cycle | Input
            if said.choices:
                field = Cycle([(said.says(c), c) for c in said.choices], value,
                              id=f"rule-{rule}", classes="rule-cycle")
            else:
                field = Input(f"{value:,}", id=f"rule-{rule}", classes="rule-input",
                              compact=True)
            rows.append(Horizontal(Label(said.name, classes="rule-label"), field,
                                   classes="rule-form"))
        return rows

    def _why(self, widget: Any) -> None:
        """The house rule at the cursor, its value explained (in place of the hint)."""
        key = (getattr(widget, "id", None) or "").removeprefix("rule-")
        if key not in HOUSE_RULES or not widget.has_focus:  # (not the fields' first values)
            return
        said = HOUSE_RULES[key]
        value = (whole_number(widget.value) if isinstance(widget, Input)
                 else getattr(widget, "value", None))
        text = (f"{said.name} ({said.rule}): {said.explain(value)}" if
                setting_problem(key, value) is None
                else f"{said.name} ({said.rule}): {said.explain(HOUSE_RULES_DEFAULTS[key])} "
                "(the default)")
        self.query_one("#rule-why", Static).update(text)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._why(event.widget)

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        self._why(event.cycle)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._why(event.input)

    def on_mount(self) -> None:
        # The house rules' fields (a third of the screen's widgets) are mounted just after the
        # first paint, in place of the same values drawn as text: the screen comes up sooner
        # and the names, where the cursor starts, are ready at once.
        self.call_after_refresh(self._mount_rules)

    async def _mount_rules(self) -> None:
        text = self.query_one("#rules-text")
        await self.query_one("#rules-form").mount_all(self._rule_rows(), after=text)
        await text.remove()

    async def action_add(self) -> None:
        if self.count >= MAX_PLAYERS:
            self.say_error(f"✗ Gallery Grippers is for 1 to {MAX_PLAYERS} players: "
                           "no seat is left.")
            return
        if self.count < MAX_PLAYERS:
            taken = {str(c.value) for c in self.query(".colour-cycle").results(Cycle)}
            colour = next(c for c in PALETTE if c not in taken)
            await self.query_one("#players-form").mount(self._seat(self.count, colour),
                                                        before="#seat-buttons")
            self.count += 1
            self.query_one(f"#name-{self.count - 1}", Input).focus()

    def action_remove(self) -> None:
        if self.count <= 1:
            self.say_error("✗ A game needs at least one player: the last seat stays.")
            return
        if self.count > 1:
            self.count -= 1
            self.query_one(f"#seat-{self.count}").remove()

    def action_back(self) -> None:
        self.referee.cancel_new_game()

    def action_entered(self) -> None:
        """Enter in a name: on to the next name, and from the last one to Start."""
        self._entered(self.field_entered("name-"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a house rule's field goes to Start."""
        event.stop()
        self._entered(event.input)

    def _entered(self, field: Input) -> None:
        # set_focus, not focus(): the latter waits for the app's next turn.
        wid = field.id or ""
        if wid.startswith("name-") and int(wid[5:]) + 1 < self.count:
            self.set_focus(self.query_one(f"#name-{int(wid[5:]) + 1}", Input))
        else:
            self.set_focus(self.query_one("#start", TextButton))

    async def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "start":
            self.action_start()
        elif bid == "add":
            # awaited here, in the screen's own message order: two presses in a burst add two
            # seats (an exclusive worker cancelled the first before it ran: one seat, lost)
            await self.action_add()
        elif bid == "remove":
            self.action_remove()
        elif bid.startswith("up-"):
            self._swap(int(bid[3:]))

    def _swap(self, i: int) -> None:
        """Move the player in seat i one seat earlier."""
        a, b = self.query_one(f"#name-{i - 1}", Input), self.query_one(f"#name-{i}", Input)
        a.value, b.value = b.value, a.value
        ca = self.query_one(f"#colour-{i - 1}", Cycle)
        cb = self.query_one(f"#colour-{i}", Cycle)
        ca.value, cb.value = cb.value, ca.value
        a.focus()

    def _rules(self) -> dict[str, Any] | str:
        """The house rules as the form shows them, or what is wrong. Every value is sent,
        not only those changed: the game's `new_game` records what the table chose, and a
        value the table's settings file overrides can be chosen back (the default too)."""
        out: dict[str, Any] = {}
        for name in RULE_SETTINGS:
            widget = self.query_one(f"#rule-{name}")
            value: Any
            if isinstance(widget, Input):
                value = whole_number(widget.value)
                if isinstance(value, str):
                    return f"{RULE_NAMED[name]}: {value}"
            else:
                value = getattr(widget, "value", None)
            problem = setting_problem(name, value)
            if problem is not None:
                return f"{RULE_NAMED[name]} {problem}"
            out[name] = value
        return out

    def _warnings(self, rules: dict[str, Any]) -> str:
        """Values the rules allow that would spoil the game, in a line (empty: none)."""
        from referee import games

        session = self.referee.session  # (the game being left may be another game's)
        catalog = session.catalog_for(games.find(GAME))
        found = setting_warnings(HouseRules(**rules), catalog)
        return "; ".join(f"{RULE_NAMED[name]}: {text}" for name, text in found)

    def action_start(self) -> None:
        self.after_typing(self._start)

    def _start(self) -> None:
        players = []
        for i in range(self.count):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            colour = self.query_one(f"#colour-{i}", Cycle).value
            if not name:
                self.say_error(f"✗ Player {i + 1} needs a name.")
                self.query_one(f"#name-{i}", Input).focus()
                return
            players.append(PlayerSpec(name=name, color=str(colour)))
        rules = self._rules()
        if isinstance(rules, str):
            self.say_error(f"✗ {rules}")
            return
        warning = self._warnings(rules)
        if warning and self._warned != rules:
            self._warned = rules  # the same values again: the table means it
            self.say_error(f"⚠ {warning}. Ctrl+S again starts anyway.")
            return
        self.refused(self.referee.new_game(NewGame(players=tuple(players), rules=rules)))


class GameStartScreen(Dialog[None]):
    """Play begins: the turn order and the dice commitment."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "cancel", "Start playing", priority=True),
        Binding("escape", "cancel", "")
    ]

    def compose(self) -> ComposeResult:
        s = self.state
        first = s.first_player or "?"
        order = []
        if s.first_player is not None:
            i = s.index_of(first) or 0
            order = [p.name for p in s.players[i:] + s.players[:i]]
        with Vertical(classes="dialog"):
            yield Static("[b]The game begins[/b]", classes="dialog-title")
            yield Static(f"{fmt.escape(first)} goes first; then clockwise: "
                         f"{fmt.escape(' → '.join(order))}.")
            yield Static("\n[b]Dice commitment[/b] (SHA-256 of this game's secret seed):")
            yield Static(s.commitment or "–", id="commitment", markup=False)
            yield Static("Note it down: when the game ends the box reveals the seed, and "
                         "anyone can check it against this and re-derive every electronic "
                         "roll.", classes="hint")
            yield Button("Start playing \\[Enter]", id="ok", variant="primary", compact=True)
        yield KeyBar()

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.dismiss(None)
