"""The lobby: the public rooms open for players, newest first."""

from typing import Any

from fastapi import APIRouter
from sqlalchemy import select

from ..db import RoomRow
from ..deps import Db
from ..rooms import room_json

__all__ = ["router"]

router = APIRouter()


@router.get("/rooms")
async def lobby(db: Db) -> list[dict[str, Any]]:
    rooms = (
        await db.scalars(
            select(RoomRow)
            .where(RoomRow.public.is_(True), RoomRow.status == "open")
            .order_by(RoomRow.id.desc())
            .limit(100)
        )
    ).all()
    return [await room_json(db, r, None) for r in rooms]
