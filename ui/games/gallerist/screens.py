"""The Gallerist's console screens, as the app finds them (`ui.games`, entry point
``gallerist`` in ``tableside_referee.screens``).

One screen: the table of scores filling in live. During play it shows each player's counters
and the clock's `next` line; in final scoring, every category in the page's order, each figure
marked as computed by the box or entered by the table (GAL-25), the owed ones as gaps, and the
totals once nothing is owed. Every figure is the ruleset's (`state_json`); the screen words
them and works no rule out again.

Under the table, the list of what may be done now beside the log of what was done (newest
first, in the ruleset's words, `referee.words.step_words`): the ruleset's legal actions
(Enter sends one) and its entries, the steps that need the table's choices or figures (a
score, an auction value, who qualifies for an intermediate scoring, money, a work bought,
an artist's fame, a market placement...), each a dialog whose choices and bounds are the
ruleset's; a record for any player (its first choice), the choices after it that player's.
A protocol line can still be typed in the field below the list (Ctrl+T; the docs list the
commands): the expert's escape hatch.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static

from referee.errors import BadRequest, Refusal
from referee.games.gallerist.settings import GalleristRules
from referee.games.gallerist.table import REASON_WORDS
from referee.ruleset import Reveal
from referee.session import LogEntry, Session
from referee.words import step_words
from ui import format as fmt
from ui.base import (
    AFTER_THE_END,
    BaseScreen,
    Choice,
    Choices,
    Cycle,
    Dialog,
    KeyBar,
    RulesetUndoConfirm,
    TextButton,
    either_case,
)
from ui.games import OTHER_GAMES_CSS, GameScreens, OtherGameStyles

CATEGORIES = ("market", "reputation", "exhibited", "auction", "curator", "dealer",
              "influence")
HEADS = ("Market", "Reput.", "Exhib.", "Auct.", "Cur.", "Deal.", "Infl.")
OWED = "…"
ENTERED = "*"  # a figure the table entered (GAL-25)


def score_rows(state: dict[str, Any]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The score table's header and rows from the protocol's state (pure: tested on
    generated states). In setup: the checklist (`check` ticks a step off); in play: the
    counters; in final scoring and after: the categories."""
    players = state.get("players") or []
    scoring = state.get("scoring")
    head: tuple[str, ...]
    rows: list[tuple[str, ...]]
    if state.get("phase") == "setup":  # the setup checklist the table walks through
        # (what each asks: in the list under the table), in two halves side by side: the
        # whole checklist in six rows, the list of what may be done keeps its room
        steps = [(i["item"], "yes" if i["done"] else "") for i in state["setup"]["checklist"]]
        half = (len(steps) + 1) // 2
        head = ("Setup step", "Done", "Setup step", "Done")
        rows = [(*steps[k], *(steps[k + half] if k + half < len(steps) else ("", "")))
                for k in range(half)]
        return head, rows
    if scoring is None:
        # (short heads: a 14-character name and every column fit 80 columns)
        head = ("Player", "Colour", "Money", "Infl.", "Works", "Sold", "Visitors",
                "Assist.", "Reput.")
        rows = [(short(p["name"]), p.get("color") or "", str(p["money"]), str(p["influence"]),
                 str(len(p["exhibited"])),
                 str(len(p["sold"])), str(sum(p["visitors"].values())),
                 str(p["assistants"]["in_play"]), str(len(p.get("reputation_tiles") or ())))
                for p in players]
        return head, rows
    head = ("Player", "Total", "Money", *HEADS)  # the total next to the name: in view
    rows = []
    for p in scoring["players"]:
        cells = [short(p["name"]), OWED if p["total"] is None else str(p["total"]),
                 str(p["money"])]
        for cat in CATEGORIES:
            value = p[cat]
            cells.append(OWED if value is None else
                         f"{value}{ENTERED if cat in p['table'] else ''}")
        rows.append(tuple(cells))
    return head, rows


NAME_CELL = 14


def short(name: str) -> str:
    """A name in a table cell: whole up to `NAME_CELL` cells wide (a wide character takes
    two), else cut with … to that width."""
    if cell_len(name) <= NAME_CELL:
        return name
    cut = ""
    for char in name:
        if cell_len(cut + char) > NAME_CELL - 1:
            break
        cut += char
    return cut + "…"


