"""Boards the table entered (docs/art-project.md, "Entering a board").

The rulebook prints no board's cities or track, so a mission without them cannot start
(`catalog_incomplete`). The table enters the printed board here: its cities (with their
symbols; Egypt's with north/south), the start city, then the track space by space (threat and
ally cost; Rio: the district). Nothing is guessed: every number is the table's. The board is
kept as a catalog file (`boards/<mission>.toml` beside the game file, or in
$REFEREE_BOARDS) that the next game of that mission names again; without roads, the map is
trusted (ART-16). The ruleset's own catalog reader checks the file before it is kept."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from referee.errors import CatalogError
from referee.games.art_project.catalog import (
    DIRECTIONS,
    EFFECTS,
    THREADS,
    ArtCatalog,
    Mission,
    load_catalog,
)
from ui import format as fmt
from ui.base import Dialog, KeyBar
from ui.games import OtherGameStyles


def boards_dir(session: Any = None) -> Path:
    """Where entered boards are kept: $REFEREE_BOARDS, else beside the session's game file
    (``--db``), else beside the default game file (a session kept in memory)."""
    if os.environ.get("REFEREE_BOARDS"):
        return Path(os.environ["REFEREE_BOARDS"]).expanduser()
    game_file = getattr(getattr(session, "store", None), "path", None)
    if isinstance(game_file, Path):
        return game_file.parent / "boards"
    from referee.app import default_db_path

    return default_db_path().parent / "boards"


def _safe(mission: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in mission) or "board"


def board_file(mission: str, session: Any = None) -> Path | None:
    """The kept board file of `mission`, if the table entered one."""
    path = boards_dir(session) / f"{_safe(mission)}.toml"
    return path if path.is_file() else None


def catalog_with_boards(session: Any = None) -> ArtCatalog:
    """The built-in catalog, with each mission the table entered taken from its file."""
    base = load_catalog(None)
    missions: dict[str, Mission] = dict(base.missions)
    for mission_id in list(missions):
        path = board_file(mission_id, session)
        if path is None:
            continue
        try:
            kept = load_catalog(path).missions.get(mission_id)
        except CatalogError:
            continue  # a broken file: the form shows the board as still to enter
        if kept is not None:
            missions[mission_id] = kept
    return ArtCatalog(base.colours, base.symbols, base.faces, missions, base.source)


def parse_cities(text: str) -> list[dict[str, str]]:
    """``Name=symbol@tag, Name, ...`` (symbol and tag optional) as catalog city tables."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, tag = part.partition("@")
        name, _, symbol = name.partition("=")
        if not name.strip():
            raise ValueError(f"a city needs a name (not {part!r})")
        city = {"name": name.strip()}
        if symbol.strip():
            city["symbol"] = symbol.strip()
        if tag.strip():
            city["tag"] = tag.strip()
        out.append(city)
    if not out:
        raise ValueError("list the board's cities, separated by commas")
    return out


def spelled(names: list[str], typed: str) -> str:
    """`typed` as one of `names` spells it, matched without regard to case (else as typed:
    the catalog reader names what is wrong)."""
    return next((n for n in names if n.casefold() == typed.strip().casefold()), typed.strip())


# What a road may say after its colon, per board (ART-29, ART-31, ART-33).
ROAD_MARKS = {"egypt": ("dir", DIRECTIONS), "scandinavia": ("thread", THREADS),
              "rio": ("free", ("free",))}


def parse_roads(text: str, names: list[str], board: str) -> list[Any]:
    """``A-B, A-C:mark, ...`` (a mark only where the board has one: Egypt's way from A to B
    north/south/level, Scandinavia's red/beige thread, Rio's free road) as catalog roads. A
    city name may hold a hyphen: the road is split where both ends are the board's cities."""
    out: list[Any] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        road, colon, mark = part.partition(":")
        ends = _ends(road, names)
        if ends is None:
            raise ValueError(f"write a road as City-City with two of the cities above "
                             f"(not {part!r})")
        if not colon:
            out.append(list(ends))
            continue
        field, allowed = ROAD_MARKS.get(board, ("", ()))
        mark = mark.strip().casefold()
        if mark not in allowed:
            raise ValueError(f"{part!r}: this board's roads take "
                             + (" or ".join(f":{a}" for a in allowed) if allowed
                                else "no mark") + " after the colon")
        out.append({"a": ends[0], "b": ends[1], field: True if field == "free" else mark})
    return out


def _ends(road: str, names: list[str]) -> tuple[str, str] | None:
    for i, ch in enumerate(road):
        if ch != "-":
            continue
        a, b = road[:i].strip(), road[i + 1:].strip()
        known = {n.casefold() for n in names}
        if a.casefold() in known and b.casefold() in known:
            return spelled(names, a), spelled(names, b)
    return None


