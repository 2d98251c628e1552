"""The A.R.T. Project's logged steps in words (`referee.ruleset.DescribesSteps`): what was
done and by whom, then what followed from it in the order it happened (tokens paid and
gained, agents placed, artwork uncovered or collected, a city lost, a clue discarded, a
battle's dice and verdict, the phase, the end). Plain text, no markup: every front end (the
console's event log, the phone page's log) shows these same words.

Only the step's own command and events are read: the words never need the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.games.art_project.state import battle_dice
from referee.ruleset import Event

RESOURCES = ("fuel", "radio", "weapon")
# why an artwork could not be uncovered (`uncover_blocked`'s reason)
BLOCKED = {
    "no_city": "no city of this board shows that symbol",
    "lost": "every city with that symbol is lost",
    "occupied": "every city with that symbol already holds an artwork",
    "no_token": "no artwork token is left",
}
REASONS = {
    "track_full": "the last artwork reached the track",
    "health": "a player lost their last health token",
    "agents": "no agent token was left to place",
    "lost_markers": "no lost-city marker was left",
    "surrounded": "a pawn could not leave a lost city",
    "final_card": "the final round ended with the track unfilled",
    "rio_district": "a district whose artwork was still due was lost",
}
PHASES = {"A": "the mission phase (A)", "A/B": "the window before movement (A/B)",
          "B": "movement (B)", "B/C": "the window before battles (B/C)",
          "C": "battles (C)", "C/D": "the window before the round's end (C/D)",
          "D/A": "the window before the next round (D/A)"}
DECISIONS = {"uncover_order": "which clue set is uncovered first",
             "uncover_island": "which island gets the artwork",
             "collect_order": "which artwork is collected first",
             "lose_resources": "what the van loses", "lose_clue": "which clue card is lost",
             "effect_health": "who pays the health",
             "clue_set": "which clue cards make the set"}
EFFECTS = {"lose_resources": "the van loses resources", "lose_clue": "a clue card is lost",
           "agents": "agents arrive", "gain_radio": "the van gains radio",
           "gain_fuel": "the van gains fuel", "gain_weapon": "the van gains a weapon"}


def _names(names: Sequence[str]) -> str:
    names = [str(n) for n in names]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _tokens(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{counts[r]} {r}" for r in RESOURCES if counts.get(r))


def _health(health: Any) -> str:
    if not isinstance(health, Mapping):
        return ""
    return ", ".join(f"{n} health from {who}" for who, n in health.items() if n)


def _paid(e: Event) -> str:
    parts = [p for p in (_tokens(e), _health(e.get("health"))) if p]
    return ("paid " + " and ".join(parts)) if parts else ""


def _gained(e: Event) -> str:
    health = e.get("health") or {}
    parts = [_tokens(e)] + [f"{n} health to {who}" for who, n in health.items() if n]
    said = ("gained " + ", ".join(p for p in parts if p)) if any(parts) else ""
    short = e.get("short") or {}
    if short:
        lack = ", ".join(f"{n} {k}" for k, n in short.items())
        said += ("; " if said else "") + f"the reserve lacked {lack}"
    return said


def _agents(e: Event) -> str:
    n = e["count"]
    where = (f"HQ ({e['city']} is lost)" if e.get("to") == "hq" else str(e["city"]))
    return f"{n} agent{'s' if n != 1 else ''} placed in {where}"


def card_no(card: object) -> str:
    """A mission card as the table reads it: the box numbers the cards played in order
    (``c5``, the protocol's id) and the table reads "card 5"."""
    text = str(card)
    return text[1:] if text[:1] == "c" and text[1:].isdigit() else text


def set_said(option: str) -> str:
    """A set of clue cards named by their ids ("c1+c3", a `clue_set` option) as the table
    reads it: "cards 1 and 3"."""
    nos = [card_no(x) for x in str(option).split("+")]
    return f"card {nos[0]}" if len(nos) == 1 else f"cards {', '.join(nos[:-1])} and {nos[-1]}"


def choice_said(choice: object) -> str:
    """A pending decision's option as the table reads it: a clue card or a set of them by
    number ("card 3", "cards 1 and 3"), any other option (a resource, a player) as it is."""
    text = str(choice)
    parts = text.split("+")
    if all(p[:1] == "c" and p[1:].isdigit() for p in parts):
        return set_said(text)
    return text


def is_ally_die(die: str) -> bool:
    """Whether a battle die's id is an ally die's (``ally1`` .. ``ally5``, ART-20)."""
    return die.startswith("ally") and die[4:].isdigit()


def die_said(die: str) -> str:
    """A battle die in words: a player's by name, an ally die as "ally die 2"."""
    return f"ally die {die[4:]}" if is_ally_die(die) else die


def dice_words(dice: Mapping[str, Any], plus: str = ", ") -> str:
    """A battle's dice for the table: each player's by name, the ally dice together (the
    team's, interchangeable: "Ann 1, Ben 4, ally dice 2 and 6"), never a die's id."""
    own = [f"{k} {v}" for k, v in dice.items() if not is_ally_die(str(k))]
    ally = [str(v) for k, v in dice.items() if is_ally_die(str(k))]
    if ally:
        joined = ally[0] if len(ally) == 1 else (
            " + ".join(ally) if plus == " + " else ", ".join(ally[:-1]) + " and " + ally[-1])
        own.append(f"{'ally die' if len(ally) == 1 else 'ally dice'} {joined}")
    return plus.join(own)


def _battle(e: Event, how: str = "") -> str:
    dice = dice_words(dict(battle_dice(e))) if e.get("dice") else "none"
    weapons = e.get("weapons", 0)
    arms = f" + {weapons} weapon{'s' if weapons != 1 else ''} × 2" if weapons else ""
    verdict = "won" if e.get("won") else "not yet won"
    return (f"dice{how} {dice} = {e['dice_sum']}{arms}: team {e['strength']} against agents "
            f"{e['city_agents']} + threat {e['threat']} + HQ {e['hq']} = "
            f"{e['agents_strength']}: {verdict}")


def _city_lost(e: Event) -> str:
    n = e["agents"]
    said = (f"{e['city']} is lost ({n} agent{'s go' if n != 1 else ' goes'} back to the "
            "reserve)")
    if e.get("artwork_removed"):
        said += "; its artwork is lost with it"
    return said


def _over(e: Event) -> str:
    won = e.get("outcome") == "won"
    why = REASONS.get(str(e.get("reason")), str(e.get("reason") or ""))
    return f"game over: the team {'won' if won else 'lost'} ({why}, {e.get('rule')})"


def _pending(e: Event) -> str:
    decisions = e.get("decisions") or []
    if not decisions:
        return ""
    return "; ".join(f"the team chooses {DECISIONS.get(d['decision'], d['decision'])}: "
                     + " or ".join(choice_said(o) for o in d.get("options", []))
                     for d in decisions)


def _moved(e: Event) -> str:
    pawn = e["pawn"] if e.get("pawn") == e.get("player") else f"the ally pawn ({e['pawn']})"
    return (f"{pawn} moved from {e['from']} to {e['to']}"
            + (" with the artwork" if e.get("carry") else ""))


def _drawn(e: Event) -> str:
    extra = "an extra card" if e.get("extra") else "a card"
    below = " from below the final card" if e.get("from") == "below" else ""
    return f"{e['player']} drew {extra}{below}"


_EVENTS: dict[str, Callable[[Event], str]] = {
    "paid": _paid,
    "gained": _gained,
    "health_lost": lambda e: f"{e['player']} loses {e['count']} health",
    "agents_placed": _agents,
    "setup_agents_placed": lambda e: f"{e['player']} placed setup agents: " + ", ".join(
        f"{n} in {c}" for c, n in dict(e["agents"]).items()),
    "card_played": lambda e: f"{e['player']} played mission card {card_no(e['card'])}",
    "clue_added": lambda e: (f"clue card {card_no(e['card'])} ({'+'.join(e['symbols'])}) "
                             "joins the chain"
                             if e.get("symbols") else
                             f"card {card_no(e['card'])} joins the chain with no clue"),
    "card_discarded": lambda e: f"card {card_no(e['card'])} discarded (no clue kept)",
    "clues_discarded": lambda e: (f"clue cards {', '.join(map(card_no, e['cards']))} "
                                  f"discarded for the {e['symbol']} set"),
    "clue_spent": lambda e: f"clue card {card_no(e['card'])} spent on the reroll",
    "clue_lost": lambda e: f"clue card {card_no(e['card'])} is lost",
    "clue_given": lambda e: f"{e['from']} gave clue card {card_no(e['card'])} to {e['to']}",
    "uncovered": lambda e: f"{e['symbol']} artwork uncovered in {e['city']}",
    "uncover_blocked": lambda e: (f"the {e['symbol']} artwork could not be uncovered"
                                  + (f" ({BLOCKED.get(str(e['reason']), 'see the rules')})"
                                     if e.get("reason") else "")),
    "collected": lambda e: (f"artwork collected in {e['city']}: track space {e['space']} "
                            f"(threat {e['threat']}, next ally die {e['ally_cost']} radio)"),
    "city_lost": _city_lost,
    "battle": _battle,
    "agents_cleared": lambda e: (f"{e['count']} agent{'s' if e['count'] != 1 else ''} "
                                 f"leave{'' if e['count'] != 1 else 's'} {e['city']}"
                                 if e.get("count") else ""),
    "battle_conceded": lambda e: f"{e['leader']} concedes the battle in {e['city']}",
    "moved": _moved,
    "ally_unlocked": lambda e: (f"ally die {e['allies']} of 5 unlocked ({e['cost']} radio)"),
    "drawn": _drawn,
    "final_card": lambda e: f"{e['player']} drew the final card: this is the final round",
    "draw_lost": lambda e: f"the deck is empty: {e['player']} draws nothing",
    "reshuffled": lambda e: f"{e['cards']} discarded cards shuffled into the deck",
    "hands_discarded": lambda e: (f"{e['cards']} unplayed card(s) discarded" if e.get("cards")
                                  else ""),
    "phase": lambda e: f"now {PHASES.get(str(e['phase']), e['phase'])}",
    "round_started": lambda e: f"round {e['round']} begins",
    "effect": lambda e: f"{e['city']}'s effect: {EFFECTS.get(e['effect'], e['effect'])}",
    "pending": _pending,
    "game_over": _over,
    "warning": lambda e: str(e.get("message", "")),
}


_UNDONE = {"new_game": "the new game", "draw": "a draw", "extra_draw": "a paid extra draw",
           "play_card": "a mission card", "move": "a move", "unlock_ally": "an ally die",
           "battle": "a battle", "reroll": "a reroll", "weapon": "a weapon",
           "concede": "a concession", "end_phase": "the end of a phase",
           "choose": "a choice", "give_clue": "a clue card given",
           "place_agents": "setup agents", "reveal": "the seed revealed"}


def _head(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """What the step's command was, in words."""
    cmd = str(command.get("cmd"))
    who = command.get("player")
    if cmd == "new_game":
        players = [p.get("name") if isinstance(p, Mapping) else p
                   for p in command.get("players") or []]
        ally = f", ally pawn {command['ally']}" if command.get("ally") else ""
        return (f"New game: {command.get('mission')} ({command.get('difficulty')}) for "
                f"{_names([str(p) for p in players])}{ally}")
    if cmd == "undo":
        undone = next((e for e in events if e.get("type") == "undone"), {})
        what = _UNDONE.get(str(undone.get("cmd")), str(undone.get("cmd", "a step")))
        return f"Undone: step {command.get('undoes', undone.get('seq', '?'))} ({what})"
    if cmd == "reveal":
        return "The seed is revealed early"
    heads: dict[str, str] = {
        "draw": f"{who} draws",
        "extra_draw": f"{who} pays for an extra draw",
        "play_card": f"{who} plays a mission card",
        "move": f"{who} moves",
        "unlock_ally": "The team unlocks an ally die",
        "battle": f"Battle in {command.get('city')}, led by {command.get('leader')}",
        "reroll": (f"Reroll of {_dice_named(command.get('dice') or [])} with clue card "
                   f"{card_no(command.get('card'))}"),
        "weapon": f"{who} adds a weapon (+2)",
        "concede": "The team concedes the battle",
        "end_phase": "End of the phase",
        "choose": f"The team chooses {choice_said(command.get('choice'))}",
        "give_clue": "A clue card changes hands",
        "place_agents": f"{who} places setup agents",
    }
    return heads.get(cmd, cmd.replace("_", " "))


def _how(events: Sequence[Event]) -> str:
    """How a step's dice were rolled: typed from the table, read by the tray, or the box's."""
    rolls = [e for e in events if e.get("type") == "roll"]
    if not rolls:
        return ""
    sources = sorted({"rolled by the box" if e.get("source") == "electronic"
                      else "read by the tray" if e.get("via") == "tray" else "typed"
                      for e in rolls})
    kept = " and kept through an undo" if any(e.get("kept") for e in rolls) else ""
    return f" ({', '.join(sources)}{kept})"


def _rerolled(events: Sequence[Event]) -> str:
    rolls = [e for e in events if e.get("type") == "roll"]
    if not rolls:
        return ""
    dice = dice_words({str(e["id"]): e["value"] for e in rolls})
    return f"new dice {dice}{_how(events)}"


def _dice_named(ids: Sequence[str]) -> str:
    """Dice by whose they are, never by id: "Ann's die and 2 ally dice"."""
    own = [f"{d}'s die" for d in ids if not is_ally_die(str(d))]
    allies = sum(is_ally_die(str(d)) for d in ids)
    if allies:
        own.append("an ally die" if allies == 1 else f"{allies} ally dice")
    return " and ".join(own) or "no die"


# The events a step's words leave out: their news is in the head or in another event's words.
_QUIET = {"game_started", "roll", "kept_dropped", "die_corrected", "seed_revealed", "undone"}


def step_words(command: Mapping[str, Any], events: Sequence[Event]) -> str:
    """One logged step in words: the command, then each consequence in order."""
    parts = [_head(command, events)]
    if command.get("cmd") == "reroll":
        parts.append(_rerolled(events))
    how = "" if command.get("cmd") == "reroll" else _how(events)
    skip_first_card = command.get("cmd") == "play_card"
    for e in events:
        kind = str(e.get("type"))
        if kind in _QUIET:
            continue
        if kind == "card_played" and skip_first_card:
            parts[0] = f"{e['player']} plays mission card {card_no(e['card'])}"
            continue
        if kind == "drawn" and command.get("cmd") in ("draw", "extra_draw"):
            parts[0] = _drawn(e)
            continue
        if kind == "moved" and command.get("cmd") == "move":
            parts[0] = _moved(e)
            continue
        if kind == "battle_conceded" and command.get("cmd") == "concede":
            parts[0] = f"{e['leader']} concedes the battle in {e['city']}"
            continue
        if kind == "paid" and command.get("cmd") == "move":
            parts.append(_paid(e))
            continue
        fn = _EVENTS.get(kind)
        said = (_battle(e, how) if kind == "battle" else fn(e) if fn is not None
                else kind.replace("_", " "))
        if said:
            parts.append(said)
    return parts[0] + (": " + "; ".join(parts[1:]) if len(parts) > 1 else "")
