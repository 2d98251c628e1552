"""The A.R.T. Project's house rules: where the rulebook is open to reading (ART-n).

The table (the-art-project-rules.md, "House-rule settings") has nineteen settings; each names
the rule it changes, and a bad value raises `SettingsError` naming the field and what is
allowed. A game's settings are fixed when it starts (they are recorded in ``game_started``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from referee.errors import SettingsError
from referee.ruleset import HouseRule, choice_rule
from referee.tomlfile import locate_line, read_text_file, toml_loads

# name: (rule, allowed values, what it decides)
SETTINGS: dict[str, tuple[str, tuple[object, ...], str]] = {
    "battle_die": ("ART-20", ("d6", "catalog"),
                   "the battle dice's faces: 1-6, or the catalog's [dice] faces"),
    "final_card_detection": ("ART-12", ("count", "table"),
                             "who says the final card has come: the box's count or the table"),
    "deck_empty": ("ART-12", ("skip", "reshuffle"),
                   "a draw owed from an empty deck is lost, or the discards are reshuffled"),
    "extra_draw_payment": ("ART-11", ("any_resource", "per_type"),
                           "health pays an extra draw only when the van is empty of every "
                           "resource, or once the named type is gone"),
    "extra_draw_until": ("ART-11", ("first_play", "own_play"),
                         "extra draws end with the round's first card, or the player's own"),
    "clue_overflow": ("ART-15", ("all_bearing", "minimal_set"),
                      "a completed set discards every card bearing the symbol, or only the "
                      "oldest cards that make 3"),
    "clueless_card": ("ART-14", ("chain", "discard"),
                      "a card with no clue joins the chain, or is discarded"),
    "artwork_token_limit": ("ART-15", ("unlimited", 8),
                            "artwork tokens are not counted out, or 8 are"),
    "artwork_on_lost_city": ("ART-24", ("stays", "removed"),
                             "an artwork on a city that is lost stays there, or goes back"),
    "ally_windows": ("ART-18", ("within_round", "every_boundary"),
                     "allies are unlocked in A/B, B/C and C/D, or also between rounds"),
    "unlocks_per_window": ("ART-18", ("any", "one"),
                           "any number of ally dice per window, or one"),
    "battle_participants": ("ART-19", ("all_present", "declared"),
                            "every player in the city fights, or those the leader names"),
    "battle_needs_agents": ("ART-19", (True, False),
                            "a battle needs at least one agent in the city"),
    "surrounded_check": ("ART-24", ("at_movement", "at_end_of_round"),
                         "a surrounded pawn loses when movement opens, or at once in D"),
    "egypt_level_road_fuel": ("ART-29", (1, 0), "fuel for an Egyptian road going neither way"),
    "dallas_weapon": ("ART-30", ("each_pawn", "each_pawn_that_moved", "once"),
                      "weapons gained at the end of movement for pawns in Dallas"),
    "scandinavia_shortfall": ("ART-31", ("per_token", "one"),
                              "health paid for resources a city's effect cannot take"),
    "effect_agents_to_lost_city": ("ART-31", ("hq", "skip"),
                                   "an effect's agent for a lost city goes to HQ, or nowhere"),
    "rio_setup_agents": ("ART-33", ("any", "one_district"),
                         "each player's 2 setup agents go anywhere, or both in one district"),
}


# Each setting in the table's words (issue 39): its name, each value's words and what the
# table does under it. The console's help and the page read them here.
HOUSE_RULES: dict[str, HouseRule] = {r.key: r for r in (
    choice_rule("battle_die", "ART-20", "Battle dice faces", {
        "d6": ("1 to 6", "Battle dice are ordinary six-sided dice, 1 to 6."),
        "catalog": ("the catalog's faces", "Battle dice show the faces the catalog lists."),
    }),
    choice_rule("final_card_detection", "ART-12", "Who notices the final card", {
        "count": ("the box counts", "The box counts the deck and says when the final card "
                  "comes up."),
        "table": ("the table says", "The table says when the final card is drawn."),
    }),
    choice_rule("deck_empty", "ART-12", "A draw from an empty deck", {
        "skip": ("is lost", "A card owed from an empty deck is not drawn."),
        "reshuffle": ("reshuffles", "The discards are shuffled into a new deck and the card "
                      "is drawn."),
    }),
    choice_rule("extra_draw_payment", "ART-11", "Health for an extra draw", {
        "any_resource": ("once the van is empty", "Health pays for an extra draw only when "
                         "the van holds no resource at all."),
        "per_type": ("once that resource is gone", "Health pays for an extra draw as soon as "
                     "the van has none of the resource named."),
    }),
    choice_rule("extra_draw_until", "ART-11", "When extra draws stop", {
        "first_play": ("at the round's first card", "Extra draws stop once anyone plays the "
                       "round's first mission card."),
        "own_play": ("at the player's own card", "Each player may draw extra until they play "
                     "their own mission card."),
    }),
    choice_rule("clue_overflow", "ART-15", "Clue cards discarded for a set", {
        "all_bearing": ("every card with the symbol", "Completing a set discards every chain "
                        "card that shows its symbol."),
        "minimal_set": ("just enough for 3", "Completing a set discards only the oldest "
                        "cards that make three of the symbol."),
    }),
    choice_rule("clueless_card", "ART-14", "A mission card with no clue", {
        "chain": ("joins the chain", "A card without a clue symbol still joins the clue "
                  "chain."),
        "discard": ("is discarded", "A card without a clue symbol goes to the discards."),
    }),
    choice_rule("artwork_token_limit", "ART-15", "Artwork tokens", {
        "unlimited": ("not counted", "Artworks are uncovered however many tokens are out."),
        8: ("8 in the box", "Once all 8 tokens are in use, no further artwork is uncovered."),
    }),
    choice_rule("artwork_on_lost_city", "ART-24", "An artwork on a city that is lost", {
        "stays": ("stays", "The artwork stays in the lost city."),
        "removed": ("goes back", "The artwork is taken off the board."),
    }),
    choice_rule("ally_windows", "ART-18", "When ally dice can be unlocked", {
        "within_round": ("between phases", "Ally dice are unlocked between phases A and B, B "
                         "and C, C and D."),
        "every_boundary": ("also between rounds", "Ally dice may also be unlocked between "
                           "one round's phase D and the next round's phase A."),
    }),
    choice_rule("unlocks_per_window", "ART-18", "Ally dice unlocked at a time", {
        "any": ("as many as paid for", "Any number of ally dice may be unlocked between two "
                "phases."),
        "one": ("one", "At most one ally die is unlocked between two phases."),
    }),
    choice_rule("battle_participants", "ART-19", "Who fights a battle", {
        "all_present": ("everyone in the city", "Every player whose pawn is in the city "
                        "fights."),
        "declared": ("those named", "The leader names which players in the city fight."),
    }),
    choice_rule("battle_needs_agents", "ART-19", "A battle with no agents", {
        True: ("not allowed", "A battle needs at least one agent in the city."),
        False: ("allowed", "A battle may be fought in a city with no agent."),
    }),
    choice_rule("surrounded_check", "ART-24", "When a trapped pawn loses the game", {
        "at_movement": ("when movement opens", "A pawn in a lost city with no road out "
                        "loses the game for the team when the next movement phase opens."),
        "at_end_of_round": ("at once, in phase D", "A pawn in a lost city with no road out "
                            "loses the game for the team as soon as the city is lost."),
    }),
    choice_rule("egypt_level_road_fuel", "ART-29", "Fuel for a level road in Egypt", {
        1: ("1 fuel", "A road going neither north nor south costs 1 fuel."),
        0: ("free", "A road going neither north nor south costs no fuel."),
    }),
    choice_rule("dallas_weapon", "ART-30", "Weapons gained in Dallas", {
        "each_pawn": ("one per pawn there", "At the end of movement, each pawn in Dallas gains "
                      "a weapon."),
        "each_pawn_that_moved": ("one per pawn that moved there", "Only pawns that moved into "
                                 "Dallas this phase gain a weapon."),
        "once": ("one in all", "One weapon is gained however many pawns are in Dallas."),
    }),
    choice_rule("scandinavia_shortfall", "ART-31", "Health for resources the van lacks "
                "(Scandinavia)", {
        "per_token": ("one per missing token", "A player loses a health token for each "
                      "resource a city's effect cannot take."),
        "one": ("one in all", "One health token is lost however many resources are "
                "missing."),
    }),
    choice_rule("effect_agents_to_lost_city", "ART-31", "An effect's agent for a lost city", {
        "hq": ("goes to HQ", "An agent an effect sends to a lost city goes to headquarters "
               "instead."),
        "skip": ("is not placed", "An agent an effect sends to a lost city is not placed."),
    }),
    choice_rule("rio_setup_agents", "ART-33", "Starting agents in Rio", {
        "any": ("anywhere", "Each player places their 2 starting agents in any districts."),
        "one_district": ("both in one district", "Each player places both starting agents in "
                         "a single district."),
    }),
)}


def house_rule(key: str, value: object) -> str:
    """A house rule in force as a refusal cites it, in the table's words: 'the house rule
    "Ally dice unlocked at a time: one"' (never its key and value)."""
    rule = HOUSE_RULES[key]
    return f'the house rule "{rule.name}: {rule.says(value)}"'