def parse_effects(text: str, cities: list[dict[str, str]]) -> None:
    """Scandinavia's ``City=effect, ...`` (ART-31) set on the entered cities."""
    names = [c["name"] for c in cities]
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, effect = part.partition("=")
        effect = effect.strip().casefold()
        if not eq or effect not in EFFECTS:
            raise ValueError(f"write City=effect, the effect one of {', '.join(EFFECTS)} "
                             f"(not {part!r})")
        city = spelled(names, name)
        found = next((c for c in cities if c["name"] == city), None)
        if found is None:
            raise ValueError(f"{name.strip()!r} is not one of the cities above")
        found["effect"] = effect


def parse_space(text: str, rio: bool) -> dict[str, Any]:
    """A track space as printed: ``threat ally-cost`` (Rio: then its district's symbol)."""
    parts = text.replace(",", " ").split()
    want = 3 if rio else 2
    if len(parts) not in (2, want) or not all(p.isdigit() for p in parts[:2]):
        raise ValueError("type its threat and its ally cost as printed, e.g. 10 1"
                         + (", then the district's symbol if it names one" if rio else ""))
    space: dict[str, Any] = {"threat": int(parts[0]), "ally_cost": int(parts[1])}
    if len(parts) == 3:
        space["symbol"] = parts[2]
    return space


def board_toml(base: ArtCatalog, mission: Mission, cities: list[dict[str, str]], start: str,
               track: list[dict[str, Any]], roads: list[Any] | None = None) -> str:
    """A catalog file holding the entered board (strings written as JSON, valid TOML)."""
    q = json.dumps

    def table(d: dict[str, Any]) -> str:
        return "{ " + ", ".join(f"{k} = {q(v)}" for k, v in d.items()) + " }"

    lines = [f"colours = {q(list(base.colours))}", f"symbols = {q(list(base.symbols))}", "",
             "[[missions]]", f"id = {q(mission.id)}", f"board = {q(mission.board)}",
             f"name = {q('entered at the table')}", f"start = {q(start)}"]
    if mission.markers is not None:
        lines.append(f"markers = {mission.markers}")
    lines.append("cities = [")
    lines += [f"    {table(c)}," for c in cities]
    lines.append("]")
    if roads:
        lines.append("roads = [")
        lines += [f"    {q(r) if isinstance(r, list) else table(r)}," for r in roads]
        lines.append("]")
    lines.append("track = [")
    lines += [f"    {table(s)}," for s in track]
    lines.append("]")
    return "\n".join(lines) + "\n"


