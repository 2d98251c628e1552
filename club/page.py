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
from referee.words import corrected

STATIC = Path(__file__).parent / "static"
PAGE_REFUSED = 20  # refused messages shown (the newest)
PAGE_BOXES = 100  # boxes shown with their count of refused messages (most first)
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'"}
CSS = ("body{font-family:sans-serif;margin:1em;background:#fafafa;color:#111}"
       "table{border-collapse:collapse;margin:.5em 0}"
       "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
       "td.n{text-align:right}.off{color:#777}.bad{color:#b00;font-weight:bold}"
       ".good{color:#060;font-weight:bold}section{margin:1em 0}h3{margin:.8em 0 .2em}"
       "code{font-size:.85em;overflow-wrap:anywhere}.proof{color:#333;font-size:.9em}"
       ".proof div{margin:.1em 0}.corrected{color:#950;font-weight:normal}"
       # (a box id such as table-7 is one word: not broken at its hyphen in a narrow column)
       "td[data-label=box]{white-space:nowrap}"
       # a narrow screen: each row of the wide tables becomes a card, its cells labelled
       "@media (max-width:40em){table.cards,table.cards tbody,table.cards tr,"
       "table.cards td{display:block}table.cards thead{display:none}"
       "table.cards tr{border:1px solid #ccc;margin:0 0 .6em;padding:.3em;background:#fff}"
       "table.cards td{border:0;padding:.1em 0}"
       "table.cards td::before{content:attr(data-label) ': ';color:#666}"
       "table.cards td.n{text-align:left}}")


def game_name(ruleset: str | None) -> str:
    """A game's name for people ("Gallery Grippers"); its id if this referee does not know
    it."""
    from referee import games
    from referee.errors import BadRequest

    if not ruleset:
        return "?"
    try:
        return games.find(ruleset).name
    except BadRequest:
        return ruleset


def _head(*labels: str) -> str:
    return "<thead><tr>" + "".join(f"<th>{esc(x)}</th>" for x in labels) + "</tr></thead>"


def _cell(label: str, content: str, cls: str = "") -> str:
    """A cell already escaped, with its column's name (shown beside it on a narrow screen)."""
    classes = f" class='{cls}'" if cls else ""
    return f"<td data-label='{esc(label)}'{classes}>{content}</td>"


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
    out = ["<section><h2>Tables</h2><table class='cards tables'>",
           _head("box", "online", "game", "players", "whose turn", "last verdict",
                 "commands"), "<tbody>"]
    for b in store.boxes():
        t = b["table"] or {}
        verdict = t.get("verdict") or {}
        turn = t.get("next") if t.get("over") else t.get("current")  # (over: who won)
        online = ("revoked" if b["revoked_at"] else "online" if b["online"] else "offline")
        if b["refused"]:  # (a misbehaving box is named: how many of its messages were refused)
            online += f" <span class='bad'>{b['refused']} refused</span>"
        out.append(
            f"<tr class='box{'' if b['online'] else ' off'}' data-box='{esc(b['box'])}'>"
            + _cell("box", esc(b["box"]))
            + _cell("online", online)
            + _cell("game", esc(t.get("name")) + (" (over)" if t.get("over") else ""))
            + _cell("players", esc(", ".join(t.get("players") or [])))
            + _cell("whose turn", esc(turn), "turn")
            + _cell("last verdict", esc(verdict.get("title")))
            + _cell("commands", esc(t.get("commands")), "commands n") + "</tr>")
    out.append("</tbody></table></section>")
    for title, since in (("Tonight", evening_start()), ("Season", None)):
        out.append(f"<section class='standings'><h2>Standings: {title}</h2>")
        tables = standings(games, since=since)
        if not tables:
            out.append("<p>No finished, checked games yet.</p>")
        for t in tables:
            out.append(f"<h3>{esc(game_name(t.game))}</h3><table class='standings' "
                       f"data-game='{esc(t.game)}'>" + _head("player", "plays", "wins", "rating")
                       + "<tbody>")
            out += [f"<tr><td>{esc(s.player)}</td><td class='n'>{s.plays}</td>"
                    f"<td class='n'>{s.wins}</td><td class='n'>{s.ordinal:.2f}</td></tr>"
                    for s in t.rows]
            out.append("</tbody></table>")
        out.append("</section>")
    out.append("<section><h2>Games</h2><table class='cards games'>"
               + _head("box", "game", "players", "status", "winner(s)", "entries", "check",
                       "dice proof") + "<tbody>")
    for g in reversed(games):
        cls = {"good": "good", "tampered": "bad"}.get(g.check, "")
        check = {"good": "GOOD", "tampered": "TAMPERED", "pending": "not yet checkable"}[g.check]
        problems = "".join(f"<div>{esc(p)}</div>" for p in g.problems[:5])
        if g.corrections:  # legal, and public (issue 39): said beside the check
            problems += f"<div class='corrected'>{esc(corrected(g.corrections))}</div>"
        seed = store.seed(g.box, g.game) if g.commitment else None
        proof = (f"<div>commitment <code>{esc(g.commitment)}</code></div>"
                 if g.commitment else "")
        proof += (f"<div>seed <code>{esc(seed)}</code></div>" if seed else
                  "<div>seed not revealed yet</div>" if g.commitment else "")
        if seed and g.check == "good":
            proof += "<div>every roll follows from this seed</div>"
        out.append(
            f"<tr class='game' data-box='{esc(g.box)}' data-game='{g.game}'>"
            + _cell("box", esc(g.box))
            + _cell("game", f"{esc(game_name(g.ruleset))} #{g.game}{esc(of_file(g))}")
            + _cell("players", esc(", ".join(g.players)))
            + _cell("status", esc(g.status))
            + _cell("winner(s)", esc(", ".join((g.result or {}).get("winners") or [])))
            + _cell("entries", str(g.entries), "n")
            + _cell("check", check + problems, cls)
            + _cell("dice proof", proof, "proof") + "</tr>")
    out.append("</tbody></table></section>")
    # (what was refused costs the page the same however much it was: a count per box and
    # the last few messages, issue 40)
    counts = store.refusals()
    if counts:
        out.append("<section class='refused'><h2 class='bad'>Refused</h2><table class='cards "
                   "refusals'>" + _head("box", "refused", "last") + "<tbody>")
        out += [f"<tr data-box='{esc(r['box'])}'>" + _cell("box", esc(r["box"]))
                + _cell("refused", str(r["count"]), "n bad") + _cell("last", esc(r["last_at"]))
                + "</tr>" for r in counts[:PAGE_BOXES]]
        out.append("</tbody></table><ul>")
        out += [f"<li>box {esc(r['box'])}, game {esc(r['game'])}, entry {esc(r['seq'])}: "
                f"{esc(r['reason'])}</li>" for r in store.refused(last=PAGE_REFUSED)]
        out.append("</ul></section>")
    return "".join(out)


