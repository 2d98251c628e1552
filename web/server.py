"""The web server: the page, its events and its JSON, on the front end's own asyncio loop.

aiohttp's `AppRunner` and `TCPSite` start inside a loop that is already running (Textual's,
for `referee run`), with no signal handlers of their own. Every URL carries the game's token
(`web.view.token_for`); any other path, a bad token, or a method other than GET/HEAD gets 404
(a CONNECT 405), with the page's headers and the connection closed, so nothing on the page
can change the game and a stranger learns nothing. After each accepted
command (`Session.subscribe`) the page is rendered once and every connected phone is told; a
slow phone only ever gets the newest page (nothing queues up per client), and a phone that
(re)connects gets the current page at once.

A stranger cannot starve the page (issue 26): every connection is admitted by a `Gate` (at
most `PER_ADDRESS` from one address, at most `connection_cap()` in all, derived from the
process's file limit; at the cap the oldest connection that has not yet asked with a good
token makes room). A connection must ask with a good token within `HEAD_TIMEOUT` of opening,
or it is closed (a request head trickled a line at a time included); a wrong-token answer
closes its connection; a phone's idle keep-alive connection closes after `KEEPALIVE`. A phone's
stream gives its slot back the moment the phone goes (the handler is cancelled on the lost
connection). No answer names the server, and aiohttp's own answers to malformed requests carry
the page's security headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import json
import logging
import resource
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import hdrs, web
from aiohttp.web_protocol import RequestHandler

from web import archive, page
from web.view import Snapshots, token_for

log = logging.getLogger(__name__)

MAX_CLIENTS = 64  # live phones at once; more get 503 (a table has a handful)
HEARTBEAT = 15.0  # seconds between comment lines on an idle stream (finds dead phones)
HEAD_TIMEOUT = 10.0  # seconds a new connection has to ask for a page with a good token
KEEPALIVE = 20.0  # seconds a phone's idle keep-alive connection stays open
PER_ADDRESS = 32  # connections at once from one address (a phone opens a few)
MAX_CONNECTIONS = 768  # connections at once in all, whatever the file limit
FD_RESERVE = 128  # file descriptors kept for the rest of the box (game file, tray, logs)
ACCEPT_BATCH = 32  # connections asyncio accepts in one go (each may overshoot the cap)
LISTEN_QUEUE = 1024  # the kernel's queue of connections not yet accepted
SWEEP_EVERY = 0.25  # seconds between looks for connections past HEAD_TIMEOUT
SWEEP_BATCH = 32  # late connections closed in one go (then the loop runs on)
REFUSED_LOG_EVERY = 60.0  # seconds between two log lines about refused connections
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Content-Security-Policy": page.CSP}


def connection_cap(soft_limit: int | None = None) -> int:
    """How many connections the page takes at once: `MAX_CONNECTIONS`, or fewer so that they
    and `FD_RESERVE` fit in the process's file limit (``RLIMIT_NOFILE``, soft)."""
    if soft_limit is None:
        soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft_limit == resource.RLIM_INFINITY:
            soft_limit = MAX_CONNECTIONS + FD_RESERVE
    return max(8, min(MAX_CONNECTIONS, soft_limit - FD_RESERVE - 2 * ACCEPT_BATCH))