def fill_table(table: DataTable[Any], head: tuple[str, ...],
               rows: list[tuple[str, ...]]) -> None:
    """`table` holds `head` and `rows`, each cell the text as it is (a name like ``[b]Cy``
    is shown so, never read as markup) and each column as wide as its widest cell from the
    start. (Textual measures a column's cells only when its widget next has nothing to do;
    a table drawn before that, as when a dialog over it closes, showed every cell cut to its
    heading's width, and cached so until the next change.)"""
    table.clear(columns=True)
    for i, title in enumerate(head):
        width = max([cell_len(title), *(cell_len(row[i]) for row in rows)])
        table.add_column(Text(title), width=width)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))


def heading(state: dict[str, Any]) -> str:
    phase = state.get("phase")
    if phase == "final_scoring":
        return "Final scoring — * entered by the table, … still owed"
    if phase == "over":
        result = state.get("result") or {}
        reason = str(result.get("reason"))
        return (f"Game over — {', '.join(result.get('winners') or [])} "
                f"({REASON_WORDS.get(reason, reason.replace('_', ' '))})")
    if phase == "setup":
        return "Setup — the checklist for this number of players"
    final = " (final round)" if state.get("in_final_round") else ""
    after = "after " if (state.get("turn") or {}).get("ended") else ""
    return f"Round {state.get('round')}{final} — {after}{state.get('current')}'s turn"


# ---- what is on the table, always in view ----------------------------------------------------
def _count(value: Any) -> str:
    """The visitors in the bag: how many, by colour where known."""
    if isinstance(value, dict):
        return (f"{sum(value.values())} (" + ", ".join(f"{k} {v}" for k, v in value.items())
                + ")")
    return "not counted" if value is None else str(value)


# GAL-15's three end conditions, short (which hold is the ruleset's: `end_conditions`)
END_WORDS = {"box_office_empty": "box office empty", "celebrities": "2+ celebrities",
             "bag_empty": "bag empty"}


def end_line(state: dict[str, Any]) -> str:
    """Which end conditions hold (the ruleset's `end_conditions`), or when the end came."""
    trigger = state.get("end_triggered")
    if trigger:
        said = " and ".join(END_WORDS.get(c, c) for c in trigger.get("conditions") or [])
        last = ("this is the final round, no kicked-out actions" if state.get("in_final_round")
                else f"round {state.get('final_round')} is the final round")
        return f"End triggered in round {trigger.get('round')} ({said}): {last}"
    holding = set(state.get("end_conditions") or ())
    celebrities = state.get("celebrities", 0)
    parts = [f"{words}{f' ({celebrities})' if c == 'celebrities' else ''} "
             f"{'YES' if c in holding else 'no'}" for c, words in END_WORDS.items()]
    return "End, 2 of 3: " + " · ".join(parts)


def info_lines(state: dict[str, Any]) -> list[str]:
    """The box office, the bag, the end conditions and each artist (face down, fame,
    celebrity), from the protocol's state (pure: tested on generated states)."""
    if state.get("phase") in (None, "no_game"):
        return []
    tickets = ", ".join(f"{k} {v}" for k, v in (state.get("tickets") or {}).items())
    first = f"Tickets: {tickets} · Bag: {_count(state.get('bag'))}"
    arts = []
    for name, a in (state.get("artists") or {}).items():
        look = ("celebrity" if a["celebrity"] else str(a["fame"]) if a["discovered"]
                else "–")
        arts.append(f"{name} {look}")
    lines = [first]
    if state.get("phase") != "setup":
        lines.append(end_line(state))
    return [*lines, "Artists (– face down): " + " · ".join(arts)]


