"""Changing an open room's seats: the room claimed in the database for one change, a free seat
chosen, bots seated (seating.py holds the claim itself)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ...core.rules import HONG_GUAI_WAN
from .. import accounts, fairplay
from ..db import Account, RoomRow, RoomSeat
from ..errors import ApiError
from ..ratelimit import Rates
from ..rooms import find_room
from ..seating import claim

__all__ = ["find_open", "free_seat", "pick_seat", "seat_bots", "take_seat"]


async def find_open(
    db: AsyncSession,
    rates: Rates,
    code: str,
    who: tuple[Account, str, str | None],
    host: str | None = None,
) -> RoomRow:
    """The open room ``code`` as the caller may see it, not yet claimed (a change claims
    it in its own transaction). ``who`` is the caller, its address and the invite key it
    gave; ``host``: what only the host may do, refused to anyone else."""
    me, address, key = who
    room = await find_room(db, rates, code, address, me, key)
    if room.status != "open":
        raise ApiError("room_started", f"room {code} has started", 409)
    if host is not None and room.host_id != me.id:
        raise ApiError("not_host", f"only the host may {host}", 403)
    return room


def pick_seat(seats: list[RoomSeat], wanted: int | None) -> int:
    """``wanted`` if free, else the first free seat: ``seat_taken`` or ``room_full`` (409)."""
    taken = {s.seat for s in seats}
    if wanted is not None:
        if wanted in taken:
            raise ApiError("seat_taken", f"seat {wanted} is taken", 409)
        return wanted
    free = [s for s in range(3) if s not in taken]
    if not free:
        raise ApiError("room_full", "the room is full", 409)
    return free[0]


async def free_seat(db: AsyncSession, seats: list[RoomSeat], wanted: int | None) -> int:
    """:func:`pick_seat`; a refusal ends the claim."""
    try:
        return pick_seat(seats, wanted)
    except ApiError:
        await db.rollback()
        raise


def take_seat(
    session: Session, room: tuple[int, str], account_id: int, wanted: int | None, address: str
) -> int:
    """Claim the open room (its id and code) and seat the account at ``wanted`` (None:
    the first free seat), noting its address (fairplay.py); the seat. ``already_seated``,
    ``seat_taken``, ``room_full`` or ``room_started`` (409; the caller rolls back). A seat
    another request took first is an IntegrityError on the caller's commit."""
    room_id, code = room
    seats = claim(session, room_id, code)
    if any(s.account_id == account_id for s in seats):
        raise ApiError("already_seated", "this account already has a seat here", 409)
    seat = pick_seat(seats, wanted)
    session.add(RoomSeat(room_id=room_id, seat=seat, account_id=account_id, bot=None))
    fairplay.record_in(session, room_id, account_id, address)
    return seat


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
