"""The Gallerist through the game-neutral core: the registry, the fair start-player draw and
box draws from the bag (an undone draw stays on the table), store, resume and verify; and a
property: money never goes below 0 and every count holds after any commands and undos."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.app import open_session
from referee.games.gallerist import RULESET
from referee.games.gallerist.state import CATEGORIES
from referee.session import Session
from tests.referee.games.gallerist.helpers import FIXTURE, PLACES
from tests.referee.games.playing import resumes_and_verifies

SEED = bytes(range(32))
NAMES = ["Ann", "Ben", "Cy"]
START = {"cmd": "new_game", "game": "gallerist", "players": NAMES, "catalog": FIXTURE,
         "bag": {"pink": 3, "brown": 2, "white": 4}}


def ok(session: Session, **request: Any) -> dict[str, Any]:
    answer = session.handle(request)
    assert answer["ok"], (request, answer)
    return answer


def place_all(session: Session) -> None:
    while session.state.phase == "setup":
        due = session.ruleset.state_json(session.state)["pending"][0]["player"]
        ok(session, cmd="place_start", player=due, location=PLACES[NAMES.index(due)])


def test_a_fair_start_draw_box_draws_from_the_bag_store_resume_verify(tmp_path: Path) -> None:
    assert "gallerist" in games.available()
    path = tmp_path / "games.sqlite"
    session = open_session(db=path, seed=SEED, notify=lambda _: None)
    answer = ok(session, **START)
    [roll] = [e for e in answer["events"] if e["type"] == "roll"]
    assert roll["die"] == "d3" and roll["purpose"] == "start_player" and roll["index"] == 0
    assert answer["state"]["start_player"] == NAMES[roll["value"] - 1]
    drawn = ok(session, cmd="draw_visitor")["events"]
    first = next(e for e in drawn if e["type"] == "visitor_drawn")
    assert first["source"] == "box"
    assert session.ruleset.state_json(session.state)["bag"][first["colour"]] == \
        START["bag"][first["colour"]] - 1  # type: ignore[index]
    ok(session, cmd="undo")
    refused = session.handle({"cmd": "draw_visitor", "colour": "pink"})
    assert refused["error"]["code"] == "card_kept"  # the undone draw is still on the table
    assert refused["error"]["rule"] == "GAL-26"  # (issue 39: every refusal names its rule)
    again = ok(session, cmd="draw_visitor")["events"]
    assert next(e for e in again if e["type"] == "visitor_drawn")["colour"] == first["colour"]
    assert next(e for e in again if e["type"] == "roll")["kept"] is True
    place_all(session)
    who = session.ruleset.state_json(session.state)["current"]
    ok(session, cmd="move", player=who, to="International Market")
    assert session.undo_words() == f"Undo the move to International Market ({who})."
    ok(session, cmd="reveal")
    resumes_and_verifies(session, path, "gallerist", SEED)


def _wanted(s: Any, pick: st.DataObject) -> dict[str, Any]:
    """What the game waits for, as a table would play on (so that sequences reach the end
    trigger, the final round and the final scoring)."""
    pending = RULESET.state_json(s)["pending"]
    if s.phase == "setup":
        return {"cmd": "place_start", "player": pending[0]["player"],
                "location": pick.draw(st.sampled_from(pending[0]["options"]))}
    if s.phase == "final_scoring":
        if not pending:
            return {"cmd": "final_scoring"}
        due = pending[0]
        if due["decision"] == "auction_pick":
            form = pick.draw(st.sampled_from(due["options"]))
            req = {"cmd": "auction_pick", "player": due["player"], "easel": form,
                   "counts_as": pick.draw(st.sampled_from(["sold", "exhibited"]))}
            if not any(a.discovered for n, a in s.artists.items()
                       if s.catalog.artist(n).form == form):
                req["value"] = pick.draw(st.integers(0, 15))
            return req
        return {"cmd": "score", "player": due["player"], "category": due["options"][0],
                "money": pick.draw(st.integers(0, 12))}
    if s.queue:
        q = s.queue[0]
        if q.decision == "intermediate":
            return {"cmd": "intermediate",
                    "tile": pick.draw(st.sampled_from(pending[0]["options"])),
                    "qualifying": pick.draw(st.lists(st.sampled_from(list(s.names)),
                                                     unique=True)),
                    "benefit": {"money": pick.draw(st.integers(0, 4))}}
        return {"cmd": "kickout_action", "player": q.player,
                "kind": pick.draw(st.sampled_from(pending[0]["options"]))}
    cur = s.current
    if not s.turn.moved:
        here = s.player(cur).gallerist
        return {"cmd": "move", "player": cur,
                "to": pick.draw(st.sampled_from([x for x in PLACES if x != here]))}
    if not s.turn.location_action:
        return {"cmd": "location_action", "player": cur}
    return {"cmd": "end_turn", "player": cur}


def _requests(s: Any, pick: st.DataObject) -> dict[str, Any]:
    names = list(s.names)
    who = pick.draw(st.sampled_from(names))
    kind = pick.draw(st.sampled_from(
        ["next", "next", "next", "next", "next", "next", "turn", "queue", "money", "ticket",
         "visitor", "hire", "market", "artist", "artist", "acquire", "sell", "draw", "draw",
         "score", "undo"]))
    cur = s.current or who
    if kind == "next" and not s.over:
        return _wanted(s, pick)
    if s.phase == "setup":
        due = [p.name for p in s.players if p.gallerist is None]
        return {"cmd": "place_start", "player": pick.draw(st.sampled_from(due or names)),
                "location": pick.draw(st.sampled_from(PLACES))}
    if kind == "turn":
        step = pick.draw(st.sampled_from(["move", "move", "location_action", "executive",
                                          "end_turn", "end_turn"]))
        if step == "move":
            req = {"cmd": "move", "player": cur, "to": pick.draw(st.sampled_from(PLACES))}
            if pick.draw(st.booleans()):
                req["leave_assistant"] = "desk"
            return req
        if step == "executive":
            return {"cmd": step, "player": cur,
                    "kind": pick.draw(st.sampled_from(["tickets", "contract_bonus"]))}
        return {"cmd": step, "player": cur}
    if kind == "queue":
        if s.queue and s.queue[0].decision == "intermediate":
            return {"cmd": "intermediate", "tile": pick.draw(st.integers(1, 3)),
                    "qualifying": pick.draw(st.lists(st.sampled_from(names), unique=True)),
                    "benefit": {"money": pick.draw(st.integers(0, 4))}}
        if s.queue:
            return {"cmd": "kickout_action", "player": s.queue[0].player,
                    "kind": pick.draw(st.sampled_from(["location", "executive", "pass"]))}
        return {"cmd": "end_turn", "player": cur}
    if kind == "money":
        return {"cmd": "money", "player": who, "delta": pick.draw(st.integers(-15, 8))}
    if kind == "ticket":
        return {"cmd": "take_ticket", "player": who,
                "colour": pick.draw(st.sampled_from(["pink", "brown", "white"]))}
    if kind == "visitor":
        return {"cmd": "visitor", "player": who, "colour": pick.draw(st.sampled_from(
            ["pink", "white"])), "to": pick.draw(st.sampled_from(["gallery", "out"]))}
    if kind == "hire":
        return {"cmd": "hire", "player": who}
    if kind == "market":
        return {"cmd": "market", "player": who, "column": pick.draw(st.integers(1, 3)),
                "row": pick.draw(st.sampled_from(["upper", "lower"])),
                "cost": pick.draw(st.integers(0, 12))}
    artist = pick.draw(st.sampled_from(["RedA", "BlueA", "RedB"]))
    if kind == "artist":
        if pick.draw(st.booleans()):
            return {"cmd": "discover", "artist": artist, "fame": pick.draw(st.integers(8, 18))}
        return {"cmd": "fame", "artist": artist, "by": who, "steps": pick.draw(
            st.integers(1, 12))}
    if kind == "acquire":
        return {"cmd": "acquire", "player": who, "artist": artist,
                "cost": pick.draw(st.integers(0, 12))}
    if kind == "sell":
        return {"cmd": "sell", "player": who, "artist": artist}
    if kind == "draw":
        return {"cmd": "draw_visitor", "player": who}
    if kind == "score":
        if s.phase == "final_scoring":
            return {"cmd": pick.draw(st.sampled_from(["score", "final_scoring"])),
                    "player": who, "category": pick.draw(st.sampled_from(
                        ["reputation", "curator", "dealer", "influence", "exhibited"])),
                    "money": pick.draw(st.integers(0, 20))}
        return {"cmd": "state"}
    return {"cmd": "undo"}


@settings(max_examples=25, deadline=None)
@given(pick=st.data(), players=st.integers(1, 4))
def test_counts_hold_after_any_commands_and_undos(pick: st.DataObject, players: int) -> None:
    session = Session(seed=SEED)
    names = NAMES[:players] if players < 4 else [*NAMES, "Dee"]
    ok(session, **{**START, "players": names})
    tickets = sum(session.state.tickets.values())
    for _ in range(pick.draw(st.integers(10, 250))):
        s = session.state
        if s.over:
            break
        req = _requests(s, pick)
        if req.get("cmd") == "final_scoring":
            req = {"cmd": "final_scoring"}
        before = session.ruleset.state_json(s)
        answer = session.handle(req)
        if not answer["ok"]:  # a refusal changes nothing
            assert session.ruleset.state_json(session.state) == before
        s = session.state
        for p in s.players:
            assert p.money >= 0 and p.influence >= 0
            assert p.queue + p.in_play + p.removed == 10  # 8 in the queue + 2 on desks
            assert min(p.queue, p.desks, p.removed) >= 0 and p.desks <= 4
            n_sold = len(p.sold)
            assert p.visitors.get("white", 0) <= 1 + n_sold
            assert len(p.exhibited) <= 4
        assert all(n >= 0 for n in s.tickets.values())
        taken = tickets - sum(s.tickets.values())
        assert taken >= 0
        assert all(n >= 0 for n in s.bag.values())  # type: ignore[union-attr]
        assert all(a.fame is None or 0 <= a.fame <= 19 for a in s.artists.values())
        assert all(a.celebrity == (a.fame == 19) for a in s.artists.values()
                   if a.discovered)
        assert len(s.goals_scored) <= 3
        j = session.ruleset.state_json(s)
        assert j["next"]
        if j["scoring"] is not None:
            for col in j["scoring"]["market"].values():
                for g in col:
                    assert 0 <= g["pot"] - g["each"] * len(g["players"]) < len(g["players"])
            totals = {}
            for p in j["scoring"]["players"]:
                figures = [p[c] for c in CATEGORIES]
                if p["total"] is not None:
                    assert p["total"] == p["money"] + sum(figures)
                totals[p["name"]] = p["total"]
            if s.over:
                best = max(totals.values())  # type: ignore[type-var]
                assert set(j["result"]["winners"]) <= {n for n, t in totals.items()
                                                       if t == best}
    again = Session.resume(list(session.log), seed=session.seed, ruleset=session.ruleset)
    assert again.state == session.state and again.kept == session.kept


def test_a_new_game_after_a_finished_one_draws_its_start_player_with_its_own_seed() -> None:
    """Issue 39: after a finished game (its seed revealed) a new game whose start player the
    box draws was refused seed_revealed ("roll the d2 yourself"); over an unfinished game the
    same draw worked. A new game gets its own fresh seed, whatever came before."""
    here = Path(__file__).parent
    root = here.parents[3]
    session = Session(seed=None)
    for line in (here / "game.jsonl").read_text(encoding="utf-8").splitlines():
        request = json.loads(line)
        if "catalog" in request:
            request["catalog"] = str(root / request["catalog"])
        ok(session, **request)
    assert session.state.over and session.state.seed is not None
    old = session.state.seed
    answer = ok(session, cmd="new_game", game="gallerist", players=["Ann", "Ben"],
                catalog=FIXTURE)
    [roll] = [e for e in answer["events"] if e["type"] == "roll"]
    assert roll["purpose"] == "start_player" and roll["source"] == "electronic"
    assert answer["state"]["seed"] is None and answer["state"]["commitment"] != \
        hashlib.sha256(bytes.fromhex(old)).hexdigest()
