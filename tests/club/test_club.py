"""The club with a real mosquitto: a game checked GOOD once its seed is out; forged entries
refused and shown as tampering, naming the box; the broker's ACL keeping a box in its own
topics; the club's commands on what it holds."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.receiver import Receiver
from club.store import ClubStore
from referee.chain import GENESIS, body_of, canonical, link
from tests.club.broker import CLUB, Broker, wait_for
from tests.club.play import script
from tests.club.test_faults import box_rows
from tests.club.test_publish import box_session, file_entries, play


def games_of(tmp_path: Path, box: str) -> list[Any]:
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        return [g for g in reader.games() if g.box == box]
    finally:
        reader.close()


def refused(tmp_path: Path) -> list[dict[str, Any]]:
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        return reader.refused()
    finally:
        reader.close()


class RawBox:
    """A client with a box's credentials that publishes whatever it is given (a forger)."""

    def __init__(self, broker: Broker, box: str) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{box}")
        self.client.username_pw_set(box, broker.passwords[box])
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        self.box = box

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        self.client.publish(topic, canonical(payload).encode(), qos=1).wait_for_publish(10)

    def entries(self, payloads: list[dict[str, Any]], box: str | None = None) -> None:
        for p in payloads:
            self.publish(f"tableside/{CLUB}/box/{box or self.box}/entries", p)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def revealed_game(broker: Broker, tmp_path: Path, commands: int = 40) -> Path:
    """Box 1 plays `commands` commands and reveals the seed; returns its file."""
    db = tmp_path / "box.sqlite"
    session = box_session(db, broker)
    try:
        play(session, script(commands))
        assert session.handle({"cmd": "reveal"})["ok"]
        wait_for(lambda: [g.entries for g in games_of(tmp_path, "box-1")]
                 == [commands + 1], 30, "the club holding the game")
    finally:
        session.close()
    return db


def payloads(db: Path, box: str) -> list[dict[str, Any]]:
    """The box's file as entry payloads (what its publisher sends), for a forger to edit."""
    out = []
    for e in file_entries(db):
        out.append({**e, "undone": False, "box": box, "ruleset": "gallery-grippers"})
    return out


