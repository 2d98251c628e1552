"""A real mosquitto for the club's tests: started on a free loopback port with a generated
config (passwords and ACL on: club.provision's lines), stopped after. No mock broker."""

from __future__ import annotations

import contextlib
import getpass
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from club.provision import box_acl, password_line, reader_acl

CLUB = "club"
READER = "club-reader"
LISTENER = "listener"  # the tests' own reader (an account of its own: one account, one id)
SHIPPED = Path(__file__).resolve().parents[2] / "club" / "mosquitto" / "tableside-club.conf"


def shipped_config(port: int, passwd: Path, acl: Path) -> list[str]:
    """The shipped broker config (club/mosquitto/tableside-club.conf), line for line, but for
    its listener's port (on loopback), its files and persistence: every test's broker runs
    with it (its settings after the listener are the listener's own)."""
    own = {"listener": f"listener {port} 127.0.0.1", "password_file": f"password_file {passwd}",
           "acl_file": f"acl_file {acl}", "persistence": "persistence false",
           "autosave_interval": ""}
    out = []
    for line in SHIPPED.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        out.append(own.get(words[0], line.strip()))
    return [ln for ln in out if ln]


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto"
                                          if Path("/usr/sbin/mosquitto").exists() else None)
    if found is None:
        raise RuntimeError("mosquitto is not installed (apt-get install mosquitto; .ci/run "
                           "installs it)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(condition: Callable[[], object], timeout: float = 20.0, what: str = "",
             state: Callable[[], object] | None = None) -> None:
    """Poll `condition` until it is true; fail saying `what` (and `state()`, what there was)
    after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            there = f" (there was: {state()})" if state is not None else ""
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for "
                                 f"{what or condition}{there}")
        time.sleep(0.02)


class PortTaken(AssertionError):
    """mosquitto could not bind a port: something else took it after it was picked."""


@dataclass
class Broker:
    """One mosquitto on 127.0.0.1:`port`; its accounts' passwords in `passwords`."""

    dir: Path
    port: int = field(default_factory=free_port)
    passwords: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None
    # a second listener, TLS (mqtts://127.0.0.1:`tls_port`), with these files: (the CA's
    # certificate, the broker's certificate, its key); see `make_certificates`
    tls: tuple[Path, Path, Path] | None = None
    tls_port: int = field(default_factory=free_port)
    _started: bool = False  # (it ran once: its clients know its ports)
    _log_from: int = 0  # where this start's lines begin in mosquitto.log

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def add_box(self, box: str) -> Path:
        """An account for `box` (the broker's files rewritten; restart or reload to apply);
        returns its secret file."""
        self.passwords[box] = f"pw-{box}"
        return self.secret(box)

    def secret(self, user: str) -> Path:
        path = self.dir / f"{user}.secret"
        path.write_text(f"{user}:{self.passwords[user]}\n")
        return path

    def write_config(self) -> Path:
        self.passwords.setdefault(READER, "pw-reader")
        self.passwords.setdefault(LISTENER, "pw-listener")
        pw = self.dir / "passwords"
        pw.write_text("".join(password_line(u, p) + "\n" for u, p in self.passwords.items()))
        acl = self.dir / "acl"
        lines = reader_acl(CLUB, READER) + reader_acl(CLUB, LISTENER)
        for user in self.passwords:
            if user not in (READER, LISTENER):
                lines += box_acl(CLUB, user)
        acl.write_text("\n".join(lines) + "\n")
        conf = self.dir / "mosquitto.conf"
        # (run as root, mosquitto would drop to the user mosquitto, who cannot read a test's
        # directory: it stays the user running the tests)
        conf.write_text(f"user {getpass.getuser()}\n"
                        # (information: "running" once every listener is bound)
                        "log_dest stderr\nlog_type error\nlog_type warning\n"
                        "log_type information\n"
                        + "".join(ln + "\n" for ln in shipped_config(self.port, pw, acl)))
        if self.tls is not None:
            ca, cert, key = self.tls
            with conf.open("a") as f:
                f.write(f"listener {self.tls_port} 127.0.0.1\ncafile {ca}\ncertfile {cert}\n"
                        f"keyfile {key}\nuse_username_as_clientid true\n")
        return conf

    def start(self, *, write: bool = True) -> None:
        """Start it (with `write`, on a config made afresh from `passwords`) and wait until it
        says it is running: every listener bound by this mosquitto (a probe could connect to
        another test's broker that has the port). The ports were free when this broker was
        made; if another process took one meanwhile (the suite runs on several cores), a
        broker that never ran takes two others and starts again. A restart keeps its ports
        (its clients come back to them)."""
        for attempt in range(5):
            conf = self.write_config() if write else self.dir / "mosquitto.conf"
            path = self.dir / "mosquitto.log"
            self._log_from = path.stat().st_size if path.exists() else 0
            self.log = open(path, "ab")  # noqa: SIM115
            self.proc = subprocess.Popen([mosquitto_binary(), "-c", str(conf)],
                                         stdout=self.log, stderr=self.log)
            try:
                wait_for(self._running, 10, f"mosquitto running on {self.port}")
            except PortTaken:
                self.kill()
                if self._started or not write or attempt == 4:
                    raise
                self.port, self.tls_port = free_port(), free_port()
                continue
            self._started = True
            return

    def _said(self) -> str:
        with open(self.dir / "mosquitto.log", "rb") as f:
            f.seek(self._log_from)
            return f.read().decode(errors="replace")

    def _running(self) -> bool:
        ended = self.proc is not None and self.proc.poll() is not None
        said = self._said()  # (read after the check: an ended one's last words are in it)
        if ended:
            if "Address already in use" in said:
                raise PortTaken(said)
            raise AssertionError(f"mosquitto ended: {said}")
        return re.search(r"mosquitto version \S+ running", said) is not None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None
        if hasattr(self, "log"):
            self.log.close()

    def restart(self) -> None:
        self.kill()
        self.start()