# ---- what may be done now --------------------------------------------------------------------
@dataclass(frozen=True)
class Ask:
    """One thing an entry asks for (the ruleset's `entries`): a choice among `options`
    (words, value; by the value chosen in field `by`, when `options_by` has it), who of the
    players (`players`: yes/no each), or a whole number from `low` to `high` (by the value
    chosen in field `by`, when `bounds` has it); `optional`: blank leaves it out. A dotted
    key (``benefit.money``) goes into an object."""

    key: str
    label: str
    kind: str  # number | choice | players | text (a label, optional)
    options: tuple[tuple[str, Any], ...] = ()
    low: int = 0
    high: int = 0
    optional: bool = False
    by: str | None = None
    bounds: tuple[tuple[Any, int, int], ...] = ()
    options_by: tuple[tuple[Any, tuple[tuple[str, Any], ...]], ...] = ()

    def limits(self, chosen: Any = None) -> tuple[int, int]:
        for value, low, high in self.bounds:
            if value == chosen:
                return low, high
        return self.low, self.high

    def choices(self, chosen: Any = None) -> tuple[tuple[str, Any], ...]:
        """The options offered when field `by` holds `chosen` (a player's own artists...)."""
        for value, options in self.options_by:
            if value == chosen:
                return options
        return self.options

    @classmethod
    def from_json(cls, ask: dict[str, Any]) -> Ask:
        return cls(ask["key"], ask["label"], ask["kind"],
                   tuple((str(w), v) for w, v in ask.get("options") or ()),
                   int(ask.get("low", 0)), int(ask.get("high", 0)),
                   bool(ask.get("optional")), ask.get("by"),
                   tuple((k, lo, hi) for k, (lo, hi) in (ask.get("bounds") or {}).items()),
                   tuple((k, tuple((str(w), v) for w, v in opts))
                         for k, opts in (ask.get("options_by") or {}).items()))


@dataclass(frozen=True)
class Entry:
    """A step that needs the table's figures or choices (the ruleset's `entries`): the
    request so far, what to ask, and what to show beside it (the works that count...)."""

    label: str
    request: dict[str, Any]
    asks: tuple[Ask, ...] = field(default_factory=tuple)
    about: str = ""
    waits: bool = False  # a decision the clock waits on: listed first

    @classmethod
    def from_json(cls, entry: dict[str, Any]) -> Entry:
        return cls(entry["label"], dict(entry["request"]),
                   tuple(Ask.from_json(a) for a in entry["asks"]), entry.get("about", ""),
                   bool(entry.get("waits")))


def shown(session: Session) -> dict[str, Any]:
    return session.ruleset.state_json(session.state)


def request_words(req: dict[str, Any]) -> str:
    """A legal request in words (any other as its protocol line)."""
    cmd, who = req.get("cmd"), req.get("player")
    if cmd == "place_start":
        return f"{who}: start on {req['location']}"
    if cmd == "check":
        return f"Setup step done: {req['item']}"
    if cmd == "move":
        return f"{who}: move the gallerist to {req['to']}"
    if cmd == "location_action":
        return f"{who}: the location action (done at the table)"
    if cmd == "executive":
        return f"{who}: executive action, {str(req['kind']).replace('_', ' ')}"
    if cmd == "end_turn":
        return f"{who}: end the turn"
    if cmd == "take_ticket":
        return f"{who}: take a {req['colour']} ticket"
    if cmd == "draw_visitor":
        return f"{who + ': ' if who else ''}the box draws a visitor from the bag"
    if cmd == "hire":
        return f"{who}: hire an assistant"
    if cmd == "discover":
        return f"{who + ': ' if who else ''}discover {req['artist']} (its tile's fame)"
    if cmd == "kickout_action":
        desk = req.get("desk")
        where = ("" if desk is None else "; the assistant goes to a free desk" if desk
                 else "; no desk free: the assistant leaves the game")
        return f"{who} (kicked out): {req['kind']}{where}"
    if cmd == "auction_pick":
        return f"{who}: auction, the renowned {req['easel']} work, counted as {req['counts_as']}"
    if cmd == "final_scoring":
        return "Total the scores and name the winner"
    return json.dumps(req, ensure_ascii=False)


def entries_of(session: Session) -> list[Entry]:
    find = getattr(session.ruleset, "entries", None)
    return [] if find is None else [Entry.from_json(e) for e in find(session.state)]


