"""`referee verify` and `referee export`, and the standalone snippet of docs/verify.md."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.app import open_session
from referee.audit import verify
from referee.chain import GENESIS, body_of, link
from referee.export import read_jsonl
from tests.referee.conftest import SEED
from tests.referee.storehelp import ROOT, Clock, long_stream, referee

Line = dict[str, Any]


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Game 1: 400 commands (undos, kept dice, box draws), then `reveal`. Game 2: unrevealed."""
    path = tmp_path_factory.mktemp("verify") / "g.sqlite"
    session = open_session(db=path, seed=SEED, clock=Clock())
    for request in long_stream(400):
        assert session.handle(request)["ok"]
    assert session.handle({"cmd": "reveal"})["ok"]
    assert session.handle({"cmd": "new_game", "players": ["Zoe"], "abandon": True})["ok"]
    session.close()
    return path


@pytest.fixture(scope="module")
def export(game_file: Path) -> list[Line]:
    out = referee("export", "1", "--db", str(game_file), "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def write(path: Path, lines: list[Line]) -> Path:
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                    encoding="utf-8")
    return path


def rechain(lines: list[Line]) -> list[Line]:
    """What a careful forger does after editing: recompute every hash and the header's head."""
    prev = GENESIS
    for x in lines[1:]:
        x["prev"] = prev
        x["hash"] = prev = link(prev, body_of(x["game"], x["seq"], x["at"], x["command"],
                                              x["events"]))
    lines[0]["head"] = prev
    return lines


def edit(export: list[Line], change: Callable[[Line], bool]) -> list[Line]:
    """A deep copy with the first event `change` accepts (and changes)."""
    lines = json.loads(json.dumps(export))
    for x in lines[1:]:
        for e in x["events"]:
            if change(e):
                return lines
    raise AssertionError("no event to change")


def electronic(kind: str, kept: bool = False) -> Callable[[Line], bool]:
    def pick(e: Line) -> bool:
        if e["type"] == "roll" and e["source"] == "electronic" and e["die"] == kind \
                and e["kept"] == kept:
            e["value"] = e["value"] % 6 + 1
            return True
        return False
    return pick


def other_card(e: Line) -> bool:
    """A box draw that names another card than the one the roll picked."""
    if e["type"] == "drawn" and e["source"] == "box":
        e["card"] = "Hacker" if e["card"] != "Hacker" else "Lookout"
        return True
    return False


# ---- referee verify -------------------------------------------------------------------

