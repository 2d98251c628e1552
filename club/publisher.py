"""A box publishing its games to the club's broker (paho-mqtt; docs/club.md).

Everything happens on one thread of its own, the MQTT connection's traffic too (paho's
external-loop API: its `socket()` in this thread's own `select`, no network thread of paho's):
the session's subscriber only notes the newest state and wakes it (one byte on a socket pair,
written only when it is not already awake), so no command, key or button ever waits on the
network. The entries to send are read from the game file (the outbox, `club.outbox`), in
order, at most `WINDOW` unacknowledged at a time, each alone or, when several of one game are
to send at once, many to a message (``batch``); each broker acknowledgement (PUBACK, QoS 1)
moves the game's ack mark on, and the marks are written to the file. A connection that drops
is thrown away with everything in flight: the next one (after a back-off) sends again from the
oldest unacknowledged entry, so after a disconnect, a restart or a power cut the rest goes out
in order, some perhaps twice (the club keeps each once). The link's state (connecting,
online, unreachable, refused) is said through `status` when it changes, never per command.

The game file is read only once it may be (`ready`: its proof of every entry, beside the
session, found nothing wrong), so nothing of a damaged file is sent and nothing is written to
it. When the session starts afresh on a new file at the same path (the old one was found
damaged and moved aside: `restart`), the publisher follows it: it leaves the old file's
outbox (without writing to it) and sends the new file's entries from its first, under the
new file's identity (`club.outbox`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.outbox import Outbox, Outgoing
from club.settings import ClubSettings
from club.table import table_payload, verdict_of
from club.topics import BATCH_BYTES, BATCH_MOST, box_client_id, box_topic
from referee.chain import canonical
from referee.db import entry_id

log = logging.getLogger(__name__)
WINDOW = 100  # entries published and not yet acknowledged, at most
CONNECT_WAIT = 10.0  # seconds for the broker's answer to CONNECT
BACKOFF = (0.2, 5.0)  # seconds between tries: first, then doubling up to the last
# seconds: ack marks are written at most this often (a mark lost in a power cut only means
# its entries are sent again; writing one per entry cost a write transaction per command)
FLUSH_EVERY = 1.0
# seconds: the table (a live view for people) is published at most this often; at a command
# per keypress it was one retained message per command, half of all the club received
TABLE_EVERY = 0.5
DRAIN = 5.0  # seconds a stopping publisher goes on sending what is left, while connected
LEAVE_WAIT = 2.0  # seconds a stopping publisher waits for its "online: false" to be acknowledged
# seconds between two passes over the outbox, at least: a table's command (one every few
# seconds) goes out at once, while commands that come faster (a box catching up, the bench)
# are read, published and acknowledged many to a pass instead of one pass each (it was
# 20 ms: on a machine shared by 30 boxes each pass held one entry or two, and its fixed work,
# the file's query and the waits, made the publisher's CPU per entry 3x its cost alone)
PASS_EVERY = 0.1
# a pass's entries of one game go in one ``batch`` message: at most BATCH_MOST of them,
# BATCH_BYTES long (club.topics: the club refuses a batch over them)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def presence(online: bool) -> bytes:
    return canonical({"online": online, "at": now()}).encode()


class _Link:
    """One connection to the broker, driven from the publisher's thread: what paho's callbacks
    (run in that thread, from `loop_read`) have said so far."""

    def __init__(self, client: mqtt.Client) -> None:
        self.client = client
        self.answer: list[Any] = []  # the CONNACK's reason code, once it came
        self.lost = False
        self.done: set[int] = set()  # entries' mids acknowledged (PUBACK), not yet taken
        # mids of what is not an entry (the presence, the tables): their PUBACKs are not put
        # in `done` (there they would never be taken, and would count towards the half
        # window that ends a wait: after 50 tables every wait would end at once)
        self.others: set[int] = set()


class Publisher:
    """Publishes one game file's entries and the table to one club (see the module)."""

    def __init__(self, settings: ClubSettings, path: str | Path, *,
                 status: Callable[[str], None], backoff: tuple[float, float] = BACKOFF,
                 window: int = WINDOW,
                 ready: Callable[[], bool | None] = lambda: True) -> None:
        self.settings = settings
        self.path = Path(path)
        self._status = status
        self._ready = ready  # the file may be read (True), is damaged (False), is being proven
        self._reopen = False  # the session restarted on a new file at the same path
        self._outbox: Outbox | None = None
        self._backoff = backoff
        self._window = window
        self._lock = threading.Lock()  # what the session's thread and this one share
        # the session's thread wakes this one's `select` with a byte, only when it is not
        # already kicked (one write per pass at most, not one per command)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._kicked = False
        self._fresh = True  # entries may have been written since the last read of the file
        # connected and sending: only then does a new entry wake the thread (connecting,
        # or waiting to try again, it has nothing to do with one: `_fresh` keeps it)
        self._sending = False
        self._stopping = False
        self._drain_until = 0.0
        self._table: tuple[Any, Any, int] | None = None  # (ruleset, state, commands)
        self._table_dirty = False
        self._verdict: dict[str, Any] | None = None
        self._table_at = -TABLE_EVERY  # (monotonic) when the table was last published
        self._resend: list[tuple[int, int]] = []
        self.state = "connecting"  # connecting | online | unreachable | refused | stopped
        self._said: str | None = None
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self.sent = 0  # entries handed to the broker (a figure for tests and the bench)
        self.connections = 0

    # ---- from the session's thread (never blocks) ----------------------------------------
    def start(self) -> None:
        self._thread.start()

    def accepted(self, ruleset: Any, state: Any, commands: int,
                 events: list[dict[str, Any]] | None = None) -> None:
        """A command was accepted (it is in the file): note the table, and wake the thread
        if it is sending (connecting or offline, an entry gives it nothing to do: the next
        connection reads the file from the oldest entry not acknowledged)."""
        found = self._verdict_in(ruleset, events)
        with self._lock:
            self._table = (ruleset, state, commands)
            self._table_dirty = True
            if found is not None:  # (kept here: a table not yet published must not lose it)
                self._verdict = found
            self._fresh = True
            wake = self._sending
        if wake:
            self._kick()

    def restart(self) -> None:
        """The session started afresh on a new game file at the same path (the old one was
        moved aside): follow it."""
        with self._lock:
            self._reopen = True
        self._kick()

    def kick(self) -> None:
        """Look again whether the file may be read (its proof has finished)."""
        self._kick()

    def stop(self, timeout: float = DRAIN + LEAVE_WAIT + 1.0) -> None:
        """Send what is left while connected (for up to `DRAIN` seconds: what is not sent
        then goes at the next start), say the box is leaving (online: false), write the ack
        marks, and stop."""
        with self._lock:
            self._drain_until = time.monotonic() + DRAIN
            self._stopping = True
        self._kick()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():
            self._wake_r.close()
            self._wake_w.close()

    def _kick(self) -> None:
        with self._lock:
            if self._kicked:
                return  # (the thread is woken already: its next pass sees this too)
            self._kicked = True
        with contextlib.suppress(OSError):  # (full: woken anyway; closed: it has stopped)
            self._wake_w.send(b"\0")

    # ---- the thread ----------------------------------------------------------------------
    def _say(self, state: str, text: str) -> None:
        self.state = state
        if text != self._said:
            self._said = text
            try:
                self._status(text)
            except Exception:
                log.exception("the club's status could not be shown")

    def _wait(self, timeout: float, *, draining: bool = False, link: _Link | None = None,
              until: Callable[[], bool] | None = None) -> None:
        """Until kicked (or stopped, unless `draining`), at most `timeout` seconds. While
        connected (`link`) the connection's traffic is read and written meanwhile, in this
        thread; a lost connection or `until()` ends the wait too."""
        deadline = time.monotonic() + timeout
        wake = self._wake_r
        while True:
            with self._lock:
                woken = self._kicked or (self._stopping and not draining)
                self._kicked = False
            if link is not None and link.lost:
                return
            # (a wait whose `until` holds already still reads the socket once: were `until`
            # to hold for long, the acknowledgements would otherwise never be read)
            met = link is not None and until is not None and until()
            rest = 0.0 if woken or met else deadline - time.monotonic()
            if rest <= 0 and link is None:
                return
            # (connected, the socket is looked at even when woken already: a flood of
            # commands, each waking the thread, must not keep the PUBACKs from being read)
            sock = None if link is None else link.client.socket()
            if link is not None and sock is None:
                link.lost = True  # (paho closed it: on_disconnect has been said)
                return
            readers: list[Any] = [wake]
            writers: list[Any] = []
            pending = 0
            if link is not None and sock is not None:
                readers.append(sock)
                if link.client.want_write():
                    writers.append(sock)
                pending = sock.pending() if hasattr(sock, "pending") else 0  # (TLS)
            try:
                readable, writable, _ = select.select(readers, writers, [],
                                                      0.0 if pending else max(rest, 0.0))
            except (OSError, ValueError):  # (the socket closed under it: the link is lost)
                if link is None:
                    raise
                link.lost = True
                return
            if wake in readable:
                with contextlib.suppress(BlockingIOError):
                    wake.recv(4096)
            if link is not None and sock is not None:
                self._traffic(link, sock in readable or pending > 0, sock in writable)
                if link.lost or (until is not None and until()):
                    return
            if rest <= 0:
                return

    @staticmethod
    def _traffic(link: _Link, readable: bool, writable: bool) -> None:
        """The connection's reads and writes (callbacks run here), its keepalive."""
        c = link.client
        rc = mqtt.MQTT_ERR_SUCCESS
        if readable:
            rc = c.loop_read()
        if rc == mqtt.MQTT_ERR_SUCCESS and writable and c.socket() is not None:
            rc = c.loop_write()
        if rc == mqtt.MQTT_ERR_SUCCESS and c.socket() is not None:
            rc = c.loop_misc()
        if rc != mqtt.MQTT_ERR_SUCCESS or c.socket() is None:
            link.lost = True

    def _open(self) -> Outbox | None:
        """The outbox of the file at `path`, once it may be read (None: stopping, or it
        cannot be opened; that is said)."""
        while True:
            with self._lock:
                self._reopen = False
            if self._stopping:
                return None
            try:
                ready = self._ready()
            except Exception:
                log.exception("whether the game file is proven could not be told")
                ready = None
            if ready:
                break
            self._wait(1.0)  # (kicked when the proof ends and when the session restarts)
        try:
            return Outbox(self.path, club=self.settings.club, box=self.settings.box)
        except Exception as err:
            log.exception("the club's outbox could not be opened")
            self._say("refused", f"Club stopped: cannot read the game file to send it ({err})")
            return None

    def _run(self) -> None:
        delay = self._backoff[0]
        try:
            outbox = self._outbox = self._open()
            while outbox is not None and not self._stopping:
                if self._reopen:  # a new file: its own outbox (the old one is not written)
                    outbox.close()
                    with self._lock:
                        self._verdict = None
                    outbox = self._outbox = self._open()
                    delay = self._backoff[0]
                    continue
                if self._connection(outbox):
                    delay = self._backoff[0]
                if self._stopping:
                    break
                if not self._reopen:
                    self._wait(delay)
                    delay = min(delay * 2, self._backoff[1])
        finally:
            outbox, self._outbox = self._outbox, None
            if outbox is not None:
                try:
                    outbox.flush()
                except Exception:
                    log.exception("the club's ack marks could not be written")
                outbox.close()
            self.state = "stopped"

    def _client(self) -> mqtt.Client:
        s = self.settings
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=box_client_id(s.club, s.box), clean_session=True,
                             reconnect_on_failure=False)
        if s.username is not None:
            client.username_pw_set(s.username, s.password)
        if s.broker.tls:
            client.tls_set()
        client.will_set(box_topic(s.club, s.box, "online"), presence(False), qos=1,
                        retain=True)
        client.max_inflight_messages_set(self._window)
        return client

    def _connection(self, outbox: Outbox) -> bool:
        """One connection, until it drops or the publisher stops; whether it was made."""
        s = self.settings
        where = s.broker.url
        client = self._client()
        link = _Link(client)

        # (paho calls these from `loop_read`, in this thread: no lock for `link`)
        def on_connect(c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
            link.answer.append(rc)

        def on_disconnect(c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
            link.lost = True

        def on_publish(c: Any, u: Any, mid: int, rc: Any, props: Any = None) -> None:
            if mid in link.others:
                link.others.discard(mid)
            else:
                link.done.add(mid)

        def on_message(c: Any, u: Any, msg: Any) -> None:  # the club asks: send again
            try:
                asked = json.loads(msg.payload)
                game, seq = int(asked["game"]), int(asked["seq"])
                file = asked.get("file", outbox.file)
            except (ValueError, KeyError, TypeError, AttributeError):
                log.warning("a resend request that is not {game, seq}: %r", msg.payload[:200])
                return
            if file != outbox.file:  # (a file moved aside: what it holds stays in it)
                return
            with self._lock:
                self._resend.append((game, max(1, seq)))
                self._kicked = True  # (this thread: seen when the wait goes round)

        client.on_connect, client.on_disconnect = on_connect, on_disconnect
        client.on_publish, client.on_message = on_publish, on_message
        try:
            client.connect(s.broker.host, s.broker.port, keepalive=30)
        except (OSError, ValueError) as err:
            self._say("unreachable", f"Club offline: broker {where} unreachable "
                      f"({getattr(err, 'strerror', None) or err}); the games are kept and "
                      "sent when it is back")
            return False
        try:
            deadline = time.monotonic() + CONNECT_WAIT
            while not (link.answer or link.lost or self._stopping):
                rest = deadline - time.monotonic()
                if rest <= 0:
                    break
                self._wait(rest, link=link, until=lambda: bool(link.answer))
            if not link.answer:
                if self._stopping:
                    return False
                self._say("unreachable", f"Club offline: broker {where} does not answer; "
                          "the games are kept and sent when it is back")
                return False
            rc = link.answer[0]
            if rc.is_failure:
                self._say("refused", f"Club refused box {s.box}: broker {where} says "
                          f"{rc}; the games are kept; check the box's credentials")
                return False
            self.connections += 1
            self._send(link, outbox)
            return True
        finally:
            self._leave(link)

    def _leave(self, link: _Link) -> None:
        """The connection's end: a clean leave when stopping (the Last Will is not sent then,
        so "online: false" is published, and waited for), then DISCONNECT, and its socket
        closed."""
        client = link.client
        if not link.lost:
            if self._stopping and link.answer and not link.answer[0].is_failure:
                s = self.settings
                info = client.publish(box_topic(s.club, s.box, "online"), presence(False),
                                      qos=1, retain=True)
                if info.rc == mqtt.MQTT_ERR_SUCCESS:
                    self._wait(LEAVE_WAIT, draining=True, link=link,
                               until=lambda: info.mid in link.done)
            client.disconnect()  # (written at once when it can be; paho closes its socket)
        sock = client.socket()
        if sock is not None:  # (not written: the socket is closed all the same)
            sock.close()

    def _pace(self, passed: float) -> None:
        """Let at least `PASS_EVERY` pass since the pass that began at `passed` (a stop or a
        lost connection is seen at the next pass, at most that much later)."""
        rest = passed + PASS_EVERY - time.monotonic()
        if rest > 0:
            time.sleep(rest)

    def _send(self, link: _Link, outbox: Outbox) -> None:
        with self._lock:
            self._sending = True
        try:
            self._sending_on(link, outbox)
        finally:
            with self._lock:
                self._sending = False

    def _sending_on(self, link: _Link, outbox: Outbox) -> None:
        s = self.settings
        client, done = link.client, link.done
        topic = box_topic(s.club, s.box, "entries")
        batch_topic = box_topic(s.club, s.box, "batch")
        link.others.add(client.publish(box_topic(s.club, s.box, "online"), presence(True),
                                       qos=1, retain=True).mid)
        client.subscribe(box_topic(s.club, s.box, "resend"), qos=1)
        with self._lock:
            self._table_dirty = self._table is not None
        # (mid, game, seq, n): a message of n entries of `game`, the last `seq`, in sent order
        inflight: deque[tuple[int, int, int, int]] = deque()
        sizes: dict[int, int] = {}  # each message in flight: how many entries it holds
        flying = 0  # entries in flight
        cursor = outbox.first_unacked()
        # entries re-sent at the club's request go one to a message: a club that does not
        # read batches (older than this box) then still gets them, by asking
        singles_to = 0
        caught_up = False
        last_flush = 0.0
        more = True
        stop_seen = False

        def urgent() -> bool:
            """Whether acknowledgements should end the wait: half the window, or while
            stopping (otherwise they are taken at the next pass: the ack marks are written
            at most every FLUSH_EVERY, so a pass for each one would only cost CPU)."""
            if self._stopping:
                return bool(done)
            return sum(sizes.get(mid, 0) for mid in done) * 2 >= self._window

        passed = time.monotonic()  # when the last pass began
        while not link.lost and not self._reopen:
            if self._stopping:  # (after one whole pass since the stop: the last entry too)
                if stop_seen and (not (inflight or more)
                                  or time.monotonic() > self._drain_until):
                    break
                stop_seen = True
            while inflight and inflight[0][0] in done:  # acknowledged, in order: marks move on
                mid, game, seq, n = inflight.popleft()
                done.discard(mid)
                del sizes[mid]
                flying -= n
                outbox.ack(game, seq)
            with self._lock:
                asked, self._resend = self._resend, []
            for game, seq in asked:  # sent again from there (the club keeps each once)
                outbox.acked[game] = min(outbox.acked.get(game, 0), seq - 1)
                singles_to = max(singles_to, cursor - 1)
                cursor = min(cursor, entry_id(game, seq))
            room = self._window - flying
            if room > 0:
                with self._lock:
                    fresh, self._fresh = self._fresh, False
                # the file is read only when it may hold more: an entry accepted since the
                # last read, the last read filling the window, a resend, a stop (a pass woken
                # by acknowledgements alone reads nothing)
                if fresh or more or asked or self._stopping:
                    outs, going_on = outbox.batch(cursor, room)
                    more = len(outs) >= room
                    for chunk, data in self._messages(outs, singles_to):
                        info = client.publish(topic if len(chunk) == 1 else batch_topic, data,
                                              qos=1)
                        if info.rc != mqtt.MQTT_ERR_SUCCESS:
                            more = True  # (tried again at the next pass)
                            break
                        last = chunk[-1]
                        inflight.append((info.mid, last.game, last.seq, len(chunk)))
                        sizes[info.mid] = len(chunk)
                        flying += len(chunk)
                        cursor = last.id + 1
                        self.sent += len(chunk)
                    else:
                        cursor = max(cursor, going_on)
            self._publish_table(link, outbox)
            if self._stopping or time.monotonic() - last_flush >= FLUSH_EVERY:
                outbox.flush()
                last_flush = time.monotonic()
            if not inflight and not more and not caught_up:
                caught_up = True
                self._say("online", f"Club online: box {s.box} at {s.broker.url}; every "
                          "game is sent")
            if not more or inflight:
                due = 5.0  # (nothing owed: only the next entry, a resend or a stop wakes it)
                if inflight or outbox.unwritten():  # the acks to take, the marks to write
                    due = max(0.0, last_flush + FLUSH_EVERY - time.monotonic())
                if self._stopping and not inflight:  # (the next pass sees all is sent)
                    due = 0.0
                self._wait(min(due, self._table_due()), draining=True, link=link,
                           until=urgent)
                self._pace(passed)
            passed = time.monotonic()
        if link.lost and not self._stopping:
            self._say("unreachable", f"Club offline: lost the broker {s.broker.url}; the "
                      "games are kept and sent when it is back")

    @staticmethod
    def _messages(outs: list[Outgoing], singles_to: int) -> Iterator[tuple[list[Outgoing],
                                                                          bytes]]:
        """The messages that carry `outs`: each entry alone (``entries``), or, when a pass
        has several of one game to send, up to `BATCH_MOST` of them in one ``batch``
        (``{"entries": [...]}``, at most `BATCH_BYTES`): paho's work per message (the
        PUBLISH built, the PUBACK read, in Python) was two thirds of the publisher's CPU per
        entry at a flood's pace. Entries up to id `singles_to` always go alone."""
        texts = [out.text for out in outs]
        i = 0
        while i < len(outs):
            first = outs[i]
            j, size = i + 1, len(texts[i])
            if first.id > singles_to:
                while (j < len(outs) and j - i < BATCH_MOST and outs[j].game == first.game
                       and size + len(texts[j]) <= BATCH_BYTES):
                    size += len(texts[j]) + 1
                    j += 1
            if j == i + 1:
                yield [first], texts[i].encode()
            else:
                yield outs[i:j], ('{"entries":[' + ",".join(texts[i:j]) + "]}").encode()
            i = j

    @staticmethod
    def _verdict_in(ruleset: Any, events: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        if not events:
            return None
        try:
            return verdict_of(ruleset, events)
        except Exception:  # (a renderer's failure never stops the box or its publishing)
            log.exception("the verdict could not be put into words for the club")
            return None

    def _table_due(self) -> float:
        """Seconds until the dirty table may be published (0: now; inf: nothing to send)."""
        with self._lock:
            if not self._table_dirty or self._table is None:
                return float("inf")
        return max(0.0, self._table_at + TABLE_EVERY - time.monotonic())

    def _publish_table(self, link: _Link, outbox: Outbox) -> None:
        if self._table_due() > 0 and not self._stopping:
            return
        with self._lock:
            if not self._table_dirty or self._table is None:
                return
            ruleset, state, commands = self._table
            verdict = self._verdict
            self._table_dirty = False
        self._table_at = time.monotonic()
        try:
            payload = table_payload(outbox.latest_game(), ruleset, state, commands=commands,
                                    verdict=verdict, at=now())
            payload["file"] = outbox.file
        except Exception:
            log.exception("the table could not be put into words for the club")
            return
        s = self.settings
        link.others.add(link.client.publish(
            box_topic(s.club, s.box, "table"),
            json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(),
            qos=1, retain=True).mid)
