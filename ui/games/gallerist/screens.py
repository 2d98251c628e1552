"""The Gallerist's console screens, as the app finds them (`ui.games`, entry point
``gallerist`` in ``tableside_referee.screens``).

One screen: the table of scores filling in live. During play it shows each player's counters
and the clock's `next` line; in final scoring, every category in the page's order, each figure
marked as computed by the box or entered by the table (GAL-25), the owed ones as gaps, and the
totals once nothing is owed. Every figure is the ruleset's (`state_json`); the screen words
them and works no rule out again.

Under the table, the list of what may be done now: the ruleset's legal actions (Enter sends
one), and for the decisions that need a figure only the table knows (a score, an auction
value, who qualifies for an intermediate scoring, where a kicked-out influence marker goes)
an entry dialog that asks for it. What the box only records (money, works, visitors, the
market...) is typed as a protocol line in the field below the list (Ctrl+T; F1 lists them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static

from referee.errors import BadRequest
from referee.games.gallerist.commands import SCHEMA
from referee.games.gallerist.rules.scoring import CATEGORY_WORDS
from referee.session import LogEntry, Session
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
)
from ui.games import GameScreens

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
        head = ("Setup step", "Done")  # (what each asks: in the list under the table)
        rows = [(i["item"], "yes" if i["done"] else "")
                for i in state["setup"]["checklist"]]
        return head, rows
    if scoring is None:
        head = ("Player", "Money", "Influence", "Works", "Sold", "Visitors", "Assistants")
        rows = [(p["name"], str(p["money"]), str(p["influence"]), str(len(p["exhibited"])),
                 str(len(p["sold"])), str(sum(p["visitors"].values())),
                 str(p["assistants"]["in_play"])) for p in players]
        return head, rows
    head = ("Player", "Money", *HEADS, "Total")
    rows = []
    for p in scoring["players"]:
        cells = [p["name"], str(p["money"])]
        for cat in CATEGORIES:
            value = p[cat]
            cells.append(OWED if value is None else
                         f"{value}{ENTERED if cat in p['table'] else ''}")
        cells.append(OWED if p["total"] is None else str(p["total"]))
        rows.append(tuple(cells))
    return head, rows


def heading(state: dict[str, Any]) -> str:
    phase = state.get("phase")
    if phase == "final_scoring":
        return "Final scoring — * entered by the table, … still owed"
    if phase == "over":
        result = state.get("result") or {}
        return f"Game over — {', '.join(result.get('winners') or [])} ({result.get('reason')})"
    if phase == "setup":
        return "Setup — the checklist for this number of players"
    final = " (final round)" if state.get("in_final_round") else ""
    after = "after " if (state.get("turn") or {}).get("ended") else ""
    return f"Round {state.get('round')}{final} — {after}{state.get('current')}'s turn"


# ---- what may be done now --------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A decision that needs figures only the table knows: the request so far and the fields
    to ask for (key, label, kind); a dotted key (``benefit.money``) goes into an object.
    Kinds: count (whole, 0 or more), players (who qualifies: yes/no per player),
    counts_as (exhibited or sold), desk (not said / yes / no)."""

    label: str
    request: dict[str, Any]
    fields: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    names: tuple[str, ...] = ()  # the players, in seat order, for a "players" field


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
    if cmd == "kickout_action":
        desk = req.get("desk")
        where = ("" if desk is None else "; the assistant goes to a free desk" if desk
                 else "; no desk free: the assistant leaves the game")
        return f"{who} (kicked out): {req['kind']}{where}"
    if cmd == "auction_pick":
        return f"{who}: auction, the renowned {req['easel']} work, counted as {req['counts_as']}"
    if cmd == "final_scoring":
        return "Total the scores and name the winner (final_scoring)"
    return json.dumps(req, ensure_ascii=False)