def choices(session: Session) -> list[Choice]:
    """What may be done now: the decisions waited on that need figures (an `Entry`), the
    ruleset's legal actions (a request, sent as it is), then the records that need the
    table's choices or figures (an `Entry`). Every one is the ruleset's: pure of the
    screen, tested on generated states."""
    state = shown(session)
    legal = session.ruleset.legal_actions(session.state, None)
    steps = {i["item"]: i["words"] for i in (state.get("setup") or {}).get("checklist") or []}
    out: list[Choice] = []
    for req in legal:
        if req["cmd"] == "check" and req["item"] in steps:
            out.append(Choice(f"Done: {req['item']} — {steps[req['item']]}", req))
        elif req["cmd"] == "auction_pick":
            known = ((state.get("scoring") or {}).get("auction") or {}).get(
                "renowned", {}).get(req["easel"]) or {}
            by = ", ".join(known.get("artists") or [])
            out.append(Choice(f"{req['player']}: auction, the renowned {req['easel']} work "
                              f"({by} at fame {known.get('fame')}: worth "
                              f"{known.get('value')}), counted as {req['counts_as']}", req))
        elif req["cmd"] == "draw_visitor" and not isinstance(state.get("bag"), dict):
            who = req.get("player")  # (a bag known by count only: the box cannot draw)
            out.append(Choice(f"{who + ': ' if who else ''}a visitor drawn from the bag "
                              "(its colour not said)", req))
        else:
            out.append(Choice(request_words(req), req))
    found = entries_of(session)
    first = [Choice(e.label, e) for e in found if e.waits]
    rest = [Choice(e.label, e) for e in found if not e.waits]
    return first + out + rest


def log_lines(session: Session, limit: int = 60) -> list[tuple[bool, str]]:
    """The game's log in words, newest first: (undone?, words) (`referee.words`)."""
    return [(e.undone, step_words(session.ruleset, e.command, e.events))
            for e in reversed(session.log[-limit:])]


class PlainCycle(Cycle):
    """A `Cycle` whose choices are game data (names): shown as written, never as markup."""

    def render(self) -> Text:  # type: ignore[override]
        return Text(f"‹ {self.choices[self.index][0]} ›")


class StateDialog(OtherGameStyles, Dialog[None]):
    """A typed ``{"cmd": "state"}``: the protocol's state, as the headless protocol gives it."""

    def compose(self) -> ComposeResult:
        text = json.dumps(shown(self.referee.session), ensure_ascii=False, indent=1)
        with Vertical(classes="dialog", id="gal-state"):
            yield Static("The state (as the protocol sends it)", classes="dialog-title")
            with VerticalScroll():
                yield Static(text, markup=False, id="gal-state-json")
            yield Static("Escape closes.", classes="hint")
        yield KeyBar()


