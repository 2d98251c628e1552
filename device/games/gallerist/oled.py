"""The Gallerist on the box: the standings (the box controller, `device.box`, finds these by
the game's id in the entry-point group ``tableside_referee.oled_screens``).

The box shows who leads: in play by money, in final scoring by total (a total still owed is
shown as "..." and such a player ranks last), three players a page (NEXT turns the page).
Every figure is the ruleset's (`state_json`); the box words them and works no rule out again.
The table records the game at the console or headless; the box's buttons only page and undo.
"""

from __future__ import annotations

from typing import Any

from device.view import BoxView, Cursor, Item, OledScreens, fit, short_hex

PER_PAGE = 3


def standings(state: dict[str, Any]) -> list[tuple[str, int | None, str]]:
    """(name, the figure ranked by, its words) best first: money in play, the total in final
    scoring (None while owed). Ties keep seat order."""
    scoring = state.get("scoring")
    if scoring is not None:
        rows = [(p["name"], p["total"], "..." if p["total"] is None else str(p["total"]))
                for p in scoring["players"]]
    else:
        rows = [(p["name"], p["money"], f"${p['money']}") for p in state.get("players") or []]
    return sorted(rows, key=lambda r: (r[1] is None, -(r[1] or 0)))


def place(rows: list[tuple[str, int | None, str]], figure: int | None) -> str:
    """A player's place: 1 + those strictly ahead, so tied players share it ("-" while the
    figure is owed)."""
    if figure is None:
        return "-"
    return str(1 + sum(1 for _, f, _ in rows if f is not None and f > figure))


def _state(ctrl: Any) -> dict[str, Any]:
    session = ctrl.session
    data: dict[str, Any] = session.ruleset.state_json(session.state)
    return data


def mode(ctrl: Any) -> str:
    state = _state(ctrl)
    if state.get("phase") == "no_game":
        return "new"
    return "over" if state.get("over") else "standings"


def menu(ctrl: Any) -> list[Item]:
    return [("Undo...", "undo")]


def items(mode: str, state: Any, ui: Any, menu: list[Item] | None = None) -> list[Item]:
    return list(menu or []) if mode == "menu" else []


def view(ctrl: Any, mode: str) -> BoxView:
    state = _state(ctrl)
    if mode == "new":
        return BoxView("new", title="The Gallerist", lines=("Start the game at", "the console."))
    rows = standings(state)
    pages = max(1, (len(rows) + PER_PAGE - 1) // PER_PAGE)
    page = ctrl.ui.oindex % pages
    shown = rows[page * PER_PAGE:(page + 1) * PER_PAGE]
    lines = tuple(fit(f"{place(rows, figure)} {fit(name, 8):<8} {words:>5}", 16)
                  for name, figure, words in shown)
    if mode == "over":
        winners = ", ".join((state.get("result") or {}).get("winners") or [])
        return BoxView("over", title="Game over", lines=(fit(f"{winners} won"), *lines),
                       hint="seed " + short_hex(state.get("seed"), 5))
    final = state.get("phase") == "final_scoring"
    last = " last" if state.get("in_final_round") else ""
    if pages == 1:
        head = "Final scoring" if final else f"Round {state.get('round')}{last}"
    else:
        head = ("Final" if final else f"R{state.get('round')}{last}") + f" {page + 1}/{pages}"
    return BoxView("standings", title=fit(head, 15), lines=lines,
                   hint="NEXT:page" if pages > 1 else "")


def idle(state: Any) -> BoxView:
    return BoxView("idle", lines=("The Gallerist",), hint="any key: wake")


def handle(ctrl: Any, mode: str, action: str) -> None:
    """NEXT turns the standings' page; undo takes the last step back (as at the console)."""
    if action in ("next", "select"):
        ctrl.ui.oindex += 1
    elif action == "undo":
        from referee.ruleset import Undo

        ctrl.session.apply(Undo())


OLED = OledScreens(cursor=Cursor, mode=mode, menu=menu, items=items, view=view,
                   idle=idle, handle=handle)
