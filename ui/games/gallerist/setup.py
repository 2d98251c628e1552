"""Starting a game of The Gallerist: up to four players in seat order, each with a colour
(chosen, or the first one no seat took), who starts (named, or
drawn fairly by the box), the fourteen house rules with their defaults, and, optionally, a
catalog file with the table's own numbers and the visitors in the bag (GAL-1, GAL-25).

The form only gathers what the table typed: the ruleset checks the request (players, rules,
catalog, bag) and its refusal is shown inline. Widget ids are the form's own (seat and rule
numbers), never built from a name or a catalog entry."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Static

from referee import games
from referee.errors import Refusal
from referee.games.gallerist.catalog import load_catalog
from referee.games.gallerist.settings import CHOICES, HOUSE_RULES, GalleristRules
from ui.base import BaseScreen, Cycle, KeyBar, TextButton
from ui.games import OtherGameStyles

SEATS = 4  # GAL-1: 1-4 players
GAME = "gallerist"
RULES = tuple(CHOICES)  # the house rules in the spec's order; rule-<i> is RULES[i]
DEFAULTS = GalleristRules().to_json()
ANY_COLOUR = "any free"  # a seat with no colour chosen takes the first one no seat took


def parse_bag(text: str) -> int | dict[str, int] | None:
    """The bag field: blank (the catalog's), a number of visitors, or colour=count pairs
    (``pink=5 brown=5 white=6``). Raises ValueError with words for the table."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        return int(text)
    out: dict[str, int] = {}
    for part in text.replace(",", " ").split():
        colour, sep, count = part.partition("=")
        if not sep or not colour or not count.isdigit():
            raise ValueError(f"✗ The bag: {part!r} is not colour=count (e.g. pink=5), and the "
                             "field is not a number either.")
        out[colour] = int(count)
    return out


BAG_HINT = ("  (the bag once the visitors of each kind are out, GAL-2, before the setup draws: "
            "the box counts those off; a catalog file's count is before taking them out)")


def bag_placeholder(catalog: str) -> str:
    """The bag field's placeholder: the built-in catalog has no count, so one is needed."""
    if not catalog.strip():
        return "needed: a number, or pink=5 brown=5 …"
    return "blank: the catalog file's; or a number, or pink=5 …"


def _seat_words(seat: int, name: str) -> str:
    """A start-player choice: the player's name and seat, or the seat while it is empty."""
    return f"{name} (seat {seat + 1})" if name else f"seat {seat + 1} (no name yet)"


class GalleristNewGameScreen(OtherGameStyles, BaseScreen):
    """Names (blank seats are empty), the start player, house rules, catalog and bag;
    Ctrl+S starts."""

    AUTO_FOCUS = "#name-0"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start game", priority=True),
        Binding("ctrl+r", "defaults", "Default rules"),
        Binding("escape", "back", "Back to the game", show=False),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Tableside Referee — The Gallerist: new game", classes="title-bar")
        with VerticalScroll(id="gal-newgame"):
            yield Static("[b]Players[/b] in seat order (1–4; blank seats stay empty) "
                         "and colours (Tab)", classes="panel-title")
            # (the built-in catalog's colours; a catalog file's own are taken by "any free")
            colours = load_catalog(None).player_colours
            for i in range(SEATS):
                yield Horizontal(
                    Label(f"{i + 1}.", classes="seat-number"),
                    Input(placeholder="name", max_length=24, id=f"name-{i}",
                          classes="name-input", compact=True),
                    Cycle([(ANY_COLOUR, None), *[(c, c) for c in colours]], None,
                          id=f"colour-{i}", classes="colour-cycle"),
                    classes="player-form")
            with Horizontal(classes="art-form-row"):
                yield Label("Start player", classes="art-form-label")
                yield Cycle([("drawn by the box", None),
                             *[(_seat_words(i, ""), i) for i in range(SEATS)]], None,
                            id="start-player")
            with Horizontal(classes="art-form-row"):
                yield Label("Catalog file", classes="art-form-label")
                yield Input(placeholder="blank: the built-in one (player-aid numbers)",
                            id="catalog", compact=True, classes="name-input")
            with Horizontal(classes="art-form-row"):
                yield Label("Visitors in bag", classes="art-form-label")
                yield Input(placeholder=bag_placeholder(""), id="bag", compact=True,
                            classes="name-input")
            yield Static(BAG_HINT, classes="hint", id="bag-hint")
            yield Static("[b]House rules[/b] (Enter/→ changes one; Ctrl+R: all defaults)",
                         classes="panel-title")
            for i, name in enumerate(RULES):
                # each rule named and its value explained in the table's words (issue 39)
                said = HOUSE_RULES[name]
                with Horizontal(classes="art-form-row"):
                    yield Label(f"{said.name} ({said.rule})", classes="gal-rule-label")
                    yield Cycle([(said.says(v), v) for v in said.choices], DEFAULTS[name],
                                id=f"rule-{i}", classes="gal-rule-cycle")
                yield Static(said.explain(DEFAULTS[name]), classes="hint gal-rule-why",
                             id=f"rule-{i}-why", markup=False)
        with Horizontal(id="newgame-bar"):
            yield TextButton("Start game \\[^S]", id="start", primary=True)
            yield self.error_line()
        yield KeyBar()

    FIELD_REFUSALS: ClassVar[dict[tuple[str, str | None], tuple[str, str]]] = {
        ("catalog_incomplete", "GAL-13"): (
            "#bag", "✗ GAL-13 The catalog does not say how many visitors are in the bag: type "
            "them in “Visitors in bag” — a number, or one per colour (pink=5 white=4 …), "
            "once the visitors of each kind are out."),
    }

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        """A house rule's explanation follows its value."""
        wid = event.cycle.id or ""
        if wid.startswith("rule-"):
            name = RULES[int(wid.removeprefix("rule-"))]
            self.query_one(f"#{wid}-why", Static).update(
                HOUSE_RULES[name].explain(event.cycle.value))

    def on_input_changed(self, event: Input.Changed) -> None:
        """The start-player choices name the players as they are typed."""
        wid = event.input.id or ""
        if wid == "catalog":
            self.query_one("#bag", Input).placeholder = bag_placeholder(event.value)
            return
        if not wid.startswith("name-"):
            return
        cycle = self.query_one("#start-player", Cycle)
        seat = int(wid.removeprefix("name-"))
        cycle.choices[seat + 1] = (_seat_words(seat, event.value.strip()), seat)
        cycle.refresh()

    def action_back(self) -> None:
        self.referee.cancel_new_game()

    def action_defaults(self) -> None:
        for i, name in enumerate(RULES):
            self.query_one(f"#rule-{i}", Cycle).value = DEFAULTS[name]
            self.query_one(f"#rule-{i}-why", Static).update(
                HOUSE_RULES[name].explain(DEFAULTS[name]))

    def action_entered(self) -> None:
        field = self.field_entered("")
        ids = [f"name-{i}" for i in range(SEATS)] + ["catalog", "bag"]
        if field.id not in ids:
            return
        i = ids.index(field.id)
        target = f"#{ids[i + 1]}" if i + 1 < len(ids) else "#start"
        if field.id == f"name-{SEATS - 1}":
            target = "#start-player"
        self.set_focus(self.query_one(target))

    def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        self.after_typing(self._start)

    def request(self) -> dict[str, Any]:
        """The new_game request the form holds (the ruleset checks it); ValueError for a
        bag field that is neither a number nor colour=count pairs."""
        seats = [self.query_one(f"#name-{i}", Input).value.strip() for i in range(SEATS)]
        colours = [self.query_one(f"#colour-{i}", Cycle).value for i in range(SEATS)]
        players: list[Any] = [n if c is None else {"name": n, "color": c}
                              for n, c in zip(seats, colours, strict=True) if n]
        request: dict[str, Any] = {"cmd": "new_game", "players": players}
        start = self.query_one("#start-player", Cycle).value
        if start is not None:
            if not seats[start]:
                raise ValueError(f"✗ Seat {start + 1} is empty: name its player, or let the "
                                 "box draw the start player.")
            request["start_player"] = seats[start]
        rules = {name: self.query_one(f"#rule-{i}", Cycle).value
                 for i, name in enumerate(RULES)}
        changed = {k: v for k, v in rules.items() if v != DEFAULTS[k]}
        if changed:
            request["rules"] = changed
        catalog = self.query_one("#catalog", Input).value.strip()
        if catalog:
            request["catalog"] = catalog
        bag = parse_bag(self.query_one("#bag", Input).value)
        if bag is not None:
            request["bag"] = bag
        return request

    def _start(self) -> None:
        try:
            request = self.request()
        except ValueError as err:
            self.say_error(str(err))
            return
        if not request["players"]:
            self.say_error("✗ Name at least one player (GAL-1).")
            self.query_one("#name-0", Input).focus()
            return
        # the rules check the form first (no bag, two players of one name...), so a game in
        # progress is not put in question for a form that cannot start one
        ruleset = games.find(GAME)
        try:
            command = ruleset.parse(request)
            ruleset.decide(ruleset.initial_state(ruleset.load_catalog(None)),
                           ruleset.start(command, commitment="", settings={}))
        except Refusal as refusal:
            self.refused(refusal)
            return
        self.start_new_game(GAME, request)
