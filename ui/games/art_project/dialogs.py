"""The A.R.T. Project's dialogs: every legal action (and the form that completes it), the
team's pending choices, the battle with its sums term by term, its verdict, undo and the end.

What a dialog offers is the ruleset's (`legal_actions`, the pending decision's options, the
dice a battle rolls as `decide` asks for them); the sums are the verdict the ruleset keeps.
What the table types is turned into a protocol request and the ruleset checks it."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, SelectionList, Static

from referee.games.art_project.state import battle_dice
from referee.games.art_project.words import card_no, choice_said, dice_words
from referee.ruleset import NeedDice
from ui import format as fmt
from ui.base import (
    AFTER_THE_END,
    Choice,
    Choices,
    Dialog,
    KeyBar,
    PendingDialog,
    RulesetUndoConfirm,
    either_case,
)
from ui.games import OtherGameStyles
from ui.games.art_project.common import legal, pending_of, shown
from ui.screens.ticks import TickList

TITLES = {
    "uncover_order": "Which clue set is uncovered first? (ART-15)",
    "uncover_island": "Which island gets the artwork? (ART-32)",
    "collect_order": "Which artwork is collected first? (ART-17)",
    "lose_resources": "Which resources does the van lose? (ART-31)",
    "lose_clue": "Which clue card is lost? (ART-31)",
    "effect_health": "Who pays the health? (ART-31)",
    "clue_set": "Which cards make the set? (ART-15, minimal set)",
}
# The fields a form asks for, per command: (field, label, kind, example). Field names are the
# protocol's (code, not game data), and so are the widget ids built from them.
FIELDS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "play_card": (
        ("spend", "1. The card's cost (the van pays; health for what it lacks)", "pairs",
         "fuel=1 radio=1"),
        ("agents", "2. Agents placed, in the card's order", "pairs", "Film=2 Book=1"),
        ("gain", "3. Gains (health to a player: health=Ann:1)", "gain", "fuel=1 health=1"),
        ("clues", "4. Clue symbols the card keeps (at most 2)", "words", "film book"),
    ),
    "battle": (("rolls", "Dice on the table (blank: the box rolls)", "pairs", "Ann=4"),),
    "place_agents": (("agents", "Or by district (blank: as listed)", "pairs", "Lapa=1 Centro=1"),),
}


def _health_words(health: Any, player: str = "") -> str:
    """Who pays what in health, as a label's tail (empty when none is paid)."""
    paid = health if isinstance(health, dict) else ({player: health} if health else {})
    if not paid:
        return ""
    return ", paid with " + " and ".join(
        f"{n} health from {who}" for who, n in paid.items()) + " (ART-7)"


def label(request: dict[str, Any]) -> str:
    """A legal action in words: who, what, and who pays any health for it."""
    cmd = str(request["cmd"])
    who = request.get("player", "")
    health = _health_words(request.get("health"), str(who))
    pawn = "the ally pawn" if request.get("ally") else who
    words: dict[str, str] = {
        "draw": f"{who} draws a card",
        "extra_draw": f"{who} draws an extra card, paying 1 {request.get('pay')}",
        "play_card": f"{who} plays a mission card",
        "move": (f"{who} moves {pawn} to {request.get('to')}" if request.get("ally")
                 else f"{who} moves to {request.get('to')}")
                + (" with the artwork" if request.get("carry") else "") + health,
        "battle": f"Battle in {request.get('city')}, led by {request.get('leader')}",
        "weapon": f"{who} adds a weapon (+2)" + health,
        "reroll": f"Reroll with clue card {request.get('card')}",
        "concede": "Concede the battle",
        "unlock_ally": "Unlock an ally die" + health,
        "end_phase": "End the phase",
        "choose": f"Choose {request.get('choice')}",
        "place_agents": f"{who} places setup agents: " + ", ".join(
            f"{k} {v}" for k, v in dict(request.get("agents") or {}).items()),
        "give_clue": f"{request.get('from')} gives clue card {request.get('card')} to "
                     f"{request.get('to')}",
    }
    return words.get(cmd, cmd)


