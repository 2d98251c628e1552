"""The A.R.T. Project on the box: the phase and the `next` line, the MENU of legal actions
the box can send alone (end the phase, start a battle, undo), and a battle without the
console: ROLL on a battle rolls its dice (the tray's, one die after the other, when a tray
is connected; else the box's), the sums come up term by term, and ROLL again goes on:
reroll, weapon or concede, as the ruleset lists them. Found by the game's id in the entry-point
group ``tableside_referee.oled_screens`` (pyproject.toml); every figure is the ruleset's
(`state_json`, `legal_actions`, the battle verdict) and the box decides no rule."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from device.traydice import Waiting
from device.view import BoxView, Cursor, Item, OledScreens, rows, short_hex
from referee.dice import Roll
from referee.errors import Refusal
from referee.games.art_project.state import battle_dice as dice_in_order
from referee.games.art_project.words import card_no, choice_said
from referee.ruleset import NeedDice, Undo

if TYPE_CHECKING:
    from device.box import BoxController

GO = ("roll", "select")


def _shown(ctrl: BoxController) -> dict[str, Any]:
    return ctrl.session.ruleset.state_json(ctrl.session.state)


def mode(ctrl: BoxController) -> str:
    """The screen the state calls for: the verdict of a battle just fought (until a press),
    the open battle, the team's choice, the end, a step the table is in (the actions, a
    command's fields, a card's sections), or the phase."""
    ui, s = ctrl.ui, ctrl.session.state
    if ui.ack is not None:
        if ctrl._entry(ui.ack) is not None:
            return "verdict"
        ui.ack = None
    if ctrl.session.ruleset.id != "art-project" or s.phase == "no_game":
        return "new"  # (no game of it yet: its new-game screen)
    if s.over:
        return "over"
    if ui.step == "ask":  # a move that costs or ends the game, asked first
        return "ask"
    if s.battle is not None:
        return "pick" if ui.step == "pick" and ui.form.get("cmd") == "reroll" else "battle"
    if s.pending:
        return "choice"
    return ui.step or "phase"


# ---- the actions: every one the ruleset lists, grouped by command ---------------------------

GROUPS = {"choose": "Decide", "draw": "Draw", "extra_draw": "Extra draw (paid)",
          "play_card": "Play a card", "place_agents": "Place agents", "move": "Move",
          "unlock_ally": "Unlock an ally die", "give_clue": "Give a clue card",
          "battle": "Battle", "end_phase": "End the phase"}
IN_BATTLE = ("reroll", "weapon", "concede")  # the open battle's own screen offers these
FIELD_WORDS = {"player": "who", "leader": "leader", "to": "where", "city": "where",
               "health": "health", "pay": "pay with", "card": "which card",
               "dice": "which dice", "choice": "which", "from": "from whom",
               "agents": "agents", "ally": "which pawn", "carry": "carry?", "final": "final?"}


def _legal(ctrl: BoxController, cmd: str | None = None) -> list[dict[str, Any]]:
    """The requests the ruleset lists now (of `cmd`, if named), as it lists them: every
    reroll a clue card allows is one of them (the box works out no choice of dice)."""
    found = ctrl.session.ruleset.legal_actions(ctrl.session.state, None)
    return [r for r in found if cmd is None or r["cmd"] == cmd]


def accepted(ctrl: BoxController, request: dict[str, Any]) -> bool:
    """Whether the ruleset's `decide` takes `request` now (nothing is applied)."""
    rules = ctrl.session.ruleset
    try:
        rules.decide(ctrl.session.state, rules.parse(request))
    except Refusal:
        return False
    return True


def die_words(ctrl: BoxController, die: str) -> str:
    """Whose a battle die is, in words: "Ann's die", "ally die 1", "ally pawn's die"."""
    s = _shown(ctrl)
    if die.startswith("ally") and die[4:].isdigit():
        return f"ally die {die[4:]}"
    if (s.get("ally") or {}).get("color") == die:
        return f"ally pawn's die ({die})"
    return f"{die}'s die"


