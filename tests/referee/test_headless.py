"""`referee headless`: the protocol end to end, in a real subprocess."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.headless import serve
from referee.session import Session

GAMES = Path(__file__).parent / "games"
SEED = "a5" * 32


def run_headless(lines: list[str], *args: str) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "headless", *args], input="".join(lines),
        capture_output=True, text=True, timeout=60, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_three_player_game_is_played_to_a_win_from_the_script() -> None:
    script = (GAMES / "three_players.jsonl").read_text().splitlines(keepends=True)
    answers = run_headless(script, "--seed", SEED)
    assert len(answers) == len(script)  # exactly one answer per line
    for line, answer in zip(script, answers, strict=True):
        assert answer["ok"], (line, answer)
    final = answers[-1]["state"]
    assert final["over"] and final["winner"] == "Ann"
    ann = final["players"][0]
    assert ann["money"] == 1_300_000_000 and ann["status"] == "winner"
    assert final["seed"] == SEED
    assert final["commitment"] == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    # the commitment was there from new_game on, the seed only at the end
    assert answers[0]["state"]["commitment"] == final["commitment"]
    assert answers[0]["state"]["seed"] is None
    # the box's own draw and the free roll are electronic, the typed ones physical
    kinds = {(e["purpose"], e["source"]) for a in answers for e in a.get("events", [])
             if e["type"] == "roll"}
    assert ("draw", "electronic") in kinds and ("free", "electronic") in kinds
    assert ("move", "physical") in kinds


def test_every_malformed_line_gets_a_refusal_and_the_session_goes_on() -> None:
    bad = [
        "not json\n", "[1, 2]\n", "\n", '{"no_cmd": 1}\n', '{"cmd": "fly"}\n',
        '{"cmd": "new_game"}\n', '{"cmd": "new_game", "players": [{"name": "A"}], "x": 1}\n',
        '{"cmd": "roll", "die": "d7"}\n', '{"cmd": "move", "player": "A", "tile": "moon"}\n',
        '{"cmd": "roll", "die": "d6", "value": "six"}\n', '{"cmd": "state", "extra": true}\n',
        '{"cmd": "new_game", "players": [{"name": "A", "hat": 1}]}\n',
    ]
    good = '{"cmd": "new_game", "players": [{"name": "A"}]}\n'
    answers = run_headless([*bad, good])
    assert len(answers) == len(bad) + 1
    for line, answer in zip(bad, answers, strict=False):
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", line
        assert answer["error"]["message"]
    assert answers[-1]["ok"] and answers[-1]["state"]["players"][0]["name"] == "A"


def test_catalog_and_state_answers_have_the_protocol_shape() -> None:
    out = io.BytesIO()
    serve(Session(seed=bytes(32)), io.BytesIO(b'{"cmd": "catalog"}\n{"cmd": "state"}\n'), out)
    catalog, state = (json.loads(line) for line in out.getvalue().splitlines())
    spec = catalog["catalog"]["specialists"][0]
    assert set(spec) == {"name", "bonus", "copies"}
    _museum, pieces = next(iter(catalog["catalog"]["museums"].items()))
    assert set(pieces[0]) == {"name", "value", "deduction"}
    assert state["ok"] and state["state"]["players"] == [] and state["state"]["over"] is False
    for key in ("players", "current", "winner", "over", "commitment", "seed", "pending",
                "museums"):
        assert key in state["state"]


def test_a_bad_seed_or_catalog_is_refused_at_start(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "referee", "headless", "--seed", "abc"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--seed" in proc.stderr
    bad = tmp_path / "cat.toml"
    bad.write_text('[[specialists]]\nname = "X"\nbonus = -5\ncopies = 1\n')
    proc = subprocess.run([sys.executable, "-m", "referee", "headless", "--catalog", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "cat.toml" in proc.stderr


def test_a_settings_file_sets_the_house_rules_and_new_game_overrides_win(
        tmp_path: Path) -> None:
    settings = tmp_path / "table.toml"
    settings.write_text('[rules]\ntiebreak = "reroll"\nwin_money = 5\n')
    answers = run_headless(['{"cmd": "new_game", "players": ["A"]}\n',
                            '{"cmd": "new_game", "players": ["A"], "abandon": true, '
                            '"rules": {"win_money": 7}}\n'], "--rules", str(settings))
    first, second = (a["state"]["rules"] for a in answers)
    assert (first["tiebreak"], first["win_money"]) == ("reroll", 5)
    assert (second["tiebreak"], second["win_money"]) == ("reroll", 7)
    settings.write_text('[rules]\nwin_money = 0\n')
    proc = subprocess.run([sys.executable, "-m", "referee", "headless", "--rules",
                           str(settings)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "table.toml" in proc.stderr and "win_money" in proc.stderr


def test_front_ends_plug_in_their_subcommands_without_referee_importing_them() -> None:
    from referee.cli import commands

    found = commands()
    assert found["tray-sim"].passthrough is not None  # from device/, via an entry point
    proc = subprocess.run([sys.executable, "-m", "referee", "tray-sim", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "--link" in proc.stdout  # the simulator's own help


def test_front_ends_keep_games_on_disk_by_default_and_headless_in_memory(
        tmp_path: Path) -> None:
    import argparse
    import os

    from referee.app import add_session_args, session_from_args

    for durable, argv, on_disk in ((True, [], True), (True, ["--memory"], False),
                                   (False, [], False)):
        parser = argparse.ArgumentParser()
        add_session_args(parser, durable=durable)
        session = session_from_args(parser.parse_args(argv), notify=lambda _: None)
        try:
            assert (session.store is not None) is on_disk
        finally:
            session.close()
    assert Path(os.environ["REFEREE_DB"]).exists()  # the conftest's private file, not ~


def test_every_command_takes_the_same_storage_flags(tmp_path: Path) -> None:
    """headless takes --memory like the console and the box (issue 15); --db and --memory
    together are refused everywhere, before anything is opened."""
    import argparse

    from referee.app import add_session_args, session_from_args

    for durable in (True, False):
        parser = argparse.ArgumentParser()
        add_session_args(parser, durable=durable)
        session = session_from_args(parser.parse_args(["--memory"]), notify=lambda _: None)
        try:
            assert session.store is None
        finally:
            session.close()
        with pytest.raises(SystemExit):
            parser.parse_args(["--memory", "--db", str(tmp_path / "g.sqlite")])
    assert not (tmp_path / "g.sqlite").exists()
    ran = subprocess.run([sys.executable, "-m", "referee", "headless", "--memory"],
                         input='{"cmd": "state"}\n', capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and json.loads(ran.stdout)["ok"], ran.stderr


def test_only_the_chosen_subcommand_is_set_up_and_help_still_lists_them_all() -> None:
    # `referee console` must not import the box's modules to parse its own arguments (not
    # even the light module that names the box's subcommands: only `console`'s entry point
    # is looked up, `referee.cli.commands(name)`).
    probe = ("import contextlib, io, sys; from referee.cli import main\n"
             "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
             "    main(['console', '--help'])\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'device'))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    proc = subprocess.run([sys.executable, "-m", "referee", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0
    for name in ("headless", "console", "run", "box", "tray-sim", "verify", "export"):
        assert name in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "referee", "run", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "--hardware" in proc.stdout


def test_a_quick_start_command_sets_up_with_the_collector_paused_and_ends_with_it_on(
        monkeypatch: Any) -> None:
    import argparse
    import gc

    from referee import cli

    seen: list[bool] = []

    def setup(p: argparse.ArgumentParser) -> None:
        seen.append(gc.isenabled())
        p.add_argument("--fail", action="store_true")

    def run(args: argparse.Namespace) -> int:
        seen.append(gc.isenabled())
        if args.fail:
            raise RuntimeError("the command broke")
        return 0

    monkeypatch.setitem(cli.BUILTIN, "quick", cli.CliCommand("q", run, setup, quick_start=True))
    monkeypatch.setitem(cli.BUILTIN, "slow", cli.CliCommand("s", run, setup))
    assert cli.main(["quick"]) == 0 and gc.isenabled()
    assert cli.main(["slow"]) == 0 and gc.isenabled()
    with pytest.raises(RuntimeError):
        cli.main(["quick", "--fail"])
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        cli.main(["quick", "--no-such-option"])
    assert gc.isenabled()
    assert seen == [False, False, True, True, False, False, False]


# ---- input that cannot hurt the box (issue 11, section 4) ------------------------------------

_MEASURED = (
    "import resource, sys\n"
    "from referee.cli import main\n"
    "status = main(['headless'])\n"
    "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(f'peak_kib={peak}', file=sys.stderr)\n"
    "sys.exit(status)\n"
)


def _peak_kib(stdin: Any) -> tuple[list[dict[str, Any]], int]:
    """Run `referee headless` on ``stdin`` (a file); its answers and its peak RSS in KiB."""
    proc = subprocess.run([sys.executable, "-c", _MEASURED], stdin=stdin, capture_output=True,
                          timeout=120, check=True)
    peak = next(int(line.split("=")[1]) for line in proc.stderr.decode().splitlines()
                if line.startswith("peak_kib="))
    return [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()], peak


def test_a_64_mib_line_is_refused_without_being_held_and_the_next_line_is_answered(
        tmp_path: Path) -> None:
    from referee.headless import MAX_LINE

    size = 64 << 20
    idle = tmp_path / "idle.jsonl"
    idle.write_bytes(b'{"cmd": "state"}\n')
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as f:
        f.write(b'{"cmd": "new_game", "players": ["')
        chunk = b"A" * (1 << 20)
        for _ in range(size >> 20):
            f.write(chunk)
        f.write(b'"]}\n{"cmd": "new_game", "players": ["Ann"]}\n{"cmd": "state"}\n')
    with idle.open("rb") as stdin:
        _, baseline = _peak_kib(stdin)
    with huge.open("rb") as stdin:
        answers, peak = _peak_kib(stdin)
    assert len(answers) == 3
    assert answers[0]["ok"] is False and answers[0]["error"]["code"] == "bad_request"
    assert f"{MAX_LINE:,}" in answers[0]["error"]["message"]
    assert answers[1]["ok"] and answers[2]["state"]["players"][0]["name"] == "Ann"
    # bounded: the line's size is 64 MiB; what it may add is the 1 MiB line limit and change
    assert peak - baseline < 16 * 1024, (peak, baseline)


def test_the_line_limit_counts_bytes_and_line_ends() -> None:
    from referee.headless import MAX_LINE, Overlong, read_lines

    two_byte = "é".encode()
    data = (b"x" * MAX_LINE + b"\n" + b"x" * MAX_LINE + b"\r\n" + b"x" * (MAX_LINE + 1) + b"\n"
            + two_byte * (MAX_LINE // 2 + 1) + b"\nlast")
    got = list(read_lines(io.BytesIO(data)))
    assert [len(g) if isinstance(g, bytes) else g for g in got] == [
        MAX_LINE, MAX_LINE, Overlong(MAX_LINE + 1), Overlong(MAX_LINE + 2), 4]


LOCALES = {
    "C.UTF-8": {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    "C": {"LANG": "C", "LC_ALL": "C"},
    "POSIX": {"LANG": "POSIX", "LC_ALL": "POSIX"},
    # Raspberry Pi OS's en_GB.UTF-8 decodes stdin strictly; this machine has no such locale,
    # so the same error handler is asked for directly
    "strict UTF-8": {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"},
}


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_a_non_utf8_byte_is_refused_per_line_under_any_locale(locale: str) -> None:
    import os

    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LANGUAGE", "PYTHONIOENCODING", "PYTHONUTF8")
           and not k.startswith("LC_")}
    env.update(LOCALES[locale])
    lines = [b'{"cmd": "new_game", "players": ["Ann\xff", "Ben"]}', b"\xff\xfe{}",
             b'{"cmd": "new_game", "players": ["Zo\xc3\xab", "\xed\xa0\x80"]}',
             b'{"cmd": "new_game", "players": ["Zo\xc3\xab", "B\xc3\xa9a"]}',
             b'{"cmd": "state"}']
    proc = subprocess.run([sys.executable, "-m", "referee", "headless"],
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert len(answers) == len(lines), proc.stderr
    for answer in answers[:3]:
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", answer
        assert "UTF-8" in answer["error"]["message"]
    names = [p["name"] for p in answers[4]["state"]["players"]]
    assert answers[3]["ok"] and names == ["Zoë", "Béa"]
