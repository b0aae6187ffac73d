"""快捷语 (quick chat) and reactions: a seat sends a phrase id from a fixed list, never free
text (nothing to moderate); everyone at the table, spectators too, is told who said which.
Each seat has a small budget (``CHAT_BURST`` at once, ``CHAT_RATE`` a second), so a
script cannot flood a table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ApiError
from .protocol import said_dict
from .ratelimit import RateLimiter
from .seated import seat_of

if TYPE_CHECKING:
    from .outbox import Connection
    from .tables import Table

__all__ = ["CHAT_BURST", "CHAT_RATE", "PHRASES", "chat_limiter", "check_phrase", "say"]

# The phrase ids a client may send (their words are the clients': the browser's i18n.js
# phrase_0 …): 0-9 快捷语, 10-15 reactions.
PHRASES = 16
CHAT_BURST = 3.0
CHAT_RATE = 0.5  # one more every 2 s


def chat_limiter() -> RateLimiter:
    """A table's quick-chat budget, keyed by seat."""
    return RateLimiter("quick-chat messages", CHAT_BURST, CHAT_RATE, max_keys=3)


def check_phrase(phrase: int) -> None:
    """Refuse a phrase id outside the list (``bad_message``, quoting it)."""
    if not 0 <= phrase < PHRASES:
        raise ApiError("bad_message", f"phrase {phrase} is not one of 0-{PHRASES - 1}")


async def say(table: Table, conn: Connection, phrase: int) -> None:
    """快捷语: tell everyone at ``table`` the seat's phrase id, within its budget
    (``Table.chat``, bound in its class body)."""
    s = seat_of(conn, "a spectator cannot chat")
    check_phrase(phrase)
    table.chat_budget.take(str(s))
    table._tell_all(said_dict(s, phrase))