def dice_words(ctrl: BoxController, dice: Sequence[str]) -> str:
    words = [die_words(ctrl, d) for d in dice]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def label(field: str, value: Any) -> str:
    """A value of a request's field in a few words (a menu item)."""
    if value is None or value is False:
        return {"health": "no health", "ally": "own pawn", "carry": "no artwork",
                "final": "not final"}.get(field, "none")
    if field == "health":
        if isinstance(value, dict):
            return ", ".join(f"{n} pays {k} health" for n, k in value.items())
        return f"pay {value} health"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if value is True:
        return {"ally": "the ally pawn", "carry": "carry artwork", "final": "final card"}.get(
            field, field)
    return {"to": f"to {value}", "leader": f"led by {value}", "pay": f"pay {value}",
            "card": f"card {value}", "from": f"from {value}"}.get(field, str(value))


def groups(ctrl: BoxController) -> list[Item]:
    """The commands the ruleset allows now, one item each (in the order of `GROUPS`)."""
    cmds = list(dict.fromkeys(r["cmd"] for r in _legal(ctrl) if r["cmd"] not in IN_BATTLE))
    order = list(GROUPS)
    cmds.sort(key=lambda c_: order.index(c_) if c_ in order else len(order))
    return [(GROUPS.get(cmd, cmd.replace("_", " ")), cmd) for cmd in cmds]


def candidates(ctrl: BoxController) -> list[dict[str, Any]]:
    """The legal requests of the command being chosen that fit the fields chosen so far."""
    form = ctrl.ui.form
    chosen: dict[str, str] = form.get("chosen", {})
    return [r for r in _legal(ctrl, form.get("cmd"))
            if all(_key(r.get(f)) == v for f, v in chosen.items())]


def next_field(requests: Sequence[dict[str, Any]]) -> str | None:
    """The first field whose value still differs among `requests` (None: they are one)."""
    fields = list(dict.fromkeys(f for r in requests for f in r if f != "cmd"))
    for f in fields:
        if len({_key(r.get(f)) for r in requests}) > 1:
            return f
    return None


def pick_items(ctrl: BoxController) -> list[Item]:
    """The values the next field may take: each from a legal request, each once."""
    found = candidates(ctrl)
    f = next_field(found)
    if f is None:
        return []
    values = list({_key(r.get(f)): r.get(f) for r in found}.items())
    return [(pick_label(ctrl, f, v), (f, k)) for k, v in values]


def pick_label(ctrl: BoxController, field: str, value: Any) -> str:
    """`label`, with a reroll's dice named by whose they are and its card by whose it is."""
    if field == "dice" and isinstance(value, list):
        return dice_words(ctrl, value)
    if field == "card" and ctrl.ui.form.get("cmd") == "reroll":
        chain = {x["id"]: x for x in _shown(ctrl).get("chain", [])}
        x = chain.get(value)
        if x is not None:
            clues = len(x["symbols"])
            return (f"card {card_no(value)} ({x['player']}, {clues} "
                    f"clue{'s' if clues > 1 else ''})")
    return label(field, value)


def _playing(ctrl: BoxController) -> bool:
    """An A.R.T. game is on and not over (the box may show these screens before one, or
    over another game's table while a new game of this one is set up)."""
    s = ctrl.session.state
    return (ctrl.session.ruleset.id == "art-project" and s.phase != "no_game"
            and not s.over)


def menu(ctrl: BoxController) -> list[Item]:
    s = ctrl.session.state
    out: list[Item] = []
    if _playing(ctrl) and s.battle is None and not s.pending:
        out.append(("Actions...", "acts"))
        if _legal(ctrl, "end_phase"):
            out.append(("End phase", "end"))
    if _playing(ctrl):
        out.append(("Undo...", "undo"))
    out.append(("New game", "new"))
    return out


def items(mode: str, state: Any, ui: Cursor, menu: Sequence[Item] = (),
          ctrl: BoxController | None = None) -> list[Item]:
    if mode == "menu":
        return list(menu)
    if ctrl is None:
        return []
    if mode == "acts":
        return groups(ctrl)
    if mode == "pick":
        return pick_items(ctrl)
    if mode == "card":
        return card_items(ctrl)
    if mode == "new":
        return new_items(ctrl)
    if mode == "choice":
        return [(choice_said(r["choice"]), r) for r in _legal(ctrl, "choose")]
    if mode == "battle":
        out: list[Item] = []
        found = _legal(ctrl)
        again = [r for r in found if r["cmd"] == "reroll"]
        if len(again) == 1:  # one reroll: itself; more: chosen card, then dice
            r = again[0]
            out.append((f"Reroll with card {card_no(r['card'])}: "
                        f"{dice_words(ctrl, r['dice'])}", r))
        elif again:
            out.append(("Reroll with a clue card...", {"cmd": "reroll", "pick": True}))
        for r in found:
            if r["cmd"] == "weapon":
                pay = f" ({label('health', r['health'])})" if r.get("health") else ""
                out.append((f"Weapon {r['player']}{pay}", r))
            elif r["cmd"] == "concede":
                out.append(("Concede", r))
        return out
    return []


