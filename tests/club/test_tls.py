"""A box publishing over TLS (mqtts://), as a broker beyond the LAN is reached (a real
mosquitto with a TLS listener, its certificate from a CA made for the test): the one
publisher thread runs the connection through TLS, a flood's batches and their PUBACKs
included; and a broker whose certificate the box cannot verify is said once, as a state,
with nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from club.outbox import read_acks
from tests.club.broker import CLUB, Broker, Listener, make_certificates, wait_for
from tests.club.play import script
from tests.club.test_publish import box_session, file_entries, play, received


@pytest.fixture
def tls_broker(tmp_path: Path) -> Broker:
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker")
    broker.tls = make_certificates(tmp_path / "broker")
    broker.add_box("box-1")
    broker.start()
    yield broker  # type: ignore[misc]
    broker.kill()


def test_a_box_publishes_every_entry_over_tls(tls_broker: Broker, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert tls_broker.tls is not None
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_broker.tls[0]))  # (the system's CAs, here)
    listener = Listener(tls_broker)  # (on the plain listener: the same broker)
    db = tmp_path / "box.sqlite"
    said: list[str] = []
    session = box_session(db, tls_broker, said=said,
                          url=f"mqtts://127.0.0.1:{tls_broker.tls_port}")
    try:
        play(session, script(150))  # (a flood: batches; a window's PUBACKs read through TLS)
        want = file_entries(db)
        wait_for(lambda: len(listener.entries("box-1")) >= len(want), 20, "every entry")
        assert received(listener, "box-1") == want
    finally:
        session.close()
        listener.close()
    assert any(s.startswith("Club online") for s in said), said
    assert read_acks(db) == {(CLUB, "box-1", want[0]["game"]): len(want)}


def test_a_broker_the_box_cannot_verify_is_said_once_and_nothing_is_lost(
        tls_broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert tls_broker.tls is not None
    other, _, _ = make_certificates(tmp_path)  # a CA that did not sign the broker's
    monkeypatch.setenv("SSL_CERT_FILE", str(other))
    db = tmp_path / "box.sqlite"
    said: list[str] = []
    session = box_session(db, tls_broker, said=said,
                          url=f"mqtts://127.0.0.1:{tls_broker.tls_port}")
    try:
        play(session, script(40))
        wait_for(lambda: any(s.startswith("Club offline") for s in said), 20,
                 "the box saying the club is offline")
        assert len(session.log) == len(script(40))
    finally:
        session.close()
    offline = [s for s in said if s.startswith("Club offline")]
    assert len(set(offline)) == 1 and "certificate" in offline[0], said
    assert read_acks(db) == {}
