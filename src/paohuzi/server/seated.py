"""A seat's request at a table (a decision, 解散, 托管, 准备, 快捷语): the socket's seat,
refused to a spectator (``seat_of``), and for a change of the match, the table's lock
while the match goes on (``hold``, ``Table``'s method ``seated``, bound in its class body).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from .errors import ApiError

if TYPE_CHECKING:
    from .outbox import Connection
    from .tables import Table

__all__ = ["hold", "seat_of"]


def seat_of(conn: Connection, refusal: str) -> int:
    """The socket's seat; ``spectator`` (saying ``refusal``) to a socket without one."""
    if conn.seat is None:
        raise ApiError("spectator", refusal)
    return conn.seat


@asynccontextmanager
async def hold(table: Table, conn: Connection, refusal: str) -> AsyncIterator[int]:
    """The socket's seat (``seat_of``) under the table's lock; ``match_over`` once the
    match has ended, so a change is made only while it goes on."""
    s = seat_of(conn, refusal)
    async with table.lock:
        if table.ended:
            raise ApiError("match_over", "the match is over")
        yield s