class ScoresScreen(OtherGameStyles, BaseScreen):
    """The table of scores, what is on the table, the `next` line, what may be done now
    beside the log, and a typed line."""

    AUTO_FOCUS = "#gal-actions"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("ctrl+t", "typed", "Type a command"),
        Binding("ctrl+n", "app.new_game", "New game"),
        Binding(either_case("o"), "app.box", "Box"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("", id="gal-heading", classes="title-bar", markup=False)
        yield DataTable(id="gal-scores", cursor_type="none", zebra_stripes=True)
        yield Static("", id="gal-info", markup=False)
        yield Static("", id="gal-next", markup=False)
        with Horizontal(id="gal-lower"):
            yield Choices(id="gal-actions", compact=True)
            yield Static("", id="gal-log", markup=False)
        yield Input(placeholder="", id="gal-command", compact=True)
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        session = self.referee.session
        state = shown(session)
        self.query_one("#gal-heading", Static).update(f"The Gallerist — {heading(state)}")
        self.query_one("#gal-next", Static).update(f"next: {state.get('next') or ''}")
        self.query_one("#gal-info", Static).update("\n".join(info_lines(state)))
        table = self.query_one("#gal-scores", DataTable)
        fill_table(table, *score_rows(state))
        log = Text()
        for undone, line in log_lines(session):
            if log:
                log.append("\n")
            log.append("• ", style="dim")
            log.append(line, style="strike dim" if undone else "")
            if undone:
                log.append(" (undone)", style="italic")
        self.query_one("#gal-log", Static).update(log or Text("(nothing recorded yet)",
                                                               style="dim"))
        names = [p["name"] for p in state.get("players") or []]
        who = state.get("current") or (names[0] if names else "Ann")
        self.query_one("#gal-command", Input).placeholder = (
            f'^T: type a protocol line, e.g. {{"cmd": "money", "player": '
            f'{json.dumps(who, ensure_ascii=False)}, "delta": 3}}')
        actions = self.query_one("#gal-actions", Choices)
        before = actions.highlighted_value
        actions.set_choices(choices(session))
        # the same action stays highlighted if it is still on offer, else the first: Enter
        # twice never does something else than the line the cursor was on
        if before is not None and before in actions.values:
            actions.highlighted = actions.values.index(before)

    def action_typed(self) -> None:
        self.query_one("#gal-command", Input).focus()

    def on_option_list_option_selected(self, event: Choices.OptionSelected) -> None:
        value = self.query_one("#gal-actions", Choices).value_at(event.option_index)
        if isinstance(value, Entry):
            self.referee.open(EntryDialog(value))
        elif isinstance(value, dict):
            self.send_request(value)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        if not text:
            return
        try:
            request = json.loads(text)
            control = request.get("cmd") if isinstance(request, dict) else None
            if control in ("state", "undo", "reveal"):
                message.input.value = ""
                self.query_one("#gal-actions", Choices).focus()
                if control == "state":
                    self.referee.open(StateDialog())
                elif control == "undo":
                    self.referee.action_undo()
                else:
                    self.send(Reveal())
                return
            command = self.referee.session.ruleset.parse(request)
        except json.JSONDecodeError as err:
            self.say_error(f"✗ Not a protocol line: {err.msg} (column {err.colno}); a line "
                           'is like {"cmd": "money", "player": "Ann", "delta": 3}.')
            return
        except BadRequest as err:
            self.refused(err)
            return
        if self.send(command):
            message.input.value = ""
            self.query_one("#gal-actions", Choices).focus()  # back to the list


class EntryDialog(OtherGameStyles, Dialog[bool]):
    """Asks for what an `Entry` needs, then sends it (a refusal is said inline, in the
    dialog's words, and the dialog stays open). Field ids are field-<n> (and
    field-<n>-<seat>), never game data."""

    AUTO_FOCUS = "#field-0"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry
        self.players = {i: [str(v) for _, v in a.options]
                        for i, a in enumerate(entry.asks) if a.kind == "players"}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="gal-entry"):
            yield Static(self.entry.label.rstrip("…"), classes="dialog-title", markup=False)
            if self.entry.about:
                yield Static(self.entry.about, id="gal-entry-about", markup=False)
            with VerticalScroll(id="gal-entry-fields"):
                for i, ask in enumerate(self.entry.asks):
                    if ask.kind == "players":
                        yield Static(f"{ask.label}:", markup=False)
                        for seat, (name, _) in enumerate(ask.options):
                            with Horizontal(classes="gal-entry-row"):
                                yield Label(f"  {name}", classes="gal-entry-label",
                                            markup=False)
                                yield Cycle([("no", False), ("yes", True)], False,
                                            id=f"field-{i}-{seat}")
                        continue
                    with Horizontal(classes="gal-entry-row"):
                        yield Label(ask.label, classes="gal-entry-label", markup=False)
                        if ask.kind == "number":
                            yield Input(placeholder=self.placeholder(i), id=f"field-{i}",
                                        type="integer", compact=True, classes="gal-number")
                        elif ask.kind == "text":
                            yield Input(placeholder="or blank" if ask.optional else "",
                                        id=f"field-{i}", max_length=40, compact=True,
                                        classes="gal-number")
                        else:
                            options = self.options(i)
                            yield PlainCycle(list(options), options[0][1], id=f"field-{i}")
            with Horizontal(id="gal-entry-foot"):
                with Horizontal(classes="buttons"):
                    yield TextButton("Send \\[^S]", id="send", primary=True)
                yield Static("Tab: the next field · ←/→: another choice · Ctrl+S sends",
                             classes="hint", id="gal-entry-keys")
            yield self.error_line()
        yield KeyBar()

    def chosen(self, key: str | None) -> Any:
        """The value chosen in the field `key` (a choice), None if there is none."""
        for i, ask in enumerate(self.entry.asks):
            if ask.key == key and ask.kind == "choice":
                found = self.query(f"#field-{i}")
                if found:
                    return found.first(Cycle).value
                return ask.options[0][1]
        return None

    def options(self, i: int) -> tuple[tuple[str, Any], ...]:
        """Choice `i`'s options: those of the value chosen in the field they follow."""
        ask = self.entry.asks[i]
        return ask.choices(self.chosen(ask.by)) if ask.options_by else ask.options

    def placeholder(self, i: int) -> str:
        ask = self.entry.asks[i]
        low, high = ask.limits(self.chosen(ask.by) if ask.by else None)
        span = f"{low:+} to {high:+}" if low < 0 else f"{low} to {high}"
        return span + (", or blank" if ask.optional else "")

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        """A number's bounds and a choice's options follow the choice they depend on (a
        player's money, a player's own works...)."""
        for i, ask in enumerate(self.entry.asks):
            if ask.kind == "number" and ask.by is not None:
                self.query_one(f"#field-{i}", Input).placeholder = self.placeholder(i)
            elif ask.kind == "choice" and ask.options_by:
                cycle = self.query_one(f"#field-{i}", Cycle)
                if event.cycle is cycle:
                    continue
                options = self.options(i)
                if list(options) != cycle.choices:
                    was = cycle.value  # (kept if the new player has it too)
                    cycle.choices = list(options)
                    cycle.index = next((j for j, (_, v) in enumerate(options) if v == was), 0)
                    cycle.refresh()

    def on_mount(self) -> None:
        first = self.query("#field-0, #field-0-0")
        if first:
            first.first().focus()
        self.call_after_refresh(self.fit_under_the_clock)

    def fit_under_the_clock(self) -> None:
        """The dialog takes the rows under the table's `next` line, no more: its fields
        scroll in what is left, so the clock's state and what it waits for stay in view."""
        stack = self.app.screen_stack
        base = stack[-2] if len(stack) > 1 else None
        found = base.query("#gal-next") if base is not None else None
        if not found:
            return
        room = self.size.height - found.first().region.bottom - 1  # (the key bar)
        box = self.query_one("#gal-entry")
        fields = self.query_one("#gal-entry-fields")
        over = box.outer_size.height - room
        if over > 0:
            fields.styles.max_height = max(2, fields.outer_size.height - over)

    def action_entered(self) -> None:
        field_ = self.field_entered("field-")
        fields = [w for w in self.query("Input, Cycle") if (w.id or "").startswith("field-")]
        i = fields.index(field_)
        if i + 1 < len(fields):
            fields[i + 1].focus()
        else:
            self.action_send()

    def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        self.action_send()

    def action_send(self) -> None:
        self.after_typing(self._send)

    def request(self) -> dict[str, Any]:
        """The request with what was chosen and typed; ValueError says, in the dialog's
        words, a number missing or out of its bounds."""
        req: dict[str, Any] = dict(self.entry.request)
        for i, ask in enumerate(self.entry.asks):
            value: Any
            if ask.kind == "players":
                value = [n for j, n in enumerate(self.players[i])
                         if self.query_one(f"#field-{i}-{j}", Cycle).value]
            elif ask.kind == "text":
                value = self.query_one(f"#field-{i}", Input).value.strip()
                if not value:
                    if ask.optional:
                        continue
                    raise ValueError(f"✗ {ask.label}: say it in a few words.")
            elif ask.kind == "number":
                text = self.query_one(f"#field-{i}", Input).value.strip()
                low, high = ask.limits(self.chosen(ask.by) if ask.by else None)
                if not text:
                    if ask.optional:
                        continue
                    raise ValueError(f"✗ {ask.label}: type a whole number from {low} to "
                                     f"{high}.")
                try:
                    value = int(text)
                except ValueError:
                    raise ValueError(f"✗ {ask.label}: {text!r} is not a whole number.") from None
                if not low <= value <= high:
                    raise ValueError(f"✗ {ask.label}: from {low} to {high} here, not "
                                     f"{value}.")
            else:
                value = self.query_one(f"#field-{i}", Cycle).value
            top, dot, sub = ask.key.partition(".")
            if dot:
                req.setdefault(top, {})[sub] = value
            else:
                req[ask.key] = value
        return req

    def refused(self, refusal: Refusal | None) -> None:
        """A refusal in the dialog's words: a field named as the protocol names it
        (``"desk"``) is named by its label here."""
        if refusal is None:
            super().refused(None)
            return
        text = fmt.refusal_text(refusal)
        for ask in self.entry.asks:
            text = text.replace(f'"{ask.key}"', f"“{ask.label}”")
        text = text.replace("Send “", "Say “").replace("send its “", "say its “").replace(
            "send the “", "say the “")
        self.say_error(text)

    def _send(self) -> None:
        try:
            req = self.request()
        except ValueError as err:
            self.say_error(str(err))
            return
        if self.send_request(req):
            self.dismiss(True)