def form_for(request: dict[str, Any]) -> Screen[Any] | None:
    """The form that completes `request`, or None when it is sent as it is."""
    return RequestForm(request) if request["cmd"] in FIELDS else None


def parse_field(kind: str, text: str) -> Any:
    """What the table typed, as the request's field; ValueError says what is wrong."""
    text = text.strip()
    if kind == "int":
        if not text.isdigit():
            raise ValueError(f"a whole number, please (not {text!r})")
        return int(text)
    if kind == "words":
        return text.replace(",", " ").split()
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"write name=number (not {part!r})")
        if kind == "gain" and key == "health" and ":" in value:
            name, _, n = value.partition(":")
            if not n.isdigit():
                raise ValueError(f"health=name:number (not {part!r})")
            out.setdefault("health", {})[name] = int(n)
            continue
        if not value.isdigit():
            raise ValueError(f"{key}: a whole number, please (not {value!r})")
        out[key] = int(value)
    return out


def canonical(names: list[str], typed: dict[str, Any]) -> dict[str, Any]:
    """`typed`'s keys as the board spells them, matched without regard to case (a key that
    matches no name is left as typed: the ruleset says what is wrong with it)."""
    spelled = {n.casefold(): n for n in names}
    return {spelled.get(k.casefold(), k): v for k, v in typed.items()}


def dice_of(session: Any, request: dict[str, Any]) -> list[str]:
    """The dice ids the ruleset would roll for `request` (empty when it needs none)."""
    try:
        need = session.ruleset.decide(session.state, session.ruleset.parse(request))
    except Exception:  # refused or malformed: the form will say so when sent
        return []
    return [r.id for r in need.requests] if isinstance(need, NeedDice) else []


def move_rows(session: Any) -> tuple[list[Choice], int]:
    """The move list in a fixed order (issue 39: it reordered after each move, and a player
    was moved back by mistake): every pawn (the players in seat order, then solo's ally
    pawn), every city in the board's order, each legal move of that pawn to that city as
    the ruleset lists it (a health payment or a carried artwork is a row of its own), and
    a row for the city it stands in (Enter there closes the list, moving nothing) and a
    greyed row for a city it cannot go to now, so a row keeps its place move after move.
    The cursor opens where the pawn moved last stands, else on the first move."""
    s = session.state
    found = legal(session, "move")
    pawns = [(p.name, False, p.name, p.city) for p in s.players]
    if s.ally is not None:
        pawns.append((s.players[0].name, True, f"the ally pawn ({s.ally.color})", s.ally.city))
    rows: list[Choice] = []
    last = _last_move(session)
    start = None
    for player, ally, who, here in pawns:
        for city in s.mission.cities if s.mission is not None else ():
            mine = [r for r in found if r.get("player") == player
                    and bool(r.get("ally")) == ally and r.get("to") == city.name]
            if last == (player, ally) and city.name == here:
                start = len(rows)
            if city.name == here and not mine:  # Enter here closes the list: no move
                rows.append(Choice(f"{who}: stays in {city.name} (here)", None))
            else:
                rows += [Choice(label(r), r) for r in mine] or [Choice(
                    f"{who}: {city.name} (not now)", None, disabled=True)]
    if start is None:
        start = next((i for i, row in enumerate(rows) if row.value is not None), 0)
    return rows, start


def _last_move(session: Any) -> tuple[str, bool] | None:
    """The pawn of the newest move still standing in this phase (player, the ally pawn?)."""
    for entry in reversed(session.log):
        if entry.undone or entry.command.get("cmd") == "undo":
            continue
        if entry.command.get("cmd") != "move":
            return None
        return str(entry.command.get("player")), bool(entry.command.get("ally"))
    return None


