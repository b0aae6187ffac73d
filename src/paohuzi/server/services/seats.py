"""Changing an open room's seats: the room claimed in the database for one change, a free seat
chosen, bots seated (seating.py holds the claim itself)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from ...core.rules import HONG_GUAI_WAN
from .. import accounts
from ..db import Account, RoomRow, RoomSeat
from ..errors import ApiError
from ..ratelimit import Rates
from ..rooms import find_room
from ..seating import claim_open, seats_of

__all__ = ["free_seat", "open_room", "seat_bots"]


async def open_room(
    db: AsyncSession,
    rates: Rates,
    code: str,
    who: tuple[Account, str, str | None],
    host: str | None = None,
    status: str = "open",
) -> tuple[RoomRow, list[RoomSeat]]:
    """The open room, claimed in the database and moved to ``status`` (seating.py: one
    change at a time, across workers too), with its seats as they are now. ``who`` is the
    caller, its address and the invite key it gave; ``host``: what only the host may do,
    refused to anyone else."""
    me, address, key = who
    room = await find_room(db, rates, code, address, me, key)
    if room.status != "open":
        raise ApiError("room_started", f"room {code} has started", 409)
    if host is not None and room.host_id != me.id:
        raise ApiError("not_host", f"only the host may {host}", 403)
    await claim_open(db, room, status)
    return room, await seats_of(db, room.id)


async def free_seat(db: AsyncSession, seats: list[RoomSeat], wanted: int | None) -> int:
    """``wanted`` if free, else the first free seat; a refusal ends the claim."""
    taken = {s.seat for s in seats}
    if wanted is not None:
        if wanted in taken:
            await db.rollback()
            raise ApiError("seat_taken", f"seat {wanted} is taken", 409)
        return wanted
    free = [s for s in range(3) if s not in taken]
    if not free:
        await db.rollback()
        raise ApiError("room_full", "the room is full", 409)
    return free[0]


async def seat_bots(
    db: AsyncSession, room: RoomRow, seats: list[RoomSeat], wanted: int | None, kind: str
) -> None:
    """Seat a ``kind`` bot at ``wanted`` (None: at every free seat), each its own account;
    the caller commits."""
    chosen = (
        [await free_seat(db, seats, wanted)]
        if wanted is not None
        else [s for s in range(3) if s not in {x.seat for x in seats}]
    )
    if not chosen:
        await db.rollback()
        raise ApiError("room_full", "the room is full", 409)
    for seat in chosen:
        bot = await accounts.create_account(
            db, kind="bot", nickname=f"{kind} bot", grant=HONG_GUAI_WAN.starting_balance
        )
        db.add(RoomSeat(room_id=room.id, seat=seat, account_id=bot.id, bot=kind))
