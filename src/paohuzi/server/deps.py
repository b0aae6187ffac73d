"""What the routers share, reached through FastAPI dependencies: the server's state (the hub,
the session factory, settings, rate limits, the replay cache), a database session, the
calling account, and the caller's address."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from . import accounts
from .db import Account
from .errors import ApiError
from .hub import Hub
from .limits import PlaySettings
from .ratelimit import Rates
from .replays import ReplayCache

__all__ = [
    "Db",
    "MaybeMe",
    "Me",
    "Server",
    "Srv",
    "address",
    "bearer",
    "current",
    "db_session",
    "maybe_current",
    "server",
]


@dataclass
class Server:
    """One application's shared objects (``app.state.server``), built by ``create_app``."""

    hub: Hub
    sessions: async_sessionmaker[AsyncSession]
    settings: PlaySettings
    rates: Rates
    replays: ReplayCache
    # What is worked out from a finished match's record, per round: steps, 结算 (routers/web.py)
    derived: ReplayCache = field(default_factory=lambda: ReplayCache(max_items=1024))
    logins: accounts.LoginLimiter = field(default_factory=accounts.LoginLimiter)


def server(conn: HTTPConnection) -> Server:
    """The application's :class:`Server` (a request's or a socket's)."""
    srv: Server = conn.app.state.server
    return srv


Srv = Annotated[Server, Depends(server)]


def address(conn: HTTPConnection) -> str:
    """The caller's address (behind a trusted proxy: the one it forwarded, proxies.py)."""
    return conn.client.host if conn.client else "?"


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, if any."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A database session for one request."""
    async with server(request).sessions() as db:
        yield db


Db = Annotated[AsyncSession, Depends(db_session)]


async def current(db: Db, authorization: Annotated[str | None, Header()] = None) -> Account:
    """The signed-in account (401 without a valid bearer token)."""
    acct = await accounts.account_for_token(db, bearer(authorization))
    if acct is None:
        raise ApiError("unauthenticated", "a valid bearer token is required", 401)
    return acct


Me = Annotated[Account, Depends(current)]


async def maybe_current(
    db: Db, authorization: Annotated[str | None, Header()] = None
) -> Account | None:
    """The signed-in account, or None (a call anyone may make)."""
    return await accounts.account_for_token(db, bearer(authorization))


MaybeMe = Annotated[Account | None, Depends(maybe_current)]
