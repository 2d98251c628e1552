"""Gallery Grippers on the box: which screen a state calls for, the turn menu, and each screen's
view (the box controller, `device.box`, knows no game: it finds these by the game's id in the
entry-point group ``tableside_referee.oled_screens``, pyproject.toml)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from device.games.gallery_grippers import screens as sc
from device.games.gallery_grippers.actions import movement_roll
from device.view import BoxView, Cursor, Item, OledScreens
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.rules import queries
from referee.games.gallery_grippers.rules.queries import CHOICE_DECISIONS, Decision
from referee.games.gallery_grippers.state import Phase

if TYPE_CHECKING:
    from device.box import BoxController


# Why a draw is due, in words (the reason the rules give the pending draw).
DRAW_REASONS = {"reup": "re-up", "recruitment": "recruitment tile"}


def mode(ctrl: BoxController) -> str:
    """The game's screen for the state (no overlay open, no tray roll awaited)."""
    ui, s = ctrl.ui, ctrl.session.state
    if ui.ack is not None:
        entry = ctrl._entry(ui.ack)
        if entry is not None:
            pages = sc.result_pages(entry.events)
            return pages[min(ui.form.get("page", 0), len(pages) - 1)]
        ui.ack = None
    if s.phase is Phase.NO_GAME:
        return "new"
    if s.phase is Phase.OVER:
        return "over"
    if s.phase is Phase.SETUP:
        if any(q.decision == Decision.TIEBREAK for q in s.pending):
            return "tiebreak"
        if any(not p.dealt for p in s.players):
            return "deal"
        return "hands"
    p = s.current_player
    assert p is not None
    for q in s.pending_for(p.name):
        if q.decision == Decision.TILE:
            return "museums" if ui.step == "museums" else "tiles"
        if q.decision == Decision.DRAW:
            # the decks the session takes a draw from now: the rules' legal draws but one a
            # card kept by an undone draw refuses (`draw_bound`: the card seen comes next)
            ui.form["draw_decks"] = tuple(
                a.deck for a in queries.legal_actions(s, p.name)
                if isinstance(a, c.Draw) and a.card is None
                and ctrl.session.refusal(a) is None)
        return "choice" if q.decision in CHOICE_DECISIONS else str(q.decision)
    return ui.step or "turn"


def menu(ctrl: BoxController) -> list[Item]:
    """The MENU overlay's items: the turn's own steps the rules allow, then the table's."""
    s = ctrl.session.state
    out: list[Item] = []
    p = s.current_player
    if s.phase is Phase.PLAYING and p is not None:
        if queries.can(s, p.name, c.Steal):
            out.append(("Steal art", "steal"))
        if queries.can(s, p.name, c.Sell):
            out.append(("Sell art", "sell"))
        if queries.can(s, p.name, c.Trade):
            out.append(("Trade cards", "trade"))
    if s.phase is Phase.PLAYING:
        out += [("End turn", "end"), ("Roll d6", "d6"), ("Roll d100", "d100")]
    out += [("Players", "status"), ("Undo...", "undo"), ("New game", "new")]
    return out


