"""Phase C, battles (ART-19..23, ART-34): the dice rolled together, the verdict term by term,
rerolls by clue card, weapons, concession; won the moment the sums meet.

Every die has an id (ART-20): the leader's and each other participant's by the player's
name, the unlocked ally dice ``ally1``..``ally5`` (the team's: their kept value after an
undo waits whoever leads next), and solo's ally pawn's die by its colour. Dice a command
does not carry are asked of the session (`NeedDice`), so an undone battle's dice stay on
the table for the same ids and undo never re-rolls a battle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from referee.dice import Roll
from referee.games.art_project import commands as c
from referee.games.art_project.rules.common import (
    Steps,
    health_named,
    known_city,
    known_player,
    lose_health,
    pay_optional,
    refuse,
    require_free,
    require_game,
)
from referee.games.art_project.rules.phases import collect, enter
from referee.games.art_project.state import ArtState, Battle
from referee.games.art_project.words import card_no, die_said
from referee.ruleset import DieRequest, Event, NeedDice


def faces(st: ArtState) -> tuple[int, ...]:
    """The battle dice's faces: 1-6 (battle_die = "d6", not from the rulebook) or the
    catalog's (ART-20)."""
    if st.rules.battle_die == "catalog" and st.catalog.faces is not None:
        return st.catalog.faces
    return (1, 2, 3, 4, 5, 6)


def die_name(st: ArtState) -> str:
    return "d6" if faces(st) == (1, 2, 3, 4, 5, 6) else "face"


def owner(st: ArtState, die: str) -> str | None:
    """Who rolls a die, as kept dice match it: ally dice are the team's (None)."""
    if die.startswith("ally") and die[4:].isdigit():
        return None
    if st.ally is not None and die == st.ally.color:
        return st.players[0].name
    return die


def _check_rolls(st: ArtState, rolls: Mapping[str, Roll], allowed: Sequence[str],
                 what: str) -> None:
    for die, roll in rolls.items():
        if die not in allowed:
            raise refuse("not_in_battle", "ART-20", f"{die!r} is not {what} "
                         f"({', '.join(allowed)}).")
        if roll.value not in faces(st):
            raise refuse("roll_out_of_range", "ART-20", f"A battle die shows "
                         f"{', '.join(map(str, sorted(set(faces(st)))))}, not {roll.value}.")


def _need(st: ArtState, dice: Sequence[str], rolls: Mapping[str, Roll],
          purpose: str) -> NeedDice | None:
    missing = [d for d in dice if d not in rolls]
    if not missing:
        return None
    return NeedDice(tuple(DieRequest(d, die_name(st), purpose, len(faces(st)),
                                     player=owner(st, d)) for d in missing))


def _roll_events(st: ArtState, dice: Sequence[str], rolls: Mapping[str, Roll],
                 purpose: str) -> list[Event]:
    return [{"type": "roll", "player": owner(st, d), "id": d, "purpose": purpose,
             **replace(rolls[d], die=die_name(st)).to_json()} for d in dice]


def _verdict(steps: Steps, b: Battle) -> None:
    verdict = b.verdict()
    steps.add(verdict)
    if verdict["won"]:  # ART-22: agents to the reserve, the city's artwork collected
        steps.add({"type": "agents_cleared", "city": b.city,
                   "count": steps.state.agents.get(b.city, 0)})
        collect(steps, b.city)


def battle(s: ArtState, cmd: c.Battle) -> list[Event] | NeedDice:
    steps = enter(s, "C", "A battle")
    st = steps.state
    city = known_city(st, cmd.city, "ART-19")
    leader = known_player(st, cmd.leader)
    if city in st.fought:
        raise refuse("already_fought", "ART-19", f"{city} has had its battle this round.")
    if leader.city != city:
        if st.ally is not None and st.ally.city == city:
            raise refuse("ally_cannot_fight_alone", "ART-34", f"Only the ally pawn is in "
                         f"{city}: the ally cannot fight alone; {leader.name} leads.")
        raise refuse("leader_not_here", "ART-19", f"{leader.name} is in {leader.city}, not "
                     f"{city}: the leader's pawn must be in the city.")
    if st.rules.battle_needs_agents and not st.agents.get(city, 0):
        raise refuse("no_agents", "ART-19", f"There is no agent in {city} to fight.")
    here = [p.name for p in st.players if p.city == city]
    if st.rules.battle_participants == "declared" and cmd.participants is not None:
        for name in cmd.participants:
            if known_player(st, name).city != city:
                raise refuse("not_in_battle", "ART-19", f"{name} is not in {city}.")
        here = [n for n in here if n == leader.name or n in cmd.participants]
    others = [n for n in here if n != leader.name]
    dice = [leader.name, *(f"ally{i}" for i in range(1, st.allies + 1)), *others]
    if st.ally is not None and st.ally.city == city:
        dice.append(st.ally.color)
    _check_rolls(st, cmd.rolls, dice, "a die of this battle")
    need = _need(st, dice, cmd.rolls, "battle")
    if need is not None:
        return need
    for e in _roll_events(st, dice, cmd.rolls, "battle"):
        steps.add(e)
    threat = st.threat
    assert threat is not None  # a full track has won the game
    _verdict(steps, Battle(city, leader.name, (leader.name, *others),
                           tuple((d, cmd.rolls[d].value) for d in dice), 0,
                           st.agents.get(city, 0), threat, st.hq))
    return steps.events


