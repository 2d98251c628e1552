"""The web server: the page, its events and its JSON, on the front end's own asyncio loop.

aiohttp's `AppRunner` and `TCPSite` start inside a loop that is already running (Textual's,
for `referee run`), with no signal handlers of their own. Every URL carries the game's token
(`web.view.token_for`); any other path, a bad token, or a method other than GET/HEAD gets 404,
so nothing on the page can change the game and a stranger learns nothing. After each accepted
command (`Session.subscribe`) the page is rendered once and every connected phone is told; a
slow phone only ever gets the newest page (nothing queues up per client), and a phone that
(re)connects gets the current page at once.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from web import page
from web.view import Snapshots, token_for

log = logging.getLogger(__name__)

MAX_CLIENTS = 64  # live phones at once; more get 503 (a table has a handful)
HEARTBEAT = 15.0  # seconds between comment lines on an idle stream (finds dead phones)
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Content-Security-Policy": page.CSP}


@dataclass(eq=False)
class _Client:
    wake: asyncio.Event
    sent: int = -1


class LivePage:
    """The page's current content and who is watching it."""

    def __init__(self, session: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.session = session
        self.loop = loop
        self.version = 0
        self.clients: set[_Client] = set()
        self._snapshots = Snapshots()
        self._token_seed: bytes | None = None
        self.token = token_for(None)
        self._token_watchers: list[Callable[[str], None]] = []
        self._dirty = False
        self.data: dict[str, Any] = {}
        self.html = ""
        self.error: str | None = None  # why the page cannot be drawn now, or None
        self._logged: str | None = None
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
            self._token_seed = seed
            self.token = token_for(seed)
            for watcher in list(self._token_watchers):
                try:
                    watcher(self.token)
                except Exception:
                    log.exception("telling of the page's new address failed")
        try:
            data = self._snapshots.snapshot(self.session)
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

    def close(self) -> None:
        self._unsubscribe()
        for c in self.clients:
            c.wake.set()

    def good(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.token.encode())


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
    return web.Response(status=404, text="Not found.\n", headers=HEADERS)


def make_app(live: LivePage) -> web.Application:
    """The routes: the page, its events and its data, each under /g/<token>/."""
    app = web.Application(client_max_size=1024)

    def allowed(request: web.Request) -> bool:
        return request.method in ("GET", "HEAD") and live.good(request.match_info["token"])

    async def index(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        if live.error is not None:
            return _error_document(live)
        try:
            doc = page.document(live.data, events=f"/g/{live.token}/events",
                                version=live.version)
        except Exception as err:  # this page only: a 500, and the game goes on
            log.exception("the page for phones cannot be drawn")
            live.error = f"{type(err).__name__}: {err}"
            return _error_document(live)
        return web.Response(text=doc, content_type="text/html", headers=HEADERS)

    async def state(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        return web.Response(text=json.dumps({"version": live.version, **live.data}),
                            status=500 if live.error is not None else 200,
                            content_type="application/json", headers=HEADERS)

    async def events(request: web.Request) -> web.StreamResponse:
        if not allowed(request):
            return _not_found()
        if len(live.clients) >= MAX_CLIENTS:
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
            while live.good(request.match_info["token"]):
                try:
                    await asyncio.wait_for(client.wake.wait(), HEARTBEAT)
                except TimeoutError:
                    await resp.write(b": still here\n\n")
                    continue
                client.wake.clear()
                if client.sent == live.version:
                    continue
                client.sent = live.version
                lines = "".join(f"data: {ln}\n" for ln in live.html.split("\n"))
                await resp.write(f"id: {live.version}\n{lines}\n".encode())
            # a new game has a new token: this page's game is over for this phone
            await resp.write(b"event: gone\ndata: A new game has started: scan its code.\n\n")
        except ConnectionResetError:
            pass  # the phone went away
        finally:
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

    async def start(self) -> None:
        self.live = LivePage(self.session, asyncio.get_running_loop())
        self._runner = web.AppRunner(make_app(self.live), handle_signals=False,
                                     access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        inherited = systemd_socket()
        site: web.BaseSite
        if inherited is not None:  # the box: systemd's socket unit listens for us
            self.host, self.port = inherited.getsockname()[:2]
            site = web.SockSite(self._runner, inherited)
        else:
            site = web.TCPSite(self._runner, self.host, self.port, backlog=256,
                               reuse_address=True)
        await site.start()
        if self.port == 0:  # an ephemeral port (tests): which one we got
            server = getattr(site, "_server", None)
            sockets = getattr(server, "sockets", None) or []
            if sockets:
                self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self.live is not None:
            self.live.close()
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

    def code_url(self, host: str | None = None) -> str:
        """The same address in capitals, for QR codes: scheme and host are the same in any
        case, the server answers /G/ as /g/ and the token is capitals already; so the code
        uses QR's alphanumeric mode and has fewer, larger modules (`web.qr`)."""
        return self.url(host).upper()
