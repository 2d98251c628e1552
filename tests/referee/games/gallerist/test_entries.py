"""What the table is offered is what the rules take (issue 25, item 1): in any reachable state
every legal action is accepted, and every entry (a step that needs the table's choices or
figures) is accepted whatever is chosen among its options and typed within its bounds; and
the other way round, every request the rules accept, for every player (not only the one
acting now), is offered: a legal action, or an entry whose choices and bounds make it (the
candidates: space.py).

The states come from a real session driven by random commands (the rules' tests' generator,
refused ones too), random picks of entries with random fillings, and undos; with the test
catalog (the box computes fame, values, desks) and the built-in one (the table enters them).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.games.gallerist.actions import actor, entries, legal_actions
from referee.games.gallerist.commands import parse_command
from referee.games.gallerist.rules import decide
from referee.games.gallerist.state import State
from referee.session import Session
from tests.referee.games.gallerist import make_games
from tests.referee.games.gallerist import test_session as play
from tests.referee.games.gallerist.space import accepted_space, offered

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def fill(entry: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The entry's request with a random pick of each choice and a number within bounds."""
    req = dict(entry["request"])
    for ask in entry["asks"]:  # (a choice that follows another comes after it)
        if ask["kind"] == "choice":
            options = (ask["options_by"][req[ask["by"]]] if "options_by" in ask
                       else ask["options"])
            req[ask["key"]] = data.draw(st.sampled_from([v for _, v in options]))
    for ask in entry["asks"]:
        value: Any
        if ask["kind"] == "players":
            value = data.draw(st.lists(st.sampled_from([v for _, v in ask["options"]]),
                                       unique=True))
        elif ask["kind"] == "number":
            if ask["optional"] and data.draw(st.booleans()):
                continue
            low, high = ask["low"], ask["high"]
            if "by" in ask:
                low, high = ask["bounds"][req[ask["by"]]]
            value = data.draw(st.one_of(st.just(low), st.just(high), st.integers(low, high)))
        elif ask["kind"] == "text":
            if data.draw(st.booleans()):
                continue
            value = "rep 1"
        else:
            continue
        top, dot, sub = ask["key"].partition(".")
        if dot:
            req.setdefault(top, {})[sub] = value
        else:
            req[ask["key"]] = value
    return req


def accepted(s: State, req: dict[str, Any]) -> None:
    decide(s, parse_command(req))  # raises a Refusal if not


def reach(data: st.DataObject) -> Session:
    s = Session(seed=play.SEED)
    count = data.draw(st.integers(1, 4), label="players")
    start: dict[str, Any] = {"cmd": "new_game", "game": "gallerist", "players": NAMES[:count]}
    if data.draw(st.booleans(), label="test catalog"):
        start.update(catalog=play.START["catalog"], bag=dict(play.START["bag"]))
    else:
        start["bag"] = data.draw(st.integers(2, 12), label="bag")
    assert s.handle(start)["ok"]
    for _ in range(data.draw(st.integers(0, 150), label="steps")):
        if s.state.over:
            break
        how = data.draw(st.integers(0, 9), label="how")
        if how == 0 and len(s.log) > 1:
            s.handle({"cmd": "undo"})
        elif how < 5:
            found = entries(s.state)
            legal = legal_actions(s.state, None)
            options: list[Any] = [*found, *legal]
            if not options:
                break
            chosen = data.draw(st.sampled_from(options), label="pick")
            s.handle(fill(chosen, data) if "asks" in chosen else dict(chosen))
        else:
            s.handle(play._requests(s.state, data))
    return s


