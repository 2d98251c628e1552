"""A fix for a Textual bug the console would otherwise suffer from (Textual is pinned).

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
from typing import Any

from textual._styles_cache import StylesCache

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