def choices(session: Session) -> list[Choice]:
    """What may be done now: the ruleset's legal actions (a request, sent as it is) and the
    entries its pending decisions need figures for (an `Entry`). Pure of the screen: tested
    on generated states."""
    state = shown(session)
    legal = session.ruleset.legal_actions(session.state, None)
    out: list[Choice] = []
    now = {p["name"]: p["influence"] for p in state.get("players") or []}
    # the kicked-out piece the clock waits on now (the queue's head; later ones wait)
    head = next((p for p in state.get("pending") or []
                 if p.get("decision") in ("kickout", "intermediate")), None)
    gallerists = ({head.get("player")} if head is not None and head["decision"] == "kickout"
                  and head.get("piece") == "gallerist" else set())
    steps = {i["item"]: i["words"] for i in (state.get("setup") or {}).get("checklist") or []}
    for req in legal:
        if (req["cmd"] == "kickout_action" and "desk" in req
                and req["player"] in gallerists):
            continue  # (a desk is for an assistant; a kicked-out gallerist goes home)
        if req["cmd"] == "check" and req["item"] in steps:
            out.append(Choice(f"Done: {req['item']} — {steps[req['item']]}", req))
        elif req["cmd"] == "intermediate":  # who qualifies and the benefit: asked
            out.append(Choice(f"Intermediate scoring: goal tile {req['tile']}…", Entry(
                f"Intermediate scoring, goal tile {req['tile']}",
                {"cmd": "intermediate", "tile": req["tile"]},
                (("qualifying", "Who qualifies", "players"),
                 ("benefit.money", "Money to each", "count"),
                 ("benefit.influence", "Influence to each", "count")),
                tuple(p["name"] for p in state.get("players") or []))))
        else:
            out.append(Choice(request_words(req), req))
    asked: list[Choice] = []  # the entries the decisions waited on need: listed first
    for p in state.get("pending") or []:
        who, decision = p.get("player"), p.get("decision")
        if decision == "score":
            for cat in p["options"]:
                words = CATEGORY_WORDS.get(cat, cat)
                asked.append(Choice(f"{who}: enter the {words} money…", Entry(
                    f"{who}: {words}", {"cmd": "score", "player": who, "category": cat},
                    (("money", "Money", "count"),))))
        elif decision == "auction_pick":
            offered = {r.get("easel") for r in legal if r["cmd"] == "auction_pick"}
            for form in p["options"]:
                if form not in offered:
                    asked.append(Choice(f"{who}: auction, the renowned {form} work…", Entry(
                        f"{who}: the renowned {form} work",
                        {"cmd": "auction_pick", "player": who, "easel": form},
                        (("value", "Its value (money)", "count"),
                         ("counts_as", "Counts as", "counts_as")))))
        elif decision == "kickout" and "location" in p["options"] and p is head and not any(
                r["cmd"] == "kickout_action" and r["kind"] == "location"
                and r["player"] == who for r in legal):
            asked.append(Choice(f"{who} (kicked out): location, paid in influence…", Entry(
                f"{who}: kicked-out location action",
                {"cmd": "kickout_action", "player": who, "kind": "location"},
                (("influence", f"Influence marker moves to (now {now.get(who)})", "count"),
                 *(() if who in gallerists else
                   (("desk", "A free desk for the assistant", "desk"),))))))
    return asked + out


