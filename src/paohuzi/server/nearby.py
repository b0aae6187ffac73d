"""Close-by warnings, by opt-in only: a seated player of an open room may share a coarse
position from the browser (``PUT /rooms/{code}/location``); when two seats that both shared
one are within :func:`close_by_km` of each other, everyone who sees the room is told which
seats before the start (the room's ``close_by`` field, and a ``close_by`` message to its
waiting sockets). Never a block. Positions are kept as whole cells of 1/:data:`GRID`
degree (about 550 m north-south), never finer, for the seat only: withdrawing, leaving,
the start and the room's expiry delete them, and no answer or message ever carries one."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from .clubdb import SeatLocation
from .limits import env_positive
from .outbox import Connection
from .protocol import close_by_dict

__all__ = [
    "GRID",
    "close_by_km",
    "close_groups",
    "distance_km",
    "forget",
    "forget_in",
    "record_in",
    "shared",
    "to_cell",
    "warn",
    "withdraw_in",
]

#: Cells per degree: positions are rounded to 0.005° (finer than the 1 km default distance,
#: so two players across a cell's edge still come out close).
GRID = 200
EARTH_KM = 6371.0088  # the mean radius


def close_by_km() -> float:
    """How near two shared positions warn: ``PAOHUZI_CLOSE_BY_KM`` (default 1 km)."""
    return env_positive("PAOHUZI_CLOSE_BY_KM", 1.0)


def to_cell(degrees: float) -> int:
    """The cell a coordinate falls in (the server rounds whatever precision was sent)."""
    return round(degrees * GRID)


def distance_km(a: tuple[int, int], b: tuple[int, int]) -> float:
    """The great-circle distance between two cells' centres (haversine)."""
    la1, lo1, la2, lo2 = (math.radians(v / GRID) for v in (*a, *b))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def record_in(session: Session, room_id: int, account_id: int, lat: float, lon: float) -> None:
    """Keep the seat's position, rounded to its cell (its last one counts); the caller
    commits. ``lat``/``lon`` were checked by the request's schema."""
    withdraw_in(session, room_id, account_id)
    session.add(SeatLocation(room_id=room_id, account_id=account_id,
                             lat_cell=to_cell(lat), lon_cell=to_cell(lon)))  # fmt: skip


def withdraw_in(session: Session, room_id: int, account_id: int) -> None:
    """Delete the account's position in the room (opt-out, leave); the caller commits."""
    session.execute(
        delete(SeatLocation).where(
            SeatLocation.room_id == room_id, SeatLocation.account_id == account_id
        )
    )


async def forget(db: AsyncSession, room_ids: Sequence[int]) -> None:
    """Delete every position kept for these rooms (started or expired); the caller commits."""
    await db.run_sync(lambda s: forget_in(s, room_ids))


def forget_in(session: Session, room_ids: Sequence[int]) -> None:
    """:func:`forget` in a blocking session's transaction."""
    if room_ids:
        session.execute(delete(SeatLocation).where(SeatLocation.room_id.in_(room_ids)))


async def shared(db: AsyncSession, room_id: int, account_id: int) -> bool:
    """Whether the account has a position kept in the room (only it is told)."""
    found = await db.scalar(
        select(SeatLocation.account_id).where(
            SeatLocation.room_id == room_id, SeatLocation.account_id == account_id
        )
    )
    return found is not None


def close_groups(at: dict[int, tuple[int, int]], km: float) -> list[list[int]]:
    """The groups of seats whose positions (``at``: seat → cell) are within ``km`` of
    each other, joined through any close pair."""
    group = {seat: {seat} for seat in at}
    for a in at:
        for b in at:
            if a < b and distance_km(at[a], at[b]) <= km and group[a] is not group[b]:
                merged = group[a] | group[b]
                for s in merged:
                    group[s] = merged
    found = {tuple(sorted(g)) for g in group.values() if len(g) > 1}
    return sorted(list(g) for g in found)


def warn(conns: Iterable[Connection], code: str, found: list[list[int]]) -> None:
    """Tell ``conns`` (sockets waiting for the room) of ``found``, if any."""
    if found:
        msg = close_by_dict(code, found)
        for c in conns:
            c.put_dict(msg)
