"""Fixes for Textual bugs the console would otherwise suffer from (Textual is pinned).

Textual 8.2.8 caches `StylesCache.get_inner_outer` with `functools.lru_cache` on the method,
so the cache's keys hold the `StylesCache` of every widget ever drawn, up to 1,024 of them,
each with the rendered lines it keeps (Textualize/textual#6665, open). Every dialog opened
and closed leaves its widgets' lines behind: memory grows, and each full garbage collection
takes longer (it was the slowest key presses in scripts/bench console). The answer only
depends on the two colours, so it is cached by them alone here, with the same body.

tests/ui/test_memory.py fails if the widgets' caches pile up again, and this refuses to load
if Textual's method changes shape (so an upgrade is checked, not silently unfixed).

It also keeps a double-width character whole where another widget's edge runs under it
(see the section at the end; tests/ui/test_wide_characters.py); it refuses to load with any
Textual but 8.2.8, whose compositor it replaces two methods of.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from rich.cells import cell_len
from rich.control import Control
from textual import _compositor, events
from textual._dispatch_key import dispatch_key
from textual._styles_cache import StylesCache
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import BindingsMap
from textual.dom import DOMNode, NoScreen
from textual.geometry import Region
from textual.keys import key_to_character
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from referee.plugins import version

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


# ---- wide characters across another widget's edge ------------------------------------------
#
# Textual 8.2.8 draws each screen line in "chops", cut at the edges of every widget on that
# line, the covered ones too, and cuts the front widget's line at those edges (`Strip.divide`).
# A cut through a double-width character (CJK, an emoji) turns both its halves into spaces:
# a toast over the table drew "李  )" for "李明)" where the log's edge ran under 明 (issue 42).
# Here, where one widget owns the chops on both sides of such a cut, the character goes whole
# into the chop on its left (one cell longer) and the chop on its right starts a cell later
# (`_Shifted`); a partial update writes each chop where its own cells start. A full redraw
# joins the chops of a line, so the line is the same width as before.

# (Asked of referee.plugins, not textual.__version__, which imports importlib.metadata: about
# 9 ms of every start, issue 41.)
if version("textual") != "8.2.8":
    raise ImportError(f"textual {version('textual')}: review ui/textual_fixes.py's wide "
                      "characters (written for 8.2.8's Compositor._render_chops)")


class _Shifted(Strip):
    """A chop that starts `shift` cells after its cut (the cell before is the second half of
    a wide character the chop on its left drew whole)."""

    __slots__ = ("shift",)

    def __init__(self, segments: Any, cell_length: int, shift: int) -> None:
        super().__init__(segments, cell_length)
        self.shift = shift


def _wide_middles(strip: Strip) -> set[int]:
    """The cell offsets in `strip` that are the second half of a double-width character."""
    middles: set[int] = set()
    x = 0
    for segment in strip:
        if segment.control:
            continue
        for ch in segment.text:
            width = cell_len(ch)
            if width == 2:
                middles.add(x + 1)
            x += width
    return middles


def _pieces(strip: Strip, cuts: list[int], render_x: int,
            owned: list[bool]) -> list[Strip]:
    """`strip` divided at `cuts` (screen columns; the first is the strip's start), keeping a
    double-width character whole where the chops on both sides of its cut are `owned`."""
    divided = list(strip.divide([cut - render_x for cut in cuts[1:]]))
    if strip.cell_length == len("".join(s.text for s in strip if not s.control)):
        return divided  # no wide character: Textual's own division
    middles = _wide_middles(strip)
    starts = [cut - render_x for cut in cuts]
    moved = [i > 0 and starts[i] in middles and owned[i - 1] and owned[i]
             for i in range(len(starts))]
    if not any(moved):
        return divided
    bounds = [start + 1 if moved[i] else start for i, start in enumerate(starts)]
    bounds.append(max(strip.cell_length, bounds[-1]))
    out: list[Strip] = []
    for i in range(len(starts)):
        left, right = bounds[i], max(bounds[i], bounds[i + 1])
        piece = strip.crop(left, right)
        out.append(_Shifted(list(piece), right - left, 1) if moved[i]
                   else Strip(list(piece), right - left))
    return out


def _render_chops(self: Any, crop: Region,
                  is_rendered_line: Any) -> Any:
    """`Compositor._render_chops` (Textual 8.2.8), its strips divided by `_pieces`."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    for region, clip, strips in self._get_renders(crop):
        render_region = region.intersection(clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips, strict=False):
            if not is_rendered_line(y):
                continue
            chops_line = chops[y]
            final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            owned = [chops_line.get(cut) is None for cut in final_cuts]
            for cut, piece in zip(final_cuts, _pieces(strip, final_cuts, render_x, owned),
                                  strict=False):
                if chops_line.get(cut) is None:  # front to back: the first one wins
                    chops_line[cut] = piece
    return chops


def _render_segments(self: Any, console: Any) -> str:
    """`ChopsUpdate.render_segments` (Textual 8.2.8), each chop written where its cells
    start (a `_Shifted` one a cell after its cut) and to its own end (a chop that drew a
    wide character whole goes one cell past its cut)."""
    sequences: list[str] = []
    append = sequences.append
    move_to = Control.move_to
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        line = self.chops[y]
        ends = self.chop_ends[y]
        for end, (x, strip) in zip(ends, line.items(), strict=False):
            if strip is None:
                continue
            x += getattr(strip, "shift", 0)
            end = max(end, x + strip.cell_length)
            if x > x2 or end <= x1:
                continue
            if not (x2 > x >= x1 and end <= x2):
                strip = strip.crop(0, min(end, x2) - x)
            append(move_to(x, y).segment.text)
            append(strip.render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


_compositor.Compositor._render_chops = _render_chops  # type: ignore[method-assign]
_compositor.ChopsUpdate.render_segments = _render_segments  # type: ignore[method-assign]
