"""The property: no sequence of commands and undos lets anyone choose a die.

Random play (1-4 players, small decks so that piles run out and are reshuffled, undos, free
rolls, typed and tray values, box and hand draws, the turn-order roll and its re-rolls, now
and then `reveal`) is checked against a model of the rules kept here, written apart from the
session's bookkeeping:

- every electronic value in an accepted `roll` event is the stream's next fresh index, or a
  kept value reused for the same die, the same player and the same purpose, and a fresh roll
  is only made when no kept value waits for that die;
- a value the tray read stays on the table like an electronic one: the next roll of that die
  reuses it (marked kept), and the tray is not asked again;
- a typed or tray value (or a card named by hand) is never accepted while a kept value waits
  for that die, and `die_kept` / `card_kept` are only given when one does;
- a typed value is not kept, but the next roll of that die after the undo, if it differs, is
  said in a `die_corrected` event (was, now), and only then;
- a kept value leaves the table only by being reused, or out loud: a reshuffle of its deck
  (`kept_dropped`, put back by undoing it) or an undo of the reshuffle that made its pile
  (`undone.dropped`); after every command the session's kept dice are the model's;
- resuming from the log gives the same state, kept dice and stream position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.dice import die_range, die_value, stream_draw
from referee.games.gallery_grippers.catalog import parse_catalog
from referee.games.gallery_grippers.rules.cards import draw_pile
from referee.games.gallery_grippers.state import GameState, Phase
from referee.session import Session
from tests.conftest import examples
from tests.referee.conftest import SEED, Table, hand_for

DICE = ("d6", "d10", "d100")
DECKS = ("specialist", "attribute")
INSIDE = ("plain", "security", "alarm", "art", "exit")
OUTSIDE = ("plain", "airport", "recruitment", "security", "alarm", "art", "trading",
           "black_market")


def small_catalog(players: int) -> str:
    """Three copies more than the starting hands need, per deck: piles run out quickly."""
    cards = []
    for table, names in (("specialists", ("Hacker", "Driver", "Forger")),
                         ("attributes", ("Rope", "Gloves", "Torch"))):
        for i, name in enumerate(names):
            cards.append(f"[[{table}]]\nname = \"{name}\"\nbonus = {30 - 10 * i}\n"
                         f"copies = {players + 1}\n")
    museums = ('[[museums]]\nname = "Small Museum"\n'
               '[[museums.art]]\nname = "Vase"\nvalue = 100\ndeduction = 5\n'
               '[[museums.art]]\nname = "Urn"\nvalue = 200\ndeduction = 10\n')
    return "".join(cards) + museums


# ---- the model ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Kept:
    """A value on the table: who, which die ("d6" ... or "pick:<deck>"), what for, and, for a
    card, the pile it came from (the seq of the step whose reshuffle made it) and whether
    its draw took it from the discards."""

    player: str | None
    key: str
    purpose: str
    index: int | None  # None: a value the tray read (or, in `typed`, one typed in)
    value: int
    card: str | None = None
    pile: int = 0
    from_discards: bool = False
    via: str | None = None

    @property
    def deck(self) -> str | None:
        return self.key[5:] if self.key.startswith("pick:") else None


@dataclass
class Step:
    seq: int
    piles_before: dict[str, int]
    rolled: list[Kept]
    dropped: list[Kept]
    typed: list[Kept] = field(default_factory=list)


@dataclass
class Model:
    seed: bytes
    percentile: str
    kept: list[Kept] = field(default_factory=list)
    piles: dict[str, int] = field(default_factory=dict)  # deck -> seq that made its pile
    steps: list[Step] = field(default_factory=list)
    next_index: int = 0
    typed: list[Kept] = field(default_factory=list)  # typed dice undone, not rolled again

    def applies(self, k: Kept, player: str | None, key: str, purpose: str,
                state: GameState) -> bool:
        if (k.player, k.key, k.purpose) != (player, key, purpose):
            return False
        if k.deck is None:
            return True
        pile = state.piles.get(k.deck, {})
        if self.piles.get(k.deck, 0) != k.pile or bool(sum(pile.values())) == k.from_discards:
            return False  # not the pile it was drawn from
        where = state.discards.get(k.deck, {}) if k.from_discards else pile
        return where.get(k.card or "", 0) > 0

    def waits(self, kept: list[Kept], player: str | None, key: str, purpose: str,
              state: GameState) -> bool:
        return any(self.applies(k, player, key, purpose, state) for k in kept)

    def accepted(self, seq: int, events: list[dict[str, Any]], before: GameState) -> None:
        on_table = list(self.kept)
        rolled: list[Kept] = []
        typed: list[Kept] = []
        corrected: list[tuple[Any, ...]] = []
        boxed = [e for e in events if e["type"] == "drawn" and e["source"] == "box"]
        reshuffled = [e["deck"] for e in events if e["type"] == "deck_reshuffled"]
        for e in events:
            if e["type"] == "drawn" and e["source"] == "physical":
                assert not self.waits(on_table, e["player"], f"pick:{e['deck']}", "draw",
                                      before), f"a card named by hand replaced a kept one: {e}"
            if e["type"] != "roll":
                continue
            player, purpose = e["player"], e["purpose"]
            card = deck = None
            if e["die"] == "pick":
                drawn = boxed.pop(0)
                card, deck = drawn["card"], drawn["deck"]
            key = e["die"] if deck is None else f"pick:{deck}"
            was = next((k for k in self.typed if (k.player, k.key, k.purpose)
                        == (player, key, purpose)), None)
            if was is not None:
                self.typed.remove(was)
                if was.value != e["value"]:
                    corrected.append((player, was.value, e["value"]))
                    event("a typed die corrected")
            if e["source"] == "physical" and e["kept"]:
                assert e["via"] == "tray", e
                [k] = [k for k in on_table if k.index is None and k.via == "tray"
                       and (k.player, k.key, k.purpose, k.value)
                       == (player, key, purpose, e["value"])][:1]
                on_table.remove(k)
                rolled.append(k)
                event("a tray value reused")
                continue
            if e["source"] == "physical":
                assert not self.waits(on_table, player, key, purpose, before), (
                    f"a {e['via']} value was accepted while a kept value waits: {e}")
                made = Kept(player, key, purpose, None, e["value"], via=e["via"])
                (rolled if e["via"] == "tray" else typed).append(made)
                continue
            if e["kept"]:
                [k] = [k for k in on_table if k.index == e["index"]]
                assert (k.player, k.key, k.purpose) == (player, key, purpose), (k, e)
                assert (k.value, k.card) == (e["value"], card), (k, e)
                assert self.applies(k, player, key, purpose, before)
                on_table.remove(k)
                rolled.append(k)
                event("a kept value reused")
                continue
            assert not self.waits(on_table, player, key, purpose, before), (
                f"a new roll while a kept value waits: {e}")
            assert e["index"] == self.next_index, (e, self.next_index)
            draw = stream_draw(self.seed, e["index"], e["sides"])
            assert e["value"] == (draw if deck else die_value(e["die"], draw, self.percentile))
            self.next_index += 1
            rolled.append(Kept(player, key, purpose, e["index"], e["value"], card,
                               self.piles.get(deck or "", 0), bool(deck in reshuffled)))
        dropped = [k for k in on_table if k.deck in reshuffled]
        said = [k["roll"]["index"] for e in events if e["type"] == "kept_dropped"
                for k in e["kept"]]
        assert sorted(said) == sorted(k.index for k in dropped), (said, dropped)
        if dropped:
            event("a kept card dropped by a reshuffle")
        said_fixed = [(e["player"], e["was"], e["now"]) for e in events
                      if e["type"] == "die_corrected"]
        assert said_fixed == corrected, (said_fixed, corrected)
        self.steps.append(Step(seq, dict(self.piles), rolled, dropped, typed))
        self.kept = [k for k in on_table if k not in dropped]
        self.piles.update({deck: seq for deck in reshuffled})

    def undone(self, undone: dict[str, Any]) -> None:
        step = self.steps.pop()
        assert undone["seq"] == step.seq
        back = step.rolled + step.dropped
        gone = [k for k in back + self.kept if k.deck is not None and k.pile == step.seq > 0]
        back = [k for k in back if k not in gone]
        assert [(k["roll"]["index"], k["roll"]["value"]) for k in undone["kept"]] == [
            (k.index, k.value) for k in back]
        assert [k["roll"]["value"] for k in undone["typed"]] == [k.value for k in step.typed]
        self.typed = step.typed + self.typed
        assert sorted(k["roll"]["index"] for k in undone["dropped"]) == sorted(
            k.index for k in gone)
        if gone:
            event("a kept card dropped by undoing its pile's reshuffle")
        self.kept = back + [k for k in self.kept if k not in gone]
        self.piles = step.piles_before

    def same_as(self, session: Session) -> None:
        def mine(k: Kept) -> tuple[Any, ...]:
            return (k.player, k.key, k.purpose, k.index, k.value, k.card)
        theirs = sorted((k.player or "", k.key, k.purpose,
                         -1 if k.roll.index is None else k.roll.index, k.roll.value,
                         k.card or "") for k in session.kept)
        assert theirs == sorted((p or "", key, pu, -1 if i is None else i, v, c or "")
                                for p, key, pu, i, v, c in map(mine, self.kept))


# ---- random play ---------------------------------------------------------------------------

def typed(die: str, v: int, percentile: str, name: str = "roll") -> dict[str, Any]:
    """A typed or tray value a third of the time; else nothing, and the box rolls."""
    if v % 3:
        return {}
    faces = die_range(die, percentile)
    return {name: faces[(v // 3) % len(faces)], "via": "tray" if v % 2 else "typed"}


def request(s: GameState, p: int, v: int) -> dict[str, Any]:
    """A plausible command for state `s` (often legal, sometimes not)."""
    pct = s.rules.percentile
    if p % 10 == 0:
        return {"cmd": "undo"}
    if p % 17 == 1:
        die = DICE[v % 3]
        return {"cmd": "roll", "die": die, **typed(die, v // 3, pct, "value")}
    if p % 251 == 2:
        return {"cmd": "reveal"}
    if s.phase is Phase.SETUP:
        undealt = [q.name for q in s.players if not q.dealt]
        if undealt:
            return {"cmd": "deal", "player": undealt[0]}  # the test fills in a hand
        tie = next((q for q in s.pending if q.decision == "tiebreak"), None)
        rolling = list(tie.options) if tie else [q.name for q in s.players]
        if tie and s.rules.tiebreak == "rps":
            return {"cmd": "tiebreak", "winner": rolling[v % len(rolling)]}
        rolls = {n: 1 + (v >> (2 * i)) % 6 for i, n in enumerate(rolling) if (p >> i) & 1}
        return {"cmd": "turn_order", "rolls": rolls, **({"via": "tray"} if v & 1 else {})}
    who = s.current_player
    if who is None:
        return {"cmd": "undo"}
    me = who.name
    mine = [q for q in s.pending if q.player == me]
    if mine:
        q = mine[0]
        if q.decision == "obstacle":
            cards: dict[str, Any] = {}
            if p & 2 and who.specialists:
                cards["specialist"] = who.specialists[v % len(who.specialists)]
            if p & 4 and who.attributes:
                cards["attribute"] = who.attributes[v % len(who.attributes)]
            return {"cmd": "bypass", "player": me, **cards, **typed("d100", v, pct)}
        if q.decision in ("caught", "second_strike"):
            return {"cmd": "choose", "player": me, "choice": q.options[v % len(q.options)]}
        if q.decision == "reup":
            return {"cmd": "reup", "player": me, **typed("d6", v, pct)}
        if q.decision == "draw":
            deck = DECKS[p & 1]
            pile = draw_pile(s, deck)
            if v % 3 == 0 and pile:
                return {"cmd": "draw", "player": me, "deck": deck, "card": pile[v % len(pile)]}
            return {"cmd": "draw", "player": me, "deck": deck}
        if q.decision == "tile":
            return move(s, me, who.where, p, v, {})
    if not s.turn.moved:
        if p % 5 == 0:
            return {"cmd": "move_roll", "player": me, **typed("d6", v, pct)}
        return move(s, me, who.where, p, v, typed("d6", v, pct))
    if s.turn.tile == "art" and p & 1 and s.turn.museum and s.museums[s.turn.museum]:
        here = s.museums[s.turn.museum]
        return {"cmd": "steal", "player": me, "art": here[v % len(here)]}
    if s.turn.tile == "black_market" and p & 1 and who.art:
        return {"cmd": "sell", "player": me}
    return {"cmd": "end_turn", "player": me}


def move(s: GameState, me: str, where: str | None, p: int, v: int,
         roll: dict[str, Any]) -> dict[str, Any]:
    tiles = INSIDE if where else OUTSIDE
    tile = tiles[(p >> 3) % len(tiles)]
    museum = {"museum": "Small Museum"} if where is None and tile in ("security", "alarm",
                                                                      "art") else {}
    return {"cmd": "move", "player": me, "tile": tile, **museum, **roll}


def refused_for_a_kept_die(model: Model, s: GameState, req: dict[str, Any]) -> bool:
    """Whether the model has a kept value waiting for the die `req` would type in."""
    who = s.current_player.name if s.current_player else None
    purpose = {"roll": "free", "move": "move", "move_roll": "move", "bypass": "bypass",
               "reup": "reup", "turn_order": "turn_order"}.get(req["cmd"])
    if req["cmd"] == "draw":
        return model.waits(model.kept, req["player"], f"pick:{req['deck']}", "draw", s)
    if purpose is None:
        return False
    die = {"roll": req.get("die"), "bypass": "d100"}.get(req["cmd"], "d6")
    players = list(req.get("rolls", {})) if req["cmd"] == "turn_order" else [
        req.get("player", who)]
    return any(model.waits(model.kept, n, str(die), purpose, s) for n in players)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=1, max_value=4),
       rules=st.fixed_dictionaries({
           "reup_at_or_below": st.sampled_from([0, 4, 6]),
           "tiebreak": st.sampled_from(["rps", "reroll"]),
           "bypass_target": st.sampled_from([60, 100]),
           "percentile": st.sampled_from(["1-100", "0-99"]),
           "win_money": st.just(10**12)}),
       steps=st.integers(min_value=60, max_value=250),
       rnd=st.randoms(use_true_random=False))
def test_undo_never_lets_anyone_choose_a_die(players: int, rules: dict[str, Any],
                                             steps: int, rnd: Random) -> None:
    catalog = parse_catalog(small_catalog(players), "small.toml")
    t = Table(Session(catalog, seed=SEED))
    t.ok("new_game", players=[f"P{i}" for i in range(players)], rules=rules)
    model = Model(SEED, rules["percentile"])
    for _ in range(steps):
        p, v = rnd.randrange(2**16), rnd.randrange(2**16)
        s = t.session.state
        if s.over:
            break
        req = request(s, p, v)
        if req["cmd"] == "deal":
            req.update(hand_for(t.session))
        answer = t.session.handle(req)
        if not answer["ok"]:
            code = answer["error"]["code"]
            if code in ("die_kept", "card_kept"):
                event(f"refused: {code}")
                assert refused_for_a_kept_die(model, s, req), (req, answer["error"])
            assert answer["error"]["code"] != "internal_error"
        elif req["cmd"] == "undo":
            [undone] = answer["events"]
            model.undone(undone)
        else:
            model.accepted(t.session.log[-1].seq, answer["events"], s)
        model.same_as(t.session)
        assert t.session.stream_position == model.next_index
    again = Session.resume(list(t.session.log), seed=SEED, catalog=catalog)
    assert again.state == t.session.state
    assert again.kept == t.session.kept
    assert again.stream_position == t.session.stream_position

