"""What is shown of a room's seats, read in one query: each seat's account and nickname,
its bot, the hash of the address its player joined from (fairplay.py) and the position it
shared (nearby.py, an open room only).

One query, not one a seat and one a warning: a match's turnover reads a room's JSON or
signs a socket in about eight times, and each query is a hand-off to the database's
thread and back (docs/performance.md, "Where the rest goes")."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .clubdb import SeatAddress, SeatLocation
from .db import Account, RoomSeat

__all__ = ["SeatFacts", "seat_facts"]


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat of a room as the server knows it (never sent as it is: the address hash
    and the cell stay on the server)."""

    seat: int
    account_id: int
    nickname: str
    bot: str | None
    address_hash: str | None
    cell: tuple[int, int] | None


async def seat_facts(db: AsyncSession, room_id: int) -> list[SeatFacts]:
    """The room's seats by seat number, with their players' addresses and positions."""
    rows = await db.execute(
        select(
            RoomSeat.seat,
            RoomSeat.account_id,
            Account.nickname,
            RoomSeat.bot,
            SeatAddress.address_hash,
            SeatLocation.lat_cell,
            SeatLocation.lon_cell,
        )
        .join(Account, Account.id == RoomSeat.account_id)
        .outerjoin(
            SeatAddress,
            (SeatAddress.room_id == RoomSeat.room_id)
            & (SeatAddress.account_id == RoomSeat.account_id),
        )
        .outerjoin(
            SeatLocation,
            (SeatLocation.room_id == RoomSeat.room_id)
            & (SeatLocation.account_id == RoomSeat.account_id),
        )
        .where(RoomSeat.room_id == room_id)
        .order_by(RoomSeat.seat)
    )
    return [
        SeatFacts(seat, account_id, nickname, bot, digest, None if lat is None else (lat, lon))
        for seat, account_id, nickname, bot, digest, lat, lon in rows.all()
    ]
