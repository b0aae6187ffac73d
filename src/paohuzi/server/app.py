"""The application's composition: its shared objects, lifespan, middleware and error answers,
and the routers (routers/) that serve accounts, rooms, matches, the lobby, operators and the
play socket."""

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import Receive, Scope, Send

from . import nearby
from .db import make_engine, upgrade
from .deps import Server
from .errors import ApiError
from .expiry import ExpirySettings, sweep_rooms
from .guard import BodyLimit, GuardSettings
from .headers import SecurityHeaders
from .hub import Hub
from .limits import PlaySettings
from .ratelimit import Rates, RateSettings
from .replays import ReplayCache
from .routers import (
    accounts,
    again,
    analysis,
    clubs,
    lobby,
    matches,
    ops,
    ratings,
    rooms,
    tournaments,
    web,
    ws,
)
from .schemas import ERROR_RESPONSES
from .validation import install as install_validation
from .web import mount_client

__all__ = ["Hub", "create_app"]

log = logging.getLogger("paohuzi.server")


async def _api_error(_: Request, exc: Exception) -> JSONResponse:
    """An :class:`ApiError` as ``{code, reason}`` with its status (and Retry-After)."""
    assert isinstance(exc, ApiError)
    retry = getattr(exc, "retry_after", None)
    headers = {"Retry-After": str(retry)} if retry is not None else None
    return JSONResponse(
        {"code": exc.code, "reason": exc.reason}, status_code=exc.status, headers=headers
    )


class _App(FastAPI):
    """FastAPI, with a play socket handed straight to its handler (routers/ws.py).

    Its frames are most of what the server does, and the middleware and routing between
    (none of which acts on a socket: the security headers and the body limit are for
    HTTP, the error pages too) would be walked by every frame received and every message
    sent (with the outbox's deque, 5 % fewer Python calls a decision under load;
    docs/performance.md). Any other socket path is routed as usual (and refused).
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            code = ws.code_of(scope["path"])
            if code is not None:
                scope["app"] = self
                await ws.play(WebSocket(scope, receive, send), code)
                return
        await super().__call__(scope, receive, send)


def _lifespan(
    db_url: str, engine: AsyncEngine, hub: Hub, expiry: ExpirySettings
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start: migrate, restore the live matches (or join the cluster), sweep expired rooms.
    Stop: the drivers, the sockets, the committer, the cluster's leases, the engine."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(upgrade, db_url)
        if hub.cluster is not None:
            await hub.cluster.start()  # the orphaned matches are claimed, not all of them
        else:
            await hub.restore()
        app.state.ready = True
        log.info("ready: %d tables restored", len(hub.tables))
        sweeper = asyncio.create_task(sweep_rooms(hub.sessions, expiry, hub.tell_expired))
        yield
        app.state.ready = False
        sweeper.cancel()
        pool = getattr(app.state, "analysis", None)
        if pool is not None:  # (its worker process would run on, orphaned: issue 29)
            pool.close()
        await hub.shutdown()
        await engine.dispose()
        log.info("stopped: every acknowledged decision is stored")

    return lifespan


def create_app(
    db_url: str,
    settings: PlaySettings | None = None,
    *,
    redis_url: str | None = None,
    lease_ms: int = 2000,
    rates: RateSettings | None = None,
    expiry: ExpirySettings | None = None,
) -> FastAPI:
    """The application for the database at ``db_url`` (migrated on start); ``settings``
    default to the environment's (:meth:`PlaySettings.from_env`). With ``redis_url`` it
    is one worker of several sharing the database (cluster.py); without, the only one."""
    engine, sessions = make_engine(db_url)
    play_settings = settings or PlaySettings.from_env()
    nearby.close_by_km()  # a bad PAOHUZI_CLOSE_BY_KM is refused at the start, not per request
    hub = Hub(sessions, play_settings)
    srv = Server(
        hub, sessions, play_settings, Rates(rates or RateSettings.from_env()), ReplayCache()
    )
    if redis_url is not None:
        from .cluster import Cluster

        hub.cluster = Cluster(redis_url, hub, hub.metrics, lease_ms=lease_ms)

    app = _App(
        title="paohuzi server",
        version="0.2.0",
        lifespan=_lifespan(db_url, engine, hub, expiry or ExpirySettings.from_env()),
        responses=ERROR_RESPONSES,
    )
    app.state.ready = False
    app.state.server = srv
    app.state.hub = hub
    app.state.replays = srv.replays
    app.state.rates = srv.rates
    install_validation(app)  # 400 {code, reason} for what FastAPI refuses, not 422 {detail}
    app.add_middleware(SecurityHeaders)  # CSP, nosniff, no framing, no referrer
    app.add_middleware(BodyLimit, max_body=GuardSettings.from_env().max_body)
    app.add_exception_handler(ApiError, _api_error)
    app.include_router(ops.router)
    ops.add_probes(app, hub)
    for part in (
        accounts, rooms, again, lobby, matches, clubs, tournaments, ratings, analysis, web, ws
    ):  # fmt: skip
        app.include_router(part.router)
    app.state.seeds = {}  # a room's fixed seed, set by the tests' hook
    if os.environ.get("PAOHUZI_TEST_SEEDS") == "1":
        app.include_router(web.seed_router)
    mount_client(app)  # the browser client: last, so the API comes first
    return app
