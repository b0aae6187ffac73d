"""Expiry of rooms that will never be played: an open room not started within
``open_seconds``, or left with no seated person for ``empty_seconds``, is closed
(status "expired") by a sweep every ``sweep_seconds`` in the app's lifespan. An expired
room lets its six-digit code go (db.RoomRow: codes are unique among live rooms only).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from . import nearby
from .db import RoomRow, RoomSeat, now
from .limits import env_positive

__all__ = ["ExpirySettings", "expire_rooms", "sweep_rooms"]

log = logging.getLogger("paohuzi.server")


@dataclass(frozen=True)
class ExpirySettings:
    """How long an open room may wait for its start, and for a person to sit, and how
    often the sweep runs (seconds)."""

    open_seconds: float = 2 * 3600.0
    empty_seconds: float = 600.0
    sweep_seconds: float = 60.0

    @classmethod
    def from_env(cls) -> ExpirySettings:
        """From ``PAOHUZI_ROOM_OPEN_SECONDS``, ``PAOHUZI_ROOM_EMPTY_SECONDS`` and
        ``PAOHUZI_ROOM_SWEEP_SECONDS`` (unset: the defaults)."""
        d = cls()
        return cls(
            env_positive("PAOHUZI_ROOM_OPEN_SECONDS", d.open_seconds),
            env_positive("PAOHUZI_ROOM_EMPTY_SECONDS", d.empty_seconds),
            env_positive("PAOHUZI_ROOM_SWEEP_SECONDS", d.sweep_seconds),
        )


async def expire_rooms(db: AsyncSession, settings: ExpirySettings) -> int:
    """Close the open rooms past their time; how many were closed."""
    t = now()
    person = exists().where(RoomSeat.room_id == RoomRow.id, RoomSeat.bot.is_(None))
    stale = (RoomRow.created_at < t - timedelta(seconds=settings.open_seconds)) | (
        (RoomRow.created_at < t - timedelta(seconds=settings.empty_seconds)) & ~person
    )
    ids = (await db.scalars(select(RoomRow.id).where(RoomRow.status == "open", stale))).all()
    if not ids:
        return 0
    # status still "open": a room started meanwhile is left alone
    result = await db.execute(
        update(RoomRow)
        .where(RoomRow.id.in_(ids), RoomRow.status == "open")
        .values(status="expired")
        .execution_options(synchronize_session=False)
    )
    await nearby.forget(db, ids)
    await db.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def sweep_rooms(
    sessions: async_sessionmaker[AsyncSession],
    settings: ExpirySettings,
    tell: Callable[[], Awaitable[int]] | None = None,
) -> None:
    """Run :func:`expire_rooms` every ``sweep_seconds`` until cancelled, then ``tell``
    the sockets waiting for an expired room (in this process; any worker may have
    expired it). A failed sweep is logged and tried again next time."""
    while True:
        await asyncio.sleep(settings.sweep_seconds)
        try:
            async with sessions() as db:
                closed = await expire_rooms(db, settings)
            if closed:
                log.info("%d room(s) expired", closed)
            if tell is not None:
                await tell()
        except Exception:
            log.exception("room expiry sweep failed")
