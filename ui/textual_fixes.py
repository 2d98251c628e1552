"""Fixes for Textual bugs the console would otherwise suffer from (Textual is pinned).

Textual 8.2.8 caches `StylesCache.get_inner_outer` with `functools.lru_cache` on the method,
so the cache's keys hold the `StylesCache` of every widget ever drawn, up to 1,024 of them,
each with the rendered lines it keeps (Textualize/textual#6665, open). Every dialog opened
and closed leaves its widgets' lines behind: memory grows, and each full garbage collection
takes longer (it was the slowest key presses in scripts/bench console). The answer only
depends on the two colours, so it is cached by them alone here, with the same body.

tests/ui/test_memory.py fails if the widgets' caches pile up again, and this refuses to load
if Textual's method changes shape (so an upgrade is checked, not silently unfixed).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from textual import events
from textual._dispatch_key import dispatch_key
from textual._styles_cache import StylesCache
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import BindingsMap
from textual.dom import DOMNode, NoScreen
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget

_original = StylesCache.__dict__["get_inner_outer"]
if not hasattr(_original, "cache_clear") or not hasattr(_original, "__wrapped__"):
    raise ImportError("textual's StylesCache.get_inner_outer changed: review ui/textual_fixes.py")
_body = _original.__wrapped__


@lru_cache(1024)
def _inner_outer(base_background: Any, background: Any) -> Any:
    return _body(None, base_background, background)  # the body never looks at its `self`


def _get_inner_outer(self: StylesCache, base_background: Any, background: Any) -> Any:
    return _inner_outer(base_background, background)


StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]


class KeysWhereRead(App[Any]):
    """Each key is matched against the bindings of the widget it was sent to (issue 15).

    Textual reads a key, runs a *priority* binding at once (Tab and Shift+Tab here,
    `ui.base.FOCUS_KEYS`, so that keys typed behind them follow the focus), and otherwise
    sends the key to the focused widget; the widget's own *bindings* (a colour's →/←, a
    list's ↑/↓, a button's Enter) are matched only once the key has come back up to the
    app, against the focus *then*. In a burst ("→ Tab", typed fast or pasted) Tab has
    moved the focus in between, and the → was matched against the next field: lost there,
    or acting on the wrong field. Here the app notes the widget a key is sent to and, when
    the key comes back, matches it against that widget's chain if it is still on the
    screen in front; otherwise (it is gone, or another screen came up) as Textual does.
    One place for every screen's fields; tests/ui/test_key_order.py.
    """

    _SENT_TO = "_referee_sent_to"

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self.focused:
            setattr(event, self._SENT_TO, self.focused)
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        target = getattr(event, self._SENT_TO, None)
        screen = self.screen
        if target is None or target is screen.focused or not _on_screen(target, screen):
            return  # App._on_key (next in the MRO) matches against the focus now
        event.prevent_default()  # App._on_key must not match it again
        if not await self._check_bindings_of(target, event.key):
            await dispatch_key(self, event)

    async def _check_bindings_of(self, target: Widget, key: str) -> bool:
        """`App._check_bindings(key)` (not priority) as if `target` had the focus."""
        for namespace, bindings in _modal_chain(_binding_chain(target)):
            for binding in bindings.key_to_bindings.get(key, ()):
                if not binding.priority and await self.run_action(binding.action, namespace):
                    return True
        return False


def _on_screen(widget: Widget, screen: Screen[Any]) -> bool:
    try:
        return widget.is_attached and widget.screen is screen
    except NoScreen:
        return False


def _binding_chain(focused: Widget) -> list[tuple[DOMNode, BindingsMap]]:
    """`Screen._binding_chain` with `focused` in place of the screen's focus (same steps:
    each node's bindings, less the keys a node below consumes, with the app's keymap)."""
    chain = [(node, node._bindings.copy()) for node in focused.ancestors_with_self]
    consumers: list[DOMNode] = []
    for namespace, bindings in chain:
        for consumer in consumers:
            for key in list(bindings.key_to_bindings):
                if consumer.check_consume_key(key, key_to_character(key)):
                    del bindings.key_to_bindings[key]
        consumers.append(namespace)
    keymap = focused.app._keymap
    if keymap:
        for namespace, bindings in chain:
            clashed = bindings.apply_keymap(keymap).clashed_bindings
            if clashed:
                focused.app.handle_bindings_clash(clashed, namespace)
    return chain


def _modal_chain(chain: list[tuple[DOMNode, BindingsMap]]) -> list[tuple[DOMNode, BindingsMap]]:
    """`Screen._modal_binding_chain`: nothing above the nearest modal screen."""
    for index, (node, _) in enumerate(chain, 1):
        if node.is_modal:
            return chain[:index]
    return chain


class DismissOnce:
    """A screen that closes once: Textual's `dismiss` pops whatever screen is on top, so a
    second choice from the same screen (two Enters in one burst, both read before it closed)
    would pop the screen under it, or fail on the last one (ScreenStackError). A dismiss
    after the first, or while another screen is in front (this one already left), does
    nothing. For every dialog of the console (`ui.base.Dialog`)."""

    _dismissed = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self.closed_to_choices():
            return cast(AwaitComplete, AwaitComplete.nothing())  # type: ignore[no-untyped-call]
        self._dismissed = True
        return super().dismiss(result)  # type: ignore[misc, no-any-return]

    def closed_to_choices(self) -> bool:
        """Whether this screen no longer takes a choice: dismissed, or not in front."""
        screen = cast(Screen[Any], self)
        return self._dismissed or not screen.is_attached or screen.app.screen is not screen
