"""The spec's scenarios T-GAL-01..15 (the-gallerist-scoring.md, "Scenario tests"), on the
spec's fixture catalog (fixture.toml)."""

from __future__ import annotations

from dataclasses import replace

from referee.games.gallerist.state import GALLERY, ArtistState, Placement, Work, frozen
from tests.referee.games.gallerist.helpers import Game


def test_t_gal_01_setup_three_players() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ann")
    j = g.json
    assert j["phase"] == "setup" and j["start_player"] == "Ann"
    assert j["tickets"] == {"pink": 15, "brown": 15, "white": 15}
    assert j["setup"]["visitors_removed_per_type"] == 2
    assert j["setup"]["easels"] == 2 and j["setup"]["middle_column"] is True
    words = " ".join(i["words"] for i in j["setup"]["checklist"])
    assert "taking out 2 of each kind" in words and "2 easels" in words
    for p in j["players"]:
        assert (p["money"], p["influence"]) == (10, 10)
        assert (p["assistants"]["queue"], p["assistants"]["desks"]) == (8, 2)
    assert j["pending"][0]["player"] == "Cy" and j["pending"][0]["decision"] == "start_place"
    assert j["bag"] == 40 - 2 * 3  # the catalog's 40, less 2 of each of 3 kinds
    assert "Cy" in g.next


def test_t_gal_02_setup_two_players_reverse_order() -> None:
    g = Game(["Ann", "Ben"], start="Ben")
    j = g.json
    assert j["tickets"]["pink"] == 10 and j["setup"]["easels"] == 1
    assert j["setup"]["middle_column"] is False
    assert j["setup"]["visitors_removed_per_type"] == 4
    g.no("place_start", "not_your_placement", "GAL-4", player="Ben", location="Media Centre")
    g.ok("place_start", player="Ann", location="Media Centre", tile="T1")
    g.no("place_start", "space_taken", "GAL-4", player="Ben", location="Media Centre")
    events = g.ok("place_start", player="Ben", location="Artists Colony", tile="T2")
    assert {"type": "turn_started", "player": "Ben", "round": 1, "start_player": "Ben",
            "final_round": False} in events
    assert g.json["phase"] == "play" and g.json["current"] == "Ben" and g.json["round"] == 1
    assert g.player("Ann")["reputation_tiles"] == ["T1"]


def test_t_gal_03_a_turn() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "International Market",
                 "Ann": "Media Centre"})
    g.no("move", "must_move_elsewhere", "GAL-6", player="Ann", to="Media Centre")
    g.no("location_action", "must_move", "GAL-6", player="Ann")
    g.no("end_turn", "location_action_owed", "GAL-6", player="Ann")
    g.ok("move", player="Ann", to="Artists Colony", leave_assistant="desk")
    ann = g.player("Ann")
    assert ann["assistants"]["locations"] == {"Media Centre": 1}
    assert ann["assistants"]["desks"] == 1 and ann["gallerist"] == "Artists Colony"
    g.no("move", "already_moved", "GAL-6", player="Ann", to="Fourth Location")
    g.no("end_turn", "location_action_owed", "GAL-6", player="Ann")
    g.ok("executive", player="Ann", kind="contract_bonus")
    g.ok("location_action", player="Ann")
    g.no("executive", "one_executive_action", "GAL-7", player="Ann", kind="tickets")
    g.no("location_action", "one_location_action", "GAL-6", player="Ann")
    g.no("move", "not_your_turn", "GAL-5", player="Ben", to="Media Centre")
    g.ok("end_turn", player="Ann")
    assert g.json["current"] == "Ben"


