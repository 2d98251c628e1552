"""Starting a game of The A.R.T. Project (ART-1..5, ART-29..34)."""

from __future__ import annotations

from referee.errors import RuleViolation, SettingsError
from referee.games.art_project import commands as c
from referee.games.art_project.catalog import ArtCatalog, Mission
from referee.games.art_project.rules.common import (
    known_city,
    known_player,
    mission,
    refuse,
    require_free,
)
from referee.games.art_project.settings import ArtRules, house_rule
from referee.games.art_project.state import (
    AGENT_TOKENS,
    DIFFICULTY_HEALTH,
    HEALTH_TOKENS,
    RESOURCES,
    TOKENS,
    ArtState,
)
from referee.inputs import name_problem, same_name
from referee.ruleset import Event

CARDS, BELOW_FINAL, SOLO_REMOVED = 72, 12, 15  # ART-5
DIE_IDS = tuple(f"ally{i}" for i in range(1, 6))  # ART-20
MAX_NAME = 20


def setup_agents(m: Mission) -> dict[str, int]:
    """Agents per city at setup (ART-4, ART-29, ART-30, ART-32, ART-33)."""
    out = {}
    for city in m.cities:
        if city.agents is not None:
            n = city.agents
        elif m.board == "egypt":
            n = 3 if city.tag == "north" else 2
        elif m.board in ("polynesia", "rio") or (m.board == "usa" and city.name == m.start):
            n = 0
        else:
            n = 2
        out[city.name] = n
    return out


def _players(cmd: c.NewGame, cat: ArtCatalog) -> list[tuple[str, str]]:
    if not 1 <= len(cmd.players) <= 6:
        raise refuse("bad_players", "ART-1", f"The A.R.T. Project takes 1 to 6 players, not "
                     f"{len(cmd.players)}.")
    names: set[str] = set()
    taken = {p.color for p in cmd.players if p.color} | ({cmd.ally} if cmd.ally else set())
    free = [col for col in cat.colours if col not in taken]
    out = []
    for i, p in enumerate(cmd.players):
        problem = name_problem(p.name, MAX_NAME)
        if problem:
            raise refuse("bad_players", "ART-1", f"Player {i + 1}'s name {problem}.")
        key = same_name(p.name)
        reserved = {same_name(d) for d in DIE_IDS} | ({same_name(cmd.ally)} if cmd.ally else set())
        if key in names or key in reserved:
            raise refuse("bad_players", "ART-1",
                         f"{p.name!r} is taken (names are unique and may not be a die's id: "
                         f"{', '.join(DIE_IDS)}, or the ally's colour).")
        names.add(key)
        color = p.color or free.pop(0)
        if color not in cat.colours:
            raise refuse("unknown_colour", "ART-1", f"{color!r} is not a player colour "
                         f"({', '.join(cat.colours)}).")
        out.append((p.name, color))
    colours = [col for _, col in out]
    if len(set(colours)) != len(colours):
        raise refuse("bad_players", "ART-1", "Each player takes a different colour.")
    return out


