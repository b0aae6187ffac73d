"""Seating and starting a room atomically in the database, whatever worker serves the call.

``hub.lock`` orders room changes within one process only; several workers (cluster.py)
share the database, so every change to an open room first takes the room's row with a
conditional UPDATE (``… WHERE status = 'open'``): on PostgreSQL that row lock orders a
join, a leave, seating bots and the start across workers (each re-reads the seats after
taking it), and on SQLite the UPDATE opens the write transaction, which orders them too.
A start moves the room from open to playing in that same UPDATE, so only one start
can win; a seat taken meanwhile is a 409, never a unique violation's 500.
"""

from __future__ import annotations

from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from .db import RoomRow, RoomSeat
from .errors import ApiError

__all__ = ["claim_open", "commit_seats", "seats_of"]


async def claim_open(db: AsyncSession, room: RoomRow, status: str = "open") -> None:
    """Take the open room's row for this transaction, moving it to ``status`` (``"playing"``
    for a start); ``room_started`` (409) if it is no longer open. Rolls back on refusal."""
    code = room.code  # (a rollback expires the row's attributes)
    result = await db.execute(
        update(RoomRow)
        .where(RoomRow.id == room.id, RoomRow.status == "open")
        .values(status=status)
        .execution_options(synchronize_session=False)
    )
    assert isinstance(result, CursorResult)
    if result.rowcount != 1:
        await db.rollback()
        raise ApiError("room_started", f"room {code} has started", 409)
    set_committed_value(room, "status", status)


async def seats_of(db: AsyncSession, room_id: int) -> list[RoomSeat]:
    """The room's seats as committed now (read after :func:`claim_open`), by seat."""
    rows = await db.scalars(
        select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)
    )
    return list(rows.all())


async def commit_seats(db: AsyncSession) -> None:
    """Commit a seating; a seat another request took first is ``seat_taken`` (409)."""
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise ApiError("seat_taken", "the seat was taken meanwhile; try another", 409) from None
