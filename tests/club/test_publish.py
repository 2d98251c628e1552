"""A box with a club publishes every entry of its game, in order, with a real mosquitto."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from club.outbox import read_acks
from referee.app import session_from_args
from referee.cli import build_parser
from referee.db import Reader, connect
from referee.session import Session
from tests.club.broker import CLUB, Broker, Listener, wait_for
from tests.club.play import script

SEED = bytes(range(32)).hex()  # the scripted games' (scripts/bench.py)


def box_session(db: Path, broker: Broker | None, box: str = "box-1",
                said: list[str] | None = None, url: str | None = None) -> Session:
    argv = ["headless", "--db", str(db), "--seed", SEED]
    if broker is not None:
        argv += ["--club", url or broker.url, "--club-box", box, "--club-secret",
                 str(broker.secret(box))]
    args = build_parser(only="headless").parse_args(argv)
    return session_from_args(args, notify=(said.append if said is not None else print))


def file_entries(db: Path) -> list[dict[str, Any]]:
    """Every entry of every game in a box's file, as the club should receive them."""
    reader = Reader(connect(db, readonly=True), db)
    try:
        out = []
        for g in reader.games():
            for e in reader.entries(g.id):
                out.append({"game": e.game, "seq": e.seq, "at": e.at, "command": e.command,
                            "events": e.events, "prev": e.prev, "hash": e.hash})
        return out
    finally:
        reader.close()


def received(listener: Listener, box: str) -> list[dict[str, Any]]:
    keys = ("game", "seq", "at", "command", "events", "prev", "hash")
    return [{k: m[k] for k in keys} for m in listener.entries(box)]


def play(session: Session, requests: tuple[dict[str, Any], ...]) -> None:
    for req in requests:
        answer = session.handle(req)
        assert answer["ok"] or req["cmd"] == "undo", answer


def test_every_entry_is_published_in_order_with_its_hash(broker: Broker,
                                                         tmp_path: Path) -> None:
    listener = Listener(broker)
    db = tmp_path / "box.sqlite"
    said: list[str] = []
    session = box_session(db, broker, said=said)
    try:
        play(session, script(60))
        want = file_entries(db)
        wait_for(lambda: len(listener.entries("box-1")) >= len(want), 20, "every entry")
        assert received(listener, "box-1") == want
        first = listener.entries("box-1")[0]
        assert first["box"] == "box-1" and first["ruleset"] == "gallery-grippers"
        assert isinstance(first["catalog"], dict)
        wait_for(lambda: (listener.last("box-1", "table") or {}).get("commands")
                 == len(session.log), 10, "the table after the last command")
        table = listener.last("box-1", "table")
        assert table is not None and table["ruleset"] == "gallery-grippers"
        assert table["players"] == ["Ann", "Ben", "Cy", "Di"]
        assert table["state"]["current"] == session.ruleset.state_json(session.state)["current"]
        assert listener.last("box-1", "online") == {"online": True,
                                                    "at": listener.last("box-1", "online")["at"]}
    finally:
        session.close()
    wait_for(lambda: (listener.last("box-1", "online") or {}).get("online") is False, 10,
             "the box saying it left")
    assert any(s.startswith("Club online") for s in said), said
    marks = read_acks(db)
    assert marks == {(CLUB, "box-1", want[0]["game"]): len(want)}
    listener.close()


def test_a_broker_that_refuses_the_box_is_said_once(broker: Broker, tmp_path: Path) -> None:
    broker.passwords["box-1"] = "wrong"  # the box's secret file now holds a wrong password
    secret = broker.secret("box-1")
    broker.passwords["box-1"] = "pw-box-1"
    broker.restart()
    said: list[str] = []
    args = build_parser(only="headless").parse_args(
        ["headless", "--db", str(tmp_path / "b.sqlite"), "--club", broker.url, "--club-box",
         "box-1", "--club-secret", str(secret)])
    session = session_from_args(args, notify=said.append)
    try:
        wait_for(lambda: any(s.startswith("Club refused") for s in said), 10, "the refusal said")
        play(session, script(20))  # the table plays on
        assert len(session.log) == len(script(20))
    finally:
        session.close()
    assert sum(s.startswith("Club refused") for s in said) == 1, said


def test_club_without_a_game_file_is_one_clear_error(broker: Broker) -> None:
    from referee.errors import ConfigError

    args = build_parser(only="headless").parse_args(
        ["headless", "--memory", "--club", broker.url])
    with pytest.raises(ConfigError, match="--db FILE"):
        session_from_args(args)


