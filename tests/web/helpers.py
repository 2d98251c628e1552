"""Running the page's server on loopback inside a test's own event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from web.server import WebServer

LOOPBACK = "127.0.0.1"
WAIT = 30.0  # a bound for "it never came" (a failure), not a duration under test


@asynccontextmanager
async def serving(session: Any) -> AsyncIterator[WebServer]:
    server = WebServer(session, LOOPBACK, 0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class Events:
    """One phone's server-sent event stream, read message by message."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> dict[str, str]:
        """The next event with data (comments and `retry` skipped): {id, event, data}."""
        while True:
            raw = await asyncio.wait_for(self.response.content.readuntil(b"\n\n"), WAIT)
            fields: dict[str, str] = {}
            data: list[str] = []
            for line in raw.decode().split("\n"):
                name, _, value = line.partition(": ")
                if name == "data":
                    data.append(value)
                elif name in ("id", "event"):
                    fields[name] = value
            if data:
                return {"event": "message", **fields, "data": "\n".join(data)}
