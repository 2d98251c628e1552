"""The Gallerist on the box: the table's clock on four buttons (the box controller,
`device.box`, finds these by the game's id in the entry-point group
``tableside_referee.oled_screens``).

The clock screen says whose turn it is, what is pending (a kicked-out player's action, an
intermediate scoring, the start places, what final scoring still owes), what the turn may do
now and when the end comes; ROLL opens the list of what the box can send now: the ruleset's
`legal_actions`, no more (setup ticks, a starting place, a move, the location and executive
actions, the end of the turn, a kicked-out player's action, a ticket, a visitor the box draws
from the bag, an auction pick the catalog can value, the final scoring). NEXT ends the turn
(as on Gallery Grippers' box: the ruleset refuses it, with its rule, while the turn owes a
step). What needs a figure only the table knows (a money or influence change, a score, who
qualifies in an intermediate scoring) is entered at the console. The standings (MENU held,
or Standings in MENU) rank by money in play and by total in final scoring (a total still
owed is "..." and ranks last); the end shows the winner and the standings. Every figure is
the ruleset's (`state_json`, `legal_actions`, `undo_words`); the box decides no rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.view import BoxView, Cursor, Item, OledScreens, short_hex
from referee.ruleset import Undo

PER_PAGE = 3
GO = ("roll", "select")
STANDINGS = "standings"  # the overlay with every player's figure, three a page
SUBMENUS = {"move": "moves", "take_ticket": "tickets"}  # one item opens a list of these
CLOCK_WORDS = {"move": "move", "location_action": "action", "executive": "exec",
               "end_turn": "end turn"}
EXECUTIVE_WORDS = {"tickets": "tickets", "contract_bonus": "contract"}
BOX_CMDS = ("place_start", "check", "draw_visitor", "kickout_action", "move",
            "location_action", "executive", "end_turn", "take_ticket", "auction_pick",
            "final_scoring")  # what the box sends; the rest needs figures from the table


def standings(state: dict[str, Any]) -> list[tuple[str, int | None, str]]:
    """(name, the figure ranked by, its words) best first: money in play, the total in final
    scoring (None while owed); at the end, the ruleset's places (`scoring.players[].place`:
    the tiebreakers decide, GAL-24). Ties keep seat order."""
    scoring = state.get("scoring")
    if scoring is not None:
        rows = [(p["name"], p["total"], "..." if p["total"] is None else str(p["total"]))
                for p in scoring["players"]]
        final = _final_places(state)
        if final:
            return sorted(rows, key=lambda r: final[r[0]])
    else:
        rows = [(p["name"], p["money"], f"${p['money']}") for p in state.get("players") or []]
    return sorted(rows, key=lambda r: (r[1] is None, -(r[1] or 0)))


def _final_places(state: dict[str, Any]) -> dict[str, int]:
    """The ruleset's places once the game is over (empty before): never recounted here."""
    players = (state.get("scoring") or {}).get("players") or []
    if not state.get("over") or any(p.get("place") is None for p in players):
        return {}
    return {p["name"]: int(p["place"]) for p in players}


def place(rows: list[tuple[str, int | None, str]], figure: int | None,
          final: int | None = None) -> str:
    """A player's place: the ruleset's at the end (`final`); before it 1 + those strictly
    ahead, so tied players share it ("-" while the figure is owed)."""
    if final is not None:
        return str(final)
    if figure is None:
        return "-"
    return str(1 + sum(1 for _, f, _ in rows if f is not None and f > figure))


def _state(ctrl: Any) -> dict[str, Any]:
    session = ctrl.session
    data: dict[str, Any] = session.ruleset.state_json(session.state)
    return data


def _legal(ctrl: Any) -> list[dict[str, Any]]:
    """What the box can send now: the ruleset's legal actions it needs no figure for."""
    found = [r for r in ctrl.session.ruleset.legal_actions(ctrl.session.state, None)
             if r["cmd"] in BOX_CMDS]
    # a kicked-out action is offered with "desk" only where the ruleset needs it said
    plain = {(r["player"], r["kind"]) for r in found
             if r["cmd"] == "kickout_action" and "desk" not in r}
    return [r for r in found if not (r["cmd"] == "kickout_action" and "desk" in r
                                     and (r["player"], r["kind"]) in plain)]


# ---- words ---------------------------------------------------------------------------------

