"""复盘 endpoints: ask for the analysis of a finished match for one seat, then read it.

``POST /matches/{id}/analysis?seat=S`` starts it (202 while it runs; 200 with the
stored one when done); ``GET`` the same path answers its status and result.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..db import AnalysisRow
from ..deps import Db, Me, Srv
from ..errors import ApiError
from ..services.analysis import AnalysisPool, analysis_json, may_analyse
from ..validation import MatchId

__all__ = ["router"]

router = APIRouter()

Seat = Annotated[int, Query(ge=0, le=2, description="the seat to analyse (0-2)")]


def pool(request: Request) -> AnalysisPool:
    """The application's analysis pool, made on first use."""
    state = request.app.state
    if getattr(state, "analysis", None) is None:
        state.analysis = AnalysisPool()
    p: AnalysisPool = state.analysis
    return p


@router.post("/matches/{match_id}/analysis", status_code=202)
async def request_analysis(
    match_id: MatchId, seat: Seat, request: Request, me: Me, db: Db, srv: Srv
) -> Any:
    await may_analyse(db, match_id, me)
    jobs = pool(request)
    row = await db.get(AnalysisRow, (match_id, seat))
    if row is not None and row.status == "done":
        return JSONResponse(analysis_json(row), status_code=200)
    if row is not None and row.status == "running" and (match_id, seat) in jobs.running:
        return analysis_json(row)
    srv.rates.analysis.check(str(me.id))
    jobs.check_room()
    if row is None:
        row = AnalysisRow(match_id=match_id, seat=seat, status="running", requested_by=me.id)
        db.add(row)
    else:  # failed, or left running by a stopped worker: once more
        row.status, row.result, row.requested_by = "running", None, me.id
    await db.commit()
    srv.rates.analysis.spend(str(me.id))
    jobs.start((match_id, seat), srv.sessions, srv.replays)
    return analysis_json(row)


@router.get("/matches/{match_id}/analysis")
async def get_analysis(match_id: MatchId, seat: Seat, me: Me, db: Db) -> dict[str, Any]:
    await may_analyse(db, match_id, me)
    row = await db.get(AnalysisRow, (match_id, seat))
    if row is None:
        raise ApiError("no_analysis", f"match {match_id} seat {seat} has not been analysed", 404)
    return analysis_json(row)