UndoDialog = RulesetUndoConfirm  # (the ruleset's words are all The Gallerist's prompt says)


class HelpScreen(OtherGameStyles, Dialog[None]):
    """F1: the keys, and the commands the typed line takes (from the protocol's schema)."""

    def compose(self) -> ComposeResult:
        lines = ["The box is the table's clock and scorekeeper: it checks the order of play "
                 "and the figures the player aid gives, and records what the table says.",
                 "",
                 "Keys: ↑↓ and Enter pick from the list of what may be done now (an entry "
                 "with … opens a dialog: ←/→ change a choice, Tab goes to the next field, "
                 "Ctrl+S sends); every record is in the list, for any player: its dialog "
                 "asks for the player first (the one acting now, ←/→ for the others), and "
                 "what it offers next is that player's. Ctrl+T types a protocol line "
                 "instead (the expert's way; {\"cmd\": \"state\"} shows the state); "
                 "Ctrl+Z undoes (not after the end: the result stands); F2 (on the new-game "
                 "form) chooses the game.",
                 "",
                 "House rules in force:"]
        rules = getattr(self.referee.session.state, "rules", None)
        for rule, value in (rules.described() if isinstance(rules, GalleristRules) else []):
            lines.append(f"  {rule.name}: {rule.says(value)} — {rule.explain(value)} "
                         f"({rule.rule})")
        # (the typed lines' commands are the protocol's, for programs and experts: the docs
        # list them, docs/gallerist.md "Headless"; the table's help stays in its words)
        lines += ["", "Typed lines are the headless protocol's: its commands and fields are "
                  "in the Gallerist's documentation (docs/gallerist.md, \"Headless\")."]
        with Vertical(classes="dialog", id="gal-help"):
            yield Static("The Gallerist at the console", classes="dialog-title")
            with VerticalScroll():
                yield Static("\n".join(lines), markup=False)
        yield KeyBar()


