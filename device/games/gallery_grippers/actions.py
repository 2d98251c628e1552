"""What each action does on each screen of the box (the table in ``docs/box.md``).

Actions come from the pin map: ``roll``, ``next``, ``select``, ``back``, ``undo``, ``menu``,
``status``. ``roll`` and ``select`` both mean "go": roll the die that is due, or choose the
highlighted item. Anything that changes the game is a command to the session; a refusal
propagates to the controller, which shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from device.games.gallery_grippers import screens as sc
from device.games.gallery_grippers.dealing import balanced_hands
from device.view import money
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.rules import queries
from referee.games.gallery_grippers.rules.queries import Decision

if TYPE_CHECKING:
    from device.box import BoxController

GO = ("roll", "select")
CURSOR_SCREENS = ("tiles", "museums", "steal", "sell", "draw", "choice", "tiebreak")


def handle(box: BoxController, mode: str, action: str) -> None:
    ui = box.ui
    if action == "undo" and mode != "confirm":
        ui.overlay, ui.oindex = "confirm", 0
        return
    if action == "status" and mode != "status":
        ui.overlay, ui.oindex = "status", 0
        return
    if action == "menu":
        ui.overlay = None if ui.overlay in ("menu", "status", "confirm") else "menu"
        ui.oindex = 0
        return
    handler = HANDLERS.get(mode)
    if handler is not None:
        handler(box, action)


def _cycle(box: BoxController, mode: str, action: str, overlay: bool = False) -> bool:
    """NEXT / BACK move a menu cursor; True if the action was one of those."""
    step = {"next": 1, "back": -1}.get(action)
    if step is None:
        return False
    size = max(1, len(box._items(mode)))
    if overlay:
        box.ui.oindex = (box.ui.oindex + step) % size
    else:
        box.ui.index = (box.ui.index + step) % size
    return True


def _chosen(box: BoxController, mode: str) -> object:
    menu = box._items(mode)
    return menu[box.ui.index % len(menu)][1] if menu else None


# ---- Gallery Grippers' flows started from the box ---------------------------------------
def start_game(box: BoxController, abandon: bool = False) -> None:
    """A new game of the box's player count, names and house rules, every hand dealt."""
    from referee.games.gallery_grippers import RULESET

    names = box.player_names(box.ui.players)
    box._apply(c.NewGame(players=tuple(c.PlayerSpec(x) for x in names),
                         rules=box.house_rules, abandon=abandon), ruleset=RULESET)
    box.ui.overlay = None
    deal_all(box)


def deal_all(box: BoxController) -> None:
    """Deal every player still without a hand a balanced default hand (GG-1)."""
    s = box.session.state
    undealt = [p.name for p in s.players if not p.dealt]
    hands = balanced_hands(s, undealt)
    for name in undealt:
        h = hands[name]
        box._apply(c.Deal(name, tuple(h["specialists"]), tuple(h["attributes"])))


def turn_order(box: BoxController) -> None:
    """The box rolls a d6 for every player (GG-3) and says who goes first, or that it is a
    tie."""
    outcome = box._apply(c.TurnOrder())
    order = next((e for e in outcome.events if e["type"] == "turn_order_rolled"), None)
    if order is not None:
        rolls = ", ".join(f"{n} {v}" for n, v in order["rolls"].items())
        first = outcome.state.first_player
        box._say(f"d6: {rolls}. " + (f"{first} goes first." if first else "A tie!"))


def preview_move(box: BoxController) -> None:
    """ROLL on the turn screen: the movement d6 is rolled and shown (move_roll); the tile
    menu follows as the session's pending 'tile' decision."""
    p = box.session.state.current_player
    if p is None:
        return
    box.ui.step, box.ui.index = None, 0
    name = p.name
    box.roll(name, "d6", lambda r: c.MoveRoll(name, roll=r))  # GG-4: once a turn


def move(box: BoxController, tile: str, museum: str | None) -> None:
    p = box.session.state.current_player
    if p is not None:
        box._apply(c.Move(p.name, tile, museum))
        box.ui.step, box.ui.tile = None, None


def movement_roll(box: BoxController) -> dict[str, Any] | None:
    """The roll event of this turn's movement d6, once rolled."""
    if box.session.state.turn.rolled is None:
        return None
    roll = sc.last_roll(box.session.log)
    return roll if roll and roll.get("purpose") == "move" else None


def _player(box: BoxController) -> str:
    p = box.session.state.current_player
    assert p is not None
    return p.name


def _new(box: BoxController, action: str) -> None:
    ui = box.ui
    if action in ("next", "back"):
        ui.players = (ui.players - 1 + (1 if action == "next" else -1)) % 6 + 1
    elif action in GO:
        start_game(box, abandon=box.session.unfinished)