def _items(ctrl: BoxController, mode: str) -> list[Item]:
    if mode == "menu":
        return ctrl._menu()  # (with the controller's own items: the phone page)
    return items(mode, ctrl.session.state, ctrl.ui, (), ctrl)


# ---- a mission card, section by section (ART-14) --------------------------------------------

SECTIONS = ("Spend", "Agents", "Gain", "Clues")
RESOURCES = ("fuel", "radio", "weapon")
MOST = {"spend": 6, "agents": 9, "gain": 6, "health": 6, "clues": 2}  # a count wraps to 0


def card_items(ctrl: BoxController) -> list[Item]:
    """The card's section being entered: a count per thing it may show (ROLL adds one), then
    on to the next section (the last: play the card)."""
    form = ctrl.ui.form
    card: dict[str, dict[str, int]] = form.setdefault("card", {k: {} for k in MOST})
    section = form.get("section", 0)
    s = ctrl.session.state
    if section == 0:
        keys = [("spend", r) for r in RESOURCES]
    elif section == 1:
        keys = [("agents", x.name) for x in s.mission.cities]
    elif section == 2:
        keys = [("gain", r) for r in RESOURCES] + [("health", p.name) for p in s.players]
    else:
        keys = [("clues", sym) for sym in s.catalog.symbols]
    out: list[Item] = []
    for part, what in keys:
        n = card[part].get(what, 0)
        word = f"health {what}" if part == "health" else what
        out.append((f"{word} {n}", (part, what)))
    last = section == len(SECTIONS) - 1
    out.append(("Play the card" if last else f"{SECTIONS[section + 1]} >",
                ("send",) if last else ("next",)))
    return out


def card_request(ctrl: BoxController) -> dict[str, Any]:
    """The play_card request the sections entered so far make (only what the card shows)."""
    form = ctrl.ui.form
    card = form.get("card", {k: {} for k in MOST})
    request: dict[str, Any] = dict(form["request"])
    for part in ("spend", "agents"):
        if any(card[part].values()):
            request[part] = {k: n for k, n in card[part].items() if n}
    gain: dict[str, Any] = {k: n for k, n in card["gain"].items() if n}
    if any(card["health"].values()):
        gain["health"] = {k: n for k, n in card["health"].items() if n}
    if gain:
        request["gain"] = gain
    clues = [sym for sym, n in card["clues"].items() for _ in range(n)]
    if clues:
        request["clues"] = clues
    return request


# ---- a new game from the box: players from [box], mission and difficulty by menu ------------

STAGES = ("players", "mission", "difficulty", "ally")


def _catalog(ctrl: BoxController) -> Any:
    from referee.games.art_project import RULESET

    return ctrl.session.catalog_for(RULESET)


def new_items(ctrl: BoxController) -> list[Item]:
    form = ctrl.ui.form
    stage = form.get("stage", 0)
    cat = _catalog(ctrl)
    if stage == 1:  # the missions whose board the catalog holds whole (others: the console)
        return [((m.name or m.id).split(" (")[0], m.id) for m in cat.missions.values()
                if not m.missing()]
    if stage == 2:
        from referee.games.art_project.state import DIFFICULTY_HEALTH

        return [(d, d) for d in DIFFICULTY_HEALTH]
    if stage == 3:
        return [(col, col) for col in cat.colours[1:]]
    return []


def _players(ctrl: BoxController) -> int:
    return int(ctrl.ui.form.get("players", min(max(ctrl.ui.players, 1), 4)))