class Gate:
    """Which connections are open, by address and in all, oldest first."""

    def __init__(self, cap: int | None = None, per_address: int | None = None) -> None:
        self.cap = connection_cap() if cap is None else cap
        self.per_address = PER_ADDRESS if per_address is None else per_address
        self.open: dict[_Door, None] = {}  # in the order they came
        self.by_address: dict[str, int] = {}
        self._sweeping: asyncio.Handle | None = None
        self.refusals = 0  # connections refused, or closed to make room, in all
        self._since = 0  # of them, since the log last said so
        self._said = -REFUSED_LOG_EVERY

    def admit(self, door: _Door) -> bool:
        """Let `door` in, making room at the cap by closing the oldest connection that has not
        asked with a good token; False: it must be closed."""
        if self.by_address.get(door.address, 0) >= self.per_address:
            self.refused(door.address, f"more than {self.per_address} from one address")
            return False
        if len(self.open) >= self.cap:
            oldest = next((c for c in self.open if not c.trusted), None)
            if oldest is None:
                self.refused(door.address, f"{self.cap} connections open, all in use")
                return False
            self.refused(oldest.address, f"{self.cap} connections open (the oldest that "
                         "had not asked for a page closed)")
            oldest.drop()
        self.open[door] = None
        self.by_address[door.address] = self.by_address.get(door.address, 0) + 1
        if self._sweeping is None:
            self._sweeping = asyncio.get_running_loop().call_later(SWEEP_EVERY, self._sweep)
        return True

    def refused(self, address: str, why: str) -> None:
        """A connection refused or closed to make room: said in the log at once the first
        time, then at most once every `REFUSED_LOG_EVERY` seconds with how many there were
        (a flood of strangers is a line a minute, never a line, nor a traceback, each)."""
        self.refusals += 1
        self._since += 1
        now = asyncio.get_running_loop().time()
        if now - self._said < REFUSED_LOG_EVERY:
            return
        log.warning("the page refused %d connection%s (the last from %s: %s); said at "
                    "most once every %.0f s", self._since, "" if self._since == 1 else "s",
                    address, why, REFUSED_LOG_EVERY)
        self._said, self._since = now, 0

    def _sweep(self) -> None:
        """Close the connections that did not ask with a good token within `HEAD_TIMEOUT`,
        oldest first, `SWEEP_BATCH` at a time: a thousand strangers that came together and
        expire together never hold up the game's loop for more than one small batch."""
        self._sweeping = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        late: list[_Door] = []
        more = False
        for door in self.open:  # in the order they came: the late ones first
            if door.trusted:
                continue
            if now - door.opened < HEAD_TIMEOUT:
                break
            if len(late) == SWEEP_BATCH:
                more = True
                break
            late.append(door)
        for door in late:
            door.drop()
        if more:
            self._sweeping = loop.call_soon(self._sweep)
        elif self.open:
            self._sweeping = loop.call_later(SWEEP_EVERY, self._sweep)

    def close(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
            self._sweeping = None

    def leave(self, door: _Door) -> None:
        if door in self.open:
            del self.open[door]
            left = self.by_address.get(door.address, 1) - 1
            if left:
                self.by_address[door.address] = left
            else:
                self.by_address.pop(door.address, None)


class _Door(asyncio.Protocol):
    """A connection as the `Gate` sees it. Until its first byte nothing of aiohttp is made for
    it (a silent stranger costs a socket and a timer); then aiohttp's handler takes the
    connection over. Unless it asks with a good token (`trust`) within `HEAD_TIMEOUT` of
    opening, the gate's sweep closes it."""

    def __init__(self, gate: Gate, handler: Callable[[], _Guarded]) -> None:
        self.gate = gate
        self._handler = handler
        self.trusted = False
        self.address = "?"
        self._transport: asyncio.Transport | None = None
        self.opened = 0.0
        self._inner: _Guarded | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.opened = asyncio.get_running_loop().time()
        if not self.gate.admit(self):
            transport.abort()

    def data_received(self, data: bytes) -> None:
        assert self._transport is not None
        if self._transport.is_closing():
            return
        inner = self._inner = self._handler()
        inner.door = self
        self._transport.set_protocol(inner)
        inner.connection_made(self._transport)
        inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None  # close

    def connection_lost(self, exc: BaseException | None) -> None:
        self.left()

    def left(self) -> None:
        self.gate.leave(self)

    def drop(self) -> None:
        """Close at once (the file descriptor is freed now, not after a lingering close)."""
        self.left()
        if self._transport is not None and not self._transport.is_closing():
            self._transport.abort()

    def trust(self) -> None:
        self.trusted = True


class _Guarded(RequestHandler):
    """aiohttp's connection handler, behind a `_Door`."""

    door: _Door

    def connection_lost(self, exc: BaseException | None) -> None:
        self.door.left()
        super().connection_lost(exc)

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        """aiohttp's own answer to a request it cannot read (a 400, ...), with the page's
        headers and without the server's name."""
        theirs = super().handle_error(request, status, exc, message)
        body = theirs.body if isinstance(theirs, web.Response) else b""
        ours = _Nameless(status=theirs.status, body=body if isinstance(body, bytes) else b"",
                         content_type="text/plain", headers=HEADERS)
        ours.force_close()
        return ours


class _Nameless(web.Response):
    """A response that does not name the server (aiohttp adds ``Server`` to every response;
    the page's own routes drop it in `_nameless`, but answers to unreadable requests run
    no application hooks)."""

    async def _prepare_headers(self) -> None:
        await super()._prepare_headers()
        self.headers.popall(hdrs.SERVER, None)


async def _nameless(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.popall(hdrs.SERVER, None)


def nameless(app: web.Application) -> web.Application:
    """`app`'s answers name no server (no ``Server`` header); returns `app`."""
    app.on_response_prepare.append(_nameless)
    return app


def trust(request: web.Request) -> None:
    """The connection of `request` asked for a page it may have: off `HEAD_TIMEOUT`, never
    closed to make room at the cap (see `Gate`)."""
    _trust(request)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio says an ``accept()`` that failed for want of file descriptors with a traceback,
    each time (a thousand a minute under a flood): said once every `REFUSED_LOG_EVERY`
    seconds instead, in one line. Every other error goes to the loop's handler as before."""
    before = loop.get_exception_handler()
    said = [-REFUSED_LOG_EVERY, 0]

    def handler(lp: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if "out of system resource" not in str(context.get("message", "")):
            if before is not None:
                before(lp, context)
            else:
                lp.default_exception_handler(context)
            return
        said[1] += 1
        if lp.time() - said[0] >= REFUSED_LOG_EVERY:
            log.warning("could not accept %d connection%s: %s (the file limit; the "
                        "listener pauses and tries again)", said[1],
                        "" if said[1] == 1 else "s", context.get("exception"))
            said[0], said[1] = lp.time(), 0

    loop.set_exception_handler(handler)


async def serve_guarded(runner: web.AppRunner, host: str, port: int,
                        sock: socket.socket | None = None) -> tuple[asyncio.Server, Gate,
                                                                     socket.socket]:
    """Serve `runner`'s application on `host:port` (or on the listening `sock`) behind a
    `Gate`: per-address and total limits under the file limit, the request head's and idle
    timeouts, no access log, no traceback per refused connection. The box's page and the
    club's page (club.page) both listen through here. Returns the listener, its gate and
    its socket."""
    loop = asyncio.get_running_loop()
    quiet_accept_errors(loop)
    manager = runner.server
    assert manager is not None
    gate = Gate()

    def handler() -> _Guarded:
        no_log: Any = None  # no access log (aiohttp's type says Logger; None turns it off)
        return _Guarded(manager, loop=loop, access_log=no_log, keepalive_timeout=KEEPALIVE)

    def door() -> _Door:
        return _Door(gate, handler)

    if sock is None:
        sock = socket.create_server((host, port), family=(
            socket.AF_INET6 if ":" in host else socket.AF_INET), reuse_port=False)
        sock.setblocking(False)
    # asyncio accepts up to `backlog` connections in one go before any is looked at: a small
    # batch keeps a flood from holding up the loop (and from overshooting the file limit),
    # while the kernel's queue stays long so no phone's SYN is dropped
    listener = await loop.create_server(door, sock=sock, backlog=ACCEPT_BATCH)
    sock.listen(LISTEN_QUEUE)
    return listener, gate, sock


@dataclass(eq=False)
class _Client:
    wake: asyncio.Event
    sent: int = -1


PAST_PAGES = 16  # past games' pages kept drawn (each rebuilt from the file on first ask)


class LivePage:
    """The page's current content and who is watching it, and the addresses it answers: the
    box's front address (`front`, the address before any game: always the game being
    played), the current game's (`token`), and each past game's for as long as the game file
    has it (`web.archive`; without a file, the games of this run)."""

    def __init__(self, session: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.session = session
        self.loop = loop
        self.version = 0
        self.clients: set[_Client] = set()
        self._snapshots = Snapshots()
        self._token_seed: bytes | None = None
        self.front = token_for(None)
        self.token = self.front
        self._token_watchers: list[Callable[[str], None]] = []
        self._dirty = False
        self.data: dict[str, Any] = {}
        self.html = ""
        self.error: str | None = None  # why the page cannot be drawn now, or None
        self._logged: str | None = None
        self._past: dict[str, archive.PastGame] = archive.index(session.store)
        self._drawn: dict[str, tuple[dict[str, Any], str]] = {}  # past pages, newest last
        self.refresh()
        self._unsubscribe = session.subscribe(self._changed)

    def on_token(self, callback: Callable[[str], None]) -> None:
        """Call `callback(token)` whenever the token changes (a new game)."""
        self._token_watchers.append(callback)

    def _changed(self, outcome: Any) -> None:
        """A command was accepted (on whatever thread applied it): refresh on the loop, once
        for any number of commands in a row."""
        if not self._dirty:
            self._dirty = True
            self.loop.call_soon_threadsafe(self.refresh)

    def refresh(self) -> None:
        """Gather and draw the page again. Never raises: a page that cannot be drawn (a bug,
        a state it did not expect) becomes an error section and a 500 for the page alone,
        logged once; the game, the console and the box go on."""
        self._dirty = False
        seed = self.session.seed
        if seed is not None and seed != self._token_seed:
            left = self.token if self._token_seed is not None else None
            self._token_seed = seed
            self.token = token_for(seed)
            self._past = archive.index(self.session.store)
            if left is not None and left not in self._past and self.error is None:
                # no file: this run's last look at the game left
                status = "over" if self.data.get("over") else "abandoned"
                data = {**self.data, "past": {"status": status, "front": f"/g/{self.front}/"}}
                with contextlib.suppress(Exception):
                    self._keep(left, data, page.body(data))
            for watcher in list(self._token_watchers):
                try:
                    watcher(self.token)
                except Exception:
                    log.exception("telling of the page's new address failed")
        try:
            data = self._snapshots.snapshot(self.session)
            if self._token_seed is not None:
                data["own"] = f"/g/{self.token}/"  # this game's own page, kept after it
            body = page.body(data)
        except Exception as err:
            self.error = f"{type(err).__name__}: {err}"
            if self.error != self._logged:  # once, not on every command
                self._logged = self.error
                log.exception("the page for phones cannot be drawn; the game goes on")
            data, body = {"error": self.error}, error_section(self.error)
        else:
            self.error = None
        self.data, self.html = data, body
        self.version += 1
        for c in self.clients:
            c.wake.set()

    def _keep(self, token: str, data: dict[str, Any], body: str) -> None:
        self._drawn.pop(token, None)
        self._drawn[token] = (data, body)
        while len(self._drawn) > PAST_PAGES:
            del self._drawn[next(iter(self._drawn))]

    def close(self) -> None:
        self._unsubscribe()
        for c in self.clients:
            c.wake.set()

    def is_live(self, token: str) -> bool:
        """Whether `token` shows the game being played: the front address or its own."""
        return any(hmac.compare_digest(token.encode(), t.encode())
                   for t in (self.front, self.token))

    def is_past(self, token: str) -> bool:
        return not self.is_live(token) and (token in self._past or token in self._drawn)

    def good(self, token: str) -> bool:
        return self.is_live(token) or self.is_past(token)

    async def past(self, token: str) -> tuple[dict[str, Any], str] | None:
        """A past game's page (data, body), drawn once (in a thread: it reads the file);
        None if the address is no game's (any more)."""
        if token in self._drawn:
            self._drawn[token] = self._drawn.pop(token)  # the newest
            return self._drawn[token]
        game = self._past.get(token)
        if game is None:
            return None
        store = self.session.store
        try:
            data = await asyncio.to_thread(archive.snapshot, store, game)
            data["past"]["front"] = f"/g/{self.front}/"
            body = page.body(data)
        except Exception:
            log.exception("the page of a past game cannot be drawn")
            return None
        self._keep(token, data, body)
        return data, body


def error_section(what: str) -> str:
    """The page's live part when it cannot be drawn: what failed, and that the game goes on."""
    return ("<section class='error'><h2>This page cannot be drawn</h2>"
            f"<p>{html.escape(what)}</p><p>The game goes on at the table; this page comes "
            "back by itself once it can be drawn.</p></section>")


def _error_document(live: LivePage) -> web.Response:
    doc = ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
           "<meta name='viewport' content='width=device-width, initial-scale=1'>"
           "<title>Tableside Referee</title></head><body>"
           f"{error_section(live.error or '')}</body></html>")
    return web.Response(status=500, text=doc, content_type="text/html", headers=HEADERS)


def _not_found() -> web.Response:
    """404, and the connection closes: a stranger keeps nothing open."""
    resp = web.Response(status=404, text="Not found.\n", headers=HEADERS)
    resp.force_close()
    return resp


def _not_allowed() -> web.Response:
    """405 for a CONNECT (the page is no proxy), with the page's headers; the connection
    closes."""
    resp = web.Response(status=405, text="Not allowed.\n",
                        headers={**HEADERS, "Allow": "GET, HEAD"})
    resp.force_close()
    return resp


@web.middleware
async def _refused(request: web.Request, handler: Callable[[web.Request], Any]) -> Any:
    """Requests no route of the page takes are refused as the page refuses (its headers, the
    connection closed), never with aiohttp's own answer: a CONNECT is 405; a target that is
    no path (`example.com:443`, `*`), where the router answers 404 itself, is 404."""
    if request.method == hdrs.METH_CONNECT:
        return _not_allowed()
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status == 404:
            return _not_found()
        ours = web.Response(status=exc.status, text=f"{exc.reason}.\n", headers=HEADERS)
        ours.force_close()
        return ours


def _message(version: int, body: str) -> bytes:
    lines = "".join(f"data: {ln}\n" for ln in body.split("\n"))
    return f"id: {version}\n{lines}\n".encode()


def _trust(request: web.Request) -> None:
    """The connection asked with a good token: a phone's, no longer on `HEAD_TIMEOUT`."""
    proto = request.protocol
    if isinstance(proto, _Guarded):
        proto.door.trust()


def make_app(live: LivePage) -> web.Application:
    """The routes: the page, its events and its data, each under /g/<token>/."""
    app = nameless(web.Application(client_max_size=1024, middlewares=[_refused]))

    def allowed(request: web.Request) -> bool:
        if request.method in ("GET", "HEAD") and live.good(request.match_info["token"]):
            _trust(request)
            return True
        return False

    async def index(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        token = request.match_info["token"]
        events = f"/g/{token}/events"
        if live.is_past(token):
            past = await live.past(token)
            if past is None:
                return _not_found()
            doc = page.document(past[0], events=events, version=0, drawn=past[1])
            return web.Response(text=doc, content_type="text/html", headers=HEADERS)
        if live.error is not None:
            return _error_document(live)
        try:
            doc = page.document(live.data, events=events, version=live.version)
        except Exception as err:  # this page only: a 500, and the game goes on
            log.exception("the page for phones cannot be drawn")
            live.error = f"{type(err).__name__}: {err}"
            return _error_document(live)
        return web.Response(text=doc, content_type="text/html", headers=HEADERS)

    async def state(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        token = request.match_info["token"]
        if live.is_past(token):
            past = await live.past(token)
            if past is None:
                return _not_found()
            return web.Response(text=json.dumps({"version": 0, **past[0]}),
                                content_type="application/json", headers=HEADERS)
        return web.Response(text=json.dumps({"version": live.version, **live.data}),
                            status=500 if live.error is not None else 200,
                            content_type="application/json", headers=HEADERS)

    async def events(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        token = request.match_info["token"]
        if live.is_live(token) and len(live.clients) >= MAX_CLIENTS:
            return web.Response(status=503, text="Too many phones connected.\n",
                                headers={**HEADERS, "Retry-After": "10"})
        resp = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        client = _Client(asyncio.Event())
        client.wake.set()  # the current page at once
        live.clients.add(client)
        try:
            await resp.write(b"retry: 1000\n\n")
            while live.is_live(token):
                try:
                    await asyncio.wait_for(client.wake.wait(), HEARTBEAT)
                except TimeoutError:
                    await resp.write(b": still here\n\n")
                    continue
                client.wake.clear()
                if client.sent == live.version or not live.is_live(token):
                    continue
                client.sent = live.version
                await resp.write(_message(live.version, live.html))
            # this address's game is no longer played: its page as it ended, and the note
            live.clients.discard(client)
            past = await live.past(token)
            if past is not None:
                await resp.write(_message(0, past[1]))
            await resp.write(b"event: gone\ndata: A new game has started. This page keeps "
                             b"this game's result and dice proof; the box's page shows the "
                             b"new game.\n\n")
        except ConnectionResetError:
            pass  # the phone went away
        finally:  # also when the lost connection cancels this handler: the slot is free now
            live.clients.discard(client)
        return resp

    async def anything(request: web.Request) -> web.StreamResponse:
        return _not_found()

    for g in ("g", "G"):  # /G/: the upper-case form of the address in the QR code
        for path in (f"/{g}/{{token}}", f"/{g}/{{token}}/"):
            app.router.add_route("*", path, index)
        app.router.add_route("*", f"/{g}/{{token}}/events", events)
        app.router.add_route("*", f"/{g}/{{token}}/state.json", state)
    app.router.add_route("*", "/{tail:.*}", anything)
    return app


def lan_address() -> str | None:
    """An address of this machine other phones may reach (no packet is sent to find it)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    found = [str(i[4][0]) for i in infos if not str(i[4][0]).startswith("127.")]
    return found[0] if found else None


SD_LISTEN_FDS_START = 3


def systemd_socket(environ: dict[str, str] | None = None) -> socket.socket | None:
    """The listening socket systemd passed us (socket activation: `LISTEN_PID` is this
    process, `LISTEN_FDS` >= 1), or None. On the box the service itself may create no
    Internet socket and has no network of its own (systemd/tableside-referee-web.socket)."""
    import os

    env = os.environ if environ is None else environ
    if env.get("LISTEN_PID") != str(os.getpid()) or int(env.get("LISTEN_FDS", "0") or 0) < 1:
        return None
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        env.pop(name, None)  # not for child processes
    sock = socket.socket(fileno=SD_LISTEN_FDS_START)
    sock.setblocking(False)
    return sock


class WebServer:
    """The page served on `host:port` from the running loop, for as long as it runs."""

    def __init__(self, session: Any, host: str, port: int) -> None:
        self.session = session
        self.host, self.port = host, port
        self.live: LivePage | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.base_events.Server | None = None
        self.gate: Gate | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.live = LivePage(self.session, loop)
        self._runner = web.AppRunner(make_app(self.live), handle_signals=False,
                                     access_log=None, shutdown_timeout=1.0,
                                     handler_cancellation=True)
        await self._runner.setup()
        sock = systemd_socket()
        if sock is not None:  # the box: systemd's socket unit listens for us
            self.host, self.port = sock.getsockname()[:2]
        self._listener, self.gate, sock = await serve_guarded(self._runner, self.host,
                                                              self.port, sock)
        self.port = int(sock.getsockname()[1])

    async def stop(self) -> None:
        if self.live is not None:
            self.live.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self.gate is not None:
            self.gate.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def url(self, host: str | None = None) -> str:
        """The page's address with its token, for the QR code."""
        if self.live is None:
            raise RuntimeError("WebServer.url before start()")
        if host is None:
            host = self.host
            if host in ("0.0.0.0", "::", ""):
                host = lan_address() or socket.gethostname()
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/g/{self.live.token}/"

    def front_url(self, host: str | None = None) -> str:
        """The box's front address: the one shown before any game, which always leads to
        the game being played (a game's own address, `url`, keeps that game's page)."""
        if self.live is None:
            raise RuntimeError("WebServer.front_url before start()")
        return self.url(host).replace(f"/g/{self.live.token}/", f"/g/{self.live.front}/")

    def code_url(self, host: str | None = None) -> str:
        """The same address in capitals, for QR codes: scheme and host are the same in any
        case, the server answers /G/ as /g/ and the token is capitals already; so the code
        uses QR's alphanumeric mode and has fewer, larger modules (`web.qr`)."""
        return self.url(host).upper()
