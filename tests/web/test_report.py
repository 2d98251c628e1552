"""`referee report GAME [--png FILE]`, and the page drawn from generated games (escaping, ids)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from referee.app import open_session
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream, referee
from web import page
from web.view import Snapshots

STREAM = long_stream(200)
IDS = {"live", "status", "table", "verdict", "proof", "luck", "log"}


def test_report_for_a_game_and_for_the_file(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    session = open_session(db=db, seed=SEED)
    for request in STREAM:
        assert session.handle(request)["ok"]
    session.close()
    one = referee("report", "1", "--db", str(db), "--png", str(tmp_path / "luck.png"))
    assert one.returncode == 0, one.stderr
    assert "Luck in game 1 (Ann, Ben, Cy, Di)" in one.stdout
    assert re.search(r"Ann — d6, electronic: \d+ roll\(s\)", one.stdout)
    assert "d6, physical" in one.stdout  # physical and electronic apart
    assert "degrees of freedom" in one.stdout
    with Image.open(tmp_path / "luck.png") as img:
        assert img.format == "PNG" and img.size[0] > 600
    every = referee("report", "all", "--db", str(db))
    assert every.returncode == 0 and "Luck across 1 game(s)" in every.stdout


def test_report_says_what_is_wrong(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    session = open_session(db=db, seed=SEED)
    assert session.handle(STREAM[0])["ok"]
    session.close()
    bad = referee("report", "first", "--db", str(db))
    assert bad.returncode == 2 and "game id or `all`" in bad.stderr
    missing = referee("report", "7", "--db", str(db))
    assert missing.returncode != 0 and "no game 7" in missing.stderr
    nofile = referee("report", "1", "--db", str(tmp_path / "none.sqlite"))
    assert nofile.returncode != 0 and "no game file" in nofile.stderr


NAMES = st.text(st.sampled_from("<>&\"'Aé b/x{}"), min_size=1, max_size=12).filter(
    lambda s: s.strip() != "")


@settings(max_examples=30, deadline=None)
@given(st.lists(NAMES, min_size=2, max_size=4, unique_by=str.casefold))
def test_the_page_escapes_what_players_type_and_makes_no_id_of_it(names: list[str]) -> None:
    session = Session(seed=SEED)
    answer = session.handle({"cmd": "new_game", "players": names})
    if not answer["ok"]:
        return  # names the game refuses never reach the page
    html = page.document(Snapshots().snapshot(session), events="/g/t/events", version=1)
    for name in session.ruleset.state_json(session.state)["players"]:
        assert page.e(name["name"]) in html
    assert set(re.findall(r"\bid=['\"]([^'\"]*)['\"]", html)) <= IDS
    assert "<script>" in html and html.count("<script") == 1  # only the page's own
