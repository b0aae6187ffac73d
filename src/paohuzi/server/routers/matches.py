"""The match endpoints: a finished match's record (a replay, cached) and a match's ledger rows."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select

from ..db import LedgerEntry
from ..deps import Db, Srv, address
from ..replays import rebuild
from ..validation import MatchId
from .accounts import ledger_json

__all__ = ["router"]

router = APIRouter()


@router.get("/matches/{match_id}/record")
async def match_record(match_id: MatchId, request: Request, srv: Srv) -> Response:
    srv.rates.replay.take(address(request))
    data = await srv.replays.get(match_id, lambda: rebuild(srv.sessions, match_id))
    return Response(data, media_type="application/json")


@router.get("/matches/{match_id}/ledger")
async def match_ledger(match_id: MatchId, db: Db) -> list[dict[str, Any]]:
    rows = (
        await db.scalars(
            select(LedgerEntry).where(LedgerEntry.match_id == match_id).order_by(LedgerEntry.id)
        )
    ).all()
    return [ledger_json(r) for r in rows]