def _over(box: BoxController, action: str) -> None:
    if action in GO:
        box.choose_game()


def _status(box: BoxController, action: str) -> None:
    if action == "next":
        box.ui.oindex += 1
    else:
        box.ui.overlay = None


def _menu(box: BoxController, action: str) -> None:
    ui = box.ui
    if action == "back":
        ui.overlay = None
    if _cycle(box, "menu", action, overlay=True) or action not in GO:
        return
    menu = box._items("menu")
    choice = menu[ui.oindex % len(menu)][1]
    ui.overlay, ui.oindex = None, 0
    if choice in ("steal", "sell", "trade"):
        ui.step, ui.index = str(choice), 0
    elif choice == "end":
        box._apply(c.EndTurn(_player(box)))
    elif choice in ("d6", "d100"):
        box._apply(c.FreeRoll(str(choice)))
    elif choice == "status":
        ui.overlay = "status"
    elif choice == "undo":
        ui.overlay = "confirm"
    elif choice == "new":
        playing = box.session.unfinished
        if playing:
            ui.overlay = "confirm_new"
        else:
            box.choose_game()


def _confirm(box: BoxController, action: str) -> None:
    if action in GO:
        box.ui.overlay = None
        box._apply(c.Undo())
    elif action == "back":
        box.ui.overlay = None


def _confirm_end(box: BoxController, action: str) -> None:
    if action in GO:
        box.ui.overlay = None
        box._apply(c.EndTurn(_player(box)))
    elif action in ("back", "next"):
        box.ui.overlay = None


def _confirm_new(box: BoxController, action: str) -> None:
    if action in GO:
        box.choose_game()
    elif action == "back":
        box.ui.overlay = None


def _ack(box: BoxController, action: str) -> None:
    """Any press after reading a result goes on: to its next screen (the art lost, the
    player out), or back to the game."""
    entry = box._entry(box.ui.ack)
    page = box.ui.form.get("page", 0) + 1
    if entry is not None and page < len(sc.result_pages(entry.events)):
        box.ui.form["page"] = page
    else:
        box.ui.ack, box.ui.form = None, {}


def _hands(box: BoxController, action: str) -> None:
    if action in ("next", "back"):
        box.ui.index += 1 if action == "next" else -1
    elif action in GO:
        turn_order(box)


def _deal(box: BoxController, action: str) -> None:
    if action in GO:
        deal_all(box)


def _tiebreak(box: BoxController, action: str) -> None:
    tie = next(q for q in box.session.state.pending if q.decision == Decision.TIEBREAK)
    if tie.info.get("mode") == "reroll":
        if action in GO:
            turn_order(box)
        return
    if not _cycle(box, "tiebreak", action) and action in GO:
        box._apply(c.Tiebreak(str(_chosen(box, "tiebreak"))), ack=False)


def _turn(box: BoxController, action: str) -> None:
    s = box.session.state
    p = s.current_player
    assert p is not None
    if action == "next":
        if sc.actions_left(s, p.name):  # NEXT never throws away a steal, a sale, a trade
            box.ui.overlay, box.ui.oindex = "confirm_end", 0
        else:  # (also when the turn cannot end yet: the rule's refusal says why)
            box._apply(c.EndTurn(p.name))
    elif action in GO:
        if queries.can(s, p.name, c.Steal):
            box.ui.step, box.ui.index = "steal", 0
        elif queries.can(s, p.name, c.Sell):
            box.ui.step, box.ui.index = "sell", 0
        elif queries.can(s, p.name, c.Trade):
            box.ui.step, box.ui.index = "trade", 0
        else:
            preview_move(box)


def _tiles(box: BoxController, action: str) -> None:
    if action == "back":
        box._say("Say where the pawn landed (hold BACK to undo the roll).")
        return
    if _cycle(box, "tiles", action) or action not in GO:
        return
    chosen = _chosen(box, "tiles")
    assert isinstance(chosen, tuple)
    tile, museum = chosen
    if museum == "?":
        box.ui.tile, box.ui.step, box.ui.index = tile, "museums", 0
    else:
        move(box, tile, None)


def _museums(box: BoxController, action: str) -> None:
    if action == "back":
        box.ui.step, box.ui.index = "tiles", 0
        return
    if not _cycle(box, "museums", action) and action in GO and box.ui.tile:
        move(box, box.ui.tile, str(_chosen(box, "museums")))