def test_t_gal_04_kicking_out_a_gallerist() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "Artists Colony", "Ann": "Media Centre"})
    events = g.ok("move", player="Ann", to="Artists Colony")
    assert {"type": "kicked_out", "player": "Ben", "piece": "gallerist",
            "location": "Artists Colony"} in events
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert "Ben was kicked out of Artists Colony" in g.next
    assert g.json["pending"][0] == {"player": "Ben", "decision": "kickout",
                                    "location": "Artists Colony", "piece": "gallerist",
                                    "options": ["location", "executive", "pass"]}
    g.no("move", "decision_pending", "GAL-5", player="Ann", to="Fourth Location")
    g.no("kickout_action", "not_kicked_out", "GAL-8", player="Cy", kind="pass")
    g.ok("kickout_action", player="Ben", kind="executive")
    assert g.player("Ben")["gallerist"] == GALLERY
    assert g.json["current"] == "Ben"
    assert "any location" in g.next
    g.ok("move", player="Ben", to="Artists Colony")  # any location, even the one left


def test_t_gal_05_an_assistant_with_nowhere_to_go() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "Artists Colony", "Ann": "Media Centre"})
    g.given_player("Cy", desks=4, queue=5, locations=("International Market",))
    g.ok("move", player="Ann", to="International Market")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert g.json["pending"][0]["piece"] == "assistant"
    g.no("kickout_action", "no_desk", "GAL-8", player="Cy", kind="pass", desk=True)
    g.ok("kickout_action", player="Cy", kind="pass")
    cy = g.player("Cy")["assistants"]
    assert cy["removed"] == 1 and cy["queue"] == 5 and cy["in_play"] == 4
    assert cy["locations"] == {} and cy["desks"] == 4


def test_t_gal_06_influence_for_a_kicked_out_location_action() -> None:
    g = Game(["Ann", "Ben"], start="Ann")
    g.place_all({"Ben": "Artists Colony", "Ann": "Media Centre"})

    def kick_ben(to_ben: str) -> None:
        g.ok("move", player="Ann", to=to_ben)
        g.ok("location_action", player="Ann")
        g.ok("end_turn", player="Ann")

    kick_ben("Artists Colony")
    g.no("kickout_action", "contradicts_catalog", "GAL-25", player="Ben", kind="location",
         influence=8)
    events = g.ok("kickout_action", player="Ben", kind="location")
    assert events[0]["influence"] == 9 and events[0]["source"] == "computed"
    assert g.player("Ben")["influence"] == 9
    g.turn("Ben", "Fourth Location")
    kick_ben("Fourth Location")
    g.ok("kickout_action", player="Ben", kind="location")
    assert g.player("Ben")["influence"] == 5  # strictly below 9
    g.turn("Ben", "International Market")
    g.given_player("Ben", influence=1)
    kick_ben("International Market")
    g.no("kickout_action", "no_fame_icon_below", "GAL-9", player="Ben", kind="location")
    g.ok("kickout_action", player="Ben", kind="pass")
    g.no("influence", "influence_not_lower", "GAL-9", player="Ben", to=12, reason="spend")


def test_t_gal_07_a_celebrity() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    g.ok("discover", artist="RedA", fame=17)
    g.ok("discover", artist="BlueB", fame=3)
    for artist in ("RedA", "BlueB", "BlueB"):
        g.ok("acquire", player="Ben", artist=artist)
    g.no("acquire", "gallery_full", "GAL-12", player="Ben", artist="BlueB")
    money = g.player("Ann")["money"]
    events = g.ok("fame", artist="RedA", by="Ann", steps=3)
    assert {"type": "celebrity", "artist": "RedA", "by": "Ann"} in events
    j = g.json
    assert j["artists"]["RedA"]["fame"] == 19 and j["artists"]["RedA"]["celebrity"]
    assert g.player("Ann")["money"] == money + 5
    assert {"artist": "RedA", "masterpiece": True} in g.player("Ben")["exhibited"]
    g.ok("acquire", player="Ben", artist="BlueB")  # the 4th slot
    g.no("acquire", "gallery_full", "GAL-12", player="Ben", artist="BlueB")
    g.no("acquire", "celebrity_retired", "GAL-11", player="Cy", artist="RedA")
    g.no("fame", "celebrity_retired", "GAL-11", artist="RedA", by="Ann", steps=1)
    g.ok("commission", player="Cy", artist="RedA")
    g.ok("acquire", player="Cy", artist="RedA")
    assert j["celebrities"] == 1


