"""Scandinavia's city effects (ART-31): applied the moment an artwork is collected from the
city; the team's choices (which resources, which clue card, who pays health) are pending
decisions answered with `choose`."""

from __future__ import annotations

from itertools import combinations_with_replacement

from referee.games.art_project.rules.common import (
    Steps,
    gain,
    lose_health,
    mission,
    place_agents,
)
from referee.games.art_project.state import RESOURCES, Pending

DECISIONS = ("lose_resources", "lose_clue", "effect_health")
LOSE = 2  # "Lose 2 resources of your choice"


def _pending(steps: Steps, decision: str, options: list[str], then: str | None,
             count: int = 0) -> None:
    steps.add({"type": "pending", "decisions": [
        {"decision": decision, "options": options, "player": None, "then": then,
         "symbol": str(count) if count else None}]})


def apply_effect(steps: Steps, city: str, then: str | None) -> None:
    m = mission(steps.state)
    here = m.city(city)
    if m.board != "scandinavia" or here is None or here.effect is None or steps.over:
        return
    effect = here.effect
    steps.add({"type": "effect", "city": city, "effect": effect})
    st = steps.state
    if effect.startswith("gain_"):
        gain(steps, {effect.removeprefix("gain_"): 2}, {})
    elif effect == "agents":
        for other in m.cities:
            if other.name == city:
                continue
            if other.name in st.lost and st.rules.effect_agents_to_lost_city == "skip":
                continue
            place_agents(steps, other.name, 1, f"effect of {city}")
    elif effect == "lose_clue":
        if len(st.chain) == 1:
            steps.add({"type": "clue_lost", "card": st.chain[0].id})
        elif st.chain:
            _pending(steps, "lose_clue", [x.id for x in st.chain], then)
    elif effect == "lose_resources":
        held = [r for r in RESOURCES for _ in range(st.van[r])]
        if len(held) >= LOSE:
            options = sorted({"+".join(pair) for pair in combinations_with_replacement(
                RESOURCES, LOSE) if all(pair.count(r) <= st.van[r] for r in pair)})
            if len(options) == 1:
                _lose(steps, options[0])
            else:
                _pending(steps, "lose_resources", options, then)
            return
        if held:
            _lose(steps, "+".join(held))
        short = LOSE - len(held) if st.rules.scandinavia_shortfall == "per_token" else 1
        _pending(steps, "effect_health", [p.name for p in st.players if p.health], then,
                 short)


def _lose(steps: Steps, choice: str) -> None:
    kinds = choice.split("+")
    steps.add({"type": "paid", "player": None, **{r: kinds.count(r) for r in RESOURCES},
               "health": {}, "cause": "effect"})


def resolve(steps: Steps, p: Pending, choice: str) -> None:
    if p.decision == "lose_resources":
        _lose(steps, choice)
    elif p.decision == "lose_clue":
        steps.add({"type": "clue_lost", "card": choice})
    else:  # effect_health: the named player pays (ART-31: "one of the players")
        lose_health(steps, choice, int(p.symbol or 1), "effect")
