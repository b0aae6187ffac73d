"""The match endpoints: a finished match's record (a replay, cached) and a match's ledger
rows, each to whoever may see the match's room (rooms.visible_match: a private room's to
its host, players and invite-key holders; a club room's to its members)."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select

from ..db import LedgerEntry
from ..deps import Db, MaybeMe, Srv, address
from ..replays import rebuild
from ..rooms import visible_match
from ..validation import InviteKey, MatchId
from .accounts import ledger_json

__all__ = ["router"]

router = APIRouter()


@router.get("/matches/{match_id}/record")
async def match_record(
    match_id: MatchId, request: Request, srv: Srv, db: Db, me: MaybeMe, key: InviteKey = None
) -> Response:
    """The record, once the match is over (409 before); checked before the cache is
    asked, so a cached private record is never served to an outsider."""
    srv.rates.replay.take(address(request))
    await visible_match(db, match_id, me, key)
    await db.close()  # a rebuild may take seconds: wait on it holding no connection
    data = await srv.replays.get(match_id, lambda: rebuild(srv.sessions, match_id))
    return Response(data, media_type="application/json")


@router.get("/matches/{match_id}/ledger")
async def match_ledger(
    match_id: MatchId, request: Request, srv: Srv, db: Db, me: MaybeMe, key: InviteKey = None
) -> list[dict[str, Any]]:
    """The match's ledger rows (who moved how much 悟性), counted with the address's
    replays: ids are sequential, so walking them all is a flood like any other."""
    srv.rates.replay.take(address(request))
    await visible_match(db, match_id, me, key)
    rows = (
        await db.scalars(
            select(LedgerEntry).where(LedgerEntry.match_id == match_id).order_by(LedgerEntry.id)
        )
    ).all()
    return [ledger_json(r) for r in rows]
