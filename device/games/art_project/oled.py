"""The A.R.T. Project on the box: the phase and the `next` line, the MENU of legal actions
the box can send alone (end the phase, start a battle, undo), and a battle without the
console: ROLL on a battle rolls its dice (the tray's, one die after the other, when a tray
is connected; else the box's), the sums come up term by term, and ROLL again goes on:
reroll, weapon or concede, as the ruleset lists them. Found by the game's id in the entry-point
group ``tableside_referee.oled_screens`` (pyproject.toml); every figure is the ruleset's
(`state_json`, `legal_actions`, the battle verdict) and the box decides no rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from device.traydice import Waiting
from device.view import BoxView, Cursor, Item, OledScreens, fit, short_hex, wrap
from referee.dice import Roll
from referee.games.art_project import commands as c
from referee.ruleset import NeedDice, Undo

if TYPE_CHECKING:
    from device.box import BoxController

GO = ("roll", "select")


def _shown(ctrl: BoxController) -> dict[str, Any]:
    return ctrl.session.ruleset.state_json(ctrl.session.state)


def _legal(ctrl: BoxController, cmd: str) -> list[dict[str, Any]]:
    found = ctrl.session.ruleset.legal_actions(ctrl.session.state, None)
    return [r for r in found if r["cmd"] == cmd]


def mode(ctrl: BoxController) -> str:
    """The screen the state calls for: the verdict of a battle just fought (until a press),
    the open battle, the team's choice (on the console), the end, or the phase."""
    ui, s = ctrl.ui, ctrl.session.state
    if ui.ack is not None:
        if ctrl._entry(ui.ack) is not None:
            return "verdict"
        ui.ack = None
    if s.phase == "no_game":
        return "none"
    if s.over:
        return "over"
    if s.battle is not None:
        return "battle"
    if s.pending:
        return "choice"
    return ui.step or "phase"


def menu(ctrl: BoxController) -> list[Item]:
    s = ctrl.session.state
    out: list[Item] = []
    if s.phase != "no_game" and not s.over and s.battle is None and not s.pending:
        if _legal(ctrl, "battle"):
            out.append(("Battle...", "battles"))
        if _legal(ctrl, "end_phase"):
            out.append(("End phase", "end"))
    out.append(("Undo...", "undo"))
    return out


def items(mode: str, state: Any, ui: Cursor, menu: Sequence[Item] = (),
          ctrl: BoxController | None = None) -> list[Item]:
    if mode == "menu":
        return list(menu)
    if ctrl is None:
        return []
    if mode == "battles":
        return [(fit(f"{r['city']}: {r['leader']}", 19), r) for r in _legal(ctrl, "battle")]
    if mode == "choice":
        return [(fit(str(r["choice"]), 19), r) for r in _legal(ctrl, "choose")]
    if mode == "battle":
        out: list[Item] = [(fit(f"Reroll {r['card']}", 12), r) for r in _legal(ctrl, "reroll")]
        out += [(fit(f"Weapon {r['player']}", 12), r) for r in _legal(ctrl, "weapon")]
        out.append(("Concede", {"cmd": "concede"}))
        return out
    return []


def _items(ctrl: BoxController, mode: str) -> list[Item]:
    return items(mode, ctrl.session.state, ctrl.ui, menu(ctrl), ctrl)


def sums(v: dict[str, Any]) -> tuple[str, ...]:
    """The battle's sums in two short lines (ART-20..22): team, agents."""
    return (fit(f"Team {v['dice_sum']}+{v['weapon_bonus']}={v['strength']}"),
            fit(f"Agts {v['city_agents']}+{v['threat']}+{v['hq']}={v['agents_strength']}"))


