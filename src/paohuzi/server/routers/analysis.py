"""复盘 endpoints: ask for the analysis of a finished match for one seat, then read it;
and 提示, the options of the caller's current decision in a practice game.

``POST /matches/{id}/analysis?seat=S`` starts it (202 while it runs; 200 with the
stored one when done); ``GET`` the same path answers its status and result.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from ...core.views import view
from ..clubdb import ClubRoom
from ..db import AnalysisRow, MatchRow, RoomSeat
from ..deps import Db, Me, Srv
from ..errors import ApiError
from ..services.analysis import (
    AnalysisPool,
    analysis_json,
    analysis_summary,
    app_pool,
    may_analyse,
)
from ..validation import MatchId

RoomCode = Annotated[str, Path(pattern=r"^[0-9]{6}$", description="a room's six-digit code")]

__all__ = ["router"]

router = APIRouter()

Seat = Annotated[int, Query(ge=0, le=2, description="the seat to analyse (0-2)")]


def pool(request: Request) -> AnalysisPool:
    """The application's analysis pool, made on first use."""
    return app_pool(request.app.state)


@router.post("/matches/{match_id}/analysis", status_code=202)
async def request_analysis(
    match_id: MatchId, seat: Seat, request: Request, me: Me, db: Db, srv: Srv
) -> Any:
    await may_analyse(db, match_id, me)
    jobs = pool(request)
    row = await db.get(AnalysisRow, (match_id, seat))
    if row is not None and row.status == "done":
        return JSONResponse(analysis_json(row), status_code=200)
    key = (match_id, seat)
    if jobs.under_way(key):  # (its row may not be committed yet: a request beside this one)
        return {"match_id": match_id, "seat": seat, "status": "running"}
    # The account's token and the pool's place are taken before the first ``await``: of
    # concurrent requests, no more pass than the limits allow (18 at once got 15 jobs).
    jobs.reserve(key)
    try:
        srv.rates.analysis.take(str(me.id))
        if row is None:
            row = AnalysisRow(match_id=match_id, seat=seat, status="running", requested_by=me.id)
            db.add(row)
        else:  # failed, or left running by a stopped worker: once more
            row.status, row.result, row.requested_by = "running", None, me.id
        await db.commit()
    except BaseException:
        jobs.release(key)
        raise
    jobs.start(key, srv.sessions, srv.replays)
    return analysis_json(row)


Limit = Annotated[int, Query(ge=1, le=100, description="how many recent analyses")]


@router.get("/analyses/mine")
async def my_analyses(me: Me, db: Db, limit: Limit = 20) -> dict[str, Any]:
    """一致率 and points lost per decision over the finished analyses of the seats the caller
    played, recent first (whoever asked for them): a bot's seat the caller had analysed
    in their match, or a stranger's, is not the caller's play."""
    rows = (
        await db.scalars(
            select(AnalysisRow)
            .join(MatchRow, MatchRow.id == AnalysisRow.match_id)
            .join(
                RoomSeat,
                (RoomSeat.room_id == MatchRow.room_id) & (RoomSeat.seat == AnalysisRow.seat),
            )
            .where(RoomSeat.account_id == me.id, AnalysisRow.status == "done")
            .order_by(AnalysisRow.finished_at.desc())
            .limit(limit)
        )
    ).all()
    items = [analysis_summary(r) for r in rows]
    n = sum(i["decisions"] for i in items)
    overall = {
        "decisions": n,
        "agreement": sum(i["agreement"] * i["decisions"] for i in items) / n if n else None,
        "loss_per_decision": (
            sum(i["loss_per_decision"] * i["decisions"] for i in items) / n if n else None
        ),
    }
    return {"analyses": items, "overall": overall}


@router.get("/matches/{match_id}/analysis")
async def get_analysis(match_id: MatchId, seat: Seat, me: Me, db: Db) -> dict[str, Any]:
    await may_analyse(db, match_id, me)
    row = await db.get(AnalysisRow, (match_id, seat))
    if row is None:
        raise ApiError("no_analysis", f"match {match_id} seat {seat} has not been analysed", 404)
    return analysis_json(row)


@router.post("/rooms/{code}/hint")
async def hint(code: RoomCode, request: Request, me: Me, db: Db, srv: Srv) -> dict[str, Any]:
    """提示: the caller's current decision valued (a game with bots only besides the caller,
    and not a club's: its games count in the standings and the tournaments)."""
    table = srv.hub.tables.get(code)
    if table is None:
        raise ApiError("no_table", f"no game is being played in room {code} here", 404)
    seat = table.seat_of(me.id)
    if seat is None:
        raise ApiError("not_seated", "only a seated player may ask for a hint", 403)
    if any(i.bot is None for s, i in enumerate(table.seats) if s != seat):
        raise ApiError("not_practice", "hints are for games against bots only", 403)
    if await db.scalar(select(ClubRoom.room_id).where(ClubRoom.room_id == table.room_id)):
        raise ApiError(
            "not_practice", "no hints in a club's games: they count in its standings", 403
        )
    st = table.state
    if st.over or seat not in st.to_act() or len(st.legal_actions(seat)) < 2:
        raise ApiError("no_decision", "you have no decision to make now", 409)
    srv.rates.hint.take(str(me.id))
    return await pool(request).hint(view(st, seat), st.rules, st.version)
