"""The page for phones, in the console (`referee run --web`): the QR code of its address and
the address itself, on a modal screen (key F6). The code changes with each new game."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class WebCodeScreen(ModalScreen[None]):
    """Scan to follow the game on a phone (read-only)."""

    DEFAULT_CSS = """
    WebCodeScreen { align: center middle; }
    WebCodeScreen > Vertical { width: auto; height: auto; background: $panel; padding: 1 2; }
    WebCodeScreen .qr { width: auto; color: white; background: black; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f6,enter", "dismiss", "Close")]

    def __init__(self, url: str, code: str) -> None:
        super().__init__()
        self.url = url
        self.code = code

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Follow the game on a phone (read-only): scan this code", classes="hint")
            yield Static(self.code, classes="qr", markup=False)
            yield Static(self.url, markup=False)
            yield Static("Esc closes. The code changes with each new game.", classes="hint")
