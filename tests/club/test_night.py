"""A club night is a room of strangers' boxes (issue 40): each attack found against the club,
against a real mosquitto running the shipped config's settings (tests/club/broker.py).

1. another account taking the club's client id (kicking it off the broker);
2. a box provisioned under a name the club uses itself;
3. a forged entry of a game the box never had (a phantom game, the numbering moved);
4. floods of junk (oversized messages, a batch of 100,000 items, bad tables) growing the
   club's file and the page;
6. the club's own account shown as a table;
7. a misbehaving box locked out with one command, without a restart.
(5, the page starved by slow connections, is tests/club/test_page_flood.py.)"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from club import topics
from club.page import body
from club.receiver import Receiver
from club.records import main as records
from club.store import REFUSED_KEPT, ClubStore
from referee.chain import body_of, canonical, link
from tests.club.broker import CLUB, SHIPPED, Broker, wait_for
from tests.club.test_club import games_of, payloads, revealed_game, with_catalog


class Client:
    """A client with an account's credentials (any client id), which publishes whatever it
    is given and notes each time the broker drops it."""

    def __init__(self, broker: Broker, user: str, client_id: str = "",
                 password: str | None = None) -> None:
        self.answers: list[Any] = []
        self.dropped = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"raw-{user}",
                        reconnect_on_failure=False)
        c.username_pw_set(user, password or broker.passwords[user])
        c.on_connect = lambda cl, u, f, rc, p: self.answers.append(rc)
        c.on_disconnect = lambda *a: self.dropped.set()
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        self.topic = f"tableside/{CLUB}/box/{user}/"
        wait_for(lambda: self.answers, 10, "the broker's answer")

    @property
    def accepted(self) -> bool:
        return not self.answers[0].is_failure

    def send(self, leaf: str, payload: bytes | dict[str, Any] | list[Any]) -> None:
        data = payload if isinstance(payload, bytes) else canonical(payload).encode()
        self.client.publish(self.topic + leaf, data, qos=1,  # (retained: as a box's are)
                            retain=leaf in ("online", "table")).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def reading(tmp_path: Path) -> ClubStore:
    return ClubStore(tmp_path / "club.sqlite", readonly=True)


def seen_online(tmp_path: Path, box: str, at: str) -> bool:
    """Whether the club has `box`'s presence sent `at` (what a test sends last: QoS 1 from
    one client arrives in order, so everything sent before it has been kept)."""
    store = reading(tmp_path)
    try:
        return any(b["box"] == box and b["online_at"] == at for b in store.boxes())
    finally:
        store.close()


def presence(at: str) -> dict[str, Any]:
    return {"online": True, "at": at}


# ---- 1. one account, one identity ----------------------------------------------------------
def test_the_shipped_broker_binds_each_client_id_to_its_account() -> None:
    settings = dict(ln.split(None, 1) for ln in SHIPPED.read_text().splitlines()
                    if ln.strip() and not ln.startswith("#"))
    assert settings["use_username_as_clientid"] == "true"
    assert int(settings["message_size_limit"]) == topics.BROKER_MESSAGE_BYTES
    assert max(topics.MESSAGE_BYTES.values()) == topics.BROKER_MESSAGE_BYTES


@pytest.mark.parametrize("box", ["club", "club-reader", "Club", "tableside", "box-1"])
def test_the_clubs_client_id_is_never_a_boxs(box: str) -> None:
    for club in ("club", "box", "club-reader"):
        assert topics.club_client_id(club) != topics.box_client_id(club, box)
        assert topics.club_client_id(club) != topics.box_client_id(CLUB, box)


def test_no_account_takes_the_clubs_connection(broker: Broker, club: Receiver,
                                               tmp_path: Path) -> None:
    """Box 2 connects under the club's client id (the one it had before, and the one it has
    now): the club is not kicked off, and a box under box 1's id does not kick box 1."""
    first = club._connection
    holder = Client(broker, "box-1")
    attackers = [Client(broker, "box-2", client_id=cid)
                 for cid in ("tableside-club-club", topics.club_client_id(CLUB),
                             topics.box_client_id(CLUB, "box-1"), "raw-box-1")]
    try:
        assert all(a.accepted for a in attackers)
        holder.send("online", presence("t-1"))  # box 1, still connected, is still heard
        wait_for(lambda: seen_online(tmp_path, "box-1", "t-1"), 20, "box 1's presence")
        assert not holder.dropped.is_set()
        assert club.connected.is_set() and club._connection == first
    finally:
        for c in (holder, *attackers):
            c.close()