def check(s: State, data: st.DataObject) -> None:
    legal = legal_actions(s, None)
    for req in legal:
        accepted(s, req)
    found = entries(s)
    # every request the rules accept, for any player (not only the one acting now), is on
    # offer: a legal action, or an entry's dialog with that choice and figure
    missing = [r for r in accepted_space(s) if not offered(legal, found, r)]
    assert not missing, (s.phase, actor(s), missing[:8], [
        e for e in found if e["request"]["cmd"] == missing[0]["cmd"]])
    for entry in found:
        assert entry["label"] and entry["asks"], entry
        for ask in entry["asks"]:
            if ask["kind"] == "choice":
                assert ask["options"], entry
                if "options_by" in ask:  # every player the entry offers has options
                    by = next(a for a in entry["asks"] if a["key"] == ask["by"])
                    assert [v for _, v in by["options"]] == list(ask["options_by"]), entry
                    assert all(ask["options_by"].values()), entry
            if ask["kind"] == "number":
                assert ask["low"] <= ask["high"], entry
        for _ in range(3):
            req = fill(entry, data)
            accepted(s, req)
    event(f"phase {s.phase}; entries {sorted({e['request']['cmd'] for e in found})}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_offered_step_is_accepted(data: st.DataObject) -> None:
    check(reach(data).state, data)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_offered_step_is_accepted_late_in_the_scripted_game(data: st.DataObject) -> None:
    """Kick-outs, the end, the final round, the auction and final scoring."""
    script = [r for r in make_games.game() if r["cmd"] != "state"]
    n = data.draw(st.integers(1, len(script)), label="prefix")
    s = Session(seed=play.SEED)
    for req in script[:n]:
        play.ok(s, **req)
    check(s.state, data)


def test_a_card_s_money_waits_for_the_player_s_own_auction_pick() -> None:
    """Curator or dealer money before the player's auction pick is refused `auction_first`:
    neither the pending options nor the entries offer it then."""
    script = [r for r in make_games.game() if r["cmd"] != "state"]
    s = Session(seed=play.SEED)
    for req in script[: next(i for i, r in enumerate(script) if r["cmd"] == "auction_pick")]:
        play.ok(s, **req)
    state = s.ruleset.state_json(s.state)
    ben = next(p for p in state["pending"] if p["player"] == "Ben" and p["decision"] == "score")
    assert "curator" not in ben["options"] and "dealer" not in ben["options"]
    assert not [e for e in entries(s.state) if e["request"].get("player") == "Ben"
                and e["request"].get("category") in ("curator", "dealer")]
    answer = s.handle({"cmd": "score", "player": "Ben", "category": "curator", "money": 1})
    assert answer["error"]["code"] == "auction_first"
    ann = [e["request"]["category"] for e in entries(s.state)
           if e["request"].get("player") == "Ann" and e["request"]["cmd"] == "score"]
    assert "curator" in ann  # (Ann has no pick to wait for)


def test_the_auction_and_card_entries_show_what_counts() -> None:
    """The auction's entry names the form's most famous artist and its fame; the curator's
    and the dealer's list the works that count (the renowned work too, once picked)."""
    from tests.referee.games.gallerist.helpers import Game

    g = Game(["Ann", "Ben"], catalog=None, bag=30)
    g.place_all()
    g.ok("discover", artist="Red 1", fame=12)
    g.ok("discover", artist="Blue 1", fame=14)
    g.ok("acquire", player="Ann", artist="Red 1", cost=1)
    g.ok("market", player="Ann", column=1, row="lower", cost=2)
    g.given(phase="final_scoring", current=None, queue=())
    auction = [e for e in entries(g.state) if e["request"]["cmd"] == "auction_pick"]
    form1 = next(e for e in auction if e["request"]["easel"] == "form 1")
    assert form1["waits"] and form1["about"].startswith(
        "The most famous form 1 artist: Blue 1, fame 14")
    other = next(e for e in auction if e["request"]["easel"] == "form 2")
    assert "No form 2 artist's fame is known" in other["about"]
    g.ok("auction_pick", player="Ann", easel="form 1", counts_as="sold", value=7)
    about = {e["request"]["category"]: e["about"] for e in entries(g.state)
             if e["request"].get("player") == "Ann" and e["request"]["cmd"] == "score"}
    assert about["curator"] == "The works that count (exhibited): Red 1."
    assert about["dealer"] == "The works that count (sold): renowned form 1."


def test_a_fame_step_is_offered_short_of_a_celebrity_s_money_past_999() -> None:
    """A celebrity brings 5 money, refused past 999 (`money_too_high`): a player with 995
    money or more is offered fame steps only short of the celebrity space, per artist; the
    others keep the plain entry (any steps up to 19)."""
    from tests.referee.games.gallerist.helpers import Game

    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("discover", artist="RedA", fame=10)
    g.ok("discover", artist="BlueA", fame=17)
    g.ok("money", player="Ann", delta=986)  # 996
    found = [e for e in entries(g.state) if e["request"]["cmd"] == "fame"]
    plain = next(e for e in found if "by" not in e["request"])
    assert [v for _, v in plain["asks"][0]["options"]] == ["Ben"]
    assert (plain["asks"][2]["low"], plain["asks"][2]["high"]) == (1, 19)
    ann = next(e for e in found if e["request"].get("by") == "Ann")
    assert ann["asks"][1]["bounds"] == {"RedA": [1, 8], "BlueA": [1, 1]}
    assert "996 money" in ann["about"]
    err = g.no("fame", "money_too_high", "GAL-10", artist="RedA", by="Ann", steps=9)
    assert "Ann has 996, so at most 3 more, not 5" in err.message  # (the player who gets it)
    g.ok("fame", artist="RedA", by="Ann", steps=8)
