"""The A.R.T. Project's table: the phase tracker and `next`, the van and its reserve, health,
agents per city / HQ / reserve, lost cities, the clue chain, the track and artwork; a key for
each kind of action (what each offers is the ruleset's legal actions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from referee.games.art_project.words import card_no
from referee.session import LogEntry
from referee.words import step_words
from ui import format as fmt
from ui.base import BaseScreen, KeyBar, either_case
from ui.games import OtherGameStyles
from ui.games.art_project.common import legal, shown

PHASES = ("A", "A/B", "B", "B/C", "C", "C/D", "D/A")
RESOURCES = ("fuel", "radio", "weapon")
WHAT = {"draw": "draw", "extra_draw": "extra draw", "play_card": "mission card to play",
        "move": "move", "battle": "battle", "unlock_ally": "ally die to unlock",
        "place_agents": "setup agents to place", "give_clue": "clue card to give"}


def phase_line(s: dict[str, Any]) -> str:
    """Round, the phase tracker (the current phase or window marked) and the final round."""
    if s.get("over"):
        return f"Round {s.get('round', 0)} · the game is over"
    marks = [f"[reverse b] {p} [/]" if p == s["phase"] else f" {p} " for p in PHASES]
    final = " · [b]final round[/b]" if s.get("final_round") else ""
    return f"Round {s['round']}  " + "".join(marks) + final


def team_text(s: dict[str, Any]) -> str:
    van, res = s["van"], s["reserve"]
    lines = ["[b]Van[/b]     " + "  ".join(f"{r} {van[r]}" for r in RESOURCES),
             "[b]Reserve[/b] " + "  ".join(f"{r} {res[r]}" for r in RESOURCES),
             "[b]Health[/b]  " + "  ".join(
                 f"{fmt.escape(p['name'])} {p['health']}" for p in s["players"])
             + f"  (reserve {s['health_reserve']})"]
    hands = "  ".join(f"{fmt.escape(p['name'])} {p['hand']}"
                      + (f"+{p['draws_owed']}" if p["draws_owed"] else "")
                      for p in s["players"])
    lines.append(f"[b]Hands[/b]   {hands}  (+owed)")
    a, art = s["agents"], s["artwork"]
    lines.append(f"[b]Agents[/b]  HQ {a['hq']}  reserve {a['reserve']}  "
                 f"markers {s['markers']}")
    threat = art["threat"] if art["threat"] is not None else "–"
    cost = art["ally_cost"] if art["ally_cost"] is not None else "–"
    bar = "■" * art["track"] + "□" * (art["spaces"] - art["track"])
    lines.append(f"[b]Track[/b]   {bar} {art['track']}/{art['spaces']}  threat {threat}")
    lines.append(f"[b]Allies[/b]  {s['allies']}/5  next costs {cost} radio")
    chain = "  ".join(f"{card_no(x['id'])}:{'+'.join(x['symbols']) or '–'}"
                      f"({fmt.escape(x['player'])})"
                      for x in s["chain"]) or "–"
    lines.append(f"[b]Chain[/b]   {chain}")
    d = s["deck"]
    lines.append(f"[b]Deck[/b]    {d['above']} · {'final' if d['final'] else 'no final'} · "
                 f"{d['below']} · discards {d['discard']}")
    if s.get("ally"):
        ally = s["ally"]
        lines.append(f"[b]Ally pawn[/b] ({fmt.escape(ally['color'])}) in "
                     f"{fmt.escape(ally['city'])}")
    return "\n".join(lines)


def map_text(s: dict[str, Any], cities: list[tuple[str, str | None]]) -> str:
    """One line per city: agents, pawns, artwork, lost."""
    agents = s["agents"]["cities"]
    pawns: dict[str, list[str]] = {}
    for p in s["players"]:
        pawns.setdefault(p["city"], []).append(p["name"])
    if s.get("ally"):
        pawns.setdefault(s["ally"]["city"], []).append(f"ally({s['ally']['color']})")
    art = set(s["artwork"]["cities"])
    rows = [f"[b]{'City':<12}{'ag':>3} {'':4}✦ pawns[/b]"]
    for name, symbol in cities:
        lost = name in s["lost"]
        flag = ("LOST" if lost else "    ") + ("✦ " if name in art else "  ")
        who = ", ".join(pawns.get(name, []))
        line = f"{fmt.escape(name[:12]):<12}{agents.get(name, 0):>3} {flag}{fmt.escape(who)}"
        rows.append(f"[dim]{line}[/dim]" if lost else line)
        del symbol
    return "\n".join(rows)


class ArtLog(Static):
    """What happened, newest first, in the ruleset's words (`referee.words.step_words`, the
    same words the phone page shows); an undone step struck through and marked."""

    entries: reactive[tuple[tuple[int, bool, str], ...]] = reactive((), layout=True)

    @staticmethod
    def lines_for(ruleset: Any, log: Sequence[LogEntry],
                  limit: int = 60) -> tuple[tuple[int, bool, str], ...]:
        return tuple((e.seq, e.undone, step_words(ruleset, e.command, e.events))
                     for e in reversed(log[-limit:]))

    def render(self) -> Text:
        text = Text()
        for seq, undone, line in self.entries:
            if text:
                text.append("\n")
            text.append(f"{seq:>3} ", style="dim")
            if undone:
                text.append(line, style="strike dim")
                text.append(" (undone)", style="italic")
            else:
                text.append(line)
        return text or Text("Nothing has happened yet.", style="dim")


class ArtTableScreen(OtherGameStyles, BaseScreen):
    """Where the team stands, what it must do next, and a key for each kind of action."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("a"), "actions(None)", "Actions"),
        Binding(either_case("d"), "actions('draw')", "Draw"),
        Binding(either_case("p"), "actions('play_card')", "Play"),
        Binding(either_case("m"), "actions('move')", "Move"),
        Binding(either_case("b"), "actions('battle')", "Battle"),
        Binding(either_case("u"), "actions('unlock_ally')", "Ally"),
        Binding(either_case("e"), "end_phase", "End phase"),
        Binding("ctrl+z", "app.undo", "Undo"),
        Binding(either_case("o"), "app.box", "Box", show=False),
        Binding(either_case("x"), "actions('extra_draw')", "Extra draw", show=False),
        Binding(either_case("s"), "actions('place_agents')", "Setup agents", show=False),
        Binding(either_case("c"), "actions('give_clue')", "Give clue", show=False),
        Binding(either_case("g"), "game_over", "Result", show=False),
        Binding("ctrl+n", "app.new_game", "New game", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Tableside Referee — The A.R.T. Project", classes="title-bar",
                     id="art-title")
        yield Static("", id="art-phases")
        yield Static("", id="art-next", markup=False)
        with Horizontal(id="art-table"):
            yield Static("", id="art-team")
            with VerticalScroll(id="art-map-scroll"):
                yield Static("", id="art-map")
        with VerticalScroll(id="art-log-scroll"):
            yield ArtLog(id="art-log")
        yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        session = self.referee.session
        s = shown(session)
        if "mission" not in s:
            return
        mission = session.state.mission
        cities = [(c.name, c.symbol) for c in mission.cities] if mission else []
        self.query_one("#art-title", Static).update(
            f"The A.R.T. Project — {fmt.escape(s['mission'])} ({s['difficulty']})"
            + (" · trusted map" if s["map"] == "trusted" else ""))
        self.query_one("#art-phases", Static).update(phase_line(s))
        self.query_one("#art-next", Static).update(f"Next: {s['next']}")
        self.query_one("#art-team", Static).update(team_text(s))
        self.query_one("#art-map", Static).update(map_text(s, cities))
        self.query_one(ArtLog).entries = ArtLog.lines_for(session.ruleset, session.log)

    def action_actions(self, cmd: str | None) -> None:
        from ui.games.art_project.dialogs import ActionsDialog

        self.refused(None)
        if not legal(self.referee.session, cmd):
            what = "nothing" if cmd is None else f"no {WHAT.get(cmd, cmd)}"
            self.notify(f"The rules allow {what} now. {shown(self.referee.session)['next']}",
                        severity="warning", markup=False)
            return
        self.referee.open(ActionsDialog(cmd), self._chosen)

    def _chosen(self, request: dict[str, Any] | None) -> None:
        """A legal action picked: sent at once, or first completed in its form."""
        from ui.games.art_project.dialogs import form_for

        if request is None:
            return
        form = form_for(request)
        if form is None:
            self.send_request(request)
        else:
            self.referee.open(form)

    def action_end_phase(self) -> None:
        """E: the end of the phase, when the rules allow it now (else why not, and `next`)."""
        self.refused(None)
        if not legal(self.referee.session, "end_phase"):
            self.notify("The phase cannot end now. " + shown(self.referee.session)["next"],
                        severity="warning", markup=False)
            return
        self.send_request({"cmd": "end_phase"})

    def action_game_over(self) -> None:
        if self.referee.session.state.over:
            from ui.games.art_project.dialogs import ArtGameOverScreen

            self.referee.open(ArtGameOverScreen())
