"""The page's server in-process on loopback (web/server.py): private, read-only, live."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from referee.app import open_session
from referee.session import Session
from tests.referee.conftest import SEED
from tests.referee.storehelp import long_stream
from tests.web.helpers import LOOPBACK, WAIT, Events, serving
from web import server as web_server
from web.listen import ListenError, listen_from, parse_listen
from web.view import token_for

STREAM = long_stream(80)


def test_every_path_without_the_token_is_404_and_nothing_but_get_is_served() -> None:
    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            base = f"http://{LOOPBACK}:{srv.port}"
            good = srv.url()
            assert (await http.get(good)).status == 200
            for path in ("/", "/g/", "/g/x/", f"/g/{srv.live.token[:-1]}/",
                         f"/g/{srv.live.token}x/events", "/favicon.ico", "/static/page.js"):
                r = await http.get(base + path)
                assert r.status == 404, path
            # the address in capitals (the QR code's) is the same page; other cases are not
            code = srv.code_url()
            assert code == good.upper() and code.startswith(f"HTTP://{LOOPBACK}:")
            assert (await http.get(code)).status == 200
            assert (await http.get(code + "STATE.JSON")).status == 404
            assert (await http.get(code + "state.json")).status == 200
            assert (await http.get(good.replace(srv.live.token, srv.live.token.lower()))
                    ).status == 404
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                for url in (good, good + "events", good + "state.json", code):
                    r = await http.request(method, url, data=b'{"cmd": "undo"}')
                    assert r.status == 404, (method, url)
            r = await http.get(good)
            assert "script-src 'sha256-" in r.headers["Content-Security-Policy"]
            assert r.headers["Cache-Control"] == "no-store"
        assert session.log == []  # nothing reached the game

    asyncio.run(main())


def test_a_phone_gets_the_page_at_once_and_every_accepted_command() -> None:
    async def main() -> None:
        session = Session(seed=SEED)
        session.handle(STREAM[0])
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            async with http.get(srv.url() + "events") as resp:
                assert resp.headers["Content-Type"] == "text/event-stream"
                phone = Events(resp)
                first = await phone.next()
                assert int(first["id"]) == srv.live.version  # the current page, at once
                for request in STREAM[1:30]:
                    answer = session.handle(request)
                    assert answer["ok"]
                    got = await phone.next()
                    assert int(got["id"]) == srv.live.version
                    assert f"{len(session.log)} commands so far" in got["data"]
                    assert got["data"] == srv.live.html
            # a refused command changes nothing and pushes nothing new
            before = srv.live.version
            assert not session.handle({"cmd": "move", "player": "Nobody"})["ok"]
            await asyncio.sleep(0)
            assert srv.live.version == before
            # a phone that reconnects gets the current page straight away
            async with http.get(srv.url() + "events") as resp:
                again = await Events(resp).next()
                assert int(again["id"]) == srv.live.version
                assert again["data"] == srv.live.html

    asyncio.run(main())


def test_a_new_game_has_a_new_token_and_the_old_page_keeps_its_game() -> None:
    async def main() -> None:
        session = Session()  # each game a fresh random seed, as at the table
        session.handle(STREAM[0])
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            old = srv.url()
            assert srv.live.token == token_for(session.seed)
            async with http.get(old + "events") as resp:
                phone = Events(resp)
                await phone.next()
                assert session.handle({"cmd": "new_game", "players": ["Zoe", "Yan"],
                                       "abandon": True})["ok"]
                final = await phone.next()  # the old game's page as it ended
                assert "Zoe" not in final["data"] and "1 command so far" in final["data"]
                while (got := await phone.next())["event"] != "gone":
                    pass
                assert "new game" in got["data"]
            # no file: the old address keeps this run's last look at its game
            r = await http.get(old)
            assert r.status == 200 and "no longer being played" in await r.text()
            assert srv.url() != old and (await http.get(srv.url())).status == 200

    asyncio.run(main())


def _finished_game() -> list[dict[str, Any]]:
    from tests.whole_app import Start

    return Start("gallery-grippers", 10_000).requests()


def test_each_game_keeps_its_page_and_proof_and_the_front_address_follows_the_game(
        tmp_path: Path) -> None:
    """Issue 26: a finished and an abandoned game each keep a working page with their dice
    proof after new games start (and after a restart: the file has them); the box's front
    address (the one before any game) always shows the game being played."""
    path = tmp_path / "g.sqlite"

    async def main() -> None:
        session = open_session(db=path)
        try:
            async with serving(session) as srv, aiohttp.ClientSession() as http:
                front = srv.front_url()
                assert front == srv.url()  # before any game the two are one
                for request in _finished_game():
                    assert session.handle(request)["ok"], request
                await _settled(srv)
                finished = srv.url()
                assert finished != front
                assert session.handle({"cmd": "new_game", "players": ["Zoe", "Yan"]})["ok"]
                assert session.handle({"cmd": "roll", "die": "d6"})["ok"]
                await _settled(srv)
                abandoned = srv.url()
                assert abandoned != finished
                assert session.handle({"cmd": "new_game", "players": ["Xia", "Wu"],
                                       "abandon": True})["ok"]
                await _settled(srv)
                current = srv.url()
                port = srv.port
                await _check(http, finished, "over", winner=True)
                await _check(http, abandoned, "abandoned")
                shown = await (await http.get(front)).text()
                assert "Xia" in shown and "no longer being played" not in shown
                own = current.split(str(srv.port), 1)[1]
                assert f'<a href="{own}">This game' in shown  # its own page, from the front
                data = await (await http.get(front + "state.json")).json()
                assert data["proof"]["seed"] is None  # the game being played keeps its secret
                assert (await http.get(current)).status == 200
        finally:
            session.close()
        again = open_session(db=path, notify=lambda _: None)  # a restart
        try:
            async with serving(again) as srv, aiohttp.ClientSession() as http:
                def here(url: str) -> str:  # the same address on this run's port
                    return f"http://{LOOPBACK}:{srv.port}" + url.split(str(port), 1)[1]

                await _check(http, here(finished), "over", winner=True)
                await _check(http, here(abandoned), "abandoned")
                assert srv.url() == here(current)
        finally:
            again.close()

    asyncio.run(main())


async def _settled(srv: web_server.WebServer) -> None:
    for _ in range(3):  # the refresh is queued on the loop
        await asyncio.sleep(0)


async def _check(http: aiohttp.ClientSession, url: str, status: str, *,
                 winner: bool = False) -> None:
    r = await http.get(url)
    assert r.status == 200, url
    text = await r.text()
    assert "no longer being played" in text and "Check every roll: GOOD" in text
    data = await (await http.get(url + "state.json")).json()
    assert data["past"]["status"] == status
    assert data["proof"]["seed"] and data["proof"]["check"] == "good"
    if winner:
        assert "Game over: " in text
    else:
        assert "Left unfinished" in text
    async with http.get(url + "events") as resp:
        phone = Events(resp)
        assert (await phone.next())["data"] in text
        assert (await phone.next())["event"] == "gone"


def test_the_token_is_per_game_stable_and_hides_the_seed() -> None:
    assert token_for(SEED) == token_for(SEED)  # the same game after a restart
    assert token_for(SEED) != token_for(bytes(32))
    assert SEED.hex()[:8] not in token_for(SEED)
    # capitals and digits only (the QR code's alphanumeric mode), 120 bits
    assert re.fullmatch(r"[A-Z2-7]{24}", token_for(SEED))
    assert re.fullmatch(r"[A-Z2-7]{24}", token_for(None))
    assert token_for(None) != token_for(None)  # before any game: random


def test_a_flood_of_connections_does_not_stall_the_game() -> None:
    """1,000 connections from two strangers' addresses (half idle, half asking with bad
    tokens) while the game goes on: every command is accepted and the phone with the good
    token (its own address) sees each one; a stranger gets 404 or, past its address's share,
    a closed connection."""
    async def main() -> None:
        session = Session(seed=SEED)
        session.handle(STREAM[0])
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            idle = [await asyncio.open_connection(LOOPBACK, srv.port,
                                                  local_addr=("127.0.0.2", 0))
                    for _ in range(500)]

            async def stranger(i: int) -> int:
                reader, writer = await asyncio.open_connection(
                    LOOPBACK, srv.port, local_addr=("127.0.0.3", 0))
                writer.write(f"GET /g/guess{i}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                try:
                    await writer.drain()
                    line = await asyncio.wait_for(reader.readline(), WAIT)
                except ConnectionError:
                    line = b""
                writer.close()
                return int(line.split()[1]) if line else 0

            strangers = asyncio.gather(*(stranger(i) for i in range(500)))
            async with http.get(srv.url() + "events") as resp:
                phone = Events(resp)
                await phone.next()
                for request in STREAM[1:21]:
                    assert session.handle(request)["ok"]
                    got = await phone.next()
                    assert int(got["id"]) == srv.live.version
            answers = await strangers
            assert set(answers) <= {404, 0} and 404 in answers
            for _, writer in idle:
                writer.close()

    asyncio.run(main())


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Whether the server closed this connection (EOF or reset) before `WAIT`."""
    try:
        while await asyncio.wait_for(reader.read(4096), WAIT):
            pass
    except ConnectionError:
        pass
    return True