@dataclass(frozen=True, slots=True)
class ArtRules:
    battle_die: str = "d6"
    final_card_detection: str = "count"
    deck_empty: str = "skip"
    extra_draw_payment: str = "any_resource"
    extra_draw_until: str = "first_play"
    clue_overflow: str = "all_bearing"
    clueless_card: str = "chain"
    artwork_token_limit: str | int = "unlimited"
    artwork_on_lost_city: str = "stays"
    ally_windows: str = "within_round"
    unlocks_per_window: str = "any"
    battle_participants: str = "all_present"
    battle_needs_agents: bool = True
    surrounded_check: str = "at_movement"
    egypt_level_road_fuel: int = 1
    dallas_weapon: str = "each_pawn"
    scandinavia_shortfall: str = "per_token"
    effect_agents_to_lost_city: str = "hq"
    rio_setup_agents: str = "any"

    def __post_init__(self) -> None:
        for name in SETTINGS:
            problem = setting_problem(name, getattr(self, name))
            if problem:
                raise SettingsError(problem, field=name)

    @classmethod
    def from_overrides(cls, overrides: object, source: str = "rules") -> ArtRules:
        if not isinstance(overrides, Mapping):
            raise SettingsError("must be a table of house rules", field=source)
        for name, value in overrides.items():
            if name not in SETTINGS:
                raise SettingsError(f"unknown house rule; the settings are "
                                    f"{', '.join(SETTINGS)}", field=f"{source}.{name}")
            problem = setting_problem(name, value)
            if problem:
                raise SettingsError(problem, field=f"{source}.{name}")
        values: dict[str, Any] = dict(overrides)
        return cls(**values)

    def to_json(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def described(self) -> list[tuple[HouseRule, object]]:
        """Each setting in the table's words with its value here, in the spec's order."""
        return [(HOUSE_RULES[n], getattr(self, n)) for n in SETTINGS]

    def describe(self) -> list[tuple[str, object, str]]:
        """(name, value, what it decides) per setting, for the in-app rules reference."""
        return [(n, getattr(self, n), f"{SETTINGS[n][0]}: {SETTINGS[n][2]}") for n in SETTINGS]


def setting_problem(name: str, value: object) -> str | None:
    rule, allowed, _ = SETTINGS[name]
    if any(type(value) is type(a) and value == a for a in allowed):
        return None
    return (f"must be one of {', '.join(json.dumps(a) for a in allowed)} ({rule}), "
            f"not {json.dumps(value) if isinstance(value, str | int | bool) else repr(value)}")


if set(HOUSE_RULES) != set(SETTINGS) or any(  # a programming error, caught at import
        set(HOUSE_RULES[k].choices) != set(v[1]) for k, v in SETTINGS.items()):
    raise RuntimeError("HOUSE_RULES must word every setting and every value of SETTINGS")
if set(SETTINGS) != {f.name for f in fields(ArtRules)}:  # a programming error
    raise RuntimeError("ArtRules and SETTINGS must name the same settings")


def load_settings(path: str | Path) -> ArtRules:
    """The ``[rules]`` table of a TOML file; raises `SettingsError` with file and line."""
    text = read_text_file(path, "settings", SettingsError)
    rules = toml_loads(text, str(path), SettingsError).get("rules", {})
    try:
        return ArtRules.from_overrides(rules)
    except SettingsError as err:
        key = (err.field or "").removeprefix("rules.")
        raise SettingsError(str(err).split(": ", 1)[-1], path=str(path),
                            line=locate_line(text, [("rules", None)], key or None),
                            field=err.field) from err