class ActionsDialog(OtherGameStyles, Dialog[dict[str, Any]]):
    """Every legal action now (of one command, if named): ↑↓ and Enter."""

    def __init__(self, cmd: str | None) -> None:
        super().__init__()
        self.cmd = cmd

    def compose(self) -> ComposeResult:
        session = self.referee.session
        if self.cmd == "move":
            rows, self.start = move_rows(session)
        else:
            rows, self.start = [Choice(label(r), r) for r in legal(session, self.cmd)], 0
        with Vertical(classes="dialog"):
            yield Static("[b]What the rules allow now[/b]", classes="dialog-title")
            yield Choices(*rows, id="actions")
            yield Static("↑↓ picks, Enter chooses, Escape goes back.", classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        choices = self.query_one("#actions", Choices)
        choices.highlighted = self.start
        choices.focus()

    def on_option_list_option_selected(self, event: Choices.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.query_one("#actions", Choices).value_at(event.option_index))


class RequestForm(OtherGameStyles, Dialog[None]):
    """A legal action's details the table reads off the card or the board; Ctrl+S sends."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *Dialog.BINDINGS, Binding("ctrl+s", "send", "Send", priority=True),
    ]

    def __init__(self, request: dict[str, Any]) -> None:
        super().__init__()
        self.request = dict(request)

    def compose(self) -> ComposeResult:
        cmd = self.request["cmd"]
        session = self.referee.session
        with Vertical(classes="dialog", id="art-form"):
            yield Static(f"[b]{fmt.escape(label(self.request))}[/b]", classes="dialog-title")
            if cmd == "battle":
                ids = dice_of(session, self.request)
                yield Static("Dice rolled: " + (fmt.escape(" ".join(ids)) or "none"),
                             id="form-dice")
            for field, text, _, example in self.fields():
                yield Static(text, classes="form-label")
                yield Input(placeholder=example, id=f"field-{field}", compact=True)
            yield Static("Blank fields are left out. Ctrl+S sends, Escape goes back.",
                         classes="hint")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        fields = self.query(Input)
        if fields:
            fields.first().focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def action_send(self) -> None:
        self.after_typing(self._send)

    def _send(self) -> None:
        request = dict(self.request)
        for name, text, kind, _ in self.fields():
            typed = self.query_one(f"#field-{name}", Input).value
            if not typed.strip():
                continue
            try:
                request[name] = parse_field(kind, typed)
            except ValueError as err:
                self.say_error(f"✗ {text}: {err}")
                return
            if name == "agents":
                request[name] = canonical(self._cities(), request[name])
            elif name == "rolls":
                request[name] = canonical(dice_of(self.referee.session, self.request),
                                          request[name])
            elif name == "participants":
                names = [p.name for p in self.referee.session.state.players]
                request[name] = list(canonical(names, dict.fromkeys(request[name])))
        if self.send_request(request):
            self.dismiss(None)

    def fields(self) -> tuple[tuple[str, str, str, str], ...]:
        """The form's fields: the command's, and who fights when the house rule
        battle_participants = "declared" has the team name them (ART-19)."""
        own = tuple(self._example(*f) for f in FIELDS[self.request["cmd"]])
        rules = self.referee.session.state.rules
        if self.request["cmd"] == "battle" and rules.battle_participants == "declared":
            return (*own, ("participants", "Who fights beside the leader (blank: everyone "
                           "in the city)", "words", "Ben Cy"))
        return own


    def _example(self, field: str, text: str, kind: str, example: str
                  ) -> tuple[str, str, str, str]:
        """A field with its example in this game's terms: places of the board in play (not
        the test board's) and a player at this table (issue 39)."""
        state = self.referee.session.state
        mission = state.mission
        places = [c for c in self._cities() if mission is None or c != mission.start]
        names = [p.name for p in state.players]
        if field == "agents" and len(places) >= 2:
            example = (f"{places[0]}=1 {places[1]}=1" if self.request["cmd"] == "place_agents"
                       else f"{places[0]}=2 {places[1]}=1")
        elif field == "gain" and names:
            text = text.replace("health=Ann:1", f"health={names[0]}:1")
        elif field == "rolls" and names:
            example = f"{names[0]}=4"
        return field, text, kind, example

    def _cities(self) -> list[str]:
        mission = self.referee.session.state.mission
        if mission is None:
            return []
        symbols = list(self.referee.session.state.catalog.symbols)  # Polynesia: by symbol
        return [*(symbols if mission.board == "polynesia" else []),
                *(c.name for c in mission.cities)]  # (a city's own spelling wins)


class ChooseDialog(OtherGameStyles, PendingDialog):
    """A decision the team makes (`choose`): the options the ruleset offers."""

    def __init__(self, player: str, decision: str) -> None:
        super().__init__(player)
        self.decision = decision

    def compose(self) -> ComposeResult:
        choices = legal(self.referee.session, "choose")
        with Vertical(classes="dialog"):
            yield Static(f"[b]{TITLES.get(self.decision, self.decision)}[/b]",
                         classes="dialog-title")
            yield Choices(*[(choice_said(r["choice"]), r) for r in choices], id="choices")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#choices", Choices).focus()

    def on_option_list_option_selected(self, event: Choices.OptionSelected) -> None:
        event.stop()
        request = self.query_one("#choices", Choices).value_at(event.option_index)
        if request is not None:
            self.send_request(request)


def verdict_text(v: dict[str, Any]) -> str:
    """The battle term by term: dice, weapons ×2 against agents + threat + HQ (ART-20..22)."""
    dice = fmt.escape(dice_words(dict(battle_dice(v)), plus=" + ")) or "–"
    return "\n".join([
        f"Dice      {dice} = {v['dice_sum']}",
        f"Weapons   {v['weapons']} × 2 = {v['weapon_bonus']}",
        f"[b]Team      {v['dice_sum']} + {v['weapon_bonus']} = {v['strength']}[/b]",
        f"Agents    {v['city_agents']} in {fmt.escape(v['city'])} + threat {v['threat']} "
        f"+ HQ {v['hq']}",
        f"[b]Agents    = {v['agents_strength']}[/b]",
    ])


class BattleDialog(OtherGameStyles, PendingDialog):
    """The open battle: the live sums, and reroll, weapon or concede."""

    decision = "battle"
    BINDINGS: ClassVar[list[BindingType]] = [
        *PendingDialog.BINDINGS,
        Binding(either_case("r"), "reroll", "Reroll"),
        Binding(either_case("w"), "weapon", "Weapon"),
        Binding(either_case("c"), "concede", "Concede"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="battle-dialog"):
            yield Static("", id="battle-title", classes="dialog-title")
            yield Static("", id="battle-sums")
            yield Static("", id="battle-short")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.redraw()

    def show(self) -> None:
        v = shown(self.referee.session).get("battle")
        if not v:
            return
        who = ", ".join(v["participants"])
        self.query_one("#battle-title", Static).update(
            f"[b]Battle in {fmt.escape(v['city'])}[/b], led by {fmt.escape(v['leader'])} "
            f"({fmt.escape(who)})")
        self.query_one("#battle-sums", Static).update(verdict_text(v))
        short = v["agents_strength"] - v["strength"]
        self.query_one("#battle-short", Static).update(
            f"Short by {short}: R rerolls with a clue card, W adds a weapon, C concedes.")

    def action_reroll(self) -> None:
        if not legal(self.referee.session, "reroll"):
            self.notify("No clue card in the chain can pay for a reroll.", severity="warning")
            return
        self.referee.open(RerollForm())

    def action_weapon(self) -> None:
        if not legal(self.referee.session, "weapon"):
            self.notify("No weapon can be added now: " + shown(self.referee.session)["next"],
                        severity="warning", markup=False)
            return
        self.referee.open(WeaponForm())

    def action_concede(self) -> None:
        if not legal(self.referee.session, "concede"):
            self.notify("The battle cannot be conceded now.", severity="warning")
            return
        self.send_request({"cmd": "concede"})


class MarkList(TickList):
    """The reroll form's dice: Space marks the die it was pressed on (`TickList`)."""


class CardChoices(Choices):
    """The reroll form's clue cards: a card highlighted lists its dice at once, while the
    key is read (a highlight message would come after keys typed behind it in a burst, and
    the dice listed again then would lose the marks those keys made)."""

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        form = self.screen
        if isinstance(form, RerollForm) and form.is_mounted:
            form.card_chosen(self.value_at(highlighted))


class RerollForm(OtherGameStyles, Dialog[None]):
    """Reroll: the clue card paid, the dice rerolled, and values on the table if any. The
    cards and each card's dice are the ruleset's legal rerolls as it lists them (ART-23,
    ART-30): the form lists, for the card highlighted, the dice some legal reroll of it
    names, and sends only a choice the ruleset lists."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *Dialog.BINDINGS, Binding("ctrl+s", "send", "Send", priority=True),
    ]

    def compose(self) -> ComposeResult:
        session = self.referee.session
        self.legal = legal(session, "reroll")
        cards = list(dict.fromkeys(str(r["card"]) for r in self.legal))
        chain = {x["id"]: x for x in shown(session)["chain"]}
        battle = shown(session).get("battle")
        self.values = dict(battle_dice(battle)) if battle else {}
        self.card = cards[0] if cards else None
        self.dice = self._dice_of(self.card)
        with Vertical(classes="dialog", id="reroll-form"):
            yield Static("[b]Reroll[/b] (a chain card pays: one die per symbol)",
                         classes="dialog-title")
            yield CardChoices(*[(f"card {card_no(c)}: {'+'.join(chain[c]['symbols'])} "
                                 f"({chain[c]['player']})" if c in chain else c, c)
                                for c in cards], id="reroll-card")
            yield Static("Dice to reroll (Space marks)", classes="form-label")
            yield MarkList(*self._options(()), id="reroll-dice")
            yield Static("Marked: none", id="reroll-marked", markup=False)
            yield Static("Values on the table (blank: the box rolls)", classes="form-label")
            yield Input(placeholder="Ann=4", id="field-rolls", compact=True)
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#reroll-card", Choices).focus()

    def _dice_of(self, card: str | None) -> list[tuple[str, int]]:
        """The dice some legal reroll with `card` names, in the battle's order."""
        named = {d for r in self.legal if r["card"] == card for d in r["dice"]}
        return [(k, n) for k, n in self.values.items() if k in named]

    def _options(self, marked: Any) -> list[tuple[Text, str, bool]]:
        return [(self._prompt(k, n, k in marked), k, k in marked) for k, n in self.dice]

    def card_chosen(self, card: str | None) -> None:
        """Another card: the dice its legal rerolls name; a die marked that the new card
        may reroll stays marked, and the cursor keeps its row."""
        if card is None or card == self.card:
            return
        self.card = card
        dice_list = self.query_one("#reroll-dice", SelectionList)
        marked = set(dice_list.selected)
        at = dice_list.highlighted
        self.dice = self._dice_of(card)
        dice_list.clear_options()
        dice_list.add_options(self._options(marked))
        if self.dice:  # (Space marks a die at once, as on opening)
            dice_list.highlighted = min(at or 0, len(self.dice) - 1)
        self._say_marked()

    def action_send(self) -> None:
        self.after_typing(self._send)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]
                                           ) -> None:
        dice_list = self.query_one("#reroll-dice", SelectionList)
        marked = list(dice_list.selected)
        for i, (k, n) in enumerate(self.dice):  # marked in words, not only in colour
            dice_list.replace_option_prompt_at_index(i, self._prompt(k, n, k in marked))
        self._say_marked()

    def _say_marked(self) -> None:
        marked = list(self.query_one("#reroll-dice", SelectionList).selected)
        self.query_one("#reroll-marked", Static).update(
            "Marked: " + (", ".join(f"✓ {d}" for d in marked) or "none"))

    @staticmethod
    def _prompt(die: str, value: int, marked: bool) -> Text:
        return Text(f"{'✓ reroll' if marked else '  keep  '}  {die} (now {value})")

    def _send(self) -> None:
        card = self.query_one("#reroll-card", Choices).highlighted_value
        marked = set(self.query_one("#reroll-dice", SelectionList).selected)
        if not marked:
            self.say_error("✗ Mark the dice to reroll first: Tab to the dice, Space marks "
                           "one (a card rerolls one die per symbol).")
            return
        listed = next((r for r in self.legal
                       if r["card"] == card and set(r["dice"]) == marked), None)
        if listed is None:
            most = max((len(r["dice"]) for r in self.legal if r["card"] == card), default=0)
            self.say_error(f"✗ Clue card {card} rerolls {most} of these dice at most "
                           f"(one per clue symbol, ART-23): mark fewer.")
            return
        request: dict[str, Any] = dict(listed)
        typed = self.query_one("#field-rolls", Input).value
        if typed.strip():
            try:
                request["rolls"] = canonical(list(request["dice"]), parse_field("pairs", typed))
            except ValueError as err:
                self.say_error(f"✗ {err}")
                return
        if self.send_request(request):
            self.dismiss(None)