def view(ctrl: BoxController, mode: str) -> BoxView:
    ui = ctrl.ui
    s = _shown(ctrl)
    labels = tuple(label for label, _ in _items(ctrl, mode))
    if mode == "tray" and ctrl.dice.waiting is not None:
        w = ctrl.dice.waiting
        return BoxView("tray", title=f"Battle: roll {w.die}", big=w.die, source="tray",
                       lines=(fit(f"die for {w.player}"), "Roll in the tray."),
                       hint="BACK:box rolls")
    if mode == "menu":
        return BoxView("menu", title="Menu", menu=labels, cursor=ui.oindex % max(1, len(labels)),
                       hint="NEXT:move ROLL:ok")
    if mode == "confirm":
        from referee.words import undo_dice_lines

        words = ctrl.session.undo_words()
        target = ctrl.session.undo_target()
        dice = undo_dice_lines(target.events) if target is not None else ()
        return BoxView("confirm", title="Undo?", hint="ROLL:undo BACK:no",
                       lines=(*wrap(words or "nothing to undo", lines=4 - len(dice)), *dice))
    if mode == "none":
        return BoxView("none", title="The A.R.T. Project",
                       lines=wrap("Start a game on the console.", lines=2))
    if mode == "over":
        result = s.get("result") or {}
        return BoxView("over", title="Game over", lines=(
            fit(f"The team {result.get('outcome', '')}"), fit(str(result.get("reason", ""))),
            "seed (check dice):", short_hex(s.get("seed"), 8)))
    title = fit(f"R{s['round']} {s['phase']}" + (" final" if s.get("final_round") else ""))
    if mode == "verdict":
        entry = ctrl._entry(ui.ack)
        verdicts = [e for e in entry.events if e["type"] == "battle"] if entry else []
        v = verdicts[-1] if verdicts else None
        if v is None:
            return BoxView("verdict", title=title, hint="ROLL:ok")
        word = "WON" if v["won"] else f"short by {v['agents_strength'] - v['strength']}"
        dice = " ".join(str(n) for n in v["dice"].values())
        return BoxView("verdict", title=fit(f"Battle {v['city']}"),
                       lines=(fit(f"dice {dice}"), *sums(v), word), hint="ROLL:ok")
    if mode == "battle":
        v = s["battle"]
        return BoxView("battle", title=fit(f"Battle {v['city']}"), lines=sums(v),
                       menu=labels, cursor=ui.index % max(1, len(labels)),
                       hint="NEXT:move ROLL:ok")
    if mode == "battles":
        return BoxView("battles", title="Battle where?", menu=labels,
                       cursor=ui.index % max(1, len(labels)), hint="ROLL:roll BACK:back")
    if mode == "choice":
        return BoxView("choice", title=title, lines=wrap(s["next"], lines=2), menu=labels,
                       cursor=ui.index % max(1, len(labels)), hint="NEXT:move ROLL:ok")
    return BoxView("phase", title=title, lines=wrap(s["next"], lines=4),
                   hint="MENU:actions")


def idle(state: Any) -> BoxView:
    where = "Game over" if state.over else (
        "The A.R.T. Project" if state.phase == "no_game" else f"Round {state.round} {state.phase}")
    return BoxView("idle", lines=(fit(where), f"dice {short_hex(state.commitment, 5)}"),
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


def handle(ctrl: BoxController, mode: str, action: str) -> None:
    ui = ctrl.ui
    if action == "undo" and mode != "confirm":
        ui.overlay, ui.oindex = "confirm", 0
        return
    if action == "menu":
        ui.overlay = None if ui.overlay in ("menu", "confirm") else "menu"
        ui.oindex, ui.step = 0, None
        return
    step = {"next": 1, "back": -1}.get(action)
    if mode == "menu":
        found = _items(ctrl, mode)
        if step is not None:
            ui.oindex = (ui.oindex + step) % max(1, len(found))
        elif action in GO and found:
            what = found[ui.oindex % len(found)][1]
            ui.overlay = "confirm" if what == "undo" else None
            if what == "battles":
                ui.step, ui.index = "battles", 0
            elif what == "end":
                ctrl._apply(c.EndPhase())
        return
    if mode == "confirm":
        if action in GO:
            ui.overlay = None
            ctrl._apply(Undo())
        elif action == "back":
            ui.overlay = None
        return
    if mode == "tray" and action == "back":
        waiting = ctrl.dice.give_up()
        if waiting is not None:
            ctrl._apply(waiting.make(None), ack=True)
        return
    if mode == "verdict" and action in (*GO, "back"):
        ui.ack = None
        return
    if mode == "choice":  # the team's decision: the ruleset's legal choose requests
        found = _items(ctrl, mode)
        if step is not None:
            ui.index = (ui.index + step) % max(1, len(found))
        elif action in GO and found:
            request = found[ui.index % len(found)][1]
            ui.index = 0
            ctrl._apply(ctrl.session.ruleset.parse(request))
        return
    if mode in ("battles", "battle"):
        found = _items(ctrl, mode)
        if mode == "battles" and action == "back" and step is not None:
            ui.step = None
            return
        if step is not None:
            ui.index = (ui.index + step) % max(1, len(found))
            return
        if action in GO and found:
            request = found[ui.index % len(found)][1]
            ui.step, ui.index = None, 0
            if request["cmd"] in ("battle", "reroll"):
                roll_battle(ctrl, request)
            else:
                ctrl._apply(ctrl.session.ruleset.parse(request), ack=request["cmd"] == "weapon")
        return
    if mode == "phase" and action in GO and _legal(ctrl, "battle"):
        ui.step, ui.index = "battles", 0


OLED = OledScreens(cursor=Cursor, mode=mode, menu=menu,
                   items=lambda mode_, state, ui, menu_=(): [], view=view, idle=idle,
                   handle=handle)
