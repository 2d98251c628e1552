"""Final scoring's rulings that mutation testing found unpinned (issue 28; docs/mutation.md):
each test fails on a mutant of referee/games/gallerist/rules/scoring.py that changes what the
box rules or what the console, the box, the page and the log read (GAL-16..25)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.games.gallerist.rules.scoring import renowned_json
from referee.games.gallerist.state import CATEGORIES, Work, frozen
from tests.referee.games.gallerist.helpers import FIXTURE, Game

TABLE = ("reputation", "curator", "dealer", "influence")


def final(g: Game) -> None:
    g.given(phase="final_scoring", current=None, queue=())


def entered(g: Game, *names: str, cats: tuple[str, ...] = TABLE, money: int = 0) -> None:
    """The table's figures entered for `names` (as `score` would, bypassing its order)."""
    g.given(entries=(*g.state.entries, *((n, c, money) for n in names for c in cats)))


def spend(g: Game, name: str, cost: int, column: int = 1) -> None:
    g.ok("market", player=name, column=column, row="lower", cost=cost)


def catalog(tmp_path: Path, head: str = "", **fame: int) -> str:
    """The fixture with `head` before it and printed fames for the named artists."""
    text = Path(FIXTURE).read_text(encoding="utf-8")
    for artist, f in fame.items():
        text = text.replace(f'name = "{artist}"\n', f'name = "{artist}"\nfame = {f}\n')
    path = tmp_path / "catalog.toml"
    path.write_text(head + text, encoding="utf-8")
    return str(path)


def scoring(g: Game) -> dict[str, Any]:
    return dict(g.json["scoring"])


def player(g: Game, name: str) -> dict[str, Any]:
    return dict(next(p for p in scoring(g)["players"] if p["name"] == name))


# ---- GAL-16: the auction pick is owed like any figure -----------------------------------------


def test_final_scoring_waits_for_an_owed_auction_pick() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    entered(g, "Ann", "Ben")
    assert scoring(g)["owed"] == ["Ann's auction pick"]
    auction = dict(scoring(g)["auction"])
    assert set(auction.pop("renowned")) == {"formA", "formB", "formC", "formD"}
    assert auction == {"order": ["Ann"], "next": "Ann", "spent": {"Ann": 2, "Ben": 0},
                       "picks": []}
    err = g.no("final_scoring", "score_incomplete", "GAL-16")
    assert "Ann's auction pick" in err.message
    events = g.ok("auction_pick", player="Ann", easel="formB", counts_as="sold", value=4)
    assert events == [{"type": "auction_pick", "player": "Ann", "easel": "formB",
                       "counts_as": "sold", "fame": None, "value": 4, "source": "table"}]
    sc = scoring(g)
    assert sc["owed"] == [] and sc["auction"]["next"] is None
    assert sc["auction"]["picks"] == [{"player": "Ann", "easel": "formB", "value": 4,
                                       "counts_as": "sold", "source": "table"}]
    money = {n: player(g, n)["money"] for n in ("Ann", "Ben")}
    assert player(g, "Ann")["works_acquired"] == 1 and player(g, "Ben")["works_acquired"] == 0
    over = g.ok("final_scoring")[-1]
    assert over["totals"] == {"Ann": money["Ann"] + 4, "Ben": money["Ben"]}


def test_what_is_owed_is_named_player_by_player() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    final(g)
    entered(g, "Ann", cats=("reputation", "curator", "dealer"))
    entered(g, "Ben", cats=("curator", "influence"))
    assert scoring(g)["owed"] == ["Ann's influence (influence)",
                                  "Ben's reputation tiles (reputation)",
                                  "Ben's art dealer card (dealer)"]
    assert player(g, "Ann")["table"] == ["reputation", "curator", "dealer", "influence"]
    assert player(g, "Ann")["total"] is None


# ---- GAL-19: exhibited works at the artist's fame, a celebrity at 19 ---------------------------


def test_a_celebritys_exhibited_work_is_valued_at_fame_19() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("discover", artist="RedA", fame=3)
    g.ok("acquire", player="Ann", artist="RedA")
    g.given(artists={**g.state.artists,
                     "RedA": replace(g.state.artist("RedA"), celebrity=True)})
    final(g)
    ann = player(g, "Ann")
    assert ann["terms"]["exhibited"] == [{"artist": "RedA", "fame": 19,
                                          "masterpiece": False, "value": 15}]
    assert ann["exhibited"] == 15 and ann["sources"]["exhibited"] == "computed"