class WeaponForm(OtherGameStyles, Dialog[None]):
    """A weapon for the battle (+2): the ruleset's legal weapons (a participant each, with the
    health paid when the van has none); Enter adds the one highlighted."""

    def compose(self) -> ComposeResult:
        found = legal(self.referee.session, "weapon")
        with Vertical(classes="dialog", id="weapon-form"):
            yield Static("[b]Add a weapon[/b] (+2 to the team): who adds it",
                         classes="dialog-title")
            yield Choices(*[(label(r), r) for r in found], id="weapon-player")
            yield Static("↑↓ picks, Enter adds the weapon, Escape goes back.", classes="hint")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#weapon-player", Choices).focus()

    def on_option_list_option_selected(self, event: Choices.OptionSelected) -> None:
        event.stop()
        request = self.query_one("#weapon-player", Choices).value_at(event.option_index)
        if request is not None and self.send_request(request):
            self.dismiss(None)


class VerdictScreen(OtherGameStyles, Dialog[None]):
    """A battle that ended: its verdict term by term."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "cancel", "OK", priority=True), *Dialog.BINDINGS,
    ]

    def __init__(self, verdict: dict[str, Any], conceded: bool,
                 collected: bool = False) -> None:
        super().__init__()
        self.verdict = verdict
        self.conceded = conceded
        self.collected = collected  # the step moved the city's artwork to the track

    def compose(self) -> ComposeResult:
        v = self.verdict
        head = ("conceded: the leader loses a health token (ART-23)" if self.conceded
                else "won: the agents go to the reserve"
                + (", the artwork to the track (ART-22)" if self.collected else " (ART-22)"))
        with Vertical(classes="dialog", id="verdict"):
            yield Static(f"[b]Battle in {fmt.escape(v['city'])}[/b] {head}",
                         classes="dialog-title")
            yield Static(verdict_text(v), id="verdict-sums")
        yield KeyBar()


class ArtUndoConfirm(RulesetUndoConfirm):
    """Undo, saying that the battle dice stay."""

    HINT = None  # what happens to the step's dice: the core's words (referee.words), ART-36


class ArtGameOverScreen(OtherGameStyles, Dialog[None]):
    """The result, why, the Hall of Fame and the revealed seed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(either_case("n"), "app.new_game", "New game"),
        Binding(either_case("q"), "app.quit", "Quit"),
        Binding("escape", "cancel", "See the table"),
    ]

    def compose(self) -> ComposeResult:
        s = shown(self.referee.session)
        result = s.get("result") or {}
        won = result.get("outcome") == "won"
        hall = "\n".join(f"  {fmt.escape(h['mission'])} ({h['difficulty']}): "
                         f"won {h['won']}, lost {h['lost']}" for h in s["hall_of_fame"])
        with Vertical(classes="dialog", id="art-over"):
            yield Static(f"[b]The team {'won' if won else 'lost'}[/b] "
                         f"({result.get('rule') or ''})", classes="dialog-title")
            yield Static(fmt.escape(str(s.get("next") or "")), id="over-why")
            yield Static("[b]Hall of Fame[/b]\n" + (hall or "  –"), id="over-hall")
            yield Static(f"Seed: {s.get('seed') or '–'}", id="over-seed", markup=False)
            yield Static(AFTER_THE_END, classes="hint", id="over-undo")
        yield KeyBar()


__all__ = ["ActionsDialog", "ArtGameOverScreen", "ArtUndoConfirm", "BattleDialog",
           "ChooseDialog", "RequestForm", "RerollForm", "VerdictScreen", "WeaponForm",
           "form_for", "pending_of"]