def label(request: dict[str, Any]) -> str:
    """A legal request as a menu item, whole: the OLED's layout wraps it by words
    (`device.view.layout`), never cutting one."""
    cmd = request["cmd"]
    if cmd == "kickout_action":
        desk = {True: " +desk", False: " no desk"}.get(request.get("desk"), "")
        to = f" to {request['influence']}" if request.get("influence") is not None else ""
        kind = {"executive": "exec", "location": "location"}.get(
            request["kind"], request["kind"])
        return f"{request['player']}: {kind}{to}{desk}"
    if cmd == "place_start":  # the screen's title names whose place it is
        return f"Start: {request['location']}"
    if cmd == "check":
        return f"Tick: {request['item']}"
    if cmd == "move":  # (an assistant left behind, where the ruleset offers it, is said)
        leave = request.get("leave_assistant")
        if leave:
            return f"{request['to']} +{leave}"
        return str(request["to"])
    if cmd == "executive":
        kind = str(request["kind"])
        return "Exec: " + EXECUTIVE_WORDS.get(kind, kind.replace("_", " "))
    if cmd == "take_ticket":
        return f"{request['colour']} ticket"
    if cmd == "draw_visitor":
        return "Draw a visitor"
    if cmd == "auction_pick":
        return f"{request['player']} {request['easel']} {request['counts_as']}"
    if cmd == "location_action":
        return "Location action"
    if cmd == "end_turn":
        return "End turn"
    if cmd == "final_scoring":
        return "Final scoring"
    return str(cmd).replace("_", " ")


def pending_lines(state: dict[str, Any]) -> tuple[str, ...]:
    """What the table owes first (the state's ``pending``), in short lines, whole."""
    pending = state.get("pending") or []
    if not pending:
        return ()
    p = pending[0]
    decision, who = p["decision"], p.get("player")
    if decision == "kickout":
        action = ("final round: it goes back" if p.get("options") == ["pass"]
                  else "an action, or pass")
        pieces = p.get("pieces") or [p.get("piece")]
        what = pieces[0] if len(pieces) == 1 else f"{len(pieces)} pieces"  # (one action)
        return (f"{who} kicked out:", f"{what}, {p.get('location')}", action)
    if decision == "intermediate":
        return (f"{p.get('stack')} tickets out:", "score at the console")
    if decision == "start_place":
        return (f"{who}: place gallerist",)
    if decision == "auction_pick":
        return (f"{who}: auction pick",)
    if decision == "score":
        return (f"{who} owes {len(p.get('options') or [])}",)
    return (f"{who or 'table'}: {decision}",)


def _now_line(legal: list[dict[str, Any]], current: str | None) -> str:
    """The turn's steps the ruleset allows now, in words."""
    cmds = [r["cmd"] for r in legal if r["cmd"] in ("move", "location_action", "executive",
                                                       "end_turn")
            and r.get("player") == current]
    words = [CLOCK_WORDS[c] for c in dict.fromkeys(cmds)]
    return "now: " + ", ".join(words) if words else ""


def _end_line(state: dict[str, Any]) -> str:
    if state.get("in_final_round"):
        return "the final round"
    trigger = state.get("end_triggered")
    if trigger is not None:
        return f"end: R{state.get('final_round')} is last"
    return ""


# ---- the screens ---------------------------------------------------------------------------

def mode(ctrl: Any) -> str:
    ui = ctrl.ui
    if ui.ack is not None:
        if ctrl._entry(ui.ack) is not None:
            return "drawn"
        ui.ack = None
    state = _state(ctrl)
    if state.get("phase") == "no_game":
        return "new"
    if state.get("over"):
        return "over"
    return ui.step or "clock"


def menu(ctrl: Any) -> list[Item]:
    state = _state(ctrl)
    out: list[Item] = []
    if state.get("phase") != "no_game" and not state.get("over") and _legal(ctrl):
        out.append(("Actions...", "actions"))
    if state.get("phase") != "no_game":
        out.append(("Standings", STANDINGS))
    out.append(("Undo...", "undo"))
    return out


def _grouped(legal: list[dict[str, Any]]) -> list[Item]:
    """The actions list: every legal request an item, moves and tickets each one item that
    opens their own list, in the ruleset's order."""
    out: list[Item] = []
    for r in legal:
        sub = SUBMENUS.get(r["cmd"])
        if sub is None:
            out.append((label(r), r))
        elif all(what != sub for _, what in out):
            out.append(({"moves": "Move...", "tickets": "Ticket..."}[sub], sub))
    return out


def items(mode: str, state: Any, ui: Any, menu: Sequence[Item] = (),
          ctrl: Any = None) -> list[Item]:
    if mode == "menu":
        return list(menu)
    if ctrl is None:
        return []
    legal = _legal(ctrl)
    if mode == "actions":
        return _grouped(legal)
    if mode in SUBMENUS.values():
        cmd = next(c for c, sub in SUBMENUS.items() if sub == mode)
        return [(label(r), r) for r in legal if r["cmd"] == cmd]
    return []


def _items(ctrl: Any, mode: str) -> list[Item]:
    return items(mode, ctrl.session.state, ctrl.ui, ctrl._menu(), ctrl)