def test_without_sale_values_each_exhibited_work_is_entered(tmp_path: Path) -> None:
    text = Path(FIXTURE).read_text(encoding="utf-8").split("sale_value")[0]
    text += "\n" + Path(FIXTURE).read_text(encoding="utf-8").split("15}]\n", 1)[1]
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    g = Game(["Ann", "Ben"], catalog=str(path))
    g.place_all()
    g.ok("discover", artist="RedA", fame=3)
    g.ok("acquire", player="Ann", artist="RedA")
    final(g)
    ann = player(g, "Ann")
    assert ann["exhibited"] is None and ann["sources"]["exhibited"] == "table"
    assert ann["terms"]["exhibited"][0]["value"] is None
    events = g.ok("score", player="Ann", category="exhibited", money=7)
    assert events == [{"type": "scored", "player": "Ann", "category": "exhibited", "money": 7,
                       "source": "table"}]
    g.no("score", "already_scored", "GAL-16", player="Ann", category="exhibited", money=7)
    assert player(g, "Ann")["exhibited"] == 7


# ---- GAL-23: influence money from the catalog in a game ------------------------------------


def test_influence_money_from_the_catalog_is_computed_in_a_game(tmp_path: Path) -> None:
    head = "influence_money = [{influence = 0, money = 0}, {influence = 12, money = 4}]\n"
    g = Game(["Ann", "Ben"], catalog=catalog(tmp_path, head))
    g.place_all()
    g.given_player("Ann", influence=13)
    g.given_player("Ben", influence=11)
    final(g)
    ann, ben = player(g, "Ann"), player(g, "Ben")
    assert (ann["influence"], ben["influence"]) == (4, 0)
    assert ann["sources"]["influence"] == "computed"
    assert ann["terms"]["influence"] == {"position": 13}
    g.no("score", "contradicts_catalog", "GAL-25", player="Ann", category="influence", money=3)
    events = g.ok("score", player="Ann", category="influence", money=4)
    assert events[0]["source"] == "computed"
    entered(g, "Ann", "Ben", cats=("reputation", "curator", "dealer"), money=1)
    over = g.ok("final_scoring")[-1]
    assert over["totals"] == {"Ann": ann["money"] + 3 + 4, "Ben": ben["money"] + 3}


# ---- GAL-20: the auction -------------------------------------------------------------------


def test_a_spend_of_exactly_1_chooses_and_ties_go_in_seat_order() -> None:
    g = Game(["Ann", "Ben", "Cy"], start="Ben")
    g.place_all()
    spend(g, "Ann", 1)
    spend(g, "Cy", 1)
    final(g)
    assert scoring(g)["auction"]["order"] == ["Cy", "Ann"]  # from Ben
    assert scoring(g)["auction"]["spent"] == {"Ann": 1, "Ben": 0, "Cy": 1}


def test_the_most_spent_chooses_first_and_the_easels_run_out() -> None:
    g = Game(["Ann", "Ben", "Cy"])
    g.place_all()
    spend(g, "Ann", 1)
    spend(g, "Ben", 3)
    spend(g, "Cy", 2)
    final(g)
    assert scoring(g)["auction"]["order"] == ["Ben", "Cy"]  # 2 easels
    g.ok("auction_pick", player="Ben", easel="formA", counts_as="exhibited", value=1)
    assert scoring(g)["auction"]["next"] == "Cy"
    g.no("auction_pick", "easel_taken", "GAL-20", player="Cy", easel="formA",
         counts_as="sold", value=1)
    g.ok("auction_pick", player="Cy", easel="formC", counts_as="sold", value=2)
    assert scoring(g)["auction"]["next"] is None
    assert player(g, "Ann")["auction"] == 0


def test_a_form_listed_later_in_the_catalog_is_priced_from_its_artists() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("discover", artist="BlueD", fame=12)
    g.ok("discover", artist="RedD", fame=4)
    spend(g, "Ben", 2)
    final(g)
    g.no("auction_pick", "contradicts_catalog", "GAL-25", player="Ben", easel="formD",
         counts_as="sold", value=6)
    events = g.ok("auction_pick", player="Ben", easel="formD", counts_as="sold")
    assert events[0]["fame"] == 12 and events[0]["value"] == 10
    assert events[0]["source"] == "computed"
    ben = player(g, "Ben")
    assert ben["auction"] == 10 and ben["sources"]["auction"] == "computed"
    assert ben["terms"]["auction"] == {"easel": "formD", "counts_as": "sold"}
    assert ben["terms"]["dealer"] == ["renowned formD"]
    assert ben["terms"]["curator"] == []