def new_view(ctrl: BoxController) -> BoxView:
    form = ctrl.ui.form
    stage = form.get("stage", 0)
    n = _players(ctrl)
    if stage == 0:
        names = ctrl.player_names(n)
        return BoxView("new", title="The A.R.T. Project", big=str(n), source="players",
                       lines=("New game", ", ".join(names), "MENU:game"),
                       hint="NEXT:+1 ROLL:go on")
    found = new_items(ctrl)
    title = {1: "Which mission?", 2: "Difficulty?", 3: "Ally pawn colour?"}[stage]
    return BoxView("new", title=title, menu=tuple(x for x, _ in found),
                   cursor=ctrl.ui.index % max(1, len(found)), hint="ROLL:ok BACK:back")


def new_game(ctrl: BoxController) -> None:
    """Start the game the table chose (leaving an unfinished one: it said so first)."""
    from referee.games.art_project import RULESET

    form = ctrl.ui.form
    n = _players(ctrl)
    request: dict[str, Any] = {
        "cmd": "new_game", "players": [{"name": x} for x in ctrl.player_names(n)],
        "mission": form["mission"], "difficulty": form["difficulty"]}
    if n == 1:
        request["ally"] = form["ally"]
    ctrl._apply(RULESET.parse(request), ruleset=RULESET, abandon=ctrl.session.unfinished)
    ctrl.ui.overlay, ctrl.ui.form = None, {}


def sums(v: dict[str, Any]) -> tuple[str, ...]:
    """The battle's sums in two short lines (ART-20..22): team, agents."""
    return (f"Team {v['dice_sum']}+{v['weapon_bonus']}={v['strength']}",
            f"Agts {v['city_agents']}+{v['threat']}+{v['hq']}={v['agents_strength']}")


def view(ctrl: BoxController, mode: str) -> BoxView:
    ui = ctrl.ui
    if mode == "new":
        return new_view(ctrl)
    s = _shown(ctrl)
    labels = tuple(x for x, _ in _items(ctrl, mode))
    cursor = (ui.oindex if mode == "menu" else ui.index) % max(1, len(labels))
    if mode == "tray" and ctrl.dice.waiting is not None:
        w = ctrl.dice.waiting
        return BoxView("tray", title=f"Battle: roll {w.die}", big=w.die, source="tray",
                       lines=(f"Roll {die_words(ctrl, w.id or w.player)} in the tray.",),
                       hint="BACK:box rolls")
    if mode == "menu":
        return BoxView("menu", title="Menu", menu=labels, cursor=cursor,
                       hint="NEXT:move ROLL:ok")
    if mode == "confirm":
        from referee.words import undo_dice_lines

        words = ctrl.session.undo_words()
        target = ctrl.session.undo_target()
        dice = undo_dice_lines(target.events) if target is not None else ()
        return BoxView("confirm", title="Undo?", hint="ROLL:undo BACK:no",
                       lines=(words or "nothing to undo", *dice))
    if mode == "ask":
        form = ui.form
        head, text = form["words"]
        cmd = form["ask"]["cmd"]
        return BoxView("ask", title=head, lines=(text,),
                       hint=f"ROLL:{ASK_YES.get(cmd, 'yes')} BACK:{ASK_NO.get(cmd, 'no')}")
    if mode == "confirm_new":
        return BoxView("confirm", title="New game?", lines=("This game ends", "unfinished."),
                       hint="ROLL:yes BACK:no")
    if mode == "over":
        # (won or lost, and why, in the ruleset's words: not the reason's code)
        return BoxView("over", title="Game over", lines=(
            s["next"], "seed (check dice):", short_hex(s.get("seed"), 8)),
            hint="ROLL:new game")
    title = f"R{s['round']} {s['phase']}" + (" final" if s.get("final_round") else "")
    if mode == "verdict":
        entry = ctrl._entry(ui.ack)
        verdicts = [e for e in entry.events if e["type"] == "battle"] if entry else []
        v = verdicts[-1] if verdicts else None
        if v is None:
            return BoxView("verdict", title=title, hint="ROLL:ok")
        word = "WON" if v["won"] else f"short by {v['agents_strength'] - v['strength']}"
        dice = tuple(f"{die_words(ctrl, d)}: {n}" for d, n in dice_in_order(v))
        return BoxView("verdict", title=f"Battle {v['city']}",
                       lines=(word, *sums(v), *dice), hint="ROLL:ok")
    if mode == "battle":
        v = s["battle"]
        # (the sums' lines give way to a long menu: the title keeps the two strengths)
        title = f"Battle {v['city']}: {v['strength']} v {v['agents_strength']}"
        return BoxView("battle", title=title, lines=sums(v),
                       menu=labels, cursor=cursor, hint="NEXT:move ROLL:ok")
    if mode == "choice":
        # (the question in the title: a title is never given way to a menu, it pages)
        return BoxView("choice", title=f"{title}: {s['next']}", menu=labels,
                       cursor=cursor, hint="NEXT:move ROLL:ok")
    if mode == "acts":
        return BoxView("acts", title=f"{title}: do what?", menu=labels, cursor=cursor,
                       hint="ROLL:ok BACK:back")
    if mode == "pick":
        form = ui.form
        f = next_field(candidates(ctrl)) or ""
        head = GROUPS.get(form.get("cmd", ""), "").split(" (")[0]
        head = "Reroll" if form.get("cmd") == "reroll" else head
        return BoxView("pick", title=f"{head}: {FIELD_WORDS.get(f, f)}?", menu=labels,
                       cursor=cursor, hint="ROLL:ok BACK:back")
    if mode == "card":
        section = ui.form.get("section", 0)
        who = ui.form.get("request", {}).get("player", "")
        return BoxView("card", title=f"{who} {section + 1}/4 {SECTIONS[section]}",
                       menu=labels, cursor=cursor, hint="ROLL:+1/ok BACK:back")
    return BoxView("phase", title=title, lines=(s["next"],),
                   hint="ROLL:act MENU:more")