def test_t_gal_08_collector_limit() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    g.ok("visitor", player="Ann", colour="white", to="gallery")
    g.no("visitor", "collector_limit", "GAL-12", player="Ann", colour="white", to="gallery")
    g.ok("visitor", player="Ann", colour="pink", to="gallery")  # not a collector
    g.ok("discover", artist="BlueA", fame=6)
    g.ok("acquire", player="Ann", artist="BlueA")
    g.ok("sell", player="Ann", artist="BlueA")
    g.ok("visitor", player="Ann", colour="white", to="gallery")
    assert g.player("Ann")["visitors"] == {"white": 2, "pink": 1}
    g.no("visitor", "collector_limit", "GAL-12", player="Ann", colour="white", to="gallery")


def test_t_gal_09_intermediate_scoring_comes_before_kickouts() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "Artists Colony", "Ann": "Media Centre"})
    g.given(tickets=frozen({"pink": 1, "brown": 5, "white": 5}))
    g.ok("move", player="Ann", to="Artists Colony")
    g.ok("take_ticket", player="Ann", colour="pink")
    assert g.json["tickets"]["pink"] == 0 and g.json["pending"] == []
    g.no("take_ticket", "stack_empty", "GAL-13", player="Ann", colour="pink")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    pend = g.json["pending"]
    assert [p["decision"] for p in pend] == ["intermediate", "kickout"]
    assert pend[0]["stack"] == "pink" and pend[0]["options"] == [1, 2, 3]
    assert "pink tickets ran out" in g.next
    g.no("kickout_action", "decision_pending", "GAL-5", player="Ben", kind="pass")
    ann, cy, ben = (g.player(n)["money"] for n in ("Ann", "Cy", "Ben"))
    g.ok("intermediate", tile=2, qualifying=["Ann", "Cy"], benefit={"money": 3})
    assert (g.player("Ann")["money"], g.player("Cy")["money"],
            g.player("Ben")["money"]) == (ann + 3, cy + 3, ben)
    assert g.json["pending"][0]["decision"] == "kickout"
    g.no("intermediate", "no_scoring_due", "GAL-14", tile=1, qualifying=[])
    g.ok("kickout_action", player="Ben", kind="pass")
    # pink cannot trigger again; tile 2 cannot be scored again
    g.given(tickets=frozen({"pink": 0, "brown": 1, "white": 5}))
    g.ok("move", player="Ben", to="Media Centre")
    g.ok("take_ticket", player="Ben", colour="brown")
    g.ok("location_action", player="Ben")
    g.ok("end_turn", player="Ben")
    assert [p["stack"] for p in g.json["pending"]] == ["brown"]
    g.no("intermediate", "tile_scored", "GAL-14", tile=2, qualifying=[])
    g.ok("intermediate", tile=1, qualifying=[], benefit={"influence": 1})
    assert g.json["current"] == "Cy"


def test_t_gal_10_end_triggered_mid_round() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "Artists Colony", "Ann": "Media Centre"})
    g.given(tickets=frozen({"pink": 0, "brown": 0, "white": 0}), scored_stacks=(
        "pink", "brown", "white"), round=6,
        artists=frozen({**g.state.artists, "RedA": ArtistState(True, 19, True),
                        "RedB": ArtistState(True, 18)}))
    g.turn("Ann", "International Market")
    g.ok("move", player="Ben", to="Media Centre")
    events = g.ok("fame", artist="RedB", by="Ben", steps=1)
    trig = [e for e in events if e["type"] == "end_triggered"]
    assert trig and trig[0]["round"] == 6
    assert trig[0]["conditions"] == ["box_office_empty", "celebrities"]
    g.ok("location_action", player="Ben")
    g.ok("end_turn", player="Ben")
    assert "round 7 is the last" in g.next
    g.ok("move", player="Cy", to="International Market")  # kicks Ann out, round 6
    g.ok("location_action", player="Cy")
    g.ok("end_turn", player="Cy")
    g.ok("kickout_action", player="Ann", kind="executive")  # still allowed in round 6
    assert g.json["round"] == 7 and g.json["in_final_round"]
    assert "final round" in g.next
    g.ok("move", player="Ann", to="International Market")  # kicks Cy out: goes back at once
    assert g.player("Cy")["gallerist"] == GALLERY
    g.no("kickout_action", "no_kickout_final_round", "GAL-15", player="Cy", kind="location")
    g.ok("location_action", player="Ann")
    g.ok("end_turn", player="Ann")
    assert g.json["pending"] == []
    g.turn("Ben", "Artists Colony")
    g.turn("Cy", "Media Centre")
    assert g.json["phase"] == "final_scoring"
    g.no("move", "final_scoring", "GAL-15", player="Ann", to="Media Centre")
    g.no("money", "final_scoring", "GAL-15", player="Ann", delta=1)