def _standings_lines(state: dict[str, Any], page: int) -> tuple[tuple[str, ...], int]:
    rows = standings(state)
    final = _final_places(state)
    pages = max(1, (len(rows) + PER_PAGE - 1) // PER_PAGE)
    shown = rows[(page % pages) * PER_PAGE:(page % pages + 1) * PER_PAGE]
    # whole names: a long one wraps to a row of its own (`device.view.layout`), never cut
    return tuple(f"{place(rows, figure, final.get(name))} {name:<8} {words:>5}"
                 for name, figure, words in shown), pages


def _clock_view(ctrl: Any, state: dict[str, Any]) -> BoxView:
    legal = _legal(ctrl)
    hint = "ROLL:actions" if legal else "MENU:menu"
    phase = state.get("phase")
    if phase == "setup":
        checklist = (state.get("setup") or {}).get("checklist") or []
        done = sum(1 for c in checklist if c["done"])
        return BoxView("clock", title="Setup", lines=(
            *pending_lines(state), f"checklist {done}/{len(checklist)} done",
            _bag_line(state)), hint=hint)
    if phase == "final_scoring":
        owed = len((state.get("scoring") or {}).get("owed") or [])
        lines, pages = _standings_lines(state, ctrl.ui.oindex)
        head = f"owed: {owed} entr{'y' if owed == 1 else 'ies'}" if owed else "all in"
        return BoxView("clock", title="Final scoring" + (
            f" {ctrl.ui.oindex % pages + 1}/{pages}" if pages > 1 else ""),
            lines=(head, *lines), hint=hint)
    current = state.get("current")
    player = next((p for p in state.get("players") or [] if p["name"] == current), None)
    title = f"R{state.get('round')} turn: {current}"
    lines = list(pending_lines(state))
    if not lines and player is not None:
        lines.append(f"${player['money']} influence {player['influence']}")
        lines.append(_now_line(legal, current))
    lines.append(_bag_line(state))
    lines.append(_end_line(state))
    # every line whole: what does not fit the screen shows page by page (`device.view`)
    body = tuple(line for line in lines if line)
    if any(r["cmd"] == "end_turn" for r in legal):
        hint = "ROLL:actions NEXT:end"
    return BoxView("clock", title=title, lines=body, hint=hint)


def view(ctrl: Any, mode: str) -> BoxView:
    ui = ctrl.ui
    state = _state(ctrl)
    if mode == "new":
        return BoxView("new", title="The Gallerist", lines=("Start the game at", "the console."))
    if mode == "menu":
        labels = tuple(text for text, _ in _items(ctrl, mode))
        return BoxView("menu", title="Menu", menu=labels,
                       cursor=ui.oindex % max(1, len(labels)), hint="NEXT:move ROLL:ok")
    if mode == "confirm":
        words = ctrl.session.undo_words()
        return BoxView("confirm", title="Undo?", lines=(words or "nothing to undo",),
                       hint="ROLL:undo BACK:no")
    if mode == "drawn":
        entry = ctrl._entry(ui.ack)
        drawn = [e for e in (entry.events if entry else []) if e["type"] == "visitor_drawn"]
        colour = drawn[-1].get("colour") if drawn else None
        who = drawn[-1].get("player") if drawn else None
        lines = (f"{colour or 'a'} visitor", *((f"for {who}",) if who else ()))
        return BoxView("drawn", title="Visitor drawn", lines=(
            *lines, f"left in the bag: {_bag_words(state)}"),
            hint="any key: ok")
    if mode in ("actions", *SUBMENUS.values()):
        labels = tuple(text for text, _ in _items(ctrl, mode))
        title = {"actions": "Now", "moves": "Move to", "tickets": "Take a ticket"}[mode]
        due = next((p.get("player") for p in state.get("pending") or [] if p.get("player")),
                   state.get("current"))
        if mode == "actions" and due:
            title = f"{due}: now"
        return BoxView(mode, title=title, menu=labels or ("(nothing now)",),
                       cursor=ui.index % max(1, len(labels)), hint="ROLL:ok BACK:back")
    if mode == STANDINGS or mode == "over":
        lines, pages = _standings_lines(state, ui.oindex)
        if mode == "over":
            winners = ", ".join((state.get("result") or {}).get("winners") or [])
            return BoxView("over", title="Game over", lines=(f"{winners} won", *lines),
                           hint="seed " + short_hex(state.get("seed"), 5))
        final = state.get("phase") == "final_scoring"
        last = " last" if state.get("in_final_round") else ""
        head = "Final scoring" if final else f"Round {state.get('round')}{last}"
        if pages > 1:
            head = ("Final" if final else f"R{state.get('round')}{last}") + \
                f" {ui.oindex % pages + 1}/{pages}"
        return BoxView(STANDINGS, title=head, lines=lines,
                       hint="NEXT:page BACK:close" if pages > 1 else "BACK:close")
    return _clock_view(ctrl, state)


def _bag_line(state: dict[str, Any]) -> str:
    """How many visitors the bag holds (the ruleset's count: every draw recorded)."""
    bag = state.get("bag")
    if bag is None:
        return "bag: not counted"
    total = sum(bag.values()) if isinstance(bag, dict) else int(bag)
    return f"bag: {total} visitor{'' if total == 1 else 's'}"


def _bag_words(state: dict[str, Any]) -> str:
    bag = state.get("bag")
    if isinstance(bag, dict):
        return ", ".join(f"{k} {v}" for k, v in bag.items()) or "empty"
    return "-" if bag is None else str(bag)


def idle(state: Any) -> BoxView:
    if state.phase == "no_game":
        where = "The Gallerist"
    elif state.over:
        where = "Game over"
    elif state.phase == "play":
        # who must act now: the first step the table owes comes before the turn (issue 39:
        # "R4 Cy" while the clock waited on Ann's kicked-out action)
        owed = state.queue[0] if state.queue else None
        if owed is None or (owed.decision != "intermediate" and not owed.player):
            where = f"R{state.round} {state.current}"
        elif owed.decision == "kickout":
            where = f"R{state.round} {owed.player}: kicked out"
        elif owed.decision == "intermediate":
            where = f"R{state.round}: scoring"
        else:
            where = f"R{state.round} {owed.player}"
    else:
        where = str(state.phase).replace("_", " ")
    return BoxView("idle", lines=(where, f"dice {short_hex(state.commitment, 5)}"),
                   hint="any key: wake")


# ---- the buttons ---------------------------------------------------------------------------

def _send(ctrl: Any, request: dict[str, Any]) -> None:
    """A legal request the box chose: a box draw's colour stays on screen until a press."""
    ctrl.ui.step, ctrl.ui.index = None, 0
    ctrl._apply(ctrl.session.ruleset.parse(request), ack=request["cmd"] == "draw_visitor")


def handle(ctrl: Any, mode: str, action: str) -> None:
    ui = ctrl.ui
    if mode == "drawn":  # any press: seen
        ui.ack = None
        return
    if action == "undo" and mode != "confirm":
        ui.overlay, ui.oindex = "confirm", 0
        return
    if action == "status":
        ui.overlay, ui.oindex = (None, 0) if ui.overlay == STANDINGS else (STANDINGS, 0)
        return
    if action == "menu":
        ui.overlay = None if ui.overlay in ("menu", "confirm", STANDINGS) else "menu"
        ui.oindex, ui.step = 0, None
        return
    step = {"next": 1, "back": -1}.get(action)
    if mode == "menu":
        found = _items(ctrl, mode)
        if step is not None:
            ui.oindex = (ui.oindex + step) % max(1, len(found))
        elif action in GO and found:
            what = found[ui.oindex % len(found)][1]
            ui.overlay, ui.oindex = None, 0
            if what == "undo":
                ui.overlay = "confirm"
            elif what == STANDINGS:
                ui.overlay = STANDINGS
            elif what == "actions":
                ui.step, ui.index = "actions", 0
        return
    if mode == "confirm":
        if action in GO:
            ui.overlay = None
            ctrl._apply(Undo())
        elif action == "back":
            ui.overlay = None
        return
    if mode == STANDINGS:
        if action in ("next", "select"):
            ui.oindex += 1
        elif action in ("back", "roll"):
            ui.overlay, ui.oindex = None, 0
        return
    if mode == "over":
        if action in ("next", "select"):
            ui.oindex += 1
        return
    if mode in ("actions", *SUBMENUS.values()):
        found = _items(ctrl, mode)
        if action == "back":
            ui.step, ui.index = ("actions" if mode != "actions" else None), 0
        elif action == "next" and found:
            ui.index = (ui.index + 1) % len(found)
        elif action in GO and found:
            what = found[ui.index % len(found)][1]
            if isinstance(what, str):  # a list of its own: the moves, the tickets
                ui.step, ui.index = what, 0
            else:
                _send(ctrl, what)
        return
    # the clock screen
    if action in GO:
        ui.step, ui.index = "actions", 0
    elif action == "next":
        state = _state(ctrl)
        if state.get("phase") == "final_scoring":
            ui.oindex += 1  # the standings' next page
        elif state.get("current"):
            ctrl._apply(ctrl.session.ruleset.parse(
                {"cmd": "end_turn", "player": state["current"]}))


OLED = OledScreens(cursor=Cursor, mode=mode, menu=menu,
                   items=lambda mode_, state, ui, menu_=(): [], view=view,
                   idle=idle, handle=handle)
