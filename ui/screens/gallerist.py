"""The Gallerist's console screens, as the app finds them (`ui.games`, entry point
``gallerist`` in ``tableside_referee.screens``).

One screen: the table of scores filling in live. During play it shows each player's counters
and the clock's `next` line; in final scoring, every category in the page's order, each figure
marked as computed by the box or entered by the table (GAL-25), the owed ones as gaps, and the
totals once nothing is owed. Every figure is the ruleset's (`state_json`); the screen words
them and works no rule out again. The table types commands as protocol lines (the headless
protocol's names), so everything the box records can be entered here.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from referee.errors import BadRequest, Refusal
from referee.ruleset import Undo
from referee.session import LogEntry
from ui.base import BaseScreen, KeyBar
from ui.games import GameScreens

CATEGORIES = ("market", "reputation", "exhibited", "auction", "curator", "dealer",
              "influence")
HEADS = ("Market", "Reput.", "Exhib.", "Auction", "Curator", "Dealer", "Influence")
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
        head = ("Step", "Done", "What the table does")
        rows = [(i["item"], "yes" if i["done"] else "", i["words"])
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
    return f"Round {state.get('round')}{final} — {state.get('current')}'s turn"


class ScoresScreen(BaseScreen):
    """The table of scores, the `next` line, and a line for the table's commands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "Undo"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Tableside Referee — The Gallerist", classes="title-bar")
        yield Static("", id="gal-heading", classes="screen-title", markup=False)
        yield DataTable(id="gal-scores", cursor_type="row", zebra_stripes=True)
        yield Static("", id="gal-next", markup=False)
        yield Input(placeholder='a command, e.g. {"cmd": "end_turn", "player": "Ann"}',
                    id="gal-command")
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        session = self.referee.session
        state = session.ruleset.state_json(session.state)
        self.query_one("#gal-heading", Static).update(heading(state))
        self.query_one("#gal-next", Static).update(str(state.get("next") or ""))
        table = self.query_one("#gal-scores", DataTable)
        head, rows = score_rows(state)
        table.clear(columns=True)
        table.add_columns(*head)
        for row in rows:
            table.add_row(*row)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        if not text:
            return
        try:
            request = json.loads(text)
            ruleset = self.referee.session.ruleset
            command = ruleset.parse(request)
        except json.JSONDecodeError as err:
            self.say_error(f"Not a JSON line: {err.msg} (column {err.colno}).")
            return
        except BadRequest as err:
            self.refused(err)
            return
        if self.send(command):
            message.input.value = ""
        self.redraw()

    def action_undo(self) -> None:
        refusal: Refusal | None = None
        try:
            self.referee.session.apply(Undo())
        except Refusal as err:
            refusal = err
        self.refused(refusal)
        self.redraw()


def _base(_state: Any) -> type[Screen[Any]]:
    return ScoresScreen


def _announce(_entry: LogEntry) -> list[Any]:
    return []


def _game_over() -> Screen[Any]:
    return ScoresScreen()


SCREENS = GameScreens(base=_base, dialogs={}, announce=_announce, game_over=_game_over)