def test_a_connection_that_never_asks_with_a_good_token_is_closed_in_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Silent, trickling a request head a line at a time, or asking with a wrong token: each
    is closed (the first two at `HEAD_TIMEOUT`); a phone's stream stays."""
    monkeypatch.setattr(web_server, "HEAD_TIMEOUT", 0.3)

    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            async with http.get(srv.url() + "events") as resp:
                phone = Events(resp)
                await phone.next()
                silent, _ = await asyncio.open_connection(LOOPBACK, srv.port)
                slow_r, slow_w = await asyncio.open_connection(LOOPBACK, srv.port)
                slow_w.write(b"GET /g/" + srv.live.token.encode() + b"/ HTTP/1.1\r\n")

                async def trickle() -> None:
                    with contextlib.suppress(ConnectionError):
                        while not slow_w.is_closing():
                            slow_w.write(b"X-a: b\r\n")
                            await slow_w.drain()
                            await asyncio.sleep(0.05)  # the attacker's pace, not a wait
                trickling = asyncio.create_task(trickle())
                assert await _closed(silent)
                assert await _closed(slow_r)
                trickling.cancel()
                wrong_r, wrong_w = await asyncio.open_connection(LOOPBACK, srv.port)
                wrong_w.write(b"GET /g/WRONG/ HTTP/1.1\r\nHost: x\r\n\r\n")
                assert (await wrong_r.readline()).split()[1] == b"404"
                assert await _closed(wrong_r)
                # the phone, trusted, was not closed: it still gets each command
                assert session.handle(STREAM[0])["ok"]
                assert int((await phone.next())["id"]) == srv.live.version
            assert srv.gate is not None
            for _ in range(1000):  # the closed ones have left the gate
                if len(srv.gate.open) <= 1:
                    break
                await asyncio.sleep(0.01)
            assert len(srv.gate.open) <= 1

    asyncio.run(main())