def idle(state: Any) -> BoxView:
    if getattr(state, "mission", None) is None:  # no game of it (yet): its name
        return BoxView("idle", lines=("The A.R.T. Project",), hint="any key: wake")
    where = "Game over" if state.over else f"Round {state.round} {state.phase}"
    return BoxView("idle", lines=(where, f"dice {short_hex(state.commitment, 5)}"),
                   hint="any key: wake")


# ---- the buttons -------------------------------------------------------------------------

def battle_dice(ctrl: BoxController, request: dict[str, Any]) -> list[str]:
    """The dice ids the ruleset rolls for `request` (its NeedDice), in its order."""
    need = ctrl.session.ruleset.decide(ctrl.session.state, ctrl.session.ruleset.parse(request))
    return [r.id for r in need.requests] if isinstance(need, NeedDice) else []


def roll_battle(ctrl: BoxController, request: dict[str, Any]) -> None:
    """ROLL on a battle (or a reroll): the tray's dice one after the other when a tray is
    connected, else the box's; the verdict is shown until the next press. A die an undo left
    on the table (the box's or the tray's) is not asked of the tray: the session reuses it."""
    parsed = ctrl.session.ruleset.parse(request)
    kept = ctrl.dice.kept_ids(parsed)
    ids = [d for d in battle_dice(ctrl, request) if d not in kept]
    got: dict[str, Roll] = {}

    def make(roll: Roll | None, last: str) -> Any:
        rolls = {**got, **({last: roll} if roll is not None else {})}
        return replace(parsed, rolls={**parsed.rolls, **rolls})

    def waiting(i: int) -> Waiting:
        die = ids[i]

        def then(roll: Roll) -> Waiting | None:
            got[die] = roll
            return waiting(i + 1) if i + 1 < len(ids) else None

        return Waiting(str(request.get("leader") or die), "d6",
                       lambda r: make(r, die), ("battle",), ack=True, then=then, id=die)

    if not ids or not ctrl.dice.wait_for(waiting(0)):
        ctrl._apply(parsed, ack=True)


def _cycle(ctrl: BoxController, mode: str, step: int, overlay: bool = False) -> None:
    size = max(1, len(_items(ctrl, mode)))
    if overlay:
        ctrl.ui.oindex = (ctrl.ui.oindex + step) % size
    else:
        ctrl.ui.index = (ctrl.ui.index + step) % size


def _chosen(ctrl: BoxController, mode: str) -> Any:
    found = _items(ctrl, mode)
    return found[ctrl.ui.index % len(found)][1] if found else None