def make_certificates(where: Path) -> tuple[Path, Path, Path]:
    """A CA of its own and a certificate it signed for 127.0.0.1 (openssl): (the CA's
    certificate, the broker's certificate, the broker's key)."""
    ca_key, ca, key, csr, cert = (where / n for n in ("ca.key", "ca.pem", "broker.key",
                                                      "broker.csr", "broker.pem"))
    ext = where / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\n")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out",
            str(ca), "-days", "2", "-subj", "/CN=tableside test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr),
            "-subj", "/CN=127.0.0.1")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
            "-CAcreateserial", "-out", str(cert), "-days", "2", "-extfile", str(ext))
    return ca, cert, key


@contextlib.contextmanager
def running_broker(tmp: Path, boxes: tuple[str, ...] = ()) -> Iterator[Broker]:
    broker = Broker(tmp)
    for box in boxes:
        broker.add_box(box)
    broker.start()
    try:
        yield broker
    finally:
        broker.kill()


class Listener:
    """A paho subscriber (the club's reader account) keeping every message it gets."""

    def __init__(self, broker: Broker, topic: str = f"tableside/{CLUB}/#",
                 user: str = LISTENER) -> None:
        import json
        import threading

        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[tuple[str, dict[str, object], bool]] = []
        self._lock = threading.Lock()
        self.subscribed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"listener-{id(self)}")
        c.username_pw_set(user, broker.passwords[user])

        def on_connect(client: object, u: object, f: object, rc: object, p: object) -> None:
            c.subscribe(topic, qos=1)

        def on_subscribe(*args: object) -> None:
            self.subscribed.set()

        def on_message(client: object, u: object, msg: mqtt.MQTTMessage) -> None:
            with self._lock:
                self.messages.append((msg.topic, json.loads(msg.payload), bool(msg.retain)))

        c.on_connect, c.on_subscribe, c.on_message = on_connect, on_subscribe, on_message
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        wait_for(self.subscribed.is_set, 10, "the listener's subscription")

    def entries(self, box: str) -> list[dict[str, object]]:
        """Every entry `box` published, in order: alone (``entries``) or in a ``batch``."""
        where = f"tableside/{CLUB}/box/{box}/"
        out: list[dict[str, object]] = []
        with self._lock:
            for t, m, _ in self.messages:
                if t == where + "entries":
                    out.append(m)
                elif t == where + "batch":
                    out.extend(m["entries"])  # type: ignore[arg-type]
        return out

    def last(self, box: str, leaf: str) -> dict[str, object] | None:
        with self._lock:
            found = [m for t, m, _ in self.messages if t == f"tableside/{CLUB}/box/{box}/{leaf}"]
        return found[-1] if found else None

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