def test_a_celebrity_prices_the_renowned_work_of_its_form() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("discover", artist="RedB", fame=2)
    g.given(artists={**g.state.artists,
                     "RedB": replace(g.state.artist("RedB"), celebrity=True)})
    spend(g, "Ann", 2)
    final(g)
    events = g.ok("auction_pick", player="Ann", easel="formB", counts_as="exhibited")
    assert (events[0]["fame"], events[0]["value"]) == (19, 15)


def test_a_form_with_no_artist_known_needs_the_tables_value() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    g.no("auction_pick", "value_needed", "GAL-25", player="Ann", easel="formC",
         counts_as="sold")
    err = g.no("auction_pick", "unknown_art_form", "GAL-20", player="Ann", easel="formZ",
               counts_as="sold", value=3)
    assert "formA, formB, formC, formD" in err.message


# ---- refusals with a code and a rule, never a crash ----------------------------------------


def test_an_unknown_category_is_refused_with_its_code_and_rule() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    final(g)
    err = g.no("score", "unknown_category", "GAL-16", player="Ann", category="bonus", money=1)
    assert "bonus" in err.message and ", ".join(CATEGORIES) in err.message  # what to send


@pytest.mark.parametrize(("counts_as", "code"), [
    ([], "counts_as_one"), (["sold", "exhibited"], "counts_as_one"),
    (["both"], "unknown_counts_as"), ("both", "unknown_counts_as")])
def test_counts_as_is_one_of_the_two(counts_as: object, code: str) -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    g.no("auction_pick", code, "GAL-20", player="Ann", easel="formA", counts_as=counts_as,
         value=3)


@pytest.mark.parametrize("counts_as", [["sold"], "sold"])
def test_a_list_of_one_is_that_choice(counts_as: object) -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    events = g.ok("auction_pick", player="Ann", easel="formA", counts_as=counts_as, value=3)
    assert events[0]["counts_as"] == "sold"
    assert player(g, "Ann")["terms"]["dealer"] == ["renowned formA"]


def test_an_entry_on_a_computed_figure_must_match_it() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("market", player="Ben", column=3, row="upper")
    final(g)
    g.no("score", "contradicts_catalog", "GAL-25", player="Ben", category="market", money=14)
    events = g.ok("score", player="Ben", category="market", money=15)
    assert events == [{"type": "scored", "player": "Ben", "category": "market", "money": 15,
                       "source": "computed"}]
    g.no("score", "contradicts_catalog", "GAL-25", player="Ben", category="auction", money=1)
    g.ok("score", player="Ben", category="auction", money=0)


# ---- what the summary shows (the console, the box, the page and the log read it) -----------


def test_no_summary_before_final_scoring_and_it_stays_after_the_end() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    assert g.json["scoring"] is None
    final(g)
    entered(g, "Ann", "Ben")
    g.ok("final_scoring")
    assert g.json["over"] and scoring(g)["owed"] == []
    assert [p["name"] for p in scoring(g)["players"]] == ["Ann", "Ben"]


def test_the_summary_shows_each_term_by_name() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.ok("market", player="Ben", column=3, row="upper")
    g.given_player("Ben", visitors=frozen({"pink": 2, "brown": 1}))
    final(g)
    ben = player(g, "Ben")
    assert ben["terms"]["market"] == [{"column": 3, "assistants": 1, "places": [1],
                                       "money": 15}]
    assert ben["terms"]["influence"] == {"position": 10}
    assert ben["sources"]["auction"] == "computed" and ben["auction"] == 0
    assert ben["terms"]["auction"] is None
    assert ben["visitors"] == 3
    assert ben["assistants_in_play"] == g.state.player("Ben").in_play > 0


def test_an_owed_pick_is_named_first() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ben", 2)
    final(g)
    owed = scoring(g)["owed"]
    assert owed[0] == "Ben's auction pick" and len(owed) > 1
    err = g.no("final_scoring", "score_incomplete", "GAL-16")
    assert ", ".join(owed) in err.message


def test_a_work_by_an_artist_of_no_known_fame_is_entered() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given_player("Ann", exhibited=(Work("BlueA"),))  # BlueA face down: no fame yet
    final(g)
    ann = player(g, "Ann")
    assert ann["terms"]["exhibited"] == [{"artist": "BlueA", "fame": None,
                                          "masterpiece": False, "value": None}]
    assert ann["exhibited"] is None and ann["sources"]["exhibited"] == "table"


# ---- score and auction_pick: which figure may be entered, and how ---------------------------