def send(ctrl: BoxController, request: dict[str, Any]) -> None:
    """A request the ruleset listed (its fields all chosen): battles roll their dice (the
    tray's or the box's), a card asks for its sections, anything else is applied and said."""
    ui = ctrl.ui
    if request["cmd"] in ("battle", "reroll"):
        ui.step, ui.index, ui.form = None, 0, {}
        roll_battle(ctrl, request)
        return
    if request["cmd"] == "play_card":
        ui.step, ui.index = "card", 0
        ui.form = {"request": request, "section": 0, "card": {k: {} for k in MOST}}
        return
    apply(ctrl, request, ack=request["cmd"] == "weapon")


# ---- asked first: a move that spends from the van or health, or ends the game ---------------

ASK_WHAT = {"move": "Moving {player} to {to}", "unlock_ally": "Unlocking an ally die",
            "concede": "Conceding the battle", "weapon": "{player}'s weapon",
            "extra_draw": "{player}'s extra draw", "play_card": "{player}'s card",
            "end_phase": "Ending the phase", "give_clue": "Giving {card} to {to}"}
ASK_YES = {"move": "move", "unlock_ally": "unlock", "concede": "concede", "weapon": "add",
           "extra_draw": "draw", "play_card": "play", "end_phase": "end",
           "give_clue": "give"}
ASK_NO = {"move": "stay"}
NEVER_ASKED = ("choose",)  # the team's decision: its menu is the question


def _short_of(ctrl: BoxController, request: dict[str, Any]) -> str | None:
    """What the van lacks when `request` pays with health: the ruleset's refusal of the same
    request without the health ("not_enough_fuel": fuel), None when it is not that."""
    if not request.get("health"):
        return None
    bare = {k: v for k, v in request.items() if k != "health"}
    rules = ctrl.session.ruleset
    try:
        rules.decide(ctrl.session.state, rules.parse(bare))
    except Refusal as refusal:
        code = refusal.code
        return code.removeprefix("not_enough_") if code.startswith("not_enough_") else None
    return None