def test_t_gal_11_triggered_in_the_last_seats_turn() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all({"Cy": "Fourth Location", "Ben": "Artists Colony", "Ann": "Media Centre"})
    g.given(round=4, bag=1, artists=frozen({**g.state.artists,
                                            "RedA": ArtistState(True, 19, True),
                                            "RedB": ArtistState(True, 18)}))
    g.turn("Ann", "International Market")
    g.turn("Ben", "Media Centre")
    g.ok("move", player="Cy", to="Artists Colony")
    g.ok("draw_visitor", player="Cy")
    assert g.json["end_triggered"] is None  # one condition
    events = g.ok("fame", artist="RedB", by="Cy", steps=2)
    assert next(e for e in events if e["type"] == "end_triggered")["conditions"] == [
        "celebrities", "bag_empty"]
    g.ok("location_action", player="Cy")
    g.ok("end_turn", player="Cy")
    assert g.json["round"] == 5 and g.json["in_final_round"]
    g.turn("Ann", "Fourth Location")
    g.turn("Ben", "International Market")
    g.turn("Cy", "Media Centre")
    assert g.json["phase"] == "final_scoring" and g.json["round"] == 5


def _final(g: Game) -> None:
    """Straight to final scoring from the state `g` has (its round ends the game)."""
    g.given(phase="final_scoring", current=None, queue=())


def test_t_gal_12_market_majorities_three_players() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()

    def up(col: int, n: int) -> tuple[Placement, ...]:
        return tuple(Placement(col, "upper") for _ in range(n))

    g.given_player("Ann", market=up(1, 1) + up(2, 3) + up(3, 2))
    g.given_player("Ben", market=up(1, 1) + up(2, 1) + up(3, 2))
    g.given_player("Cy", market=up(1, 1) + up(2, 1) + up(3, 1))
    _final(g)
    sc = g.json["scoring"]
    assert {p["name"]: p["market"] for p in sc["players"]} == {"Ann": 25, "Ben": 19, "Cy": 13}
    col3 = sc["market"]["3"]
    assert col3[0] == {"players": ["Ann", "Ben"], "assistants": 2, "places": [1, 2],
                       "pot": 25, "each": 12}
    assert col3[1]["each"] == 6
    assert [g_["each"] for g_ in sc["market"]["2"]] == [10, 4]
    assert sc["market"]["1"] == [{"players": ["Ann", "Ben", "Cy"], "assistants": 1,
                                  "places": [1, 2, 3], "pot": 10, "each": 3}]


def test_t_gal_13_market_edge_cases() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.no("market", "column_unused", "GAL-17", player="Ann", column=2, row="upper")
    g.ok("market", player="Ben", column=3, row="upper")
    g.ok("market", player="Ben", column=3, row="upper")
    _final(g)
    sc = g.json["scoring"]
    assert set(sc["market"]) == {"1", "3"}
    assert {p["name"]: p["market"] for p in sc["players"]} == {"Ann": 0, "Ben": 15}
    g4 = Game(["Ann", "Ben", "Cy", "Dee"])
    g4.place_all()
    for n in ("Ann", "Ben", "Cy", "Dee"):
        g4.ok("market", player=n, column=1, row="upper")
    _final(g4)
    assert [p["market"] for p in g4.json["scoring"]["players"]] == [2, 2, 2, 2]


