"""Keys that settle as soon as the console has nothing left to do (issue 41).

Textual's pilot waits after every key by its clock (`textual._wait.wait_for_idle`): it sleeps
1/50 s at a time until the process used almost no processor time in one of them, three times
a key (`press`: two; `pause`: one), so a key costs at least 60 ms even when the console has
answered it in 2. The long walks press thousands of keys: most of their time was that sleep.

`settled` waits for the same thing by asking the event loop instead: the console runs on the
test's one event loop, with no thread of its own, so it has nothing left to do when nothing is
ready to run and no timer is due — every task waits for a message, a later timer or input. It
yields until that is so (it does not sleep). The screen's frame, drawn by a timer 1/60 s
later, is then drawn at once by `pause` (`Screen._on_timer_update`, as Textual's own `pause`
ends), twice: the callbacks the first frame releases (`call_after_refresh`) run and are drawn
too. So every key ends as it did, its messages handled and its frame drawn, without waiting on
the clock.

A module asks for it with `pytestmark = pytest.mark.usefixtures("quick_keys")`
(tests/conftest.py; docs/testing.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import textual.app
import textual.pilot
from textual._wait import wait_for_idle

ORIGINAL_PAUSE = textual.pilot.Pilot.pause


async def settled(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """Return once nothing but this coroutine is ready to run on the loop (at most
    `max_sleep` seconds; `min_sleep` is Textual's argument, not needed here)."""
    loop = asyncio.get_running_loop()
    ready = getattr(loop, "_ready", None)  # (asyncio's own loop: its run queue)
    if ready is None:
        await wait_for_idle(min_sleep, max_sleep)
        return
    timers = getattr(loop, "_scheduled", [])  # (a heap: the first is the next one due)
    end = loop.time() + max_sleep
    while True:
        await asyncio.sleep(0)
        now = loop.time()
        due = bool(timers) and timers[0].when() <= now  # (ready at the loop's next turn)
        if (not ready and not due) or now >= end:
            return


async def pause(self: textual.pilot.Pilot[Any], delay: float | None = None) -> None:
    """`Pilot.pause` with `settled`, its frame drawn and then the frame after it."""
    if delay is not None:
        await ORIGINAL_PAUSE(self, delay)
        return
    for _ in range(2):
        await self._wait_for_screen()
        await settled()
        self.app.screen._on_timer_update()


@contextmanager
def quick_keys() -> Iterator[None]:
    """Textual's pilot settles by `settled` (its key presses and pauses) while this lasts."""
    modules = (textual.app, textual.pilot)  # (each imported Textual's `wait_for_idle`)
    saved = [getattr(m, "wait_for_idle") for m in modules]  # noqa: B009
    for m in modules:
        setattr(m, "wait_for_idle", settled)  # noqa: B010
    textual.pilot.Pilot.pause = pause  # type: ignore[method-assign]
    try:
        yield
    finally:
        for m, was in zip(modules, saved, strict=True):
            setattr(m, "wait_for_idle", was)  # noqa: B010
        textual.pilot.Pilot.pause = ORIGINAL_PAUSE  # type: ignore[method-assign]
