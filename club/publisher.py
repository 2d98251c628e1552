"""A box publishing its games to the club's broker (paho-mqtt; docs/club.md).

Everything happens on one thread of its own (and paho's network thread while connected):
the session's subscriber only notes the newest state and wakes it, so no command, key or
button ever waits on the network. The entries to send are read from the game file (the
outbox, `club.outbox`), in order, at most `WINDOW` unacknowledged at a time; each broker
acknowledgement (PUBACK, QoS 1) moves the game's ack mark on, and the marks are written to
the file. A connection that drops is thrown away with everything in flight: the next one
(after a back-off) sends again from the oldest unacknowledged entry, so after a disconnect,
a restart or a power cut the rest goes out in order, some perhaps twice (the club keeps each
once). The link's state (connecting, online, unreachable, refused) is said through `status`
when it changes, never per command.

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
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.outbox import Outbox
from club.settings import ClubSettings
from club.table import table_payload, verdict_of
from club.topics import box_topic
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
# seconds between two passes over the outbox, at least: a table's command (one every few
# seconds) goes out at once, while commands that come faster (a box catching up, the bench)
# are read, published and acknowledged many to a pass instead of one pass each
PASS_EVERY = 0.02


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def presence(online: bool) -> bytes:
    return canonical({"online": online, "at": now()}).encode()


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
        self._cv = threading.Condition()
        self._kicked = False
        self._fresh = True  # entries may have been written since the last read of the file
        self._stopping = False
        self._drain_until = 0.0
        self._table: tuple[Any, Any, int] | None = None  # (ruleset, state, commands)
        self._table_dirty = False
        self._verdict: dict[str, Any] | None = None
        self._table_at = -TABLE_EVERY  # (monotonic) when the table was last published
        self._resend: list[tuple[int, int]] = []
        self._answered = threading.Event()  # (game, seq) the club asked for again
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
        """A command was accepted (it is in the file): note the table, wake the thread."""
        with self._cv:
            self._table = (ruleset, state, commands)
            self._table_dirty = True
            found = self._verdict_in(ruleset, events)
            if found is not None:  # (kept here: a table not yet published must not lose it)
                self._verdict = found
            self._fresh = True
            self._kicked = True
            self._cv.notify()

    def restart(self) -> None:
        """The session started afresh on a new game file at the same path (the old one was
        moved aside): follow it."""
        with self._cv:
            self._reopen = True
            self._kicked = True
            self._cv.notify()

    def kick(self) -> None:
        """Look again whether the file may be read (its proof has finished)."""
        self._kick()

    def stop(self, timeout: float = DRAIN + 3.0) -> None:
        """Send what is left while connected (for up to `DRAIN` seconds: what is not sent
        then goes at the next start), say the box is leaving (online: false), write the ack
        marks, and stop."""
        with self._cv:
            self._drain_until = time.monotonic() + DRAIN
            self._stopping = True
            self._cv.notify()
        self._answered.set()  # (no more waiting for a broker that does not answer)
        if self._thread.is_alive():
            self._thread.join(timeout)

    # ---- the thread ----------------------------------------------------------------------
    def _say(self, state: str, text: str) -> None:
        self.state = state
        if text != self._said:
            self._said = text
            try:
                self._status(text)
            except Exception:
                log.exception("the club's status could not be shown")

    def _wait(self, timeout: float, *, draining: bool = False) -> None:
        """Until kicked (or stopped, unless `draining`: then until kicked), at most
        `timeout` seconds."""
        with self._cv:
            if not self._kicked and (draining or not self._stopping):
                self._cv.wait(timeout)
            self._kicked = False

    def _open(self) -> Outbox | None:
        """The outbox of the file at `path`, once it may be read (None: stopping, or it
        cannot be opened; that is said)."""
        while True:
            with self._cv:
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
                    with self._cv:
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
                             client_id=f"tableside-{s.club}-{s.box}", clean_session=True,
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
        answered = self._answered = threading.Event()  # (set by `stop` too)
        answer: list[Any] = []
        lost = threading.Event()
        done: set[int] = set()
        lock = threading.Lock()

        def on_connect(c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
            answer.append(rc)
            answered.set()
            self._kick()

        def on_disconnect(c: Any, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
            lost.set()
            answered.set()
            self._kick()

        def on_publish(c: Any, u: Any, mid: int, rc: Any, props: Any = None) -> None:
            with lock:
                done.add(mid)
                # (woken only when half the window waits, or while stopping: the ack marks
                # are written at most every FLUSH_EVERY, at the next pass, so waking for each
                # acknowledgement would only cost CPU)
                wake = len(done) * 2 >= self._window or self._stopping
            if wake:
                self._kick()

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
            with self._cv:
                self._resend.append((game, max(1, seq)))
                self._kicked = True
                self._cv.notify()

        client.on_connect, client.on_disconnect = on_connect, on_disconnect
        client.on_publish, client.on_message = on_publish, on_message
        try:
            client.connect(s.broker.host, s.broker.port, keepalive=30)
        except (OSError, ValueError) as err:
            self._say("unreachable", f"Club offline: broker {where} unreachable "
                      f"({getattr(err, 'strerror', None) or err}); the games are kept and "
                      "sent when it is back")
            return False
        client.loop_start()
        try:
            if not answered.wait(CONNECT_WAIT) or not answer:
                if self._stopping:
                    return False
                self._say("unreachable", f"Club offline: broker {where} does not answer; "
                          "the games are kept and sent when it is back")
                return False
            rc = answer[0]
            if rc.is_failure:
                self._say("refused", f"Club refused box {s.box}: broker {where} says "
                          f"{rc}; the games are kept; check the box's credentials")
                return False
            self.connections += 1
            self._send(client, outbox, lost, done, lock)
            return True
        finally:
            if not lost.is_set():
                if self._stopping and answer and not answer[0].is_failure:
                    # a clean leave (the Last Will is not sent then)
                    info = client.publish(box_topic(s.club, s.box, "online"),
                                          presence(False), qos=1, retain=True)
                    with contextlib.suppress(RuntimeError, ValueError):  # (it went meanwhile)
                        info.wait_for_publish(2.0)
                client.disconnect()
            client.loop_stop()

    def _pace(self, passed: float) -> None:
        """Let at least `PASS_EVERY` pass since the pass that began at `passed` (a stop or a
        lost connection is seen at the next pass, at most that much later)."""
        rest = passed + PASS_EVERY - time.monotonic()
        if rest > 0:
            time.sleep(rest)

    def _kick(self) -> None:
        with self._cv:
            self._kicked = True
            self._cv.notify()

    def _send(self, client: mqtt.Client, outbox: Outbox, lost: threading.Event,
              done: set[int], lock: threading.Lock) -> None:
        s = self.settings
        topic = box_topic(s.club, s.box, "entries")
        client.publish(box_topic(s.club, s.box, "online"), presence(True), qos=1, retain=True)
        client.subscribe(box_topic(s.club, s.box, "resend"), qos=1)
        with self._cv:
            self._table_dirty = self._table is not None
        inflight: deque[tuple[int, int, int]] = deque()  # (mid, game, seq), in sent order
        cursor = outbox.first_unacked()
        caught_up = False
        last_flush = 0.0
        more = True
        stop_seen = False
        passed = time.monotonic()  # when the last pass began
        while not lost.is_set() and not self._reopen:
            if self._stopping:  # (after one whole pass since the stop: the last entry too)
                if stop_seen and (not (inflight or more)
                                  or time.monotonic() > self._drain_until):
                    break
                stop_seen = True
            with lock:  # acknowledged, in order: the ack marks move on
                while inflight and inflight[0][0] in done:
                    mid, game, seq = inflight.popleft()
                    done.discard(mid)
                    outbox.ack(game, seq)
            with self._cv:
                asked, self._resend = self._resend, []
            for game, seq in asked:  # sent again from there (the club keeps each once)
                outbox.acked[game] = min(outbox.acked.get(game, 0), seq - 1)
                cursor = min(cursor, entry_id(game, seq))
            room = self._window - len(inflight)
            if room > 0:
                with self._cv:
                    fresh, self._fresh = self._fresh, False
                # the file is read only when it may hold more: an entry accepted since the
                # last read, the last read filling the window, a resend, a stop (a pass woken
                # by acknowledgements alone reads nothing)
                if fresh or more or asked or self._stopping:
                    outs, going_on = outbox.batch(cursor, room)
                    more = len(outs) >= room
                    for out in outs:
                        info = client.publish(topic, canonical(out.payload).encode(), qos=1)
                        if info.rc != mqtt.MQTT_ERR_SUCCESS:
                            more = True  # (tried again at the next pass)
                            break
                        inflight.append((info.mid, out.game, out.seq))
                        cursor = out.id + 1
                        self.sent += 1
                    else:
                        cursor = max(cursor, going_on)
            self._publish_table(client, outbox)
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
                self._wait(min(due, self._table_due()), draining=True)
                self._pace(passed)
            passed = time.monotonic()
        if lost.is_set() and not self._stopping:
            self._say("unreachable", f"Club offline: lost the broker {s.broker.url}; the "
                      "games are kept and sent when it is back")

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
        with self._cv:
            if not self._table_dirty or self._table is None:
                return float("inf")
        return max(0.0, self._table_at + TABLE_EVERY - time.monotonic())

    def _publish_table(self, client: mqtt.Client, outbox: Outbox) -> None:
        if self._table_due() > 0 and not self._stopping:
            return
        with self._cv:
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
        client.publish(box_topic(s.club, s.box, "table"),
                       json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(),
                       qos=1, retain=True)
