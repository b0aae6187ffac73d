"""Widgets shared by the game and the record viewer.

Each text widget remembers the plain text it shows (``plain``), so tests and the
record viewer can read the screen without scraping the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from .render import Column, hand_columns, hand_hit, render_hand

__all__ = ["HandView", "OptionLine", "Panel"]


class Panel(Static):
    """A Static that keeps the plain text of what it shows."""

    def __init__(self, text: str | Text = "", *, id: str | None = None, classes: str = "") -> None:
        body = Text(text) if isinstance(text, str) else text
        super().__init__(body, id=id, classes=classes)
        self.plain = body.plain

    def show(self, text: str | Text) -> None:
        """Show plain strings literally (card text may hold ``[``), rich Text as styled."""
        body = Text(text) if isinstance(text, str) else text
        self.plain = body.plain
        self.update(body)


class HandView(Widget, can_focus=True):
    """The human's hand in columns; click a card to select it, click it again to play it."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 5; padding: 0 0; }
    """

    class Picked(Message):
        """A card was clicked a second time (the discard gesture)."""

        def __init__(self, face: int) -> None:
            super().__init__()
            self.face = face

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cols: list[Column] = []
        self.sel: tuple[int, int] | None = None
        self.marked: frozenset[int] = frozenset()
        self.plain = ""

    def set_hand(self, counts: Sequence[int], marked: frozenset[int] = frozenset()) -> None:
        """Lay out a new hand, keeping the selection on the same face where possible."""
        face = self.selected_face()
        self.cols = hand_columns(counts)
        self.marked = marked
        self.sel = None
        if face is not None:
            self.select_face(face)
        if self.sel is None and self.cols:
            self.sel = (len(self.cols) - 1, 0)
        self._redraw()

    def selected_face(self) -> int | None:
        if self.sel is None:
            return None
        c, r = self.sel
        if c < len(self.cols) and r < len(self.cols[c].faces):
            return self.cols[c].faces[r]
        return None

    def select_face(self, face: int) -> bool:
        """Put the cursor on a card of this face; False if the hand has none."""
        for i, col in enumerate(self.cols):
            if face in col.faces:
                self.sel = (i, col.faces.index(face))
                self._redraw()
                return True
        return False

    def move(self, dx: int, dy: int) -> None:
        """Arrow keys: columns left/right, cards up/down within a column."""
        if not self.cols:
            return
        c, r = self.sel or (0, 0)
        c = (c + dx) % len(self.cols)
        r = max(0, min(r + dy, len(self.cols[c].faces) - 1))
        self.sel = (c, r)
        self._redraw()

    def _redraw(self) -> None:
        text = render_hand(self.cols, self.sel, self.marked)
        self.plain = text.plain
        self.refresh(layout=True)

    def render(self) -> Text:
        return render_hand(self.cols, self.sel, self.marked)

    def on_click(self, event: events.Click) -> None:
        off = event.get_content_offset(self)
        if off is None:
            return
        hit = hand_hit(self.cols, off.x, off.y)
        if hit is None:
            return
        if hit == self.sel:
            face = self.selected_face()
            if face is not None:
                self.post_message(self.Picked(face))
        else:
            self.sel = hit
            self._redraw()


class OptionLine(Panel):
    """One claim option (``2  吃:三四五 比:五五伍``); clicking it chooses it."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int, text: str | Text) -> None:
        super().__init__(text, classes="option")
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.index))