class BoardEntryScreen(OtherGameStyles, Dialog[None]):
    """The printed board: cities and start, then the track space by space; Ctrl+S keeps it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *Dialog.BINDINGS,
        Binding("ctrl+s", "save", "Keep the board", priority=True),
        Binding("ctrl+r", "remove", "Remove last space"),
        Binding("enter", "entered", show=False, priority=True),
    ]

    def __init__(self, mission: str) -> None:
        super().__init__()
        self.mission = mission
        self.track: list[dict[str, Any]] = []

    @property
    def board(self) -> str | None:
        m = load_catalog(None).missions.get(self.mission)
        return None if m is None else m.board

    @property
    def rio(self) -> bool:
        return self.board == "rio"

    def _roads_label(self) -> str:
        mark = {"egypt": ", :north/:south/:level from the first city",
                "scandinavia": ", :red or :beige thread",
                "rio": ", :free costs no fuel"}.get(self.board or "", "")
        return f"Roads: City-City{mark}, ... (blank: a trusted map)"

    # (each board's own kind of example, so no field names a city of another board)
    EXAMPLES: ClassVar[dict[str, tuple[str, str, str]]] = {
        "egypt": ("Cairo=painting@north, Giza@south, Luxor=film@south", "Cairo",
                  "Cairo-Giza:south, Giza-Luxor:level"),
        "scandinavia": ("Oslo, Bergen=painting, Malmo=film", "Oslo",
                        "Oslo-Bergen:red, Oslo-Malmo:beige"),
        "rio": ("Centro, Lapa=painting, Leblon=film", "Centro",
                "Centro-Lapa:free, Centro-Leblon"),
        "usa": ("Boston, Chicago=painting, Denver=film", "Boston",
                "Boston-Chicago, Chicago-Denver"),
        "polynesia": ("Tahiti, Samoa=painting, Fiji=film", "Tahiti", "Tahiti-Samoa, Samoa-Fiji"),
    }
    DEFAULT_EXAMPLE = ("Tokyo, Kyoto=painting, Osaka=film", "Tokyo", "Tokyo-Kyoto, Kyoto-Osaka")

    def _example(self) -> tuple[str, str, str]:
        """Placeholders for the cities, the start and the roads, in this board's manner."""
        return self.EXAMPLES.get(self.board or "", self.DEFAULT_EXAMPLE)

    def _roads_example(self) -> str:
        return self._example()[2]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="board-entry"):
            yield Static(f"[b]Enter the board of {fmt.escape(self.mission)}[/b] "
                         "from the printed board", classes="dialog-title")
            yield Static("Cities: Name=symbol, ... (Egypt: Name=symbol@north or @south)",
                         classes="form-label")
            yield Input(placeholder=self._example()[0], id="cities",
                        compact=True)
            yield Static("Start city (the flag)", classes="form-label")
            yield Input(placeholder=self._example()[1], id="start", compact=True)
            yield Static(self._roads_label(), classes="form-label")
            yield Input(placeholder=self._roads_example(), id="roads", compact=True)
            if self.board == "scandinavia":
                yield Static("Effects: City=effect, ... (" + ", ".join(EFFECTS) + ")",
                             classes="form-label")
                yield Input(placeholder="Bergen=lose_resources, Malmo=agents", id="effects",
                            compact=True)
            yield Static("", id="space-label", classes="form-label")
            yield Input(placeholder="threat ally-cost district" if self.rio
                        else "threat ally-cost", id="space", compact=True)
            yield Static("", id="track-so-far", markup=False)
            yield Static("Enter adds the space (its threat, then the radio an ally die costs"
                         + (", then its district)" if self.rio else ")")
                         + ". Ctrl+S keeps the board.", classes="hint")
            yield self.error_line()
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_track()
        self.query_one("#cities", Input).focus()

    def _show_track(self) -> None:
        self.query_one("#space-label", Static).update(
            f"Track space {len(self.track) + 1} (in filling order):")
        shown = "  ".join(f"{i + 1}: threat {s['threat']}, ally {s['ally_cost']}"
                          + (f", {s['symbol']}" if "symbol" in s else "")
                          for i, s in enumerate(self.track))
        self.query_one("#track-so-far", Static).update(shown or "No space entered yet.")

    def action_entered(self) -> None:
        """Enter: the next field, or in the track's field the space typed. A priority binding
        runs as the app reads the key, ahead of the keys typed before it that the field has
        not taken yet: the next field gets the focus at once (so the keys typed behind the
        Enter go there), and the space is read once the field has taken the keys before it
        (and before any typed after it)."""
        field = self.field_entered("")
        if field.id == "space":
            field.call_later(self._add_space, field)
            return
        order = ["cities", "start", "roads",
                 *(["effects"] if self.board == "scandinavia" else []), "space"]
        following = order[order.index(field.id or "cities") + 1]
        self.set_focus(self.query_one(f"#{following}", Input))

    def _add_space(self, field: Input) -> None:
        try:
            space = parse_space(field.value, self.rio)
        except ValueError as err:
            self.say_error(f"✗ Track space {len(self.track) + 1}: {err}")
            return
        self.track.append(space)
        field.value = ""
        self.refused(None)
        self._show_track()

    def action_remove(self) -> None:
        if self.track:
            self.track.pop()
            self._show_track()

    def action_save(self) -> None:
        self.after_typing(self._save)

    def _save(self) -> None:
        base = load_catalog(None)
        mission = base.missions.get(self.mission)
        if mission is None:
            self.say_error(f"✗ No mission {self.mission!r} in the catalog.")
            return
        try:
            cities = parse_cities(self.query_one("#cities", Input).value)
        except ValueError as err:
            self.say_error(f"✗ Cities: {err}")
            return
        names = [c["name"] for c in cities]
        start = spelled(names, self.query_one("#start", Input).value)
        try:
            roads = parse_roads(self.query_one("#roads", Input).value, names, mission.board)
        except ValueError as err:
            self.say_error(f"✗ Roads: {err}")
            return
        if self.board == "scandinavia":
            try:
                parse_effects(self.query_one("#effects", Input).value, cities)
            except ValueError as err:
                self.say_error(f"✗ Effects: {err}")
                return
        if not self.track:
            self.say_error("✗ Enter the track, space by space, before keeping the board.")
            return
        text = board_toml(base, mission, cities, start, self.track, roads)
        folder = boards_dir(self.referee.session)
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / f"{_safe(self.mission)}.toml"
        trial = final.with_suffix(".toml.new")
        trial.write_text(text, encoding="utf-8")
        try:
            load_catalog(trial)  # the ruleset's reader: names the line and field if wrong
        except CatalogError as err:
            trial.unlink()
            self.say_error(f"✗ {err}")
            return
        os.replace(trial, final)
        self.dismiss(None)
