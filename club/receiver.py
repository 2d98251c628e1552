"""`referee club`: the club process. Subscribes to every box of the club (QoS 1, a persistent
session: what the broker holds for the club while it is away comes when it is back), keeps
each entry once in the club's file (`club.store`), and asks a box to send again what is
missing (``box/<box>/resend``: after a broker lost what it had acknowledged, a gap in a
game's chain, or a table further on than the club's copy). Optionally serves the club's page
(`club.page`).

paho's thread only reads the messages and queues them; the club's store thread takes what has
queued (up to the broker's in-flight window) and keeps it in one transaction, and only once
that has committed acknowledges each message to the broker (PUBACK) and says the change: an
entry the broker counts as delivered is in the club's file."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club import topics
from club.settings import parse_url, read_secret
from club.store import ClubStore
from club.table import checked_presence, checked_table
from referee.chain import canonical

log = logging.getLogger(__name__)
RESEND_AGAIN = 5.0  # seconds before the same missing entry is asked for again
# times an entry still missing is asked for again by the clock alone (every RESEND_AGAIN: a
# minute), when nothing the box sends asks again: a request published while the box was away
# is lost (the box's session is clean), and the box's table at its reconnection may come
# within RESEND_AGAIN of the lost request
RESEND_RETRIES = 12
BATCH = 1000  # messages kept in one transaction at most (the broker's window: 1000)
WARN_EVERY = 60.0  # seconds between two log lines about one box's refused messages
QOS0 = "(qos 0)"  # the leaf of the store thread's note that QoS 0 messages came (no topic's)


@dataclass(frozen=True)
class Message:
    """One message as paho read it, waiting for the store thread."""

    box: str
    leaf: str
    payload: bytes | Any  # as it came (bytes: JSON, read in the store thread)
    mid: int = 0
    qos: int = 0
    connection: int = 0  # which connection brought it (its PUBACK goes back on that one)


@dataclass(frozen=True)
class Oversized:
    """A message over its leaf's limit (`topics.MESSAGE_BYTES`): its size, never its bytes
    (dropped on paho's thread, before anything parses it)."""

    size: int
    most: int


def _read(payload: bytes | Any) -> Any:
    if not isinstance(payload, bytes):
        return payload
    try:
        return json.loads(payload)
    except ValueError:
        return payload.decode("utf-8", "replace")


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
        # (box, file, game, seq) asked for and not yet joined up: how many times again
        self._owed: dict[tuple[str, str, int, int], int] = {}
        self._warned: dict[str, tuple[float, int]] = {}  # box: (last said, refused since)
        self._qos0: dict[str, int] = {}  # box: messages at QoS 0 not yet counted
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.received = 0
        self._queue: queue.SimpleQueue[Message | None] = queue.SimpleQueue()
        self._connection = 0
        self._failed = 0  # a connection whose batch could not be stored (all comes again)
        self._storing = threading.Thread(target=self._store_loop, name="club-store",
                                         daemon=True)
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=topics.club_client_id(club),
                        clean_session=False, manual_ack=True)
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
        self._storing.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        if self._storing.is_alive():  # what was queued is kept (not acknowledged: the
            self._queue.put(None)     # broker sends it again, and it is a duplicate then)
            self._storing.join()

    def _on_connect(self, c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            log.error("the broker %s refused the club: %s", self.broker.url, rc)
            return
        self._connection += 1
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
        if msg.qos == 0:  # (a box publishes at QoS 1: a QoS 0 flood is counted, not queued)
            with self._lock:
                first = box not in self._qos0
                self._qos0[box] = self._qos0.get(box, 0) + 1
            if first:  # (one message in the queue per box until the store thread counts them)
                self._queue.put(Message(box, QOS0, None))
            return
        size, most = len(msg.payload), topics.MESSAGE_BYTES.get(leaf, 0)
        # (a leaf the club does not read has no room: nothing of it is kept)
        payload = Oversized(size, most) if size > most else bytes(msg.payload)
        self._queue.put(Message(box, leaf, payload, msg.mid, msg.qos, self._connection))

    def _store_loop(self) -> None:
        """The store thread: each time, every message queued (at most `BATCH`) in one
        transaction."""
        while True:
            try:
                first = self._queue.get(timeout=RESEND_AGAIN if self._owed else None)
            except queue.Empty:
                self._ask_again()
                continue
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self.keep(batch)
                    return
                batch.append(item)
            self.keep(batch)
            if self._owed:
                self._ask_again()

    def _ask_again(self) -> None:
        """Ask again for each entry asked for whose request is due again and which has not
        joined its game's chain yet (on the store thread: it reads the club's file)."""
        t = time.monotonic()
        for key, left in list(self._owed.items()):
            if t - self._asked.get(key, -RESEND_AGAIN) < RESEND_AGAIN:
                continue
            box, file, game, seq = key
            try:
                joined = self.store.head(box, game, file) >= seq
            except Exception:
                log.exception("whether box %s's game %s is joined up could not be read", box,
                              game)
                joined = False
            if joined or left <= 0:
                del self._owed[key]
                continue
            self._owed[key] = left - 1
            self._publish_ask(key, t)

    def keep(self, batch: list[Message]) -> None:
        """Keep `batch` in one transaction; then acknowledge each message to the broker and
        say which boxes changed. If the commit fails, nothing of it is acknowledged and the
        connection is dropped; what else that connection brought is not kept either: the
        broker sends it all again, in order, on the next one (the club's session is
        persistent)."""
        batch = [m for m in batch if not (m.connection and m.connection == self._failed)]
        changed: list[str] = []
        newest = {m.box: i for i, m in enumerate(batch) if m.leaf == "table"}
        try:
            with self.store.batch():
                for i, m in enumerate(batch):
                    if m.leaf == "table" and newest[m.box] != i:
                        continue  # (the same box's newer table follows in this batch)
                    try:
                        with self.store.one():
                            if (self._keep(m.box, m.leaf, _read(m.payload))
                                    and m.box not in changed):
                                changed.append(m.box)
                    except Exception:
                        log.exception("a message from box %s (%s) could not be kept",
                                      m.box, m.leaf)
        except Exception:
            log.exception("%d messages could not be stored (none acknowledged: the broker "
                          "sends them again after a reconnection)", len(batch))
            self._failed = max(m.connection for m in batch)
            self._drop_connection()
            return
        for m in batch:
            if m.qos and m.connection == self._connection:
                self.client.ack(m.mid, m.qos)
        for box in changed:
            self.on_change(box)

    def _drop_connection(self) -> None:
        sock = self.client.socket()
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):  # (paho sees the loss and reconnects)
                sock.shutdown(socket.SHUT_RDWR)

    def handle(self, box: str, leaf: str, payload: Any) -> None:
        """One message, kept at once (its own transaction)."""
        self.keep([Message(box, leaf, payload)])

    def _keep(self, box: str, leaf: str, payload: Any) -> bool:
        """One message into the club's file (inside the batch's transaction); whether it
        changed what the page shows. Each message is checked before it is kept (issue 40):
        its size (before it was parsed), a batch's length, a table's and a presence's
        fields; what fails is counted against the box (`ClubStore.refuse`)."""
        if leaf == QOS0:
            with self._lock:
                n = self._qos0.pop(box, 0)
            self.store.refuse(box, f"({n} message{'' if n == 1 else 's'}, not read)",
                              "a message at QoS 0 (a box publishes at QoS 1)", times=n)
            self._warn(box, f"{n} message{'' if n == 1 else 's'} at QoS 0")
            return True
        if leaf not in ("entries", "batch", "online", "table"):
            return False  # (resend: the club's own requests; nothing else is the club's)
        if isinstance(payload, Oversized):
            return self._refuse(box, f"({payload.size} bytes, not read)",
                                f"a {leaf} message of {payload.size} bytes (the club reads "
                                f"at most {payload.most})")
        if leaf == "entries":
            self._entry(box, payload)
        elif leaf == "batch":  # (entries one after another: each kept, or refused, alone)
            items = payload.get("entries") if isinstance(payload, dict) else None
            if not isinstance(items, list):
                return self._refuse(box, payload, 'a batch that is not {"entries": [...]}')
            if len(items) > topics.BATCH_MOST:
                return self._refuse(box, f"({len(items)} entries, not read)",
                                    f"a batch of {len(items)} entries (at most "
                                    f"{topics.BATCH_MOST})")
            for item in items:
                try:
                    with self.store.one():
                        self._entry(box, item)
                except Exception:
                    log.exception("an entry of a batch from box %s could not be kept", box)
        elif leaf == "online":
            presence, why = checked_presence(payload)
            if presence is None:
                return self._refuse(box, payload, why)
            self.store.presence(box, presence["online"], presence["at"])
        else:
            table, why = checked_table(payload)
            if table is None:
                return self._refuse(box, payload, why)
            self.store.table(box, table)
            current, last = table.get("game"), table.get("commands")
            file = table.get("file") or ""
            if isinstance(current, int) and isinstance(last, int):
                head = self.store.head(box, current, file)
                if head < last:
                    self.ask(box, current, head + 1, file)
        return True

    def _refuse(self, box: str, payload: Any, reason: str) -> bool:
        self.store.refuse(box, payload, reason)
        self._warn(box, reason)
        return True

    def _warn(self, box: str, reason: str) -> None:
        """Say a refusal in the log: the first of each box, then at most once a minute per
        box with how many came since (a flood of junk is not a line each)."""
        t = time.monotonic()
        said, since = self._warned.get(box, (-WARN_EVERY, 0))
        if t - said < WARN_EVERY:
            self._warned[box] = (said, since + 1)
            return
        more = f" (and {since} more refused since)" if since else ""
        log.warning("refused from box %s: %s%s", box, reason, more)
        self._warned[box] = (t, 0)

    def _entry(self, box: str, payload: Any) -> None:
        self.received += 1
        got = self.store.receive(box, payload)
        if got.outcome == "refused":
            self._warn(box, got.reason)
        for game, seq in got.missing:
            self.ask(box, game, seq, got.file)

    def ask(self, box: str, game: int, seq: int, file: str = "") -> None:
        """Ask `box` to send game `game` (its own number) of its file `file` again from entry
        `seq` (at most every few seconds for the same entry)."""
        key = (box, file, game, seq)
        self._owed[key] = RESEND_RETRIES  # (asked again by the clock until it is joined up)
        t = time.monotonic()
        if t - self._asked.get(key, -RESEND_AGAIN) < RESEND_AGAIN:
            return
        self._publish_ask(key, t)

    def _publish_ask(self, key: tuple[str, str, int, int], t: float) -> None:
        box, file, game, seq = key
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
