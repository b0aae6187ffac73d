"""Modal screens: confirm quitting, and the end of a round."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen

from .render import hanging
from .widgets import Panel
from .words import word

__all__ = ["ConfirmQuit", "RoundOver"]


class ConfirmQuit(ModalScreen[bool]):
    """Asks before leaving a match, so a stray ``q`` or Ctrl-C does not end it."""

    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    ConfirmQuit > Vertical {
        width: 64; max-width: 100%; height: auto;
        border: thick $error; background: $surface; padding: 1 2;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes, quit"),
        Binding("n", "answer(False)", "No, keep playing"),
        Binding("escape", "answer(False)", "Back", show=False),
        Binding("q", "answer(True)", "Quit", show=False),
    ]

    def __init__(self, message: str, lang: str = "zh") -> None:
        super().__init__()
        self.message = message
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Panel(self.message + "\n\n" + word("quit_keys", self.lang), id="confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class RoundOver(ModalScreen[bool]):
    """The end of a round: hands, the winner's arrangement, settlement.

    Dismissed with True to go on (next round, or leave after the last one) and
    False when the player asked to quit instead.
    """

    DEFAULT_CSS = """
    RoundOver { align: center middle; }
    RoundOver > VerticalScroll {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", "Continue"),
        Binding("n", "next", "Next round", show=False),
        Binding("space", "next", "Continue", show=False),
        Binding("q", "quit_match", "Quit"),
    ]

    def __init__(self, text: Text, keys: str = "") -> None:
        super().__init__()
        self.text = text
        self.keys = keys

    WIDTH = 100
    """The report's frame, in cells (less on a narrower terminal)."""

    def _wrapped(self) -> Text:
        """The report wrapped to the frame, each long line's continuations indented."""
        inner = min(self.WIDTH, self.app.size.width) - 5  # border, padding, a scrollbar
        return hanging(self.text, max(inner, 20))

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            # the keys sit in the frame: visible however long the report scrolls
            box.border_subtitle = self.keys
            yield Panel(self._wrapped(), id="result")

    def on_resize(self) -> None:
        self.query_one("#result", Panel).show(self._wrapped())

    def action_next(self) -> None:
        self.dismiss(True)

    def action_quit_match(self) -> None:
        self.dismiss(False)