def test_t_gal_14_the_auction() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    g.ok("discover", artist="RedA", fame=12)
    g.ok("discover", artist="BlueA", fame=7)
    g.ok("market", player="Ann", column=1, row="lower", cost=5)
    g.ok("market", player="Ben", column=1, row="lower", cost=3)
    g.ok("market", player="Ben", column=3, row="lower", cost=5)
    saved = g.state
    _final(g)
    auc = g.json["scoring"]["auction"]
    assert auc["order"] == ["Ben", "Ann"] and auc["spent"] == {"Ann": 5, "Ben": 8, "Cy": 0}
    assert "Ben chooses" in g.next
    g.no("auction_pick", "not_your_pick", "GAL-20", player="Ann", easel="formB",
         counts_as="sold")
    g.no("auction_pick", "counts_as_one", "GAL-20", player="Ben", easel="formA",
         counts_as=["sold", "exhibited"])
    g.no("auction_pick", "contradicts_catalog", "GAL-25", player="Ben", easel="formA",
         counts_as="sold", value=11)
    events = g.ok("auction_pick", player="Ben", easel="formA", counts_as="sold")
    assert events[0]["value"] == 10 and events[0]["source"] == "computed"
    g.no("auction_pick", "easel_taken", "GAL-20", player="Ann", easel="formA",
         counts_as="sold")
    g.no("auction_pick", "value_needed", "GAL-25", player="Ann", easel="formB",
         counts_as="exhibited")  # no formB artist discovered: the table prices it
    g.ok("auction_pick", player="Ann", easel="formB", counts_as="exhibited", value=6)
    g.no("auction_pick", "not_your_pick", "GAL-20", player="Cy", easel="formC",
         counts_as="sold")  # Cy spent nothing
    sc = {p["name"]: p for p in g.json["scoring"]["players"]}
    assert sc["Ben"]["auction"] == 10 and sc["Ann"]["auction"] == 6 and sc["Cy"]["auction"] == 0
    assert "auction" in sc["Ann"]["table"] and "auction" not in sc["Ben"]["table"]
    # equal spending: seat order from the start player
    g.state = saved
    g.ok("market", player="Ann", column=3, row="lower", cost=3)
    _final(g)
    assert g.json["scoring"]["auction"]["order"] == ["Ann", "Ben"]


def test_t_gal_15_totals_and_tiebreakers() -> None:
    g = Game(["Ann", "Ben"], catalog=None, bag=30)
    g.place_all()
    works = (Work("Red 1"), Work("Red 1"), Work("Red 1"))
    g.given_player("Ann", money=30, exhibited=works, sold=("Red 1", "Red 1"),
                   visitors=frozen({"pink": 3}), desks=5)
    g.given_player("Ben", money=30, exhibited=works, sold=("Red 1", "Red 1"),
                   visitors=frozen({"pink": 2, "white": 2}), desks=5)
    _final(g)
    g.no("final_scoring", "score_incomplete", "GAL-16")
    for n in ("Ann", "Ben"):
        for cat, money in (("reputation", 10), ("exhibited", 15), ("curator", 3),
                           ("dealer", 3), ("influence", 0)):
            g.ok("score", player=n, category=cat, money=money)
    g.no("score", "already_scored", "GAL-16", player="Ann", category="dealer", money=1)
    g.no("score", "contradicts_catalog", "GAL-25", player="Ann", category="market", money=3)
    sc = {p["name"]: p for p in g.json["scoring"]["players"]}
    assert sc["Ann"]["total"] == sc["Ben"]["total"] == 61
    assert set(sc["Ann"]["table"]) == {"reputation", "exhibited", "curator", "dealer",
                                       "influence"}
    saved = g.state
    events = g.ok("final_scoring")
    assert events[-1]["winners"] == ["Ben"] and events[-1]["reason"] == "visitors"
    assert g.json["result"] == {"outcome": "won", "winners": ["Ben"], "reason": "visitors",
                                "rule": "GAL-24"}
    g.state = replace(saved, players=tuple(
        replace(p, visitors=frozen({"pink": 4})) for p in saved.players))
    events = g.ok("final_scoring")
    assert events[-1]["winners"] == ["Ann", "Ben"] and events[-1]["reason"] == "shared"
