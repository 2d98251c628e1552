"""Writes game.jsonl: a whole two-player game of The Gallerist for `referee headless` (setup
with a box draw from the bag, three rounds with kick-outs, a celebrity, the end triggered by
two conditions, the final round, and the final scoring with an auction pick, entered and
computed figures and one corrected mis-entry). Run: python -m
tests.referee.games.gallerist.make_games"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
FIXTURE = "tests/referee/games/gallerist/fixture.toml"  # from the repository's root


def game() -> list[dict[str, Any]]:
    def c(cmd: str, **fields: Any) -> dict[str, Any]:
        return {"cmd": cmd, **fields}

    def turn(player: str, to: str, *middle: dict[str, Any], **move: Any) -> list[dict[str, Any]]:
        return [c("move", player=player, to=to, **move), *middle,
                c("location_action", player=player), c("end_turn", player=player)]

    return [
        c("new_game", game="gallerist", players=["Ann", "Ben"], start_player="Ann",
          catalog=FIXTURE, bag={"pink": 2, "white": 1}),
        c("check", item="bag"), c("check", item="tickets"),
        c("draw_visitor"),  # the plaza: a box draw from the bag
        c("place_start", player="Ben", location="Artists Colony", tile="rep-B"),
        c("place_start", player="Ann", location="Media Centre", tile="rep-A"),
        # round 1
        c("move", player="Ann", to="International Market", leave_assistant="desk"),
        c("executive", player="Ann", kind="tickets"), c("take_ticket", player="Ann",
                                                        colour="pink"),
        c("location_action", player="Ann"),
        c("discover", player="Ann", artist="RedA", fame=12),
        c("acquire", player="Ann", artist="RedA", cost=3),
        c("market", player="Ann", column=1, row="upper"),
        c("end_turn", player="Ann"),
        c("move", player="Ben", to="Media Centre"),  # kicks out Ann's assistant
        c("location_action", player="Ben"),
        c("discover", player="Ben", artist="BlueA", fame=18),
        c("acquire", player="Ben", artist="BlueA", cost=4),
        c("market", player="Ben", column=3, row="lower", cost=2),
        c("market", player="Ben", column=1, row="upper"),
        c("end_turn", player="Ben"),
        c("kickout_action", player="Ann", kind="executive"),
        # round 2
        *turn("Ann", "Artists Colony", c("fame", artist="BlueA", by="Ann", steps=1)),
        c("move", player="Ben", to="Fourth Location"),
        c("location_action", player="Ben"),
        c("fame", artist="RedA", by="Ben", steps=9),
        c("draw_visitor", player="Ben"), c("draw_visitor", player="Ben"),  # end triggered
        c("visitor", player="Ben", colour="white", to="gallery"),
        c("sell", player="Ben", artist="BlueA"),
        c("end_turn", player="Ben"),
        # round 3, the final round: kick-outs send pieces back at once
        *turn("Ann", "Fourth Location"),
        *turn("Ben", "International Market"),
        # final scoring
        c("auction_pick", player="Ben", easel="formA", counts_as="sold"),
        c("score", player="Ann", category="reputation", money=40),
        c("undo"),  # a mis-entry corrected
        c("score", player="Ann", category="reputation", money=4),
        c("score", player="Ann", category="curator", money=3),
        c("score", player="Ann", category="dealer", money=0),
        c("score", player="Ann", category="influence", money=2),
        c("score", player="Ben", category="reputation", money=6),
        c("score", player="Ben", category="curator", money=0),
        c("score", player="Ben", category="dealer", money=4),
        c("score", player="Ben", category="influence", money=1),
        c("state"),
        c("final_scoring"),
    ]


def main() -> None:
    lines = [json.dumps(r) for r in game()]
    (HERE / "game.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
