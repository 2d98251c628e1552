"""`referee report GAME [--png FILE]`, and the page drawn from generated games (escaping, ids)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
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
IDS = {"live", "status", "dice", "table", "board", "verdict", "proof", "luck", "log",
       "house-rules"}


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


def test_the_png_draws_the_fair_line_dashed_the_chi_square_and_a_legend(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: `referee report --png` as the page: the fair line dashed, each chart's χ²
    written, a legend of the colours and of the line."""
    from PIL import ImageDraw

    from web import report
    from web.chart import EXPECTED_COLOUR, SOURCE_COLOUR

    blank = Image.new("RGB", (200, 20))
    report.dashed(ImageDraw.Draw(blank), 0, 200, 10)
    row = [blank.getpixel((x, 10)) != (0, 0, 0) for x in range(200)]
    assert any(row) and not all(row)  # dashes and gaps

    session = Session(seed=SEED)
    for request in STREAM:
        assert session.handle(request)["ok"]
    rep = report.luck(session.log, session.ruleset)
    written: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, words: str, *a: object,
             **k: object) -> None:
        written.append(words)
        real(self, xy, words, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    out = tmp_path / "luck.png"
    report.png(rep, "Luck", str(out))
    tallies = [t for t in rep.to_json()["tallies"] if t["rolls"]]
    for t in tallies:
        assert any(w.endswith(f"chi-square {t['chi_square']:.3g}") for w in written)
    assert "dashed line: a fair die's count" in written
    assert all(k in written for k in SOURCE_COLOUR)
    with Image.open(out) as img:
        band = {img.getpixel((x, y)) for x in range(img.width // 2, img.width)
                for y in range(10, 34)}
        rgb = {tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in SOURCE_COLOUR.values()}
        assert rgb <= band  # the legend's swatches
        assert tuple(int(EXPECTED_COLOUR[i:i + 2], 16) for i in (1, 3, 5)) in band