def make_app(path: str | Path, changes: Changes) -> Any:
    """The page's routes; its answers name no server. Each route's request marks its
    connection as a reader's (`web.server.trust`): behind `serve_page`'s gate only
    connections that never asked for a page are closed to make room."""
    from aiohttp import web

    from web.server import nameless, trust

    reader = ClubStore(path, readonly=True)

    async def index(request: web.Request) -> web.Response:
        trust(request)
        v = changes.version
        text = (f"<!doctype html><html><head><meta charset='utf-8'><meta name='viewport' "
                f"content='width=device-width, initial-scale=1'><title>Club night</title>"
                f"<style>{CSS}</style>"
                f"</head><body data-version='{v}'><h1>Club night</h1><main id='club'>"
                f"{body(reader)}</main><script src='club.js'></script></body></html>")
        return web.Response(text=text, content_type="text/html", headers=HEADERS)

    async def fragment(request: web.Request) -> web.Response:
        trust(request)
        return web.Response(text=body(reader), content_type="text/html", headers=HEADERS)

    async def script(request: web.Request) -> web.Response:
        trust(request)
        return web.Response(text=(STATIC / "club.js").read_text(encoding="utf-8"),
                            content_type="application/javascript", headers=HEADERS)

    async def events(request: web.Request) -> web.StreamResponse:
        trust(request)
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

    app = nameless(web.Application(client_max_size=1024))
    app.router.add_get("/", index)
    app.router.add_get("/body", fragment)
    app.router.add_get("/club.js", script)
    app.router.add_get("/events", events)
    app.on_cleanup.append(closed)
    return app


def serve_page(path: str | Path, listen: str, stop: threading.Event,
               changes: Changes) -> None:
    """Serve the page until `stop` is set (on this thread's own asyncio loop), behind the
    box's page's defences (`web.server.serve_guarded`: per-address and total limits under
    the file limit, with room kept for the broker's connection; the request head's and idle
    timeouts; a refused connection said once a minute, never a traceback each)."""
    from aiohttp import web

    from web.listen import parse_listen
    from web.server import serve_guarded

    host, port = parse_listen(listen)

    async def main() -> None:
        runner = web.AppRunner(make_app(path, changes), handle_signals=False,
                               access_log=None, shutdown_timeout=1.0,
                               handler_cancellation=True)
        await runner.setup()
        listener, gate, sock = await serve_guarded(runner, host, port)
        port_now = sock.getsockname()[1]
        print(f"referee club: the club's page is at http://{host}:{port_now}/", flush=True)
        try:
            while not stop.is_set():
                await asyncio.sleep(0.5)  # (the stop comes from a signal handler's thread)
        finally:
            listener.close()
            gate.close()
            await runner.cleanup()

    asyncio.run(main())
