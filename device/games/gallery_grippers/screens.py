"""The box's screens: ``BoxView`` values built from the game state and the UI cursor.

Pure functions of their arguments. Menus are listed once (``items``) so the view that shows a
menu and the controller that acts on it can never disagree about what the cursor points at.
What a menu offers is what the rules allow (``queries.legal_actions``) and every figure is asked
of ``queries``: the box words them, it never works a rule out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.view import (
    BESIDE_BIG,
    BODY_ROWS,
    TITLE_BESIDE_PIPS,
    BoxView,
    Cursor,
    Item,
    Verdict,
    drawable,
    money,
    rows,
    short_hex,
    short_museum,
)
from referee.games.gallery_grippers import commands as c
from referee.games.gallery_grippers.commands import Roll
from referee.games.gallery_grippers.rules import queries as q
from referee.games.gallery_grippers.rules.queries import Decision
from referee.games.gallery_grippers.state import GameState, PlayerState
from referee.session import LogEntry

MENU_CHARS = 12  # a menu beside the big number: 72 px

TILE_LABELS = {"plain": "plain", "airport": "airport", "recruitment": "recruitment",
               "trading": "trading", "black_market": "black market", "security": "security",
               "alarm": "alarm", "art": "art", "exit": "exit"}
# The order tiles are listed in (which tiles are listed is the rules' answer).
ORDER = ("plain", "airport", "recruitment", "trading", "black_market", "security", "alarm",
         "art", "exit")
# Each choice with what it costs (GG-10): the strikes it leaves the player with.
CHOICE_LABELS = {"ditch": "ditch the art (1 strike)", "keep": "keep it (2 strikes)",
                 "leave": "leave (strikes reset)", "reenter": "go back in (2 strikes)"}


def hand_options(state: GameState, p: PlayerState, kind: str) -> list[Item]:
    """The cards of `kind` the player may play at the obstacle (GG-6), strongest first."""
    played: dict[str, None] = {}
    for a in q.legal_actions(state, p.name):
        if isinstance(a, c.Bypass):
            played.update(dict.fromkeys(a.specialist if kind == "specialist" else a.attribute))
    cards = sorted(played, key=lambda n: (-q.card_bonus(state, n), n))
    return [("no card", None), *((f"+{q.card_bonus(state, n)} {n}", n) for n in cards)]


ACTION_WORDS = {c.Steal: "steal", c.Sell: "sell", c.Trade: "trade", c.Draw: "draw",
                c.Choose: "choose", c.Bypass: "bypass", c.Reup: "re-up", c.Move: "move",
                c.MoveRoll: "roll to move"}


def actions_left(state: GameState, player: str) -> list[str]:
    """What `player` could still do before ending the turn, in words (the rules' legal
    actions but ending the turn); empty when ending the turn is all that is left, or when the
    turn cannot end now (the rules refuse it then, saying why)."""
    legal = q.legal_actions(state, player)
    if not any(isinstance(a, c.EndTurn) for a in legal):
        return []
    words = [ACTION_WORDS.get(type(a), type(a).__name__.lower()) for a in legal
             if not isinstance(a, c.EndTurn)]
    return list(dict.fromkeys(words))


def confirm_end_view(state: GameState, p: PlayerState) -> BoxView:
    """NEXT on the turn screen with actions left: end the turn anyway?"""
    left = ", ".join(actions_left(state, p.name))
    return BoxView("confirm", title="End turn?", lines=(f"{p.name} can still {left}.",),
                   strikes=p.strikes, hint="ROLL:end BACK:no")


def _of(state: GameState, player: str | None, kind: type) -> list[Any]:
    return [a for a in q.legal_actions(state, player) if isinstance(a, kind)]


def items(mode: str, state: GameState, ui: Cursor, menu: Sequence[Item] = ()) -> list[Item]:
    """The choices the screen ``mode`` offers, in order."""
    p = state.current_player
    if mode == "menu":
        return list(menu)
    if mode == "tiebreak":
        return [(t.winner, t.winner) for t in _of(state, None, c.Tiebreak)]
    if p is None:
        return []
    if mode in ("tiles", "museums"):
        found = sorted(q.landings(state, p.name),
                       key=lambda x: (bool(x.museums), ORDER.index(x.tile)))
        if mode == "museums":
            museums = next((x.museums for x in found if x.tile == ui.tile and x.museums), ())
            return [(short_museum(m), m) for m in museums]
        return [(TILE_LABELS[x.tile], (x.tile, None)) if not x.museums else
                (f"{'museum' if x.tile == 'plain' else TILE_LABELS[x.tile]} >", (x.tile, "?"))
                for x in found]
    if mode == "steal":  # each piece with its value and its deduction (GG-8, GG-13)
        return [(art_label(state, a.art), a.art) for a in _of(state, p.name, c.Steal)]
    if mode == "sell":
        sales = _of(state, p.name, c.Sell)
        if not sales:
            return []
        whole = money(q.sale_price(state, p.name).price)
        if len(p.art) == 1:
            return [(f"{p.art[0].name}: {whole}", None)]
        out: list[Item] = [(f"all {len(p.art)} pieces: {whole}", None)]
        out += [(f"{a.art[0]}: {money(q.sale_price(state, p.name, a.art).price)}", a.art)
                for a in sales if a.art]
        return out
    if mode in ("trade", "trade_give", "trade_get"):
        return trade_items(mode, state, p, ui)
    if mode == "draw":
        # the pile the box draws from (the draw pile; its discards once it is empty), not
        # every card a draw could ever come from
        decks = ui.form.get("draw_decks")  # (the session's answer, `oled.mode`)
        return [(f"{a.deck} ({sum(q.draw_counts(state, a.deck).values())} left)", a.deck)
                for a in _of(state, p.name, c.Draw)
                if a.card is None and (decks is None or a.deck in decks)]
    if mode == "choice":
        return [(CHOICE_LABELS.get(a.choice, a.choice), a.choice)
                for a in _of(state, p.name, c.Choose)]
    return []


def art_label(state: GameState, name: str) -> str:
    """A piece of art as a menu shows it: its name, value and deduction (the catalog's)."""
    art = state.catalog.art(name)
    return f"{name} {money(art.value)} -{art.deduction}%" if art else name


def trade_items(mode: str, state: GameState, p: PlayerState, ui: Cursor) -> list[Item]:
    """A trade's menus (GG-4: attribute cards, any number each way): the partners; then the
    cards to give that partner and the cards to get from them, each copy in the hand its own
    item, ticked (`[x]`) once chosen, with its bonus; first "give nothing" / "done giving"
    and "get nothing" / "done: trade". The cards are the rules' own: the ruleset's
    `legal_actions` list each card that may change hands alone, and a copy is offered only
    if the rules' `decide` takes the trade with it added to those ticked."""
    trades = _of(state, p.name, c.Trade)
    if mode == "trade":
        return [(name, name) for name in dict.fromkeys(t.taker for t in trades)]
    partner = str(ui.form.get("partner"))
    mine = mode == "trade_give"
    hand = p.attributes if mine else state.player(partner).attributes
    ticked: tuple[int, ...] = tuple(ui.form.get("give" if mine else "get", ()))
    cards = {card for t in trades if t.taker == partner for card in (t.give if mine else t.get)}
    chosen = tuple(hand[i] for i in ticked)
    other = trade_cards(state, p, ui, "get" if mine else "give")
    offered = [i for i, n in enumerate(hand) if n in cards and (i in ticked or _trade_taken(
        state, c.Trade(p.name, partner, give=(*chosen, n) if mine else other,
                       get=other if mine else (*chosen, n))))]
    first = (("done giving" if ticked else "give nothing") if mine
             else ("done: trade" if ticked else "get nothing"))
    return [(first, None), *((f"{'[x]' if i in ticked else '[ ]'} "
                              f"+{q.card_bonus(state, hand[i])} {hand[i]}", i)
                             for i in offered)]


def trade_cards(state: GameState, p: PlayerState, ui: Cursor, side: str) -> tuple[str, ...]:
    """The cards ticked so far to `side` ("give": from `p`'s hand; "get": from the
    partner's), by name."""
    partner = ui.form.get("partner")
    if partner is None or state.index_of(str(partner)) is None:
        return ()
    hand = p.attributes if side == "give" else state.player(str(partner)).attributes
    return tuple(hand[i] for i in ui.form.get(side, ()) if 0 <= i < len(hand))


def _trade_taken(state: GameState, trade: c.Trade) -> bool:
    """Whether the rules' `decide` takes `trade` now (nothing is applied)."""
    from referee.errors import Refusal
    from referee.games.gallery_grippers.rules import decide

    try:
        decide(state, trade)
    except Refusal:
        return False
    return True


def trade_lines(state: GameState, p: PlayerState, ui: Cursor) -> tuple[str, ...]:
    """On the cards to get: what is given, counted (one row: the menu may take the room of
    a longer one; the cards themselves are ticked on the menu before)."""
    if ui.step != "trade_get":
        return ()
    n = len(trade_cards(state, p, ui, "give"))
    return (f"you give {n} card{'s' if n != 1 else ''}" if n else "you give nothing",)


def provenance(roll: dict[str, Any] | Roll | None) -> str | None:
    """electronic / kept / typed / tray: where a die's value came from."""
    if roll is None:
        return None
    r = roll.to_json() if isinstance(roll, Roll) else roll
    if r.get("kept"):
        return "kept"
    if r.get("source") == "physical":
        return str(r.get("via") or "typed")
    return "electronic"


def last_roll(log: Sequence[LogEntry]) -> dict[str, Any] | None:
    """The latest roll event of a step that still stands."""
    for entry in reversed(log):
        if entry.undone or entry.command.get("cmd") == "undo":
            continue
        rolls = [e for e in entry.events if e["type"] == "roll" and e["die"] != "pick"]
        if rolls:
            return rolls[-1]
    return None


def turn_roll(log: Sequence[LogEntry]) -> dict[str, Any] | None:
    """The latest roll of the turn in progress: None until the current player has rolled
    (the rolls before the turn began belong to someone else's turn, or to the set-up)."""
    for entry in reversed(log):
        if entry.undone or entry.command.get("cmd") == "undo":
            continue
        for event in reversed(entry.events):
            if event["type"] in ("turn", "game_started"):
                return None
            if event["type"] == "roll" and event["die"] != "pick":
                return event
    return None


def title(p: PlayerState, state: GameState) -> str:
    """The player and the turn (a long name is wrapped by the layout, never cut)."""
    return f"{p.name}, turn {state.turn_number}"


def where(p: PlayerState) -> str:
    return f"in {short_museum(p.where)}" if p.where else "outside"


def player_lines(p: PlayerState) -> tuple[str, ...]:
    """The turn screen's words about the player: money, where, the art held and the cards
    in hand (every word short enough to stand beside the big roll, `BESIDE_BIG`, but a
    museum's long name)."""
    cards = len(p.specialists) + len(p.attributes)
    return (money(p.money), where(p), f"art held: {len(p.art)}",
            f"{cards} card{'s' if cards != 1 else ''}")


def verdict_of(events: Sequence[dict[str, Any]]) -> Verdict | None:
    for e in events:
        if e["type"] == "bypass":
            src = "kept" if e.get("roll_kept") else (
                e.get("roll_via") or "typed" if e.get("roll_source") == "physical"
                else "electronic")
            return Verdict(e["roll"], e["specialist_bonus"], e["attribute_bonus"],
                           e["art_deduction"], e["total"], e["target"], e["success"], src)
    return None


def undo_lines(step: LogEntry | None) -> tuple[str, ...]:
    """What an undo would take back (`step`, the session's `undo_target()`; in words by
    `queries.undo_preview`), in a few short lines."""
    undo = q.undo_preview(step)
    if undo is None:
        return ("nothing to undo",)
    from referee.games.gallery_grippers.actions import undo_words
    from referee.words import undo_dice_lines

    # the ruleset's words for the step ("LiMing's draw"), then its detail (a choice in the
    # words its menu gave it)
    what = undo_words(undo.step.command, ()).removeprefix("Undo ").rstrip(".")
    detail = (CHOICE_LABELS.get(undo.detail, undo.detail)
              if undo.step.command.get("cmd") == "choose" else undo.detail)
    lines = [line for line in (what, detail) if line]
    return (*lines, *undo_dice_lines(undo.step.events))


STATUS_CHARS = 16  # a players-page row that ends in the three strike pips


def _held(p: PlayerState) -> str:
    """A player's money and art held, in words (or that they are out)."""
    return "out of the game" if p.status == "out" else f"{money(p.money)}, art held: {len(p.art)}"


def _status_rows(p: PlayerState) -> list[tuple[str, int | None]]:
    """A player's rows on the players page: the name (wrapped, never cut) with the strike
    pips at the end of its first row, then the money and the art held in words."""
    named = rows(drawable(p.name), STATUS_CHARS)
    return [(named[0], p.strikes), *((r, None) for r in named[1:]), (_held(p), None)]


def _status_words(p: PlayerState) -> str:
    """A player's row of the players page in words (the console's box panel): the name as
    typed, the figures and the strikes."""
    return (f"{p.name}: {_held(p)}, "
            f"strikes [{'*' * p.strikes}{'-' * (3 - p.strikes)}]")


def status_view(state: GameState, page: int) -> BoxView:
    """Every player, as many as fit the screen's rows a page: the name and the strike pips,
    then money (or "out of the game") and art held in words; the dice commitment on the last
    page (a page of its own when it does not fit)."""
    pages: list[list[tuple[str, int | None]]] = [[]]
    said: list[list[str]] = [[]]
    for p in state.players:
        found = _status_rows(p)
        if pages[-1] and len(pages[-1]) + len(found) > BODY_ROWS:
            pages.append([])
            said.append([])
        pages[-1] += found
        said[-1].append(_status_words(p))
    dice = [("dice commitment:", None), (short_hex(state.commitment, 8), None)]
    if len(pages[-1]) + len(dice) > BODY_ROWS:
        pages.append([])
        said.append([])
    pages[-1] += dice
    said[-1].append(f"dice commitment: {short_hex(state.commitment, 8)}")
    page %= len(pages)
    shown = pages[page]
    return BoxView("status", title=f"Players {page + 1}/{len(pages)}",
                   lines=tuple(r for r, _ in shown), pips=tuple(n for _, n in shown),
                   hint="NEXT:more BACK:close", words=tuple(said[page]))


def new_view(ui: Cursor, names: Sequence[str] | None) -> BoxView:
    """The new-game screen: the player count and every player's name (the configured names
    first, then P<i>: `BoxController.player_names`)."""
    given = list(names or [])[: ui.players]
    shown = given + [f"P{i + 1}" for i in range(len(given), ui.players)]
    return BoxView("new", title="Gallery Grippers", big=str(ui.players), source="players",
                   lines=("New game", ", ".join(shown), "MENU:game"),
                   hint="NEXT:+1 ROLL:start")


def over_view(state: GameState) -> BoxView:
    reason = {"money": f"reached {money(state.rules.win_money)}",
              "last_player_standing": "last one standing",
              "third_strike": "third strike"}.get(state.over_reason or "", "")
    head = f"{state.winner} wins!" if state.winner else "Nobody wins"
    return BoxView("over", title="Game over", lines=(head, reason,
                   "seed (check dice):", short_hex(state.seed, 8)), hint="ROLL:new game")


def hands_view(state: GameState, page: int) -> BoxView:
    pages = 1 + 2 * len(state.players)
    page %= pages
    if page == 0:
        return BoxView("hands", title="Hands dealt",
                       lines=("Hand out the cards", "shown on each page.", "dice commitment:",
                              short_hex(state.commitment, 8)),
                       hint="NEXT:hands ROLL:order")
    p = state.players[(page - 1) // 2]
    kind = "specialist" if page % 2 else "attribute"
    cards = p.specialists if kind == "specialist" else p.attributes
    lines = tuple(f"+{q.card_bonus(state, name)} {name}" for name in cards)
    return BoxView("hands", title=f"{p.name}: {kind}s", lines=lines,
                   hint="NEXT:more ROLL:order")


def turn_view(state: GameState, p: PlayerState, log: Sequence[LogEntry]) -> BoxView:
    """The current player's turn: their own state, and their roll large once they rolled."""
    roll = turn_roll(log)
    if not state.turn.moved:
        hint = "ROLL:move MENU:more"
    elif q.can(state, p.name, c.Steal):
        hint = "ROLL:steal NEXT:end"
    elif q.can(state, p.name, c.Sell):
        hint = "ROLL:sell NEXT:end"
    elif q.can(state, p.name, c.Trade):
        hint = "ROLL:trade NEXT:end"
    else:
        hint = "NEXT:end turn"
    lines = player_lines(p)
    if roll is not None and any(len(w) > BESIDE_BIG for line in lines
                                for w in drawable(line).split()):
        # a word too long for the rows beside the big number (a museum's name): the roll
        # in words (where it came from when not the box's own die), the rows at the full
        # width, money and cards on one: four rows still
        source = provenance(roll)
        said = f"rolled {roll['value']}" + (f" ({source})" if source != "electronic" else "")
        money_, where_, art, cards = lines
        lines = (said, f"{money_}, {cards}", where_, art)
        roll = None
    return BoxView("turn", title=title(p, state), big=str(roll["value"]) if roll else None,
                   source=provenance(roll), lines=lines,
                   strikes=p.strikes, money=p.money, hint=hint)


def obstacle_view(state: GameState, p: PlayerState, ui: Cursor) -> BoxView:
    pend = next(x for x in state.pending_for(p.name) if x.decision == Decision.OBSTACLE)
    spec = hand_options(state, p, "specialist")[ui.picks["specialist"]]
    attr = hand_options(state, p, "attribute")[ui.picks["attribute"]]
    terms = q.bypass_terms(state, p.name, spec[1], attr[1])
    need_text = ("no roll can pass" if terms.need is None else "no roll can fail"
                 if terms.certain else f"need {terms.need}+ on d100")
    # the card being chosen, whole with its bonus; the sum so far in words under it
    card = f"specialist: {spec[0]}" if ui.stage == 0 else f"attribute: {attr[0]}"
    sums = f"cards +{terms.specialist_bonus + terms.attribute_bonus}" + (
        f", art -{p.deduction}" if p.deduction else "")
    tile = str(pend.info.get("tile", "obstacle"))
    head = f"{p.name}: {tile}"
    if len(drawable(head)) > TITLE_BESIDE_PIPS:  # a long name: the tile beside the need
        head, need_text = p.name, f"{tile}: {need_text}"
    return BoxView("obstacle", title=head, lines=(card, sums, need_text),
                   strikes=p.strikes,
                   hint="NEXT:card ROLL:" + ("ok" if ui.stage == 0 else "roll"))


def result_pages(events: Sequence[dict[str, Any]]) -> list[str]:
    """The screens a result acknowledged by a press goes through, in order: a bypass's
    verdict, then the art it lost (``lost``), then the player out at a third strike
    (``out``); a draw's card."""
    if not any(e["type"] == "bypass" for e in events):
        return ["drawn"]
    kinds = {e["type"] for e in events}
    lost = "art_returned" in kinds and "out" not in kinds  # (the out screen says it then)
    return ["verdict", *(["lost"] if lost else []), *(["out"] if "out" in kinds else [])]


def lost_view(state: GameState, entry: LogEntry) -> BoxView:
    """A failed bypass cost the art carried (GG-10): which pieces go back where."""
    back = next(e for e in entry.events if e["type"] == "art_returned")
    strike = next((e for e in entry.events if e["type"] == "strike"), None)
    who = back["player"]
    p = state.player(who) if state.index_of(who) is not None else None
    lines = [f"{a['name']} back to {short_museum(a['museum'])}" for a in back["pieces"]]
    if strike is not None:
        lines.append(f"and strike {strike['strikes']}")
    return BoxView("lost", title=f"{who}: art lost", lines=tuple(lines),
                   strikes=p.strikes if p else None, hint="any key: go on")


def out_view(state: GameState, entry: LogEntry) -> BoxView:
    """A third strike (GG-15): the player is out, their hand discarded and their art back
    in its museums; and whether the game ended (GG-16)."""
    found = {e["type"]: e for e in entry.events}
    who = found["out"]["player"]
    lines = ["third strike"]
    hand = found.get("hand_discarded")
    if hand is not None:  # (specialists + attributes, as the turn screen counts cards)
        cards = len(hand["specialists"]) + len(hand["attributes"])
        lines.append(f"{cards} card{'s' if cards != 1 else ''} discarded")
    back = found.get("art_returned")
    if back is not None:
        lines.append("art back: " + ", ".join(a["name"] for a in back["pieces"]))
    over = found.get("game_over")
    if over is not None:
        lines.append("game over")
    elif "turn" in found:
        lines.append(f"{found['turn']['player']} plays next")
    return BoxView("out", title=f"{who} is out", lines=tuple(lines), strikes=3,
                   hint="any key: go on")


def verdict_view(state: GameState, entry: LogEntry) -> BoxView:
    v = verdict_of(entry.events)
    assert v is not None
    who = entry.command.get("player", "")
    strike = next((e for e in entry.events if e["type"] == "strike"), None)
    outcome = "bypassed" if v.success else (f"strike {strike['strikes']}" if strike
                                           else "caught")
    p = state.player(who) if state.index_of(who) is not None else None
    # the outcome in the title (the strike pips beside it), what a press does at the bottom
    return BoxView("verdict", title=f"{who}: {outcome}", big=str(v.roll), source=v.source,
                   verdict=v, strikes=p.strikes if p else None, hint="any key: go on")


def drawn_view(state: GameState, entry: LogEntry) -> BoxView:
    drawn = [e for e in entry.events if e["type"] == "drawn"]
    who = entry.command.get("player", "")
    lines = [f"+{q.card_bonus(state, e['card'])} {e['card']}" for e in drawn][:2]
    deck = drawn[-1]["deck"] if drawn else ""
    return BoxView("drawn", title=f"{who} draws", lines=(f"from the {deck} deck:", *lines,
                   "hand it over"), hint="any key: go on")


def idle_view(state: GameState) -> BoxView:
    p = state.current_player
    who = f"{p.name}'s turn" if p else ("Game over" if state.over else "Gallery Grippers")
    return BoxView("idle", lines=(who, "dice commitment:", short_hex(state.commitment, 8)),
                   hint="any key: wake")