class GameOverDialog(OtherGameStyles, Dialog[None]):
    """The result in words and the totals (the ruleset's)."""

    def compose(self) -> ComposeResult:
        session = self.referee.session
        state = shown(session)
        totals = [f"  {p['name']}: {p['total']}" for p in
                  (state.get("scoring") or {}).get("players") or []]
        with Vertical(classes="dialog", id="gal-over"):
            yield Static(heading(state), classes="dialog-title", markup=False)
            yield Static("\n".join([str(state.get("next") or ""), *totals]), markup=False,
                         id="gal-over-words")
            yield Static(f"Escape closes. {AFTER_THE_END}", classes="hint", id="over-undo")
        yield KeyBar()


def _base(_state: Any) -> type[Screen[Any]]:
    return ScoresScreen


class StartDrawnDialog(OtherGameStyles, Dialog[None]):
    """The box drew the start player (GAL-1): said once, as the game starts."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "cancel", "OK")]

    def __init__(self, player: str, seat: int, seats: int) -> None:
        super().__init__()
        self.words = (f"The box drew seat {seat} of {seats}: {player} is the start player "
                      "(GAL-1). Places are taken in reverse turn order.")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="gal-start-drawn"):
            yield Static("The start player", classes="dialog-title")
            yield Static(self.words, id="gal-start-words", markup=False)
            yield Static("Enter or Escape: to the setup checklist", classes="hint")
        yield KeyBar()


def _announce(entry: LogEntry) -> list[Callable[[], Screen[Any]]]:
    """A start player the box drew is said once (the new game's step)."""
    started = next((e for e in entry.events if e["type"] == "game_started"), None)
    if started is None or not started.get("start_drawn"):
        return []
    names = [p["name"] for p in started["players"]]
    who = str(started["start_player"])
    return [lambda: StartDrawnDialog(who, names.index(who) + 1, len(names))]


def _game_over() -> Screen[Any]:
    return GameOverDialog()


def _new_game() -> type[Screen[Any]]:
    from ui.games.gallerist.setup import GalleristNewGameScreen

    return GalleristNewGameScreen


def _open_decisions(_state: Any) -> set[tuple[str, str]]:
    """None in a dialog of their own: the list under the table answers every decision (the
    table may record other things first, like the money a kicked-out action brought)."""
    return set()


SCREENS = GameScreens(base=_base, dialogs={}, announce=_announce, game_over=_game_over,
                      stylesheets=(OTHER_GAMES_CSS,),
                      name="The Gallerist", new_game=_new_game,
                      open_decisions=_open_decisions, help=HelpScreen, undo=UndoDialog)
