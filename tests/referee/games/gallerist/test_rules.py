"""Every GAL rule and refusal not walked through by the scenarios, and properties of the
market split (GAL-17): a pot is paid out in full but for the stated rounding."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import BadRequest, CatalogError, Refusal, SettingsError
from referee.games.gallerist import RULESET
from referee.games.gallerist.catalog import parse_catalog
from referee.games.gallerist.rules.scoring import REWARDS, split
from referee.games.gallerist.settings import load_settings
from referee.games.gallerist.state import ArtistState, Placement, Work, frozen
from tests.referee.games.gallerist.helpers import FIXTURE, Game

# ---- setup (GAL-1..4) ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "tickets", "easels", "middle"), [
    (["Ann"], 4, 10, 1, False), (["Ann", "Ben"], 4, 10, 1, False),
    (["Ann", "Ben", "Cy"], 2, 15, 2, True), (["Ann", "Ben", "Cy", "Dee"], 0, 20, 3, True)])
def test_setup_by_player_count(players: list[str], removed: int, tickets: int, easels: int,
                               middle: bool) -> None:
    g = Game(players, start=players[0])
    setup = g.json["setup"]
    assert (setup["visitors_removed_per_type"], setup["tickets_per_colour"], setup["easels"],
            setup["middle_column"]) == (removed, tickets, easels, middle)
    assert set(g.json["tickets"].values()) == {tickets}
    assert g.json["bag"] == 40 - 3 * removed


def test_solo_visitor_removal_house_rule() -> None:
    g = Game(["Ann"], start=None, rules={"solo_visitor_removal": 0})
    assert g.json["setup"]["visitors_removed_per_type"] == 0
    assert g.json["start_player"] == "Ann"  # alone: no draw


def test_bad_player_lists_are_refused() -> None:
    g = Game()
    for players, code in ((["A", "B", "C", "D", "E"], "bad_players"), ([], "bad_players"),
                          (["Ann", "ann"], "bad_players")):
        # (over a game in progress: the session's game_in_progress, tests/referee/test_abandon.py)
        fresh = RULESET.initial_state(RULESET.load_catalog(None))
        with pytest.raises(Exception) as err:
            RULESET.decide(fresh, RULESET.start(RULESET.parse(
                {"cmd": "new_game", "players": players, "bag": 10}), commitment="x",
                settings={}))
        assert getattr(err.value, "code", None) == code
    g.no("new_game", "unknown_player", "GAL-1", players=["Ann", "Ben"], start_player="Zed",
         abandon=True, bag=10)


def test_the_bag_must_be_known_and_a_start_draw_is_asked_for() -> None:
    fresh = RULESET.initial_state(RULESET.load_catalog(None))

    def decide(**req: object) -> object:
        cmd = RULESET.start(RULESET.parse({"cmd": "new_game", **req}), commitment="c",
                            settings={})
        return RULESET.decide(fresh, cmd)

    with pytest.raises(Exception) as err:
        decide(players=["Ann", "Ben"])  # the built-in catalog has no bag
    assert getattr(err.value, "code", None) == "catalog_incomplete"
    need = decide(players=["Ann", "Ben", "Cy"], bag={"pink": 10, "white": 5})
    [req] = need.requests  # type: ignore[attr-defined]
    assert (req.die, req.sides, req.purpose) == ("d3", 3, "start_player")
    with pytest.raises(Exception) as err:
        decide(players=["Ann"], bag={"green": 1})
    assert getattr(err.value, "code", None) == "unknown_colour"


def test_starting_places_and_the_checklist() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ben")  # reverse order from Ben: Ann, Cy, Ben
    assert g.json["pending"][0]["player"] == "Ann"
    g.no("move", "setup_not_finished", "GAL-4", player="Ben", to="Media Centre")
    g.no("place_start", "unknown_location", "GAL-4", player="Ann", location="Moon")
    g.no("place_start", "unknown_player", "GAL-1", player="Zed", location="Media Centre")
    g.ok("check", item="tickets")
    g.no("check", "already_checked", "GAL-2", item="tickets")
    g.no("check", "unknown_item", "GAL-2", item="teapot")
    assert "setup steps still open" in g.next and "tickets" not in g.next.split("open:")[1]
    g.ok("draw_visitor")  # setup draws (plaza, lobbies) are recorded too
    assert g.json["bag"] == 33
    g.ok("place_start", player="Ann", location="Media Centre")
    g.ok("place_start", player="Cy", location="Artists Colony")
    g.ok("place_start", player="Ben", location="Fourth Location")
    assert g.json["current"] == "Ben" and g.json["phase"] == "play"
    g.no("place_start", "wrong_phase", "GAL-4", player="Ann", location="Media Centre")
    g.no("check", "wrong_phase", "GAL-4", item="bag")


def test_a_location_outside_the_four_starting_ones_is_not_a_start() -> None:
    text = Path(FIXTURE).read_text().replace('"Fourth Location"]',
                                             '"Fourth Location", "Harbour"]')
    cat = parse_catalog(text)
    assert cat.start_locations[-1] == "Fourth Location" and "Harbour" in cat.locations


# ---- the clock (GAL-5..8, 15) -------------------------------------------------------------


def test_rounds_go_in_seat_order_and_rotating_start_passes_left() -> None:
    for rule, second_round in (("fixed", "Ben"), ("rotating", "Cy")):
        g = Game(["Ann", "Ben", "Cy"], start="Ben", rules={"start_player": rule})
        g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
        order = []
        for _ in range(3):
            who = g.json["current"]
            order.append(who)
            here = g.player(who)["gallerist"]
            free = next(x for x in ("International Market", "Media Centre", "Artists Colony",
                                    "Fourth Location")
                        if x != here and not any(p["gallerist"] == x for p in
                                                 g.json["players"]))
            g.turn(who, free)
        assert order == ["Ben", "Cy", "Ann"]
        assert g.json["round"] == 2 and g.json["current"] == second_round


def test_leaving_an_assistant_from_another_location_and_refusals() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ann", desks=0, locations=("Fourth Location",))
    g.no("move", "no_assistant", "GAL-6", player="Ann", to="International Market",
         leave_assistant="desk")
    g.no("move", "no_assistant", "GAL-6", player="Ann", to="International Market",
         leave_assistant="Artists Colony")
    g.no("move", "unknown_location", "GAL-6", player="Ann", to="Moon")
    # issue 39: a place that is no location is the contract's unknown_location, not no_assistant
    err = g.no("move", "unknown_location", "GAL-6", player="Ann", to="International Market",
               leave_assistant="Moon")
    assert "'Moon'" in err.message and "Fourth Location" in err.message
    g.ok("move", player="Ann", to="International Market", leave_assistant="Fourth Location")
    assert g.player("Ann")["assistants"]["locations"] == {"Media Centre": 1}


def test_moving_in_kicks_out_every_other_piece_in_seat_order_after_the_mover() -> None:
    g = Game(["Ann", "Ben", "Cy", "Dee"], start="Cy")
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location",
                 "Dee": "International Market"})
    g.given_player("Ann", locations=("International Market",))
    g.given_player("Cy", locations=("International Market",))
    g.ok("move", player="Cy", to="International Market")  # Cy's own assistant stays
    g.ok("location_action", player="Cy")
    g.ok("end_turn", player="Cy")
    pend = [(p["player"], p["piece"]) for p in g.json["pending"]]
    assert pend == [("Dee", "gallerist"), ("Ann", "assistant")]
    g.no("kickout_action", "decision_pending", "GAL-5", player="Ann", kind="pass")
    g.ok("kickout_action", player="Dee", kind="pass")
    g.ok("kickout_action", player="Ann", kind="pass")  # the catalog has 4 desks: one free
    ann = g.player("Ann")["assistants"]
    assert ann["desks"] == 3 and ann["removed"] == 0 and ann["locations"] == {}
    assert g.player("Cy")["assistants"]["locations"] == {"International Market": 1}
    assert g.json["current"] == "Dee"


def test_kickout_order_from_the_start_player() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ann", rules={"kickout_order": "seat_from_start_player"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony", "Cy": "Fourth Location"})
    g.turn("Ann", "International Market")
    g.given_player("Ann", locations=("Fourth Location",))
    g.given_player("Cy", gallerist="Media Centre")
    g.ok("move", player="Ben", to="Fourth Location")
    g.ok("location_action", player="Ben")
    g.ok("end_turn", player="Ben")
    assert [p["player"] for p in g.json["pending"]] == ["Ann"]


def test_without_desks_or_icons_in_the_catalog_the_table_says() -> None:
    g = Game(["Ann", "Ben"], catalog=None, bag=30, start="Ann")
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ben", locations=("International Market",))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.no("kickout_action", "value_needed", "GAL-25", player="Ben", kind="location")
    g.no("kickout_action", "influence_not_lower", "GAL-9", player="Ben", kind="location",
         influence=10)
    events = g.ok("kickout_action", player="Ben", kind="location", influence=7)
    assert events[0]["source"] == "table" and g.player("Ben")["influence"] == 7
    g.turn("Ben", "Sales Office")  # the built-in catalog's label
    g.ok("move", player="Ann", to="International Market")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    g.no("kickout_action", "value_needed", "GAL-8", player="Ben", kind="pass")
    g.ok("kickout_action", player="Ben", kind="pass", desk=False)
    assert g.player("Ben")["assistants"]["removed"] == 1


def test_at_or_below_makes_the_kickout_free_on_an_icon() -> None:
    g = Game(["Ann", "Ben"], rules={"previous_icon": "at_or_below"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ben", influence=9)
    g.turn("Ann", "Artists Colony")
    g.ok("kickout_action", player="Ben", kind="location")
    assert g.player("Ben")["influence"] == 9


def test_intermediate_after_kickouts_and_all_tiles() -> None:
    g = Game(["Ann", "Ben"], rules={"intermediate_timing": "after_kickout",
                                    "intermediate_tiles": "all"})
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert [p["decision"] for p in g.json["pending"]] == ["kickout", "intermediate"]
    g.ok("kickout_action", player="Ben", kind="pass")
    for tile in (3, 1):
        g.ok("intermediate", tile=tile, qualifying=["Ben"], benefit={"money": 1})
        assert g.json["pending"][0]["decision"] == "intermediate"
    g.no("intermediate", "tile_scored", "GAL-14", tile=1, qualifying=[])
    g.no("intermediate", "unknown_tile", "GAL-14", tile=4, qualifying=[])
    g.ok("intermediate", tile=2, qualifying=["Ben"], benefit={"money": 1})
    assert g.player("Ben")["money"] == 13 and g.json["current"] == "Ben"


def test_two_stacks_in_one_turn_and_one_per_turn() -> None:
    for per_stack, due in ((True, 2), (False, 1)):
        g = Game(["Ann", "Ben"], rules={"intermediate_per_stack": per_stack})
        g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
        g.given(tickets=frozen({"pink": 1, "brown": 1, "white": 5}))
        g.ok("move", player="Ann", to="Fourth Location")
        g.ok("take_ticket", player="Ann", colour="pink")
        g.ok("take_ticket", player="Ann", colour="brown")
        g.ok("location_action", player="Ann")
        g.ok("end_turn", player="Ann")
        assert len(g.json["pending"]) == due


def test_a_stack_emptied_in_a_kickout_is_scored_when_it_ends() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.turn("Ann", "Artists Colony")
    g.ok("take_ticket", player="Ben", colour="pink")  # during Ben's kicked-out action
    g.ok("kickout_action", player="Ben", kind="executive")
    assert [p["decision"] for p in g.json["pending"]] == ["intermediate"]
    g.ok("intermediate", tile=1, qualifying=[])
    assert g.json["current"] == "Ben"


# ---- counters (GAL-9..13) -------------------------------------------------------------------


def test_money_influence_and_recording_refusals() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.no("money", "not_enough_money", "GAL-10", player="Ann", delta=-11)
    g.ok("money", player="Ann", delta=-10, reason="a purchase")
    assert g.player("Ann")["money"] == 0
    g.no("acquire", "not_discovered", "GAL-11", player="Ann", artist="RedA")
    g.ok("discover", artist="RedA", fame=4)
    g.no("acquire", "not_enough_money", "GAL-10", player="Ann", artist="RedA", cost=1)
    g.no("market", "not_enough_money", "GAL-10", player="Ann", column=1, row="lower",
         cost=2)
    g.no("market", "value_needed", "GAL-20", player="Ann", column=1, row="lower")
    g.no("influence", "negative_influence", "GAL-9", player="Ann", to=-1, reason="spend")
    g.no("influence", "influence_not_higher", "GAL-9", player="Ann", to=9, reason="gain")
    g.ok("influence", player="Ann", to=12, reason="gain")
    g.ok("influence", player="Ann", to=3, reason="spend")
    g.no("discover", "already_discovered", "GAL-11", artist="RedA", fame=4)
    g.no("discover", "value_needed", "GAL-25", artist="BlueA")
    g.no("discover", "bad_fame", "GAL-11", artist="BlueA", fame=19)
    g.no("discover", "unknown_artist", "GAL-11", artist="Nobody", fame=2)
    g.no("fame", "not_discovered", "GAL-11", artist="BlueA", by="Ann", steps=1)
    g.no("sell", "not_exhibited", "GAL-12", player="Ann", artist="RedA")
    g.no("visitor", "no_visitor", "GAL-12", player="Ann", colour="pink", to="out")
    g.no("visitor", "unknown_colour", "GAL-12", player="Ann", colour="green", to="gallery")
    g.no("take_ticket", "unknown_colour", "GAL-13", player="Ann", colour="green")
    g.ok("commission", player="Ann", artist="RedA")
    g.no("commission", "already_commissioned", "GAL-11", player="Ann", artist="RedA")
    g.ok("commission", player="Ben", artist="RedA")
    g2 = Game(["Ann", "Ben", "Cy"])
    g2.place_all()
    g2.ok("commission", player="Ann", artist="RedA")
    g2.ok("commission", player="Ben", artist="RedA")
    g2.no("commission", "no_signature_left", "GAL-11", player="Cy", artist="RedA")


def test_a_printed_fame_and_sale_values_contradicted() -> None:
    text = Path(FIXTURE).read_text().replace('name = "RedA"\n', 'name = "RedA"\nfame = 4\n')
    path = Path(FIXTURE).with_name("_printed.toml")
    path.write_text(text)
    try:
        g = Game(["Ann", "Ben"], catalog=str(path))
    finally:
        path.unlink()
    g.place_all()
    g.no("discover", "contradicts_catalog", "GAL-25", artist="RedA", fame=5)
    events = g.ok("discover", artist="RedA")
    assert events[0]["fame"] == 4 and events[0]["source"] == "computed"
    g.ok("acquire", player="Ann", artist="RedA")
    g.no("sell", "contradicts_catalog", "GAL-25", player="Ann", artist="RedA", money=4)
    events = g.ok("sell", player="Ann", artist="RedA")
    assert events[0]["money"] == 3 and g.player("Ann")["money"] == 13


def test_hiring_and_the_desks() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("hire", player="Ann")
    g.ok("hire", player="Ann")
    g.no("hire", "no_desk", "GAL-8", player="Ann")
    g.given_player("Ann", queue=0, desks=1)
    g.no("hire", "queue_empty", "GAL-3", player="Ann")
    g.given_player("Ann", desks=0)
    g.no("market", "no_assistant", "GAL-17", player="Ann", column=1, row="upper")


def test_the_bag_counts_down_and_refuses_when_empty() -> None:
    g = Game(["Ann", "Ben"], bag={"pink": 1, "white": 0, "brown": 0})
    g.place_all()
    g.no("draw_visitor", "bag_empty", "GAL-13", colour="white")
    g.no("draw_visitor", "unknown_colour", "GAL-13", colour="green")
    g.ok("draw_visitor", player="Ann", colour="pink")
    g.no("draw_visitor", "bag_empty", "GAL-13")
    assert g.json["bag"] == {"pink": 0, "white": 0, "brown": 0}


def test_a_fifth_work_is_refused_even_with_a_masterpiece() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given(artists=frozen({**g.state.artists, "RedA": ArtistState(True, 5)}))
    g.given_player("Ann", exhibited=(Work("RedA", True), Work("RedA"), Work("RedA"),
                                     Work("RedA")))
    g.no("acquire", "gallery_full", "GAL-12", player="Ann", artist="RedA")
    g.ok("sell", player="Ann", artist="RedA")  # the masterpiece stays (last one sold)
    g.given_player("Ann", exhibited=(Work("RedA"),) * 4)
    g.no("acquire", "gallery_full", "GAL-12", player="Ann", artist="RedA")


# ---- final scoring (GAL-16..25) -------------------------------------------------------------


def _final(g: Game) -> None:
    g.given(phase="final_scoring", current=None, queue=())


def test_scoring_refusals_and_term_by_term_figures() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.no("score", "wrong_phase", "GAL-16", player="Ann", category="curator", money=1)
    g.ok("discover", artist="RedA", fame=12)
    g.ok("acquire", player="Ann", artist="RedA")
    g.ok("market", player="Ann", column=1, row="lower", cost=2)
    g.ok("market", player="Ben", column=3, row="upper")
    _final(g)
    g.no("score", "auction_first", "GAL-16", player="Ann", category="curator", money=1)
    g.no("score", "not_your_pick", "GAL-20", player="Ann", category="auction", money=1)
    g.no("final_scoring", "score_incomplete", "GAL-16")
    g.ok("auction_pick", player="Ann", easel="formA", counts_as="exhibited")
    g.no("auction_pick", "not_your_pick", "GAL-20", player="Ann", easel="formB",
         counts_as="sold")
    g.no("auction_pick", "not_your_pick", "GAL-20", player="Ben", easel="formB",
         counts_as="sold")
    sc = {p["name"]: p for p in g.json["scoring"]["players"]}
    ann = sc["Ann"]
    assert ann["exhibited"] == 10 and ann["sources"]["exhibited"] == "computed"
    assert ann["terms"]["exhibited"] == [{"artist": "RedA", "fame": 12, "masterpiece": False,
                                          "value": 10}]
    assert ann["terms"]["curator"] == ["RedA", "renowned formA"]
    assert ann["terms"]["dealer"] == []
    assert ann["auction"] == 10 and ann["market"] == 0 and sc["Ben"]["market"] == 15
    assert ann["total"] is None and "curator" in ann["table"]
    g.no("score", "contradicts_catalog", "GAL-25", player="Ann", category="exhibited",
         money=9)
    g.ok("score", player="Ann", category="exhibited", money=10)  # equal: accepted
    g.no("move", "final_scoring", "GAL-15", player="Ann", to="Media Centre")
    g.no("score", "unknown_player", "GAL-1", player="Zed", category="curator", money=1)
    with pytest.raises(BadRequest):
        RULESET.parse({"cmd": "score", "player": "Ann", "category": "curator", "money": -1})
    for n in ("Ann", "Ben"):
        for cat in ("reputation", "curator", "dealer", "influence"):
            g.ok("score", player=n, category=cat, money=1)
    assert "Every figure is in" in g.next
    events = g.ok("final_scoring")
    assert events[-1]["winners"] == ["Ann"] and events[-1]["reason"] == "money"
    assert g.json["over"] and "wins with the most money" in g.next
    g.no("score", "game_over", "GAL-24", player="Ann", category="curator", money=1)


def test_influence_money_from_the_catalog() -> None:
    text = ("influence_money = [{influence = 0, money = 0}, {influence = 10, money = 4}]\n"
            + Path(FIXTURE).read_text())
    cat = parse_catalog(text, "x.toml")
    assert cat.influence_value(9) == 0 and cat.influence_value(12) == 4


def test_the_auction_can_include_players_who_spent_nothing() -> None:
    g = Game(["Ann", "Ben", "Cy"], rules={"auction_needs_spend": False,
                                          "auction_tie": "reverse_seat_order"})
    g.place_all()
    _final(g)
    assert g.json["scoring"]["auction"]["order"] == ["Cy", "Ben"]  # 2 easels


def test_ties_broken_by_works_then_assistants() -> None:
    g = Game(["Ann", "Ben", "Cy"], catalog=None, bag=30)
    g.place_all()
    for n in ("Ann", "Ben", "Cy"):
        g.given_player(n, money=20)
    g.given_player("Cy", sold=("Red 1",))
    _final(g)
    for n in ("Ann", "Ben", "Cy"):
        for cat in ("reputation", "curator", "dealer", "influence"):
            g.ok("score", player=n, category=cat, money=0)
    saved = g.state
    assert g.ok("final_scoring")[-1]["winners"] == ["Cy"]
    g.state = saved.with_player("Cy", sold=()).with_player("Ben", desks=3)
    over = g.ok("final_scoring")[-1]
    assert over["winners"] == ["Ben"] and over["reason"] == "assistants"


# ---- the market split (GAL-17) ------------------------------------------------------------


@pytest.mark.parametrize(("counts", "column", "paid"), [
    ((3, 2, 1), 1, [6, 3, 1]), ((2, 2, 1), 3, [12, 12, 6]), ((1, 1, 1), 1, [3, 3, 3]),
    ((3, 1, 1), 2, [10, 4, 4]), ((1, 1, 1, 1), 1, [2, 2, 2, 2]), ((0, 2, 0), 3, [0, 15, 0])])
def test_the_spec_examples_of_the_split(counts: tuple[int, ...], column: int,
                                        paid: list[int]) -> None:
    names = ["Ann", "Ben", "Cy", "Dee"][:len(counts)]
    groups = split(dict(zip(names, counts, strict=True)), REWARDS[column], True)
    got = {n: g["each"] for g in groups for n in g["players"]}
    assert [got.get(n, 0) for n in names] == paid


@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.sampled_from([1, 2, 3]),
       st.booleans())
def test_a_split_pays_each_pot_out_but_for_the_rounding(counts: list[int], column: int,
                                                        needs_one: bool) -> None:
    names = [f"P{i}" for i in range(len(counts))]
    rewards = REWARDS[column]
    groups = split(dict(zip(names, counts, strict=True)), rewards, needs_one)
    seen = [n for g in groups for n in g["players"]]
    assert len(seen) == len(set(seen))  # nobody is paid twice
    place = 1
    for g in groups:
        k = len(g["players"])
        assert g["places"] == list(range(place, place + k))
        assert g["pot"] == sum(rewards[p - 1] for p in g["places"] if p <= len(rewards))
        assert 0 <= g["pot"] - g["each"] * k < k  # paid in full, but for the rounding down
        place += k
    paid = sum(g["each"] * len(g["players"]) for g in groups)
    assert paid <= sum(rewards[:len(seen)])  # no money created
    ranked = [g["assistants"] for g in groups]
    assert ranked == sorted(ranked, reverse=True) and len(set(ranked)) == len(ranked)
    assert all(g["each"] >= 0 for g in groups)
    if needs_one:
        assert all(g["assistants"] > 0 for g in groups)


# ---- catalog and settings (GAL-25) ----------------------------------------------------------


def test_catalog_errors_name_the_field_and_line(tmp_path: Path) -> None:
    good = Path(FIXTURE).read_text()
    for bad, field in ((good.replace("desks = 4", "desks = 1"), "desks"),
                       (good.replace("bag = 40", "bag = -3"), "bag"),
                       (good.replace('colour = "red"', 'colour = "green"', 1),
                        "artists[0].colour"),
                       ("teapot = 1\n" + good, "teapot"),
                       (good.replace("fame_icons = [2, 5, 9, 14]", "fame_icons = [5, 2]"),
                        "fame_icons"),
                       (good.replace("{fame = 5, value = 6}", "{fame = 1, value = 6}"),
                        "sale_value")):
        with pytest.raises(CatalogError) as err:
            parse_catalog(bad, "bad.toml")
        assert err.value.field == field, str(err.value)
    path = tmp_path / "c.toml"
    path.write_text(good.replace("desks = 4", "desks = 1"))
    answer = None
    try:
        RULESET.parse({"cmd": "new_game", "players": ["Ann"], "catalog": str(path)})
    except BadRequest as err:
        answer = err
    assert answer is not None and answer.code == "bad_catalog" and "desks" in answer.message


def test_settings_files_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[rules]\nauction_tie = "random"\n')
    with pytest.raises(SettingsError) as err:
        load_settings(path)
    assert "seat_order" in str(err.value) and err.value.line == 2
    path.write_text('[rules]\nkickout_order = "seat_from_start_player"\n')
    assert load_settings(path).kickout_order == "seat_from_start_player"


def test_market_placements_count_for_the_auction_only_in_the_lower_rows() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given_player("Ann", market=(Placement(1, "lower", 4), Placement(1, "upper", 0)))
    assert g.player("Ann")["auction_spent"] == 4
    _final(g)
    assert g.json["scoring"]["market"]["1"][0]["assistants"] == 1


# ---- what the front ends ask (legal actions, undo words) -------------------------------------


def test_legal_actions_follow_the_clock() -> None:
    g = Game(["Ann", "Ben"], start="Ann")
    offered = RULESET.legal_actions(g.state, None)
    assert {(a["cmd"], a.get("player")) for a in offered if a["cmd"] == "place_start"} == {
        ("place_start", "Ben")}  # reverse order: Ben places first
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    offered = RULESET.legal_actions(g.state, "Ann")
    moves = {a["to"] for a in offered if a["cmd"] == "move"}
    assert moves == {"Artists Colony", "International Market", "Fourth Location"}
    assert {"cmd": "end_turn", "player": "Ann"} not in offered
    assert not [a for a in RULESET.legal_actions(g.state, "Ben") if a["cmd"] == "move"]
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("location_action", player="Ann")
    assert {"cmd": "end_turn", "player": "Ann"} in RULESET.legal_actions(g.state, "Ann")
    g.ok("end_turn", player="Ann")
    offered = RULESET.legal_actions(g.state, None)
    kinds = {a["kind"] for a in offered if a["cmd"] == "kickout_action"}
    assert kinds == {"location", "executive", "pass"}
    assert not [a for a in offered if a["cmd"] in ("move", "end_turn")]
    for a in offered:  # each is accepted as offered
        RULESET.decide(g.state, RULESET.parse(a))


def test_undo_words_name_the_step() -> None:
    words = RULESET.undo_words({"cmd": "score", "player": "Ann", "category": "dealer"}, [])
    assert words == "Undo the art dealer card entry (Ann)."
    assert RULESET.undo_words({"cmd": "move", "player": "Ben", "to": "Media Centre"}, []) \
        == "Undo the move to Media Centre (Ben)."


def test_bgstats_of_a_finished_game() -> None:
    g = Game(["Ann", "Ben"], catalog=None, bag=30)
    g.place_all()
    _final(g)
    for n in ("Ann", "Ben"):
        for cat in ("reputation", "curator", "dealer", "influence", "exhibited"):
            if cat != "exhibited":
                g.ok("score", player=n, category=cat, money=1 if n == "Ann" else 0)
    g.ok("final_scoring")
    stats = RULESET.bgstats(g.state)
    assert not stats["cooperative"] and stats["highest_wins"]
    assert [(s["name"], s["score"], s["winner"], s["rank"]) for s in stats["scores"]] == [
        ("Ann", "14", True, 1), ("Ben", "10", False, 2)]


def test_the_remaining_refusals() -> None:
    fresh = RULESET.initial_state(RULESET.load_catalog(None))
    with pytest.raises(Refusal) as err:
        RULESET.decide(fresh, RULESET.parse({"cmd": "move", "player": "Ann", "to": "x"}))
    assert err.value.code == "no_game"
    with pytest.raises(Refusal) as err:
        RULESET.decide(fresh, RULESET.start(RULESET.parse(
            {"cmd": "new_game", "players": ["Ann"], "bag": 5,
             "rules": {"auction_tie": "coin"}}), commitment="c", settings={}))
    assert err.value.code == "bad_rules" and "auction_tie" in err.value.message
    text = Path(FIXTURE).read_text().replace('"Fourth Location"]',
                                             '"Fourth Location", "Harbour"]')
    path = Path(FIXTURE).with_name("_five.toml")
    path.write_text(text)
    try:
        g = Game(["Ann", "Ben"], catalog=str(path))
    finally:
        path.unlink()
    g.no("place_start", "not_a_start_location", "GAL-4", player="Ben", location="Harbour")
    g.place_all()
    g.ok("move", player="Ann", to="Harbour")  # any location in play
    big = Game(["Ann", "Ben"], bag={"pink": 200, "white": 100})
    big.place_all()
    big.no("draw_visitor", "draw_by_hand", "GAL-13")
    big.ok("draw_visitor", colour="white")
    big.given(phase="final_scoring", current=None, queue=())
    big.given_player("Ann", market=(Placement(1, "lower", 3),))
    big.no("auction_pick", "unknown_art_form", "GAL-20", player="Ann", easel="formZ",
           counts_as="sold")


def test_final_round_without_desks_in_the_catalog_asks_only_where_the_assistant_goes() -> None:
    g = Game(["Ann", "Ben"], catalog=None, bag=30)
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given(end_triggered=0, round=1, end_conditions=("box_office_empty", "bag_empty"))
    assert g.json["in_final_round"]
    g.given_player("Ben", locations=("International Market",))
    g.ok("move", player="Ann", to="Artists Colony")  # Ben's gallerist: back at once
    assert g.player("Ben")["gallerist"] == "gallery"
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert g.json["pending"] == []
    g.ok("move", player="Ben", to="Media Centre")
    g.ok("location_action", player="Ben")
    g.ok("end_turn", player="Ben")
    assert g.json["phase"] == "final_scoring"
    h = Game(["Ann", "Ben"], catalog=None, bag=30)
    h.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    h.given(end_triggered=0, round=1)
    h.given_player("Ben", desks=1, locations=("International Market",))  # 8 + 1 + 1
    h.ok("move", player="Ann", to="International Market")
    h.ok("location_action", player="Ann")
    h.ok("end_turn", player="Ann")
    pend = h.json["pending"]
    assert pend[0]["piece"] == "assistant" and pend[0]["options"] == ["pass"]
    assert "desk is free" in h.next
    h.no("kickout_action", "no_kickout_final_round", "GAL-15", player="Ben", kind="executive")
    h.ok("kickout_action", player="Ben", kind="pass", desk=True)
    ben = h.player("Ben")["assistants"]
    assert ben["desks"] == 2 and ben["in_play"] == 2 and ben["locations"] == {}


@pytest.mark.parametrize(("cmd", "fields", "rule"), [
    ("executive", {"player": "Ann", "kind": "bribe"}, "GAL-7"),
    ("market", {"player": "Ann", "column": 4, "row": "upper"}, "GAL-17"),
    ("visitor", {"player": "Ann", "colour": "pink", "to": "roof"}, "GAL-12"),
    ("influence", {"player": "Ann", "to": 3, "reason": "luck"}, "GAL-9"),
    ("fame", {"artist": "RedA", "by": "Ann", "steps": 0}, "GAL-11")])
def test_a_malformed_field_is_a_bad_request_naming_its_rule(cmd: str, fields: dict[str, object],
                                                            rule: str) -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.no(cmd, "bad_request", rule, **fields)


# ---- issue 25: places follow the result; the money cap; a final-round kick-out ---------------


def test_bgstats_places_follow_the_tiebreakers() -> None:
    """Three tied on money: Cy wins on works acquired, so Cy is 1st; Ann and Ben, equal on
    every tiebreaker too, share 2nd (the export held every player tied on money 1st)."""
    g = Game(["Ann", "Ben", "Cy"], catalog=None, bag=30)
    g.place_all()
    for n in ("Ann", "Ben", "Cy"):
        g.given_player(n, money=20)
    g.given_player("Cy", sold=("Red 1",))
    _final(g)
    for n in ("Ann", "Ben", "Cy"):
        for cat in ("reputation", "curator", "dealer", "influence"):
            g.ok("score", player=n, category=cat, money=0)
    saved = g.state
    g.ok("final_scoring")
    stats = RULESET.bgstats(g.state)
    assert [(s["name"], s["winner"], s["rank"]) for s in stats["scores"]] == [
        ("Ann", False, 2), ("Ben", False, 2), ("Cy", True, 1)]
    assert stats.get("bgg_id") == 125153
    g.state = saved.with_player("Ben", desks=3)  # Ben: one assistant more than Ann
    g.ok("final_scoring")
    ranks = {s["name"]: s["rank"] for s in RULESET.bgstats(g.state)["scores"]}
    assert ranks == {"Cy": 1, "Ben": 2, "Ann": 3}


def test_money_has_an_upper_bound_said_in_the_refusal() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    said = g.no("money", "money_too_high", "GAL-10", player="Ann", delta=9007199254740991)
    assert "999" in said.message and "989" in said.message
    g.ok("money", player="Ann", delta=989)
    assert g.player("Ann")["money"] == 999
    g.no("money", "money_too_high", "GAL-10", player="Ann", delta=1)
    g.no("influence", "influence_too_high", "GAL-9", player="Ann", to=100, reason="gain")


def test_a_celebrity_s_money_stays_within_the_upper_bound() -> None:
    """A celebrity brings 5 money (GAL-11) to a player already near the most money can be:
    refused `money_too_high`, like a sale would be, and nothing changes (it took Ann to 1003,
    where no money entry was accepted any more, not even a payment of 0)."""
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("discover", artist="RedA", fame=17)
    g.ok("money", player="Ann", delta=985)  # 995: 5 more is 1000
    said = g.no("fame", "money_too_high", "GAL-10", artist="RedA", by="Ann", steps=2)
    assert "999" in said.message
    assert g.player("Ann")["money"] == 995 and g.json["artists"]["RedA"]["fame"] == 17
    g.ok("money", player="Ann", delta=-1)  # 994: 5 more is 999
    g.ok("fame", artist="RedA", by="Ann", steps=2)
    assert g.player("Ann")["money"] == 999 and g.json["artists"]["RedA"]["celebrity"]


def test_a_kickout_action_in_the_final_round_is_no_kickout_final_round() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given(end_triggered=0)  # round 1 is the final round
    assert g.state.in_final_round
    for kind in ("location", "executive", "pass"):  # nobody kicked out: still GAL-15's
        g.no("kickout_action", "no_kickout_final_round", "GAL-15", player="Ben", kind=kind)


def test_two_assistants_of_one_player_kicked_out_in_the_final_round_get_two_next_lines() -> None:
    """In the final round there is no action, only where each assistant goes: a question each."""
    g = Game(["Ann", "Ben"], catalog=None, bag=30)
    g.place_all()
    g.given(end_triggered=0)
    g.given_player("Ben", locations=("Sales Office", "Sales Office"), desks=0)
    assert g.state.current == "Ann"
    g.ok("move", player="Ann", to="Sales Office")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    first = g.next
    g.ok("kickout_action", player="Ben", kind="pass", desk=True)
    second = g.next
    assert "Ben's assistant, 1 of 2 still to go" in first and first != second
    assert "Ben's assistant was kicked out of Sales Office" in second


def test_gal8_one_kicked_out_action_for_a_gallerist_and_an_assistant_kicked_out_together() -> None:
    """Issue 39: Ann's move kicks out Ben's gallerist and an assistant of his. Ben takes one
    kicked-out action (influence 10 → 9, once), then both pieces go back; before, he was
    asked twice and paid twice (10 → 9 → 5)."""
    g = Game(["Ann", "Ben"])
    g.place_all({"Ann": "Media Centre", "Ben": "Artists Colony"})
    g.given_player("Ben", desks=3, locations=("Artists Colony",))
    assert g.player("Ben")["influence"] == 10
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    pend = g.json["pending"]
    assert [(p["player"], p["piece"], p.get("pieces")) for p in pend] == [
        ("Ben", "gallerist", ["gallerist", "assistant"])]
    assert "gallerist and assistant" in g.next
    events = g.ok("kickout_action", player="Ben", kind="location")
    assert events[0]["pieces"] == [{"piece": "gallerist", "returned": "gallery"},
                                   {"piece": "assistant", "returned": "desk"}]
    ben = g.player("Ben")
    assert ben["influence"] == 9 and ben["gallerist"] == "gallery"
    assert ben["assistants"]["desks"] == 4 and ben["assistants"]["locations"] == {}
    assert g.json["pending"] == [] and g.json["current"] == "Ben"
    g.no("kickout_action", "not_kicked_out", "GAL-8", player="Ben", kind="location")


def test_refusals_name_a_command_in_words_not_by_its_protocol_name() -> None:
    """Issue 39: "Setup is not finished: kickout_action comes once ...", "not
    final_scoring", "place_start is part of setup" read as machine words."""
    g = Game(["Ann", "Ben"])
    err = g.no("kickout_action", "setup_not_finished", "GAL-4", player="Ann", kind="pass")
    assert err.message == ("Setup is not finished: a kicked-out action comes once every "
                           "starting place is taken.")
    g.place_all()
    err = g.no("place_start", "wrong_phase", "GAL-4", player="Ann", location="Media Centre")
    assert err.message == "A starting place is part of setup, which is over."
    _final(g)
    err = g.no("take_ticket", "final_scoring", "GAL-15", player="Ann", colour="pink")
    assert "the final scoring are taken now, not a ticket." in err.message
