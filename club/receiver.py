"""`referee club`: the club process. Subscribes to every box of the club (QoS 1, a persistent
session: what the broker holds for the club while it is away comes when it is back), keeps
each entry once in the club's file (`club.store`), and asks a box to send again what is
missing (``box/<box>/resend``: after a broker lost what it had acknowledged, a gap in a
game's chain, or a table further on than the club's copy). Optionally serves the club's page
(`club.page`)."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club import topics
from club.settings import parse_url, read_secret
from club.store import ClubStore
from referee.chain import canonical

log = logging.getLogger(__name__)
RESEND_AGAIN = 5.0  # seconds before the same missing entry is asked for again


class Receiver:
    """The club's subscriber: messages in, the club's file out (on paho's thread)."""

    def __init__(self, store: ClubStore, *, club: str, url: str,
                 secret: tuple[str, str] | None = None,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.club = club
        self.broker = parse_url(url, what="--broker")
        self.on_change = on_change or (lambda box: None)
        self._asked: dict[tuple[str, str, int, int], float] = {}
        self.connected = threading.Event()
        self.received = 0
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tableside-club-{club}",
                        clean_session=False)
        if secret is not None:
            c.username_pw_set(*secret)
        if self.broker.tls:
            c.tls_set()
        c.reconnect_delay_set(1, 5)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            log.error("the broker %s refused the club: %s", self.broker.url, rc)
            return
        c.subscribe(topics.everything(self.club), qos=1)
        self.connected.set()
        log.info("subscribed to %s at %s", topics.everything(self.club), self.broker.url)

    def _on_disconnect(self, c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        log.warning("lost the broker %s (%s); reconnecting", self.broker.url, rc)

    def _on_message(self, c: Any, u: Any, msg: mqtt.MQTTMessage) -> None:
        where = topics.parse(msg.topic)
        if where is None or where[0] != self.club:
            return
        _, box, leaf = where
        try:
            payload = json.loads(msg.payload)
        except ValueError:
            payload = msg.payload.decode("utf-8", "replace")
        try:
            self.handle(box, leaf, payload)
        except Exception:
            log.exception("a message from box %s (%s) could not be kept", box, leaf)

    def handle(self, box: str, leaf: str, payload: Any) -> None:
        if leaf == "entries":
            self.received += 1
            got = self.store.receive(box, payload)
            if got.outcome == "refused":
                log.warning("refused from box %s: %s", box, got.reason)
            for game, seq in got.missing:
                self.ask(box, game, seq, got.file)
        elif leaf == "online" and isinstance(payload, dict):
            self.store.presence(box, bool(payload.get("online")), str(payload.get("at")))
        elif leaf == "table" and isinstance(payload, dict):
            self.store.table(box, payload)
            current, last = payload.get("game"), payload.get("commands")
            file = payload.get("file", "")
            if isinstance(current, int) and isinstance(last, int) and isinstance(file, str):
                head = self.store.head(box, current, file)
                if head < last:
                    self.ask(box, current, head + 1, file)
        else:
            return
        self.on_change(box)

    def ask(self, box: str, game: int, seq: int, file: str = "") -> None:
        """Ask `box` to send game `game` (its own number) of its file `file` again from entry
        `seq` (at most every few seconds for the same entry)."""
        key = (box, file, game, seq)
        t = time.monotonic()
        if t - self._asked.get(key, -RESEND_AGAIN) < RESEND_AGAIN:
            return
        self._asked[key] = t
        asked: dict[str, object] = {"game": game, "seq": seq}
        if file:
            asked["file"] = file  # (a box without file ids ignores it)
        self.client.publish(topics.box_topic(self.club, box, "resend"),
                            canonical(asked).encode(), qos=1)


def serve(args: argparse.Namespace) -> int:
    from club import need_mqtt

    need_mqtt()
    logging.basicConfig(level=logging.INFO, format="referee club: %(message)s")
    secret = read_secret(args.secret, what="--secret") if args.secret else None
    store = ClubStore(args.db)
    from club.page import Changes

    changes = Changes()
    receiver = Receiver(store, club=args.club, url=args.broker, secret=secret,
                        on_change=changes.bump)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    receiver.start()
    try:
        if args.web is not None:
            from club.page import serve_page

            serve_page(store.path, args.web, stop, changes)
        else:
            stop.wait()
    finally:
        receiver.stop()
        store.close()
    return 0