class ScoresScreen(BaseScreen):
    """The table of scores, the `next` line, what may be done now, and a typed line."""

    AUTO_FOCUS = "#gal-actions"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding("ctrl+t", "typed", "Type a command"),
        Binding("ctrl+n", "app.new_game", "New game"),
        Binding("o", "app.box", "Box"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Tableside Referee — The Gallerist", classes="title-bar")
        yield Static("", id="gal-heading", classes="screen-title", markup=False)
        yield DataTable(id="gal-scores", cursor_type="none", zebra_stripes=True)
        yield Static("", id="gal-next", markup=False)
        yield Choices(id="gal-actions")
        yield Input(placeholder='or ^T: type a record, e.g. {"cmd": "money", "player": "Ann", '
                    '"delta": 3}', id="gal-command", compact=True)
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        session = self.referee.session
        state = shown(session)
        self.query_one("#gal-heading", Static).update(heading(state))
        self.query_one("#gal-next", Static).update(f"next: {state.get('next') or ''}")
        table = self.query_one("#gal-scores", DataTable)
        head, rows = score_rows(state)
        table.clear(columns=True)
        table.add_columns(*head)
        for row in rows:
            table.add_row(*row)
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


class EntryDialog(Dialog[bool]):
    """Asks for the figures an `Entry` needs, then sends it (a refusal is said inline and the
    dialog stays open). Field ids are field-<n> (and field-<n>-<seat>), never game data."""

    AUTO_FOCUS = "#field-0"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry
        self.names = list(entry.names)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="gal-entry"):
            yield Static(self.entry.label, classes="dialog-title", markup=False)
            with VerticalScroll(id="gal-entry-fields"):
                for i, (_, label, kind) in enumerate(self.entry.fields):
                    if kind == "players":
                        yield Static(f"{label}:", markup=False)
                        for seat, name in enumerate(self.names):
                            with Horizontal(classes="art-form-row"):
                                yield Label(f"  {name}", classes="art-form-label",
                                            markup=False)
                                yield Cycle([("no", False), ("yes", True)], False,
                                            id=f"field-{i}-{seat}")
                        continue
                    with Horizontal(classes="art-form-row"):
                        yield Label(label, classes="gal-rule-label", markup=False)
                        if kind == "count":
                            yield Input(placeholder="0 or more", id=f"field-{i}",
                                        type="integer", compact=True, classes="gal-number")
                        elif kind == "counts_as":
                            yield Cycle([("exhibited", "exhibited"), ("sold", "sold")],
                                        "exhibited", id=f"field-{i}")
                        else:  # desk
                            yield Cycle([("not said", None), ("yes", True), ("no", False)],
                                        None, id=f"field-{i}")
            with Horizontal(classes="buttons"):
                yield TextButton("Send \\[^S]", id="send", primary=True)
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        first = self.query("#field-0, #field-0-0")
        if first:
            first.first().focus()

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
        """The request with the figures typed in; ValueError names a missing one."""
        req: dict[str, Any] = dict(self.entry.request)
        for i, (key, label, kind) in enumerate(self.entry.fields):
            value: Any
            if kind == "players":
                value = [n for j, n in enumerate(self.names)
                         if self.query_one(f"#field-{i}-{j}", Cycle).value]
            elif kind == "count":
                text = self.query_one(f"#field-{i}", Input).value.strip()
                if not text:
                    if key.startswith("benefit."):
                        continue  # a benefit may be money or influence alone
                    raise ValueError(f"✗ {label}: type a whole number.")
                value = int(text)
            else:
                value = self.query_one(f"#field-{i}", Cycle).value
                if value is None:
                    continue
            top, dot, sub = key.partition(".")
            if dot:
                req.setdefault(top, {})[sub] = value
            else:
                req[key] = value
        return req

    def _send(self) -> None:
        try:
            req = self.request()
        except ValueError as err:
            self.say_error(str(err))
            return
        if self.send_request(req):
            self.dismiss(True)


UndoDialog = RulesetUndoConfirm  # (the ruleset's words are all The Gallerist's prompt says)


class HelpScreen(Dialog[None]):
    """F1: the keys, and the commands the typed line takes (from the protocol's schema)."""

    def compose(self) -> ComposeResult:
        lines = ["The box is the table's clock and scorekeeper: it checks the order of play "
                 "and the figures the player aid gives, and records what the table says.",
                 "",
                 "Keys: ↑↓ and Enter pick from the list of what may be done now (an entry "
                 "with … asks for figures); Ctrl+T types a protocol line; Ctrl+Z undoes "
                 "(not after the end: the result stands); F2 (on the new-game form) "
                 "chooses the game.",
                 "",
                 "Typed lines (JSON, as the headless protocol names them):"]
        for cmd, fields in SCHEMA.items():
            if cmd in ("new_game",):
                continue
            shown_fields = " ".join(k if req else f"[{k}]" for k, (_, req) in fields.items())
            lines.append(f"  {cmd} {shown_fields}")
        with Vertical(classes="dialog", id="gal-help"):
            yield Static("The Gallerist at the console", classes="dialog-title")
            with VerticalScroll():
                yield Static("\n".join(lines), markup=False)
        yield KeyBar()


class GameOverDialog(Dialog[None]):
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


class StartDrawnDialog(Dialog[None]):
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
                      name="The Gallerist", new_game=_new_game,
                      open_decisions=_open_decisions, help=HelpScreen, undo=UndoDialog)