@pytest.mark.parametrize("url", ["http://x:1", "mqtt://", "mqtt://u:p@host:1883"])
def test_a_bad_club_address_is_refused_before_anything_connects(url: str,
                                                                tmp_path: Path) -> None:
    from referee.errors import ConfigError

    args = build_parser(only="headless").parse_args(
        ["headless", "--db", str(tmp_path / "x.sqlite"), "--club", url])
    with pytest.raises(ConfigError, match="--club"):
        session_from_args(args)
    assert json  # (imported for the helpers above)


def test_without_the_club_extra_a_club_is_one_line_naming_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['paho'] = None; sys.modules['paho.mqtt'] = None; "
            "sys.modules['paho.mqtt.client'] = None; from referee.cli import main; "
            f"sys.exit(main(['headless', '--db', {str(tmp_path / 'b.sqlite')!r}, "
            "'--club', 'mqtt://127.0.0.1:1']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, input="")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "'club' extra" in line and "pip install" in line, line
    plain = subprocess.run([sys.executable, "-c", code.replace(
        ", '--club', 'mqtt://127.0.0.1:1'", "")], capture_output=True, text=True, timeout=60,
        input="")
    assert plain.returncode == 0, plain.stderr  # without --club nothing needs the extra


def test_a_box_that_stops_right_after_a_command_still_sends_it(broker: Broker,
                                                               tmp_path: Path) -> None:
    # (the stop came between the last command's wake-up and the publisher's next look at
    # the file: its last entries were left for the next start; each round is a new chance)
    listener = Listener(broker)
    db = tmp_path / "box.sqlite"
    steps = script(40)
    try:
        for end in range(10, len(steps) + 1, 10):
            session = box_session(db, broker)
            wait_for(lambda: (listener.last("box-1", "online") or {}).get("online") is True,
                     10, "the box online")
            play(session, steps[end - 10:end])
            session.close()  # at once: the entries not yet sent go out before it leaves
            want = file_entries(db)
            wait_for(lambda: len({(e["game"], e["seq"]) for e in received(listener, "box-1")})
                     == len(want), 10, f"every entry, in the round ending at {end}")  # noqa: B023
            listener.messages.clear()
            for m in want:
                listener.messages.append((f"tableside/{CLUB}/box/box-1/entries", m, False))
    finally:
        listener.close()


def test_a_burst_of_commands_sends_few_tables_and_the_last_one_is_the_table_now(
        broker: Broker, tmp_path: Path) -> None:
    """The table is a live view for people: at most one each TABLE_EVERY seconds (it was one
    per command, half of what the club had to take in), never a stale one at the end, and a
    verdict of a command whose table was never sent is still the table's last verdict."""
    import time

    from club.publisher import TABLE_EVERY
    from club.table import verdict_of

    listener = Listener(broker)
    session = box_session(tmp_path / "box.sqlite", broker)
    try:
        wait_for(lambda: listener.last("box-1", "online") is not None, 10, "the box online")
        began = time.monotonic()
        play(session, script(200))
        wait_for(lambda: (listener.last("box-1", "table") or {}).get("commands")
                 == len(session.log), 10, "the table after the last command")
        took = time.monotonic() - began
        tables = [m for t, m, _ in listener.messages if t.endswith("/box-1/table")]
        assert len(tables) <= 2 + took / TABLE_EVERY, (len(tables), took)
        assert len(tables) < len(session.log)
        last = tables[-1]
        assert last["state"] == json.loads(json.dumps(session.ruleset.state_json(
            session.state)))
        verdicts = [v for e in session.log
                    if (v := verdict_of(session.ruleset, list(e.events))) is not None]
        assert verdicts, "the script has obstacles: their verdicts"
        assert last["verdict"] == verdicts[-1]
    finally:
        session.close()
        listener.close()


