"""The A.R.T. Project's board for a front end that knows no game (the web page), as
`referee.ruleset.Panel`s (`DescribesBoard`): per city its agents, artwork, pawns and whether it
is lost; the HQ, the track and the allies; the clue chain; the deck. Read from the state
alone: nothing here decides a rule."""

from __future__ import annotations

from referee.games.art_project.state import ArtState
from referee.games.art_project.words import card_no
from referee.ruleset import Panel


def board(s: ArtState) -> list[Panel]:
    if s.mission is None or s.phase == "no_game":
        return []
    cities: list[tuple[str, ...]] = [("city", "agents", "artwork", "pawns", "lost")]
    for city in s.mission.cities:
        name = city.name
        symbol = f" ({city.symbol})" if city.symbol else ""
        cities.append((f"{name}{symbol}", str(s.agents.get(name, 0)),
                       "yes" if name in s.artwork else "–",
                       ", ".join(s.pawns_in(name)) or "–",
                       "LOST" if name in s.lost else "–"))
    track_len = len(s.mission.track)
    threat = "–" if s.threat is None else f"+{s.threat}"
    cost = "–" if s.ally_cost is None else str(s.ally_cost)
    team = (("agents at HQ", str(s.hq)),
            ("agents in reserve", str(s.agent_reserve)),
            ("lost cities", f"{len(s.lost)} ({s.markers} lost marker(s) left)"),
            ("track", f"{s.track} of {track_len} spaces (threat now {threat})"),
            ("allies", f"{s.allies} unlocked (next costs {cost})"),
            ("artwork removed", str(s.artwork_gone)),
            ("round", f"{s.round}" + (" (final round)" if s.final_round else "")))
    chain: list[tuple[str, ...]] = [("clue", "symbols", "played by")]
    chain += [(f"card {card_no(c.id)}", " + ".join(c.symbols) or "–", c.player)
              for c in s.chain]
    d = s.deck
    deck = (("cards above the final card", str(d.above)),
            ("the final card", "still in the deck" if d.final else "drawn"),
            ("cards below it", str(d.below)),
            ("discard pile", str(d.discard)),
            ("cards played", str(s.cards)))
    panels = [Panel("Cities", tuple(cities), header=True), Panel("The team", team)]
    panels.append(Panel("The clue chain", tuple(chain), header=True) if s.chain
                  else Panel("The clue chain", (("no clue played yet",),)))
    panels.append(Panel("The deck", deck))
    return panels
