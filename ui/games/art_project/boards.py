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
from referee.games.art_project.catalog import ArtCatalog, Mission, load_catalog
from ui import format as fmt
from ui.base import Dialog, KeyBar


def boards_dir() -> Path:
    """Where entered boards are kept: $REFEREE_BOARDS, else beside the game file."""
    if os.environ.get("REFEREE_BOARDS"):
        return Path(os.environ["REFEREE_BOARDS"]).expanduser()
    from referee.app import default_db_path

    return default_db_path().parent / "boards"


def _safe(mission: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in mission) or "board"


def board_file(mission: str) -> Path | None:
    """The kept board file of `mission`, if the table entered one."""
    path = boards_dir() / f"{_safe(mission)}.toml"
    return path if path.is_file() else None


def catalog_with_boards() -> ArtCatalog:
    """The built-in catalog, with each mission the table entered taken from its file."""
    base = load_catalog(None)
    missions: dict[str, Mission] = dict(base.missions)
    for mission_id in list(missions):
        path = board_file(mission_id)
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


def board_toml(base: ArtCatalog, mission: Mission, cities: list[dict[str, str]], start: str,
               track: list[dict[str, Any]]) -> str:
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
    lines.append("track = [")
    lines += [f"    {table(s)}," for s in track]
    lines.append("]")
    return "\n".join(lines) + "\n"


class BoardEntryScreen(Dialog[None]):
    """The printed board: cities and start, then the track space by space; Ctrl+S keeps it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *Dialog.BINDINGS,
        Binding("ctrl+s", "save", "Keep the board", priority=True),
        Binding("ctrl+r", "remove", "Remove last space"),
    ]

    def __init__(self, mission: str) -> None:
        super().__init__()
        self.mission = mission
        self.track: list[dict[str, Any]] = []

    @property
    def rio(self) -> bool:
        m = load_catalog(None).missions.get(self.mission)
        return m is not None and m.board == "rio"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="board-entry"):
            yield Static(f"[b]Enter the board of {fmt.escape(self.mission)}[/b] "
                         "from the printed board", classes="dialog-title")
            yield Static("Cities (Name=symbol, ...; Egypt adds @north or @south):",
                         classes="form-label")
            yield Input(placeholder="Tokyo, Kyoto=painting, Osaka=film", id="cities",
                        compact=True)
            yield Static("Start city (the flag):", classes="form-label")
            yield Input(placeholder="Tokyo", id="start", compact=True)
            yield Static("", id="space-label", classes="form-label")
            yield Input(placeholder="threat", id="threat", restrict=r"[0-9]*", compact=True)
            yield Input(placeholder="ally cost (radio)", id="ally-cost", restrict=r"[0-9]*",
                        compact=True)
            if self.rio:
                yield Input(placeholder="district symbol", id="space-symbol", compact=True)
            yield Static("", id="track-so-far", markup=False)
            yield Static("Enter after the ally cost adds the space. Ctrl+S keeps the board.",
                         classes="hint")
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

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        order = ["cities", "start", "threat", "ally-cost", "space-symbol"]
        wid = event.input.id or ""
        last = "space-symbol" if self.rio else "ally-cost"
        if wid == last:
            self._add_space()
            return
        following = order[order.index(wid) + 1]
        self.set_focus(self.query_one(f"#{following}", Input))

    def _add_space(self) -> None:
        threat = self.query_one("#threat", Input).value.strip()
        cost = self.query_one("#ally-cost", Input).value.strip()
        if not threat.isdigit() or not cost.isdigit():
            self.say_error("✗ A space needs its threat and its ally cost, as printed.")
            return
        space: dict[str, Any] = {"threat": int(threat), "ally_cost": int(cost)}
        if self.rio:
            symbol = self.query_one("#space-symbol", Input).value.strip()
            if symbol:
                space["symbol"] = symbol
            self.query_one("#space-symbol", Input).value = ""
        self.track.append(space)
        self.query_one("#threat", Input).value = ""
        self.query_one("#ally-cost", Input).value = ""
        self.refused(None)
        self._show_track()
        self.set_focus(self.query_one("#threat", Input))

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
        start = self.query_one("#start", Input).value.strip()
        if not self.track:
            self.say_error("✗ Enter the track, space by space, before keeping the board.")
            return
        text = board_toml(base, mission, cities, start, self.track)
        folder = boards_dir()
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
