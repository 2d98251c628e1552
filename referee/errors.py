"""Every error the referee raises: one root, a base per subsystem, leaves that are builtins too."""

from __future__ import annotations


class RefereeError(Exception):
    """Root of every error this project raises on purpose."""


class Refusal(RefereeError):
    """A command the referee will not carry out; it changes nothing.

    Attributes:
        code: a stable machine-readable code (``not_your_turn``, ``bad_request`` ...).
        rule: the rule id the refusal rests on (``GG-6``), or None.
    """

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.rule = rule

    @property
    def message(self) -> str:
        return str(self.args[0])

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "rule": self.rule, "message": self.message}


class RuleViolation(Refusal, ValueError):
    """The command breaks a rule of the game (names the GG rule)."""


class KeptDieWaiting(RuleViolation):
    """A typed or tray value (``die_kept``) or a card named by hand (``card_kept``) for a die
    an undo left on the table: the box rolls that die, reusing the kept value."""

    code = "die_kept"


class BadRequest(Refusal, ValueError):
    """The command is malformed: not JSON, unknown command, missing or unknown field."""

    code = "bad_request"


class GameOver(Refusal):
    """The game is over; nothing can change it any more."""

    code = "game_over"


class NotRecorded(Refusal):
    """The event store could not make the command durable, so it was not carried out."""

    code = "store_error"


class ConfigError(RefereeError, ValueError):
    """A data or settings file is wrong; names the file, line (where known) and field."""

    def __init__(
        self, message: str, *, path: str | None = None, line: int | None = None,
        field: str | None = None,
    ) -> None:
        where = ""
        if path is not None:
            where = path + (f":{line}" if line is not None else "") + ": "
        what = f"{field}: " if field else ""
        super().__init__(f"{where}{what}{message}")
        self.path, self.line, self.field = path, line, field


class CatalogError(ConfigError):
    """The catalog file (cards, museums, art) is invalid."""


class SettingsError(ConfigError):
    """A house-rule or settings value is invalid."""


class StoreError(RefereeError, OSError):
    """The event store could not read or write (disk full, I/O error, damaged file)."""


class FileDamaged(StoreError):
    """The proof of every entry, run beside the session, found the game file damaged: it was
    moved aside and a new, empty one started (the message says so, and where it went)."""


class DeviceError(RefereeError, OSError):
    """A hardware part (buttons, display, dice tray) failed."""
