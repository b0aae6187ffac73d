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
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from .db import RoomRow, RoomSeat
from .errors import ApiError

__all__ = ["claim", "claim_open", "commit_seats", "seat_taken", "seats_in", "seats_of"]


def claim(session: Session, room_id: int, code: str, status: str = "open") -> list[RoomSeat]:
    """Take open room ``code``'s row for this transaction, moving it to ``status``
    (``"playing"`` for a start), and read its seats after: ``room_started`` (409) if it is
    no longer open (the caller rolls back)."""
    result = session.execute(
        update(RoomRow)
        .where(RoomRow.id == room_id, RoomRow.status == "open")
        .values(status=status)
        .execution_options(synchronize_session=False)
    )
    assert isinstance(result, CursorResult)
    if result.rowcount != 1:
        raise ApiError("room_started", f"room {code} has started", 409)
    return seats_in(session, room_id)


def seats_in(session: Session, room_id: int) -> list[RoomSeat]:
    """The room's seats as committed now (read after :func:`claim`), by seat."""
    rows = session.scalars(
        select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)
    )
    return list(rows.all())


async def claim_open(db: AsyncSession, room: RoomRow, status: str = "open") -> list[RoomSeat]:
    """:func:`claim` in ``db``'s transaction; rolls back on refusal."""
    room_id, code = room.id, room.code  # (a rollback expires the row's attributes)
    try:
        seats = await db.run_sync(lambda s: claim(s, room_id, code, status))
    except ApiError:
        await db.rollback()
        raise
    set_committed_value(room, "status", status)
    return seats


async def seats_of(db: AsyncSession, room_id: int) -> list[RoomSeat]:
    """:func:`seats_in` on an async session."""
    return await db.run_sync(lambda s: seats_in(s, room_id))


def seat_taken() -> ApiError:
    """A seat another request took first (a unique violation on commit): 409."""
    return ApiError("seat_taken", "the seat was taken meanwhile; try another", 409)


async def commit_seats(db: AsyncSession) -> None:
    """Commit a seating; a seat another request took first is :func:`seat_taken`."""
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise seat_taken() from None
