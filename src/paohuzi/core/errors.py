"""One error family for the whole library.

Every error is a ``ValueError`` so callers can catch bad input with one clause,
and every message quotes the offending input.
"""

from __future__ import annotations

__all__ = [
    "HandError",
    "IllegalActionError",
    "NotationError",
    "PaohuziError",
    "RecordError",
]


class PaohuziError(ValueError):
    """Base of every error raised by paohuzi; a ``ValueError``."""


class NotationError(PaohuziError):
    """Card, group or action notation that cannot be parsed."""


class HandError(PaohuziError):
    """Cards that cannot exist together (five copies, a 坎 face on the table, bad count)."""


class IllegalActionError(PaohuziError):
    """An action that is illegal, out of turn or stale."""


class RecordError(PaohuziError):
    """A game record that cannot be loaded or replayed."""
