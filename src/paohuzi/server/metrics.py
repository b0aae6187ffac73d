"""Operations endpoints of one worker: ``/ready`` and ``/metrics`` (Prometheus text format).

The metrics live in a registry per application (not the process-wide default), so that
several apps in one process (the tests) count separately.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from sqlalchemy.ext.asyncio import AsyncSession

if TYPE_CHECKING:  # pragma: no cover
    from .tables import Table

__all__ = ["Metrics", "add_ops"]

# Commit latency buckets, in seconds: an fsync'd SQLite commit is ~1-10 ms here.
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The worker's counters; also the tables' :class:`~.tables.CommitHooks` (timing each
    commit, and fencing it when ``fence`` is set by the cluster)."""

    def __init__(self, rooms: Callable[[], float], sockets: Callable[[], float]) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.decisions = Counter("paohuzi_decisions", "Decisions committed.", registry=r)
        self.commit_seconds = Histogram(
            "paohuzi_commit_seconds",
            "Wall time of a decision's database transaction.",
            buckets=_BUCKETS,
            registry=r,
        )
        self.refused = Counter(
            "paohuzi_commits_refused",
            "Table writes (decisions, 托管, 解散 votes) refused: this worker no longer held the "
            "table's lease (fencing).",
            registry=r,
        )
        self.lease_moves = Counter(
            "paohuzi_lease_moves", "Tables this worker took over after their lease expired.",
            registry=r,
        )  # fmt: skip
        self.lease_losses = Counter(
            "paohuzi_lease_losses", "Tables this worker stepped down from.", registry=r
        )
        Gauge("paohuzi_rooms", "Live tables this worker runs.", registry=r).set_function(rooms)
        Gauge("paohuzi_sockets", "Open WebSockets on this worker.", registry=r).set_function(
            sockets
        )
        self.fence: Callable[[Table, AsyncSession], Awaitable[None]] | None = None

    @property
    def fencing(self) -> bool:
        """Whether commits are fenced (several workers)."""
        return self.fence is not None

    async def before_commit(self, table: Table, db: AsyncSession) -> None:
        """Fence the commit (several workers); nothing to do for one process."""
        if self.fence is not None:
            await self.fence(table, db)

    def committed(self, table: Table, seconds: float) -> None:
        """Count a durable decision and its commit time."""
        self.decisions.inc()
        self.commit_seconds.observe(seconds)

    def text(self) -> bytes:
        """The Prometheus exposition of every metric."""
        return generate_latest(self.registry)


def add_ops(app: FastAPI, metrics: Metrics, ready: Callable[[], Awaitable[bool]]) -> None:
    """``GET /ready`` (200 when this worker takes traffic: migrated, restored, its Redis
    reachable) and ``GET /metrics``; both outside the OpenAPI schema."""

    @app.get("/ready", include_in_schema=False)
    async def ready_() -> JSONResponse:
        ok = await ready()
        return JSONResponse({"ready": ok}, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_() -> Response:
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST)

    _ = (ready_, metrics_)
