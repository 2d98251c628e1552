"""Headless Chromium (Debian's package) driven over the DevTools protocol with aiohttp's
websocket client: a page, its viewport, scripts evaluated in it, screenshots. Only loopback."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

WAIT = 30.0  # a bound for "it never came" (a failure), not a duration under test


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium and one page in it."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="referee-chromium-")
        self._proc: subprocess.Popen[bytes] | None = None
        self._http: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Browser:
        exe = chromium()
        if exe is None:
            raise RuntimeError("no chromium: apt-get install chromium (.ci/run does)")
        profile = Path(self._dir.name)
        self._proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--force-color-profile=srgb", "--font-render-hinting=none",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)  # its helpers in its own group, ended with it
        port_file = profile / "DevToolsActivePort"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while not port_file.exists() or len(port_file.read_text().splitlines()) < 2:
            if loop.time() > deadline or self._proc.poll() is not None:
                raise RuntimeError("chromium did not start its DevTools endpoint")
            await asyncio.sleep(0.05)  # waiting for another process's file: a bounded poll
        port = int(port_file.read_text().splitlines()[0])
        self._http = aiohttp.ClientSession()
        targets = await (await self._http.get(f"http://127.0.0.1:{port}/json/list")).json()
        page = next(t for t in targets if t.get("type") == "page")
        self._ws = await self._http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        await self.send("Page.enable")
        await self.send("Runtime.enable")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._http is not None:
            await self._http.close()
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            # Chromium's helper processes (crash handler, utility) can outlive the browser
            # for a moment and still write into the profile: end the group we started.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
        for attempt in range(50):
            try:
                self._dir.cleanup()
                break
            except OSError:  # a helper's last file appeared while removing: again
                if attempt == 49:
                    raise
                await asyncio.sleep(0.02)

    async def _read(self) -> None:
        assert self._ws is not None
        async for msg in self._ws:
            data = json.loads(msg.data)
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        assert self._ws is not None
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self._ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, WAIT)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def viewport(self, width: int, height: int, *, mobile: bool) -> None:
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=1, mobile=mobile)

    async def evaluate(self, expression: str, *, wait: bool = False) -> Any:
        """The value of `expression` in the page (`wait`: it is a promise; its result)."""
        answer = await self.send("Runtime.evaluate", expression=expression,
                                 returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    async def open(self, url: str) -> None:
        await self.send("Page.navigate", url=url)
        await self.evaluate(
            "new Promise(r => { if (document.readyState === 'complete') r(1); "
            "else addEventListener('load', () => r(1)); })", wait=True)

    async def version_after(self, version: int) -> int:
        """Wait, without polling, until the page shows an update newer than `version`."""
        expression = (
            "new Promise(resolve => { const now = () => Number(document.body.dataset.version);"
            f" if (now() > {version}) return resolve(now());"
            " new MutationObserver((m, o) => { if (now() > " + str(version) + ") {"
            " o.disconnect(); resolve(now()); } })"
            ".observe(document.body, {attributes: true}); })")
        return int(await asyncio.wait_for(self.evaluate(expression, wait=True), WAIT))

    async def text(self, selector: str) -> str:
        return str(await self.evaluate(
            f"(document.querySelector({json.dumps(selector)}) || {{innerText: ''}}).innerText"))

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))
