"""A module's logger that imports `logging` when it first logs (issue 41).

`logging` (with `traceback`, which it imports) is ~2 ms of a start here, and the box's first
OLED frame needs neither: nothing is logged on a start that goes well, and none of the box's
libraries (gpiozero, luma, Pillow) imports it. The modules the box loads before its first
frame keep `log = Logger(__name__)`, which stands for `logging.getLogger(__name__)`: the same
logger, the same records (the caller's file and line, as if it had been called directly), only
looked up when something is logged.

`basic_config(**settings)` is `logging.basicConfig(**settings)` for a command that sets up its
own output (`referee box`): applied at once if `logging` is already loaded, else just before
the first record of a logger here, or by `settle()` (which the box calls after its first
frame, so that a library's record later is written the same way)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

_settings: dict[str, Any] | None = None


def basic_config(**settings: Any) -> None:
    """`logging.basicConfig(**settings)`, now if `logging` is loaded, else when it is used."""
    global _settings
    _settings = settings
    if "logging" in sys.modules:
        settle()


def settle() -> None:
    """Import `logging` and apply what `basic_config` was given (if it is not yet applied)."""
    global _settings
    import logging

    if _settings is not None:
        settings, _settings = _settings, None
        logging.basicConfig(**settings)


class Logger:
    """Stands for `logging.getLogger(name)`: `debug`, `info`, `warning`, `error` and
    `exception` log there, with the caller's file, function and line."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def logger(self) -> logging.Logger:
        settle()
        import logging

        return logging.getLogger(self.name)

    def _log(self, level: str, msg: object, args: tuple[object, ...], kwargs: Any) -> None:
        kwargs["stacklevel"] = kwargs.get("stacklevel", 1) + 2  # (this frame and the caller's)
        getattr(self.logger, level)(msg, *args, **kwargs)

    def debug(self, msg: object, *args: object, **kwargs: Any) -> None:
        self._log("debug", msg, args, kwargs)

    def info(self, msg: object, *args: object, **kwargs: Any) -> None:
        self._log("info", msg, args, kwargs)

    def warning(self, msg: object, *args: object, **kwargs: Any) -> None:
        self._log("warning", msg, args, kwargs)

    def error(self, msg: object, *args: object, **kwargs: Any) -> None:
        self._log("error", msg, args, kwargs)

    def exception(self, msg: object, *args: object, **kwargs: Any) -> None:
        self._log("exception", msg, args, kwargs)

    def __repr__(self) -> str:
        return f"<lazylog.Logger {self.name}>"
