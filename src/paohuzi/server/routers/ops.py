"""The operators' endpoints: liveness (``/health``), readiness and metrics (metrics.py), and
``/stats`` (counts only)."""

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import func, select

from ..commit import committer_for
from ..db import LedgerEntry
from ..deps import Db, Srv
from ..hub import Hub
from ..metrics import add_ops

__all__ = ["add_probes", "router"]

router = APIRouter()


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    ok = bool(request.app.state.ready)
    return JSONResponse({"ok": ok}, status_code=200 if ok else 503)


@router.get("/stats")
async def stats(db: Db, srv: Srv) -> dict[str, Any]:
    total = await db.scalar(select(func.count()).select_from(LedgerEntry))
    group = committer_for(srv.sessions)
    return {
        "tables": len(srv.hub.tables),  # a count only: live match ids are no one's business
        "ledger_rows": total,
        "commits": {"writes": group.writes, "transactions": group.batches},
    }


def add_probes(app: FastAPI, hub: Hub) -> None:
    """``/ready`` (migrated and restored, and the cluster's Redis answers) and ``/metrics``."""

    async def ready() -> bool:
        return bool(app.state.ready) and (hub.cluster is None or await hub.cluster.ping())

    add_ops(app, hub.metrics, ready)
