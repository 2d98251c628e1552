"""The club's page (`referee club --web ADDR:PORT`): every table live (its game, players,
whose turn, the last verdict, the box online or not), the evening's and the season's
standings per game, each finished game with its check and dice proof, and what was refused
from which box. Read-only, plain HTML from the club's file, on aiohttp (the `web` stack the
box's page uses); a new version is announced by server-sent events and the page fetches it.
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club.records import of_file
from club.standings import evening_start, standings
from club.store import ClubStore

STATIC = Path(__file__).parent / "static"
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'"}
CSS = ("body{font-family:sans-serif;margin:1em;background:#fafafa}table{border-collapse:"
       "collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
       ".off{color:#888}.bad{color:#b00;font-weight:bold}.good{color:#060}section{margin:1em 0}")


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


class Changes:
    """A version number bumped whenever the club's file changes (from any thread); each page
    stream waits on it without polling."""

    def __init__(self) -> None:
        self.version = 1
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def bump(self, *_: Any) -> None:
        with self._lock:
            self.version += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    def waiter(self) -> tuple[asyncio.Event, Callable[[], None]]:
        loop = asyncio.get_running_loop()
        item = (loop, asyncio.Event())
        with self._lock:
            self._waiters.append(item)

        def drop() -> None:
            with self._lock:
                self._waiters.remove(item)

        return item[1], drop


def body(store: ClubStore) -> str:
    """The page's content, from the club's file."""
    games = store.games()
    out = ["<section><h2>Tables</h2><table><tr><th>box</th><th>online</th><th>game</th>"
           "<th>players</th><th>whose turn</th><th>last verdict</th><th>commands</th></tr>"]
    for b in store.boxes():
        t = b["table"] or {}
        verdict = t.get("verdict") or {}
        out.append(
            f"<tr class='box{'' if b['online'] else ' off'}' data-box='{esc(b['box'])}'>"
            f"<td>{esc(b['box'])}</td><td>{'online' if b['online'] else 'offline'}</td>"
            f"<td>{esc(t.get('name'))}{' (over)' if t.get('over') else ''}</td>"
            f"<td>{esc(', '.join(t.get('players') or []))}</td>"
            f"<td class='turn'>{esc(t.get('current'))}</td>"
            f"<td>{esc(verdict.get('title'))}</td>"
            f"<td class='commands'>{esc(t.get('commands'))}</td></tr>")
    out.append("</table></section>")
    for title, since in (("Tonight", evening_start()), ("Season", None)):
        out.append(f"<section><h2>Standings: {title}</h2>")
        tables = standings(games, since=since)
        if not tables:
            out.append("<p>No finished, checked games yet.</p>")
        for t in tables:
            out.append(f"<h3>{esc(t.game)}</h3><table><tr><th>player</th><th>plays</th>"
                       "<th>wins</th><th>rating</th></tr>")
            out += [f"<tr><td>{esc(s.player)}</td><td>{s.plays}</td><td>{s.wins}</td>"
                    f"<td>{s.ordinal:.2f}</td></tr>" for s in t.rows]
            out.append("</table>")
        out.append("</section>")
    out.append("<section><h2>Games</h2><table><tr><th>box</th><th>game</th><th>players</th>"
               "<th>status</th><th>winner(s)</th><th>entries</th><th>check</th>"
               "<th>proof</th></tr>")
    for g in reversed(games):
        cls = {"good": "good", "tampered": "bad"}.get(g.check, "")
        check = {"good": "GOOD", "tampered": "TAMPERED", "pending": "not yet checkable"}[g.check]
        problems = "".join(f"<div>{esc(p)}</div>" for p in g.problems[:5])
        out.append(
            f"<tr class='game' data-box='{esc(g.box)}' data-game='{g.game}'>"
            f"<td>{esc(g.box)}</td><td>{esc(g.ruleset)} #{g.game}{esc(of_file(g))}</td>"
            f"<td>{esc(', '.join(g.players))}</td><td>{esc(g.status)}</td>"
            f"<td>{esc(', '.join((g.result or {}).get('winners') or []))}</td>"
            f"<td>{g.entries}</td><td class='{cls}'>{check}{problems}</td>"
            f"<td><code>{esc((g.commitment or '')[:16])}</code></td></tr>")
    out.append("</table></section>")
    refused = store.refused()
    if refused:
        out.append("<section><h2 class='bad'>Refused</h2><ul>")
        out += [f"<li>box {esc(r['box'])}, game {esc(r['game'])}, entry {esc(r['seq'])}: "
                f"{esc(r['reason'])}</li>" for r in refused[-20:]]
        out.append("</ul></section>")
    return "".join(out)


def make_app(path: str | Path, changes: Changes) -> Any:
    from aiohttp import web

    reader = ClubStore(path, readonly=True)

    async def index(request: web.Request) -> web.Response:
        v = changes.version
        text = (f"<!doctype html><html><head><meta charset='utf-8'><meta name='viewport' "
                f"content='width=device-width'><title>Club night</title><style>{CSS}</style>"
                f"</head><body data-version='{v}'><h1>Club night</h1><main id='club'>"
                f"{body(reader)}</main><script src='club.js'></script></body></html>")
        return web.Response(text=text, content_type="text/html", headers=HEADERS)

    async def fragment(request: web.Request) -> web.Response:
        return web.Response(text=body(reader), content_type="text/html", headers=HEADERS)

    async def script(request: web.Request) -> web.Response:
        return web.Response(text=(STATIC / "club.js").read_text(encoding="utf-8"),
                            content_type="application/javascript", headers=HEADERS)

    async def events(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await resp.prepare(request)
        event, drop = changes.waiter()
        try:  # (until the browser goes: writing then raises ConnectionResetError)
            sent = 0
            while True:
                if changes.version != sent:
                    sent = changes.version
                    await resp.write(f"data: {sent}\n\n".encode())
                try:
                    await asyncio.wait_for(event.wait(), 15)
                except TimeoutError:
                    await resp.write(b": idle\n\n")
                event.clear()
        except ConnectionResetError:
            return resp
        finally:
            drop()

    async def closed(app: web.Application) -> None:
        reader.close()

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/body", fragment)
    app.router.add_get("/club.js", script)
    app.router.add_get("/events", events)
    app.on_cleanup.append(closed)
    return app


def serve_page(path: str | Path, listen: str, stop: threading.Event,
               changes: Changes) -> None:
    """Serve the page until `stop` is set (on this thread's own asyncio loop)."""
    from aiohttp import web

    from web.listen import parse_listen

    host, port = parse_listen(listen)

    async def main() -> None:
        runner = web.AppRunner(make_app(path, changes))
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        print(f"referee club: the club's page is at http://{host}:{port}/", flush=True)
        try:
            while not stop.is_set():
                await asyncio.sleep(0.5)  # (the stop comes from a signal handler's thread)
        finally:
            await runner.cleanup()

    asyncio.run(main())
