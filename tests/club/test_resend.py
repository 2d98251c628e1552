"""The club asks a box again for entries it is missing, by the clock, until they join up:
a request published while the box is away is lost (the box's session is clean), and the
box's table when it comes back may come too soon after the lost request to ask again. With a
real mosquitto."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from club import receiver as receiving
from club.receiver import Receiver
from club.store import ClubStore
from tests.club.broker import CLUB, READER, Broker, Listener, wait_for
from tests.club.play import script
from tests.club.test_faults import box_rows, club_rows
from tests.club.test_publish import box_session, play


class AsBox:
    """A client with box-1's account: publishes what a box would, keeps the requests the
    club sends to box-1."""

    def __init__(self, broker: Broker) -> None:
        self.requests: list[dict[str, object]] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="as-box-1")
        c.username_pw_set("box-1", broker.passwords["box-1"])
        c.on_connect = lambda *a: c.subscribe(f"tableside/{CLUB}/box/box-1/resend", qos=1)
        c.on_subscribe = lambda *a: subscribed.set()

        def on_message(client: object, u: object, msg: mqtt.MQTTMessage) -> None:
            with self._lock:
                self.requests.append(json.loads(msg.payload))

        c.on_message = on_message
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        wait_for(subscribed.is_set, 10, "box-1's subscription")

    def got(self) -> list[dict[str, object]]:
        with self._lock:
            return list(self.requests)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def test_a_missing_entry_is_asked_for_again_by_the_clock_then_given_up(
        broker: Broker, club: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(receiving, "RESEND_AGAIN", 0.2)
    monkeypatch.setattr(receiving, "RESEND_RETRIES", 3)
    box = AsBox(broker)
    try:
        table = {"game": 1, "commands": 5, "file": "f1", "players": ["Ann"]}
        box.client.publish(f"tableside/{CLUB}/box/box-1/table", json.dumps(table), qos=1,
                           retain=True)
        wait_for(lambda: not club._owed and box.got(), 20,
                 "the club asking, then giving up", state=box.got)
        # (the club's own marker after its last request: the broker keeps one client's order)
        club.client.publish(f"tableside/{CLUB}/box/box-1/resend", b'{"marker":true}', qos=1)
        wait_for(lambda: {"marker": True} in box.got(), 10, "the marker")
        asked = box.got()[:-1]
    finally:
        box.close()
    # once when the table came, then three times again by the clock: the same entry each time
    assert asked == [{"game": 1, "seq": 1, "file": "f1"}] * 4


def test_a_request_lost_while_the_box_was_away_is_asked_again_when_it_is_back(
        broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "box.sqlite"
    # The box plays while no club listens: the broker takes every entry and drops it, and
    # keeps the box's table (retained; watched here on that topic alone).
    tables = Listener(broker, topic=f"tableside/{CLUB}/box/box-1/table")
    session = box_session(db, broker)
    try:
        play(session, script(30))
        want = box_rows(db)
        wait_for(lambda: (tables.last("box-1", "table") or {}).get("commands") == want[-1][1],
                 30, "the box's table retained", state=lambda: tables.last("box-1", "table"))
    finally:
        session.close()
        tables.client.loop_stop()
        tables.client.disconnect()
    store = ClubStore(tmp_path / "club.sqlite")
    receiver = Receiver(store, club=CLUB, url=broker.url,
                        secret=(READER, broker.passwords[READER]))
    receiver.start()
    try:
        # The club finds the box's retained table and asks for everything: the box is away.
        wait_for(lambda: receiver._asked, 20, "the club asking for the box's entries")
        # The box comes back at once (its table arrives within RESEND_AGAIN of the request
        # that was lost): the club asks again by the clock, and gets every entry.
        session = box_session(db, broker)
        try:
            wait_for(lambda: club_rows(tmp_path, "box-1") == want, 60,
                     "the club holding every entry of the box's file",
                     state=lambda: len(club_rows(tmp_path, "box-1")))
        finally:
            session.close()
        wait_for(lambda: not receiver._owed, 20, "nothing owed once it joined up")
    finally:
        receiver.stop()
        store.close()
    assert len(want) == 30