def _open(s: ArtState) -> Battle:
    require_game(s)
    require_free(s, battle_ok=True)
    if s.battle is None:
        raise refuse("no_battle", "ART-23", "No battle is open: this is done only while a "
                     "battle's strength is below the agents'.")
    return s.battle


def _chain_said(s: ArtState) -> str:
    """The clue chain's cards as the table reads them ("cards 1, 3"), or that it is empty."""
    if not s.chain:
        return "it is empty"
    return ("card " if len(s.chain) == 1 else "cards ") + ", ".join(card_no(x.id)
                                                                   for x in s.chain)


def reroll(s: ArtState, cmd: c.Reroll) -> list[Event] | NeedDice:
    b = _open(s)
    card = next((x for x in s.chain if x.id == cmd.card), None)
    if card is None:
        raise refuse("not_in_chain", "ART-23", f"Card {card_no(cmd.card)} is not in the clue chain "
                     f"({_chain_said(s)}).")
    if not card.symbols:
        raise refuse("no_clues_on_card", "ART-23",
                     f"Card {card_no(card.id)} shows no clue: it rerolls nothing.")
    if len(set(cmd.dice)) != len(cmd.dice):
        raise refuse("duplicate_die", "ART-23", "Each die is rerolled at most once per card.")
    if not cmd.dice or len(cmd.dice) > len(card.symbols):
        raise refuse("too_many_dice", "ART-23",
                     f"Card {card_no(card.id)} shows {len(card.symbols)} "
                     f"clue{'s' if len(card.symbols) > 1 else ''}: it rerolls 1 to "
                     f"{len(card.symbols)} dice, not {len(cmd.dice)}.")
    ids = [d for d, _ in b.dice]
    for d in cmd.dice:
        if d not in ids:
            said = [die_said(x) for x in ids]  # (the dice in words, never their ids)
            raise refuse("not_in_battle", "ART-23", f"{die_said(d)!r} is not a die of this "
                         f"battle ({', '.join(said)}).")
        if s.mission is not None and s.mission.board == "usa":
            own = owner(s, d) or b.leader
            if own != card.player:
                raise refuse("not_your_die", "ART-30", f"On USA {card.player}'s clue card "
                             f"rerolls only {card.player}'s dice, not {d}.")
    _check_rolls(s, cmd.rolls, cmd.dice, "a die being rerolled")
    need = _need(s, cmd.dice, cmd.rolls, "reroll")
    if need is not None:
        return need
    steps = Steps(s)
    steps.add({"type": "clue_spent", "card": card.id, "symbols": list(card.symbols),
               "used": len(cmd.dice)})
    for e in _roll_events(s, cmd.dice, cmd.rolls, "reroll"):
        steps.add(e)
    new = {d: cmd.rolls[d].value for d in cmd.dice}
    _verdict(steps, replace(b, dice=tuple((d, new.get(d, v)) for d, v in b.dice)))
    return steps.events


def weapon(s: ArtState, cmd: c.Weapon) -> list[Event]:
    b = _open(s)
    p = known_player(s, cmd.player)
    if p.name not in b.participants:
        raise refuse("not_in_battle", "ART-23", f"{p.name} is not fighting in {b.city}.")
    shortfall = max(0, 1 - s.van.get("weapon", 0))
    health_named(s, {p.name: cmd.health} if cmd.health else {}, shortfall, "weapon",
                 "ART-23")
    steps = Steps(s)
    pay_optional(steps, p.name, "weapon", 1, {p.name: cmd.health})
    if not steps.over:
        _verdict(steps, replace(b, weapons=b.weapons + 1))
    return steps.events


def concede(s: ArtState, cmd: c.Concede) -> list[Event]:
    b = _open(s)
    steps = Steps(s)
    steps.add({"type": "battle_conceded", "city": b.city, "leader": b.leader})
    lose_health(steps, b.leader, 1, "concede")
    return steps.events
