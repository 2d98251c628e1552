"""Starting a game of The A.R.T. Project: players and colours, mission, difficulty, solo's
ally colour; and, for a mission whose board the catalog lacks, the table enters it (cities,
start, then the track space by space) into a board file the console keeps for next time."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Static

from referee.errors import Refusal
from referee.games.art_project.rules.setup import MAX_NAME
from referee.games.art_project.state import DIFFICULTY_HEALTH
from ui import format as fmt
from ui.base import BaseScreen, Cycle, Dialog, KeyBar, TextButton, either_case
from ui.games import OtherGameStyles
from ui.games.art_project.boards import board_file, catalog_with_boards

SEATS = 6  # ART-1: 1-6 players
GAME = "art-project"



BOARD_WORDS = {"usa": "USA", "rio": "Rio de Janeiro"}  # the rest: the id as a word


def board_words(mission: str) -> str:
    """A mission's board as the table names it ("Japan", "USA"), never its id ("japan")."""
    return BOARD_WORDS.get(mission) or mission.replace("-", " ").capitalize()

class ArtNewGameScreen(OtherGameStyles, BaseScreen):
    """Names (blank seats are empty), colours, mission, difficulty; Ctrl+S starts."""

    AUTO_FOCUS = "#name-0"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start game", priority=True),
        Binding("f3", "step('mission')", "Mission"),
        Binding("f4", "step('difficulty')", "Difficulty"),
        Binding("ctrl+b", "enter_board", "Enter board"),
        Binding("escape", "back", "Back to the game", show=False),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        catalog = catalog_with_boards(self.referee.session)
        colours = list(catalog.colours)
        missions = [(self._mission_label(m), m.id) for m in catalog.missions.values()]
        yield Static("Tableside Referee — The A.R.T. Project: new game", classes="title-bar")
        with VerticalScroll(id="art-newgame"):
            with Horizontal(classes="art-form-row"):
                yield Label("Mission", classes="art-form-label")
                yield Cycle(missions, missions[0][1] if missions else None, id="mission")
            with Horizontal(classes="art-form-row"):
                yield Label("Difficulty", classes="art-form-label")
                yield Cycle([(d, d) for d in DIFFICULTY_HEALTH], "medium", id="difficulty")
            with Horizontal(classes="art-form-row"):
                yield Label("Solo: ally colour", classes="art-form-label")
                yield Cycle([("(not solo)", None), *[(c, c) for c in colours]], None,
                            id="ally")
            yield Static("[b]Players[/b] (blank seats stay empty)", classes="panel-title")
            for i in range(SEATS):
                yield Horizontal(
                    Label(f"{i + 1}.", classes="seat-number"),
                    Input(placeholder="name", max_length=MAX_NAME, id=f"name-{i}",
                          classes="name-input", compact=True),
                    Cycle([(c, c) for c in colours], colours[i % len(colours)],
                          id=f"colour-{i}", classes="colour-cycle"),
                    classes="player-form")
            yield Static("", id="board-note", markup=False)
        with Horizontal(id="newgame-bar"):
            yield TextButton("Start game \\[^S]", id="start", primary=True)
            yield self.error_line()
        yield KeyBar()

    def _mission_label(self, m: Any) -> str:
        missing = m.missing()
        kept = board_file(m.id, self.referee.session)
        if missing and kept is None:
            return f"{board_words(m.id)} (board to enter)"
        return board_words(m.id)

    unsure = False  # a refusal was said: the next start first says what it would start

    def on_mount(self) -> None:
        self._note()

    def refused(self, refusal: Refusal | None) -> None:
        if refusal is not None:
            self.unsure = True
        super().refused(refusal)

    def say_error(self, text: str) -> None:
        self.unsure = True
        super().say_error(text)

    def on_cycle_changed(self, event: Cycle.Changed) -> None:
        if event.cycle.id == "mission":
            self._note()

    def _note(self) -> None:
        cycle = self.query_one("#mission", Cycle)
        mission = cycle.value
        catalog = catalog_with_boards(self.referee.session)
        labels = [(self._mission_label(m), m.id) for m in catalog.missions.values()]
        if labels != cycle.choices:  # a board entered just now: its label says so at once
            cycle.choices = labels
            cycle.value = mission
        m = catalog.missions.get(mission)
        kept = board_file(mission, self.referee.session)
        note = ""
        said = board_words(mission)
        if m is not None and m.missing() and kept is None:
            note = (f"The catalog has no board for {said} (missing: "
                    f"{', '.join(m.missing())}): Ctrl+B enters it from the printed board.")
        elif kept is not None:
            note = f"The board entered for {said} is used ({kept})."
        self.query_one("#board-note", Static).update(note)

    def action_step(self, field: str) -> None:
        """F3 / F4: the next mission / difficulty, wherever the cursor is."""
        self.query_one(f"#{field}", Cycle).action_step(1)

    def action_back(self) -> None:
        self.referee.cancel_new_game()

    def action_entered(self) -> None:
        field = self.field_entered("name-")
        i = int((field.id or "name-0")[5:])
        target = f"#name-{i + 1}" if i + 1 < SEATS else "#start"
        self.set_focus(self.query_one(target))

    def action_enter_board(self) -> None:
        from ui.games.art_project.boards import BoardEntryScreen

        mission = self.query_one("#mission", Cycle).value
        self.referee.open(BoardEntryScreen(str(mission)), lambda _: self._note())

    def _entered_board(self, _: object) -> None:
        self._note()
        mission = str(self.query_one("#mission", Cycle).value)
        if board_file(mission, self.referee.session) is not None:
            self._start()

    def on_text_button_pressed(self, event: TextButton.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        self.after_typing(self._start)

    FIELD_REFUSALS: ClassVar[dict[tuple[str, str | None], tuple[str, str]]] = {
        ("bad_ally", "ART-34"): (
            "#ally", "✗ ART-34 The ally pawn: one named player plays solo and chooses the "
            "ally's colour in “Solo: ally colour” (not the player's own); with more players "
            "leave it at “(not solo)”."),
    }

    def request(self) -> dict[str, Any]:
        """The new_game request the form holds (the ruleset checks it)."""
        players = []
        for i in range(SEATS):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            if name:
                players.append({"name": name,
                                "color": str(self.query_one(f"#colour-{i}", Cycle).value)})
        mission = str(self.query_one("#mission", Cycle).value)
        request: dict[str, Any] = {
            "cmd": "new_game", "players": players, "mission": mission,
            "difficulty": str(self.query_one("#difficulty", Cycle).value)}
        ally = self.query_one("#ally", Cycle).value
        if ally is not None:
            request["ally"] = ally
        kept = board_file(mission, self.referee.session)
        if kept is not None:
            request["catalog"] = str(kept)
        return request

    def _start(self) -> None:
        request = self.request()
        if not request["players"]:
            self.say_error("✗ Name at least one player (ART-1).")
            self.query_one("#name-0", Input).focus()
            return
        mission = catalog_with_boards(self.referee.session).missions.get(request["mission"])
        if mission is not None and mission.missing() and "catalog" not in request:
            # First use of a mission without its board: the table enters it, then it starts.
            from ui.games.art_project.boards import BoardEntryScreen

            self.referee.open(BoardEntryScreen(request["mission"]), self._entered_board)
            return
        if self.unsure:  # after a refusal: the table sees what would start, and says yes
            self.referee.open(StartConfirm(request), self._confirmed)
            return
        self.start_new_game(GAME, request)

    def _confirmed(self, start: bool | None) -> None:
        if start:
            self.unsure = False
            self.refused(None)
            self.start_new_game(GAME, self.request())


def what_starts(request: dict[str, Any]) -> str:
    """A new_game request in words: mission, difficulty, each player and colour, solo's ally."""
    players = ", ".join(f"{p['name']} ({p['color']})" for p in request["players"])
    solo = (f"; solo, the ally pawn {request['ally']}" if request.get("ally") else "")
    return (f"{request['mission']} ({request['difficulty']}) for "
            f"{len(request['players'])} player{'s' if len(request['players']) != 1 else ''}: "
            f"{players}{solo}.")


class StartConfirm(OtherGameStyles, Dialog[bool]):
    """After a refusal, the form's next start says what it would start and asks first: keys
    typed after the refusal may have gone to another field than the one meant."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("y"), "start", "Start it"),
        Binding(either_case("n"), "cancel", "Back to the form"),
        Binding("escape", "cancel", "Back to the form", show=False),
    ]

    def __init__(self, request: dict[str, Any]) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="start-confirm"):
            yield Static("[b]Start this game?[/b]", classes="dialog-title")
            yield Static(fmt.escape(what_starts(self.request)), id="start-what")
            yield Static("[b]Y[/b] starts it · [b]N[/b] goes back to the form")
        yield KeyBar(own_only=True)

    def action_start(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