def view(ctrl: BoxController, mode: str) -> BoxView:
    """The view of screen ``mode``."""
    s, ui = ctrl.session.state, ctrl.ui
    if mode == "new":  # (also over another game's table: a new game of this one)
        return sc.new_view(ui, ctrl._names)
    p = s.current_player
    menu = ctrl._items(mode)
    labels = tuple(label for label, _ in menu)
    if mode == "tray" and ctrl.dice.waiting is not None:
        w = ctrl.dice.waiting
        return BoxView("tray", title=f"{w.player}: roll {w.die}", big=w.die,
                       source="tray", lines=("Roll in", "the tray."),
                       hint="BACK:box rolls")
    if mode == "over":
        return sc.over_view(s)
    if mode == "status":
        return sc.status_view(s, ui.oindex)
    if mode == "menu":
        return BoxView("menu", title="Menu", menu=labels, cursor=ui.oindex % max(1, len(menu)),
                       hint="NEXT:move ROLL:ok")
    if mode == "confirm":
        return BoxView("confirm", title="Undo?", lines=sc.undo_lines(ctrl.session.undo_target()),
                       hint="ROLL:undo BACK:no")
    if mode == "confirm_end" and p is not None:
        return sc.confirm_end_view(s, p)
    if mode == "confirm_new":
        return BoxView("confirm", title="New game?", lines=("This game ends", "unfinished."),
                       hint="ROLL:yes BACK:no")
    if mode in ("verdict", "drawn", "lost", "out"):
        entry = ctrl._entry(ui.ack)
        assert entry is not None
        page = {"verdict": sc.verdict_view, "lost": sc.lost_view, "out": sc.out_view}
        return page[mode](s, entry) if mode in page else sc.drawn_view(s, entry)
    if mode == "hands":
        return sc.hands_view(s, ui.index)
    if mode == "deal":
        who = next(q.name for q in s.players if not q.dealt)
        return BoxView("deal", title="Deal", lines=(f"{who} has no hand.",),
                       hint="ROLL:deal one")
    if mode == "tiebreak":
        tie = next(q for q in s.pending if q.decision == Decision.TIEBREAK)
        if tie.info.get("mode") == "reroll":
            return BoxView("tiebreak", title="Tie: re-roll", lines=tuple(tie.options),
                           hint="ROLL:re-roll")
        return BoxView("tiebreak", title="Rock-paper-scissors", menu=labels,
                       cursor=ui.index % max(1, len(menu)), hint="NEXT:next ROLL:winner")
    assert p is not None, mode
    if mode == "turn":
        return sc.turn_view(s, p, ctrl.session.log)
    if mode == "obstacle":
        return sc.obstacle_view(s, p, ui)
    if mode == "reup":
        return BoxView("reup", title=sc.title(p, s), strikes=p.strikes,
                       lines=("No cards left:", "roll a d6 and draw", "that many cards."),
                       hint="ROLL:roll d6")
    rolled = movement_roll(ctrl)
    head = {
        "tiles": f"{p.name} moved to:",  # (the roll big beside the tiles)
        "museums": "Which museum?",
        "steal": "Steal which?",
        "sell": "Sell which?",
        "draw": "Draw which deck?",
        "trade": "Trade with whom?",
        "trade_give": f"Give {ui.form.get('partner', '')}:",
        "trade_get": f"Get from {ui.form.get('partner', '')}:",
        # whose choice, and why it is asked
        "choice": f"{p.name} caught!" if any(q.decision == Decision.CAUGHT
                                             for q in s.pending_for(p.name))
        else f"{p.name}: strike 2",
    }[mode]
    big = (str(s.turn.rolled) if mode == "tiles" and s.turn.rolled is not None
           else None)
    source = sc.provenance(rolled) if big else None
    lines: tuple[str, ...] = ()
    if mode in ("trade_give", "trade_get"):
        lines = sc.trade_lines(s, p, ui)
    if mode == "draw":
        due = next(q for q in s.pending_for(p.name) if q.decision == Decision.DRAW)
        n, why = due.info.get("count", 1), due.info.get("reason", "")
        lines = (f"{n} card{'s' if n != 1 else ''} to draw ({DRAW_REASONS.get(why, why)})",)
        if len(menu) < len(sc.items("draw", s, replace(ui, form={}))):
            lines = ("the undone draw's card comes next",)  # (why one deck only)
    return BoxView(mode, title=head, big=big, source=source, menu=labels,
                   cursor=ui.index % max(1, len(menu)), strikes=p.strikes, lines=lines,
                   hint="NEXT:next ROLL:pick" if mode in ("trade_give", "trade_get")
                   else "NEXT:next ROLL:ok")


def _handle(ctrl: Any, mode: str, action: str) -> None:
    from device.games.gallery_grippers.actions import handle

    handle(ctrl, mode, action)


OLED = OledScreens(cursor=Cursor, mode=mode, menu=menu, items=sc.items, view=view,
                   idle=sc.idle_view, handle=_handle, starts=True)