def test_a_table_priced_pick_is_the_auction_figure() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    g.ok("auction_pick", player="Ann", easel="formA", counts_as="sold", value=4)
    g.no("score", "contradicts_catalog", "GAL-25", player="Ann", category="auction", money=5)
    events = g.ok("score", player="Ann", category="auction", money=4)
    assert events[0]["source"] == "table"


@pytest.mark.parametrize("category", ["curator", "dealer"])
def test_the_cards_wait_for_the_pick(category: str) -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    g.no("score", "auction_first", "GAL-16", player="Ann", category=category, money=1)
    g.ok("score", player="Ben", category=category, money=1)  # Ben picks nothing


def test_a_pick_out_of_turn_names_whose_pick_it_is() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    err = g.no("auction_pick", "not_your_pick", "GAL-20", player="Ben", easel="formA",
               counts_as="sold", value=1)
    assert "Ann" in err.message
    g.ok("auction_pick", player="Ann", easel="formA", counts_as="sold", value=1)
    err = g.no("auction_pick", "not_your_pick", "GAL-20", player="Ben", easel="formB",
               counts_as="sold", value=1)
    assert "None" not in err.message and "No auction pick is due" in err.message


def test_a_total_of_0_loses_to_a_total_of_1() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    g.given_player("Ann", money=0)
    g.given_player("Ben", money=1)
    final(g)
    entered(g, "Ann", "Ben")
    over = g.ok("final_scoring")[-1]
    assert over["totals"] == {"Ann": 0, "Ben": 1}
    assert (over["winners"], over["reason"]) == (["Ben"], "money")


# ---- GAL-20: what a renowned work is priced by, per art form (the summary's `renowned`) ------

NOBODY = {"fame": None, "artists": [], "value": None}


def test_the_renowned_artists_of_each_form_among_the_discovered(tmp_path: Path) -> None:
    g = Game(["Ann", "Ben"], catalog=catalog(tmp_path, RedB=3, BlueB=3))
    g.place_all()
    assert renowned_json(g.state) == {f: NOBODY for f in ("formA", "formB", "formC", "formD")}
    g.ok("discover", artist="RedB")  # printed 3; BlueB, face down at 3 too, does not count
    g.ok("discover", artist="RedA", fame=5)
    g.ok("discover", artist="BlueA", fame=5)
    g.ok("discover", artist="RedD", fame=5)  # another form's artist at formA's fame
    g.ok("discover", artist="BlueD", fame=9)
    want = {"formA": {"fame": 5, "artists": ["RedA", "BlueA"], "value": 6},  # catalog order
            "formB": {"fame": 3, "artists": ["RedB"], "value": 3},
            "formC": NOBODY,
            "formD": {"fame": 9, "artists": ["BlueD"], "value": 6}}
    assert renowned_json(g.state) == want
    g.given(artists={**g.state.artists,
                     "BlueA": replace(g.state.artist("BlueA"), celebrity=True)})
    final(g)
    assert scoring(g)["auction"]["renowned"] == {
        **want, "formA": {"fame": 19, "artists": ["BlueA"], "value": 15}}


def test_under_auction_fame_from_all_a_face_down_artist_s_printed_fame_counts(
        tmp_path: Path) -> None:
    g = Game(["Ann", "Ben"], catalog=catalog(tmp_path, RedA=6, RedB=3, BlueB=11),
             rules={"auction_fame_from": "all"})
    g.place_all()
    assert renowned_json(g.state) == {
        "formA": {"fame": 6, "artists": ["RedA"], "value": 6},
        "formB": {"fame": 11, "artists": ["BlueB"], "value": 10},  # face down: printed 11
        "formC": NOBODY, "formD": NOBODY}
    g.ok("discover", artist="RedA")  # printed 6
    g.ok("fame", artist="RedA", by="Ann", steps=2)  # its fame now, not the printed one
    final(g)
    assert scoring(g)["auction"]["renowned"]["formA"] == {
        "fame": 8, "artists": ["RedA"], "value": 6}


def test_an_entered_figure_past_999_is_refused_naming_what_it_is() -> None:
    g = Game(["Ann", "Ben"])
    g.place_all()
    spend(g, "Ann", 2)
    final(g)
    err = g.no("auction_pick", "money_too_high", "GAL-10", player="Ann", easel="formC",
               counts_as="sold", value=1000)
    assert err.message == "The formC work's value is at most 999, not 1000."
    err = g.no("score", "money_too_high", "GAL-10", player="Ben", category="reputation",
               money=1000)
    assert err.message == "Ben's reputation tiles money is at most 999, not 1000."