def with_catalog(first: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        log = reader.game_log("box-1", first["game"])
    finally:
        reader.close()
    return {**first, "catalog": log.catalog, "ruleset_version": log.ruleset_version}


def wrong_hash_at_5(broker: Broker, tmp_path: Path) -> list[dict[str, Any]]:
    """Box 1's game (20 commands, revealed) as box 2 would send it, its fifth entry's
    content changed and its hash not (refused: does not match)."""
    db = revealed_game(broker, tmp_path, 20)
    forged = payloads(db, "box-2")
    forged[0] = with_catalog(forged[0], tmp_path)
    forged[4] = copy.deepcopy(forged[4])
    forged[4]["command"]["player"] = "Zed"
    return forged


def test_a_game_is_checked_good_once_its_seed_is_revealed(broker: Broker, club: Receiver,
                                                          tmp_path: Path) -> None:
    revealed_game(broker, tmp_path)
    (game,) = games_of(tmp_path, "box-1")
    assert game.check == "good", game.problems
    assert game.players == ["Ann", "Ben", "Cy", "Di"]
    assert refused(tmp_path) == []


def test_an_entry_with_a_wrong_hash_is_refused_and_shown_as_tampering(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    forged = wrong_hash_at_5(broker, tmp_path)
    forger = RawBox(broker, "box-2")
    try:
        forger.entries(forged[:6])
    finally:
        forger.close()
    wait_for(lambda: refused(tmp_path), 20, "the refusal")
    (why,) = refused(tmp_path)
    assert why["box"] == "box-2" and why["seq"] == 5
    assert "does not match its hash" in why["reason"]
    (game,) = games_of(tmp_path, "box-2")
    assert game.check == "tampered"
    assert any("box box-2" in p for p in game.problems)
    assert games_of(tmp_path, "box-1")[0].check == "good"  # the honest box is untouched


def test_a_forged_entry_inside_a_batch_is_refused_alone(broker: Broker, club: Receiver,
                                                       tmp_path: Path) -> None:
    """A ``batch`` is its entries one after another: the forged one is refused and shown,
    the ones before it are kept, and a batch that holds no list of entries is refused as
    such (nothing of it kept, the box named)."""
    forged = wrong_hash_at_5(broker, tmp_path)
    forger = RawBox(broker, "box-2")
    try:
        forger.publish(f"tableside/{CLUB}/box/box-2/batch", {"entries": forged[:8]})
        forger.publish(f"tableside/{CLUB}/box/box-2/batch", {"entries": "not a list"})
    finally:
        forger.close()
    wait_for(lambda: len(refused(tmp_path)) >= 2, 20, "the refusals")
    first, second = refused(tmp_path)
    assert first["box"] == "box-2" and first["seq"] == 5
    assert "does not match its hash" in first["reason"]
    assert second["box"] == "box-2" and "batch" in second["reason"]
    (game,) = games_of(tmp_path, "box-2")
    assert game.check == "tampered"
    assert game.entries == 4  # (entries 1-4; 6-8 do not join a chain broken at 5)
    assert games_of(tmp_path, "box-1")[0].check == "good"


def test_a_rewritten_roll_with_a_rebuilt_chain_is_caught_by_the_dice_check(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    db = revealed_game(broker, tmp_path, 40)
    forged = payloads(db, "box-2")
    forged[0] = with_catalog(forged[0], tmp_path)
    roll = next(ev for ev in forged[10]["events"] if ev["type"] == "roll")
    assert roll["source"] == "electronic" and roll["sides"] == 100
    honest = roll["value"]
    roll["value"] = honest % 100 + 1  # a better roll, and every hash after it made again
    prev = GENESIS
    for p in forged:
        p["prev"] = prev
        p["hash"] = prev = link(prev, body_of(p["game"], p["seq"], p["at"], p["command"],
                                              p["events"]))
    forger = RawBox(broker, "box-2")
    try:
        forger.entries(forged)
    finally:
        forger.close()
    wait_for(lambda: [g.check for g in games_of(tmp_path, "box-2")] == ["tampered"], 30,
             "the forged game marked tampered")
    (game,) = games_of(tmp_path, "box-2")
    assert any(f"shows {honest % 100 + 1}, but the seed gives {honest}" in p
               for p in game.problems), game.problems
    assert all(p.startswith("box box-2") for p in game.problems)


def test_the_broker_keeps_a_box_out_of_another_boxs_topics(broker: Broker, club: Receiver,
                                                          tmp_path: Path) -> None:
    db = revealed_game(broker, tmp_path, 10)
    want = box_rows(db)
    intruder = RawBox(broker, "box-2")
    try:
        fake = payloads(db, "box-1")[0]
        intruder.entries([{**fake, "game": 99}], box="box-1")  # under box-1's topic: denied
        intruder.publish(f"tableside/{CLUB}/box/box-2/online",
                         {"online": True, "at": "2026-01-01T00:00:00+00:00"})  # its own: fine
    finally:
        intruder.close()
    reader = ClubStore(tmp_path / "club.sqlite", readonly=True)
    try:
        wait_for(lambda: any(b["box"] == "box-2" and b["online"] for b in reader.boxes()),
                 20, "box-2's own message")
        rows = list(reader.rows("box-1"))
    finally:
        reader.close()
    # (QoS 1 from one client arrives in order: the denied one would have come first)
    assert [tuple(r) for r in rows] == want
    assert refused(tmp_path) == []


def referee_club(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", "club", *argv], text=True,
                          capture_output=True, timeout=120)


def test_the_clubs_commands_read_what_it_holds(broker: Broker, club: Receiver,
                                               tmp_path: Path) -> None:
    from referee.audit import verify
    from referee.export import read_jsonl

    revealed_game(broker, tmp_path, 30)
    path = str(tmp_path / "club.sqlite")
    games = referee_club("games", "--db", path)
    assert games.returncode == 0, games.stderr
    assert "box-1 game 1  gallery-grippers  Ann, Ben, Cy, Di  playing" in games.stdout
    assert "GOOD" in games.stdout
    out = tmp_path / "club.jsonl"
    done = referee_club("export", "--db", path, "--format", "jsonl", "--out", str(out))
    assert done.returncode == 0, done.stderr
    header = json.loads(out.read_text().splitlines()[0])
    assert header["box"] == "box-1" and header["check"] == "good"
    assert verify(read_jsonl(out)).good  # the core's verify reads the club's export
    csv = referee_club("export", "--db", path, "--format", "csv")
    assert csv.stdout.splitlines()[1].startswith("box-1,1,gallery-grippers,")
    standings = referee_club("standings", "--db", path)
    assert standings.returncode == 0 and "no finished, checked games yet" in standings.stdout
    missing = referee_club("games", "--db", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 2 and "no club file" in missing.stderr


def test_provision_prints_credentials_the_broker_accepts(broker: Broker,
                                                         tmp_path: Path) -> None:
    done = referee_club("provision", "box-9", "--db", str(tmp_path / "club.sqlite"))
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stdout.splitlines() if not ln.startswith("#")]
    secret, pwline, *acl = lines
    user, password = secret.split(":", 1)
    assert user == "box-9" and pwline.startswith("box-9:$7$101$")
    assert acl == ["user box-9", "topic write tableside/club/box/box-9/#",
                   "topic read tableside/club/box/box-9/resend"]
    assert password not in (tmp_path / "club.sqlite").read_bytes().decode("latin-1")
    # the broker takes the printed lines as they are: the box connects with the password
    broker.kill()
    broker.write_config()
    with (broker.dir / "passwords").open("a") as f:
        f.write(pwline + "\n")
    with (broker.dir / "acl").open("a") as f:
        f.write("\n".join(acl) + "\n")
    broker.start(write=False)
    answers: list[Any] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="box-9-check")
    c.username_pw_set("box-9", password)
    c.on_connect = lambda cl, u, f, rc, p: answers.append(rc)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    try:
        wait_for(lambda: answers, 10, "the broker's answer")
    finally:
        c.disconnect()
        c.loop_stop()
    assert not answers[0].is_failure, answers