def test_connections_are_capped_per_address_and_in_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "PER_ADDRESS", 4)

    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            assert srv.gate is not None
            srv.gate.cap = 6
            mine = [await asyncio.open_connection(LOOPBACK, srv.port,
                                                  local_addr=("127.0.0.2", 0))
                    for _ in range(5)]
            assert await _closed(mine[4][0])  # the fifth from one address: closed at once
            others = [await asyncio.open_connection(LOOPBACK, srv.port,
                                                    local_addr=("127.0.0.3", 0))
                      for _ in range(3)]
            # at the cap of 6 the oldest stranger made room for the newest
            assert await _closed(mine[0][0])
            # and a phone still gets the page (it made room too, and once in, it is kept)
            r = await http.get(srv.url())
            assert r.status == 200
            for _, w in mine + others:
                w.close()

    asyncio.run(main())


def test_a_phone_that_goes_frees_its_slot_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "MAX_CLIENTS", 2)
    monkeypatch.setattr(web_server, "HEARTBEAT", 3600.0)  # no write to find it gone

    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            phones = [await http.get(srv.url() + "events") for _ in range(2)]
            for p in phones:
                await Events(p).next()
            assert (await http.get(srv.url() + "events")).status == 503
            phones[0].close()
            for _ in range(1000):
                if len(srv.live.clients) < 2:
                    break
                await asyncio.sleep(0.01)
            again = await http.get(srv.url() + "events")
            assert again.status == 200
            again.close()
            phones[1].close()

    asyncio.run(main())


def test_no_answer_names_the_server_and_a_bad_request_has_the_headers() -> None:
    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            for url in (srv.url(), srv.url() + "state.json", srv.url() + "nope"):
                r = await http.get(url)
                assert "Server" not in r.headers, url
            reader, writer = await asyncio.open_connection(LOOPBACK, srv.port)
            writer.write(b"G\x01T / HTTP/1.1\r\nHost: x\r\n\r\n")
            head = (await asyncio.wait_for(reader.read(65536), WAIT)).decode("latin-1")
            writer.close()
            assert head.split()[1] == "400"
            lines = {ln.split(":", 1)[0].lower(): ln.split(":", 1)[1].strip()
                     for ln in head.split("\r\n\r\n")[0].split("\r\n")[1:]}
            assert "server" not in lines
            for name, value in web_server.HEADERS.items():
                assert lines[name.lower()] == value, name

    asyncio.run(main())