def test_an_idle_box_after_many_tables_does_not_wake_its_publisher(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The broker's acknowledgements of tables and of the presence are not entries': taken
    for entries' they filled half the window after 50 tables, and from then on every wait of
    the publisher ended at once (a pass each PASS_EVERY, idle or not)."""
    import time

    import club.publisher as publisher

    monkeypatch.setattr(publisher, "TABLE_EVERY", 0.0)  # a table after every command
    passes: list[float] = []
    pace = publisher.Publisher._pace

    def counted(self: publisher.Publisher, passed: float) -> None:
        passes.append(time.monotonic())
        pace(self, passed)

    monkeypatch.setattr(publisher.Publisher, "_pace", counted)
    listener = Listener(broker)
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    try:
        wait_for(lambda: listener.last("box-1", "online") is not None, 10, "the box online")
        for req in script(60):
            play(session, (req,))
            wait_for(lambda: (listener.last("box-1", "table") or {}).get("commands")
                     == len(session.log), 10, "the table after this command")
        tables = [m for t, m, _ in listener.messages if t.endswith("/box-1/table")]
        assert len(tables) >= 55, len(tables)  # (more than half the window's worth)
        want = len(file_entries(db))
        wait_for(lambda: sum(read_acks(db).values()) == want, 10,
                 "every entry acknowledged and its mark written")
        since = time.monotonic()
        time.sleep(1.5)  # idle: nothing to send, nothing owed
        idle = [t for t in passes if t >= since]
        assert len(idle) <= 3, f"{len(idle)} passes in 1.5 s of an idle box"
    finally:
        session.close()
        listener.close()


def flood(listener: Listener, session: Session, db: Path, commands: int
          ) -> list[dict[str, Any]]:
    """`commands` commands as fast as the box answers, once it is online; the file's
    entries, once the listener has had as many."""
    wait_for(lambda: listener.last("box-1", "online") is not None, 10, "the box online")
    play(session, script(commands))
    want = file_entries(db)
    wait_for(lambda: len(listener.entries("box-1")) >= len(want), 20, "every entry")
    return want


def test_a_burst_goes_many_entries_to_a_message_and_a_lone_command_alone(
        broker: Broker, tmp_path: Path) -> None:
    """Entries that come faster than a pass go in ``batch`` messages (each entry as on
    ``entries``, in order, none twice); a table's command, the only one to send, goes
    alone on ``entries``."""
    from club.publisher import BATCH_MOST

    listener = Listener(broker)
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    where = f"tableside/{CLUB}/box/box-1/"
    try:
        want = flood(listener, session, db, 300)
        assert received(listener, "box-1") == want
        batches = [m for t, m, _ in listener.messages if t == where + "batch"]
        assert batches, "a burst of 300 commands sent no batch"
        assert all(2 <= len(b["entries"]) <= BATCH_MOST for b in batches)
        assert all(len({e["game"] for e in b["entries"]}) == 1 for b in batches)
        carried = sum(len(b["entries"]) for b in batches)
        assert carried > len(want) // 2, (carried, len(want))
        singles = len([1 for t, _, _ in listener.messages if t == where + "entries"])
        assert singles + len(batches) < len(want) // 2
        before = len(listener.messages)
        play(session, script(301)[300:])  # one more command, the box idle before it
        wait_for(lambda: len(listener.entries("box-1")) == len(want) + 1, 10, "the last one")
        (last,) = [(t, m) for t, m, _ in listener.messages[before:]
                   if t in (where + "entries", where + "batch")]
        assert last[0] == where + "entries" and last[1]["seq"] == len(want) + 1
    finally:
        session.close()
        listener.close()


def test_entries_sent_again_at_the_clubs_request_go_one_to_a_message(
        broker: Broker, tmp_path: Path) -> None:
    """A club that does not read ``batch`` (older than the box) asks for what it missed:
    what it asks for comes one entry to a message, so it gets every entry all the same."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.club.broker import READER

    listener = Listener(broker)
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    where = f"tableside/{CLUB}/box/box-1/"
    try:
        want = flood(listener, session, db, 150)
        table = listener.last("box-1", "table")
        assert table is not None
        listener.messages.clear()
        asker = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="old-club")
        asker.username_pw_set(READER, broker.passwords[READER])
        asker.connect("127.0.0.1", broker.port)
        asker.loop_start()
        try:
            asker.publish(where + "resend", json.dumps(
                {"game": want[0]["game"], "seq": 1, "file": table["file"]}), qos=1
            ).wait_for_publish(10)
        finally:
            asker.disconnect()
            asker.loop_stop()
        wait_for(lambda: len(listener.entries("box-1")) >= len(want), 20, "every entry again")
        assert received(listener, "box-1") == want
        assert not [t for t, _, _ in listener.messages if t == where + "batch"]
    finally:
        session.close()
        listener.close()
