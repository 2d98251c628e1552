"""The session: undo, kept dice, the dice stream, the log, rebuilding from events."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.dice import die_value, stream_draw
from referee.games.gallery_grippers.catalog import default_catalog
from referee.session import Session
from tests.referee.conftest import SEED, Table, start

M1 = next(iter(default_catalog().museums))


def at_obstacle() -> Table:
    t = start()
    t.ok("move", player="Ann", tile="alarm", museum=M1, roll=3)
    return t


def rolls(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in answer["events"] if e["type"] == "roll"]


def test_undo_keeps_an_electronic_roll_on_the_table_and_the_next_roll_reuses_it() -> None:
    t = at_obstacle()
    [first] = rolls(t.ok("bypass", player="Ann"))
    assert first["source"] == "electronic" and not first["kept"]
    position = t.session.stream_position
    undo = t.ok("undo")
    [undone] = undo["events"]
    assert undone["type"] == "undone" and undone["cmd"] == "bypass"
    assert [k["roll"]["value"] for k in undone["kept"]] == [first["value"]]
    assert t.state["pending"][0]["decision"] == "obstacle"  # back before the bypass
    hand = t.player("Ann")["hand"]
    [again] = rolls(t.ok("bypass", player="Ann", specialist=hand["specialists"][0]))
    assert again["value"] == first["value"] and again["index"] == first["index"]
    assert again["kept"] is True
    assert t.session.stream_position == position  # no new roll was made
    [bypass] = [e for e in t.session.log[-1].events if e["type"] == "bypass"]
    assert bypass["roll_kept"] is True


def test_undone_steps_stay_in_the_log_marked() -> None:
    t = at_obstacle()
    t.ok("bypass", player="Ann")
    t.ok("undo")
    log = t.session.log
    assert [e.command["cmd"] for e in log[-2:]] == ["bypass", "undo"]
    assert log[-2].undone is True and log[-1].undone is False
    assert log[-1].command["undoes"] == log[-2].seq


def test_a_typed_physical_roll_is_not_kept() -> None:
    t = at_obstacle()
    t.ok("bypass", player="Ann", roll=12)
    t.ok("undo")
    assert t.session.kept == ()
    [fresh] = rolls(t.ok("bypass", player="Ann"))
    assert fresh["source"] == "electronic" and fresh["kept"] is False


def test_a_kept_die_waits_for_the_same_player_and_the_same_die() -> None:
    t = at_obstacle()
    [d100] = rolls(t.ok("bypass", player="Ann"))
    t.ok("undo")
    t.ok("undo")  # the move too (its d6 was typed: not kept)
    [d6] = rolls(t.ok("move", player="Ann", tile="alarm", museum=M1))
    assert d6["die"] == "d6" and d6["kept"] is False and d6["index"] == d100["index"] + 1
    [again] = rolls(t.ok("bypass", player="Ann"))
    assert again["kept"] and again["value"] == d100["value"]


def test_two_undone_rolls_come_back_in_the_order_they_were_rolled() -> None:
    t = start()
    [m1] = rolls(t.ok("move", player="Ann", tile="plain"))
    t.ok("end_turn", player="Ann")
    t.ok("undo")
    t.ok("undo")
    [again] = rolls(t.ok("move", player="Ann", tile="plain"))
    assert again["kept"] and again["value"] == m1["value"]


def test_undoing_a_box_draw_keeps_the_card_for_the_next_draw() -> None:
    t = start()
    t.ok("move", player="Ann", tile="recruitment", roll=2)
    first = next(e for e in t.ok("draw", player="Ann", deck="specialist")["events"]
                 if e["type"] == "drawn")
    t.ok("undo")
    again = next(e for e in t.ok("draw", player="Ann", deck="specialist")["events"]
                 if e["type"] == "drawn")
    assert again["card"] == first["card"] and again["source"] == "box"


def test_nothing_to_undo_at_the_start_of_a_game() -> None:
    t = Table(Session(seed=SEED))
    t.no("undo", "nothing_to_undo")
    t.ok("new_game", players=["Ann"])
    t.no("undo", "nothing_to_undo")


def test_a_new_game_needs_abandon_while_one_is_running() -> None:
    t = start()
    t.no("new_game", "game_in_progress", players=["X"])
    answer = t.ok("new_game", players=["X"], abandon=True)
    assert [p["name"] for p in answer["state"]["players"]] == ["X"]
    assert [e.command["cmd"] for e in t.session.log] == ["new_game"]


def test_house_rule_overrides_are_validated() -> None:
    t = Table(Session(seed=SEED))
    for rules in ({"tiebreak": "coin"}, {"nope": 1}, {"bypass_target": "high"},
                  {"win_money": -1}):
        t.no("new_game", "bad_rules", players=["Ann"], rules=rules)
    answer = t.ok("new_game", players=["Ann"], rules={"fence_bonus_per_extra_piece": 0})
    assert answer["state"]["rules"]["fence_bonus_per_extra_piece"] == 0


def test_player_list_is_validated() -> None:
    t = Table(Session(seed=SEED))
    t.no("new_game", "bad_players", players=[f"P{i}" for i in range(7)])
    t.no("new_game", "bad_players", players=["Ann", "ann"])
    t.no("new_game", "bad_players", players=[{"name": "A", "color": "red"},
                                             {"name": "B", "color": "red"}])
    answer = t.ok("new_game", players=[{"name": "A", "color": "orange"}, {"name": "B"}])
    colors = [p["color"] for p in answer["state"]["players"]]
    assert colors[0] == "orange" and colors[1] not in ("orange", None)


def test_resume_rebuilds_the_same_state_kept_dice_and_stream_position() -> None:
    t = at_obstacle()
    t.ok("bypass", player="Ann")
    t.ok("undo")
    copy = Session.resume([e for e in t.session.log], seed=t.session.seed)
    assert copy.state == t.session.state
    assert copy.kept == t.session.kept
    assert copy.stream_position == t.session.stream_position


# ---- the property: no sequence of commands and undos yields another roll ---------------

TILES = ["plain", "airport", "recruitment", "security", "alarm", "trading", "art", "exit",
         "black_market"]


def bot_request(state: dict[str, Any], pick: int) -> dict[str, Any]:
    """A plausible command for the current state (often legal, sometimes not)."""
    who = state["current"]
    pending = [p for p in state["pending"] if p["player"] == who]
    if pick % 7 == 0:
        return {"cmd": "undo"}
    if pick % 11 == 0:
        return {"cmd": "roll", "die": ["d6", "d10", "d100"][pick % 3]}
    if who is None:  # undone back into setup
        return {"cmd": "turn_order"}
    if pending:
        p = pending[0]
        choice = p["options"][pick % len(p["options"])]
        return {"obstacle": {"cmd": "bypass", "player": who},
                "caught": {"cmd": "choose", "player": who, "choice": choice},
                "second_strike": {"cmd": "choose", "player": who, "choice": choice},
                "reup": {"cmd": "reup", "player": who},
                "draw": {"cmd": "draw", "player": who,
                         "deck": ["specialist", "attribute"][pick % 2]},
                }[p["decision"]]
    if not state["turn"]["moved"]:
        me = next(p for p in state["players"] if p["name"] == who)
        if me["where"] != "outside":
            inside = ["plain", "security", "alarm", "art", "exit", "recruitment"]
            return {"cmd": "move", "player": who, "tile": inside[pick % len(inside)]}
        tile = TILES[pick % len(TILES)]
        request = {"cmd": "move", "player": who, "tile": tile}
        if tile in ("security", "alarm", "art"):
            request["museum"] = list(state["museums"])[pick % len(state["museums"])]
        return request
    if state["turn"]["tile"] == "art" and pick % 2:
        here = state["museums"][state["turn"]["museum"]]
        if here:
            return {"cmd": "steal", "player": who, "art": here[pick % len(here)]}
    if state["turn"]["tile"] == "black_market" and pick % 2:
        return {"cmd": "sell", "player": who}
    return {"cmd": "end_turn", "player": who}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120),
       players=st.integers(min_value=1, max_value=4))
def test_no_commands_and_undos_ever_yield_a_roll_but_the_streams_next(
        picks: list[int], players: int) -> None:
    t = start([f"P{i}" for i in range(players)], rolls={f"P{i}": 1 + i for i in range(players)},
              rules={"reup_at_or_below": 2})
    seed = t.session.seed
    assert seed is not None
    expected_next = t.session.stream_position
    for pick in picks:
        state = t.state
        if state["over"]:
            break
        answer = t.session.handle(bot_request(state, pick))
        if not answer["ok"]:
            continue
        for e in answer["events"]:
            if e["type"] == "undone":
                continue
            if e["type"] != "roll" or e["source"] != "electronic":
                continue
            draw = stream_draw(seed, e["index"], e["sides"])
            want = draw if e["die"] == "pick" else die_value(e["die"], draw, "1-100")
            assert e["value"] == want  # every electronic value is the stream's, at its index
            if e["kept"]:
                assert e["index"] < expected_next  # a value rolled before, not a new one
            else:
                assert e["index"] == expected_next  # a new roll is the stream's next value
                expected_next += 1
    assert t.session.stream_position == expected_next
    rebuilt = Session.resume(list(t.session.log), seed=seed)
    assert rebuilt.state == t.session.state and rebuilt.kept == t.session.kept


def test_a_failing_subscriber_never_hides_a_recorded_command() -> None:
    t = start()
    seen: list[str] = []

    def broken(outcome: Any) -> None:
        raise RuntimeError("display fell off")

    t.session.subscribe(broken)
    t.session.subscribe(lambda outcome: seen.append(outcome.entry.command["cmd"]))
    answer = t.ok("move", player="Ann", tile="plain", roll=2)
    assert answer["state"]["turn"]["moved"] is True
    assert seen == ["move"]  # later subscribers still hear about it