def new_game(s: ArtState, cmd: c.NewGame) -> list[Event]:
    # (A game in progress is left only when the table asks: the session's, for every game.)
    cat = cmd.catalog or s.catalog
    m = cat.missions.get(cmd.mission)
    if m is None:
        raise refuse("unknown_mission", "ART-1", f"No mission {cmd.mission!r} in the catalog "
                     f"({', '.join(cat.missions)}).")
    if cmd.difficulty not in DIFFICULTY_HEALTH:
        raise refuse("bad_difficulty", "ART-1", f"Difficulty is one of "
                     f"{', '.join(DIFFICULTY_HEALTH)}, not {cmd.difficulty!r}.")
    missing = m.missing()
    if missing:
        raise refuse("catalog_incomplete", "ART-36",
                     f"The catalog has no {', '.join(missing)} for the mission {m.id!r}: the "
                     "box never guesses a board's numbers. Enter them in a catalog file "
                     "(docs/art-project.md) and start with \"catalog\": its path.")
    try:
        rules = ArtRules.from_overrides(cmd.rules)
    except SettingsError as err:
        raise RuleViolation(str(err), code="bad_rules") from err
    if rules.battle_die == "catalog" and cat.faces is None:
        said = house_rule("battle_die", "catalog")
        raise refuse("catalog_incomplete", "ART-20", f"{said[:1].upper()}{said[1:]} needs the "
                     "catalog's [dice] faces, and this catalog has none.")
    players = _players(cmd, cat)
    solo = len(players) == 1
    if solo and (cmd.ally is None or cmd.ally not in cat.colours
                 or cmd.ally == players[0][1]):
        raise refuse("bad_ally", "ART-34", "Solo needs \"ally\": a player colour other than "
                     f"the player's ({', '.join(c for c in cat.colours if c != players[0][1])}).")
    if not solo and cmd.ally is not None:
        raise refuse("bad_ally", "ART-34", "Only solo has an ally pawn.")
    health = DIFFICULTY_HEALTH[cmd.difficulty] * (2 if solo else 1)
    agents = setup_agents(m)
    placed = sum(agents.values())
    if placed > AGENT_TOKENS:
        raise refuse("catalog_incomplete", "ART-4", f"The mission's setup places {placed} "
                     f"agents; there are {AGENT_TOKENS}.")
    van = {r: 0 if (r == "fuel" and m.board == "egypt") else 3 for r in RESOURCES}
    above = CARDS - BELOW_FINAL - (SOLO_REMOVED if solo else 0)
    return [{
        "type": "game_started", "game": "art-project", "catalog": cat.to_json(),
        "mission": m.to_json(), "difficulty": cmd.difficulty, "rules": rules.to_json(),
        "players": [{"name": n, "color": col, "health": health, "draws": 3 if solo else 2,
                     **({"setup_agents": 2} if m.board == "rio" else {})}
                    for n, col in players],
        "ally": cmd.ally if solo else None, "van": van,
        "reserve": {r: TOKENS - van[r] for r in RESOURCES},
        "health_reserve": HEALTH_TOKENS - health * len(players), "agents": agents,
        "agent_reserve": AGENT_TOKENS - placed,
        "markers": m.markers or (6 if m.board == "polynesia" else 3),
        "artwork": [m.setup_artwork] if m.setup_artwork else [],
        "deck": {"above": above, "final": True, "below": BELOW_FINAL, "discard": 0},
        "commitment": cmd.commitment,
        "hall": [list(r) for r in s.hall],
    }]


def place_agents(s: ArtState, cmd: c.PlaceAgents) -> list[Event]:
    """Rio: each player places 2 agents in any district before the first round (ART-33)."""
    require_free(s)
    if mission(s).board != "rio":
        raise refuse("not_rio", "ART-33", "Agents are placed by the players only on Rio.")
    p = known_player(s, cmd.player)
    if not p.setup_agents:
        raise refuse("no_setup_agents", "ART-33", f"{p.name} has placed their agents.")
    for city, _ in cmd.agents:
        known_city(s, city, "ART-33")
    placed = {city: n for city, n in cmd.agents if n}
    total = sum(placed.values())
    if not 1 <= total <= p.setup_agents:
        raise refuse("wrong_count", "ART-33", f"{p.name} places 1 to {p.setup_agents} "
                     f"agent(s), not {total}.")
    if s.rules.rio_setup_agents == "one_district" and (len(placed) != 1
                                                        or total != p.setup_agents):
        raise refuse("one_district", "ART-33", f"Both of {p.name}'s agents go to one "
                     f"district ({house_rule('rio_setup_agents', 'one_district')}).")
    return [{"type": "setup_agents_placed", "player": p.name, "agents": placed}]


def setup_owed(s: ArtState) -> None:
    """Nothing else happens on Rio until every player's setup agents are placed."""
    owing = [p.name for p in s.players if p.setup_agents]
    if owing:
        raise refuse("setup_agents_owed", "ART-33", f"First {' and '.join(owing)} "
                     f"{'places' if len(owing) == 1 else 'place'} their 2 agents in any "
                     "district.")
