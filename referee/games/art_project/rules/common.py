"""What every A.R.T. rule module shares: refusals, the step builder, the GOLDEN RULE, agent
placement and the end of the game. Pure: no clock, no randomness, no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.errors import GameOver, RuleViolation
from referee.games.art_project.catalog import Mission
from referee.games.art_project.evolve import evolve
from referee.games.art_project.state import RESOURCES, ArtState, Player
from referee.games.art_project.words import REASONS
from referee.ruleset import Event

# The rule each phase's commands rest on, for `wrong_phase` (ART-9).
HOME_RULE = {"A": "ART-10", "B": "ART-16", "C": "ART-19", "C/D": "ART-30"}
PHASE_WORDS = {"A": "the mission phase (A)", "A/B": "the window between A and B",
               "B": "the movement phase (B)", "B/C": "the window between B and C",
               "C": "the battle phase (C)", "C/D": "the window between C and D",
               "D/A": "the window between rounds"}


DECISION_RULE = {"uncover_order": "ART-15", "clue_set": "ART-15", "uncover_island": "ART-32",
                 "collect_order": "ART-17", "lose_resources": "ART-31", "lose_clue": "ART-31",
                 "effect_health": "ART-31"}


def refuse(code: str, rule: str | None, message: str) -> RuleViolation:
    return RuleViolation(message, code=code, rule=rule)


@dataclass
class Steps:
    """Events built one at a time, each folded at once so the next check sees it."""

    state: ArtState
    events: list[Event] = field(default_factory=list)

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def over(self) -> bool:
        return self.state.over

    def lose(self, reason: str, rule: str = "ART-27") -> None:
        self.add({"type": "game_over", "outcome": "lost", "winners": [], "reason": reason,
                  "rule": rule})

    def win(self) -> None:
        self.add({"type": "game_over", "outcome": "won",
                  "winners": [p.name for p in self.state.players], "reason": "track_full",
                  "rule": "ART-26"})


def mission(s: ArtState) -> Mission:
    assert s.mission is not None
    return s.mission


def require_game(s: ArtState) -> None:
    if s.phase == "no_game":
        raise refuse("no_game", None, "No game is running: start one with new_game.")
    if s.over:
        why = REASONS.get(str(s.reason), "see the log")  # (in words, never its code)
        what = "won" if s.outcome == "won" else f"lost ({why})"
        raise GameOver(f"The game is over: the team {what}. Nothing can change it now; "
                       "start a new game.", rule=s.over_rule)


def require_free(s: ArtState, *, battle_ok: bool = False) -> None:
    """No team decision is waiting, and (unless `battle_ok`) no battle is open."""
    require_game(s)
    if s.pending:
        p = s.pending[0]
        raise refuse("decision_pending", DECISION_RULE.get(p.decision, "ART-9"),
                     f"First the team must answer: {p.decision.replace('_', ' ')} "
                     f"({', '.join(p.options)}), with choose.")
    if s.battle is not None and not battle_ok:
        raise refuse("battle_open", "ART-19",
                     f"The battle in {s.battle.city} is open: reroll, add a weapon or "
                     "concede first.")


def known_player(s: ArtState, name: str) -> Player:
    p = s.player(name)
    if p is None:
        raise refuse("unknown_player", None, f"There is no player called {name!r} "
                     f"({', '.join(q.name for q in s.players)}).")
    return p


def known_city(s: ArtState, name: str, rule: str) -> str:
    if mission(s).city(name) is None:
        raise refuse("unknown_city", rule, f"{name!r} is not a city of this mission "
                     f"({', '.join(c.name for c in mission(s).cities)}).")
    return name


def wrong_phase(s: ArtState, home: str, what: str) -> RuleViolation:
    rule = HOME_RULE.get(home, "ART-9")
    return refuse("wrong_phase", rule, f"{what} belongs to {PHASE_WORDS[home]}; the game is "
                  f"in {PHASE_WORDS.get(s.phase, s.phase)}.")


def health_named(s: ArtState, named: Mapping[str, int], shortfall: int, kind: str,
                 rule: str) -> None:
    """An optional spend names exactly the health the van's shortfall needs (ART-7)."""
    total = sum(named.values())
    if total > shortfall:
        have = s.van.get(kind, 0)
        raise refuse("golden_rule", "ART-7",
                     f"The GOLDEN RULE: health only replaces a {kind} token the van lacks; "
                     f"the van holds {have}, so {shortfall} health is needed, not {total}.")
    if total < shortfall:
        raise refuse(f"not_enough_{kind}", rule,
                     f"The van holds {s.van.get(kind, 0)} {kind}; name {shortfall} health "
                     f"(one per missing token) to pay the rest.")
    for name, n in named.items():
        if known_player(s, name).health < n:
            raise refuse("not_enough_health", "ART-7",
                         f"{name} holds {known_player(s, name).health} health, not {n}.")


