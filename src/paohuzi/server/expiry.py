"""Expiry of rooms that will never be played: an open room not started within
``open_seconds``, or left with no seated person for ``empty_seconds``, is closed
(status "expired") by a sweep every ``sweep_seconds`` in the app's lifespan. An expired
room lets its six-digit code go (db.RoomRow: codes are unique among live rooms only).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .db import RoomRow, RoomSeat, now

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
        values = []
        for name, default in (
            ("PAOHUZI_ROOM_OPEN_SECONDS", d.open_seconds),
            ("PAOHUZI_ROOM_EMPTY_SECONDS", d.empty_seconds),
            ("PAOHUZI_ROOM_SWEEP_SECONDS", d.sweep_seconds),
        ):
            raw = os.environ.get(name) or str(default)
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number of seconds, got {raw!r}") from None
            if not (value > 0 and math.isfinite(value)):
                raise ValueError(f"{name} must be positive, got {raw!r}")
            values.append(value)
        return cls(*values)


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
    await db.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def sweep_rooms(sessions: async_sessionmaker[AsyncSession], settings: ExpirySettings) -> None:
    """Run :func:`expire_rooms` every ``sweep_seconds`` until cancelled (a failed sweep
    is logged and tried again next time)."""
    while True:
        await asyncio.sleep(settings.sweep_seconds)
        try:
            async with sessions() as db:
                closed = await expire_rooms(db, settings)
            if closed:
                log.info("%d room(s) expired", closed)
        except Exception:
            log.exception("room expiry sweep failed")