# ---- 2 and 6. the club's own names -----------------------------------------------------------
@pytest.mark.parametrize(("name", "club_name"), [
    ("club", "club"), ("club-reader", "club"), ("Club-Reader", "club"), ("CLUB", "club"),
    ("tableside", "club"), ("night", "night"), ("table_7", "club"), ("", "club"),
    ("a" * 33, "club"), ("table/7", "club"),
])
def test_provision_refuses_a_name_the_club_uses_or_no_box_id(
        name: str, club_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    assert records("provision", [name, "--db", db, "--club", club_name]) == 2
    err = capsys.readouterr().err
    assert f"referee club provision: {name!r}" in err
    assert "the club uses itself" in err or "is not a box id" in err
    store = ClubStore(db)
    try:
        assert store.boxes() == [] and store.kind(name) is None
    finally:
        store.close()


def test_the_clubs_own_account_is_never_a_box_nor_a_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    assert records("provision", ["club-reader", "--reader", "--db", db]) == 0
    assert records("provision", ["table-7", "--db", db]) == 0
    capsys.readouterr()
    assert records("provision", ["table-7", "--reader", "--db", db]) == 2  # a box's already
    assert "is a box's account" in capsys.readouterr().err
    assert records("provision", ["club-reader", "--db", db]) == 2
    store = ClubStore(db)
    try:
        assert [b["box"] for b in store.boxes()] == ["table-7"]
        assert (store.kind("club-reader"), store.kind("table-7")) == ("reader", "box")
        page = body(store)
        assert "data-box='table-7'" in page and "club-reader" not in page
    finally:
        store.close()


# ---- 3. phantom games ------------------------------------------------------------------------
def rehashed(entry: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """`entry` with `changes`, its hash made right for them (a forger's best)."""
    e = {**entry, **changes}
    e["hash"] = link(e["prev"], body_of(e["game"], e["seq"], e["at"], e["command"],
                                        e["events"]))
    return e


def test_a_forged_entry_of_a_game_the_box_never_had_makes_no_game(
        broker: Broker, club: Receiver, tmp_path: Path) -> None:
    """Box 2 sends entries of games it never had (its hashes right or not, a first entry that
    does not start a game); then its real game: that is its game 1, GOOD, and nothing else
    was made, numbered or asked for (the later entries with their hashes right are held,
    out of sight, in case their games' first entries come)."""
    db = revealed_game(broker, tmp_path, 12)
    real = payloads(db, "box-2")
    real[0] = with_catalog(real[0], tmp_path)
    forged = [rehashed(real[4], game=99),  # a later entry of an unknown game, hash right
              {**real[4], "game": 98},  # and with its hash wrong
              rehashed(real[1], game=97, seq=1),  # a "first" entry that starts no game
              rehashed(real[0], game=96, prev=real[0]["hash"])]  # not after the genesis
    box2 = Client(broker, "box-2")
    try:
        for e in forged:
            box2.send("entries", e)
        box2.send("batch", {"entries": [rehashed(real[5], game=95)]})
        for e in real:
            box2.send("entries", e)
        box2.send("online", presence("t-3"))
        wait_for(lambda: seen_online(tmp_path, "box-2", "t-3"), 30, "box 2's last message")
    finally:
        box2.close()
    (game,) = games_of(tmp_path, "box-2")
    assert (game.game, game.entries, game.check) == (1, len(real), "good"), game.problems
    store = reading(tmp_path)
    try:
        (count,) = store.refusals()
        reasons = [r["reason"] for r in store.refused()]
    finally:
        store.close()
    assert count["box"] == "box-2" and count["count"] == 3, reasons  # 98, 97 and 96
    assert not [k for k in club._owed if k[0] == "box-2"]


def test_a_lost_start_is_asked_for_not_refused(broker: Broker, club: Receiver,
                                               tmp_path: Path) -> None:
    """The broker may lose a game's first entries: the later ones of the box's next game are
    not kept nor held against the box, and the box is asked for the game from its start."""
    db = revealed_game(broker, tmp_path, 12)
    real = payloads(db, "box-2")
    box2 = Client(broker, "box-2")
    try:
        box2.send("entries", real[3])
        box2.send("online", presence("t-4"))
        wait_for(lambda: seen_online(tmp_path, "box-2", "t-4"), 30, "box 2's last message")
    finally:
        box2.close()
    assert games_of(tmp_path, "box-2") == []
    store = reading(tmp_path)
    try:
        assert store.refusals() == []
    finally:
        store.close()
    assert ("box-2", "", real[3]["game"], 1) in club._owed


# ---- 4. junk is counted, a few kept --------------------------------------------------------
def test_junk_is_counted_per_box_and_a_few_kept(broker: Broker, club: Receiver,
                                                tmp_path: Path) -> None:
    box2 = Client(broker, "box-2")
    big_table = {"game": 1, "ruleset": "x", "players": [f"p{i}" for i in range(5000)]}
    try:
        box2.send("entries", b"x" * (1024 * 1024))  # over the broker's limit: never arrives
        box2.send("batch", json.dumps({"entries": [{}] * 100_000}).encode())  # 400 KB: same
        box2.send("table", b"{" + b" " * (8 * 1024 * 1024) + b"}")  # 8 MiB: same
        box2.send("batch", {"entries": [{}] * 60_000})  # 240 KB: one refusal, not 60,000
        box2.send("online", b"[" + b"0," * 2000 + b"0]")  # over the presence's 1 KiB
        box2.send("table", big_table)  # the table's schema: at most 32 players
        for _ in range(200):
            box2.send("entries", {})
        box2.send("online", presence("t-5"))
        wait_for(lambda: seen_online(tmp_path, "box-2", "t-5"), 60, "box 2's last message")
    finally:
        box2.close()
    store = reading(tmp_path)
    try:
        (count,) = store.refusals()
        kept = store.refused()
        (box,) = [b for b in store.boxes() if b["box"] == "box-2"]
        page = body(store)
    finally:
        store.close()
    assert count["count"] == 3 + 200
    assert len(kept) == REFUSED_KEPT and all(len(r["payload"]) < 3000 for r in kept)
    assert box["refused"] == 203 and box["table"] is None
    assert "203 refused" in page
    assert (tmp_path / "club.sqlite").stat().st_size < 512 * 1024


def test_a_qos_0_flood_is_counted_not_queued(broker: Broker, club: Receiver,
                                            tmp_path: Path) -> None:
    """A box publishes at QoS 1: a flood at QoS 0 (no acknowledgement holds it back) is
    counted on the MQTT thread, never queued message by message for the store."""
    box2 = Client(broker, "box-2")
    try:
        for _ in range(500):
            box2.client.publish(box2.topic + "entries", b"{}" * 100, qos=0)
        box2.send("online", presence("t-8"))  # (QoS 1, after them from the same client)
        wait_for(lambda: seen_online(tmp_path, "box-2", "t-8"), 20, "box 2's presence")
    finally:
        box2.close()
    store = reading(tmp_path)
    try:
        (count,) = store.refusals()
        kept = store.refused()
    finally:
        store.close()
    assert count["count"] == 500
    assert len(kept) < 500 and all("QoS 0" in r["reason"] for r in kept)


def test_the_page_costs_the_same_however_much_was_refused(tmp_path: Path) -> None:
    sizes = []
    for n in (10, 5000):
        store = ClubStore(tmp_path / f"club-{n}.sqlite")
        try:
            with store.batch():
                for i in range(n):
                    store.refuse("box-2", {"junk": i % 10}, "an entry without its game")
            # (the page less its digits: the count, and the times its rows were refused at,
            # which may hold "10" too: the test failed so once in a whole run)
            sizes.append((len(store.refused()), len(re.sub(r"\d", "", body(store)))))
        finally:
            store.close()
    assert sizes[0] == sizes[1] == (REFUSED_KEPT, sizes[0][1])


@pytest.mark.parametrize("table", [
    [], "text", {"game": "1; DROP TABLE"}, {"players": "Ann"}, {"players": ["x" * 65]},
    {"name": "x" * 201}, {"next": "x" * 1001},
    {"verdict": {"title": "t", "terms": [["a", {"deep": 1}]]}},
    {"state": []}, {"commands": -1}, {"over": "yes"}, {"current": ["a"]}, {"game": True},
])
def test_a_table_outside_the_schema_is_refused(table: Any) -> None:
    from club.table import checked_table

    kept, why = checked_table(table)
    assert kept is None and why


def test_a_table_keeps_only_its_fields() -> None:
    from club.table import checked_table

    kept, _ = checked_table({"game": 1, "players": ["Ann"], "junk": "x" * 10_000})
    assert kept == {"game": 1, "players": ["Ann"]}


def test_an_honest_table_passes_the_schema(broker: Broker, club: Receiver,
                                           tmp_path: Path) -> None:
    revealed_game(broker, tmp_path, 12)
    store = reading(tmp_path)
    try:
        (box,) = store.boxes()
        assert store.refusals() == []
    finally:
        store.close()
    assert box["table"]["commands"] == 13 and box["table"]["players"] == ["Ann", "Ben", "Cy",
                                                                           "Di"]


# ---- 7. revoke -------------------------------------------------------------------------------
def test_revoke_locks_a_box_out_at_once(broker: Broker, club: Receiver, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    box2 = Client(broker, "box-2")
    box2.send("online", {"online": True, "at": "t-6"})
    box2.send("entries", {})  # misbehaving: named on the page
    wait_for(lambda: seen_online(tmp_path, "box-2", "t-6"), 20, "box 2's presence")
    assert broker.proc is not None
    try:
        done = records("revoke", ["box-2", "--db", db, "--passwd", str(broker.dir / "passwords"),
                                  "--acl", str(broker.dir / "acl"), "--pid", str(broker.proc.pid)])
        assert done == 0, capsys.readouterr().err
        wait_for(box2.dropped.is_set, 10, "box 2 dropped by the broker")
    finally:
        box2.close()
    again = Client(broker, "box-2")  # its password no longer opens the broker
    try:
        assert not again.accepted
    finally:
        again.close()
    assert "box-2" not in (broker.dir / "passwords").read_text()
    assert "box-2" not in (broker.dir / "acl").read_text()
    assert "box-1" in (broker.dir / "acl").read_text()
    box1 = Client(broker, "box-1")  # the others are untouched
    try:
        assert box1.accepted
        box1.send("online", presence("t-7"))
        wait_for(lambda: seen_online(tmp_path, "box-1", "t-7"), 20, "box 1's presence")
    finally:
        box1.close()
    store = reading(tmp_path)
    try:
        page = body(store)
    finally:
        store.close()
    assert "revoked <span class='bad'>1 refused</span>" in page
    assert records("revoke", ["club-reader", "--db", db]) == 2
    assert records("revoke", ["nobody", "--db", db, "--passwd", str(broker.dir / "passwords"),
                              "--acl", str(broker.dir / "acl"), "--pid", "1"]) == 2


def test_a_club_file_from_before_counts_and_trims_its_refusals(tmp_path: Path) -> None:
    """A club file from before issue 40 (every refusal a row, no counts, no account kinds):
    read as it is by the commands, then counted and trimmed when the club opens it."""
    import sqlite3

    path = tmp_path / "club.sqlite"
    ClubStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE refusals")
        conn.execute("CREATE TABLE b2 AS SELECT box, online, online_at, seen_at, table_json, "
                     "password_line, provisioned_at FROM boxes")
        conn.execute("DROP TABLE boxes")
        conn.execute("ALTER TABLE b2 RENAME TO boxes")
        conn.execute("INSERT INTO boxes (box, online) VALUES ('box-2', 1), ('club-reader', 0)")
        conn.executemany("INSERT INTO refused (box, at, reason, payload) VALUES (?, ?, ?, ?)",
                         [("box-2", f"t-{i:04d}", "junk", "{}") for i in range(300)])
    conn.close()
    old = ClubStore(path, readonly=True)
    try:
        assert [(r["box"], r["count"]) for r in old.refusals()] == [("box-2", 300)]
        assert [(b["box"], b["refused"]) for b in old.boxes()] == [("box-2", 300)]
    finally:
        old.close()
    store = ClubStore(path)
    try:
        assert [(r["box"], r["count"]) for r in store.refusals()] == [("box-2", 300)]
        assert [r["at"] for r in store.refused()] == [f"t-{i:04d}" for i in range(295, 300)]
        store.refuse("box-2", {}, "junk")
        assert store.refusals()[0]["count"] == 301 and len(store.refused()) == REFUSED_KEPT
    finally:
        store.close()