def pay_optional(steps: Steps, player: str | None, kind: str, cost: int,
                 health: Mapping[str, int]) -> None:
    """Spend `cost` of `kind` from the van, health named for the rest (already checked)."""
    from_van = min(cost, steps.state.van.get(kind, 0))
    if not cost:
        return
    _paid(steps, player, {kind: from_van}, {k: v for k, v in health.items() if v})


def _paid(steps: Steps, player: str | None, tokens: Mapping[str, int],
          health: Mapping[str, int]) -> None:
    steps.add({"type": "paid", "player": player,
               **{r: tokens.get(r, 0) for r in RESOURCES}, "health": dict(health)})
    if any(steps.state.player(n).health <= 0 for n in health):  # type: ignore[union-attr]
        steps.lose("health")


def pay_mandatory(steps: Steps, player: str, cost: Mapping[str, int]) -> None:
    """A card's cost, split by the box: the van first, then the player's health (ART-7)."""
    if not any(cost.values()):
        return
    van = steps.state.van
    tokens = {r: min(cost.get(r, 0), van.get(r, 0)) for r in RESOURCES}
    short = sum(cost.get(r, 0) - tokens[r] for r in RESOURCES)
    have = steps.state.player(player).health  # type: ignore[union-attr]
    _paid(steps, player, tokens, {player: min(short, have)} if short else {})


def gain(steps: Steps, tokens: Mapping[str, int], health: Mapping[str, int]) -> None:
    """Gain within the reserves (ART-6, ART-8): what is not there is `short`, never an error."""
    s = steps.state
    got = {r: min(tokens.get(r, 0), s.reserve.get(r, 0)) for r in RESOURCES}
    short = {r: tokens.get(r, 0) - got[r] for r in RESOURCES if tokens.get(r, 0) > got[r]}
    left = s.health_reserve
    given: dict[str, int] = {}
    for name, n in health.items():
        take = min(n, left)
        left -= take
        if take:
            given[name] = given.get(name, 0) + take
        if n > take:
            short["health"] = short.get("health", 0) + n - take
    if any(got.values()) or given or short:
        steps.add({"type": "gained", **got, "health": given, "short": short})


def lose_health(steps: Steps, player: str, count: int, cause: str) -> None:
    have = steps.state.player(player).health  # type: ignore[union-attr]
    steps.add({"type": "health_lost", "player": player, "count": min(count, have),
               "cause": cause})
    if have - count <= 0:
        steps.lose("health")


def place_agents(steps: Steps, city: str, count: int, cause: str) -> None:
    """`count` agents to `city` (to HQ if it is lost), one at a time: running out loses the
    game at the first that cannot be placed (ART-14, ART-27)."""
    if count <= 0 or steps.over:
        return
    to = "hq" if city in steps.state.lost else city
    placed = min(count, steps.state.agent_reserve)
    if placed:
        steps.add({"type": "agents_placed", "city": city, "to": to, "count": placed,
                   "cause": cause})
    if placed < count:
        steps.lose("agents")


def check_win(steps: Steps) -> None:
    if not steps.over and steps.state.space is None:
        steps.win()