async def _answer(port: int, request: bytes) -> tuple[str, dict[str, str], float]:
    """A raw request's status, headers and how long the server kept the connection open."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    loop = asyncio.get_running_loop()
    sent = loop.time()
    writer.write(request)
    data = b""
    with contextlib.suppress(ConnectionError):
        while chunk := await asyncio.wait_for(reader.read(65536), WAIT):
            data += chunk
    held = loop.time() - sent
    writer.close()
    head = data.decode("latin-1").split("\r\n\r\n")[0].split("\r\n")
    return head[0].split()[1], {ln.split(":", 1)[0].lower(): ln.split(":", 1)[1].strip()
                                for ln in head[1:]}, held


def test_a_connect_request_is_refused_with_the_headers_and_closed_at_once() -> None:
    """Issue 39: CONNECT (and a target that is no path, `OPTIONS *`) got aiohttp's own 404,
    without the page's security headers, and the connection stayed open until
    `HEAD_TIMEOUT` (10 s). Now: 405 / 404 as the page refuses, closed at once."""
    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv:
            token = srv.live.token.encode()
            for request, status in (
                    (b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                     "405"),
                    (b"CONNECT /g/" + token + b"/ HTTP/1.1\r\nHost: x\r\n\r\n", "405"),
                    (b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "404")):
                got, headers, held = await _answer(srv.port, request)
                assert got == status, request
                for name, value in web_server.HEADERS.items():
                    assert headers[name.lower()] == value, (request, name)
                assert "server" not in headers and headers["connection"] == "close"
                assert held < web_server.HEAD_TIMEOUT / 2, (request, held)
        assert session.log == []

    asyncio.run(main())


def test_the_connection_cap_fits_the_file_limit() -> None:
    reserve = web_server.FD_RESERVE + 2 * web_server.ACCEPT_BATCH
    assert web_server.connection_cap(512) == 512 - reserve
    assert web_server.connection_cap(1 << 20) == web_server.MAX_CONNECTIONS
    assert web_server.connection_cap(64) == 8


def test_more_phones_than_the_limit_get_503(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "MAX_CLIENTS", 3)

    async def main() -> None:
        session = Session(seed=SEED)
        async with serving(session) as srv, aiohttp.ClientSession() as http:
            phones = [await http.get(srv.url() + "events") for _ in range(3)]
            for p in phones:
                await Events(p).next()
            extra = await http.get(srv.url() + "events")
            assert extra.status == 503
            phones[0].close()
            # the page itself still loads
            assert (await http.get(srv.url())).status == 200

    asyncio.run(main())


def test_the_end_of_the_game_shows_the_seed_and_checks_every_roll(tmp_path: Path) -> None:
    async def main() -> None:
        session = open_session(db=tmp_path / "g.sqlite", seed=SEED)
        try:
            for request in STREAM[:40]:
                assert session.handle(request)["ok"]
            async with serving(session) as srv, aiohttp.ClientSession() as http:
                data = await (await http.get(srv.url() + "state.json")).json()
                assert data["proof"]["seed"] is None and data["proof"]["commitment"]
                assert session.handle({"cmd": "reveal"})["ok"]
                await asyncio.sleep(0)  # the refresh is queued on the loop
                await asyncio.sleep(0)
                data = await (await http.get(srv.url() + "state.json")).json()
                assert data["proof"]["seed"] == SEED.hex()
                assert data["proof"]["check"] == "good", data["proof"]["notes"]
                page = await (await http.get(srv.url())).text()
                assert "Check every roll: GOOD" in page
        finally:
            session.close()

    asyncio.run(main())


@pytest.mark.parametrize(("text", "expected"), [
    ("0.0.0.0:8080", ("0.0.0.0", 8080)), ("127.0.0.1:9000", ("127.0.0.1", 9000)),
    (":8081", ("0.0.0.0", 8081)), ("8082", ("0.0.0.0", 8082)),
    ("[::]:8083", ("::", 8083)), ("box.local", ("box.local", 8080)),
])
def test_listen_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_listen(text) == expected


@pytest.mark.parametrize("text", ["host:", "host:http", "host:0", "host:70000", "[::]:x"])
def test_a_bad_listen_address_is_refused_clearly(text: str) -> None:
    with pytest.raises(ListenError, match="ADDR:PORT"):
        parse_listen(text)


def test_the_settings_file_can_turn_the_page_on(tmp_path: Path) -> None:
    on = tmp_path / "on.toml"
    on.write_text('[web]\nlisten = "127.0.0.1:8099"\n')
    off = tmp_path / "off.toml"
    off.write_text("[rules]\n")
    bad = tmp_path / "bad.toml"
    bad.write_text("[web]\nlisten = 8080\n")
    assert listen_from(None, str(on)) == ("127.0.0.1", 8099)
    assert listen_from(None, str(off)) is None
    assert listen_from(None, None) is None
    assert listen_from("9000", str(on)) == ("0.0.0.0", 9000)  # the command line wins
    with pytest.raises(Exception, match=r"web\.listen"):
        listen_from(None, str(bad))