def _names(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def ask_words(ctrl: BoxController, request: dict[str, Any]) -> tuple[str, str] | None:
    """(title, what it costs and whether it ends the game, in words) when `request` spends a
    van token or health, or ends the game, as the ruleset's `decide` says it would (nothing
    is applied); None when it does neither, or its dice are not rolled yet."""
    if request["cmd"] in NEVER_ASKED:
        return None
    rules = ctrl.session.ruleset
    try:
        events = rules.decide(ctrl.session.state, rules.parse(request))
    except Refusal:
        return None  # (refused: sent as it is, the refusal says why)
    if isinstance(events, NeedDice):
        return None
    van: dict[str, int] = {}
    health: dict[str, int] = {}
    for e in events:
        if e["type"] == "paid":
            for r in ("fuel", "radio", "weapon"):
                van[r] = van.get(r, 0) + int(e.get(r, 0) or 0)
            for who, n in (e.get("health") or {}).items():
                health[who] = health.get(who, 0) + n
        elif e["type"] == "health_lost":
            health[e["player"]] = health.get(e["player"], 0) + e["count"]
    ends = any(e["type"] == "game_over" for e in events)
    costs = [f"{n} {r} from the van" for r, n in van.items() if n]
    costs += [f"{who} {n} health" for who, n in health.items() if n]
    if not costs and not ends:
        return None
    fields = {"player": "", "to": "", "card": "", **{k: str(v) for k, v in request.items()}}
    what = ASK_WHAT.get(request["cmd"], "This").format_map(fields)
    if request.get("ally"):
        what += " with the ally pawn"
    text = f"{what} costs {_names(costs)}" if costs else what
    short = _short_of(ctrl, request)
    if short is not None:
        held = int((_shown(ctrl).get("van") or {}).get(short, 0))
        text = f"{'Out' if held == 0 else 'Short'} of {short}: {text[0].lower()}{text[1:]}"
    if not ends:
        return "Pay for it?", f"{text}."
    # how it ends, in the ruleset's words ("The game is over: the team lost - ...")
    after = str(rules.state_json(rules.fold(ctrl.session.state, events)).get("next", ""))
    after = after.removeprefix("The game is over: ")
    return "Ends the game!", f"{text}{',' if costs else ''} and the game ends: {after}"


def _unask(ctrl: BoxController) -> None:
    """BACK on a question: to the screen the move was chosen on (a field's menu: the last
    field chosen, asked again; a card: its last section, as entered)."""
    ui = ctrl.ui
    ui.step, ui.index, ui.form = ui.form["was"]
    chosen = ui.form.get("chosen") if ui.step == "pick" else None
    if chosen:
        chosen.pop(list(chosen)[-1])
    elif ui.step == "pick":
        ui.step, ui.form = _home(ctrl), {}
    ui.index = 0


def apply(ctrl: BoxController, request: dict[str, Any], ack: bool = False,
          asked: bool = False) -> None:
    """Apply a listed request; one that spends from the van or health, or ends the game, is
    asked first (`ask_words`): ROLL goes on, BACK goes back to where it was chosen."""
    from referee.words import step_words

    if not asked:
        question = ask_words(ctrl, request)
        if question is not None:
            ui = ctrl.ui
            ui.form = {"ask": request, "ack": ack, "words": question,
                       "was": (ui.step, ui.index, ui.form)}
            ui.step, ui.index = "ask", 0
            return
    outcome = ctrl._apply(ctrl.session.ruleset.parse(request), ack=ack)
    ctrl.ui.step, ctrl.ui.index, ctrl.ui.form = None, 0, {}
    if not ack:
        say(ctrl, step_words(ctrl.session.ruleset, outcome.entry.command,
                             outcome.entry.events))


NOTICE_ROWS = 3  # the rows a notice shows (`BoxController._say`)


def say(ctrl: BoxController, text: str) -> None:
    """`text` as notices of `NOTICE_ROWS` rows each, one after the other (by the clock, or a
    press), so a long step is said whole: none ends cut."""
    found = rows(text)
    for i in range(0, len(found), NOTICE_ROWS):
        ctrl._say(" ".join(found[i:i + NOTICE_ROWS]), queue=i > 0)


def _acts(ctrl: BoxController, action: str) -> None:
    ui = ctrl.ui
    if action == "back":
        ui.step, ui.index = None, 0
    elif action == "next":
        _cycle(ctrl, "acts", 1)
    elif action in GO:
        cmd = _chosen(ctrl, "acts")
        if cmd is None:
            return
        ui.step, ui.index, ui.form = "pick", 0, {"cmd": cmd, "chosen": {}}
        _settle_pick(ctrl)


def _settle_pick(ctrl: BoxController) -> None:
    """When the fields chosen leave one request: send it."""
    found = candidates(ctrl)
    if found and next_field(found) is None:
        send(ctrl, found[0])
    elif not found:  # (the state changed under the menu: start again)
        ctrl.ui.step, ctrl.ui.index, ctrl.ui.form = _home(ctrl), 0, {}


def _home(ctrl: BoxController) -> str | None:
    """Where a choice of fields goes back to: the battle's screen (a reroll), or the
    actions."""
    return None if ctrl.ui.form.get("cmd") == "reroll" else "acts"


def _pick(ctrl: BoxController, action: str) -> None:
    ui = ctrl.ui
    chosen: dict[str, str] = ui.form.setdefault("chosen", {})
    if action == "back":  # the field chosen last is asked again; from the first: home
        if not chosen:
            ui.step, ui.form = _home(ctrl), {}
        else:
            chosen.pop(list(chosen)[-1])
            if next_field(candidates(ctrl)) is None:  # (a field with one value: back again)
                chosen.clear()
        ui.index = 0
    elif action == "next":
        _cycle(ctrl, "pick", 1)
    elif action in GO:
        picked = _chosen(ctrl, "pick")
        if picked is None:
            return
        f, key = picked
        chosen[f] = key
        ui.index = 0
        _settle_pick(ctrl)


def _card(ctrl: BoxController, action: str) -> None:
    ui = ctrl.ui
    form = ui.form
    if action == "back":
        if form.get("section", 0) == 0:
            ui.step, ui.index, ui.form = "acts", 0, {}
        else:
            form["section"] -= 1
            ui.index = 0
    elif action == "next":
        _cycle(ctrl, "card", 1)
    elif action in GO:
        what = _chosen(ctrl, "card")
        if what == ("next",):
            form["section"] += 1
            ui.index = 0
        elif what == ("send",):
            apply(ctrl, card_request(ctrl))
        elif what is not None:
            part, key = what
            counts = form["card"][part]
            counts[key] = (counts.get(key, 0) + 1) % (MOST[part] + 1)


def _new(ctrl: BoxController, action: str) -> None:
    ui = ctrl.ui
    form = ui.form
    stage = form.get("stage", 0)
    if action == "menu":  # the menu: New game (the chooser), the phone page
        ui.overlay, ui.oindex = "menu", 0
        return
    if stage == 0:
        n = _players(ctrl)
        if action in ("next", "back"):
            form["players"] = (n - 1 + (1 if action == "next" else -1)) % 4 + 1
        elif action in GO:
            form["players"], form["stage"], ui.index = n, 1, 0
        return
    if action == "back":
        form["stage"], ui.index = stage - 1, 0
    elif action == "next":
        _cycle(ctrl, "new", 1)
    elif action in GO:
        picked = _chosen(ctrl, "new")
        if picked is None:
            return
        form[STAGES[stage]] = picked
        ui.index = 0
        if stage == 2 and _players(ctrl) == 1:
            form["stage"] = 3
        elif stage == 1:
            form["stage"] = 2
        else:
            new_game(ctrl)


def handle(ctrl: BoxController, mode: str, action: str) -> None:
    ui = ctrl.ui
    if mode == "new":
        _new(ctrl, action)
        return
    if action == "undo" and mode not in ("confirm", "over"):
        ui.overlay, ui.oindex = "confirm", 0
        return
    if action == "menu":
        ui.overlay = None if ui.overlay in ("menu", "confirm", "confirm_new") else "menu"
        ui.oindex = 0
        return
    step = {"next": 1, "back": -1}.get(action)
    if mode == "menu":
        if step is not None:
            _cycle(ctrl, "menu", step, overlay=True)
            return
        found = _items(ctrl, mode)
        if action in GO and found:
            what = found[ui.oindex % len(found)][1]
            ui.overlay = None
            if what == "undo":
                ui.overlay = "confirm"
            elif what == "acts":
                ui.step, ui.index, ui.form = "acts", 0, {}
            elif what == "end":
                apply(ctrl, {"cmd": "end_phase"})
            elif what == "new":
                if ctrl.session.unfinished:
                    ui.overlay = "confirm_new"
                else:
                    ctrl.choose_game()
        return
    if mode == "confirm":
        if action in GO:
            ui.overlay = None
            ctrl._apply(Undo())
        elif action == "back":
            ui.overlay = None
        return
    if mode == "confirm_new":
        if action in GO:
            ctrl.choose_game()
        elif action == "back":
            ui.overlay = None
        return
    if mode == "over":
        if action in GO:
            ctrl.choose_game()
        return
    if mode == "tray" and action == "back":
        waiting = ctrl.dice.give_up()
        if waiting is not None:
            ctrl._apply(waiting.make(None), ack=True)
        return
    if mode == "ask":
        form = ui.form
        if action in GO:
            apply(ctrl, form["ask"], ack=form["ack"], asked=True)
        elif action == "back":
            _unask(ctrl)
        return
    if mode == "verdict" and action in (*GO, "back"):
        ui.ack = None
        return
    if mode in ("choice", "battle"):  # the team's decision, the open battle: as listed
        if step is not None:
            _cycle(ctrl, mode, step)
            return
        request = _chosen(ctrl, mode) if action in GO else None
        if request is not None and request.get("pick"):  # rerolls: the card, the dice
            ui.step, ui.index, ui.form = "pick", 0, {"cmd": request["cmd"], "chosen": {}}
            _settle_pick(ctrl)
        elif request is not None:
            ui.index = 0
            send(ctrl, request)
        return
    handler = {"acts": _acts, "pick": _pick, "card": _card}.get(mode)
    if handler is not None:
        handler(ctrl, action)
        return
    if mode == "phase" and action in GO:
        ui.step, ui.index, ui.form = "acts", 0, {}
    elif ui.overlay is not None and mode == ui.overlay:  # another game's overlay: put away
        ui.overlay = None


OLED = OledScreens(cursor=Cursor, mode=mode, menu=menu,
                   items=lambda mode_, state, ui, menu_=(): [], view=view, idle=idle,
                   handle=handle, starts=True)