def test_an_honest_game_verifies(game_file: Path, export: list[Line]) -> None:
    out = referee("verify", "--db", str(game_file), "1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "integrity_check ok" in out.stdout and "VERDICT: GOOD" in out.stdout
    counts = re.search(r"(\d+) electronic roll\(s\) re-derived.*?(\d+) kept.*?(\d+) box draw",
                       out.stdout)
    assert counts and all(int(n) > 0 for n in counts.groups())  # all three kinds were checked
    v = verify(read_jsonl(write(game_file.parent / "ok.jsonl", export)))
    assert v.good and v.problems == []


def test_an_unrevealed_game_is_not_yet_checkable(game_file: Path) -> None:
    out = referee("verify", "--db", str(game_file), "2")
    assert out.returncode == 3 and "NOT YET CHECKABLE" in out.stdout
    every = referee("verify", "--db", str(game_file))
    assert every.returncode == 3 and every.stdout.count("VERDICT") == 2


def test_an_edited_roll_breaks_the_chain(export: list[Line], tmp_path: Path) -> None:
    lines = edit(export, electronic("d100"))
    out = referee("verify", str(write(tmp_path / "x.jsonl", lines)))
    assert out.returncode == 1 and "VERDICT: BAD" in out.stdout
    assert "content does not match its hash" in out.stdout
    assert "but the seed gives" in out.stdout


@pytest.mark.parametrize(("change", "finding"), [
    (electronic("d100"), "but the seed gives"),
    (electronic("d6"), "but the seed gives"),
    (electronic("d6", kept=True), "is marked kept but no earlier roll"),
    (other_card, "of the sorted"),
])
def test_a_rechained_forgery_is_caught_by_the_seed_or_the_replay(
        export: list[Line], tmp_path: Path, change: Callable[[Line], bool], finding: str) -> None:
    lines = rechain(edit(export, change))
    v = verify(read_jsonl(write(tmp_path / "x.jsonl", lines)))
    assert not v.good and any(finding in p for p in v.problems), v.problems
    assert not any("hash" in p for p in v.problems)  # the chain itself is consistent


def test_a_skipped_roll_is_caught(export: list[Line], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(export))
    rolls = [e for x in lines[1:] for e in x["events"]
             if e["type"] == "roll" and e["source"] == "electronic" and not e["kept"]]
    assert [e["index"] for e in rolls] == list(range(len(rolls)))
    later = rolls[5]  # a box that re-rolled until it liked the result would skip indexes
    later["index"] += 1
    v = verify(read_jsonl(write(tmp_path / "x.jsonl", rechain(lines))))
    assert any("rolls may not be skipped" in p for p in v.problems), v.problems


def test_a_kept_roll_reused_for_another_purpose_is_caught(export: list[Line],
                                                           tmp_path: Path) -> None:
    """A kept value serves only its own purpose: a forged log in which an undone roll comes
    back for something else (a free d100 as a bypass) is BAD, even with the chain redone."""
    lines = json.loads(json.dumps(export))
    kept = [e for x in lines[1:] for e in x["events"]
            if e["type"] == "roll" and e["source"] == "electronic" and e["kept"]]
    assert kept
    kept[0]["purpose"] = "free" if kept[0]["purpose"] != "free" else "bypass"
    v = verify(read_jsonl(write(tmp_path / "x.jsonl", rechain(lines))))
    assert any("marked kept but no earlier roll" in p for p in v.problems), v.problems


def test_a_truncated_export_is_caught(export: list[Line], tmp_path: Path) -> None:
    v = verify(read_jsonl(write(tmp_path / "x.jsonl", export[:-3])))
    assert any("entries lost or added" in p for p in v.problems)


def test_an_edit_inside_the_database_is_caught(game_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    conn = sqlite3.connect(game_file)
    conn.execute(f"VACUUM INTO '{path}'")
    conn.close()
    conn = sqlite3.connect(path)
    body = conn.execute("SELECT body FROM entries WHERE game = 1 AND seq = 50").fetchone()[0]
    conn.execute("UPDATE entries SET body = ? WHERE game = 1 AND seq = 50",
                 (body.replace('"Ann"', '"Eve"', 1),))
    conn.commit()
    conn.close()
    out = referee("verify", "--db", str(path), "1")
    assert out.returncode == 1 and "game 1 entry 50: content does not match its hash" in out.stdout


def test_verify_says_clearly_when_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "junk.jsonl").write_text("{not json\n")
    out = referee("verify", str(tmp_path / "junk.jsonl"))
    assert out.returncode == 1 and "junk.jsonl:1" in out.stderr
    out = referee("verify", "--db", str(tmp_path / "none.sqlite"))
    assert out.returncode == 2 and "no game file" in out.stderr


# ---- the facts beside the chain: the export's header and the games row -----------------------

@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted three-player game, played to its end (Ann wins), then a game in play."""
    path = tmp_path_factory.mktemp("finished") / "g.sqlite"
    session = open_session(db=path, seed=bytes.fromhex("a5" * 32), clock=Clock())
    script = ROOT / "tests" / "referee" / "games" / "three_players.jsonl"
    for line in script.read_text().splitlines():
        request = json.loads(line)
        if request["cmd"] not in ("state", "catalog"):
            assert session.handle(request)["ok"], request
    assert session.state.winner == "Ann"
    assert session.handle({"cmd": "new_game", "players": ["Zoe", "Yan"]})["ok"]
    session.close()
    return path


HEADER_EDITS: dict[str, tuple[Callable[[Line], None], str]] = {
    "players renamed": (lambda h: h.update(players=["Ann", "Eve", "Cy"]), "players"),
    "players reordered": (lambda h: h.update(players=h["players"][::-1]), "players"),
    "a player dropped": (lambda h: h.update(players=h["players"][:2]), "players"),
    "winner changed": (lambda h: h.update(winner="Ben"), "winner"),
    "nobody won": (lambda h: h.update(winner=None), "winner"),
    "not over": (lambda h: h.update(status="playing", winner=None, ended_at=None),
                 "ends it at entry"),
    "abandoned": (lambda h: h.update(status="abandoned"), "ends it at entry"),
    "start moved": (lambda h: h.update(started_at="2020-01-01T00:00:00.000+00:00"), "start"),
    "end moved": (lambda h: h.update(ended_at="2020-01-01T00:00:00.000+00:00"), "end"),
}


@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
def test_an_edited_export_header_is_bad(finished: Path, tmp_path: Path, edit: str) -> None:
    out = referee("export", "1", "--db", str(finished))
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert referee("verify", str(write(tmp_path / "ok.jsonl", lines))).returncode == 0
    change, finding = HEADER_EDITS[edit]
    change(lines[0])
    out = referee("verify", str(write(tmp_path / "x.jsonl", lines)))
    assert out.returncode == 1 and "VERDICT: BAD" in out.stdout, out.stdout
    assert finding in out.stdout


def test_an_export_of_several_games_verifies_each(finished: Path, export: list[Line],
                                                  tmp_path: Path) -> None:
    """`referee club export` writes many games in one file, each from its header line: every
    game gets its own verdict, and one forged game makes the whole file BAD while the honest
    one is still said to be GOOD."""
    out = referee("export", "1", "--db", str(finished))
    one = [json.loads(line) for line in out.stdout.splitlines()]
    both = referee("verify", str(write(tmp_path / "two.jsonl", one + export)))
    assert both.returncode == 0, both.stdout + both.stderr
    assert both.stdout.count("VERDICT: GOOD") == 2, both.stdout
    forged = one + edit(export, electronic("d100"))
    out = referee("verify", str(write(tmp_path / "forged.jsonl", forged)))
    assert out.returncode == 1
    assert out.stdout.count("VERDICT: GOOD") == 1 and out.stdout.count("VERDICT: BAD") == 1
    with pytest.raises(ValueError, match="holds 2 games"):
        read_jsonl(tmp_path / "two.jsonl")  # (one game was asked for)


ROW_EDITS = {
    "winner": ("UPDATE games SET winner = 'Cy' WHERE id = 1", "winner"),
    "status": ("UPDATE games SET status = 'abandoned' WHERE id = 1", "ends it at entry"),
    "players": ("UPDATE games SET players = '[\"Ann\",\"Ben\",\"Eve\"]' WHERE id = 1",
                "players"),
    "a game in play marked won": (
        "UPDATE games SET status = 'over', winner = 'Zoe' WHERE id = 2", "never ends it"),
}


@pytest.mark.parametrize("edit", sorted(ROW_EDITS))
def test_an_edited_games_row_is_bad(finished: Path, tmp_path: Path, edit: str) -> None:
    path = tmp_path / "g.sqlite"
    conn = sqlite3.connect(finished)
    conn.execute(f"VACUUM INTO '{path}'")
    conn.close()
    assert referee("verify", "--db", str(path), "1").returncode == 0
    sql, finding = ROW_EDITS[edit]
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()
    game = "2" if "Zoe" in sql else "1"
    out = referee("verify", "--db", str(path), game)
    assert out.returncode == 1 and "VERDICT: BAD" in out.stdout, out.stdout
    assert finding in out.stdout


# ---- the snippet ----------------------------------------------------------------------

def snippet() -> str:
    doc = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def run_snippet(tmp_path: Path, export_file: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check_rolls.py"
    script.write_text(snippet(), encoding="utf-8")
    return subprocess.run([sys.executable, "-I", str(script), str(export_file)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


def test_the_snippet_is_at_most_15_lines_of_plain_python() -> None:
    code = snippet()
    assert len(code.strip().splitlines()) <= 15
    imported = set(re.findall(r"^import (.*)$", code, flags=re.M)[0].replace(" ", "").split(","))
    assert imported <= set(sys.stdlib_module_names)
    assert not re.search(r"^from ", code, flags=re.M)


def test_the_snippet_passes_an_honest_export(export: list[Line], tmp_path: Path) -> None:
    out = run_snippet(tmp_path, write(tmp_path / "game.jsonl", export))
    assert out.returncode == 0, out.stdout + out.stderr
    total = sum(1 for x in export[1:] for e in x["events"]
                if e["type"] == "roll" and e["source"] == "electronic")
    assert out.stdout.strip() == (f"commitment OK; {total} of {total} electronic rolls "
                                  "follow from the seed")


def test_the_snippet_reports_a_tampered_roll(export: list[Line], tmp_path: Path) -> None:
    lines = edit(export, electronic("d100"))
    [changed] = [e for x, y in zip(lines[1:], export[1:], strict=True)
                 for e, f in zip(x["events"], y["events"], strict=True) if e != f]
    out = run_snippet(tmp_path, write(tmp_path / "game.jsonl", lines))
    assert out.returncode == 1
    assert f"BAD roll #{changed['index']} ({changed['player']}, bypass): d100 shows " \
           f"{changed['value']}, the seed gives" in out.stdout


def test_the_snippet_reports_a_seed_that_is_not_the_committed_one(
        export: list[Line], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(export))
    for x in lines[1:]:
        for e in x["events"]:
            if e["type"] == "game_started":
                e["commitment"] = "0" * 64
    out = run_snippet(tmp_path, write(tmp_path / "game.jsonl", lines))
    assert out.returncode == 1 and "commitment BAD" in out.stdout


# ---- export ---------------------------------------------------------------------------

def test_the_jsonl_export_holds_no_secret_before_the_reveal(game_file: Path) -> None:
    seed = SEED.hex()
    out = referee("export", "2", "--db", str(game_file))
    assert out.returncode == 0 and seed not in out.stdout
    header = json.loads(out.stdout.splitlines()[0])
    assert header["format"] == "tableside-referee/game-log" and header["status"] == "playing"


def test_the_csv_export_has_every_event_with_roll_provenance_and_undo_marks(
        game_file: Path, export: list[Line]) -> None:
    out = referee("export", "1", "--db", str(game_file), "--format", "csv")
    assert out.returncode == 0, out.stderr
    table = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(table) == sum(len(x["events"]) for x in export[1:])
    rolls = [r for r in table if r["type"] == "roll" and r["source"] == "electronic"]
    assert rolls and all(r["roll_index"] and r["sides"] and r["kept"] for r in rolls)
    assert any(r["kept"] == "true" for r in rolls)
    undone = {int(r["seq"]) for r in table if r["undone"] == "1"}
    assert undone == {x["seq"] for x in export[1:] if x["undone"]} and undone
    assert {int(r["undoes"]) for r in table if r["cmd"] == "undo"} == undone


def test_the_bgstats_export_is_a_play_with_money_scores(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    game = (ROOT / "tests" / "referee" / "games" / "three_players.jsonl").read_text()
    ran = referee("headless", "--db", str(db), "--seed", "a5" * 32, stdin=game)
    assert ran.returncode == 0
    out = referee("export", "1", "--db", str(db), "--format", "bgstats")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    [play] = data["plays"]
    names = {p["id"]: p["name"] for p in data["players"]}
    scores = {names[s["playerRefId"]]: s for s in play["playerScores"]}
    final = json.loads(ran.stdout.splitlines()[-1])["state"]
    assert {n: int(s["score"]) for n, s in scores.items()} == {
        p["name"]: p["money"] for p in final["players"]}
    assert [n for n, s in scores.items() if s["winner"]] == [final["winner"]]
    assert [n for n, s in scores.items() if s["startPlayer"]] == [final["first_player"]]
    assert scores[final["winner"]]["rank"] == 1
    assert play["rounds"] == final["round"] < final["turn_number"]  # rounds, not turns
    assert data["games"][0]["name"] == "Gallery Grippers" and play["gameRefId"] == 1
    assert "bggId" not in data["games"][0]  # not known here: left out, never 0
    assert play["ignored"] is False and play["durationMin"] >= 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert final["seed"] in play["comments"]


def test_the_gallerist_s_bgstats_export_has_its_bgg_id_and_places(tmp_path: Path) -> None:
    """The Gallerist's scripted game (Ben wins): its BoardGameGeek id, and places that
    follow the result."""
    db = tmp_path / "g.sqlite"
    game = (ROOT / "tests" / "referee" / "games" / "gallerist" / "game.jsonl").read_text()
    ran = referee("headless", "--db", str(db), "--seed", "a5" * 32, stdin=game)
    assert ran.returncode == 0, ran.stderr
    out = referee("export", "1", "--db", str(db), "--format", "bgstats")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"][0]["bggId"] == 125153
    names = {p["id"]: p["name"] for p in data["players"]}
    ranks = {names[s["playerRefId"]]: (s["winner"], s["rank"])
             for s in data["plays"][0]["playerScores"]}
    assert ranks == {"Ben": (True, 1), "Ann": (False, 2)}


def test_an_exported_place_follows_the_result() -> None:
    """A game whose places put a loser 1st (a tie lost on a tiebreaker) exports it 2nd."""
    from referee.export import rank
    from referee.ruleset import BgStatsScore

    def score(name: str, winner: bool, place: int) -> BgStatsScore:
        return BgStatsScore(name=name, score="61", winner=winner, start=False, rank=place,
                            role=None)

    tied = [score("Ann", False, 1), score("Ben", True, 1), score("Cy", False, 3)]
    assert [rank(s, tied) for s in tied] == [2, 1, 3]
    nobody = [score("Ann", False, 1), score("Ben", False, 1)]  # (a lost co-op game)
    assert [rank(s, nobody) for s in nobody] == [1, 1]


def test_export_of_a_missing_game_says_so(game_file: Path) -> None:
    out = referee("export", "9", "--db", str(game_file))
    assert out.returncode == 2 and "no game 9" in out.stderr


def test_the_readme_shows_the_same_tested_snippet() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert snippet() in blocks


def test_an_abandoned_game_reveals_its_seed_and_checks_good(tmp_path: Path) -> None:
    """A game abandoned reveals its seed like a finished one (issue 26): verify checks every
    roll of it (GOOD) in the file and in its export; a game still being played stays "not
    yet checkable"."""
    path = tmp_path / "g.sqlite"
    session = open_session(db=path, seed=bytes.fromhex("a5" * 32), clock=Clock())
    assert session.handle({"cmd": "new_game", "players": ["Zoe", "Yan"]})["ok"]
    assert session.handle({"cmd": "roll", "die": "d6"})["ok"]
    script = ROOT / "tests" / "referee" / "games" / "three_players.jsonl"
    for line in script.read_text().splitlines():
        request = json.loads(line)
        if request["cmd"] == "new_game":
            request["abandon"] = True
        if request["cmd"] not in ("state", "catalog"):
            assert session.handle(request)["ok"], request
    assert session.state.winner == "Ann"
    session.close()
    out = referee("verify", "--db", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "VERDICT: ABANDONED" not in out.stdout
    assert out.stdout.count("VERDICT: GOOD") == 2 and "NOT YET CHECKABLE" not in out.stdout
    exported = referee("export", "1", "--db", str(path), "--format", "jsonl")
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    alone = referee("verify", str(write(tmp_path / "abandoned.jsonl", lines)))
    assert alone.returncode == 0 and "VERDICT: GOOD" in alone.stdout, alone.stdout
    # a game still being played stays "not yet checkable" (exit 3): it can still be revealed
    session = open_session(db=path, seed=bytes.fromhex("a5" * 32), clock=Clock())
    assert session.handle({"cmd": "new_game", "players": ["Xia"]})["ok"]
    session.close()
    playing = referee("verify", "--db", str(path))
    assert playing.returncode == 3 and "NOT YET CHECKABLE" in playing.stdout