def _steal_or_sell(box: BoxController, action: str) -> None:
    mode = box.ui.step or ""
    if action == "back":
        box.ui.step, box.ui.index = None, 0
        return
    if _cycle(box, mode, action) or action not in GO:
        return
    chosen = _chosen(box, mode)
    who = _player(box)
    if mode == "steal":
        box._apply(c.Steal(who, str(chosen)))
        box._say(f"{who} takes {chosen}.")  # (the table moves the piece)
    else:
        out = box._apply(c.Sell(who, chosen if isinstance(chosen, tuple) else None))
        sold = next((e for e in out.events if e["type"] == "sold"), None)
        if sold is not None:
            box._say(f"Sold for {money(sold['price'])}: {who} has "
                     f"{money(sold['money'])}.")


def _trade(box: BoxController, action: str) -> None:
    """A trade at the trading post (GG-4), three small menus: with whom; the cards to give
    (ROLL ticks a card, or unticks it), then "done giving" (or "give nothing"); the cards to
    get likewise, then "done: trade" sends it, one `trade` command (the rules check it).
    BACK: the menu before (the cards ticked stay ticked)."""
    ui, mode = box.ui, box.ui.step or ""
    key = {"trade_give": "give", "trade_get": "get"}.get(mode)
    if action == "back":
        ui.step = {"trade": None, "trade_give": "trade", "trade_get": "trade_give"}[mode]
        ui.index = 0
        return
    if _cycle(box, mode, action) or action not in GO:
        return
    chosen = _chosen(box, mode)
    if mode == "trade":
        ui.form = {"partner": chosen}
        ui.step, ui.index = "trade_give", 0
    elif isinstance(chosen, int) and key:  # a card ticked, or unticked
        ticked = tuple(ui.form.get(key, ()))
        ui.form[key] = (tuple(i for i in ticked if i != chosen) if chosen in ticked
                        else (*ticked, chosen))
    elif mode == "trade_give":
        ui.step, ui.index = "trade_get", 0
    else:
        p = box.session.state.current_player
        assert p is not None
        give = sc.trade_cards(box.session.state, p, ui, "give")
        get = sc.trade_cards(box.session.state, p, ui, "get")
        if not give and not get:
            box._say("Nothing traded.")
            ui.step, ui.index, ui.form = None, 0, {}
            return
        box._apply(c.Trade(p.name, str(ui.form["partner"]), give=give, get=get))
        box._say("Traded: hand the cards over.")


def _draw(box: BoxController, action: str) -> None:
    if not _cycle(box, "draw", action) and action in GO:
        box._apply(c.Draw(_player(box), str(_chosen(box, "draw"))), ack=True)


def _reup(box: BoxController, action: str) -> None:
    if action in GO:
        who = _player(box)
        box.roll(who, "d6", lambda r: c.Reup(who, roll=r), answers=(Decision.REUP,))


def _tray(box: BoxController, action: str) -> None:
    """Waiting for the tray: BACK lets the box roll instead; anything else reminds."""
    if action == "back":
        waiting = box.dice.give_up()
        if waiting is not None:
            box._apply(waiting.make(None), ack=waiting.ack)
    else:
        box._say("Roll the dice in the tray (BACK: the box rolls).")


def _choice(box: BoxController, action: str) -> None:
    if not _cycle(box, "choice", action) and action in GO:
        box._apply(c.Choose(_player(box), str(_chosen(box, "choice"))))


def _obstacle(box: BoxController, action: str) -> None:
    ui, s = box.ui, box.session.state
    p = s.current_player
    assert p is not None
    kind = "specialist" if ui.stage == 0 else "attribute"
    if action == "next":
        options = sc.hand_options(s, p, kind)
        ui.picks[kind] = (ui.picks[kind] + 1) % len(options)
    elif action == "back":
        ui.stage = 0
    elif action in GO and ui.stage == 0:
        ui.stage = 1
    elif action in GO:
        spec = sc.hand_options(s, p, "specialist")[ui.picks["specialist"]][1]
        attr = sc.hand_options(s, p, "attribute")[ui.picks["attribute"]][1]
        name = p.name
        box.roll(name, "d100", lambda r: c.Bypass(name, specialist=(spec,) if spec else (),
                                                  attribute=(attr,) if attr else (), roll=r),
                 answers=(Decision.OBSTACLE,), ack=True)


HANDLERS = {
    "new": _new, "over": _over, "status": _status, "menu": _menu, "confirm": _confirm,
    "confirm_new": _confirm_new, "confirm_end": _confirm_end, "verdict": _ack, "drawn": _ack,
    "lost": _ack, "out": _ack,
    "hands": _hands,
    "deal": _deal, "tiebreak": _tiebreak, "turn": _turn, "tiles": _tiles,
    "museums": _museums, "steal": _steal_or_sell, "sell": _steal_or_sell, "draw": _draw,
    "trade": _trade, "trade_give": _trade, "trade_get": _trade,
    "reup": _reup, "choice": _choice, "obstacle": _obstacle, "tray": _tray,
}
